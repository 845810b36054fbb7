/* transpose_group_order.cl - validation kernels, second set (family `transpose-group-order`):
 * out[x * height + y] = in[y * width + x] by 32 x 32 tiles, the work-groups remapped onto the
 * tiles so that groups launched together take other parts of in and out than the row-by-row
 * order: column-major (consecutive groups go down a column of tiles), blocks of 8 x 8 tiles
 * (without __local), Morton (Z) order of the tiles, and a group walking 8 tiles down a column
 * in a loop.  The launch: global = (round_up(width, X), round_up(ceil(height / K), Y)) for
 * --local XxY and K = --items-per-thread; each kernel compiles only under the launch its row
 * of kernels.tsv gives. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(32, 8, 4)
/* Column-major order: the groups numbered row by row in launch order, number id moving
 * tile (id / rows, id % rows), a permutation of the tiles for any grid.  A 32 x 33 tile,
 * 4 rows 8 apart per work-item. */
__kernel void tr_order_colmajor(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t gy = get_num_groups(1);
    size_t id = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = id / gy * 32, by = id % gy * 32;
    for (uint j = 0; j < 32; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 8)
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}

/* The tile group number id (row by row) moves when the groups are taken in blocks of 8 x 8
 * tiles: bands of 8 tile rows, each band in blocks of 8 tile columns, each block row by row;
 * the last band and the last block of a band as narrow as the grid leaves them, so this is a
 * permutation of the tiles for any grid. */
void block8_tile(size_t *tx, size_t *ty)
{
    size_t gx = get_num_groups(0), gy = get_num_groups(1);
    size_t id = get_group_id(0) + gx * get_group_id(1);
    size_t band = id / (8 * gx), o = id % (8 * gx);
    size_t rows = gy - 8 * band < 8 ? gy - 8 * band : 8;
    size_t blk = o / (8 * rows), o2 = o % (8 * rows);
    size_t cols = gx - 8 * blk < 8 ? gx - 8 * blk : 8;
    *ty = 8 * band + o2 / cols;
    *tx = 8 * blk + o2 % cols;
}

/* Without __local: the group's 32 x 32 tile from 8 x 8 block order, each work-item 4 rows 8
 * apart of one column: loads are 128-byte runs of rows of in, stores 32 rows of out, one
 * element each per warp. */
__kernel void tr_order_block8(__global const T *in, __global T *out, ulong width,
                              ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t tx, ty;
    block8_tile(&tx, &ty);
    size_t x = tx * 32 + get_local_id(0), y0 = ty * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8)
        if (x < width && y0 + j < height)
            STORE(out, x * height + y0 + j, LOAD(in, (y0 + j) * width + x));
}
#endif

/* The even bits of v, packed: the column of Morton index v (v >> 1 gives the row). */
ulong morton_compact(ulong v)
{
    v &= 0x5555555555555555UL;
    v = (v | (v >> 1)) & 0x3333333333333333UL;
    v = (v | (v >> 2)) & 0x0f0f0f0f0f0f0f0fUL;
    v = (v | (v >> 4)) & 0x00ff00ff00ff00ffUL;
    v = (v | (v >> 8)) & 0x0000ffff0000ffffUL;
    v = (v | (v >> 16)) & 0x00000000ffffffffUL;
    return v;
}

#if SHAPE(32, 4, 8)
/* Morton order: the 32 x 32 tiles inside the smallest power-of-two square that holds them;
 * group g (row by row, G groups) moves the tiles of Morton index g, g + G, ... that fall in
 * the matrix (on a square grid of a power of two, exactly tile g).  A 32 x 33 tile, 8 rows 4
 * apart per work-item. */
__kernel void tr_order_morton(__global const T *in, __global T *out, ulong width,
                              ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t tw = (width + 31) / 32, th = (height + 31) / 32, side = 1;
    while (side < tw || side < th)
        side *= 2;
    size_t g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    size_t ng = get_num_groups(0) * get_num_groups(1);
    for (size_t m = g; m < side * side; m += ng) {
        size_t tx = morton_compact(m), ty = morton_compact(m >> 1);
        if (tx >= tw || ty >= th)
            continue; /* the same for the whole group: every barrier is reached or none */
        size_t bx = tx * 32, by = ty * 32;
        for (uint j = 0; j < 32; j += 4)
            if (bx + lx < width && by + ly + j < height)
                LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < 32; j += 4)
            if (by + lx < height && bx + ly + j < width)
                STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
        barrier(CLK_LOCAL_MEM_FENCE); /* the tile is refilled on the next pass */
    }
}
#endif

#if SHAPE(32, 8, 32)
/* A strip: group (gx, gy) covers 32 columns and 256 rows of in (K = 32 rows per
 * work-item) and walks its 8 tiles of 32 x 32 down the column in a loop (fewer at the bottom
 * of in: a trip count the whole group shares), one padded tile reused, 4 rows 8 apart per
 * work-item per tile. */
__kernel void tr_order_colstrip(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by0 = get_group_id(1) * 256;
    size_t left = by0 < height ? (height - by0 + 31) / 32 : 0;
    size_t tiles = left < 8 ? left : 8; /* the same for the whole group */
    for (size_t s = 0; s < tiles; s++) {
        size_t by = by0 + s * 32;
        for (uint j = 0; j < 32; j += 8)
            if (bx + lx < width && by + ly + j < height)
                LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < 32; j += 8)
            if (by + lx < height && bx + ly + j < width)
                STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif
