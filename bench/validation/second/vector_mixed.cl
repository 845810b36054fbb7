/* vector_mixed.cl - second validation set, 1-D kernels (family `vector-mixed`): copy or scale
 * through vectors of several widths, loads and stores not always of the same width: float16
 * per work-item, two float2 loads gathered into one float4 store, a float4 load stored as
 * four scalars from the last component to the first, and float3 (three elements per item)
 * walked by a grid-stride loop.  The elements a whole vector cannot take (n not a multiple of
 * its width) are done one by one by scalar code.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_Y 1
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif

/* Elements first .. n-1 times factor, one by one.  A macro, not a function: LOAD and STORE
 * record into the kernel's own trace variables. */
#define COPY_TAIL(first, factor)                                                            \
    for (size_t i_ = (first); i_ < n; i_++)                                                 \
        STORE(out, i_, LOAD(in, i_) * (factor))

/* One float16 (64 bytes, half a line) per work-item: a warp's load spans 16 lines. */
__kernel void copy_float16(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n16 = n / 16;
    if (q < n16)
        VSTORE(16, VLOAD(16, q, in), q, out);
    else if (q == n16)
        COPY_TAIL(16 * n16, 1);
}

/* Work-item q loads float2 2q and 2q + 1 (its 16 bytes as two 8-byte loads), doubles them and
 * stores them as one float4 q. */
__kernel void scale_ld2_st4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4;
    if (q < n4) {
        float2 a = VLOAD(2, 2 * q, in);
        float2 b = VLOAD(2, 2 * q + 1, in);
        float4 v;
        v.x = a.x * 2;
        v.y = a.y * 2;
        v.z = b.x * 2;
        v.w = b.y * 2;
        VSTORE(4, v, q, out);
    } else if (q == n4) {
        COPY_TAIL(4 * n4, 2);
    }
}

/* An aligned float4 per work-item, stored as four scalars from element 4q + 3 down to 4q:
 * each scalar store of the warp covers one float in four of 512 bytes. */
__kernel void copy_ld4_st_scalar_rev(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4;
    if (q < n4) {
        float4 v = VLOAD(4, q, in);
        STORE(out, 4 * q + 3, v.w);
        STORE(out, 4 * q + 2, v.z);
        STORE(out, 4 * q + 1, v.y);
        STORE(out, 4 * q, v.x);
    } else if (q == n4) {
        COPY_TAIL(4 * n4, 1);
    }
}

/* float3 (12 bytes, vload3 / vstore3) in a grid-stride loop over the n / 3 whole triples:
 * with --items-per-thread 6 each work-item does two triples a grid apart; work-item 0 does
 * the one or two elements past the last whole triple. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void copy_float3_gridstride(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), n3 = n / 3;
    for (size_t q = get_global_id(0); q < n3; q += g)
        VSTORE(3, VLOAD(3, q, in), q, out);
    if (get_global_id(0) == 0)
        COPY_TAIL(3 * n3, 1);
}
