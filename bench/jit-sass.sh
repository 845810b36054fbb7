#!/usr/bin/env bash
# jit-sass.sh - the machine code (SASS) that NVIDIA's OpenCL driver really runs for a case's
# kernels.  `clcoalesce ptx` shows the PTX, but ptxas run on that PTX by hand need not make
# what the driver's own compiler makes (on an H100 the driver compiles for sm_90a, with its
# own ptxas).  The driver keeps what it compiled in its compute cache: this runs the case
# once into an empty cache, cuts the cubins out of the cache entries and disassembles them.
#
# usage: bench/jit-sass.sh BUILD_DIR OUTDIR CASE [run options, e.g. --variant tiled_1elem --type float]
# Needs: NVIDIA's OpenCL driver, cuobjdump (CUDA toolkit), python3.
# Writes OUTDIR/sass.txt (every function of every cubin), OUTDIR/res-usage.txt (registers,
# shared memory) and OUTDIR/command.txt.
set -euo pipefail
build=${1:?usage: bench/jit-sass.sh BUILD_DIR OUTDIR CASE [run options]}
out=${2:?usage: bench/jit-sass.sh BUILD_DIR OUTDIR CASE [run options]}
case_name=${3:?usage: bench/jit-sass.sh BUILD_DIR OUTDIR CASE [run options]}
shift 3
command -v cuobjdump >/dev/null || { echo "jit-sass.sh: cuobjdump not found (CUDA toolkit)" >&2; exit 1; }
mkdir -p "$out"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT

# --no-model: no trace builds, only the timed kernels; --quick: small and fast
cmd=("$build/clcoalesce" run "$case_name" --device NVIDIA --quick --no-model --quiet "$@")
CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH="$cache/cache" "${cmd[@]}" >/dev/null
echo "CUDA_CACHE_PATH=<empty dir> ${cmd[*]#$build/}" >"$out/command.txt"

# A cache entry is a header followed by the ELF image of a cubin; cuobjdump ignores what
# follows the image.
python3 - "$cache/cache" "$cache" <<'EOF'
import os, sys
n = 0
for d, _, files in os.walk(sys.argv[1]):
    for f in sorted(files):
        data = open(os.path.join(d, f), 'rb').read()
        at = data.find(b'\x7fELF')
        if at >= 0:
            open(os.path.join(sys.argv[2], 'k%d.cubin' % n), 'wb').write(data[at:])
            n += 1
if n == 0:
    sys.exit('jit-sass.sh: the compute cache holds no cubin (is the driver NVIDIA\'s?)')
EOF
: >"$out/sass.txt"
: >"$out/res-usage.txt"
for c in "$cache"/k*.cubin; do
    cuobjdump -sass "$c" >>"$out/sass.txt"
    cuobjdump -res-usage "$c" >>"$out/res-usage.txt"
done
grep -h "Function :" "$out/sass.txt" | sort | uniq -c
