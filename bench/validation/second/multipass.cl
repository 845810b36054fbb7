/* multipass.cl - second validation set, 1-D kernels (family `multipass`): copy or scale done
 * in two or three passes over the same data in one launch, only the final values checked:
 * a group's chunk copied a group's width at a time and then doubled in place by chunks of
 * consecutive elements per work-item (other work-items' writes, after a barrier); out
 * written four times in, halved by a work-item of another warp and halved again by its
 * writer (three passes, two barriers); and the first half then the second half copied, then
 * in read a second time and added to both.  Launches in kernels.tsv. */
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

/* Pass 1: the group's chunk of CLC_LOCAL_X * CLC_ITEMS copied a group's width a step (lane l
 * takes base + l + k L); barrier on global memory; pass 2: out doubled in place, work-item l
 * reading back and rewriting elements l CLC_ITEMS .. l CLC_ITEMS + CLC_ITEMS - 1 (the lanes
 * CLC_ITEMS floats apart), mostly written by other work-items. */
__kernel void scale_copy_then_double_chunked(__global const T *in, __global T *out,
                                             ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + l + k * CLC_LOCAL_X;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + l * CLC_ITEMS + k;
        if (i < n)
            STORE(out, i, LOAD(out, i) * 2);
    }
}

/* Three passes, one element per work-item: out[i] = 4 in[i]; barrier; work-item l halves
 * the element of work-item (l + 32) mod L of its group (the next warp's); barrier; each
 * work-item halves its own element again.  Exact: the inputs are small integers. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void copy_x4_halve_twice(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), i = get_global_id(0);
    size_t p = i - l + (l + 32) % CLC_LOCAL_X;
    if (i < n)
        STORE(out, i, LOAD(in, i) * 4);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (p < n)
        STORE(out, p, LOAD(out, p) * 0.5f);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i < n)
        STORE(out, i, LOAD(out, i) * 0.5f);
}

/* Work-item j owns i = j and i = j + h, h = ceil(n / 2).  Pass 1: out[j] = in[j] (first
 * half); pass 2: out[j + h] = in[j + h] (second half); pass 3: both read back and in read a
 * second time, out = out + in. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void scale_halves_add_in(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), h = (n + 1) / 2;
    if (j < h)
        STORE(out, j, LOAD(in, j));
    if (j < h && j + h < n)
        STORE(out, j + h, LOAD(in, j + h));
    if (j < h) {
        STORE(out, j, LOAD(out, j) + LOAD(in, j));
        if (j + h < n)
            STORE(out, j + h, LOAD(out, j + h) + LOAD(in, j + h));
    }
}
