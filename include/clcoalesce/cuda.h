/* cuda.h - what the CUDA back end offers besides the backend interface: compiling a kernel
 * file to PTX (or to a cubin) with NVRTC alone, which needs no GPU (the tests check every
 * kernel of every case through it wherever NVRTC is installed). */
#ifndef CLCOALESCE_CUDA_H
#define CLCOALESCE_CUDA_H

#include <stddef.h>

/* Compiles kernel file `file` (relative to kernel_dir unless absolute) with the OpenCL-style
 * `options` (-D defines; the rest is ignored) as CUDA C++ for compute capability
 * cc_major.cc_minor, as the CUDA back end does (cl/clc_cuda.h says how).  On success the PTX
 * and the compiler's log are returned in *ptx and *log (free both).  CLC_ERR after a message
 * when NVRTC is missing or the file does not compile (its log, naming `device`). */
int clc_cuda_ptx(const char *kernel_dir, const char *file, const char *options, int cc_major,
                 int cc_minor, const char *device, char **ptx, char **log);

/* The same compiled by NVRTC past PTX to the GPU's own code: a cubin of *size bytes for
 * sm_<cc_major><cc_minor> (free *cubin and *log).  CLC_ERR, with no message, where NVRTC is
 * missing, does not know the GPU, or the file does not compile (clc_cuda_ptx says why). */
int clc_cuda_cubin(const char *kernel_dir, const char *file, const char *options, int cc_major,
                   int cc_minor, char **cubin, size_t *size, char **log);

struct clc_device_meta;

/* The facts the CUDA driver (libcuda.so.1, loaded at run time) gives of the GPU at PCI bus
 * id `pci_bus_id` ("0000:41:00.0"): SM count, L2 size, DRAM clock and bus width, and the
 * peak bandwidth from them, each with "CUDA driver" as its source in m.  CLC_OK, or CLC_ERR
 * (m untouched, no message) when there is no driver or no such GPU. */
int clc_cuda_device_facts(const char *pci_bus_id, struct clc_device_meta *m);

#endif
