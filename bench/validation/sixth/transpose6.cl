/* transpose6.cl - sixth validation set (family `transpose-tile-6`): out[x * height + y] =
 * in[y * width + x] through a __local tile wider than it is tall, or taller than wide: 32
 * columns x 16 rows under 32 x 8 work-items (2 rows each; stored as runs of 16), 64 columns x
 * 32 rows under 64 x 4 (8 rows each; pitch 65), and 32 columns x 64 rows under 32 x 8 (8
 * rows each) kept without padding, each row rotated by its number (element (r, c) at column
 * (c + r) mod 32: a skew instead of a pad).  A work-group covers X columns and K * Y rows of
 * in (--local XxY, K = --items-per-thread); each kernel compiles only under its launch.
 * Work-items outside the matrix still reach the barrier. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 2
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(32, 8, 2)
/* A 32-column x 16-row tile (pitch 33): loads 128-byte runs of rows of in; work-item i = 32
 * ly + lx stores element i mod 16 of out's row i / 16 (and i + 256): each store two 64-byte
 * runs of out, read down two columns of the tile (two lanes a bank). */
__kernel void tr_tile32x16_rows2(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[16][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 16;
    for (uint j = 0; j < 16; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 0; s < 512; s += 256) {
        size_t q = 32 * ly + lx + s, r = q / 16, c = q % 16;
        if (bx + r < width && by + c < height)
            STORE(out, (bx + r) * height + by + c, LLOAD(t[c], r));
    }
}
#endif

#if SHAPE(64, 4, 8)
/* A 64-column x 32-row tile (pitch 65): each row loaded by two warps, 128 bytes each;
 * work-item i = 64 ly + lx stores element i mod 32 of out's row i / 32 (and i + 256, ...,
 * eight stores): each store one 128-byte run of out, read from the tile at banks c + r (no
 * two lanes on one bank). */
__kernel void tr_tile64x32_rows8(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][65];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 64, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 4)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 0; s < 2048; s += 256) {
        size_t q = 64 * ly + lx + s, r = q / 32, c = q % 32;
        if (bx + r < width && by + c < height)
            STORE(out, (bx + r) * height + by + c, LLOAD(t[c], r));
    }
}
#endif

#if SHAPE(32, 8, 8)
/* A 32-column x 64-row tile, no padding: element (r, c) at t[r][(c + r) mod 32], so a row is
 * written and a column read with every lane on its own bank.  Loads 128-byte runs of rows of
 * in (8 rows a work-item); work-item (lx, ly) stores elements lx and lx + 32 of out's rows
 * ly + 8 j (j < 4): each store one 128-byte run, 64 elements of a row of out two stores. */
__kernel void tr_tile32x64_skew(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][32];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 64;
    for (uint j = 0; j < 64; j += 8) {
        size_t r = ly + j;
        if (bx + lx < width && by + r < height)
            LSTORE(t[r], (lx + r) % 32, LOAD(in, (by + r) * width + bx + lx));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 8) {
        size_t c = ly + j;
        for (uint h = 0; h < 64; h += 32) {
            size_t r = lx + h;
            if (bx + c < width && by + r < height)
                STORE(out, (bx + c) * height + by + r, LLOAD(t[r], (c + r) % 32));
        }
    }
}
#endif
