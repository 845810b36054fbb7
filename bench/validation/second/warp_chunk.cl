/* warp_chunk.cl - second validation set, 1-D kernels (family `warp-chunk`): copy, scale or
 * gather with the elements dealt out by warp (32 consecutive work-items) or by work-group
 * rather than by work-item: each warp owns a contiguous chunk and walks it 32 elements a
 * step, a work-group's chunk split into per-warp sub-chunks taken in reverse warp order with
 * each warp starting at a different step, a warp's chunk walked from its last step back to
 * its first, and chunks of uneven size (96 and 32 elements to the two warps of a pair).
 * Launches in kernels.tsv. */
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

/* Warp w (work-items 32 w .. 32 w + 31) owns the 32 * CLC_ITEMS elements from
 * 32 * CLC_ITEMS * w and walks them 32 a step: lane l takes base + 32 s + l, one 128-byte
 * line per step, a warp's lines consecutive and those of neighbouring warps CLC_ITEMS lines
 * apart. */
__kernel void copy_warp_chunk(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), lane = j % 32;
    size_t base = (j / 32) * 32 * CLC_ITEMS;
    for (uint s = 0; s < CLC_ITEMS; s++) {
        size_t i = base + 32 * s + lane;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
}

/* The work-group owns CLC_LOCAL_X * CLC_ITEMS elements, split into one sub-chunk of
 * 32 * CLC_ITEMS per warp; warp w takes sub-chunk W - 1 - w (W warps in the group) and walks
 * it a line (32 elements) a step, starting at step w mod CLC_ITEMS and wrapping round, so
 * the warps of a group start on different lines of their sub-chunks. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void scale_group_subchunk_rev(__global const T *in, __global T *out,
                                       ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), lane = l % 32, w = l / 32;
    size_t sub = CLC_LOCAL_X / 32 - 1 - w;
    size_t base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS + sub * 32 * CLC_ITEMS;
    for (uint s = 0; s < CLC_ITEMS; s++) {
        size_t i = base + 32 * ((s + w) % CLC_ITEMS) + lane;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

/* Per-warp chunks of 32 * CLC_ITEMS elements as in copy_warp_chunk, walked from the last
 * line back to the first; each step a coalesced line of indices, then 32 random gathers. */
__kernel void gather_warp_chunk_reverse(__global const T *in, __global const uint *idx,
                                        __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), lane = j % 32;
    size_t base = (j / 32) * 32 * CLC_ITEMS;
    for (uint s = CLC_ITEMS; s-- > 0;) {
        size_t i = base + 32 * s + lane;
        if (i < n)
            STORE(out, i, LOAD(in, LOAD(idx, i)));
    }
}

/* Uneven chunks: each pair of warps owns 128 elements; the even warp walks the first 96 (three
 * lines, a line a step), the odd warp the last 32 (one line) and then idles.  The pairs of the
 * grid repeat a grid's worth of pairs on (P = global / 64 pairs), so any launch covers n. */
__kernel void scale_warp_uneven96(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0), lane = j % 32, odd = (j / 32) % 2;
    size_t P = get_global_size(0) / 64;
    for (size_t p = j / 64; p < P && p * 128 < n; p += P) {
        if (odd) {
            size_t i = p * 128 + 96 + lane;
            if (i < n)
                STORE(out, i, LOAD(in, i) * 2);
        } else {
            for (uint s = 0; s < 3; s++) {
                size_t i = p * 128 + 32 * s + lane;
                if (i < n)
                    STORE(out, i, LOAD(in, i) * 2);
            }
        }
    }
}
