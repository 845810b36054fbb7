/* gridstride.cl - out[i] = in[i] * 2 two ways: one element per work-item over a grid as
 * large as the array, or a fixed grid whose work-items loop over the array in steps of the
 * grid's width.  Same elements, same bytes; only the launch shape differs. */
#include "clc.h"

__kernel void monolithic(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}

/* groups = the number of work-groups launched, so the stride is the whole grid: at every
 * step a warp still reads consecutive elements, and the grid sweeps the array front to
 * back. */
__kernel void gridstride(__global const T *in, __global T *out, ulong n, uint groups CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t stride = (size_t)groups * get_local_size(0);
    for (size_t i = get_global_id(0); i < n; i += stride)
        STORE(out, i, LOAD(in, i) * 2);
}
