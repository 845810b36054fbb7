/* transpose_vector.cl - validation kernels, second set (family `transpose-vector`):
 * out[x * height + y] = in[y * width + x] with vector accesses: a 32 x 32 tile loaded from
 * the rows of in as float4 (one per work-item) and stored by scalars; a tile 16 wide and 64
 * tall loaded as float2 and stored along the rows of out as float4; and, without __local,
 * float4 loads from the rows of in each stored as four scalars to four rows of out.  vload
 * and vstore need only element alignment, so the vectors start anywhere in a row; where a
 * vector would run past the end of a row (width or height not a multiple of its width) its
 * elements go one by one.  Each work-group covers the X columns and K * Y rows of in its
 * launch gives it (global = (round_up(width, X), round_up(ceil(height / K), Y))); each kernel
 * compiles only under the launch its row of kernels.tsv gives. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define SHAPE(x, y, k) (CLC_LOCAL_X == (x) && CLC_LOCAL_Y == (y) && CLC_ITEMS == (k))

#if SHAPE(32, 8, 4)
/* A 32 x 32 tile (pitch 33), loaded as 256 float4, work-item l = 32 ly + lx taking row
 * l / 8, elements 4 (l % 8) .. + 3 (a warp: 4 rows, 128 bytes each, 16 bytes per work-item);
 * stored as scalars, 4 rows of out 8 apart per work-item (runs of 32 elements). */
__kernel void tr_vec4_ld_tile32(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1), l = ly * 32 + lx;
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * 32;
    size_t r = l / 8, c = (l % 8) * 4, x = bx + c, y = by + r;
    if (y < height) {
        if (x + 3 < width) {
            float4 v = VLOAD(4, 0, in + y * width + x);
            LSTORE(t[r], c, v.x);
            LSTORE(t[r], c + 1, v.y);
            LSTORE(t[r], c + 2, v.z);
            LSTORE(t[r], c + 3, v.w);
        } else {
            for (uint k = 0; k < 4; k++)
                if (x + k < width)
                    LSTORE(t[r], c + k, LOAD(in, y * width + x + k));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 32; j += 8)
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));
}
#endif

#if SHAPE(16, 16, 4)
/* A tile 16 wide and 64 tall (pitch 17): loaded as float2, work-item l = 16 ly + lx taking
 * row l / 8 and row l / 8 + 32, elements 2 (l % 8) and + 1 (a warp: 4 rows, 64 bytes each);
 * stored as float4 along the rows of out, work-item l writing elements 4 (l % 16) .. + 3 of
 * row l / 16 of out's tile (a warp: 2 rows of out, 256 bytes each). */
__kernel void tr_vec2_ld_vec4_st(__global const T *in, __global T *out, ulong width,
                                 ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[64][17];
    size_t lx = get_local_id(0), ly = get_local_id(1), l = ly * 16 + lx;
    size_t bx = get_group_id(0) * 16, by = get_group_id(1) * 64;
    size_t r = l / 8, c = (l % 8) * 2, x = bx + c;
    for (uint j = 0; j < 64; j += 32) {
        size_t y = by + r + j;
        if (y < height) {
            if (x + 1 < width) {
                float2 v = VLOAD(2, 0, in + y * width + x);
                LSTORE(t[r + j], c, v.x);
                LSTORE(t[r + j], c + 1, v.y);
            } else if (x < width) {
                LSTORE(t[r + j], c, LOAD(in, y * width + x));
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t row = l / 16, q = (l % 16) * 4;
    if (bx + row < width) {
        size_t o = (bx + row) * height + by + q;
        if (by + q + 3 < height) {
            float4 v;
            v.x = LLOAD(t[q], row);
            v.y = LLOAD(t[q + 1], row);
            v.z = LLOAD(t[q + 2], row);
            v.w = LLOAD(t[q + 3], row);
            VSTORE(4, v, 0, out + o);
        } else {
            for (uint k = 0; k < 4; k++)
                if (by + q + k < height)
                    STORE(out, o + k, LLOAD(t[q + k], row));
        }
    }
}
#endif

#if SHAPE(64, 4, 4)
/* No __local: the group's 64 x 16 elements as 16 rows of 16 float4, work-item l = 64 ly + lx
 * loading row l / 16, elements 4 (l % 16) .. + 3 (a warp: 2 rows, 256 bytes each) and
 * storing them one by one to four rows of out (each store instruction: 16 columns 4 apart x
 * 2 rows, scattered over out). */
__kernel void tr_vec4_ld_direct(__global const T *in, __global T *out, ulong width,
                                ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t lx = get_local_id(0), ly = get_local_id(1), l = ly * 64 + lx;
    size_t x = get_group_id(0) * 64 + (l % 16) * 4, y = get_group_id(1) * 16 + l / 16;
    if (y >= height)
        return;
    if (x + 3 < width) {
        float4 v = VLOAD(4, 0, in + y * width + x);
        STORE(out, x * height + y, v.x);
        STORE(out, (x + 1) * height + y, v.y);
        STORE(out, (x + 2) * height + y, v.z);
        STORE(out, (x + 3) * height + y, v.w);
    } else {
        for (uint k = 0; k < 4; k++)
            if (x + k < width)
                STORE(out, (x + k) * height + y, LOAD(in, y * width + x + k));
    }
}
#endif
