/* group_order.cl - third validation set (family `group-order`): copy or scale where each
 * work-group moves one block of CLC_LOCAL_X * CLC_ITEMS consecutive elements, a group's width
 * a step (coalesced), but the block a group takes is a permutation of its group id: the
 * bits of the id reversed, the ids dealt out 8 ways, and an odd multiple of the id modulo a
 * power of two.  The permutations act on the largest power of two (or multiple of 8) of
 * groups; the groups past it take their own block.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* The largest power of two not above g (g >= 1). */
size_t floor_pow2(size_t g)
{
    size_t p = 1;
    while (p <= g / 2)
        p *= 2;
    return p;
}

/* Moves block b of the array, CLC_ITEMS steps of the group's width; f: 1 (copy), 2 (scale). */
#define MOVE_BLOCK(b, f)                                                                      \
    for (uint k_ = 0; k_ < CLC_ITEMS; k_++) {                                                 \
        size_t i_ = (b) * CLC_LOCAL_X * CLC_ITEMS + k_ * CLC_LOCAL_X + get_local_id(0);       \
        if (i_ < n)                                                                           \
            STORE(out, i_, LOAD(in, i_) * (f));                                               \
    }

/* Group g < P (P a power of two) takes block bitreverse(g) over log2 P bits: consecutive
 * groups take blocks P / 2 apart. */
__kernel void copy_group_bitrev(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_group_id(0), p = floor_pow2(get_num_groups(0)), b = g;
    if (g < p) {
        b = 0;
        for (size_t bit = 1, rev = p / 2; bit < p; bit *= 2, rev /= 2)
            if (g & bit)
                b |= rev;
    }
    MOVE_BLOCK(b, 1)
}

/* Group g < G8 (the groups rounded down to a multiple of 8) takes block
 * (g mod 8) * G8 / 8 + g / 8: eight streams of blocks, G8 / 8 blocks apart. */
__kernel void scale_group_stride8(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_group_id(0), g8 = get_num_groups(0) / 8 * 8, b = g;
    if (g < g8)
        b = (g % 8) * (g8 / 8) + g / 8;
    MOVE_BLOCK(b, 2)
}

/* Group g < P takes block (97 g + 13) mod P: neighbouring groups 97 blocks apart. */
__kernel void copy_group_mulmod(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_group_id(0), p = floor_pow2(get_num_groups(0)), b = g;
    if (g < p)
        b = (97 * g + 13) & (p - 1);
    MOVE_BLOCK(b, 1)
}
