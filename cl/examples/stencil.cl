/* stencil.cl - an example for `clcoalesce custom`: a 5-point Jacobi stencil over a W x H
 * grid, naive and tiled in __local memory.  The boundary is copied; every interior point
 * becomes the mean of itself and its four neighbours.
 *
 *   clcoalesce custom --kernel-file cl/examples/stencil.cl --kernel stencil_tiled \
 *       --reference stencil_naive
 *
 * stencil_naive reads five elements of `in` per work-item, four of them also read by a
 * neighbour: rows above and below come from the cache, if it holds them.  stencil_tiled
 * loads a 16 x 16 tile plus a one-element halo into __local memory once per work-group and
 * computes from there: each element of `in` is read from global memory about once. */
#include "clc.h"

#define TILE 16

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in  in     float W*H random
 *   arg out out    float W*H
 *   arg w   scalar int   W
 *   arg h   scalar int   H
 *   grid W, H
 *   group 16, 16
 */
__kernel void stencil_naive(__global const float *in, __global float *out, int w,
                            int h CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        STORE(out, i, LOAD(in, i));
        return;
    }
    STORE(out, i, 0.2f * (LOAD(in, i) + LOAD(in, i - 1) + LOAD(in, i + 1) + LOAD(in, i - w) +
                          LOAD(in, i + w)));
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in  in     float W*H random
 *   arg out out    float W*H
 *   arg w   scalar int   W
 *   arg h   scalar int   H
 *   grid W, H
 *   group 16, 16
 */
__kernel void stencil_tiled(__global const float *in, __global float *out, int w,
                            int h CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float tile[TILE + 2][TILE + 2];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = get_group_id(0) * TILE - 1, y0 = get_group_id(1) * TILE - 1;
    /* the tile and its halo: (TILE + 2)^2 elements loaded by TILE^2 work-items */
    for (int k = ly * TILE + lx; k < (TILE + 2) * (TILE + 2); k += TILE * TILE) {
        int tx = k % (TILE + 2), ty = k / (TILE + 2), gx = x0 + tx, gy = y0 + ty;
        tile[ty][tx] = gx >= 0 && gy >= 0 && gx < w && gy < h ? LOAD(in, gy * w + gx) : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float c = tile[ly + 1][lx + 1];
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        STORE(out, y * w + x, c);
    else
        STORE(out, y * w + x, 0.2f * (c + tile[ly + 1][lx] + tile[ly + 1][lx + 2] +
                                      tile[ly][lx + 1] + tile[ly + 2][lx + 1]));
}
