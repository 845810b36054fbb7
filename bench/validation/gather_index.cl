/* gather_index.cl - validation kernels (family `gather-index`): out[i] = in[idx[i]], idx a
 * permutation of 0 .. n-1, with the index loads done in other ways than one per work-item
 * just before its gather: as uint4 or uint2, prefetched one step ahead, all of a chunk first
 * into __local memory, all of a work-item's first into registers, loaded twice, chunked
 * per work-item, in reverse order, or by XOR-swizzled lanes. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#define CLC_ITEMS 1
#endif

/* Element i gathered on its own.  A macro, not a function: LOAD and STORE record into the
 * kernel's own trace variables. */
#define GATHER_ONE(i) STORE(out, (i), LOAD(in, LOAD(idx, (i))))

/* Four indices as one uint4, four gathers, one float4 store. */
__kernel void gather_idx_vec4(__global const T *in, __global const uint *idx, __global T *out,
                              ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4;
    if (q < n4) {
        uint4 ix = VLOAD(4, q, idx);
        float4 v;
        v.x = LOAD(in, ix.x);
        v.y = LOAD(in, ix.y);
        v.z = LOAD(in, ix.z);
        v.w = LOAD(in, ix.w);
        VSTORE(4, v, q, out);
    } else if (q == n4) {
        for (size_t i = 4 * n4; i < n; i++)
            GATHER_ONE(i);
    }
}

/* Two indices as one uint2, two gathers, two scalar stores. */
__kernel void gather_idx_vec2(__global const T *in, __global const uint *idx, __global T *out,
                              ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n2 = n / 2;
    if (q < n2) {
        uint2 ix = VLOAD(2, q, idx);
        STORE(out, 2 * q, LOAD(in, ix.x));
        STORE(out, 2 * q + 1, LOAD(in, ix.y));
    } else if (q == n2 && 2 * n2 < n) {
        GATHER_ONE(2 * n2);
    }
}

/* CLC_ITEMS elements a grid apart, the next index loaded before the current gather. */
__kernel void gather_prefetch(__global const T *in, __global const uint *idx, __global T *out,
                              ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), i = get_global_id(0);
    uint cur = i < n ? LOAD(idx, i) : 0;
    for (uint k = 0; k < CLC_ITEMS; k++, i += g) {
        uint next = 0;
        if (k + 1 < CLC_ITEMS && i + g < n)
            next = LOAD(idx, i + g);
        if (i < n)
            STORE(out, i, LOAD(in, cur));
        cur = next;
    }
}

/* A group's chunk of CLC_ITEMS * L indices loaded into __local memory first; after the
 * barrier the gathers, a group's width at a time. */
__kernel void gather_split_local(__global const T *in, __global const uint *idx,
                                 __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint ix[CLC_LOCAL_X * CLC_ITEMS];
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(ix, e, LOAD(idx, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LOAD(in, LLOAD(ix, e)));
    }
}

/* All of a work-item's CLC_ITEMS indices (a grid apart) into registers, then the gathers. */
__kernel void gather_idx_batch(__global const T *in, __global const uint *idx, __global T *out,
                               ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), j = get_global_id(0);
    uint ix[CLC_ITEMS];
    for (uint k = 0; k < CLC_ITEMS; k++)
        ix[k] = j + k * g < n ? LOAD(idx, j + k * g) : 0;
    for (uint k = 0; k < CLC_ITEMS; k++)
        if (j + k * g < n)
            STORE(out, j + k * g, LOAD(in, ix[k]));
}

/* The index loaded twice (the second load hits the cache), the smaller of the two used. */
__kernel void gather_idx_twice(__global const T *in, __global const uint *idx, __global T *out,
                               ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        uint a = LOAD(idx, i);
        uint b = LOAD(idx, i);
        STORE(out, i, LOAD(in, min(a, b)));
    }
}

/* CLC_ITEMS consecutive elements per work-item: the index loads lie CLC_ITEMS * 4 bytes
 * apart across the lanes. */
__kernel void gather_chunked(__global const T *in, __global const uint *idx, __global T *out,
                             ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++)
        if (first + k < n)
            GATHER_ONE(first + k);
}

/* Work-item j gathers element n - 1 - j. */
__kernel void gather_reversed(__global const T *in, __global const uint *idx, __global T *out,
                              ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    if (j < n)
        GATHER_ONE(n - 1 - j);
}

/* Lanes XOR 5 inside each aligned block of 32 that lies below n; the last, partial block in
 * order. */
__kernel void gather_lane_xor5(__global const T *in, __global const uint *idx, __global T *out,
                               ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    size_t i = (j | 31) < n ? j ^ 5 : j;
    if (i < n)
        GATHER_ONE(i);
}
