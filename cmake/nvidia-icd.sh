#!/usr/bin/env bash
# nvidia-icd.sh - sourced by bench/run.sh and bench/nvidia.sh: where NVIDIA's OpenCL library
# is installed but not registered with the ICD loader (no .icd file names it: common in
# containers), registers it, as docs/nvidia.md does, when run as root;
# otherwise says how.
clc_register_nvidia_icd() {
    local vendors=/etc/OpenCL/vendors
    command -v ldconfig >/dev/null || return 0
    ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1' || return 0
    case ${OCL_ICD_FILENAMES:-} in *libnvidia-opencl*) return 0 ;; esac
    grep -qs 'libnvidia-opencl' "${OCL_ICD_VENDORS:-$vendors}"/*.icd "$vendors"/*.icd && return 0
    if [ "$(id -u)" -eq 0 ]; then
        mkdir -p "$vendors"
        echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
        echo "clcoalesce: registered NVIDIA's OpenCL driver in $vendors/nvidia.icd" >&2
    else
        echo "clcoalesce: NVIDIA's OpenCL driver is installed but not registered; as root:" \
             "echo libnvidia-opencl.so.1 > $vendors/nvidia.icd" >&2
    fi
}
clc_register_nvidia_icd
