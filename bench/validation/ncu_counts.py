#!/usr/bin/env python3
"""ncu_counts.py - the model's counts per useful byte beside Nsight Compute's, per kernel.

  python3 bench/validation/ncu_counts.py VALIDATE_JSON NCU_CSV NCU_SIZE_BYTES [API]

For each kernel of VALIDATE_JSON (`clcoalesce validate -f json`) run through API (default
cuda), the sectors its stores and loads send the L2 and the DRAM bytes it reads and writes,
each per useful byte: as the model counts them off the trace (model_features, the row's DRAM
bytes) and as Nsight Compute measured them (NCU_CSV: `ncu --csv --page raw` with
lts__t_sectors_srcunit_tex_op_write.sum, lts__t_sectors_srcunit_tex_op_read.sum,
dram__bytes_read.sum and dram__bytes_write.sum over `validate --size NCU_SIZE_BYTES`; each
row's useful bytes scaled from its own size to that one).  Where the two differ, the
hardware does what the trace does not show: merges stores, hits in L1, evicts early."""
import csv
import json
import sys


def ncu_rows(path):
    """The last launch of each kernel in an Nsight Compute raw CSV, by kernel name."""
    lines = [ln for ln in open(path, encoding="utf-8", errors="replace") if ln.startswith('"')]
    rows = csv.reader(lines)
    head = next(rows)
    out = {}
    for row in rows:
        if len(row) == len(head):
            d = dict(zip(head, row))
            out[d["Kernel Name"]] = d
    return out


def number(s):
    return float(s.replace(",", ""))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    val = json.load(open(sys.argv[1], encoding="utf-8"))
    ncu = ncu_rows(sys.argv[2])
    ncu_size = float(sys.argv[3])
    api = sys.argv[4] if len(sys.argv) > 4 else "cuda"
    split = {k["kernel"]: k.get("split") for k in val["kernels"]}
    print("| kernel | split | measured / predicted | store sectors, model / Nsight | load sectors, "
          "model / Nsight | DRAM read B, model / Nsight | DRAM written B, model / Nsight |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in val["results"]:
        f, n = r.get("model_features"), ncu.get(r["variant"])
        if r.get("api") != api or not f or n is None or not r.get("model_gbps"):
            continue
        a = f.get("accessed") or 1
        useful = r["bytes"] * ncu_size / r["size_bytes"]
        model = [(f.get("store_sectors") or 0) * a, (f.get("load_sectors") or 0) * a,
                 r["model_dram_read_bytes"] / r["bytes"], r["model_dram_write_bytes"] / r["bytes"]]
        keys = ["lts__t_sectors_srcunit_tex_op_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                "dram__bytes_read.sum", "dram__bytes_write.sum"]
        got = [number(n[k]) / useful for k in keys]
        cells = " | ".join(f"{m:.4f} / {g:.4f}" for m, g in zip(model, got))
        print(f"| {r['variant']} | {split.get(r['variant'], '')} | "
              f"{r['gbps'] / r['model_gbps']:.2f} | {cells} |")


if __name__ == "__main__":
    main()
