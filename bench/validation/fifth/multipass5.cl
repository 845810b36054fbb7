/* multipass5.cl - fifth validation set (family `multipass-5`): copy or scale in more than
 * one pass over out in one launch: a chunk copied in scalar steps, then doubled as a float4
 * read back by the same work-item; a block written zero, then overwritten with in by the
 * group's warps in reversed order after a barrier; and three passes over float2 (out = 2 in,
 * out += in, out -= 2 in: exact on the inputs' small integers).  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* Elements 4 t .. 4 t + 3 (CLC_ITEMS = 4) copied as four scalar steps (lanes 16 bytes
 * apart), then read back as float4 t, doubled and stored as a float4; the tail of the array
 * element by element, in the same two passes. */
__kernel void scale_copy4_double_float4(__global const T *in, __global T *out,
                                        ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), first = 4 * t;
    if (first + 4 <= n) {
        for (uint k = 0; k < 4; k++)
            STORE(out, first + k, LOAD(in, first + k));
        VSTORE(4, VLOAD(4, t, out) * 2, t, out);
    } else {
        for (size_t i = first; i < n; i++)
            STORE(out, i, LOAD(in, i));
        for (size_t i = first; i < n; i++)
            STORE(out, i, LOAD(out, i) * 2);
    }
}

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements written zero at e = l + 256 k; after the barrier warp w (of 8)
 * copies in into the 32 elements warp 7 - w zeroed, 32 (7 - w) + lane + 256 k: every line
 * written twice, by two warps. */
__kernel void copy_zero_rev_warps(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++)
        if (base + l + 256 * k < n)
            STORE(out, base + l + 256 * k, 0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    size_t m = 32 * (7 - l / 32) + l % 32;
    for (uint k = 0; k < 4; k++)
        if (base + m + 256 * k < n)
            STORE(out, base + m + 256 * k, LOAD(in, base + m + 256 * k));
}
#endif

/* float2 t (CLC_ITEMS = 2): out = 2 in, then out = out + in, then out = out - 2 in, each a
 * float2 load of out and of in and a float2 store: out read twice and written three times;
 * the odd element of an odd n by work-item 0 in the same passes. */
__kernel void copy_float2_three_passes(__global const T *in, __global T *out,
                                       ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0);
    if (t < n / 2) {
        VSTORE(2, VLOAD(2, t, in) * 2, t, out);
        VSTORE(2, VLOAD(2, t, out) + VLOAD(2, t, in), t, out);
        VSTORE(2, VLOAD(2, t, out) - VLOAD(2, t, in) * 2, t, out);
    }
    if (t == 0 && n % 2 == 1) {
        STORE(out, n - 1, LOAD(in, n - 1) * 2);
        STORE(out, n - 1, LOAD(out, n - 1) + LOAD(in, n - 1));
        STORE(out, n - 1, LOAD(out, n - 1) - LOAD(in, n - 1) * 2);
    }
}
