/* scale_staged.cl - lab 6: out[i] = 2 * in[i] where each work-item works on K = CLC_ITEMS
 * consecutive elements (as lab 1's scale_chunked), but every global access stays coalesced:
 * the work-group's K x CLC_LOCAL_X elements are staged through __local memory.  Run with
 * --pattern scale --items-per-thread K (K <= 32 with the default local size of 256: the tile
 * is K x 256 floats, 32 KiB at K = 32).
 *
 * 1. coalesced loads: at step k, work-item l writes word k * LOCAL + l (32 lanes, 32 banks);
 * 2. work-item l reads and writes its chunk, words l * K .. l * K + K - 1: at each step the
 *    lanes of a warp are K words apart, a gcd(K, 32)-way bank conflict;
 * 3. coalesced stores, as 1.
 *
 * scale_staged:        the tile as it is: K = 32 puts a warp's 32 chunk words in one bank.
 * scale_staged_padded: one padding word after every 32 (word w at w + w / 32): the chunk
 *                      words of a warp land in 32 different banks for K = 1, 2, 4 .. 32, and
 *                      the coalesced phases stay conflict-free. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif

#define TILE (CLC_LOCAL_X * CLC_ITEMS)
#define PAD(w) ((w) + (w) / 32)

__kernel void scale_staged(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[TILE];
    size_t base = get_group_id(0) * (size_t)TILE;
    uint l = (uint)get_local_id(0);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X + l;
        tile[k * CLC_LOCAL_X + l] = i < n ? LOAD(in, i) : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) /* the work on a chunk: here, times 2 */
        tile[l * CLC_ITEMS + k] *= 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X + l;
        if (i < n)
            STORE(out, i, tile[k * CLC_LOCAL_X + l]);
    }
}

__kernel void scale_staged_padded(__global const T *in, __global T *out,
                                  ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[PAD(TILE)];
    size_t base = get_group_id(0) * (size_t)TILE;
    uint l = (uint)get_local_id(0);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X + l;
        tile[PAD(k * CLC_LOCAL_X + l)] = i < n ? LOAD(in, i) : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++)
        tile[PAD(l * CLC_ITEMS + k)] *= 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = base + (size_t)k * CLC_LOCAL_X + l;
        if (i < n)
            STORE(out, i, tile[PAD(k * CLC_LOCAL_X + l)]);
    }
}
