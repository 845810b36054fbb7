/* vector6.cl - sixth validation set (family `vector-6`): vectors of one width loaded and of
 * another stored: float4 windows that overlap by half (every element loaded twice, half the
 * windows off their 16-byte boundary) stored as float2, two float4 loads stored as one
 * float8, and a chunk of 12 elements a work-item walked as four float3.  The elements a whole
 * vector cannot take are done one by one.  Launches in kernels.tsv. */
#include "clc.h"

/* Work-item q loads the float4 window of elements 2 q .. 2 q + 3 (vload4 at in + 2 q, 8 bytes
 * off a 16-byte boundary for odd q) and stores its first two as float2 q (CLC_ITEMS = 2): a
 * stencil's sliding loads, neighbouring windows overlapping by half, a warp's load over 264
 * bytes for the 256 it stores.  A window past the array's end: two scalars. */
__kernel void copy_window4_overlap(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0);
    if (2 * q + 4 <= n) {
        float4 w = VLOAD(4, 0, in + 2 * q);
        float2 v;
        v.x = w.x;
        v.y = w.y;
        VSTORE(2, v, q, out);
    } else {
        for (size_t i = 2 * q; i < 2 * q + 2 && i < n; i++)
            STORE(out, i, LOAD(in, i));
    }
}

/* Work-item q loads float4 2 q and 2 q + 1 (two requests, lanes 32 bytes apart, each over
 * every other 16 bytes of 1 KiB) and stores the eight elements as one float8 q (CLC_ITEMS =
 * 8; vstore8: a warp's store over 1 KiB, lanes 32 bytes apart).  A chunk the array's end
 * cuts, element by element. */
__kernel void scale_ld4x2_st8(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0);
    if (8 * q + 8 <= n) {
        float4 a = VLOAD(4, 2 * q, in);
        float4 b = VLOAD(4, 2 * q + 1, in);
        float8 v;
        v.s0 = a.x * 2;
        v.s1 = a.y * 2;
        v.s2 = a.z * 2;
        v.s3 = a.w * 2;
        v.s4 = b.x * 2;
        v.s5 = b.y * 2;
        v.s6 = b.z * 2;
        v.s7 = b.w * 2;
        VSTORE(8, v, q, out);
    } else {
        for (size_t i = 8 * q; i < n; i++)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

/* Elements 12 t .. 12 t + 11 (CLC_ITEMS = 12) walked as four float3 (vload3 / vstore3, 12
 * bytes a step): lanes 48 bytes apart, each step over a quarter of 1.5 KiB, the second and
 * third float3 of a chunk across a 16-byte boundary.  A chunk the array's end cuts, element
 * by element. */
__kernel void copy_float3_chunk12(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), first = 12 * t;
    if (first + 12 <= n) {
        for (uint k = 0; k < 4; k++)
            VSTORE(3, VLOAD(3, 4 * t + k, in), 4 * t + k, out);
    } else {
        for (size_t i = first; i < n; i++)
            STORE(out, i, LOAD(in, i));
    }
}
