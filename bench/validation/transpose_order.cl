/* transpose_order.cl - validation kernels (family `transpose-shape`): out[x * height + y] =
 * in[y * width + x] through __local tiles taken in diagonal order (32 x 32 and 16 x 16, so
 * that work-groups running together write different parts of out), or tiles that are not
 * square: 8 wide x 32 tall, 32 wide x 8 tall and 64 wide x 4 tall, one element per
 * work-item.  Each kernel compiles only under the launch its row of kernels.tsv gives. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

/* The tile this work-group moves in diagonal order: the groups numbered row by row, tile
 * row = number mod rows, tile column = (number / rows + tile row) mod columns, a permutation
 * of the tiles for any grid. */
void diagonal_tile(size_t *tx, size_t *ty)
{
    size_t gx = get_num_groups(0), gy = get_num_groups(1);
    size_t id = get_group_id(0) + gx * get_group_id(1);
    *ty = id % gy;
    *tx = (id / gy + *ty) % gx;
}

#if SHAPE(32, 8, 4)
__kernel void tr_tile32_diag(__global const T *in, __global T *out, ulong width,
                             ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1), tx, ty;
    diagonal_tile(&tx, &ty);
    size_t bx = tx * 32, by = ty * 32;
    for (uint j = 0; j < 32; j += 8)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 8)
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}
#endif

#if SHAPE(16, 16, 1)
__kernel void tr_tile16_diag(__global const T *in, __global T *out, ulong width,
                             ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[16][17];
    size_t lx = get_local_id(0), ly = get_local_id(1), tx, ty;
    diagonal_tile(&tx, &ty);
    size_t bx = tx * 16, by = ty * 16;
    if (bx + lx < width && by + ly < height)
        LSTORE(t[ly], lx, LOAD(in, (by + ly) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (by + lx < height && bx + ly < width)
        STORE(out, (bx + ly) * height + by + lx, LLOAD(t[lx], ly));
}
#endif

/* A tile of TW columns x TH rows, one element per work-item (TW x TH work-items): loaded
 * row by row (runs of TW elements of a row of in), stored as TW rows of out of TH elements
 * each, work-item l taking row l / TH, column l % TH of the transposed tile. */
#define TILE_RECT(name, tw, th)                                                             \
    __kernel void name(__global const T *in, __global T *out, ulong width,                  \
                       ulong height CLC_TRACE_ARGS)                                         \
    {                                                                                       \
        CLC_TRACE_BEGIN                                                                     \
        __local T t[th][(tw) + 1];                                                          \
        size_t lx = get_local_id(0), ly = get_local_id(1);                                  \
        size_t bx = get_group_id(0) * (tw), by = get_group_id(1) * (th);                    \
        if (bx + lx < width && by + ly < height)                                            \
            LSTORE(t[ly], lx, LOAD(in, (by + ly) * width + bx + lx));                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        size_t l = ly * (tw) + lx, row = l / (th), col = l % (th);                          \
        if (bx + row < width && by + col < height)                                          \
            STORE(out, (bx + row) * height + by + col, LLOAD(t[col], row));                 \
    }

#if SHAPE(8, 32, 1)
TILE_RECT(tr_tile8x32, 8, 32)
#endif
#if SHAPE(32, 8, 1)
TILE_RECT(tr_tile32x8, 32, 8)
#endif
#if SHAPE(64, 4, 1)
TILE_RECT(tr_tile64x4, 64, 4)
#endif
