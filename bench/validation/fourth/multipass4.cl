/* multipass4.cl - fourth validation set (family `multipass-4`): copy or scale in more than
 * one pass over out in one launch: a block copied, then doubled by the warp one on after a
 * barrier; in added and taken away again by the same work-item; a block copied, then each
 * half doubled by the work-items of the other after a barrier.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements copied at e = l + 256 k; after the barrier work-item l doubles
 * element (l + 32) mod 256 + 256 k: each written by the next warp. */
__kernel void scale_copy_double_next_warp(__global const T *in, __global T *out,
                                          ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++)
        if (base + l + 256 * k < n)
            STORE(out, base + l + 256 * k, LOAD(in, base + l + 256 * k));
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = base + (l + 32) % 256 + 256 * k;
        if (e < n)
            STORE(out, e, LOAD(out, e) * 2);
    }
}
#endif

/* Elements t and t + G (G work-items; CLC_ITEMS = 2): out = in, then out += in, then
 * out -= in (2 x - x is x exactly): out read twice and written three times. */
__kernel void copy_add_sub_passes(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t i = get_global_id(0); i < n; i += g) {
        STORE(out, i, LOAD(in, i));
        STORE(out, i, LOAD(out, i) + LOAD(in, i));
        STORE(out, i, LOAD(out, i) - LOAD(in, i));
    }
}

#if CLC_LOCAL_X == 128 && CLC_ITEMS == 4
/* A group's 512 elements copied at e = l + 128 k; after the barrier work-item l doubles
 * element e ^ 256: the other half's. */
__kernel void scale_halves_swap(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    for (uint k = 0; k < 4; k++)
        if (base + l + 128 * k < n)
            STORE(out, base + l + 128 * k, LOAD(in, base + l + 128 * k));
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = base + ((l + 128 * k) ^ 256);
        if (e < n)
            STORE(out, e, LOAD(out, e) * 2);
    }
}
#endif
