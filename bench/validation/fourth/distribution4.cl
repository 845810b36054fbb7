/* distribution4.cl - fourth validation set (family `distribution-4`): copy or scale where the
 * elements are dealt to work-items in other ways: pairs of neighbours dealt block-cyclically
 * over the grid, a work-group's block walked three elements apart (modulo the block), and a
 * grid-stride loop taking an element of each half of the array a pass.  Launches in
 * kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* Work-item t takes elements 2 t and 2 t + 1 of each run of 2 G (G work-items): two scalar
 * accesses a step, lanes 8 bytes apart; CLC_ITEMS / 2 runs. */
__kernel void copy_blockcyclic2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), g = get_global_size(0);
    for (size_t i = 2 * t; i < n; i += 2 * g) {
        STORE(out, i, LOAD(in, i));
        if (i + 1 < n)
            STORE(out, i + 1, LOAD(in, i + 1));
    }
}

/* A work-group's block of B = CLC_LOCAL_X * CLC_ITEMS elements; at step k work-item l takes
 * element 3 (l + k CLC_LOCAL_X) mod B of it (B a power of two: 3 is invertible mod B, so
 * every element once): lanes 12 bytes apart, a request over three lines.  A block cut by
 * the array's end is taken in order. */
__kernel void scale_group_stride3(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), b = (size_t)CLC_LOCAL_X * CLC_ITEMS;
    size_t base = get_group_id(0) * b;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        size_t i = base + (base + b <= n ? (3 * e) % b : e);
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

/* A grid-stride loop over the first half of the array, each pass also taking the element
 * half the array on (the odd element of an odd n by work-item 0): two coalesced streams. */
__kernel void copy_gridstride_halves(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t h = n / 2, g = get_global_size(0);
    for (size_t i = get_global_id(0); i < h; i += g) {
        STORE(out, i, LOAD(in, i));
        STORE(out, i + h, LOAD(in, i + h));
    }
    if (get_global_id(0) == 0 && n % 2 == 1)
        STORE(out, n - 1, LOAD(in, n - 1));
}
