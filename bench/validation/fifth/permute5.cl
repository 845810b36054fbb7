/* permute5.cl - fifth validation set (family `permutation-5`): copy or scale where work-item
 * t moves an element that an XOR of its index picks: neighbouring pairs swapped (t ^ 1),
 * 128-byte runs swapped between neighbouring warps (t ^ 32), and each run of 32 elements
 * reversed (t ^ 31) in a grid-stride loop.  Where the partner lies past the array's end the
 * work-item moves its own element, so every element is moved once.  Launches in
 * kernels.tsv. */
#include "clc.h"

/* Element t ^ 1: each lane's neighbour, a warp's request over the warp's own 128 bytes; the
 * last element of an odd n stays with its own work-item. */
__kernel void scale_pair_swap(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0);
    size_t j = (t ^ 1) < n ? t ^ 1 : t;
    if (t < n)
        STORE(out, j, LOAD(in, j) * 2);
}

/* Element t ^ 32: warp 2 w moves the 128 bytes of warp 2 w + 1 and warp 2 w + 1 those of
 * warp 2 w, each request one whole line; a partner past the end: the element itself. */
__kernel void copy_warp_swap(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0);
    size_t j = (t ^ 32) < n ? t ^ 32 : t;
    if (t < n)
        STORE(out, j, LOAD(in, j));
}

/* A grid-stride loop (G work-items, CLC_ITEMS = 4: four passes) where pass element i moves
 * i ^ 31: each warp's 128-byte run taken from its last element to its first; a run cut by
 * the array's end in order. */
__kernel void scale_run_reverse_grid(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t i = get_global_id(0); i < n; i += g) {
        size_t j = (i | 31) < n ? i ^ 31 : i;
        STORE(out, j, LOAD(in, j) * 2);
    }
}
