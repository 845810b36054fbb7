/* gather4.cl - fourth validation set (family `gather-4`): out[i] = in[idx[i]], idx a random
 * permutation of 0 .. n-1, dealt in other ways: four neighbouring indices a work-item
 * loaded as a uint4 and stored as a float4, both ends of the array a pass of a grid-stride
 * loop, and a group's indices staged in __local and gathered four neighbours a work-item.
 * Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* Elements 4 t .. 4 t + 3 (CLC_ITEMS = 4): their indices one uint4, the four gathered values
 * one float4; the array's tail element by element. */
__kernel void gather_vec4_both(__global const T *in, __global const uint *idx,
                               __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), first = 4 * t;
    if (first + 4 <= n) {
        uint4 k = VLOAD(4, t, idx);
        float4 v;
        v.x = LOAD(in, k.x);
        v.y = LOAD(in, k.y);
        v.z = LOAD(in, k.z);
        v.w = LOAD(in, k.w);
        VSTORE(4, v, t, out);
    } else {
        for (size_t i = first; i < n; i++)
            STORE(out, i, LOAD(in, LOAD(idx, i)));
    }
}

/* A grid-stride loop over the first half, each pass also gathering element n - 1 - i; the
 * middle element of an odd n by work-item 0. */
__kernel void gather_both_ends(__global const T *in, __global const uint *idx,
                               __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t i = get_global_id(0); i < n / 2; i += g) {
        STORE(out, i, LOAD(in, LOAD(idx, i)));
        STORE(out, n - 1 - i, LOAD(in, LOAD(idx, n - 1 - i)));
    }
    if (get_global_id(0) == 0 && n % 2 == 1)
        STORE(out, n / 2, LOAD(in, LOAD(idx, n / 2)));
}

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 indices loaded coalesced into __local; work-item l then gathers elements
 * 4 l .. 4 l + 3 of the block: stores 16 bytes apart a lane, four requests a line. */
__kernel void gather_local_idx_chunk(__global const T *in, __global const uint *idx,
                                     __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint s[1024];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++)
        if (base + l + 256 * k < n)
            LSTORE(s, l + 256 * k, LOAD(idx, base + l + 256 * k));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n)
            STORE(out, base + e, LOAD(in, LLOAD(s, e)));
    }
}
#endif
