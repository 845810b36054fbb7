#!/usr/bin/env bash
# run.sh - runs one libFuzzer target of tests/fuzz for a while, from a copy of its seed corpus.
#
#   tests/fuzz/run.sh TARGET SECONDS [CRASH_DIR]
#
# TARGET     fuzz_result, fuzz_size or fuzz_options (built in $CLC_FUZZ_BUILD_DIR, default
#            build-fuzz/, with clang when missing), or the path of a built target
# SECONDS    how long to fuzz
# CRASH_DIR  folder (created) where inputs that crash, leak, time out or trip a sanitizer are
#            saved; without it they are only shown in the log (libFuzzer prints small ones in
#            base64) and removed with the rest
#
# The seed corpus tests/fuzz/corpus/<target> is copied to a temporary folder, which the run
# grows and which is removed afterwards: the source tree is never written.  Exits with the
# fuzzer's status: 0 when nothing was found.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=$1 seconds=$2 crashes=${3:-}

if [ -x "$target" ] && [ ! -d "$target" ]; then
    bin=$target
else
    build=${CLC_FUZZ_BUILD_DIR:-$root/build-fuzz}
    bin=$build/tests/fuzz/$target
    if [ ! -x "$bin" ]; then
        CC=${CC_FUZZ:-clang} cmake -S "$root" -B "$build" -DCLC_FUZZ=ON -DCLC_BUILD_CUDA=OFF >/dev/null
        cmake --build "$build" --target "$target" -j "$(nproc)"
    fi
fi
name=$(basename "$bin")
seeds=$here/corpus/$name
[ -d "$seeds" ] || { echo "run.sh: no seed corpus $seeds" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clc-fuzz-$name-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$seeds"/* "$work/corpus/"
if [ -n "$crashes" ]; then
    mkdir -p "$crashes"
    artifacts=$(cd "$crashes" && pwd)
else
    mkdir "$work/crashes"
    artifacts=$work/crashes
fi
before=$(ls "$work/corpus" | wc -l)

# close_fd_mask=3: the targets' own messages (every refused input says why) are dropped;
# libFuzzer and the sanitizers still report on a copy of stderr.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
rc=0
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$work/corpus" || rc=$?

echo "$name: fuzzed ${seconds} s; corpus $before -> $(ls "$work/corpus" | wc -l) inputs;" \
     "$(ls "$artifacts" | wc -l) finding(s)${crashes:+ in $crashes}" >&2
exit $rc
