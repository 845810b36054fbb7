/* stride.cl - a[i * s] = a[i * s] + 1 for a stride s of 1..32 elements (the 2013 article),
 * and out[i] = a[i * s] + 1 (strided loads, coalesced stores).  A warp's 32 elements spread
 * over 32 * s elements: from s = 8 (float) every lane needs its own 32-byte sector, so 8
 * times the useful bytes move. */
#include "clc.h"

__kernel void stride(__global T *a, uint s, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(a, i * s, LOAD(a, i * s) + 1);
}

/* load: out[i] = a[i * s] + 1, the loads strided and the stores coalesced: DRAM's gaps on
 * the loads alone, where stride has them on both */
__kernel void stride_load(__global const T *a, __global T *out, uint s, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(a, i * s) + 1);
}

/* Verification helper: gathers the n strided elements into a dense buffer so the host
 * reads back n elements rather than n * s. */
__kernel void pick(__global const T *a, __global T *out, uint s, ulong n)
{
    size_t i = get_global_id(0);
    if (i < n)
        out[i] = a[i * s];
}
