/* vector5.cl - fifth validation set (family `multi-element-5`): several elements a
 * work-item: two scalars a warp's width apart (each access a whole line), a float2 and the
 * float2 a grid apart, and four scalars a work-group's width apart with all four loads
 * issued before any store.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif

/* Warp w (work-items 32 w .. 32 w + 31, CLC_ITEMS = 2) owns elements 64 w .. 64 w + 63:
 * lane l takes 64 w + l, then 64 w + 32 + l: each access one 128-byte line, a warp's two
 * lines neighbours. */
__kernel void scale_warp_two_runs(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t t = get_global_id(0), e = 64 * (t / 32) + t % 32;
    if (e < n)
        STORE(out, e, LOAD(in, e) * 2);
    if (e + 32 < n)
        STORE(out, e + 32, LOAD(in, e + 32) * 2);
}

/* float2 p and float2 p + G (G work-items, CLC_ITEMS = 4), a loop 2 G float2 a pass in case
 * the grid is smaller: two coalesced streams of 256 bytes a warp, a grid apart; the odd
 * element of an odd n by work-item 0. */
__kernel void scale_float2_gridpair(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = n / 2, g = get_global_size(0);
    for (size_t p = get_global_id(0); p < q; p += 2 * g) {
        VSTORE(2, VLOAD(2, p, in) * 2, p, out);
        if (p + g < q)
            VSTORE(2, VLOAD(2, p + g, in) * 2, p + g, out);
    }
    if (get_global_id(0) == 0 && n % 2 == 1)
        STORE(out, n - 1, LOAD(in, n - 1) * 2);
}

/* A work-group's block of 4 L elements (L = CLC_LOCAL_X, CLC_ITEMS = 4): work-item l loads
 * e = base + l + L k for k = 0 .. 3, all four before the first store, then stores them:
 * each access coalesced, four loads in flight a work-item. */
__kernel void copy_group4_loads_first(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * 4 * (size_t)CLC_LOCAL_X;
    size_t e0 = base + l, e1 = e0 + CLC_LOCAL_X, e2 = e1 + CLC_LOCAL_X, e3 = e2 + CLC_LOCAL_X;
    T v0 = 0, v1 = 0, v2 = 0, v3 = 0;
    if (e0 < n)
        v0 = LOAD(in, e0);
    if (e1 < n)
        v1 = LOAD(in, e1);
    if (e2 < n)
        v2 = LOAD(in, e2);
    if (e3 < n)
        v3 = LOAD(in, e3);
    if (e0 < n)
        STORE(out, e0, v0);
    if (e1 < n)
        STORE(out, e1, v1);
    if (e2 < n)
        STORE(out, e2, v2);
    if (e3 < n)
        STORE(out, e3, v3);
}
