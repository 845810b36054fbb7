/* permute4.cl - fourth validation set (family `permutation-4`): copy or scale where work-item
 * i moves an element that index arithmetic picks: the array rotated by a third of its
 * length (a 64-bit remainder by n an element), rows of a length known only at run time
 * reversed (a 64-bit division and remainder an element), and a warp's lanes in bit-reversed
 * order.  Launches in kernels.tsv. */
#include "clc.h"

/* Work-item i moves element (i + n / 3) mod n: coalesced but for the warp at the wrap. */
__kernel void copy_rotate_third(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        size_t j = (i + n / 3) % n;
        STORE(out, j, LOAD(in, j));
    }
}

/* The array as rows of d = n / 1000 + 1 elements (a length the compiler cannot know); work-
 * item i moves element i's mirror in its row (q d + d - 1 - r); a last row cut by the
 * array's end in order.  Neighbouring lanes move neighbouring elements, downwards. */
__kernel void scale_row_mirror(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), d = n / 1000 + 1;
    if (i < n) {
        size_t q = i / d, r = i % d;
        size_t j = (q + 1) * d <= n ? q * d + d - 1 - r : i;
        STORE(out, j, LOAD(in, j) * 2);
    }
}

/* Lane l of each warp moves element 32 w + bitreverse5(l): a request over the warp's own 32
 * elements, in another order. */
__kernel void copy_lane_bitrev(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), l = i % 32, r = 0;
    for (uint b = 0; b < 5; b++)
        r |= ((l >> b) & 1) << (4 - b);
    size_t j = i - l + 32 <= n ? i - l + r : i; /* a warp cut by the array's end: in order */
    if (i < n)
        STORE(out, j, LOAD(in, j));
}
