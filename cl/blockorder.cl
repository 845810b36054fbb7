/* blockorder.cl - a copy, out[i] = in[i], by blocks: work-group g moves one block of
 * `block` consecutive elements, a group's width a step (every access coalesced), but the
 * block it takes is a permutation of g.  The DRAM sees the same bytes in every order; what
 * changes is where the blocks of the work-groups resident at once lie: side by side (linear,
 * reversed), or spread over the whole array (bit-reversed ids: neighbouring groups half the
 * array apart; an odd multiple of the id; a pseudo-random mix).  The permutations act on the
 * largest power of two of blocks; the blocks past it stay in place. */
#include "clc.h"

/* The bits of x (below 2^bits, bits 1..64) reversed: pairs, nibbles ... words swapped, then
 * shifted down.  A handful of operations, as the work-group's other index arithmetic: the
 * rows of one element a work-item must time the DRAM, not the index. */
ulong blockorder_reverse(ulong x, uint bits)
{
    x = (x >> 1 & 0x5555555555555555UL) | (x & 0x5555555555555555UL) << 1;
    x = (x >> 2 & 0x3333333333333333UL) | (x & 0x3333333333333333UL) << 2;
    x = (x >> 4 & 0x0F0F0F0F0F0F0F0FUL) | (x & 0x0F0F0F0F0F0F0F0FUL) << 4;
    x = (x >> 8 & 0x00FF00FF00FF00FFUL) | (x & 0x00FF00FF00FF00FFUL) << 8;
    x = (x >> 16 & 0x0000FFFF0000FFFFUL) | (x & 0x0000FFFF0000FFFFUL) << 16;
    x = x >> 32 | x << 32;
    return x >> (64 - bits);
}

/* The block work-group g of `groups` takes in order `order`: 0 linear, 1 reversed, and, over
 * the first 2^bits groups (the host's largest power of two not above `groups`), 2
 * bit-reversed, 3 97 g + 13 modulo 2^bits, 4 a pseudo-random bijection (multiply by an odd
 * number, fold the high half into the low, multiply again: each step invertible modulo
 * 2^bits). */
size_t blockorder_block(size_t g, size_t groups, uint order, uint bits)
{
    ulong mask = bits > 0 ? ((ulong)1 << bits) - 1 : 0;
    if (order == 1)
        return groups - 1 - g;
    if (order == 0 || bits == 0 || g > mask)
        return g;
    if (order == 2)
        return blockorder_reverse(g, bits);
    if (order == 3)
        return (97 * g + 13) & mask;
    ulong b = (g * 0x9E3779B1UL) & mask;
    b ^= b >> (bits / 2 + 1);
    return (b * 0x85EBCA6BUL) & mask;
}

__kernel void block_copy(__global const T *in, __global T *out, ulong n, ulong block,
                         uint order, uint bits CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t b = blockorder_block(get_group_id(0), get_num_groups(0), order, bits);
    size_t l = get_local_id(0), step = get_local_size(0);
    for (size_t k = l; k < block; k += step) {
        size_t i = b * block + k;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
}
