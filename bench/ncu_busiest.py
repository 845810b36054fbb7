#!/usr/bin/env python3
"""ncu_busiest.py - the unit Nsight Compute finds busiest beside the bound clcoalesce names.

  python3 bench/ncu_busiest.py NCU_CSV VALIDATE_JSON [--api cuda] > table.md

NCU_CSV: `ncu --csv --page raw --metrics ...` over `clcoalesce validate --api cuda` (the
metrics of bench/ncu-busiest.sh); each kernel's last launch counts (the timed one, after its
checked run).  VALIDATE_JSON: `clcoalesce validate -f json` on the same device, whose CUDA
rows name the bound.  The busiest unit is the one with the highest throughput, % of its
peak: DRAM, L2, L1 (the unified L1 and shared memory) or SM.  A bound agrees when it names
that unit: dram, sectors, inflight and groups are DRAM's (its bytes, its scattered
granules, its latency, the rate work reaches it), lines, l2, split and refill the L2's (the
store_steps rows that measure refill keep the L2 busiest, though at half its peak), random
the L2's too (a gather's requests, a sector each), l1 and banks the L1's, work the SM's (its
instructions)."""
import csv
import io
import json
import sys

from ncu_sectors import number  # a cell of ncu's CSV: "1,048,576", "n/a"

UNITS = {
    "DRAM": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "L2": "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "L1": "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "SM": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
}
BOUND_UNIT = {"dram": "DRAM", "sectors": "DRAM", "inflight": "DRAM", "groups": "DRAM",
              "lines": "L2", "l2": "L2", "split": "L2", "refill": "L2", "l1": "L1", "banks": "L1",
              "work": "SM", "random": "L2"}


def ncu_rows(path):
    """Each kernel's last launch in the raw page of NCU_CSV: {kernel: {unit: % or None}}."""
    text = [ln for ln in open(path, encoding="utf-8", errors="replace").read().splitlines()
            if ln.strip() and not ln.startswith("==")]  # ncu's own messages share the log
    start = next((i for i, ln in enumerate(text) if ln.startswith('"ID"')), None)
    if start is None:
        sys.exit(f"{path}: no CSV header (a line starting with \"ID\"): did ncu profile any kernel?")
    rows = list(csv.reader(io.StringIO("\n".join(text[start:]))))
    head = rows[0]
    last = {}
    for r in rows[1:]:
        if len(r) == len(head) and r[head.index("ID")].strip().isdigit():
            last[r[head.index("Kernel Name")]] = {u: number(r[head.index(m)])
                                                   for u, m in UNITS.items()}
    return last


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    api = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--api" else "cuda"
    units = ncu_rows(sys.argv[1])
    kernels = json.load(open(sys.argv[2], encoding="utf-8"))["kernels"]
    print("| kernel | split | bound | " + " | ".join(f"{u} %" for u in UNITS) +
          " | busiest | agrees |")
    print("| --- | --- | --- | " + " | ".join("---:" for _ in UNITS) + " | --- | --- |")
    agree = total = 0
    for k in kernels:
        if k.get("api") != api or k["kernel"] not in units or not k.get("bound"):
            continue
        u = {x: v for x, v in units[k["kernel"]].items() if v is not None}
        if not u:
            continue
        busiest = max(u, key=u.get)
        ok = BOUND_UNIT.get(k["bound"]) == busiest
        agree += ok
        total += 1
        print(f"| {k['kernel']} | {k.get('split', '')} | {k['bound']} | " +
              " | ".join(f"{u[x]:.1f}" if x in u else "-" for x in UNITS) + f" | {busiest} | {'yes' if ok else 'no'} |")
    print(f"\n{agree} of {total} kernels: the bound names the busiest unit "
          f"({100.0 * agree / total if total else 0:.0f} %)")


if __name__ == "__main__":
    main()
