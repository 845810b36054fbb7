/* naive transposes' stores by the pitch of out (exploration): 32 x 8 work-items, 4 rows each */
#include "clc.h"

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*(H+0)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+0
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tp_store_pow2(__global const float *in, __global float *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, (float)(x + y));
    }
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*(H+32)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+32
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tp_store_pad32(__global const float *in, __global float *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, (float)(x + y));
    }
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H
 *   arg out out float W*(H+1)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+1
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tp_store_pad1(__global const float *in, __global float *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, (float)(x + y));
    }
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H random
 *   arg out out float W*(H+0)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+0
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tp_copy_pow2(__global const float *in, __global float *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, LOAD(in, y * width + x));
    }
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H random
 *   arg out out float W*(H+32)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+32
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tp_copy_pad32(__global const float *in, __global float *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, LOAD(in, y * width + x));
    }
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H random
 *   arg out out float W*(H+1)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+1
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tp_copy_pad1(__global const float *in, __global float *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, LOAD(in, y * width + x));
    }
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / 2 / W
 *   arg in in double W*H
 *   arg out out double W*(H+0)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+0
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void td_store_pow2(__global const double *in, __global double *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, (double)(x + y));
    }
}

/* clcoalesce:
 *   size W = sqrt(n / 2)
 *   size H = n / 2 / W
 *   arg in in double W*H
 *   arg out out double W*(H+0)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+0
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void td_store_odd(__global const double *in, __global double *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, (double)(x + y));
    }
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / 2 / W
 *   arg in in double W*H random
 *   arg out out double W*(H+0)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+0
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void td_copy_pow2(__global const double *in, __global double *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, LOAD(in, y * width + x));
    }
}

/* clcoalesce:
 *   size W = sqrt(n / 2)
 *   size H = n / 2 / W
 *   arg in in double W*H random
 *   arg out out double W*(H+0)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+0
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void td_copy_odd(__global const double *in, __global double *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, LOAD(in, y * width + x));
    }
}

/* clcoalesce:
 *   size W = 16384
 *   size H = n / 2 / W
 *   arg in in double W*H random
 *   arg out out double W*(H+16)
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   arg p scalar ulong H+16
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void td_copy_pad16(__global const double *in, __global double *out, ulong width, ulong height,
                     ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * pitch + y, LOAD(in, y * width + x));
    }
}
