#!/usr/bin/env python3
"""bound_against.py - the bound the model names for each row against what Nsight Compute's
DRAM counters say of it: the DRAM bandwidth a launch drew (the DRAM bytes ncu counted for
one launch, a dram.csv that ncu_sectors.py wrote, over that row's median launch time in the
run) as a fraction of the profile's stream ceiling for the row's mix (read, write or copy,
from which way its DRAM bytes went).  A row drawing at least --busy of it keeps DRAM busy:
the model should name `dram`, or `sectors` (DRAM busy with granules it need not move).  A row
named `dram` should draw at least --idle of it.  Rows between the two are not judged.

usage: bound_against.py DRAM_CSV RUN_JSON PROFILE_JSON [--busy 0.9] [--idle 0.8]
                         [--predicted PREDICTED_JSON]
RUN_JSON: the run whose rows (measured GB/s, model_bound) are judged, at the size ncu
profiled; PROFILE_JSON: the profile it was predicted from.  PREDICTED_JSON: the bounds of
`clcoalesce compare --model RUN_JSON --profile PROFILE_JSON -f json` (the run's rows
predicted again by that build) instead of those the run wrote."""
import argparse
import json

from dram_against import read_counts, row_key


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dram_csv")
    ap.add_argument("run_json")
    ap.add_argument("profile_json")
    ap.add_argument("--busy", type=float, default=0.9)
    ap.add_argument("--idle", type=float, default=0.8)
    ap.add_argument("--predicted")
    a = ap.parse_args()
    counted = read_counts(a.dram_csv)
    with open(a.profile_json) as f:
        stream = json.load(f)["stream_gbps"]
    with open(a.run_json) as f:
        rows = json.load(f)["results"]
    if a.predicted:
        with open(a.predicted) as f:
            again = {row_key(r): r.get("model_bound") for r in json.load(f)["files"][0]["rows"]}
        rows = [dict(r, model_bound=again.get(row_key(r))) for r in rows]
    judged, wrong, lines = 0, [], []
    for r in rows:
        k = row_key(r)
        bound = r.get("model_bound")
        if k not in counted or not bound or not r.get("gbps") or not r.get("bytes"):
            continue
        rd, wr = counted[k]
        # a mix whose other way is under 2 % of the bytes is taken as one way
        mix = "read" if wr < 0.02 * (rd + wr) else "write" if rd < 0.02 * (rd + wr) else "copy"
        seconds = r["bytes"] / (r["gbps"] * 1e9)
        drawn = (rd + wr) / seconds / 1e9 / stream[mix]
        if drawn >= a.busy:
            verdict = "yes" if bound in ("dram", "sectors") else "no"
        elif bound == "dram":
            verdict = "yes" if drawn >= a.idle else "no"
        else:
            verdict = ""
        lines.append("%-12s %-18s %6s %-6s %5.2f of %-5s %-8s %s" % (
            k[0], k[1], k[2], k[3], drawn, mix, bound, verdict))
        if verdict:
            judged += 1
            if verdict == "no":
                wrong.append(lines[-1])
    print("%-12s %-18s %6s %-6s %-13s %-8s %s" % ("case", "variant", "param", "type",
                                                  "DRAM drawn", "bound", "agrees"))
    print("\n".join(lines))
    print("\n%d of %d judged rows name a bound that agrees with the DRAM they drew "
          "(busy: at least %.0f %% of the stream ceiling; %s: at least %.0f %%)"
          % (judged - len(wrong), judged, 100 * a.busy, "dram", 100 * a.idle))
    for w in wrong:
        print("  disagrees: " + " ".join(w.split()))


if __name__ == "__main__":
    main()
