/* clc.h - included by every clcoalesce kernel file.
 *
 * T is the element type; the host builds each file with -DT=float, or -DT=double -DCLC_FP64
 * on devices with cl_khr_fp64.  Without options the files still compile (T = float), so an
 * editor or `clang -x cl` can check them alone.  They also compile as CUDA C++ through NVRTC,
 * with cl/clc_cuda.h included first (it says how). */
#ifndef CLC_H
#define CLC_H

/* Under CUDA (cl/clc_cuda.h, CLC_CUDA) double needs no extension. */
#if defined(CLC_FP64) && !defined(CLC_CUDA)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef T
#define T float
#endif

/* The input value of element j: a small integer in [-512, 511] from a hash of j.  The host's
 * clc_value() computes the same numbers, so it can check results without uploading inputs. */
T clc_value(ulong j)
{
    uint h = (uint)j * 2654435761u;
    return (T)((int)(h >> 22) - 512);
}

/* Writes the input pattern on the device, so a large buffer needs no upload.  Every
 * program has this kernel; the host's clc_bench_init_values() runs it. */
__kernel void clc_init(__global T *a, ulong n)
{
    size_t j = get_global_id(0);
    if (j < n)
        a[j] = clc_value(j);
}

/* Every global-memory access in a kernel goes through LOAD and STORE, every access to an
 * element of a __local array through LLOAD and LSTORE, and every kernel's parameter list
 * ends with CLC_TRACE_ARGS and its body starts with CLC_TRACE_BEGIN.  In a normal build they
 * are plain p[i] and nothing; built with -DCLC_TRACE (the access model) they also record the
 * address each work-item touches, so the model is read off the very kernel that is timed.
 * LLOAD(p, i) and LSTORE(p, i, v) take the array (or a row of one: LLOAD(tile[y], x)), not
 * a __local pointer: CUDA cannot qualify those. */
#ifdef CLC_TRACE
#include "clc_trace.h"
#else
#define CLC_TRACE_ARGS
#define CLC_TRACE_BEGIN
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#define LLOAD(p, i) ((p)[i])
#define LSTORE(p, i, v) ((p)[i] = (v))
/* vloadN / vstoreN: N elements at p + N * i, any alignment of p (e.g. VLOAD(4, i, p + 1)). */
#define VLOAD(n, i, p) vload##n((i), (p))
#define VSTORE(n, v, i, p) vstore##n((v), (i), (p))
#endif

#endif
