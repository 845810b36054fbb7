/* stream.cl - the memory system's own ceilings, one float4 stream each way: read only (each
 * work-item sums PER_ITEM float4s a grid apart and writes one sum, so the reads dominate),
 * write only (a fill), copy (1 read : 1 write) and triad (a = b + 3 c: 2 reads : 1 write).
 * A DRAM page written without being read costs no read-to-write turnaround, so stores alone
 * get closer to the peak than a copy.  When n is not a multiple of 4 the last work-item does
 * the 1-3 leftover elements. */
#include "clc.h"

#ifndef PER_ITEM
#define PER_ITEM 16
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
typedef CAT(T, 4) T4;

/* sums[i] = the sum of in's float4s i, i + g, i + 2g ... (g work-items in all) */
__kernel void stream_read(__global const T *in, __global T *sums, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global const T4 *in4 = (__global const T4 *)in;
    size_t g = get_global_size(0), i = get_global_id(0), nv = n / 4;
    T4 acc = (T4)0;
    /* a fixed trip count, so the compiler may issue all PER_ITEM loads before the first
     * add (the host launches g >= nv / PER_ITEM work-items) */
    for (int k = 0; k < PER_ITEM; k++) {
        size_t v = i + (size_t)k * g;
        if (v < nv)
            acc += LOAD(in4, v);
    }
    T s = (acc.s0 + acc.s1) + (acc.s2 + acc.s3);
    if (i == g - 1)
        for (size_t e = nv * 4; e < n; e++)
            s += LOAD(in, e);
    STORE(sums, i, s);
}

/* out[j] = clc_value(j): stores only */
__kernel void stream_write(__global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / 4;
    if (i < nv) {
        T4 v;
        v.s0 = clc_value(4 * i);
        v.s1 = clc_value(4 * i + 1);
        v.s2 = clc_value(4 * i + 2);
        v.s3 = clc_value(4 * i + 3);
        STORE((__global T4 *)out, i, v);
    } else if (i == nv) {
        for (size_t e = nv * 4; e < n; e++)
            STORE(out, e, clc_value(e));
    }
}

__kernel void stream_copy(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / 4;
    if (i < nv)
        STORE((__global T4 *)out, i, LOAD((__global const T4 *)in, i));
    else if (i == nv)
        for (size_t e = nv * 4; e < n; e++)
            STORE(out, e, LOAD(in, e));
}

/* a = b + 3 c */
__kernel void stream_triad(__global const T *b, __global const T *c, __global T *a,
                           ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / 4;
    if (i < nv)
        STORE((__global T4 *)a, i,
              LOAD((__global const T4 *)b, i) + LOAD((__global const T4 *)c, i) * (T)3);
    else if (i == nv)
        for (size_t e = nv * 4; e < n; e++)
            STORE(a, e, LOAD(b, e) + LOAD(c, e) * (T)3);
}
