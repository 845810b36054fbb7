/* transpose_direct3.cl - third validation set (family `transpose-direct-3`): out[x * height
 * + y] = in[y * width + x] without __local, each work-item on one column x of in and several
 * rows: 8 rows 4 apart under a 32 x 4 launch; 2 consecutive rows stored as one float2 of out
 * (16 x 16); 4 consecutive rows stored as one float4 (32 x 8).  The launch: global =
 * (round_up(width, X), round_up(ceil(height / K), Y)) for --local XxY and K =
 * --items-per-thread, so a work-group covers X columns and K * Y rows of in.  A vector store
 * is used where the rows it holds are whole and aligned (height a multiple of its width),
 * else element stores. */
#include "clc.h"

#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 4
#define CLC_ITEMS 8
#endif

/* Rows y0 + 4 j (j < 8) of column x: each load request one run of 32 elements of a row of
 * in, each store request 32 lanes a row of out apart. */
__kernel void tr_direct_32x4_rows8(__global const T *in, __global T *out, ulong width,
                                   ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * CLC_LOCAL_Y * CLC_ITEMS + get_local_id(1);
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t y = y0 + j * CLC_LOCAL_Y;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* Rows 2 g and 2 g + 1 of column x (g the work-item's row index): two loads, one from each
 * row of in, and one float2 store into out's row x (8 bytes a lane, lanes a row apart). */
__kernel void tr_direct_pair_vec2(__global const T *in, __global T *out, ulong width,
                                  ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y = 2 * get_global_id(1);
    if (x >= width || y >= height)
        return;
    if (height % 2 == 0) {
        float2 v;
        v.x = LOAD(in, y * width + x);
        v.y = LOAD(in, (y + 1) * width + x);
        VSTORE(2, v, (x * height + y) / 2, out);
    } else {
        for (size_t r = y; r < y + 2 && r < height; r++)
            STORE(out, x * height + r, LOAD(in, r * width + x));
    }
}

/* Rows 4 g .. 4 g + 3 of column x: four loads, one per row of in, and one float4 store into
 * out's row x (16 bytes a lane, lanes a row of out apart). */
__kernel void tr_direct_quad_vec4(__global const T *in, __global T *out, ulong width,
                                  ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y = 4 * get_global_id(1);
    if (x >= width || y >= height)
        return;
    if (height % 4 == 0) {
        float4 v;
        v.x = LOAD(in, y * width + x);
        v.y = LOAD(in, (y + 1) * width + x);
        v.z = LOAD(in, (y + 2) * width + x);
        v.w = LOAD(in, (y + 3) * width + x);
        VSTORE(4, v, (x * height + y) / 4, out);
    } else {
        for (size_t r = y; r < y + 4 && r < height; r++)
            STORE(out, x * height + r, LOAD(in, r * width + x));
    }
}
