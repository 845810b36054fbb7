/* multi_element.cl - validation kernels (family `multi-element`): copy or scale with several
 * elements or vectors per work-item: float2, float3, float8, two float4 side by side or a
 * grid apart, four floats a grid apart unrolled by hand, float2 walked a group at a time,
 * float4 one float off their natural alignment.  The elements a whole vector cannot take
 * (n not a multiple of its width) are done one by one by the work-item just past the last
 * whole vector. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif

/* Elements first .. n-1 times factor, one by one (the tail after the whole vectors).  A
 * macro, not a function: LOAD and STORE record into the kernel's own trace variables. */
#define COPY_TAIL(first, factor)                                                            \
    for (size_t i_ = (first); i_ < n; i_++)                                                 \
        STORE(out, i_, LOAD(in, i_) * (factor))

__kernel void copy_float2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n2 = n / 2;
    if (q < n2)
        VSTORE(2, VLOAD(2, q, in), q, out);
    else if (q == n2)
        COPY_TAIL(2 * n2, 1);
}

/* Two float4 side by side: 32 bytes per work-item. */
__kernel void scale_float4_pair(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t n4 = n / 4;
    for (uint k = 0; k < 2; k++) {
        size_t q = 2 * get_global_id(0) + k;
        if (q < n4)
            VSTORE(4, VLOAD(4, q, in) * 2.0f, q, out);
        else if (q == n4)
            COPY_TAIL(4 * n4, 2);
    }
}

/* Two float4 a grid apart: vectors j and j + G of work-item j. */
__kernel void copy_float4_gridpair(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t n4 = n / 4, g = get_global_size(0);
    for (uint k = 0; k < 2; k++) {
        size_t q = get_global_id(0) + k * g;
        if (q < n4)
            VSTORE(4, VLOAD(4, q, in), q, out);
        else if (q == n4)
            COPY_TAIL(4 * n4, 1);
    }
}

/* Four floats a grid apart, the loop unrolled by hand: all four loads before any store. */
__kernel void copy_unroll4_grid(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), i0 = get_global_id(0);
    size_t i1 = i0 + g, i2 = i1 + g, i3 = i2 + g;
    T v0 = 0, v1 = 0, v2 = 0, v3 = 0;
    if (i0 < n) v0 = LOAD(in, i0);
    if (i1 < n) v1 = LOAD(in, i1);
    if (i2 < n) v2 = LOAD(in, i2);
    if (i3 < n) v3 = LOAD(in, i3);
    if (i0 < n) STORE(out, i0, v0);
    if (i1 < n) STORE(out, i1, v1);
    if (i2 < n) STORE(out, i2, v2);
    if (i3 < n) STORE(out, i3, v3);
}

/* float2 walked a work-group's width at a time over the group's CLC_ITEMS / 2 * local
 * float2s. */
__kernel void scale_float2_groupwalk(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t L = get_local_size(0), n2 = n / 2;
    size_t base = get_group_id(0) * L * (CLC_ITEMS / 2);
    for (uint k = 0; k < CLC_ITEMS / 2; k++) {
        size_t q = base + get_local_id(0) + k * L;
        if (q < n2)
            VSTORE(2, VLOAD(2, q, in) * 2.0f, q, out);
        else if (q == n2)
            COPY_TAIL(2 * n2, 2);
    }
}

__kernel void copy_float8(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n8 = n / 8;
    if (q < n8)
        VSTORE(8, VLOAD(8, q, in), q, out);
    else if (q == n8)
        COPY_TAIL(8 * n8, 1);
}

/* float3: 12 bytes per work-item, so most vectors straddle a 16-byte boundary. */
__kernel void scale_float3(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n3 = n / 3;
    if (q < n3)
        VSTORE(3, VLOAD(3, q, in) * 2.0f, q, out);
    else if (q == n3)
        COPY_TAIL(3 * n3, 2);
}

/* float4 starting at element 1: every vector is 4 bytes off a 16-byte boundary.  Work-item
 * 0 also copies element 0. */
__kernel void copy_float4_offset1(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = (n - 1) / 4;
    if (q == 0)
        STORE(out, 0, LOAD(in, 0));
    if (q < n4)
        VSTORE(4, VLOAD(4, q, in + 1), q, out + 1);
    else if (q == n4)
        COPY_TAIL(1 + 4 * n4, 1);
}
