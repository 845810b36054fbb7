/* local4.cl - fourth validation set (family `local-staging-4`): copy or scale through
 * __local memory in other shapes: a 32 x 32 block kept with its columns XOR-swizzled (no
 * padding) and stored from its end, a block kept padded and stored four neighbouring
 * elements a work-item, and a block loaded as float2 into two __local arrays (the even and
 * the odd elements) and stored element by element.  Every work-item reaches each barrier;
 * the array's end is guarded element by element.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements as 32 rows of 32, element (r, c) kept at t[r][c ^ r]; stored
 * 1023 - e for e = l, l + 256, ...: coalesced, downwards. */
__kernel void copy_local_xor_swizzle(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n)
            LSTORE(t[e / 32], (e % 32) ^ (e / 32), LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 1023 - l - 256 * k;
        if (base + e < n)
            STORE(out, base + e, LLOAD(t[e / 32], (e % 32) ^ (e / 32)));
    }
}

/* A group's 1024 elements kept at e + e / 32 (a pad a row of 32); work-item l stores
 * elements 4 l .. 4 l + 3: lanes 16 bytes apart, four requests over the same lines. */
__kernel void scale_local_chunk4_out(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[1024 + 32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n)
            LSTORE(t, e + e / 32, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n)
            STORE(out, base + e, LLOAD(t, e + e / 32) * 2);
    }
}
#endif

#if CLC_LOCAL_X == 128 && CLC_ITEMS == 4
/* A group's 512 elements loaded as float2 (two steps of 128), the even elements kept in lo
 * and the odd in hi; stored element e = l + 128 k from lo or hi: each lane reads the array
 * its parity picks.  A block cut by the array's end is loaded element by element. */
__kernel void copy_local_float2_split(__global const T *in, __global T *out,
                                      ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T lo[256], hi[256];
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    if (base + 512 <= n) {
        for (uint k = 0; k < 2; k++) {
            size_t p = l + 128 * k;
            float2 v = VLOAD(2, base / 2 + p, in);
            LSTORE(lo, p, v.x);
            LSTORE(hi, p, v.y);
        }
    } else {
        for (uint k = 0; k < 4; k++) {
            size_t e = l + 128 * k;
            if (base + e < n) {
                if (e % 2 == 0)
                    LSTORE(lo, e / 2, LOAD(in, base + e));
                else
                    LSTORE(hi, e / 2, LOAD(in, base + e));
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 128 * k;
        if (base + e < n)
            STORE(out, base + e, e % 2 == 0 ? LLOAD(lo, e / 2) : LLOAD(hi, e / 2));
    }
}
#endif
