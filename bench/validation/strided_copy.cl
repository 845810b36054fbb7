/* strided_copy.cl - validation kernels (family `strided-copy`): copy or scale of a work-group's
 * chunk whose loads and stores walk it in different orders, the data changing hands through
 * __local memory: loads chunked per work-item and stores a group's width apart, or the
 * reverse, loads in pairs, loads down the columns of a 32 x 32 square, float4 loads against
 * scalar stores and the reverse.  A chunk is CLC_ITEMS * L elements (L = --local). */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 128
#define CLC_ITEMS 8
#endif
#define CHUNK (CLC_LOCAL_X * CLC_ITEMS)

/* Loads: CLC_ITEMS consecutive elements per work-item; stores: a group's width apart. */
__kernel void copy_ld_chunk_st_coal(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CHUNK];
    size_t l = get_local_id(0), base = get_group_id(0) * CHUNK;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l * CLC_ITEMS + k;
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e));
    }
}

/* Loads a group's width apart; stores CLC_ITEMS consecutive elements per work-item. */
__kernel void copy_ld_coal_st_chunk(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CHUNK];
    size_t l = get_local_id(0), base = get_group_id(0) * CHUNK;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l * CLC_ITEMS + k;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e));
    }
}

/* Loads: the even elements of the chunk, then the odd ones (stride 2 across the lanes);
 * stores a group's width apart. */
__kernel void scale_ld_pairs_st_coal(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CHUNK];
    size_t l = get_local_id(0), base = get_group_id(0) * CHUNK;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = 2 * (l + (k / 2) * CLC_LOCAL_X) + (k & 1);
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e) * 2);
    }
}

/* The chunk of 1024 as a 32 x 32 square: lane c of warp w loads column c, rows 4w .. 4w + 3
 * (lanes 128 bytes apart); stores a group's width apart.  Needs --local 256 and 4 items. */
#if CHUNK == 1024 && CLC_LOCAL_X == 256
__kernel void copy_ld_columns_st_rows(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CHUNK];
    size_t l = get_local_id(0), base = get_group_id(0) * CHUNK;
    size_t c = l % 32, w = l / 32;
    for (uint k = 0; k < 4; k++) {
        size_t e = c * 32 + w * 4 + k;
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e));
    }
}
#endif

/* Loads: CLC_ITEMS / 4 consecutive float4 per work-item (a float at a time past n's last
 * whole float4); stores: floats a group's width apart. */
__kernel void copy_ld_vec4_st_scalar(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CHUNK];
    size_t l = get_local_id(0), base = get_group_id(0) * CHUNK;
    for (uint k = 0; k < CLC_ITEMS / 4; k++) {
        size_t e = 4 * (l * (CLC_ITEMS / 4) + k);
        if (base + e + 3 < n) {
            float4 v = VLOAD(4, 0, in + base + e);
            LSTORE(buf, e, v.x);
            LSTORE(buf, e + 1, v.y);
            LSTORE(buf, e + 2, v.z);
            LSTORE(buf, e + 3, v.w);
        } else {
            for (uint m = 0; m < 4; m++)
                if (base + e + m < n)
                    LSTORE(buf, e + m, LOAD(in, base + e + m));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e));
    }
}

/* Loads: floats a group's width apart; stores: CLC_ITEMS / 4 consecutive float4 per
 * work-item. */
__kernel void scale_ld_scalar_st_vec4(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CHUNK];
    size_t l = get_local_id(0), base = get_group_id(0) * CHUNK;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS / 4; k++) {
        size_t e = 4 * (l * (CLC_ITEMS / 4) + k);
        if (base + e + 3 < n) {
            float4 v;
            v.x = LLOAD(buf, e) * 2;
            v.y = LLOAD(buf, e + 1) * 2;
            v.z = LLOAD(buf, e + 2) * 2;
            v.w = LLOAD(buf, e + 3) * 2;
            VSTORE(4, v, 0, out + base + e);
        } else {
            for (uint m = 0; m < 4; m++)
                if (base + e + m < n)
                    STORE(out, base + e + m, LLOAD(buf, e + m) * 2);
        }
    }
}
