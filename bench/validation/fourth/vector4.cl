/* vector4.cl - fourth validation set (family `multi-element-4`): several elements a
 * work-item: three neighbouring floats as three scalar accesses (lanes 12 bytes apart), two
 * neighbouring float4 (lanes 32 bytes apart, each request over half of its lines' sectors),
 * and a float4 from each of two streams half the array apart.  Launches in
 * kernels.tsv. */
#include "clc.h"

/* Elements 3 t, 3 t + 1, 3 t + 2 (CLC_ITEMS = 3), each its own access. */
__kernel void copy_three_scalars(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * 3;
    for (uint k = 0; k < 3; k++)
        if (first + k < n)
            STORE(out, first + k, LOAD(in, first + k));
}

/* float4 2 t and 2 t + 1 (CLC_ITEMS = 8), the tail of the array element by element. */
__kernel void scale_two_float4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), first = 8 * t;
    if (first + 8 <= n) {
        for (uint k = 0; k < 2; k++)
            VSTORE(4, VLOAD(4, 2 * t + k, in) * 2, 2 * t + k, out);
    } else {
        for (size_t i = first; i < n; i++)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

/* float4 t and float4 t + Q (Q = n / 8 float4: half the array) for t < Q (CLC_ITEMS = 8):
 * two coalesced streams; the fewer than 8 elements past 8 Q one by one. */
__kernel void copy_float4_two_streams(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), q = n / 8;
    if (t < q) {
        VSTORE(4, VLOAD(4, t, in), t, out);
        VSTORE(4, VLOAD(4, t + q, in), t + q, out);
    }
    if (8 * q + t < n)
        STORE(out, 8 * q + t, LOAD(in, 8 * q + t));
}
