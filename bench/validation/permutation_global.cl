/* permutation_global.cl - validation kernels (family `permutation-global`): copy or scale
 * where work-item j handles element p(j), p a permutation over more than a warp: the whole
 * array reversed, each work-group's block reversed, the blocks in reverse order, and
 * i * k mod m for odd k, m a block of 1024 or the largest power of two not above n.  Where
 * a block would reach past n the elements are handled in order, so p stays a permutation of
 * 0 .. n-1. */
#include "clc.h"

/* Work-item j takes element ((j mod 1024) * k) mod 1024 of its block of 1024, k odd. */
size_t mulmod_block(size_t j, ulong n, uint k)
{
    size_t base = j & ~(size_t)1023;
    return base + 1024 <= n ? base + (((j & 1023) * k) & 1023) : j;
}

/* Work-item j < m takes element (j * k) mod m, m the largest power of two <= n, k odd. */
size_t mulmod_pow2(size_t j, ulong n, uint k)
{
    size_t m = (size_t)1 << (63 - clz(n));
    return j < m ? (j * k) & (m - 1) : j;
}

__kernel void copy_reverse(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    if (j < n)
        STORE(out, n - 1 - j, LOAD(in, n - 1 - j));
}

/* Within each whole work-group's block the order is reversed; a partial last block runs in
 * order. */
__kernel void scale_reverse_group(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t L = get_local_size(0), base = get_group_id(0) * L, l = get_local_id(0);
    size_t i = base + L <= n ? base + L - 1 - l : base + l;
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}

/* Blocks of a work-group's size taken in reverse order, each in order inside; the partial
 * block at the end of the array stays where it is. */
__kernel void copy_blocks_reversed(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t L = get_local_size(0), whole = n / L, g = get_group_id(0);
    size_t i = g < whole ? (whole - 1 - g) * L + get_local_id(0) : get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

__kernel void copy_mulmod3_block(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = mulmod_block(get_global_id(0), n, 3);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

__kernel void scale_mulmod33_block(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = mulmod_block(get_global_id(0), n, 33);
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}

/* k = 1023 = -1 mod 1024: the block read backwards from its second element. */
__kernel void copy_mulmod1023_block(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = mulmod_block(get_global_id(0), n, 1023);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

__kernel void copy_mulmod129_pow2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = mulmod_pow2(get_global_id(0), n, 129);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

__kernel void scale_mulmod5_pow2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = mulmod_pow2(get_global_id(0), n, 5);
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}
