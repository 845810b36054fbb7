/* transpose5.cl - fifth validation set (family `transpose-tile-5`): out[x * height + y] =
 * in[y * width + x] through a __local tile whose shape is the work-group's region rather
 * than a square: 16 columns x 32 rows under 16 x 16 work-items (2 rows each), 64 columns x
 * 16 rows under 64 x 4 (4 rows each), and a 32 x 32 tile kept at a pitch of 34 (two columns
 * of padding: two lanes a bank down a column) under 32 x 8 (4 rows each).  A work-group
 * covers X columns and K * Y rows of in (--local XxY, K = --items-per-thread) and writes
 * them as X runs of K * Y elements of out, the runs stored by the group's work-items in
 * their linear order; each kernel compiles only under its launch.  Work-items outside the
 * matrix still reach the barrier. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(16, 16, 2)
/* A 16-column x 32-row tile (pitch 17): loads in runs of 64 bytes (two rows a warp);
 * work-item i = 16 ly + lx stores element i mod 32 of out's row i / 32 (and i + 256): each
 * store one 128-byte run of out, read down a column of the tile (an odd pitch: every
 * bank once). */
__kernel void tr_tile16x32(__global const T *in, __global T *out, ulong width,
                           ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][17];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 16, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 16)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 0; s < 512; s += 256) {
        size_t q = 16 * ly + lx + s, r = q / 32, c = q % 32;
        if (bx + r < width && by + c < height)
            STORE(out, (bx + r) * height + by + c, LLOAD(t[c], r));
    }
}
#endif

#if SHAPE(64, 4, 4)
/* A 64-column x 16-row tile (pitch 66): loads a 128-byte run a warp; work-item i = 64 ly +
 * lx stores element i mod 16 of out's row i / 16 (and i + 256, 512, 768): two 64-byte runs
 * a warp, read from the tile at banks 2 c + r (no two lanes on one bank). */
__kernel void tr_tile64x16(__global const T *in, __global T *out, ulong width,
                           ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[16][66];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 64, by = get_group_id(1) * 16;
    for (uint j = 0; j < 16; j += 4)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 0; s < 1024; s += 256) {
        size_t q = 64 * ly + lx + s, r = q / 16, c = q % 16;
        if (bx + r < width && by + c < height)
            STORE(out, (bx + r) * height + by + c, LLOAD(t[c], r));
    }
}
#endif

#if SHAPE(32, 8, 4)
/* A 32 x 32 tile at pitch 34: rows written conflict-free, columns read with lanes lx and
 * lx + 16 on one bank (16 x 34 = 544 words apart, a multiple of 32: two-way conflicts);
 * loads and stores in 128-byte runs. */
__kernel void tr_tile32_pitch34(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][34];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 8)
        if (bx + ly + j < width && by + lx < height)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}
#endif
