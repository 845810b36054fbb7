/* transpose_naive.cl - validation kernels, second set (family `transpose-naive`):
 * out[x * height + y] = in[y * width + x] without __local, under launch shapes and walks the
 * first set does not use: one element per work-item under 16 x 16 (a warp: 2 runs of 16
 * elements of rows of in, 32 rows of out) and 1 x 256 (a warp walks 32 rows down one column
 * of in and writes one run of 32 elements of out); 256 x 1 with 4 elements per work-item
 * taken along a row of in (x) instead of down a column; and 8 x 32 working from the
 * coordinates of out, so that stores are the coalesced side and loads the strided one.  The
 * launch: global = (round_up(width, X), round_up(ceil(height / K), Y)) for --local XxY and
 * K = --items-per-thread. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 16
#define CLC_LOCAL_Y 16
#define CLC_ITEMS 1
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

/* One element per work-item, x = global id 0, y = global id 1: the launch shape alone sets
 * which elements a warp touches together. */
#define NAIVE1(name)                                                                        \
    __kernel void name(__global const T *in, __global T *out, ulong width,                  \
                       ulong height CLC_TRACE_ARGS)                                         \
    {                                                                                       \
        CLC_TRACE_BEGIN                                                                     \
        size_t x = get_global_id(0), y = get_global_id(1);                                  \
        if (x < width && y < height)                                                        \
            STORE(out, x * height + y, LOAD(in, y * width + x));                            \
    }

/* 16 x 16: loads 64-byte runs of two rows of in per warp, stores to 32 rows of out. */
NAIVE1(tr_naive16x16)

/* 1 x 256: a warp is 32 consecutive rows of one column: loads 32 rows of in one element
 * each, stores one 128-byte run of a row of out. */
NAIVE1(tr_naive1x256)

#if SHAPE(256, 1, 4)
/* 256 x 1, K = 4: the group's 256 columns x 4 rows taken as 4 rows of 64 chunks of 4
 * elements: work-item l moves row l / 64, columns 4 (l % 64) .. + 3 one after another (each
 * load instruction: 32 elements 4 apart along a row of in; each store: 32 rows of out 4
 * apart, one element each). */
__kernel void tr_naive256x1_xwalk(__global const T *in, __global T *out, ulong width,
                                  ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0);
    size_t y = get_group_id(1) * 4 + l / 64, x0 = get_group_id(0) * 256 + (l % 64) * 4;
    for (uint k = 0; k < 4; k++)
        if (x0 + k < width && y < height)
            STORE(out, (x0 + k) * height + y, LOAD(in, y * width + x0 + k));
}
#endif

#if SHAPE(8, 32, 4)
/* From out's coordinates: out is width rows of height elements, cut into tiles of 32 x 32
 * (tile column a: elements 32 a .. of a row of out, i.e. rows of in; tile row b: rows 32 b ..
 * of out, i.e. columns of in), numbered row by row over out; group g (row by row, G groups)
 * moves tiles g, g + G, ... (about as many tiles as groups).  Work-item l = 8 ly + lx
 * takes element l % 32 of rows l / 32 + 8 k (k < 4) of the tile: each store a 128-byte run
 * of a row of out, each load 32 rows of in, one element each. */
__kernel void tr_naive8x32_outcoord(__global const T *in, __global T *out, ulong width,
                                    ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(1) * 8 + get_local_id(0), c = l % 32, r = l / 32;
    size_t tcols = (height + 31) / 32, nt = tcols * ((width + 31) / 32);
    size_t g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    size_t ng = get_num_groups(0) * get_num_groups(1);
    for (size_t tile = g; tile < nt; tile += ng) {
        size_t y = tile % tcols * 32 + c, xb = tile / tcols * 32 + r;
        for (uint k = 0; k < 32; k += 8)
            if (xb + k < width && y < height)
                STORE(out, (xb + k) * height + y, LOAD(in, y * width + xb + k));
    }
}
#endif
