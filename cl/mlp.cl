/* mlp.cl - memory-level parallelism: a copy (out = in) where each work-item moves K float4
 * (16 K bytes), or loops over float4 across a fixed grid.  A large GPU needs many bytes in
 * flight to cover DRAM latency; one float per work-item does not get there, more bytes
 * per work-item do.
 *
 * The host builds `unrolled` with -DK=<float4 per work-item>.  When n is not a multiple
 * of 4, the grid's last work-item copies the 1-3 leftover floats one by one. */
#include "clc.h"

#ifndef K
#define K 1
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
typedef CAT(T, 4) T4;

/* Work-group g covers float4s [g L K, (g + 1) L K) for L work-items: at step j its
 * work-items read L consecutive float4s, so every load is coalesced.  All K loads are
 * issued before the first store (the store could alias the input, so the compiler would
 * not hoist the loads itself): K independent requests in flight per work-item.
 * `k` repeats the K the kernel was built with, so the host can report it; a launch that
 * disagrees writes nothing and fails verification. */
__kernel void unrolled(__global const T *in, __global T *out, ulong n, uint k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    if (k != K)
        return;
    __global const T4 *in4 = (__global const T4 *)in;
    __global T4 *out4 = (__global T4 *)out;
    size_t nv = n / 4, l = get_local_size(0);
    size_t first = get_group_id(0) * l * K + get_local_id(0);
    T4 v[K];
#pragma unroll
    for (int j = 0; j < K; j++)
        if (first + j * l < nv)
            v[j] = LOAD(in4, first + j * l);
#pragma unroll
    for (int j = 0; j < K; j++)
        if (first + j * l < nv)
            STORE(out4, first + j * l, v[j]);
    if (get_global_id(0) == get_global_size(0) - 1)
        for (size_t e = nv * 4; e < n; e++)
            STORE(out, e, LOAD(in, e));
}

/* One float4 per step over a grid of `groups` work-groups: the grid stays resident and
 * each work-item walks the array in steps of the grid's width. */
__kernel void gridstride_float4(__global const T *in, __global T *out, ulong n,
                                uint groups CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global const T4 *in4 = (__global const T4 *)in;
    __global T4 *out4 = (__global T4 *)out;
    size_t nv = n / 4, stride = (size_t)groups * get_local_size(0);
    for (size_t i = get_global_id(0); i < nv; i += stride)
        STORE(out4, i, LOAD(in4, i));
    if (get_global_id(0) == get_global_size(0) - 1)
        for (size_t e = nv * 4; e < n; e++)
            STORE(out, e, LOAD(in, e));
}
