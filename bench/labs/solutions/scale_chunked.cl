/* scale_chunked.cl - lab 1: out[i] = 2 * in[i] with K = CLC_ITEMS elements per work-item,
 * done two ways.  Run with --pattern scale --items-per-thread 8 (or any K).
 *
 * scale_chunked: work-item g does elements g*K .. g*K + K-1.  At each step of the loop the
 *   lanes of a warp are K elements apart: a stride-K access, K times the sectors per request.
 * scale_interleaved: the work-group's K * local elements are done in K passes; at each pass
 *   neighbouring work-items touch neighbouring elements, so every request is coalesced. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif

__kernel void scale_chunked(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = first + k;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

__kernel void scale_interleaved(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t base = get_group_id(0) * (size_t)CLC_LOCAL_X * CLC_ITEMS + get_local_id(0);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}
