#!/usr/bin/env bash
# nvidia.sh - OpenCL next to CUDA on one NVIDIA GPU, from the same kernel sources: builds,
# runs the default suite with --api both (each row timed on both APIs side by side), compares
# the APIs row by row, profiles the device through each API, checks the local-memory bank
# conflicts against Nsight Compute's counters where ncu is installed, and runs the fault
# kernels of bench/faults.  Writes the exact commands beside the results.
#
# usage: bench/nvidia.sh OUTDIR [options for the suite, e.g. --size 512MiB]
# Needs: NVIDIA's OpenCL driver registered with the ICD loader (see docs/nvidia.md), the CUDA driver
# and NVRTC (found at run time), CMake.  Writes OUTDIR/{gpu.txt, devices.txt, both.json,
# both.log, compare.txt, compare.csv, timing.txt, profile-opencl.json, profile-cuda.json,
# banks-ncu.csv, banks-ncu.txt, faults/, commands.txt}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/cmake/nvidia-icd.sh"
out=${1:?usage: bench/nvidia.sh OUTDIR [run options]}
shift
build=$(mkdir -p "${CLC_BUILD_DIR:-$root/build-nvidia}" && cd "${CLC_BUILD_DIR:-$root/build-nvidia}" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

cmake -S "$root" -B "$build" -DBUILD_TESTING=OFF >"$out/build.log" 2>&1
cmake --build "$build" -j "$(nproc)" >>"$out/build.log" 2>&1
bin=$build/clcoalesce

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory,pci.bus_id \
           --format=csv >"$out/gpu.txt" 2>&1 || true
"$bin" list >"$out/devices.txt"

# The commands, exactly as run, so every figure can be reproduced.
suite=("$bin" run --device NVIDIA --api both --host-check -f json -o "$out/both.json" "$@")
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(head -2 "$out/gpu.txt" | tail -1)"
    echo "${suite[*]}"
    echo "clcoalesce compare both.json > compare.txt"
    echo "clcoalesce compare both.json -f csv -o compare.csv"
    echo "clcoalesce profile --device NVIDIA --api opencl -o profile-opencl.json"
    echo "clcoalesce profile --device NVIDIA --api cuda -o profile-cuda.json"
    echo "ncu --metrics <bank conflicts, shared wavefronts> -k regex:banks_ clcoalesce run banks --api cuda -r 1 -w 0 --no-model"
    echo "bench/faults.sh BUILD faults --device NVIDIA"
} | sed "s|$out/||g; s|$build/||g" >"$out/commands.txt"

t0=$(date +%s.%N)
"${suite[@]}" >"$out/both.log" 2>&1 || { tail -20 "$out/both.log"; exit 1; }
t1=$(date +%s.%N)
echo "suite with --api both: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s wall (kernel builds included)" |
    tee "$out/timing.txt"

(
    cd "$out"
    "$bin" compare both.json >compare.txt
    "$bin" compare both.json -f csv -o compare.csv >/dev/null
)
for api in opencl cuda; do
    t0=$(date +%s.%N)
    "$bin" profile --device NVIDIA --api $api -o "$out/profile-$api.json" >"$out/profile-$api.txt" 2>&1
    t1=$(date +%s.%N)
    echo "profile --api $api: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s wall" | tee -a "$out/timing.txt"
done

# Nsight Compute sees the CUDA side: the shared-memory bank conflicts of every banks row.
if command -v ncu >/dev/null; then
    ncu --csv --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum \
        -k regex:banks_ "$bin" run banks --api cuda -r 1 -w 0 --no-model -f json \
        -o "$out/banks-ncu-run.json" >"$out/banks-ncu.csv" 2>"$out/banks-ncu.log" || true
    python3 "$root/bench/banks_ncu.py" "$out/banks-ncu.csv" >"$out/banks-ncu.txt" 2>&1 || true
fi

bash "$root/bench/faults.sh" "$build" "$out/faults" --device NVIDIA || true
tail -4 "$out/compare.txt"
