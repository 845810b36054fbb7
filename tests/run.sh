#!/usr/bin/env bash
# run.sh - installs what is missing (Check and PoCL included), builds, and runs the test
# suite on the default OpenCL device (PoCL where there is no GPU).
#
#   tests/run.sh [--sanitize | --fuzz] [CTEST ARGUMENTS...]
#
#   (nothing)   the suite, built as usual in build/
#   --sanitize  the same suite built with AddressSanitizer and UndefinedBehaviorSanitizer
#               (-DCLC_SANITIZE=ON) in build-sanitize/: any report, a leak included, fails
#               its test; the OpenCL runtime's own leaks are suppressed in tests/lsan.supp
#   --fuzz      the libFuzzer targets of tests/fuzz, built with clang (-DCLC_FUZZ=ON) in
#               build-fuzz/, each run for 10 s from its seed corpus (tests/fuzz/run.sh runs
#               one for longer)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
case $mode in
--sanitize | --fuzz) shift ;;
*) mode= ;;
esac

if [ "$mode" = --fuzz ]; then
    # the suite's packages come first (Check: tests/CMakeLists.txt holds the fuzz targets)
    CLC_WITH_TESTS=1
    . "$root/cmake/setup.sh"
    if ! command -v clang >/dev/null; then
        echo "tests/run.sh: --fuzz needs clang and its libFuzzer runtime:" \
             "apt-get install clang libclang-rt-dev" >&2
        exit 1
    fi
    build=$root/build-fuzz
    CC=clang cmake -S "$root" -B "$build" -DCLC_FUZZ=ON >/dev/null
    cmake --build "$build" --target clc_fuzz -j "$(nproc)"
    cd "$build"
    exec ctest -L fuzz --output-on-failure "$@"
fi

if [ "$mode" = --sanitize ]; then
    CLC_BUILD_DIR=$root/build-sanitize
    CLC_CMAKE_ARGS="${CLC_CMAKE_ARGS:-} -DCLC_SANITIZE=ON"
fi
CLC_WITH_TESTS=1
. "$root/cmake/setup.sh"
cd "$CLC_BUILD_DIR"
ctest --output-on-failure "$@"
