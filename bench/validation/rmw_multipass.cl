/* rmw_multipass.cl - validation kernels (family `rmw-multipass`): copy or scale that read
 * back what they wrote, or pass over the same data more than once in one launch: out
 * written then doubled in place, a group's chunk copied then doubled in reverse order after a
 * global-memory barrier, even elements then odd ones, out zeroed then added to, and a
 * value written doubled then halved by a neighbour.  Only the final values are checked. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#define CLC_ITEMS 1
#endif

/* out[i] = in[i], then out[i] = out[i] + out[i]. */
__kernel void scale_rmw_self(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        STORE(out, i, LOAD(in, i));
        T v = LOAD(out, i);
        STORE(out, i, v + v);
    }
}

/* out[i] = in[i], then out[i] = out[i] + in[i]: in is read twice. */
__kernel void scale_add_twice(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        STORE(out, i, LOAD(in, i));
        STORE(out, i, LOAD(out, i) + LOAD(in, i));
    }
}

/* A group's chunk of CLC_ITEMS * L copied a group's width at a time; after a barrier on
 * global memory, doubled in place from the chunk's end, so most work-items double elements
 * another one wrote. */
__kernel void scale_two_pass_reversed(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), chunk = CLC_LOCAL_X * CLC_ITEMS;
    size_t base = get_group_id(0) * chunk;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + l + k * CLC_LOCAL_X;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + chunk - 1 - (l + k * CLC_LOCAL_X);
        if (i < n)
            STORE(out, i, LOAD(out, i) * 2);
    }
}

/* First pass: the even elements of the group's 2L; second pass: the odd ones. */
__kernel void copy_even_then_odd(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t base = get_group_id(0) * 2 * CLC_LOCAL_X, l = get_local_id(0);
    for (uint p = 0; p < 2; p++) {
        size_t i = base + 2 * l + p;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
}

/* CLC_ITEMS elements a grid apart: all zeroed first, then each out = out + in. */
__kernel void copy_zero_then_add(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), j = get_global_id(0);
    for (uint k = 0; k < CLC_ITEMS; k++)
        if (j + k * g < n)
            STORE(out, j + k * g, 0);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = j + k * g;
        if (i < n)
            STORE(out, i, LOAD(out, i) + LOAD(in, i));
    }
}

/* float4: out = in, then out = out * 2 read back as a vector; the floats past the last
 * whole float4 one by one. */
__kernel void scale_rmw_float4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4;
    if (q < n4) {
        VSTORE(4, VLOAD(4, q, in), q, out);
        VSTORE(4, VLOAD(4, q, out) * 2.0f, q, out);
    } else if (q == n4) {
        for (size_t i = 4 * n4; i < n; i++) {
            STORE(out, i, LOAD(in, i));
            STORE(out, i, LOAD(out, i) * 2);
        }
    }
}

/* Each work-item writes 2 * in[i]; after a barrier on global memory its neighbour in the
 * group (l + 1 mod L) halves it back, exactly, since the inputs are small integers. */
__kernel void copy_double_then_halve(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), i = get_global_id(0);
    size_t other = i - l + (l + CLC_LOCAL_X - 1) % CLC_LOCAL_X;
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (other < n)
        STORE(out, other, LOAD(out, other) * 0.5f);
}
