/* empty.c - built as libnvidia-opencl.so.1 for test_cli: a library of that name that the
 * loader can open, as on a machine whose NVIDIA driver is not registered with the ICD loader. */
int clc_fake_nvidia_opencl;
