/* gather6.cl - sixth validation set (family `gather-6`): out[i] = in[idx[i]], idx a random
 * permutation of 0 .. n-1, with the indices reaching the work-item that gathers in other
 * ways: a group's indices loaded as uint4 by a quarter of its work-items and handed out
 * through __local, a group-stride loop over blocks of indices staged in two __local buffers
 * in turn (the next block's loaded while the current one is gathered), and four
 * neighbouring indices a work-item loaded as a uint4, the gathered values handed through
 * __local so that the stores are coalesced.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

#if CLC_LOCAL_X % 4 == 0
/* A group's L indices loaded as L / 4 uint4 by work-items l < L / 4 (two of eight warps
 * under 256: 512 bytes a warp) into __local (lanes 16 bytes apart: four lanes a bank); after
 * the barrier every work-item gathers its own element and stores it coalesced.  A block cut
 * by the array's end: the indices one a work-item. */
__kernel void gather_quarter_idx_uint4(__global const T *in, __global const uint *idx,
                                       __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint s[CLC_LOCAL_X];
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X;
    if (base + CLC_LOCAL_X <= n) {
        if (l < CLC_LOCAL_X / 4) {
            uint4 k = VLOAD(4, base / 4 + l, idx);
            LSTORE(s, 4 * l, k.x);
            LSTORE(s, 4 * l + 1, k.y);
            LSTORE(s, 4 * l + 2, k.z);
            LSTORE(s, 4 * l + 3, k.w);
        }
    } else if (base + l < n) {
        LSTORE(s, l, LOAD(idx, base + l));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + l < n)
        STORE(out, base + l, LOAD(in, LLOAD(s, l)));
}
#endif

/* Blocks of L elements taken by the groups in turn (group g of G: blocks g, g + G ...;
 * CLC_ITEMS = 4: about four a group), the indices staged in two __local buffers: block c's
 * are gathered from one while block c + G's are loaded into the other, one barrier a block.
 * Index loads and stores coalesced, a block's G * L elements apart. */
__kernel void gather_local_pingpong(__global const T *in, __global const uint *idx,
                                    __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint s[2][CLC_LOCAL_X];
    size_t l = get_local_id(0), ng = get_num_groups(0);
    size_t blocks = (n + CLC_LOCAL_X - 1) / CLC_LOCAL_X, c = get_group_id(0);
    if (c < blocks && c * CLC_LOCAL_X + l < n)
        LSTORE(s[0], l, LOAD(idx, c * CLC_LOCAL_X + l));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint buf = 0; c < blocks; buf ^= 1, c += ng) {
        size_t i = c * CLC_LOCAL_X + l, next = (c + ng) * CLC_LOCAL_X + l;
        if (c + ng < blocks && next < n)
            LSTORE(s[buf ^ 1], l, LOAD(idx, next));
        if (i < n)
            STORE(out, i, LOAD(in, LLOAD(s[buf], l)));
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#if CLC_ITEMS == 4
/* Elements 4 l .. 4 l + 3 of a group's block of 4 L (CLC_ITEMS = 4): their indices one uint4
 * (lanes 16 bytes apart, a warp's load 512 bytes), the four gathered values kept in __local at
 * 4 l .. 4 l + 3; after the barrier work-item l stores elements l + L k (k < 4): coalesced,
 * three values in four stored by another warp than gathered them.  A block cut by the array's
 * end: the indices one at a time. */
__kernel void gather_uint4_stage_out(__global const T *in, __global const uint *idx,
                                     __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T v[4 * CLC_LOCAL_X];
    size_t l = get_local_id(0), base = get_group_id(0) * 4 * CLC_LOCAL_X;
    if (base + 4 * CLC_LOCAL_X <= n) {
        uint4 k = VLOAD(4, base / 4 + l, idx);
        LSTORE(v, 4 * l, LOAD(in, k.x));
        LSTORE(v, 4 * l + 1, LOAD(in, k.y));
        LSTORE(v, 4 * l + 2, LOAD(in, k.z));
        LSTORE(v, 4 * l + 3, LOAD(in, k.w));
    } else {
        for (uint k = 0; k < 4; k++)
            if (base + 4 * l + k < n)
                LSTORE(v, 4 * l + k, LOAD(in, LOAD(idx, base + 4 * l + k)));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = l + CLC_LOCAL_X * k;
        if (base + e < n)
            STORE(out, base + e, LLOAD(v, e));
    }
}
#endif
