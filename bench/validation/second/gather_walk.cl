/* gather_walk.cl - second validation set, 1-D kernels (family `gather-walk`): out[i] =
 * in[idx[i]], idx a permutation of 0 .. n-1, with work-items walking several i: a
 * grid-stride loop, a chunk of consecutive i per work-item walked from its end back to its
 * start, i and i + ceil(n / 2) per work-item, and the index loaded by one work-item and
 * handed through __local memory to a work-item of another warp, which does the data load and
 * the store.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_Y 1
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif

/* Element i gathered on its own.  A macro, not a function: LOAD and STORE record into the
 * kernel's own trace variables. */
#define GATHER_ONE(i) STORE(out, (i), LOAD(in, LOAD(idx, (i))))

/* A grid-stride loop: work-item j gathers j, j + G, j + 2G ... (G the global size): index
 * loads and stores coalesced, a line per warp a step. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void gather_gridstride(__global const T *in, __global const uint *idx,
                                __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t i = get_global_id(0); i < n; i += g)
        GATHER_ONE(i);
}

/* CLC_ITEMS consecutive i per work-item, walked from the chunk's end back to its start: each
 * step the lanes' index loads and stores lie CLC_ITEMS * 4 bytes apart. */
__kernel void gather_chunk_rev(__global const T *in, __global const uint *idx, __global T *out,
                               ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    for (uint k = CLC_ITEMS; k-- > 0;)
        if (first + k < n)
            GATHER_ONE(first + k);
}

/* Work-item j gathers i = j and i = j + h, h = ceil(n / 2): two coalesced walks half the
 * array apart. */
__kernel void gather_two_halves(__global const T *in, __global const uint *idx,
                                __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), h = (n + 1) / 2;
    if (j < h) {
        GATHER_ONE(j);
        if (j + h < n)
            GATHER_ONE(j + h);
    }
}

/* The group's chunk of CLC_LOCAL_X * CLC_ITEMS indices loaded coalesced into __local memory
 * (a group's width a step); after the barrier, work-item l gathers element e + 32 (mod the
 * chunk) for each e it loaded the index of: the index of each element is loaded by a
 * work-item of one warp and used by a work-item of the next. */
__kernel void gather_idx_via_local(__global const T *in, __global const uint *idx,
                                   __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint ix[CLC_LOCAL_X * CLC_ITEMS];
    size_t l = get_local_id(0), chunk = CLC_LOCAL_X * CLC_ITEMS;
    size_t base = get_group_id(0) * chunk;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(ix, e, LOAD(idx, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = (l + k * CLC_LOCAL_X + 32) % chunk;
        if (base + e < n)
            STORE(out, base + e, LOAD(in, LLOAD(ix, e)));
    }
}
