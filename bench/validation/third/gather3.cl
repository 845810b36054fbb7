/* gather3.cl - third validation set (family `gather-3`): out[i] = in[idx[i]], idx a random
 * permutation of 0 .. n-1, with the elements dealt out in other ways: a grid-stride loop
 * unrolled by two, a group's indices staged in __local and the block walked from its end, and
 * a warp's 128 elements dealt so that each request touches four 32-byte runs of idx and out.
 * Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* Element i gathered on its own (a macro: LOAD and STORE record into the trace variables). */
#define GATHER_ONE(i) STORE(out, (i), LOAD(in, LOAD(idx, (i))))

/* A grid-stride loop taking i and i + G each pass (G work-items), 2G a pass. */
__kernel void gather_grid_unroll2(__global const T *in, __global const uint *idx,
                                  __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t i = get_global_id(0); i < n; i += 2 * g) {
        GATHER_ONE(i);
        if (i + g < n)
            GATHER_ONE(i + g);
    }
}

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 indices loaded coalesced into __local; work-item l then gathers elements
 * 1023 - l - 256 k of the block, its index from __local, its store coalesced downwards. */
__kernel void gather_local_idx_rev(__global const T *in, __global const uint *idx,
                                   __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint t[1024];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++)
        if (base + l + 256 * k < n)
            LSTORE(t, l + 256 * k, LOAD(idx, base + l + 256 * k));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 1023 - l - 256 * k;
        if (base + e < n)
            STORE(out, base + e, LOAD(in, LLOAD(t, e)));
    }
}
#endif

/* Warp w owns elements 128 w .. 128 w + 127; at step k lane l takes element
 * (l mod 4) * 32 + l / 4 + 8 k of them: four runs of 8 (32 bytes), 128 bytes apart. */
__kernel void gather_lane_spread4(__global const T *in, __global const uint *idx,
                                  __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), lane = j % 32, base = (j / 32) * 128;
    for (uint k = 0; k < 4; k++) {
        size_t i = base + (lane % 4) * 32 + lane / 4 + 8 * k;
        if (i < n)
            GATHER_ONE(i);
    }
}
