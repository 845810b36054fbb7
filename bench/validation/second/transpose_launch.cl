/* transpose_launch.cl - validation kernels, second set (family `transpose-launch`):
 * out[x * height + y] = in[y * width + x] through a padded __local tile whose size is the
 * area one work-group covers under a launch shape the first set does not use: 16 x 4
 * work-items with 4 rows each (16 x 16 tile), 32 x 32 with one element each (32 x 32 tile),
 * 64 x 8 with 8 rows each (64 x 64 tile; these two, over 256 work-items, declare their
 * shape), 8 x 8 with 8 rows each (a tile 8 wide and 64 tall) and 128 x 2 with 16 rows each
 * (a tile 128 wide and 32 tall).  The launch: global = (round_up(width, X),
 * round_up(ceil(height / K), Y)) for --local XxY and K = --items-per-thread, so a work-group
 * covers X columns and K * Y rows of in.  Each kernel compiles only under the launch its row
 * of kernels.tsv gives. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 16
#define CLC_LOCAL_Y 4
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(16, 4, 4)
/* 16 x 4 work-items, a 16 x 16 tile (pitch 17): each work-item loads 4 rows 4 apart (runs of
 * 16 elements, 64 bytes, of a row of in) and stores 4 rows of out 4 apart (runs of 16). */
__kernel void tr_launch16x4(__global const T *in, __global T *out, ulong width,
                            ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[16][17];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 16, by = get_group_id(1) * 16;
    for (uint j = 0; j < 16; j += 4)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 16; j += 4)
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}
#endif

#if SHAPE(32, 32, 1)
/* 32 x 32 work-items (1024: the shape is declared), a 32 x 33 tile, one element per
 * work-item: each warp loads one 128-byte run of a row of in and stores one of out. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void tr_launch32x32(__global const T *in, __global T *out, ulong width,
                             ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    if (bx + lx < width && by + ly < height)
        LSTORE(t[ly], lx, LOAD(in, (by + ly) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (by + lx < height && bx + ly < width)
        STORE(out, (bx + ly) * height + by + lx, LLOAD(t[lx], ly));
}
#endif

#if SHAPE(64, 8, 8)
/* 64 x 8 work-items (512: the shape is declared), a 64 x 64 tile (pitch 65, 16.6 KB): each
 * work-item loads 8 rows 8 apart and stores 8 rows of out 8 apart; a row of the tile is two
 * warps, 256 bytes. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void tr_launch64x8(__global const T *in, __global T *out, ulong width,
                            ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][65];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 64, by = get_group_id(1) * 64;
    for (uint j = 0; j < 64; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 64; j += 8)
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}
#endif

#if SHAPE(8, 8, 8)
/* 8 x 8 work-items, a tile 8 wide and 64 tall (pitch 9): loads are runs of 8 elements (32
 * bytes) of 64 rows of in, 8 rows per work-item; the store passes write one whole row of
 * out's tile each, 64 elements (256 bytes), work-item l taking element l of it. */
__kernel void tr_launch8x8(__global const T *in, __global T *out, ulong width,
                           ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][9];
    size_t lx = get_local_id(0), ly = get_local_id(1), l = ly * 8 + lx;
    size_t bx = get_group_id(0) * 8, by = get_group_id(1) * 64;
    for (uint j = 0; j < 64; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 8; j++)
        if (by + l < height && bx + j < width)
            STORE(out, (bx + j) * height + by + l, LLOAD(t[l], j));
}
#endif

#if SHAPE(128, 2, 16)
/* 128 x 2 work-items, a tile 128 wide and 32 tall (pitch 129, 16.5 KB): loads are runs of
 * 128 elements (512 bytes) of a row of in, 16 rows 2 apart per work-item; stores take the
 * group as 8 rows of 32 (l = 128 ly + lx: row l / 32, element l % 32) and write 16 passes of
 * 8 runs of 32 elements (128 bytes) of out. */
__kernel void tr_launch128x2(__global const T *in, __global T *out, ulong width,
                             ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][129];
    size_t lx = get_local_id(0), ly = get_local_id(1), l = ly * 128 + lx;
    size_t bx = get_group_id(0) * 128, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 2)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t c = l % 32, r = l / 32;
    for (uint j = 0; j < 128; j += 8)
        if (by + c < height && bx + r + j < width)
            STORE(out, (bx + r + j) * height + by + c, LLOAD(t[c], r + j));
}
#endif
