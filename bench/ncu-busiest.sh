#!/usr/bin/env bash
# run.sh - Nsight Compute's throughput of each unit over the validation set's CUDA kernels,
# beside the bound clcoalesce names (bench/ncu_busiest.py joins them).
#
#   bench/ncu-busiest.sh OUT_DIR [validate options, e.g. --split dev]
#
# Writes OUT_DIR/ncu.csv (ncu --csv --page raw, every launch of the set's kernels; the last
# of each is the timed one) and OUT_DIR/validate.json (a validate run of its own, with its
# predictions), then OUT_DIR/busiest.md.  Needs ncu and a CUDA device whose counters the
# user may read; the kernels run at 512 MiB, a single rep, to keep the replays short.
set -euo pipefail
out=${1:?usage: bench/ncu-busiest.sh OUT_DIR [validate options]}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${CLCOALESCE:-$here/build/clcoalesce}
mkdir -p "$out"
metrics=dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
"$bin" validate --api cuda "$@" -f json -o "$out/validate.json"
ncu --csv --page raw --metrics "$metrics" -k 'regex:^(copy|scale|gather|tr)_' \
    --log-file "$out/ncu.csv" \
    "$bin" validate --api cuda "$@" --size 512MiB --reps 1 --warmup 0 --no-model >/dev/null
python3 "$here/bench/ncu_busiest.py" "$out/ncu.csv" "$out/validate.json" > "$out/busiest.md"
tail -1 "$out/busiest.md"
