#!/usr/bin/env python3
"""l2_writes.py - how busy each validation kernel keeps the L2's writes, by the model's count,
beside Nsight Compute's L2 and DRAM throughput.

  python3 bench/validation/l2_writes.py VALIDATE_JSON NCU_CSV PROFILE_JSON [API]

For each kernel of VALIDATE_JSON (`clcoalesce validate -f json`) run through API (default
cuda): its measured GB/s times the sectors the model's l2 layer writes into the L2 per useful
byte (every sector its stores touch, a run's pieces that the L1 merges once, and the sectors
DRAM fills: its DRAM bytes read over 32), over the profile's L2 store rate (`l2`), as a
percentage; then lts__throughput and dram__throughput from NCU_CSV (`ncu --csv --page raw`
over the same kernels, the last launch of each).  Where the model's count is right, the
first is at most the second; a kernel far above 100 % stores fewer sectors than its trace
says: the hardware merges what the model counts apart."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_counts import ncu_rows  # noqa: E402  (the same reading of Nsight Compute's CSV)


def merged(profile, lines):
    """Whether the profile's store merging factor for requests of `lines` lines is below 1
    (the L1 merges such runs): the nearest class measured."""
    sm = profile.get("store_merging") or {}
    classes, factors = sm.get("lines") or [], sm.get("factor") or []
    best = None
    for c, f in zip(classes, factors):
        if f is not None and (best is None or abs(c - lines) < abs(best[0] - lines)):
            best = (c, f)
    return best is not None and best[1] < 1


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    val = json.load(open(sys.argv[1], encoding="utf-8"))
    ncu = ncu_rows(sys.argv[2])
    profile = json.load(open(sys.argv[3], encoding="utf-8"))
    api = sys.argv[4] if len(sys.argv) > 4 else "cuda"
    rate = (profile.get("l2") or {}).get("store_sectors_per_s")
    if not rate:
        sys.exit(f"{sys.argv[3]}: no L2 store rate (a profile from before the l2 case)")
    split = {k["kernel"]: k.get("split") for k in val["kernels"]}
    table = []
    for r in val["results"]:
        f, n = r.get("model_features"), ncu.get(r["variant"])
        if r.get("api") != api or not f or n is None or f.get("store_sectors") is None:
            continue
        a = f.get("accessed") or 1
        stores = f["store_sectors"] * a
        follow, per = (f.get("store_follow_partial") or 0) * a, f.get("store_follow_lines_per_request")
        if follow > 0 and per and merged(profile, per):
            stores -= follow
        fills = (r.get("model_dram_read_bytes") or 0) / r["bytes"] / 32
        busy = 100 * r["gbps"] * 1e9 * (stores + fills) / rate
        table.append((r["variant"], split.get(r["variant"], ""), busy,
                      float(n["lts__throughput.avg.pct_of_peak_sustained_elapsed"]),
                      float(n["dram__throughput.avg.pct_of_peak_sustained_elapsed"])))
    table.sort(key=lambda t: -t[3])
    print("| kernel | split | L2 writes, model % | Nsight L2 % | Nsight DRAM % |")
    print("| --- | --- | ---: | ---: | ---: |")
    for k, s, busy, lts, dram in table:
        print(f"| {k} | {s} | {busy:.1f} | {lts:.1f} | {dram:.1f} |")


if __name__ == "__main__":
    main()
