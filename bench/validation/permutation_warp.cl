/* permutation_warp.cl - validation kernels (family `permutation-warp`): copy or scale where
 * work-item j handles element p(j), p a permutation of the lanes inside each aligned block
 * of 32 elements (a warp's worth): rotated, reversed, XOR-swizzled, a 4 x 8 transpose of the
 * lanes.  The last block, when n is not a multiple of 32, is handled in order, so p stays a
 * permutation of 0 .. n-1 and every element is written once. */
#include "clc.h"

/* Element j of the aligned block of 32 moved to lane `lane` of the same block, or j itself
 * when the block reaches past n. */
size_t in_block(size_t j, ulong n, uint lane)
{
    size_t base = j & ~(size_t)31;
    return base + 32 <= n ? base + (lane & 31) : j;
}

__kernel void copy_lane_rotate5(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    size_t i = in_block(j, n, (uint)j + 5);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

__kernel void copy_lane_reverse(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    size_t i = in_block(j, n, 31 - ((uint)j & 31));
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

/* Neighbouring lanes swap: 1, 0, 3, 2, ... */
__kernel void copy_lane_xor1(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    size_t i = in_block(j, n, (uint)j ^ 1);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

/* Lanes XOR 17: the two halves of the warp swap, each half shuffled by one. */
__kernel void scale_lane_xor17(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    size_t i = in_block(j, n, (uint)j ^ 17);
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}

/* The XOR mask is the block's number: each warp swizzles its lanes differently. */
__kernel void copy_lane_xor_block(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    size_t i = in_block(j, n, (uint)j ^ (uint)(j >> 5));
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

/* Lane l takes element (l % 4) * 8 + l / 4: the lanes read as a 4 x 8 matrix, transposed. */
__kernel void scale_lane_transpose4x8(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    uint l = (uint)j & 31;
    size_t i = in_block(j, n, (l & 3) * 8 + (l >> 2));
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}
