/* gather5.cl - fifth validation set (family `gather-5`): out[i] = in[idx[i]], idx a random
 * permutation of 0 .. n-1, dealt in other ways: two neighbouring elements a work-item
 * (indices two scalar loads, values stored as one float2), a grid-stride loop unrolled by
 * four (four index loads, four gathers, four stores a pass), and each warp's run of 32
 * taken in reversed lane order.  Launches in kernels.tsv. */
#include "clc.h"

/* Element i gathered on its own (a macro: LOAD and STORE record into the trace variables). */
#define GATHER_ONE(i) STORE(out, (i), LOAD(in, LOAD(idx, (i))))

/* Elements 2 t and 2 t + 1 (CLC_ITEMS = 2): two index loads with lanes 8 bytes apart (each
 * request the same two lines), two random loads, one float2 store (256 bytes a warp); the
 * odd element of an odd n on its own. */
__kernel void gather_pair_float2(__global const T *in, __global const uint *idx,
                                 __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), first = 2 * t;
    if (first + 2 <= n) {
        float2 v;
        v.x = LOAD(in, LOAD(idx, first));
        v.y = LOAD(in, LOAD(idx, first + 1));
        VSTORE(2, v, t, out);
    } else if (first < n) {
        GATHER_ONE(first);
    }
}

/* A grid-stride loop (G work-items, CLC_ITEMS = 8: two passes) taking i, i + G, i + 2 G and
 * i + 3 G a pass: the four indices loaded first (four coalesced requests), then the four
 * gathers, then the four stores. */
__kernel void gather_grid_unroll4(__global const T *in, __global const uint *idx,
                                  __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t g = get_global_size(0);
    for (size_t i = get_global_id(0); i < n; i += 4 * g) {
        uint k0 = 0, k1 = 0, k2 = 0, k3 = 0;
        if (i < n)
            k0 = LOAD(idx, i);
        if (i + g < n)
            k1 = LOAD(idx, i + g);
        if (i + 2 * g < n)
            k2 = LOAD(idx, i + 2 * g);
        if (i + 3 * g < n)
            k3 = LOAD(idx, i + 3 * g);
        T v0 = 0, v1 = 0, v2 = 0, v3 = 0;
        if (i < n)
            v0 = LOAD(in, k0);
        if (i + g < n)
            v1 = LOAD(in, k1);
        if (i + 2 * g < n)
            v2 = LOAD(in, k2);
        if (i + 3 * g < n)
            v3 = LOAD(in, k3);
        if (i < n)
            STORE(out, i, v0);
        if (i + g < n)
            STORE(out, i + g, v1);
        if (i + 2 * g < n)
            STORE(out, i + 2 * g, v2);
        if (i + 3 * g < n)
            STORE(out, i + 3 * g, v3);
    }
}

/* Work-item t gathers element t ^ 31: lane l of a warp takes element 31 - l of the warp's
 * run, index load and store each one line, from its last element to its first; a run cut by
 * the array's end in order. */
__kernel void gather_warp_reversed(__global const T *in, __global const uint *idx,
                                   __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0);
    size_t j = (t | 31) < n ? t ^ 31 : t;
    if (t < n)
        GATHER_ONE(j);
}
