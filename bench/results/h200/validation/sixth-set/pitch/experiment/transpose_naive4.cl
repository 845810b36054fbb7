/* transpose_naive4.cl - fourth validation set (family `transpose-naive-4`): out[x * height +
 * y] = in[y * width + x] with no __local: 8 rows a work-item under 32 x 4 work-items (loads
 * along rows, stores down columns); a group's 32 x 32 block walked with lanes along y (loads
 * down columns, stores along out's rows); and the blocks taken in diagonal order, an element
 * a work-item.  A work-group covers X columns and K * Y rows of in (--local XxY,
 * K = --items-per-thread).  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif

/* Column x, rows y, y + 4, ... y + 28 of the group's 32 (launch 32 x 4, 8 rows). */
__kernel void tr_naive_rows8(__global const T *in, __global T *out, ulong width,
                             ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 4)
        if (x < width && y0 + j < height)
            STORE(out, x * height + y0 + j, LOAD(in, (y0 + j) * width + x));
}

/* The group's 32 columns and 32 rows (launch 32 x 8, 4 rows), lane lx on row by + lx and
 * columns bx + ly + 8 j: each store a run of 32 elements of out, each load 32 rows of in. */
__kernel void tr_naive_lanes_y(__global const T *in, __global T *out, ulong width,
                               ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    for (uint j = 0; j < 4; j++) {
        size_t x = bx + ly + 8 * j, y = by + lx;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* An element a work-item (launch 32 x 8, 1 row), the groups of a row of blocks taken in
 * diagonal order: group (gx, gy) moves block ((gx + gy) mod GX, gy). */
__kernel void tr_naive_diag(__global const T *in, __global T *out, ulong width,
                            ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t gy = get_group_id(1), gx = (get_group_id(0) + gy) % get_num_groups(0);
    size_t x = gx * CLC_LOCAL_X + get_local_id(0), y = gy * CLC_LOCAL_Y + get_local_id(1);
    if (x < width && y < height)
        STORE(out, x * height + y, LOAD(in, y * width + x));
}
