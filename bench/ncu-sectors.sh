#!/usr/bin/env bash
# ncu-sectors.sh - the access model checked against the hardware: Nsight Compute counts the
# global load / store requests and 32-byte sectors of every kernel launched through the CUDA
# back end (the same .cl sources, compiled by NVRTC), and bench/ncu_sectors.py sets the
# measured sectors per request next to the model's prediction from a result JSON.  It also
# counts the DRAM bytes of each launch; with --dram they are set next to the model's
# model_dram_bytes.
#
# usage: bench/ncu-sectors.sh [--dram] BUILD_DIR RESULT_JSON OUTDIR [clcoalesce run options]
#   --dram       profile at the tool's default size (at least 4 x the L2: 1 GiB arrays on an
#                H100) instead of 8 MiB, with the model on, and write the DRAM table too:
#                measured DRAM bytes per launch against model_dram_bytes of the profiled
#                run's own JSON (cuda-profiled.json, same size); agreement within 15 %
#   BUILD_DIR    holds clcoalesce (e.g. build-nvidia from bench/nvidia.sh)
#   RESULT_JSON  `clcoalesce run -f json` output with the model on (e.g. bench/nvidia.sh's
#                OUTDIR/both.json)
#   extra options go to the run after the defaults below, so they override them
#   (e.g. --type all for fp64 too, or CASE names to profile only those cases).
# Needs: an NVIDIA GPU, Nsight Compute (ncu on PATH, at /usr/local/cuda/bin/ncu, or NCU=path),
#        python3, and permission to read GPU performance counters.
# Writes OUTDIR/{ncu-raw.csv,sectors.csv,sectors.md,ncu-command.txt}, with --dram also
#        OUTDIR/{dram.csv,dram.md}, and, for reference, OUTDIR/{cuda-profiled.json,
#        cuda-profiled.log}.
#
# How launches become rows: with CLC_PROFILE_PROBE=1 the CUDA back end wraps each row's probe
# launch (one launch, after warm-up, before the timed samples; see timer_time in
# host/driver/driver.c) in cuProfilerStart/Stop and prints "clcoalesce: probe:
# clc/<case>/<variant>/<param or ->/<type>" first.  ncu runs with --profile-from-start off,
# so it profiles exactly those launches: not the initialisation kernels, not the warm-up, not
# the batched timing launches; the launches are matched to the probe lines in order.
# Sectors and requests per launch do not depend on the size once many warps run, so a small
# array (8 MiB) keeps the profile short.  DRAM bytes do depend on it: 8 MiB fits in the L2
# and reaches DRAM hardly at all, hence --dram and the default size.  The model's trace
# launches run outside cuProfilerStart/Stop, so they are not profiled either.
# --cache-control all (ncu's default, named for the DRAM counts) flushes the caches before
# each profiled pass, so each launch starts from DRAM; --clock-control none leaves the GPU's
# clocks alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: bench/ncu-sectors.sh [--dram] BUILD_DIR RESULT_JSON OUTDIR [clcoalesce run options]"
dram=0
if [ "${1:-}" = --dram ]; then
    dram=1
    shift
fi
build=${1:?$usage}
json=${2:?$usage}
out=${3:?$usage}
shift 3

die() {
    echo "ncu-sectors.sh: error: $*" >&2
    exit 1
}

bin=$build/clcoalesce
[ -x "$bin" ] || die "$bin not found: build clcoalesce first (bench/nvidia.sh, or cmake)"
[ -r "$json" ] || die "cannot read the result '$json' (clcoalesce run -f json -o FILE)"
command -v python3 >/dev/null || die "python3 not found"

ncu=${NCU:-}
if [ -z "$ncu" ]; then
    if command -v ncu >/dev/null; then
        ncu=$(command -v ncu)
    elif [ -x /usr/local/cuda/bin/ncu ]; then
        ncu=/usr/local/cuda/bin/ncu
    else
        die "Nsight Compute (ncu) not found on PATH or at /usr/local/cuda/bin/ncu; install it (part of the CUDA toolkit) or set NCU=/path/to/ncu"
    fi
fi
[ -x "$ncu" ] || die "NCU=$ncu is not an executable"

mkdir -p "$out"
raw=$out/ncu-raw.csv
rm -f "$raw" "$out/dram.csv" "$out/dram.md"

metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,dram__bytes_read.sum,dram__bytes_write.sum

if [ "$dram" -eq 1 ]; then
    # The default size, and the model, so the run's own JSON predicts the DRAM bytes at it.
    run_opts=(--api cuda --type float --reps 1 --warmup 0)
else
    run_opts=(--api cuda --type float --size 8MiB --reps 1 --warmup 0 --no-model)
fi
run_cmd=("$bin" run "${run_opts[@]}" --no-progress -f json -o "$out/cuda-profiled.json" "$@")
ncu_cmd=("$ncu" --profile-from-start off --cache-control all --clock-control none
         --metrics "$metrics" --csv --page raw --print-units base
         --log-file "$raw" "${run_cmd[@]}")
py_cmd=(python3 "$root/bench/ncu_sectors.py" --ncu-csv "$raw" --opencl-json "$json"
        --probes "$out/cuda-profiled.log" --csv "$out/sectors.csv" --md "$out/sectors.md")
[ "$dram" -eq 0 ] || py_cmd+=(--dram-json "$out/cuda-profiled.json" --dram-csv "$out/dram.csv"
                              --dram-md "$out/dram.md")

# The commands, exactly as run.
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $("$ncu" --version 2>/dev/null | tail -1)"
    echo "CLC_PROFILE_PROBE=1 ${ncu_cmd[*]} >$out/cuda-profiled.log 2>&1"
    echo "${py_cmd[*]}"
} >"$out/ncu-command.txt"

t0=$(date +%s)
rc=0
CLC_PROFILE_PROBE=1 "${ncu_cmd[@]}" >"$out/cuda-profiled.log" 2>&1 || rc=$?
echo "profiling took $(($(date +%s) - t0)) s (ncu exit status $rc)"
if grep -q ERR_NVGPUCTRPERM "$raw" "$out/cuda-profiled.log" 2>/dev/null; then
    die "no permission to read the GPU's performance counters: run as root, or see
  https://developer.nvidia.com/ERR_NVGPUCTRPERM (NVreg_RestrictProfilingToAdminUsers=0)"
fi
if ! grep -q '^"ID"' "$raw" 2>/dev/null; then
    tail -20 "$out/cuda-profiled.log" >&2 || true
    [ -r "$raw" ] && tail -20 "$raw" >&2
    die "ncu profiled no launch (see $out/cuda-profiled.log and $raw)"
fi
# A failed row (wrong result) still leaves the others' counters usable.
[ "$rc" -eq 0 ] || echo "ncu-sectors.sh: warning: the profiled run exited $rc; see $out/cuda-profiled.log" >&2

"${py_cmd[@]}"
