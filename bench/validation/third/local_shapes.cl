/* local_shapes.cl - third validation set (family `local-shapes`): copy or scale through
 * __local memory, where the work-item that stores an element is not the one that loaded it:
 * a 32 x 32 block stored down its columns (each lane its own line of out), a block loaded as
 * float4 and stored element by element, and a block stored two elements a work-item (lanes
 * 8 bytes apart, reading __local at stride 2).  Every work-item reaches each barrier; the
 * array's end is guarded element by element.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements as a 32 x 32 block (rows of 32), loaded row by row into a tile of
 * pitch 33; stored down the columns: lanes on consecutive rows, 128 bytes apart in out, the
 * tile read without bank conflicts. */
__kernel void scale_local_columns32(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n)
            LSTORE(t[e / 32], e % 32, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k, r = e % 32, c = e / 32;
        if (base + 32 * r + c < n)
            STORE(out, base + 32 * r + c, LLOAD(t[r], c) * 2);
    }
}
#endif

#if CLC_LOCAL_X == 128 && CLC_ITEMS == 4
/* A group's 512 elements loaded as one float4 a work-item into __local, then stored one
 * element a work-item a step (coalesced, a group's width a step). */
__kernel void copy_local_vec4_in(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[512];
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    if (base + 512 <= n) {
        float4 v = VLOAD(4, base / 4 + l, in);
        LSTORE(t, 4 * l, v.x);
        LSTORE(t, 4 * l + 1, v.y);
        LSTORE(t, 4 * l + 2, v.z);
        LSTORE(t, 4 * l + 3, v.w);
    } else {
        for (uint k = 0; k < 4; k++)
            if (base + 4 * l + k < n)
                LSTORE(t, 4 * l + k, LOAD(in, base + 4 * l + k));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++)
        if (base + l + 128 * k < n)
            STORE(out, base + l + 128 * k, LLOAD(t, l + 128 * k));
}
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 2
/* A group's 512 elements loaded coalesced into __local; work-item l then stores elements 2l
 * and 2l + 1 of the block, one after the other: each store request covers 256 bytes with
 * half of them, and the tile is read at stride 2 (two-way bank conflicts). */
__kernel void scale_local_stride2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[512];
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    for (uint k = 0; k < 2; k++)
        if (base + l + 256 * k < n)
            LSTORE(t, l + 256 * k, LOAD(in, base + l + 256 * k));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 2; k++)
        if (base + 2 * l + k < n)
            STORE(out, base + 2 * l + k, LLOAD(t, 2 * l + k) * 2);
}
#endif
