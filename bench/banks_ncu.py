#!/usr/bin/env python3
"""banks_ncu.py - Nsight Compute's shared-memory counters for every row of the banks case
(bench/nvidia.sh profiles `clcoalesce run banks --api cuda -r 1 -w 0 --no-model`): the
conflict degree each launch measured (shared-load wavefronts per warp-level shared load) beside
the one the case predicts, gcd(s, 32) for stride s, 32 and 1 for the tiles.

usage: banks_ncu.py NCU.csv [RUN.json]   (RUN.json: the profiled run's results, default
NCU.csv with -run.json for .csv)  Each row made batch + 3 launches (a lead and a probe, a lead
and one sample of `batch`), in the run's order."""
import csv, json, math, sys

ncu_csv = sys.argv[1]
run_json = sys.argv[2] if len(sys.argv) > 2 else ncu_csv.replace(".csv", "-run.json")
launches = {}  # launch id -> {metric: value}
order = []
with open(ncu_csv, newline="") as f:
    lines = [l for l in f if l.startswith('"')]
for row in csv.DictReader(lines):
    lid = int(row["ID"])
    if lid not in launches:
        launches[lid] = {"kernel": row["Kernel Name"]}
        order.append(lid)
    launches[lid][row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
rows = [r for r in json.load(open(run_json))["results"] if r["status"] == "ok"]
print("%-16s %5s %9s %9s  %s" % ("variant", "param", "predicted", "measured", "launches"))
i = bad = 0
for r in rows:
    n = r["batch"] + 3
    ways = []
    for lid in order[i:i + n]:
        m = launches[lid]
        inst = m.get("smsp__inst_executed_op_shared_ld.sum", 0)
        wav = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0)
        ways.append(wav / inst if inst else float("nan"))
    i += n
    if r["variant"] == "stride":
        want = math.gcd(r["param"], 32)
    else:
        want = 32 if r["variant"] == "tile_col" else 1
    got = sorted(ways)[len(ways) // 2] if ways else float("nan")
    ok = abs(got - want) <= 0.05 * want + 0.05
    bad += not ok
    print("%-16s %5s %9d %9.2f  %d%s" % (r["variant"], r["param"] if r["param"] is not None else "-",
                                         want, got, n, "" if ok else "  <- differs"))
print("%d rows, %d differ from the prediction; %d launches profiled, %d matched to rows"
      % (len(rows), bad, len(order), i))
