/* transpose_tiled.cl - an example for `clcoalesce custom`, pattern transpose:
 * out[x * height + y] = in[y * width + x] for a width x height row-major `in`.
 *
 *   clcoalesce custom --kernel-file cl/examples/transpose_tiled.cl \
 *       --kernel transpose_tiled --pattern transpose
 *
 * With the defaults (--local 32x8, --items-per-thread 4) a work-group of 32 x 8 work-items
 * owns one 32 x 32 tile: each work-item reads 4 rows of it, 8 rows apart, from `in` (a warp
 * reads 32 consecutive elements of a row: coalesced), parks them in __local memory, and
 * after the barrier writes 4 rows of the transposed tile to `out` (again 32 consecutive
 * elements per warp).  The transpose itself happens in __local memory, where reading down a
 * column is cheap once the tile has a padding column: with a pitch of 33, the 32 elements
 * of a column sit in 32 different banks.  Edge tiles are guarded; every work-item still
 * reaches the barrier. */
#include "clc.h"

#define TILE 32
/* the host defines CLC_LOCAL_X, CLC_LOCAL_Y and CLC_ITEMS from --local and
 * --items-per-thread; the fallbacks are the defaults, for compiling the file on its own */
#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif

/* a tile needs 32 work-items across and 32 rows per group: --local 32xY with
 * Y * --items-per-thread = 32.  A constant step lets the compiler unroll the loops. */
#if CLC_LOCAL_X != TILE || CLC_LOCAL_Y * CLC_ITEMS != TILE
#error "transpose_tiled needs --local 32xY and --items-per-thread 32 / Y (default 32x8, 4)"
#endif

__kernel void transpose_tiled(__global const T *in, __global T *out, ulong width,
                              ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[TILE][TILE + 1];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    for (uint r = 0; r < TILE; r += CLC_LOCAL_Y) {
        size_t x = x0 + lx, y = y0 + ly + r;
        if (x < width && y < height)
            tile[ly + r][lx] = LOAD(in, y * width + x);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the tile at (x0, y0) of `in` lands at row x0, column y0 of `out` (height columns) */
    for (uint r = 0; r < TILE; r += CLC_LOCAL_Y) {
        size_t oy = x0 + ly + r, ox = y0 + lx;
        if (oy < width && ox < height)
            STORE(out, oy * height + ox, tile[lx][ly + r]);
    }
}
