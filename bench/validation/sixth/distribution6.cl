/* distribution6.cl - sixth validation set (family `distribution-6`): copy or scale where the
 * elements are dealt out in other ways: chunks of 64 elements (two lines) dealt round-robin
 * to the warps of the grid, blocks of 96 elements (three lines) dealt round-robin to
 * work-groups of 64 whose first warp takes two lines of each and the second one, and rows of
 * 1, 2, 3, 4, 1, 2 ... elements (a sparse matrix's short rows) a row a work-item.  Every
 * loop runs until the array is covered, whatever the grid.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif

#if CLC_LOCAL_X % 32 == 0
/* Chunks of 64 elements dealt to the warps of the grid: warp w of W takes chunks w, w + W,
 * w + 2 W ... (CLC_ITEMS = 8: four chunks a warp), lane l moving elements l and l + 32 of
 * each: two whole lines a step, a warp's steps W * 256 bytes apart. */
__kernel void copy_warp_cyclic64(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), lane = t % 32, nw = get_global_size(0) / 32;
    for (size_t c = t / 32; 64 * c < n; c += nw) {
        size_t i = 64 * c + lane;
        if (i < n)
            STORE(out, i, LOAD(in, i));
        if (i + 32 < n)
            STORE(out, i + 32, LOAD(in, i + 32));
    }
}
#endif

/* Blocks of B = 3 L / 2 elements (96 under L = 64 work-items) dealt to the work-groups: group
 * g of G takes blocks g, g + G ... (CLC_ITEMS = 3: about two blocks a group); work-item l
 * moves element l of each, and the first L / 2 also element l + L: the first warp two lines
 * of a block (its first and third), the second one line, then idle. */
__kernel void scale_group_cyclic96(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), ng = get_num_groups(0);
    size_t b = CLC_LOCAL_X + CLC_LOCAL_X / 2;
    for (size_t blk = get_group_id(0); b * blk < n; blk += ng) {
        size_t i = b * blk + l;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
        if (l < CLC_LOCAL_X / 2 && i + CLC_LOCAL_X < n)
            STORE(out, i + CLC_LOCAL_X, LOAD(in, i + CLC_LOCAL_X) * 2);
    }
}

/* The array as rows of 1, 2, 3, 4, 1, 2, 3, 4 ... elements (ten every four rows); row r,
 * starting at 10 (r / 4) + 0, 1, 3 or 6, copied element by element by work-item r (a
 * grid-stride loop over the rows; CLC_ITEMS = 2): a warp's first step over 80 elements
 * (lanes 4 to 16 bytes apart), its second by three lanes in four, its fourth by one in
 * four. */
__kernel void copy_ragged_rows(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t r = get_global_id(0);; r += g) {
        size_t q = r % 4, start = 10 * (r / 4) + q * (q + 1) / 2;
        if (start >= n)
            break;
        for (size_t k = 0; k <= q && start + k < n; k++)
            STORE(out, start + k, LOAD(in, start + k));
    }
}
