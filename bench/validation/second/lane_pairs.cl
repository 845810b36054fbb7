/* lane_pairs.cl - second validation set, 1-D kernels (family `lane-pairs`): copy or scale
 * where a work-item's lanes take more than one element as separate scalar accesses, or
 * where loads and stores cross a warp's elements at different strides: two consecutive
 * scalars per work-item, a warp's chunk loaded at a stride of CLC_ITEMS elements across the
 * lanes and stored coalesced (through __local memory), and the two half-warps each walking
 * their own half of the warp's chunk 16 elements a step.  Launches in kernels.tsv. */
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

/* Lane l takes elements 2l and 2l + 1 as two scalar loads, then two scalar stores: each
 * access of the warp covers every other float of 256 bytes (two lines), the second access
 * the floats the first skipped. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void copy_pair_scalar(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), i0 = 2 * j, i1 = 2 * j + 1;
    T a = 0, b = 0;
    if (i0 < n)
        a = LOAD(in, i0);
    if (i1 < n)
        b = LOAD(in, i1);
    if (i0 < n)
        STORE(out, i0, a);
    if (i1 < n)
        STORE(out, i1, b);
}

/* Each warp owns 32 * CLC_ITEMS consecutive elements.  Loads: in step k lane l loads element
 * CLC_ITEMS * l + k of the warp's chunk (a stride of CLC_ITEMS elements across the lanes:
 * 2 with --items-per-thread 2, the even elements then the odd ones), into __local memory;
 * after the barrier, stores: in step k lane l stores element 32 k + l (one line a step). */
__kernel void copy_ld_stride2_st_coal(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CLC_LOCAL_X * CLC_ITEMS];
    size_t l = get_local_id(0), lane = l % 32, wbase = (l / 32) * 32 * CLC_ITEMS;
    size_t base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = wbase + CLC_ITEMS * lane + k;
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = wbase + 32 * k + lane;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e));
    }
}

/* Each warp owns 32 * CLC_ITEMS consecutive elements, split in two halves; half-warp h
 * (lanes 16 h .. 16 h + 15) walks half h, 16 elements a step: each step of the warp touches
 * 64 bytes in each of two places 16 * CLC_ITEMS elements apart. */
__kernel void scale_halfwarp_split(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), lane = j % 32, h = lane / 16, hl = lane % 16;
    size_t base = (j / 32) * 32 * CLC_ITEMS + h * 16 * CLC_ITEMS;
    for (uint s = 0; s < CLC_ITEMS; s++) {
        size_t i = base + 16 * s + hl;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}
