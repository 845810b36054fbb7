/* transpose_direct5.cl - fifth validation set (family `transpose-direct-5`): out[x * height +
 * y] = in[y * width + x] with no __local: a float2 of two neighbouring columns a load, its
 * two elements stored into two rows of out; an element a work-item under 16 x 8 work-items,
 * 4 rows each (loads in runs of 64 bytes, stores down columns); and the group's region walked
 * with its work-items along y (loads down columns of in, stores along rows of out).  A
 * work-group covers X columns and K * Y rows of in (--local XxY, K = --items-per-thread).
 * Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif

#if CLC_LOCAL_X % 2 == 0 && CLC_ITEMS % 2 == 0
/* Work-item (lx, ly) takes columns c, c + 1 (c = 2 (lx mod X / 2)) of rows lx / (X / 2) +
 * 2 ly + 2 Y j of the region (j < K / 2; launch 32 x 4, 4 rows: 32 columns x 16 rows): a
 * warp loads 128 bytes of each of two neighbouring rows of in as float2, then stores twice
 * into 16 rows of out, two neighbouring elements each (a request over 16 lines).  Where
 * width is odd a float2 would be misaligned: two scalar loads. */
__kernel void tr_direct_float2_cols(__global const T *in, __global T *out, ulong width,
                                    ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t x = get_group_id(0) * CLC_LOCAL_X + 2 * (lx % (CLC_LOCAL_X / 2));
    size_t y0 = get_group_id(1) * CLC_LOCAL_Y * CLC_ITEMS + lx / (CLC_LOCAL_X / 2) + 2 * ly;
    for (uint j = 0; j < CLC_ITEMS / 2; j++) {
        size_t y = y0 + 2 * CLC_LOCAL_Y * j;
        if (x < width && y < height) {
            if (width % 2 == 0) {
                float2 v = VLOAD(2, (y * width + x) / 2, in);
                STORE(out, x * height + y, v.x);
                STORE(out, (x + 1) * height + y, v.y);
            } else {
                STORE(out, x * height + y, LOAD(in, y * width + x));
                if (x + 1 < width)
                    STORE(out, (x + 1) * height + y, LOAD(in, y * width + x + 1));
            }
        }
    }
}
#endif

/* Column x, rows y, y + Y, ... of the group's K * Y (launch 16 x 8, 4 rows): a warp's loads
 * two 64-byte runs of two rows of in, its stores 16 pairs of neighbouring elements of out,
 * each pair in a line of its own. */
__kernel void tr_naive16x8_rows4(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * CLC_LOCAL_Y * CLC_ITEMS + get_local_id(1);
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t y = y0 + CLC_LOCAL_Y * j;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* The group's region (launch 8 x 32, 2 rows: 8 columns x 64 rows) walked along y: work-item
 * i = lx + X ly takes row q mod 64 of column q / 64, q = i + 256 j: each load 32 rows of
 * in, an element each, each store one 128-byte run of out. */
__kernel void tr_naive_ywalk8x64(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t rows = (size_t)CLC_LOCAL_Y * CLC_ITEMS;
    size_t i = get_local_id(0) + CLC_LOCAL_X * get_local_id(1);
    size_t bx = get_group_id(0) * CLC_LOCAL_X, by = get_group_id(1) * rows;
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t q = i + (size_t)CLC_LOCAL_X * CLC_LOCAL_Y * j;
        size_t x = bx + q / rows, y = by + q % rows;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}
