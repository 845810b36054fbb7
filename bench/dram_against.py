#!/usr/bin/env python3
"""dram_against.py - DRAM bytes Nsight Compute measured (a dram.csv that ncu_sectors.py
wrote) against the model_dram_bytes of another run of the same rows at the same size: the ncu
counts depend on the kernels and the hardware, not on the model, so a new model is checked
without profiling again.  Usage: dram_against.py DRAM_CSV RUN_JSON [--within 0.15]"""
import argparse
import csv
import json


def row_key(r):
    """A run row's (case, variant, param, type), param as dram.csv writes it."""
    return (r["case"], r["variant"], "-" if r.get("param") is None else str(r["param"]), r["type"])


def read_counts(path):
    """dram.csv's measured rows: row key -> (DRAM bytes read, written)."""
    counts = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["dram_bytes"]:
                counts[(r["case"], r["variant"], r["param"], r["type"])] = (
                    float(r["dram_read_bytes"]), float(r["dram_write_bytes"]))
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dram_csv")
    ap.add_argument("run_json")
    ap.add_argument("--within", type=float, default=0.15)
    a = ap.parse_args()
    measured = {k: sum(v) for k, v in read_counts(a.dram_csv).items()}
    with open(a.run_json) as f:
        rows = json.load(f)["results"]
    compared, outside = 0, []
    for r in rows:
        k = row_key(r)
        model = r.get("model_dram_bytes")
        if k not in measured or not model:
            continue
        compared += 1
        ratio = measured[k] / model
        if abs(ratio - 1) > a.within:
            outside.append((k, ratio))
    print(f"{compared - len(outside)} of {compared} rows within {100 * a.within:.0f} % "
          f"(measured / model DRAM bytes)")
    for k, ratio in outside:
        print(f"  outside: {' '.join(k)}: {ratio:.2f}")


if __name__ == "__main__":
    main()
