/* copy_shifted.cl - lab 2: out[i] = in[i], with the work-items shifted by S elements, so that
 * a warp's 32 floats start S elements past a 128-byte boundary.  Work-item g < n copies
 * element (g + S) mod n, so every element is still copied exactly once.  --pattern copy.
 *
 * copy_shift0:  S = 0, every request 4 whole sectors.
 * copy_shift1:  S = 1, every request straddles a fifth sector.
 * copy_vec4_shift1: four floats per work-item (--items-per-thread 4) with vload4/vstore4 from
 *   in + 1 and to out + 1: 16-byte vectors that are never 16-byte aligned. */
#include "clc.h"

__kernel void copy_shift0(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_id(0);
    if (g < n)
        STORE(out, g, LOAD(in, g));
}

__kernel void copy_shift1(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_id(0);
    if (g < n) {
        size_t i = g + 1 < n ? g + 1 : 0; /* the last work-item takes element 0 */
        STORE(out, i, LOAD(in, i));
    }
}

/* Elements 1 .. 4 * nv go as vectors at in + 1; element 0 and the n - 1 - 4 * nv left at the
 * end are done one by one by the first work-item past the vectors. */
__kernel void copy_vec4_shift1(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_id(0), nv = n > 0 ? (n - 1) / 4 : 0;
    if (g < nv) {
        VSTORE(4, VLOAD(4, g, in + 1), g, out + 1);
    } else if (g == nv && n > 0) {
        STORE(out, 0, LOAD(in, 0));
        for (size_t j = 1 + 4 * nv; j < n; j++)
            STORE(out, j, LOAD(in, j));
    }
}
