#!/usr/bin/env bash
# run.sh - installs what is missing (Check and PoCL included), builds, and runs the test
# suite on the default OpenCL device (PoCL where there is no GPU).
#
#   tests/run.sh [--sanitize] [CTEST ARGUMENTS...]
#
#   (nothing)   the suite, built as usual in build/
#   --sanitize  the same suite built with AddressSanitizer and UndefinedBehaviorSanitizer
#               (-DCLC_SANITIZE=ON) in build-sanitize/: any report, a leak included, fails
#               its test; the OpenCL runtime's own leaks are suppressed in tests/lsan.supp
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
case $mode in
--sanitize) shift ;;
*) mode= ;;
esac

if [ "$mode" = --sanitize ]; then
    CLC_BUILD_DIR=$root/build-sanitize
    CLC_CMAKE_ARGS="${CLC_CMAKE_ARGS:-} -DCLC_SANITIZE=ON"
fi
CLC_WITH_TESTS=1
. "$root/cmake/setup.sh"
cd "$CLC_BUILD_DIR"
ctest --output-on-failure "$@"
