/* gather_k.cl - lab 5: out[i] = in[idx[i]], idx a random permutation.  --pattern gather.
 *
 * gather_one:   one element per work-item (what the built-in gather does).
 * gather_k:     K = CLC_ITEMS elements per work-item (--items-per-thread K), interleaved as in
 *               lab 1: the index loads and the stores stay coalesced, and the K random loads
 *               are independent, so a work-item keeps K of them in flight.
 * gather_chunk: K consecutive elements per work-item: the index loads and the stores become
 *               stride-K accesses, and the random loads gain nothing. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif

__kernel void gather_one(__global const T *in, __global const uint *idx, __global T *out,
                         ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, LOAD(idx, i)));
}

__kernel void gather_k(__global const T *in, __global const uint *idx, __global T *out,
                       ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t base = get_group_id(0) * (size_t)CLC_LOCAL_X * CLC_ITEMS + get_local_id(0);
    T v[CLC_ITEMS];
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X;
        if (i < n)
            v[k] = LOAD(in, LOAD(idx, i));
    }
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X;
        if (i < n)
            STORE(out, i, v[k]);
    }
}

__kernel void gather_chunk(__global const T *in, __global const uint *idx, __global T *out,
                           ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = first + k;
        if (i < n)
            STORE(out, i, LOAD(in, LOAD(idx, i)));
    }
}
