/* vector_offset.cl - third validation set (family `vector-offset`): copy or scale in vectors
 * placed other than one aligned vector a work-item in order: float4 starting 2 elements
 * (8 bytes) off a 16-byte boundary, float2 pairs swapped between neighbouring work-items,
 * and float4 with the two half-warps' vectors swapped.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* float4 from element 2 on: each vector 8 bytes off a 16-byte boundary.  Work-item 0 also
 * copies elements 0 and 1, the last vector's work-item the tail. */
__kernel void copy_float4_offset2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n >= 2 ? (n - 2) / 4 : 0;
    if (q == 0)
        for (size_t i = 0; i < 2 && i < n; i++)
            STORE(out, i, LOAD(in, i));
    if (q < n4)
        VSTORE(4, VLOAD(4, q, in + 2), q, out + 2);
    else if (q == n4)
        for (size_t i = 2 + 4 * n4; i < n; i++)
            STORE(out, i, LOAD(in, i));
}

/* Work-item q takes float2 number q xor 1 (pairs of neighbours swapped); the last pair when
 * the count of float2 is odd, and an odd tail element, in place. */
__kernel void scale_float2_swapped(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n2 = n / 2, p = q ^ 1;
    if (p >= n2)
        p = q;
    if (q < n2)
        VSTORE(2, VLOAD(2, p, in) * 2.0f, p, out);
    else if (q == n2 && 2 * n2 < n)
        STORE(out, n - 1, LOAD(in, n - 1) * 2);
}

/* float4 number q xor 16: lanes 0-15 of a warp take the vectors of lanes 16-31 and back
 * (one request still covers the warp's 512 bytes); a tail of fewer than 16 vectors and the
 * elements past the last whole vector in place. */
__kernel void copy_float4_halves_swapped(__global const T *in, __global T *out,
                                         ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4, p = q ^ 16;
    if (p >= n4)
        p = q;
    if (q < n4)
        VSTORE(4, VLOAD(4, p, in), p, out);
    else if (q == n4)
        for (size_t i = 4 * n4; i < n; i++)
            STORE(out, i, LOAD(in, i));
}
