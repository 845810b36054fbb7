/* transpose_tile3.cl - third validation set (family `transpose-tile-3`): out[x * height + y]
 * = in[y * width + x] through a padded __local tile whose shape differs from the launch's:
 * a 64 x 8 tile (64 x 2 work-items, 4 rows each) whose stores are runs of 8 elements (32
 * bytes); a 16 x 64 tile (16 x 16 work-items, 4 rows each) whose stores are runs of 64; and
 * a 32 x 32 tile moved by 32 x 16 work-items (512: the shape is declared), 2 rows each.  A
 * work-group covers X columns and K * Y rows of in (--local XxY, K = --items-per-thread);
 * each kernel compiles only under its launch.  Work-items outside the matrix still reach the
 * barrier. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 64
#define CLC_LOCAL_Y 2
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

/* The tile's element (r, c) (row r of the tile's rows of in, column c) stored at its place in
 * out; a macro, as LOAD and STORE record into the kernel's trace variables. */
#define STORE_TILE(t, r, c)                                                                   \
    if (by + (r) < height && bx + (c) < width)                                               \
    STORE(out, (bx + (c)) * height + by + (r), LLOAD(t[r], c))

#if SHAPE(64, 2, 4)
/* A 64 x 8 tile (pitch 65): loads are runs of 64 elements of a row of in; the 512 elements
 * are stored 128 a step, out's rows in runs of 8 (lanes r = e mod 8 on consecutive rows of
 * in, 8 such runs a warp). */
__kernel void tr_tile64x8(__global const T *in, __global T *out, ulong width,
                          ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[8][65];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 64, by = get_group_id(1) * 8;
    for (uint j = 0; j < 8; j += 2)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 4; j++) {
        size_t e = ly * 64 + lx + 128 * j, r = e % 8, c = e / 8;
        STORE_TILE(t, r, c);
    }
}
#endif

#if SHAPE(16, 16, 4)
/* A 16 x 64 tile (pitch 17): loads are runs of 16 elements (64 bytes) of a row of in; the
 * 1024 elements are stored 256 a step, out's rows in runs of 64 (256 bytes). */
__kernel void tr_tile16x64(__global const T *in, __global T *out, ulong width,
                           ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][17];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 16, by = get_group_id(1) * 64;
    for (uint j = 0; j < 64; j += 16)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 4; j++) {
        size_t e = ly * 16 + lx + 256 * j, r = e % 64, c = e / 64;
        STORE_TILE(t, r, c);
    }
}
#endif

#if SHAPE(32, 16, 2)
/* A 32 x 32 tile (pitch 33) moved by 512 work-items, two rows each, 16 apart. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void tr_tile32_512(__global const T *in, __global T *out, ulong width,
                            ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    for (uint j = 0; j < 32; j += 16)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 16)
        STORE_TILE(t, lx, ly + j);
}
#endif
