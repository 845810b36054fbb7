/* indexmath.cl - a copy whose index first passes through integer work: work-item i copies
 * element i, but computes i through `rounds` rounds of an operation that leaves it unchanged
 * at run time (`zero` is 0 and `one` 1, kernel arguments the compiler cannot see through), so
 * every access stays coalesced and only the work per element grows.  The kinds of work are
 * those index arithmetic spends: shifts and masks, 64-bit multiply-adds, 64-bit and 32-bit
 * divisions by a number known only at run time (`d`). */
#include "clc.h"

/* A kernel `name` whose rounds each do `round` to x. */
#define INDEX_WORK(name, round)                                                               \
    __kernel void name(__global const T *in, __global T *out, ulong n, uint rounds,         \
                       ulong zero, ulong one, ulong d CLC_TRACE_ARGS)                        \
    {                                                                                         \
        CLC_TRACE_BEGIN                                                                       \
        size_t x = get_global_id(0);                                                          \
        for (uint r = 0; r < rounds; r++)                                                     \
            round;                                                                            \
        if (x < n)                                                                            \
            STORE(out, x, LOAD(in, x));                                                       \
    }

/* a shift, a mask and an xor a round */
INDEX_WORK(indexmath_shift, x ^= (x >> 7) & zero)
/* a 64-bit multiply-add a round */
INDEX_WORK(indexmath_mad, x = x * one + zero)
/* a 64-bit division a round (x / d as `e / height` in a transpose) */
INDEX_WORK(indexmath_div64, x += (x / d) * zero)
/* the same of a number past 2^32, which takes the 64-bit division's full path (the compiler
 * tests both numbers' high words first, and divides in 32 bits where they are 0) */
INDEX_WORK(indexmath_div64_wide, x += ((x + ((ulong)1 << 40)) / d) * zero)
/* the same in 32 bits (x / d on uint, as an index kept in an int) */
INDEX_WORK(indexmath_div32, x += ((uint)x / (uint)d) * (uint)zero)

/* the rounds of `shift`, then four elements a work-item (its group's block of 4 x the
 * group's size, a group's width a step): four loads in flight after the work instead of one */
__kernel void indexmath_shift4(__global const T *in, __global T *out, ulong n, uint rounds,
                               ulong zero, ulong one, ulong d CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0);
    for (uint r = 0; r < rounds; r++)
        x ^= (x >> 7) & zero;
    size_t w = get_local_size(0), base = (x - get_local_id(0)) * 4 + get_local_id(0);
    for (uint k = 0; k < 4; k++)
        if (base + k * w < n)
            STORE(out, base + k * w, LOAD(in, base + k * w));
}

/* the rounds of `shift` on the work-group's id, then i from it: a value every lane of a warp
 * shares, which the compiler may keep once a warp (uniform registers) rather than once a
 * lane */
__kernel void indexmath_shift_group(__global const T *in, __global T *out, ulong n,
                                    uint rounds, ulong zero, ulong one, ulong d CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_group_id(0);
    for (uint r = 0; r < rounds; r++)
        g ^= (g >> 7) & zero;
    size_t x = g * get_local_size(0) + get_local_id(0);
    if (x < n)
        STORE(out, x, LOAD(in, x));
}
