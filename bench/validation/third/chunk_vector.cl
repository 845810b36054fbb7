/* chunk_vector.cl - third validation set (family `chunk-vector`): copy or scale where each
 * work-item owns a contiguous chunk of CLC_ITEMS elements and walks it in vector steps, so
 * that the lanes of a warp are a chunk apart: 64-byte chunks in float4 steps, 128-byte chunks
 * in float2 steps, and 32-byte chunks in float4 steps taken from the chunk's end.  A chunk
 * cut by the end of the array is walked element by element.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 16
#endif

/* The elements first .. n - 1 of a chunk the array's end cuts, one at a time; f: 1 for a
 * copy, 2 for a scale.  A macro: LOAD and STORE record into the kernel's trace variables. */
#define CHUNK_TAIL(first, f)                                                                  \
    for (size_t i_ = (first); i_ < n && i_ < (first) + CLC_ITEMS; i_++)                       \
        STORE(out, i_, LOAD(in, i_) * (f))

/* 16 elements (64 bytes) a work-item, four float4 steps: lanes 64 bytes apart, a warp's
 * step touching every fourth float4 of 2 KiB. */
__kernel void copy_chunk64_float4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    if (first + CLC_ITEMS <= n) {
        for (uint k = 0; k < CLC_ITEMS / 4; k++)
            VSTORE(4, VLOAD(4, first / 4 + k, in), first / 4 + k, out);
    } else if (first < n) {
        CHUNK_TAIL(first, 1);
    }
}

/* 32 elements (128 bytes) a work-item, sixteen float2 steps: each lane its own line, the
 * warp's 32 lines revisited step after step. */
__kernel void scale_chunk128_float2(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    if (first + CLC_ITEMS <= n) {
        for (uint k = 0; k < CLC_ITEMS / 2; k++)
            VSTORE(2, VLOAD(2, first / 2 + k, in) * 2.0f, first / 2 + k, out);
    } else if (first < n) {
        CHUNK_TAIL(first, 2);
    }
}

/* 8 elements (32 bytes, a sector) a work-item, two float4 steps from the chunk's end back:
 * a warp's step touches every other float4 of 1 KiB. */
__kernel void copy_chunk32_float4_rev(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    if (first + CLC_ITEMS <= n) {
        for (uint k = CLC_ITEMS / 4; k-- > 0;)
            VSTORE(4, VLOAD(4, first / 4 + k, in), first / 4 + k, out);
    } else if (first < n) {
        CHUNK_TAIL(first, 1);
    }
}
