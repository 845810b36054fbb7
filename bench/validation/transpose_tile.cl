/* transpose_tile.cl - validation kernels (family `transpose-tile`): out[x * height + y] =
 * in[y * width + x] through a __local tile: 16 x 16 with one element per work-item, padded or
 * not; 32 x 32 with its columns XOR-swizzled instead of padded; 64 x 64 tiles that a 32 x 8
 * work-group walks in a loop over all tiles; 64 x 64 unpadded with 16 consecutive rows per
 * work-item.  Each kernel compiles only under the --local and --items-per-thread its row of
 * kernels.tsv gives (the host defines CLC_LOCAL_X, CLC_LOCAL_Y and CLC_ITEMS). */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(16, 16, 1)
/* A 16 x 16 tile with the given pitch (16: a column of the tile in 8 banks twice; 17: in 16
 * banks), one element per work-item. */
#define TILE16(name, pitch)                                                                 \
    __kernel void name(__global const T *in, __global T *out, ulong width,                  \
                       ulong height CLC_TRACE_ARGS)                                         \
    {                                                                                       \
        CLC_TRACE_BEGIN                                                                     \
        __local T t[16][pitch];                                                             \
        size_t lx = get_local_id(0), ly = get_local_id(1);                                  \
        size_t bx = get_group_id(0) * 16, by = get_group_id(1) * 16;                        \
        if (bx + lx < width && by + ly < height)                                            \
            LSTORE(t[ly], lx, LOAD(in, (by + ly) * width + bx + lx));                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        if (by + lx < height && bx + ly < width)                                            \
            STORE(out, (bx + ly) * height + by + lx, LLOAD(t[lx], ly));                     \
    }
TILE16(tr_tile16, 16)
TILE16(tr_tile16_pad, 17)
#endif

#if SHAPE(32, 8, 4)
/* A 32 x 32 tile without padding: element (r, c) of the tile sits at column c ^ r, so a
 * column of the tile, read when storing, spreads over all 32 banks. */
__kernel void tr_tile32_xor(__global const T *in, __global T *out, ulong width,
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
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], (ly + j) ^ lx));
}

/* 64 x 64 padded tiles, numbered row by row; work-group g moves tiles g, g + G, ... (G
 * work-groups: about four times the tiles, so most groups move one or none).  Each
 * work-item moves 2 columns x 8 rows of a tile. */
__kernel void tr_tile64_loop(__global const T *in, __global T *out, ulong width,
                             ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][65];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t tw = (width + 63) / 64, nt = tw * ((height + 63) / 64);
    size_t g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    size_t ng = get_num_groups(0) * get_num_groups(1);
    for (size_t tile = g; tile < nt; tile += ng) {
        size_t bx = tile % tw * 64, by = tile / tw * 64;
        for (uint r = 0; r < 64; r += 8)
            for (uint c = 0; c < 64; c += 32)
                if (bx + lx + c < width && by + ly + r < height)
                    LSTORE(t[ly + r], lx + c, LOAD(in, (by + ly + r) * width + bx + lx + c));
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint r = 0; r < 64; r += 8)
            for (uint c = 0; c < 64; c += 32)
                if (by + lx + c < height && bx + ly + r < width)
                    STORE(out, (bx + ly + r) * height + by + lx + c, LLOAD(t[lx + c], ly + r));
        barrier(CLK_LOCAL_MEM_FENCE); /* the tile is refilled on the next pass */
    }
}
#endif

#if SHAPE(64, 4, 16)
/* A 64 x 64 tile, no padding, each work-item moving 16 consecutive rows (ly * 16 ..) of one
 * column, where the tile kernels of the suite take rows a work-group's height apart. */
__kernel void tr_tile64_rows16(__global const T *in, __global T *out, ulong width,
                               ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][64];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 64, by = get_group_id(1) * 64;
    for (uint r = 0; r < 16; r++) {
        size_t row = ly * 16 + r;
        if (bx + lx < width && by + row < height)
            LSTORE(t[row], lx, LOAD(in, (by + row) * width + bx + lx));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < 16; r++) {
        size_t row = ly * 16 + r;
        if (by + lx < height && bx + row < width)
            STORE(out, (bx + row) * height + by + lx, LLOAD(t[lx], row));
    }
}
#endif
