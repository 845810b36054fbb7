#include "clc.h"
/* naive transposes, 32 x 8 a work-group, one element a work-item: the four work-groups that
 * fill a line of out (32 rows) taken D apart in launch order (D = 512: the plain order) */
#define NAIVE_D(D)                                                                        \
    size_t ngx = get_num_groups(0);                                                       \
    size_t g = get_group_id(1) * ngx + get_group_id(0);                                   \
    size_t r = g % (4 * (D)), part = r / (D), line = g / (4 * (D)) * (D) + r % (D);       \
    size_t gx = line % ngx, gy = line / ngx * 4 + part;                                   \
    size_t x = gx * 32 + get_local_id(0), y = gy * 8 + get_local_id(1);                   \
    if (x < width && y < height)                                                          \
        STORE(out, x * height + y, LOAD(in, y * width + x));

#define K(name, D)                                                                        \
    __kernel void name(__global const T *in, __global T *out, ulong width,               \
                       ulong height CLC_TRACE_ARGS)                                       \
    {                                                                                     \
        CLC_TRACE_BEGIN                                                                   \
        NAIVE_D(D)                                                                        \
    }
K(tr_d1, 1)
K(tr_d4, 4)
K(tr_d32, 32)
K(tr_d128, 128)
K(tr_d512, 512)
K(tr_d2048, 2048)
K(tr_d16384, 16384)

/* the fourth set's tr_naive_diag */
__kernel void tr_diag(__global const T *in, __global T *out, ulong width,
                      ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t gy = get_group_id(1), gx = (get_group_id(0) + gy) % get_num_groups(0);
    size_t x = gx * CLC_LOCAL_X + get_local_id(0), y = gy * CLC_LOCAL_Y + get_local_id(1);
    if (x < width && y < height)
        STORE(out, x * height + y, LOAD(in, y * width + x));
}

/* plain naive, any launch (32x32 items 1: a work-group fills whole lines) */
__kernel void tr_plain(__global const T *in, __global T *out, ulong width,
                       ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y0 = get_group_id(1) * CLC_LOCAL_Y * CLC_ITEMS + get_local_id(1);
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t y = y0 + j * CLC_LOCAL_Y;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* the second set's tr_naive256x1_xwalk, and the same with the eight work-groups that fill a
 * line of out consecutive in launch order */
__kernel void tr_xwalk(__global const T *in, __global T *out, ulong width,
                       ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0);
    size_t y = get_group_id(1) * 4 + l / 64, x0 = get_group_id(0) * 256 + (l % 64) * 4;
    for (uint k = 0; k < 4; k++)
        if (x0 + k < width && y < height)
            STORE(out, (x0 + k) * height + y, LOAD(in, y * width + x0 + k));
}
__kernel void tr_xwalk_d1(__global const T *in, __global T *out, ulong width,
                          ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t ngx = get_num_groups(0), g = get_group_id(1) * ngx + get_group_id(0);
    size_t part = g % 8, line = g / 8, gx = line % ngx, gy = line / ngx * 8 + part;
    size_t l = get_local_id(0);
    size_t y = gy * 4 + l / 64, x0 = gx * 256 + (l % 64) * 4;
    for (uint k = 0; k < 4; k++)
        if (x0 + k < width && y < height)
            STORE(out, (x0 + k) * height + y, LOAD(in, y * width + x0 + k));
}

/* the second set's tr_vec4_ld_direct, and the same with the two work-groups that fill a
 * line consecutive */
#define VEC4_BODY(GX, GY)                                                                 \
    size_t lx = get_local_id(0), ly = get_local_id(1), l = ly * 64 + lx;                 \
    size_t x = (GX) * 64 + (l % 16) * 4, y = (GY) * 16 + l / 16;                          \
    if (y >= height)                                                                      \
        return;                                                                           \
    if (x + 3 < width) {                                                                  \
        float4 v = VLOAD(4, 0, in + y * width + x);                                       \
        STORE(out, x * height + y, v.x);                                                  \
        STORE(out, (x + 1) * height + y, v.y);                                            \
        STORE(out, (x + 2) * height + y, v.z);                                            \
        STORE(out, (x + 3) * height + y, v.w);                                            \
    } else {                                                                              \
        for (uint k = 0; k < 4; k++)                                                      \
            if (x + k < width)                                                            \
                STORE(out, (x + k) * height + y, LOAD(in, y * width + x + k));            \
    }
__kernel void tr_vec4(__global const T *in, __global T *out, ulong width,
                      ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    VEC4_BODY(get_group_id(0), get_group_id(1))
}
__kernel void tr_vec4_d1(__global const T *in, __global T *out, ulong width,
                         ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t ngx = get_num_groups(0), g = get_group_id(1) * ngx + get_group_id(0);
    size_t line = g / 2;
    VEC4_BODY(line % ngx, line / ngx * 2 + g % 2)
}
