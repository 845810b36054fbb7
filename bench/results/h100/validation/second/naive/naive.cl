/* naive transposes, one factor at a time (exploration) */
#include "clc.h"
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif

/* the pattern form: CLC_ITEMS rows a work-item, CLC_LOCAL_Y apart */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void tn(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
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

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tn_store_only(__global float *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * height + y, (float)(x + y));
    }
}

/* clcoalesce:
 *   size W = sqrt(n)
 *   size H = n / W
 *   arg in in float W*H random
 *   arg out out float W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tn_load_l2(__global const float *in, __global float *out, ulong width,
                         ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, (y * width + x) & ((1 << 20) - 1)));
    }
}

/* clcoalesce:
 *   size W = sqrt(n / 2)
 *   size H = n / 2 / W
 *   arg in in double W*H random
 *   arg out out double W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tn_double(__global const double *in, __global double *out, ulong width,
                        ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* clcoalesce:
 *   size W = sqrt(n / 2)
 *   size H = n / 2 / W
 *   arg out out double W*H
 *   arg w scalar ulong W
 *   arg h scalar ulong H
 *   grid W, H / 4
 *   group 32, 8
 */
__kernel void tn_double_store_only(__global double *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    size_t y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 4; j++) {
        size_t y = y0 + j * 8;
        if (x < width && y < height)
            STORE(out, x * height + y, (double)(x + y));
    }
}
