#!/usr/bin/env bash
# faults.sh - the kernels of bench/faults/ through `clcoalesce custom`: an out-of-bounds store
# and load (named by the checked run before any unchecked launch), a wild store the check
# cannot see (the failed launch or the crashed child named), and an endless loop (stopped at
# --timeout).  Each must exit 1 with its message; the outputs go to OUTDIR.
#
# usage: bench/faults.sh BUILD_DIR OUTDIR [run options, e.g. --device NVIDIA]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:?usage: bench/faults.sh BUILD_DIR OUTDIR [options]}/clcoalesce
out=${2:?usage: bench/faults.sh BUILD_DIR OUTDIR [options]}
shift 2
mkdir -p "$out"
: >"$out/commands.txt"
status=0
run() { # name kernel-file kernel extra...
    local name=$1 file=$2 kernel=$3
    shift 3
    local cmd=("$bin" custom --kernel-file "$root/bench/faults/$file" --kernel "$kernel"
               --pattern copy "$@")
    echo "clcoalesce custom --kernel-file bench/faults/$file --kernel $kernel --pattern copy $*" \
        >>"$out/commands.txt"
    local t0 t1 rc
    t0=$(date +%s.%N)
    "${cmd[@]}" >"$out/$name.out" 2>"$out/$name.err"
    rc=$?
    t1=$(date +%s.%N)
    printf '%s: exit %d after %.1f s: %s\n' "$name" "$rc" "$(awk "BEGIN { print $t1 - $t0 }")" \
        "$(grep -m1 'error:' "$out/$name.err")" | tee -a "$out/summary.txt"
    [ "$rc" = 1 ] || status=1
}
: >"$out/summary.txt"
run oob_store oob_store.cl copy_k "$@"
run oob_load oob_load.cl copy_k "$@"
run unchecked_store unchecked_store.cl wild "$@"
run endless endless.cl spin --timeout 10 "$@"
exit $status
