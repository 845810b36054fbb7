#!/usr/bin/env python3
"""ncu_sectors.py - measured 32-byte sectors per request (Nsight Compute) next to the access
model's prediction, one row per case / variant / param / type.

Reads
  * the CSV Nsight Compute wrote while profiling `clcoalesce run --api cuda` with CLC_PROFILE_PROBE=1
    (bench/ncu-sectors.sh runs it): one profiled launch per row, the probe launch, inside an
    NVTX range named clc/<case>/<variant>/<param or ->/<type>;
  * an OpenCL result JSON (`clcoalesce run -f json`) for the model's figures:
    model_sectors_per_req (loads and stores), and model_ld_sectors_per_req /
    model_st_sectors_per_req where the JSON has them.
Writes a CSV and a Markdown table with an `agrees` column (|measured - model| / model <= the
tolerance, 10 % by default, on the overall figure) and a free-text `hardware_notes` column for
the hardware effects that explain a difference, filled in automatically only where the two
disagree (by how much, and whether loads or stores differ), to be completed by hand.

When the CSV also has dram__bytes_read.sum and dram__bytes_write.sum and --dram-csv / --dram-md
are given, a second table sets the DRAM bytes each launch moved next to the model's
model_dram_bytes (model_dram_read_bytes / model_dram_write_bytes where present), read from
--dram-json: a run at the same size as the profiled one, so the profiled run's own JSON
(bench/ncu-sectors.sh --dram).  agrees: |measured / model - 1| <= --dram-tolerance (15 %).
Rows without a model figure are listed but not counted.

Launches are matched to rows by the NVTX range name found in each profiled launch's row of the
CSV (whatever the column is called), so the order of launches does not matter.  When the CSV
carries no range names (ncu run without --nvtx), the launches are matched in order to the
"clcoalesce: probe: <label>" lines the run prints (--probes), leaving out rows whose
timed call launches no kernel (copy/enqueue is a cudaMemcpy); then the counts must agree.

Standard library only.
"""
import argparse
import csv
import io
import json
import math
import re
import sys

METRICS = {
    "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
}

# Optional: DRAM bytes per launch, for the DRAM table (bench/ncu-sectors.sh collects them;
# older CSVs lack them and give the sectors table alone).
DRAM_METRICS = {
    "dram_rd": "dram__bytes_read.sum",
    "dram_wr": "dram__bytes_write.sum",
}
ALL_METRICS = dict(METRICS, **DRAM_METRICS)

LABEL_RE = re.compile(r"clc/([A-Za-z0-9_]+)/([A-Za-z0-9_]+)/(-|-?[0-9]+)/(float|double)")
PROBE_RE = re.compile(r"^clcoalesce(?:-cuda)?: probe: (\S+)\s*$")

# Rows whose timed call is not a kernel launch: the profiler sees nothing for them.
NO_KERNEL = {("copy", "enqueue")}

# Kernels outside any measured access pattern (the initialisation kernels); they are
# launched outside the probe and so are not profiled, but are dropped if a CSV has them.
EXCLUDED_KERNEL_RE = re.compile(r"\b(cu_init|clc_init|clc_pick|clc_address)\b")

COLUMNS = [
    "case", "variant", "param", "type", "kernels",
    "ld_requests", "ld_sectors", "st_requests", "st_sectors",
    "measured_ld", "measured_st", "measured",
    "model_ld", "model_st", "model",
    "diff_pct", "agrees", "hardware_notes",
]

DRAM_COLUMNS = [
    "case", "variant", "param", "type", "size_bytes", "kernels",
    "dram_read_bytes", "dram_write_bytes", "dram_bytes",
    "model_dram_read_bytes", "model_dram_write_bytes", "model_dram_bytes",
    "ratio", "read_ratio", "write_ratio", "agrees", "note",
]


def fail(msg):
    sys.stderr.write("ncu_sectors.py: error: %s\n" % msg)
    sys.exit(1)


def number(cell):
    """A numeric cell of ncu's CSV ("1,048,576", "12.5", "n/a"), or None."""
    if cell is None:
        return None
    s = cell.strip().replace(",", "")
    if s == "" or s.lower() in ("n/a", "nan", "-"):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def label_key(label):
    m = LABEL_RE.fullmatch(label)
    if m is None:
        return None
    return (m.group(1), m.group(2), m.group(3), m.group(4))


def find_label(cells):
    for c in cells:
        m = LABEL_RE.search(c or "")
        if m:
            return (m.group(1), m.group(2), m.group(3), m.group(4))
    return None


def read_ncu_csv(path):
    """The profiled launches in order (dicts with id, kernel, key (or None) and the counts: the
    four sector metrics, and the DRAM ones where the CSV has them), and each metric's unit.
    Accepts the raw page (one row per launch, a column per metric, a unit row) and the
    details page (one row per metric: "Metric Name" / "Metric Value" / "Metric Unit")."""
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    # ncu's own messages ("==PROF== ...", "==WARNING== ...") share the log with the CSV.
    lines = [ln for ln in lines if ln.strip() and not ln.startswith("==")]
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"') or ln.startswith("ID,")),
                 None)
    if start is None:
        fail("%s has no CSV header (a line starting with \"ID\"): did ncu profile any kernel?"
             % path)
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    header = rows[0]
    col = {name: i for i, name in enumerate(header)}

    def cell(r, name):
        i = col.get(name)
        return r[i] if i is not None and i < len(r) else None

    launches = {}
    order = []
    units = {}
    long_form = "Metric Name" in col and "Metric Value" in col
    for r in rows[1:]:
        ident = cell(r, "ID")
        if ident is None or not ident.strip().isdigit():
            # the unit row of the raw page (its units kept), or a stray line
            if not long_form and ident is not None and ident.strip() == "" and not units:
                units = {short: (cell(r, m) or "").strip()
                         for short, m in ALL_METRICS.items() if m in col}
            continue
        if ident not in launches:
            launches[ident] = {"id": int(ident), "kernel": cell(r, "Kernel Name") or "",
                               "key": None, "counts": {}}
            order.append(ident)
        k = launches[ident]
        if long_form:
            name = (cell(r, "Metric Name") or "").strip()
            for short, metric in ALL_METRICS.items():
                if name == metric:
                    k["counts"][short] = number(cell(r, "Metric Value"))
                    units.setdefault(short, (cell(r, "Metric Unit") or "").strip())
            other = [c for i, c in enumerate(r)
                     if i not in (col["Metric Name"], col["Metric Value"])]
        else:
            for short, metric in ALL_METRICS.items():
                if metric in col:
                    k["counts"][short] = number(cell(r, metric))
            metric_cols = {col[m] for m in ALL_METRICS.values() if m in col}
            other = [c for i, c in enumerate(r) if i not in metric_cols]
        if k["key"] is None:
            k["key"] = find_label(other)
    out = [launches[i] for i in order]
    missing = [m for short, m in METRICS.items()
               if out and all(k["counts"].get(short) is None for k in out)]
    if missing:
        fail("%s has no values for %s: was ncu run with --metrics naming them?"
             % (path, ", ".join(missing)))
    return out, units


def has_dram(launches):
    return bool(launches) and all(any(k["counts"].get(short) is not None for k in launches)
                                  for short in DRAM_METRICS)


def read_probes(path):
    keys = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for ln in f:
                m = PROBE_RE.match(ln.rstrip("\n"))
                if m and label_key(m.group(1)) is not None:
                    keys.append(label_key(m.group(1)))
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    return keys


def assign_keys(launches, probes_path):
    """Fills launch["key"] by order from the probe lines when no launch carries a range name."""
    if any(k["key"] is not None for k in launches):
        unlabelled = [k for k in launches if k["key"] is None]
        for k in unlabelled:
            sys.stderr.write("ncu_sectors.py: warning: launch %d (%s) is in no clc/ NVTX range; "
                             "left out\n" % (k["id"], k["kernel"]))
        return [k for k in launches if k["key"] is not None], "NVTX range names"
    if probes_path is None:
        fail("the ncu CSV carries no clc/ NVTX range names (was ncu run with --nvtx?) and no "
             "--probes log was given to match launches by order")
    keys = [key for key in read_probes(probes_path) if key[:2] not in NO_KERNEL]
    if len(keys) != len(launches):
        fail("the ncu CSV has %d launches but %s names %d probes with a kernel: cannot match them "
             "by order (rerun ncu with --nvtx)" % (len(launches), probes_path, len(keys)))
    for k, key in zip(launches, keys):
        k["key"] = key
    return launches, "launch order (probe lines of %s)" % probes_path


def load_report(path):
    """The report at path, each row with its key (case, variant, param, type)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    except ValueError as e:
        fail("%s is not JSON: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        fail("%s is not a clcoalesce report (no results[])" % path)
    keyed = []
    for r in doc["results"]:
        param = r.get("param")
        keyed.append(((r.get("case"), r.get("variant"), "-" if param is None else str(param),
                       r.get("type")), r))
    return doc, keyed


def read_model(path):
    """(case, variant, param, type) -> the OpenCL row, and the report's device name."""
    doc, keyed = load_report(path)
    rows = dict(keyed)
    device = (doc.get("device") or {}).get("name", "")
    return rows, device, doc.get("api", "")


def read_dram_model(path):
    """(case, variant, param, type) -> the row of the JSON the DRAM model figures come from,
    and the whole report.  Of a --api both report it keeps the CUDA row (the model's figures
    are the same on both APIs)."""
    doc, keyed = load_report(path)
    rows = {}
    for key, r in keyed:
        if key not in rows or r.get("api") == "cuda":
            rows[key] = r
    return rows, doc


def ratio(num, den):
    if num is None or den is None or den <= 0:
        return None
    return num / den


def model_num(row, field):
    if row is None:
        return None
    v = row.get(field)
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return None


def rel_diff(measured, model):
    if measured is None or model is None or model <= 0:
        return None
    return (measured - model) / model


def side_words(measured, model, tol, what):
    d = rel_diff(measured, model)
    if d is None:
        return None
    if abs(d) <= tol:
        return "%s agrees" % what
    return "%s %.2f vs %.2f" % (what, measured, model)


def auto_note(row, tol):
    """A note only where measured and model disagree: by how much, and on which side."""
    if row["_model"] is None:
        return "no model figure in the OpenCL JSON"
    if row["_measured"] is None:
        return "no global requests counted"
    d = row["_diff"]
    if d is None or abs(d) <= tol:
        return ""
    parts = ["measured %.2f, model %.2f (x%.2f)" % (row["_measured"], row["_model"],
                                                     row["_measured"] / row["_model"])]
    for what, m, p in (("ld", row["_mld"], row["_pld"]), ("st", row["_mst"], row["_pst"])):
        w = side_words(m, p, tol, what)
        if w:
            parts.append(w)
    return "; ".join(parts)


def fmt(v, digits=2):
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer() and digits == 0:
        return "%d" % v
    return "%.*f" % (digits, v)


def group_launches(launches, metrics):
    """The profiled launches by row key, in first-seen order: per key the kernels' count and
    names and each metric summed over them."""
    grouped = {}
    order = []
    for k in launches:
        key = k["key"]
        if key not in grouped:
            grouped[key] = dict({short: 0.0 for short in metrics}, kernels=0, names=[])
            order.append(key)
        g = grouped[key]
        g["kernels"] += 1
        g["names"].append(k["kernel"])
        for short in metrics:
            g[short] += k["counts"].get(short) or 0.0
    return grouped, order


def unmatched(model_rows, seen, types_seen, skipped):
    """The JSON's rows of the profiled types that no profiled launch matched, each with why:
    copy/enqueue, a skipped variant (`skipped` says where), or a run that lacks it."""
    for key, m in model_rows.items():
        if key in seen or key[3] not in types_seen:
            continue
        why = ("no kernel (a driver copy)" if key[:2] in NO_KERNEL
               else "not profiled: no CUDA launch with this case/variant/param/type")
        if m.get("status") == "skipped":
            why = skipped
        yield key, m, why


def build_rows(launches, model_rows, tol, types_seen):
    grouped, order = group_launches(launches, METRICS)

    rows = []
    for key in order:
        g = grouped[key]
        m = model_rows.get(key)
        mld, mst = ratio(g["ld_sec"], g["ld_req"]), ratio(g["st_sec"], g["st_req"])
        meas = ratio(g["ld_sec"] + g["st_sec"], g["ld_req"] + g["st_req"])
        pred = model_num(m, "model_sectors_per_req")
        d = rel_diff(meas, pred)
        row = {
            "case": key[0], "variant": key[1], "param": key[2], "type": key[3],
            "kernels": str(g["kernels"]),
            "ld_requests": fmt(g["ld_req"], 0), "ld_sectors": fmt(g["ld_sec"], 0),
            "st_requests": fmt(g["st_req"], 0), "st_sectors": fmt(g["st_sec"], 0),
            "measured_ld": fmt(mld), "measured_st": fmt(mst), "measured": fmt(meas),
            "model_ld": fmt(model_num(m, "model_ld_sectors_per_req")),
            "model_st": fmt(model_num(m, "model_st_sectors_per_req")),
            "model": fmt(pred),
            "diff_pct": "" if d is None else "%+.1f" % (100 * d),
            "agrees": "" if d is None else ("yes" if abs(d) <= tol else "no"),
            "_measured": meas, "_model": pred, "_diff": d,
            "_mld": mld, "_mst": mst,
            "_pld": model_num(m, "model_ld_sectors_per_req"),
            "_pst": model_num(m, "model_st_sectors_per_req"),
        }
        notes = [auto_note(row, tol)]
        if g["kernels"] > 1:
            notes.append("%d kernels in the launch, counts summed" % g["kernels"])
        row["hardware_notes"] = "; ".join(n for n in notes if n)
        rows.append(row)

    # OpenCL rows of the profiled types that no profiled launch matched, so every case and
    # variant appears once: copy/enqueue, a skipped variant, or a run that lacks it.
    for key, m, why in unmatched(model_rows, set(order), types_seen, "skipped in the OpenCL run"):
        rows.append({c: "" for c in COLUMNS})
        rows[-1].update({"case": key[0], "variant": key[1], "param": key[2], "type": key[3],
                         "kernels": "0", "model": fmt(model_num(m, "model_sectors_per_req")),
                         "model_ld": fmt(model_num(m, "model_ld_sectors_per_req")),
                         "model_st": fmt(model_num(m, "model_st_sectors_per_req")),
                         "hardware_notes": why})
    return rows


def dram_rows(launches, model_rows, tol, types_seen):
    """One row per profiled case / variant / param / type: measured DRAM bytes (summed over
    the row's kernels) against the model's; then the JSON's rows no launch matched."""
    grouped, order = group_launches(launches, DRAM_METRICS)

    def model_part(m):
        """The row's model cells, and the same figures as numbers (for the Markdown)."""
        nums = {f: model_num(m, f) for f in
                ("model_dram_read_bytes", "model_dram_write_bytes", "model_dram_bytes")}
        cells = {f: fmt(v, 0) for f, v in nums.items()}
        cells["size_bytes"] = fmt(model_num(m, "size_bytes"), 0)
        return cells, nums

    rows = []
    for key in order:
        g = grouped[key]
        m = model_rows.get(key)
        cells, nums = model_part(m)
        total = g["dram_rd"] + g["dram_wr"]
        pred = nums["model_dram_bytes"]
        r = ratio(total, pred)
        notes = []
        if m is None:
            notes.append("no row in the DRAM JSON")
        elif pred is None:
            notes.append("no model figure")
        elif r is None:
            notes.append("the model predicts no DRAM bytes")
        if g["kernels"] > 1:
            notes.append("%d kernels in the launch, bytes summed" % g["kernels"])
        row = {"case": key[0], "variant": key[1], "param": key[2], "type": key[3],
               "kernels": str(g["kernels"]),
               "dram_read_bytes": fmt(g["dram_rd"], 0), "dram_write_bytes": fmt(g["dram_wr"], 0),
               "dram_bytes": fmt(total, 0),
               "ratio": fmt(r, 3),
               "read_ratio": fmt(ratio(g["dram_rd"], nums["model_dram_read_bytes"]), 3),
               "write_ratio": fmt(ratio(g["dram_wr"], nums["model_dram_write_bytes"]), 3),
               "agrees": "" if r is None else ("yes" if abs(r - 1) <= tol else "no"),
               "note": "; ".join(notes)}
        row.update(cells)
        nums.update({"dram_read_bytes": g["dram_rd"], "dram_write_bytes": g["dram_wr"],
                     "dram_bytes": total})
        row["_bytes"] = nums
        rows.append(row)

    # As in the sectors table: every row of the profiled types appears once.
    for key, m, why in unmatched(model_rows, set(order), types_seen, "skipped in the run"):
        cells, nums = model_part(m)
        row = {c: "" for c in DRAM_COLUMNS}
        row.update({"case": key[0], "variant": key[1], "param": key[2], "type": key[3],
                    "kernels": "0", "note": why, "_bytes": nums})
        row.update(cells)
        rows.append(row)
    return rows


def dram_summary(rows, tol):
    compared = sum(1 for r in rows if r["agrees"])
    within = sum(1 for r in rows if r["agrees"] == "yes")
    return ("%d of %d rows compared within %g %% (measured / model DRAM bytes); "
            "%d rows without a comparison" % (within, compared, 100 * tol, len(rows) - compared))


def grouped_bytes(v):
    return "" if v is None else "{:,.0f}".format(v)


def write_dram_md(path, rows, args, launches_device, doc, matched_by):
    sizes = sorted({r["size_bytes"] for r in rows if r["size_bytes"]}, key=int)
    shown = ["case", "variant", "param", "type", "dram_read_bytes", "dram_write_bytes",
             "dram_bytes", "model_dram_read_bytes", "model_dram_write_bytes", "model_dram_bytes",
             "ratio", "read_ratio", "write_ratio", "agrees", "note"]
    device = (doc.get("device") or {}).get("name", "")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Measured DRAM bytes per launch vs the access model\n\n")
        f.write("- measured: Nsight Compute, `dram__bytes_{read,write}.sum` over one launch per "
                "row (the CUDA back end's probe launch, caches flushed before it)%s\n"
                % (" on %s" % launches_device if launches_device else ""))
        f.write("- model: `model_dram_{read_,write_,}bytes` of `%s`%s; size_bytes %s\n"
                % (args.dram_json, " (%s)" % device if device else "",
                   ", ".join(sizes) if sizes else "not given"))
        f.write("- bytes per launch; ratio = measured / model; agrees: |ratio - 1| <= %g %%; "
                "launches matched by %s\n"
                % (100 * args.dram_tolerance, matched_by))
        f.write("- %s\n\n" % dram_summary(rows, args.dram_tolerance))
        f.write("| " + " | ".join(shown) + " |\n")
        f.write("|" + "|".join("---" for _ in shown) + "|\n")
        for r in rows:
            cells = [grouped_bytes(r["_bytes"].get(c)) if c in r["_bytes"] else r[c]
                     for c in shown]
            f.write("| " + " | ".join(md_cell(c) for c in cells) + " |\n")


def md_cell(s):
    return str(s).replace("|", "\\|")


def write_md(path, rows, args, matched_by, device, launches_device, tol):
    n = len(rows)
    yes = sum(1 for r in rows if r["agrees"] == "yes")
    no = sum(1 for r in rows if r["agrees"] == "no")
    shown = ["case", "variant", "param", "type", "ld_requests", "st_requests",
             "measured_ld", "measured_st", "measured", "model_ld", "model_st", "model",
             "diff_pct", "agrees", "hardware_notes"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Measured sectors per request vs the access model\n\n")
        f.write("- measured: Nsight Compute, `l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_"
                "{ld,st}.sum` over one launch per row (the CUDA back end's probe launch)%s\n"
                % (" on %s" % launches_device if launches_device else ""))
        f.write("- model: `%s`%s\n" % (args.opencl_json,
                                       " (%s)" % device if device else ""))
        f.write("- measured = (ld sectors + st sectors) / (ld requests + st requests); "
                "measured_ld / measured_st per direction\n")
        f.write("- agrees: |measured - model| / model <= %g %%; launches matched by %s\n"
                % (100 * tol, matched_by))
        f.write("- %d rows: %d agree, %d disagree, %d without a comparison\n\n"
                % (n, yes, no, n - yes - no))
        f.write("| " + " | ".join(shown) + " |\n")
        f.write("|" + "|".join("---" for _ in shown) + "|\n")
        for r in rows:
            f.write("| " + " | ".join(md_cell(r[c]) for c in shown) + " |\n")


def write_csv(path, rows, columns=COLUMNS):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for r in rows:
            w.writerow([r[c] for c in columns])


def launches_device_name(path):
    """The device column of the CSV, when ncu wrote one (for the Markdown header only)."""
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip() and not ln.startswith("==")]
    except OSError:
        return ""
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        return ""
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:start + 3]))))
    if len(rows) < 2:
        return ""
    for name in ("device__attribute_display_name", "Device Name", "Device"):
        if name in rows[0]:
            i = rows[0].index(name)
            for r in rows[1:]:
                if i < len(r) and r[i].strip() and not r[i].strip().isdigit():
                    return r[i].strip()
    return ""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ncu-csv", required=True, help="ncu --csv output (raw or details page)")
    p.add_argument("--opencl-json", required=True, help="clcoalesce run -f json output")
    p.add_argument("--probes", help="the run's stderr, for matching launches by order")
    p.add_argument("--csv", required=True, help="table to write, CSV")
    p.add_argument("--md", required=True, help="table to write, Markdown")
    p.add_argument("--tolerance", type=float, default=0.10,
                   help="relative difference still counted as agreement (default 0.10)")
    p.add_argument("--dram-json",
                   help="clcoalesce run -f json output at the profiled size, for the DRAM "
                        "table's model figures (bench/ncu-sectors.sh --dram: cuda-profiled.json)")
    p.add_argument("--dram-csv", help="DRAM table to write, CSV (needs --dram-json)")
    p.add_argument("--dram-md", help="DRAM table to write, Markdown (needs --dram-json)")
    p.add_argument("--dram-tolerance", type=float, default=0.15,
                   help="|measured / model - 1| still counted as agreement in the DRAM table "
                        "(default 0.15)")
    args = p.parse_args()
    want_dram = bool(args.dram_csv or args.dram_md)
    if want_dram and not args.dram_json:
        fail("--dram-csv / --dram-md need --dram-json (the run's JSON at the profiled size)")

    launches, units = read_ncu_csv(args.ncu_csv)
    launches = [k for k in launches if not EXCLUDED_KERNEL_RE.search(k["kernel"])]
    if not launches:
        fail("%s lists no profiled launch" % args.ncu_csv)
    launches, matched_by = assign_keys(launches, args.probes)
    model_rows, device, api = read_model(args.opencl_json)
    if api and api not in ("opencl", "both"):
        sys.stderr.write("ncu_sectors.py: warning: %s is a %s report; the model figures come "
                         "from the OpenCL tool\n" % (args.opencl_json, api))
    types_seen = {k["key"][3] for k in launches}
    rows = build_rows(launches, model_rows, args.tolerance, types_seen)
    write_csv(args.csv, rows)
    write_md(args.md, rows, args, matched_by, device, launches_device_name(args.ncu_csv),
             args.tolerance)
    yes = sum(1 for r in rows if r["agrees"] == "yes")
    no = sum(1 for r in rows if r["agrees"] == "no")
    print("%d rows: %d agree, %d disagree, %d without a comparison -> %s, %s"
          % (len(rows), yes, no, len(rows) - yes - no, args.csv, args.md))

    if want_dram and not has_dram(launches):
        sys.stderr.write("ncu_sectors.py: warning: %s has no values for %s: no DRAM table\n"
                         % (args.ncu_csv, ", ".join(DRAM_METRICS.values())))
    elif want_dram:
        # Scaled units (ncu without --print-units base) would otherwise be read as bytes.
        for short, metric in DRAM_METRICS.items():
            if units.get(short, "") not in ("", "byte"):
                fail("%s gives %s in %s, not bytes: run ncu with --print-units base"
                     % (args.ncu_csv, metric, units[short]))
        dram_model, doc = read_dram_model(args.dram_json)
        if not any(model_num(m, "model_dram_bytes") is not None for m in dram_model.values()):
            sys.stderr.write("ncu_sectors.py: warning: %s has no model_dram_bytes (a run with "
                             "--no-model, or by a clcoalesce without the DRAM model)\n"
                             % args.dram_json)
        drows = dram_rows(launches, dram_model, args.dram_tolerance, types_seen)
        if args.dram_csv:
            write_csv(args.dram_csv, drows, DRAM_COLUMNS)
        if args.dram_md:
            write_dram_md(args.dram_md, drows, args, launches_device_name(args.ncu_csv), doc,
                          matched_by)
        print("DRAM: %s -> %s" % (dram_summary(drows, args.dram_tolerance),
                                  ", ".join(x for x in (args.dram_csv, args.dram_md) if x)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
