/* copy_bytes_in_flight.cl - lab 4: out[i] = in[i] with more bytes in flight per work-item.
 * --pattern copy --items-per-thread K gives about n / K work-items; K should be a multiple
 * of 4 for the float4 kernels.
 *
 * copy_float4_k: each work-item moves K / 4 float4s, the work-group's float4s interleaved
 *   (float4 j of work-item l is at group base + j * local + l), so each request is
 *   coalesced and all K / 4 loads can be issued before the first store.
 * copy_gridstride4: a grid-stride loop over float4s, whatever K the grid was sized for. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#define V (CLC_ITEMS >= 4 ? CLC_ITEMS / 4 : 1) /* float4s per work-item */

typedef __global const float4 *in4_t;
typedef __global float4 *out4_t;

/* The n % 4 floats past the last whole float4, one by one (the first work-item does them). */
#define TAIL(in, out, n)                                                                    \
    if (get_global_id(0) == 0)                                                              \
        for (size_t t = (n) / 4 * 4; t < (n); t++)                                          \
            STORE(out, t, LOAD(in, t));

__kernel void copy_float4_k(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t n4 = n / 4;
    size_t base = get_group_id(0) * (size_t)CLC_LOCAL_X * V + get_local_id(0);
    float4 v[V];
    for (uint j = 0; j < V; j++) {
        size_t i = base + (size_t)j * CLC_LOCAL_X;
        if (i < n4)
            v[j] = LOAD((in4_t)in, i);
    }
    for (uint j = 0; j < V; j++) {
        size_t i = base + (size_t)j * CLC_LOCAL_X;
        if (i < n4)
            STORE((out4_t)out, i, v[j]);
    }
    TAIL(in, out, n)
}

__kernel void copy_gridstride4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t n4 = n / 4;
    for (size_t i = get_global_id(0); i < n4; i += get_global_size(0))
        STORE((out4_t)out, i, LOAD((in4_t)in, i));
    TAIL(in, out, n)
}
