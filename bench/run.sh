#!/usr/bin/env bash
# run.sh - quick start: installs what is missing, builds, and runs the default suite on the
# best device (the first GPU, else PoCL on the CPU).  Arguments go to `clcoalesce run`.
set -euo pipefail
CLC_BUILD_TARGET=clcoalesce
. "$(dirname "$0")/../cmake/setup.sh"
. "$(dirname "$0")/../cmake/nvidia-icd.sh"
exec "$CLC_BUILD_DIR/clcoalesce" run "$@"
