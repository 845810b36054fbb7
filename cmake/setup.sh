#!/usr/bin/env bash
# setup.sh - sourced by bench/run.sh and tests/run.sh: installs what is missing on a
# Debian/Ubuntu machine, then configures and builds clcoalesce in $CLC_BUILD_DIR (build/).
set -euo pipefail

CLC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLC_BUILD_DIR=${CLC_BUILD_DIR:-$CLC_ROOT/build}

# Packages: the build needs the first line; PoCL runs kernels on the CPU where no GPU driver
# is installed; Check and gnuplot only for the tests (gnuplot also for `clcoalesce plot`).
clc_packages="cmake make gcc pkg-config ocl-icd-opencl-dev opencl-headers libjansson-dev
              pocl-opencl-icd"
[ "${CLC_WITH_TESTS:-0}" = 1 ] && clc_packages="$clc_packages check gnuplot-nox"
# libclang: optional (the rewriter of kernels written without the trace macros), for the
# build and the tests alike; the one of the LLVM that PoCL loads, since two LLVM versions in
# one process crash in PoCL's compiler
clc_llvm=$(apt-cache depends libpocl2 2>/dev/null | grep -o 'libllvm[0-9]*' | head -n 1 | tr -dc 0-9)
clc_packages="$clc_packages libclang${clc_llvm:+-$clc_llvm}-dev"

clc_install_missing() {
    local missing=()
    for p in $clc_packages; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        echo "clcoalesce: please install: ${missing[*]}" >&2
        return 1
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null; then
            echo "clcoalesce: missing packages, and no sudo to install them; as root:" >&2
            echo "  apt-get install ${missing[*]}" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    echo "clcoalesce: installing ${missing[*]}" >&2
    if ! { ${sudo[@]+"${sudo[@]}"} apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive ${sudo[@]+"${sudo[@]}"} apt-get install -y -qq \
               --no-install-recommends "${missing[@]}" >/dev/null; }; then
        echo "clcoalesce: installing failed (above); as root: apt-get install ${missing[*]}" >&2
        return 1
    fi
}

# The build's messages go to a log, so they do not bury (or mix into) what the tool prints;
# a failed build shows the log's end.  CLC_BUILD_TARGET builds one target only (bench/run.sh:
# the tool, not the tests).
clc_build() {
    mkdir -p "$CLC_BUILD_DIR"
    local log=$CLC_BUILD_DIR/build.log
    echo "clcoalesce: building in $CLC_BUILD_DIR (messages in $log)" >&2
    local target=()
    [ -n "${CLC_BUILD_TARGET:-}" ] && target=(--target "$CLC_BUILD_TARGET")
    if ! { cmake -S "$CLC_ROOT" -B "$CLC_BUILD_DIR" ${CLC_CMAKE_ARGS:-} &&
           cmake --build "$CLC_BUILD_DIR" -j "$(nproc)" ${target[@]+"${target[@]}"}; } >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "clcoalesce: the build failed; its messages are in $log" >&2
        return 1
    fi
}

if command -v dpkg-query >/dev/null; then
    clc_install_missing
fi
clc_build
