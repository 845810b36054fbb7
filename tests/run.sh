#!/usr/bin/env bash
# run.sh - installs what is missing (Check and PoCL included), builds, and runs the test
# suite on the default OpenCL device (PoCL where there is no GPU).
set -euo pipefail
CLC_WITH_TESTS=1
. "$(dirname "$0")/../cmake/setup.sh"
cd "$CLC_BUILD_DIR"
ctest --output-on-failure "$@"
