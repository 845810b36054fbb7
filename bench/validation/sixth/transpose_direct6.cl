/* transpose_direct6.cl - sixth validation set (family `transpose-direct-6`): out[x * height
 * + y] = in[y * width + x] with no __local: each work-item a 4 x 4 block transposed in
 * registers (four float4 loads, four float4 stores), the 32 x 32 region of a work-group
 * dealt out in Morton (Z) order so that a warp covers an 8 x 4 block (loads and stores both
 * short runs), and the region walked along skewed diagonals (lane lx on row lx + ly + 8 j,
 * loads and stores both a line a lane).  A work-group covers X columns and K * Y rows of in
 * (--local XxY, K = --items-per-thread).  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif

/* The group's region as 4 x 4 blocks (under 32 x 8, 16 rows: 8 x 32 blocks, one a
 * work-item), block b = lx + X ly at block column b mod (X / 4): four float4 loads, one from
 * each of four rows of in (a warp: 4 rows, 128 bytes each), transposed in registers and
 * stored as four float4 into four rows of out (a warp: 8 rows, 64 bytes each).  Where width
 * or height is not a multiple of 4 the vectors would be misaligned: the block element by
 * element. */
__kernel void tr_block4x4_float4(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t bc = CLC_LOCAL_X / 4, nb = bc * (CLC_LOCAL_Y * CLC_ITEMS / 4);
    size_t bx = get_group_id(0) * CLC_LOCAL_X;
    size_t by = get_group_id(1) * CLC_LOCAL_Y * CLC_ITEMS;
    for (size_t b = get_local_id(0) + CLC_LOCAL_X * get_local_id(1); b < nb;
         b += CLC_LOCAL_X * CLC_LOCAL_Y) {
        size_t x = bx + 4 * (b % bc), y = by + 4 * (b / bc);
        if (x >= width || y >= height)
            continue;
        if (width % 4 == 0 && height % 4 == 0) {
            float4 a0 = VLOAD(4, (y * width + x) / 4, in);
            float4 a1 = VLOAD(4, ((y + 1) * width + x) / 4, in);
            float4 a2 = VLOAD(4, ((y + 2) * width + x) / 4, in);
            float4 a3 = VLOAD(4, ((y + 3) * width + x) / 4, in);
            float4 c;
            c.x = a0.x;
            c.y = a1.x;
            c.z = a2.x;
            c.w = a3.x;
            VSTORE(4, c, (x * height + y) / 4, out);
            c.x = a0.y;
            c.y = a1.y;
            c.z = a2.y;
            c.w = a3.y;
            VSTORE(4, c, ((x + 1) * height + y) / 4, out);
            c.x = a0.z;
            c.y = a1.z;
            c.z = a2.z;
            c.w = a3.z;
            VSTORE(4, c, ((x + 2) * height + y) / 4, out);
            c.x = a0.w;
            c.y = a1.w;
            c.z = a2.w;
            c.w = a3.w;
            VSTORE(4, c, ((x + 3) * height + y) / 4, out);
        } else {
            for (uint r = 0; r < 4; r++)
                for (uint k = 0; k < 4; k++)
                    if (x + k < width && y + r < height)
                        STORE(out, (x + k) * height + y + r, LOAD(in, (y + r) * width + x + k));
        }
    }
}

/* The bits 0, 2, 4, 6, 8 of q, packed: a Morton index's column (q >> 1 gives its row). */
uint morton_even5(uint q)
{
    uint r = 0;
    for (uint b = 0; b < 5; b++)
        r |= ((q >> (2 * b)) & 1) << b;
    return r;
}

#if CLC_LOCAL_X == 32 && CLC_LOCAL_Y * CLC_ITEMS == 32
/* The group's 32 x 32 region in Morton order: element q = lx + 32 ly + 256 j (j < 4) at
 * column morton_even5(q), row morton_even5(q >> 1): a warp's 32 lanes an 8-column x 4-row
 * block, each load 4 runs of 32 bytes of rows of in, each store 8 runs of 16 bytes of rows of
 * out. */
__kernel void tr_direct_morton32(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    uint i = (uint)(get_local_id(0) + 32 * get_local_id(1));
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    for (uint j = 0; j < CLC_ITEMS; j++) {
        uint q = i + 32 * CLC_LOCAL_Y * j;
        size_t x = bx + morton_even5(q), y = by + morton_even5(q >> 1);
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}
#endif

/* Skewed diagonals of the group's region (X columns, R = K * Y rows; under 32 x 8, 4 rows: 32
 * x 32): work-item (lx, ly) takes column lx and row (lx + ly + Y j) mod R (j < K), so the
 * lanes of a warp lie on a diagonal: each load 32 rows of in, each store 32 rows of out, an
 * element of each (the region's elements each once). */
__kernel void tr_direct_skew32(__global const T *in, __global T *out, ulong width,
                               ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t lx = get_local_id(0), ly = get_local_id(1), rows = CLC_LOCAL_Y * CLC_ITEMS;
    size_t x = get_group_id(0) * CLC_LOCAL_X + lx, by = get_group_id(1) * rows;
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t y = by + (lx + ly + CLC_LOCAL_Y * j) % rows;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}
