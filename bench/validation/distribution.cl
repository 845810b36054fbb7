/* distribution.cl - validation kernels (family `distribution`): the same copy or scale,
 * out[i] = in[i] or 2 * in[i], with the elements dealt out to work-items in ways other than
 * one element per work-item: blocks dealt round-robin, a contiguous chunk per work-item
 * walked by a loop, a work-group's chunk walked in steps of the group, and grid-stride loops
 * whose stride is odd (not the launch's global size).  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif

/* Blocks of 4 consecutive elements dealt round-robin: work-item j takes blocks j, j + G,
 * j + 2G ... (G work-items), so a warp's step touches 32 blocks of 16 bytes. */
__kernel void copy_blockcyclic4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), nb = (n + 3) / 4;
    for (size_t b = get_global_id(0); b < nb; b += g)
        for (uint k = 0; k < 4; k++) {
            size_t i = 4 * b + k;
            if (i < n)
                STORE(out, i, LOAD(in, i));
        }
}

/* Blocks of 32 elements dealt round-robin, each walked element by element by its work-item:
 * a warp's step spans 32 blocks of 128 bytes. */
__kernel void scale_blockcyclic32(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0), nb = (n + 31) / 32;
    for (size_t b = get_global_id(0); b < nb; b += g)
        for (uint k = 0; k < 32; k++) {
            size_t i = 32 * b + k;
            if (i < n)
                STORE(out, i, LOAD(in, i) * 2);
        }
}

/* A contiguous chunk of CLC_ITEMS elements per work-item, walked from its end back to its
 * start. */
__kernel void copy_chunk_backward(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    for (uint k = CLC_ITEMS; k-- > 0;) {
        size_t i = first + k;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
}

/* Each work-group owns CLC_ITEMS * local consecutive elements and walks them a group's width
 * at a time: work-item l takes base + l, base + l + L, ... */
__kernel void scale_group_chunk(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), L = get_local_size(0);
    size_t base = get_group_id(0) * L * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + l + k * L;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

/* A grid-stride loop whose stride is the global size minus one (odd): the last work-item
 * idles, and the work-item handling element i changes from pass to pass. */
__kernel void copy_gridstride_odd1(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t s = get_global_size(0) - 1;
    for (size_t i = get_global_id(0); get_global_id(0) < s && i < n; i += s)
        STORE(out, i, LOAD(in, i));
}

/* The same with a stride of the global size minus 33: a warp's loads straddle two
 * 128-byte lines from the second pass on. */
__kernel void scale_gridstride_odd33(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t s = get_global_size(0) - 33;
    for (size_t i = get_global_id(0); get_global_id(0) < s && i < n; i += s)
        STORE(out, i, LOAD(in, i) * 2);
}

/* Half the grid plus one work-item does all the work, with that odd stride; the other half
 * idles. */
__kernel void copy_gridstride_half(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t s = get_global_size(0) / 2 + 1;
    for (size_t i = get_global_id(0); get_global_id(0) < s && i < n; i += s)
        STORE(out, i, LOAD(in, i));
}
