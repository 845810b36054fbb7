/* multipass3.cl - third validation set (family `multipass-3`): copy or scale that pass over
 * the same data more than once in one launch, or take two far-apart elements a work-item: a
 * group's block copied, then doubled in place one warp further on after a barrier on global
 * memory; element i and element n - 1 - i copied by one work-item; and a block copied, then
 * in added to it again by the neighbouring work-item after a barrier.  Only the final
 * values are checked.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* The first pass: the group's block of CLC_ITEMS * CLC_LOCAL_X elements from base copied a
 * group's width a step, then a barrier on global memory, so that the second pass reads what
 * other work-items of the group wrote.  A macro: LOAD and STORE record into the kernel's
 * trace variables. */
#define COPY_BLOCK_THEN_BARRIER(base, l)                                                      \
    for (uint k_ = 0; k_ < CLC_ITEMS; k_++) {                                                 \
        size_t i_ = (base) + (l) + k_ * CLC_LOCAL_X;                                          \
        if (i_ < n)                                                                           \
            STORE(out, i_, LOAD(in, i_));                                                     \
    }                                                                                         \
    barrier(CLK_GLOBAL_MEM_FENCE)

/* A group's block of CLC_ITEMS * L copied a group's width a step; after a barrier on global
 * memory, each work-item doubles the element 32 places after its own (wrapping round the
 * block): elements another warp wrote. */
__kernel void scale_pass_rotate_warp(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), chunk = CLC_LOCAL_X * CLC_ITEMS;
    size_t base = get_group_id(0) * chunk;
    COPY_BLOCK_THEN_BARRIER(base, l);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (l + k * CLC_LOCAL_X + 32) % chunk;
        if (i < n)
            STORE(out, i, LOAD(out, i) * 2);
    }
}

/* Work-item i (i < ceil(n / 2)) copies element i and element n - 1 - i: a warp's second
 * access walks down from the array's end. */
__kernel void copy_both_ends(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (2 * i + 1 < n) {
        STORE(out, i, LOAD(in, i));
        STORE(out, n - 1 - i, LOAD(in, n - 1 - i));
    } else if (2 * i + 1 == n) {
        STORE(out, i, LOAD(in, i));
    }
}

/* A group's block copied a group's width a step; after a barrier on global memory, each
 * work-item adds in to the element its neighbour (l xor 1) copied: in read twice, out read
 * back and written again. */
__kernel void scale_copy_add_neighbour(__global const T *in, __global T *out,
                                       ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), chunk = CLC_LOCAL_X * CLC_ITEMS;
    size_t base = get_group_id(0) * chunk;
    COPY_BLOCK_THEN_BARRIER(base, l);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (l ^ 1) + k * CLC_LOCAL_X;
        if (i < n)
            STORE(out, i, LOAD(out, i) + LOAD(in, i));
    }
}
