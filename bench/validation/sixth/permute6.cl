/* permute6.cl - sixth validation set (family `permutation-6`): copy or scale where work-item
 * t moves an element that a permutation of its index picks: the Gray code of t over the
 * largest power of two not above n, each work-group's block rotated by 40 elements (a line
 * and a quarter), and an FFT butterfly's partner t ^ s with the stride s doubling every 4096
 * elements from 1 to 2048.  Every element is moved once for any n.  Launches in
 * kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif

/* Work-item t < P (P the largest power of two not above n) moves element t ^ (t >> 1), its
 * Gray code: warp w takes line w ^ (w >> 1) (neighbouring warps on lines a power of two
 * apart), its lanes in the order 0, 1, 3, 2, 6, 7, 5, 4 ... (the halves of the line swapped
 * in odd warps): each request one whole line.  Work-items from P on move their own
 * element. */
__kernel void copy_gray_order(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), p = (size_t)1 << (63 - clz(n));
    size_t j = t < p ? t ^ (t >> 1) : t;
    if (t < n)
        STORE(out, j, LOAD(in, j));
}

/* Each whole work-group's block of L elements rotated by 40: work-item l moves element
 * (l + 40) mod L of it, each warp's request over 24 elements of one line and 8 of the next,
 * the third warp's (under L = 128) over the block's last 24 and its first 8; a block cut by
 * the array's end in order. */
__kernel void scale_group_rotate40(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X;
    size_t j = base + (base + CLC_LOCAL_X <= n ? (l + 40) % CLC_LOCAL_X : l);
    if (j < n)
        STORE(out, j, LOAD(in, j) * 2);
}

/* An FFT butterfly's partner: in block b of 4096 elements (16 KiB) work-item t moves element
 * t ^ s, s = 2^(b mod 12): the neighbour in block 0, 2048 elements (8 KiB) away in block 11,
 * then round again; below 32 a shuffle inside the warp's own line, from 32 up a whole line
 * of another warp's, from 256 up of another work-group's.  A partner past the array's end:
 * the element itself. */
__kernel void copy_butterfly_stride(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0);
    size_t j = t ^ ((size_t)1 << ((t >> 12) % 12));
    if (j >= n)
        j = t;
    if (t < n)
        STORE(out, j, LOAD(in, j));
}
