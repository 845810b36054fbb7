/* scatter.cl - requests that scatter while the sectors they touch stay in L2: the buffer is
 * a run of blocks of 32 rows of `pitch` elements; lane l of each warp takes row l of its block
 * and warp w column w, so each lane of a request touches its own 128-byte line, and the next
 * warps the rest of its sector.  DRAM sees every byte once; what limits is how fast the L2
 * takes one line per lane.  Elements past the whole blocks are taken in place.  And loads
 * at random (scatter_random): each lane's own DRAM granule anywhere in the buffer, what a
 * gather through random indices reads, with no index to load. */
#include "clc.h"

/* The element work-item i takes. */
size_t scatter_index(size_t i, size_t pitch, size_t n)
{
    size_t block = 32 * pitch, j = i % block;
    return i < n / block * block ? i - j + (j % 32) * pitch + j / 32 : i;
}

/* store: out[e] = clc_value(e), one line per lane */
__kernel void scatter_store(__global T *out, ulong n, ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        size_t e = scatter_index(i, pitch, n);
        STORE(out, e, clc_value(e));
    }
}

/* load: out[i] = in[e], one line per lane loaded, the stores coalesced */
__kernel void scatter_load(__global const T *in, __global T *out, ulong n,
                           ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, scatter_index(i, pitch, n)));
}

/* One round of a bijection of [0, mask] (mask = 2^bits - 1) that scatters neighbours: a
 * product with an odd constant and an xor of the high half into the low, each invertible on
 * numbers of that many bits.  clc_scatter_random_index (reference.c) is the same walk. */
ulong scatter_mix(ulong x, ulong mask, uint shift)
{
    x = (x * 0x9E3779B97F4A7C15UL) & mask;
    x ^= x >> shift;
    x = (x * 0xC2B2AE3D27D4EB4FUL) & mask;
    return x ^ (x >> shift);
}

/* The element work-item i loads: i mixed over the 2^bits >= n numbers, and mixed again
 * while it lies past n, which keeps the walk a permutation of [0, n). */
ulong scatter_random_index(ulong i, ulong n, uint bits)
{
    ulong mask = bits >= 64 ? ~(ulong)0 : ((ulong)1 << bits) - 1;
    uint shift = (bits + 1) / 2;
    ulong x = scatter_mix(i, mask, shift);
    while (x >= n)
        x = scatter_mix(x, mask, shift);
    return x;
}

/* random: out[i] = in[e], e at random over the buffer, the stores coalesced */
__kernel void scatter_random(__global const T *in, __global T *out, ulong n,
                             uint bits CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, scatter_random_index(i, n, bits)));
}
