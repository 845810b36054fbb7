#!/usr/bin/env bash
# nvidia.sh - OpenCL next to CUDA on one NVIDIA GPU: builds both, runs the default suite with
# each, compares them row by row, and plots them when gnuplot is installed.
#
# usage: bench/nvidia.sh OUTDIR [options for both runs, e.g. --size 512MiB]
# Needs: NVIDIA's OpenCL driver registered with the ICD loader (see README), nvcc, CMake.
# Writes OUTDIR/{gpu.txt,devices.txt,opencl.json,cuda.json,compare.txt,compare.csv,
#               opencl.log,cuda.log,timing.txt,launch.txt,commands.txt} and OUTDIR/plots/
# (with gnuplot).  launch.txt: where one launch's time goes in each API (bench/launch_probe.c).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/nvidia.sh OUTDIR [run options]}
shift
build=$(mkdir -p "${CLC_BUILD_DIR:-$root/build-nvidia}" && cd "${CLC_BUILD_DIR:-$root/build-nvidia}" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

cmake -S "$root" -B "$build" -DBUILD_TESTING=OFF \
      -DCMAKE_CUDA_ARCHITECTURES="${CLC_CUDA_ARCH:-90}" >"$out/build.log" 2>&1
cmake --build "$build" -j "$(nproc)" >>"$out/build.log" 2>&1
ocl=$build/clcoalesce
cuda=$build/bench/cuda/clcoalesce-cuda

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory,pci.bus_id \
           --format=csv >"$out/gpu.txt" 2>&1 || true
"$ocl" list >"$out/devices.txt"

# The commands, exactly as run, so every figure can be reproduced.
ocl_cmd=("$ocl" run --device NVIDIA --host-check -f json -o "$out/opencl.json" "$@")
cuda_cmd=("$cuda" run --host-check -f json -o "$out/cuda.json" "$@")
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(head -2 "$out/gpu.txt" | tail -1)"
    echo "${ocl_cmd[*]#$build/}"
    echo "${cuda_cmd[*]#$build/}"
    echo "clcoalesce compare opencl.json cuda.json"
    echo "launch_probe NVIDIA > launch.txt; bench/cuda/launch_probe_cuda >> launch.txt"
} | sed "s|$out/||g; s|$build/||g" >"$out/commands.txt"

: >"$out/timing.txt"
for api in opencl cuda; do
    if [ $api = opencl ]; then cmd=("${ocl_cmd[@]}"); else cmd=("${cuda_cmd[@]}"); fi
    t0=$(date +%s.%N)
    "${cmd[@]}" >"$out/$api.log" 2>&1 || { tail -20 "$out/$api.log"; exit 1; }
    t1=$(date +%s.%N)
    echo "$api suite wall time: $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s (kernel compiles included)" | tee -a "$out/timing.txt"
done

# after the suites, so their timings are not taken right behind these launches
{ "$build/launch_probe" NVIDIA && "$build/bench/cuda/launch_probe_cuda"; } >"$out/launch.txt" 2>&1 ||
    { tail -5 "$out/launch.txt"; exit 1; }

# from inside OUTDIR, so the outputs name the files as they lie beside them
(
    cd "$out"
    "$ocl" compare opencl.json cuda.json >compare.txt
    "$ocl" compare opencl.json cuda.json -f csv -o compare.csv >/dev/null
    if command -v gnuplot >/dev/null; then
        "$ocl" plot opencl.json cuda.json -o plots >/dev/null
    fi
)
tail -4 "$out/compare.txt"
