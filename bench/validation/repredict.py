#!/usr/bin/env python3
"""repredict.py - a validate run's kernels predicted again by this build's model, on a profile.

  python3 bench/validation/repredict.py VALIDATE_JSON PROFILE_JSON API [--rows]
                                        [--features TRACED_JSON] [--half dev|test|suite]
                                        [--ptx DIR MANIFEST]

Runs `clcoalesce compare --model --profile PROFILE_JSON` over the rows of VALIDATE_JSON
(`clcoalesce validate -f json`) of one API (opencl or cuda), which carry the features their
traces recorded, and prints per split the kernels within +-10 % and +-20 % and the mean
absolute residual (measured / predicted - 1); with --rows, every kernel's too.  A run of the
suite (`clcoalesce run -f json`) in its place is one half, `suite`, of all its rows.  What a
model change does to a measured run, without measuring again: the residuals are against the
same measurements.  With --features, each row that TRACED_JSON (another run of the same
command, on any device: the trace's counts do not depend on it) also holds takes its trace's
figures from there, and keeps its launch's (occupancy, groups, registers) and its build's
(the loads and stores as compiled, the integer work: each API's own PTX) from VALIDATE_JSON:
what a change to the access model does to a measured run, or another API's rows with this
one's traces.  With --ptx, each kernel's integer work
(the work layer's features) is counted again by build/clc-workcount on DIR/KERNEL-API.ptx, the
PTX of the build that ran (MANIFEST's pattern, local and items give its launch, the row's
size its n), and so are its loads in flight as compiled: what a change to those counts
does.  CLCOALESCE names the binary (default build/clcoalesce)."""
import json
import math
import os
import subprocess
import sys
import tempfile


def rows_of(x, out):
    """Every row object (a dict with a variant and a model prediction) under x."""
    if isinstance(x, dict):
        if "variant" in x and x.get("model_gbps"):
            out.append(x)
        for y in x.values():
            rows_of(y, out)
    elif isinstance(x, list):
        for y in x:
            rows_of(y, out)
    return out


LAUNCH = ("resident_per_cu", "registers", "group_items", "groups", "local_bytes",
          "compiled_loads", "stores_combined", "work_units", "work_div32", "work_div64")


def launch(entry, n):
    """The launch validate gives a manifest entry at n elements, as clc-workcount's GLOBAL,
    LOCAL and ARGs (custom.c's launch shapes; buffers far apart)."""
    k, buf = int(entry["items"]), [str(1 << 40), str(2 << 40), str(3 << 40)]
    if entry["pattern"] == "transpose":
        lx, ly = (int(x) for x in entry["local"].split("x"))
        w = math.isqrt(n)
        h = n // w
        return (f"{-(-w // lx) * lx},{-(-(-(-h // k)) // ly) * ly}", f"{lx},{ly}",
                buf[:2] + [str(w), str(h)])
    local = int(entry["local"])
    args = buf + [str(n)] if entry["pattern"] == "gather" else buf[:2] + [str(n)]
    return str(-(-(-(-n // k)) // local) * local), str(local), args


def counted_again(results, api, ptx_dir, manifest, counter):
    """results with each kernel's work features and compiled loads counted on its PTX in
    ptx_dir."""
    head, entries = None, {}
    for line in open(manifest, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.rstrip("\n").split("\t")
        if head is None:
            head = cells
        else:
            entries[cells[1]] = dict(zip(head, cells))
    for r in results:
        e, f = entries.get(r["variant"]), r.get("model_features")
        if e is None or not f:
            continue
        n = r["size_bytes"] // (8 if r.get("type") == "double" else 4)
        g, l, args = launch(e, n)
        out = subprocess.run([counter, os.path.join(ptx_dir, f"{r['variant']}-{api}.ptx"),
                              r["variant"], g, l] + args, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(out.stderr)
        counts = [None if v == "nan" else float(v) for v in out.stdout.split()]
        f["work_units"], f["work_div32"], f["work_div64"], f["compiled_loads"] = counts
    return results


def row_key(r):
    """A row's place in its run: case, variant, param and type."""
    return r.get("case"), r["variant"], r.get("param"), r.get("type")


def traced_again(results, path):
    """results with each row's trace figures from the run at path, where it has the row; the
    launch's and the build's figures stay."""
    traced = {row_key(r): r.get("model_features")
              for r in json.load(open(path, encoding="utf-8"))["results"]}
    for r in results:
        f = traced.get(row_key(r))
        if f and r.get("model_features"):
            r["model_features"] = dict(f, **{k: r["model_features"].get(k) for k in LAUNCH})
    return results


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    val_path, profile, api = sys.argv[1:4]
    here = os.path.dirname(os.path.abspath(__file__))
    binary = os.environ.get("CLCOALESCE", os.path.join(here, "..", "..", "build", "clcoalesce"))
    val = json.load(open(val_path, encoding="utf-8"))
    split = {k["kernel"]: k.get("split") for k in val.get("kernels", []) if k.get("api") == api}
    results = [r for r in val["results"] if r.get("api") == api and r.get("model_features")]
    suite = "kernels" not in val  # a run of the suite: its rows, as one half
    if "--features" in sys.argv:
        at = sys.argv.index("--features") + 1
        if at >= len(sys.argv):
            sys.exit(__doc__)
        results = traced_again(results, sys.argv[at])
    if "--ptx" in sys.argv:
        at = sys.argv.index("--ptx") + 1
        if at + 1 >= len(sys.argv):
            sys.exit(__doc__)
        counter = os.path.join(os.path.dirname(binary), "clc-workcount")
        results = counted_again(results, api, sys.argv[at], sys.argv[at + 1], counter)
    run = {"tool": val.get("tool", "clcoalesce"), "format": 2, "results": results}
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "run.json"), os.path.join(tmp, "out.json")
        json.dump(run, open(src, "w", encoding="utf-8"))
        done = subprocess.run([binary, "compare", "--model", "--profile", profile, src, "-f",
                               "json", "-o", dst], capture_output=True, text=True)
        if done.returncode not in (0, 1) or not os.path.exists(dst):
            sys.exit(done.stderr)
        rows = rows_of(json.load(open(dst, encoding="utf-8")), [])
    halves = ("dev", "test", "suite")
    if "--half" in sys.argv:
        at = sys.argv.index("--half") + 1
        if at >= len(sys.argv) or sys.argv[at] not in halves:
            sys.exit(__doc__)
        halves = (sys.argv[at],)
    for half in halves:
        mine = [r for r in rows if ("suite" if suite else split.get(r["variant"])) == half]
        if not mine:
            continue
        res = [r["gbps"] / r["model_gbps"] - 1 for r in mine]
        unit = "rows" if half == "suite" else "kernels"
        print(f"{half} {api}: {len(mine)} {unit}, within 10 % {sum(abs(x) <= 0.1 for x in res)}, "
              f"within 20 % {sum(abs(x) <= 0.2 for x in res)}, "
              f"MAE {100 * sum(abs(x) for x in res) / len(res):.1f} %")
        if "--rows" in sys.argv:
            for r, x in zip(mine, res):
                name = r["variant"] if half != "suite" else " ".join(
                    str(v) for v in row_key(r) if v is not None)
                print(f"  {name:28} {r['gbps']:9.1f} {r['model_gbps']:9.1f} "
                      f"{100 * x:+6.1f} % {r.get('model_bound', '')}")


if __name__ == "__main__":
    main()
