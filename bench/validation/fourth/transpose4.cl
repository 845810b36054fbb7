/* transpose4.cl - fourth validation set (family `transpose-tile-4`): out[x * height + y] =
 * in[y * width + x] through a __local tile: a 32 x 32 tile whose columns are XOR-swizzled
 * by the row (no padding) under 32 x 8 work-items, a 16 x 16 tile (pitch 17) an element a
 * work-item, and a 32 x 32 tile (pitch 33) under 32 x 4 work-items, 8 rows each.  A
 * work-group covers X columns and K * Y rows of in (--local XxY, K = --items-per-thread);
 * each kernel compiles only under its launch.  Work-items outside the matrix still reach the
 * barrier. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(32, 8, 4)
/* Element (r, c) of the tile kept at t[r][c ^ r]: a row and a column of the tile each touch
 * every bank once. */
__kernel void tr_tile32_swizzle(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][32];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx ^ (ly + j), LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 8)
        if (bx + ly + j < width && by + lx < height)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], (ly + j) ^ lx));
}
#endif

#if SHAPE(16, 16, 1)
/* A 16 x 16 tile, one element a work-item each way: loads and stores in runs of 64 bytes. */
__kernel void tr_tile16_one(__global const T *in, __global T *out, ulong width,
                            ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[16][17];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 16, by = get_group_id(1) * 16;
    if (bx + lx < width && by + ly < height)
        LSTORE(t[ly], lx, LOAD(in, (by + ly) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (bx + ly < width && by + lx < height)
        STORE(out, (bx + ly) * height + by + lx, LLOAD(t[lx], ly));
}
#endif

#if SHAPE(32, 4, 8)
/* A 32 x 32 tile (pitch 33) moved by 128 work-items, 8 rows each. */
__kernel void tr_tile32_rows8(__global const T *in, __global T *out, ulong width,
                              ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 4)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 4)
        if (bx + ly + j < width && by + lx < height)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}
#endif
