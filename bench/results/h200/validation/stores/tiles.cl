/* tile copies (exploration): each work-group copies a tile of W bytes of each of its rows,
 * 4 rows a work-item (the 4 loads first), the work-groups in x order: DRAM sees runs of W
 * bytes a row that the next work-groups continue. */
#include "clc.h"


/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 8, 32
 */
__kernel void tc32(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1);
    size_t y = get_group_id(1) * gy * 4 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (y + j * gy) * width + x, v[j]);
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 16, 16
 */
__kernel void tc64(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1);
    size_t y = get_group_id(1) * gy * 4 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (y + j * gy) * width + x, v[j]);
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tc128(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1);
    size_t y = get_group_id(1) * gy * 4 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (y + j * gy) * width + x, v[j]);
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 64, 4
 */
__kernel void tc256(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1);
    size_t y = get_group_id(1) * gy * 4 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (y + j * gy) * width + x, v[j]);
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 128, 2
 */
__kernel void tc512(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1);
    size_t y = get_group_id(1) * gy * 4 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (y + j * gy) * width + x, v[j]);
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 256, 1
 */
__kernel void tc1024(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1);
    size_t y = get_group_id(1) * gy * 4 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (y + j * gy) * width + x, v[j]);
}

/* the reference: one element a work-item */
/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W * H
 *   group 256
 */
__kernel void tc_ref(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < width * height)
        STORE(out, i, LOAD(in, i));
}

/* tiles copied whole, each to the transposed tile's place (out tile (bx, by) from in tile
 * (by, bx)): the stores leave runs of 128 bytes a row that the next work-groups do not continue */
/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void bt128(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1), th = gy * 4, tw = get_local_size(0);
    size_t y = get_group_id(1) * th + get_local_id(1);
    size_t tiles_down = height / th, opitch = tiles_down * tw;
    size_t ox = get_group_id(1) * tw + get_local_id(0), oy = get_group_id(0) * th + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (oy + j * gy) * opitch + ox, v[j]);
}

/* tiles copied whole, each to the transposed tile's place (out tile (bx, by) from in tile
 * (by, bx)): the stores leave runs of 256 bytes a row that the next work-groups do not continue */
/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 64, 4
 */
__kernel void bt256(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1), th = gy * 4, tw = get_local_size(0);
    size_t y = get_group_id(1) * th + get_local_id(1);
    size_t tiles_down = height / th, opitch = tiles_down * tw;
    size_t ox = get_group_id(1) * tw + get_local_id(0), oy = get_group_id(0) * th + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (oy + j * gy) * opitch + ox, v[j]);
}

/* tiles copied whole, each to the transposed tile's place (out tile (bx, by) from in tile
 * (by, bx)): the stores leave runs of 512 bytes a row that the next work-groups do not continue */
/* clcoalesce:
 *   size W = 16384
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 128, 2
 */
__kernel void bt512(__global const float *in, __global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), gy = get_local_size(1), th = gy * 4, tw = get_local_size(0);
    size_t y = get_group_id(1) * th + get_local_id(1);
    size_t tiles_down = height / th, opitch = tiles_down * tw;
    size_t ox = get_group_id(1) * tw + get_local_id(0), oy = get_group_id(0) * th + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y + j * gy < height ? LOAD(in, (y + j * gy) * width + x) : 0;
    for (uint j = 0; j < 4; j++)
        if (y + j * gy < height)
            STORE(out, (oy + j * gy) * opitch + ox, v[j]);
}
