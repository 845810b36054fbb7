/* transpose_direct.cl - validation kernels (family `transpose-direct`): out[x * height + y] =
 * in[y * width + x] without __local memory: each work-item one column x and several rows
 * (consecutive, a grid apart, or with the columns XOR-swizzled across a work-group's rows),
 * a float4 of out built from four rows, and walks in the order of out (down the columns of
 * in), a grid apart or chunked.  The launch: global = (round_up(width, X),
 * round_up(ceil(height / K), Y)) for --local XxY and K = --items-per-thread. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* CLC_ITEMS consecutive rows y = gy * CLC_ITEMS + r of column x = gx: loads a warp-wide run
 * of a row of in, stores CLC_ITEMS consecutive elements of a row of out. */
#define ROWS(name)                                                                          \
    __kernel void name(__global const T *in, __global T *out, ulong width,                  \
                       ulong height CLC_TRACE_ARGS)                                         \
    {                                                                                       \
        CLC_TRACE_BEGIN                                                                     \
        size_t x = get_global_id(0);                                                        \
        for (uint r = 0; r < CLC_ITEMS; r++) {                                              \
            size_t y = get_global_id(1) * CLC_ITEMS + r;                                    \
            if (x < width && y < height)                                                    \
                STORE(out, x * height + y, LOAD(in, y * width + x));                        \
        }                                                                                   \
    }
ROWS(tr_rows4)  /* kernels.tsv: 32x8, 4 rows */
ROWS(tr_rows16) /* kernels.tsv: 32x4, 16 rows */

/* Rows a grid apart: y = gy + r * (global height). */
__kernel void tr_rows_gridstride(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gh = get_global_size(1);
    for (uint r = 0; r < CLC_ITEMS; r++) {
        size_t y = get_global_id(1) + r * gh;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* As tr_rows4, with the work-group's columns swizzled: column lx ^ ly of the group's 32
 * (needs --local 32xY, Y <= 32). */
__kernel void tr_rows_lane_xor(__global const T *in, __global T *out, ulong width,
                               ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_group_id(0) * 32 + ((get_local_id(0) ^ get_local_id(1)) & 31);
    for (uint r = 0; r < CLC_ITEMS; r++) {
        size_t y = get_global_id(1) * CLC_ITEMS + r;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* Four rows of column x as one float4 of out (any alignment: vstore4 needs none); rows past
 * the last whole four one by one. */
__kernel void tr_out_vec4(__global const T *in, __global T *out, ulong width,
                          ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y0 = get_global_id(1) * 4;
    if (x >= width)
        return;
    if (y0 + 3 < height) {
        float4 v;
        v.x = LOAD(in, y0 * width + x);
        v.y = LOAD(in, (y0 + 1) * width + x);
        v.z = LOAD(in, (y0 + 2) * width + x);
        v.w = LOAD(in, (y0 + 3) * width + x);
        VSTORE(4, v, 0, out + x * height + y0);
    } else {
        for (size_t y = y0; y < height; y++)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* The work-items numbered row by row over the launch (T of them); work-item t takes the
 * elements e = t, t + T, ... of out, e = x * height + y: stores run along out, loads
 * down the columns of in. */
__kernel void tr_colwalk(__global const T *in, __global T *out, ulong width,
                         ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t gw = get_global_size(0), total = gw * get_global_size(1);
    size_t t = get_global_id(0) + gw * get_global_id(1);
    for (size_t e = t; e < width * height; e += total)
        STORE(out, e, LOAD(in, e % height * width + e / height));
}

/* The same order of out, CLC_ITEMS consecutive elements per work-item. */
__kernel void tr_colwalk_chunk(__global const T *in, __global T *out, ulong width,
                               ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0) + get_global_size(0) * get_global_id(1);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = t * CLC_ITEMS + k;
        if (e < width * height)
            STORE(out, e, LOAD(in, e % height * width + e / height));
    }
}
