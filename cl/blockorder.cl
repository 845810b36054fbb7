/* blockorder.cl - a copy, out[i] = in[i], by blocks: work-group g moves one block of
 * `block` consecutive elements, a group's width a step (every access coalesced), but the
 * block it takes is a permutation of g.  The DRAM sees the same bytes in every order; what
 * changes is where the blocks of the work-groups resident at once lie: side by side (linear,
 * reversed), or spread over the whole array (bit-reversed ids: neighbouring groups half the
 * array apart; an odd multiple of the id; a pseudo-random mix).  The permutations act on the
 * largest power of two of blocks; the blocks past it stay in place. */
#include "clc.h"

/* The largest power of two not above g (g >= 1). */
size_t blockorder_pow2(size_t g)
{
    size_t p = 1;
    while (p <= g / 2)
        p *= 2;
    return p;
}

/* The block group g of `groups` takes in order `order`: 0 linear, 1 reversed, 2 bit-reversed,
 * 3 97 g + 13 modulo P, 4 a pseudo-random bijection of [0, P) (multiply by an odd number,
 * fold the high half into the low, multiply again: each step invertible modulo P). */
size_t blockorder_block(size_t g, size_t groups, uint order)
{
    size_t p = blockorder_pow2(groups), b = 0;
    if (order == 1)
        return groups - 1 - g;
    if (order == 0 || g >= p)
        return g;
    if (order == 2) {
        for (size_t bit = 1, rev = p / 2; bit < p; bit *= 2, rev /= 2)
            if (g & bit)
                b |= rev;
        return b;
    }
    if (order == 3)
        return (97 * g + 13) & (p - 1);
    uint bits = 0;
    while (((size_t)1 << bits) < p)
        bits++;
    b = (g * 0x9E3779B1u) & (p - 1);
    b ^= b >> (bits / 2 + 1);
    return (b * 0x85EBCA6Bu) & (p - 1);
}

__kernel void block_copy(__global const T *in, __global T *out, ulong n, ulong block,
                         uint order CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t b = blockorder_block(get_group_id(0), get_num_groups(0), order);
    size_t l = get_local_id(0), step = get_local_size(0);
    for (size_t k = l; k < block; k += step) {
        size_t i = b * block + k;
        if (i < n)
            STORE(out, i, LOAD(in, i));
    }
}
