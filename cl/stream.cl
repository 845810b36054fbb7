/* stream.cl - the memory system's own ceilings, one stream of 16-byte vectors each way: read
 * only (each work-item sums PER_ITEM vectors a grid apart and writes one sum, so the reads
 * dominate), write only (a fill), copy (1 read : 1 write) and triad (a = b + 3 c: 2 reads :
 * 1 write).  A DRAM page written without being read costs no read-to-write turnaround, so
 * stores alone get closer to the peak than a copy.  When n is not a multiple of the vector
 * width the last work-item does the leftover elements.
 *
 * 16 bytes (float4, double2) is the widest access one NVIDIA instruction makes.  A double4
 * is split into two 16-byte stores, each filling half of 32 sectors, so the L2 takes every
 * sector twice from the crossbar: a fill of double4s ran at half the write ceiling (H100:
 * 1590 against 3280 GB/s; `vector float8` / `float16` show the split). */
#include "clc.h"
#include "clc_vec16.h"

#ifndef PER_ITEM
#define PER_ITEM 16
#endif

/* sums[i] = the sum of in's vectors i, i + g, i + 2g ... (g work-items in all) */
__kernel void stream_read(__global const T *in, __global T *sums, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global const TV *inv = (__global const TV *)in;
    size_t g = get_global_size(0), i = get_global_id(0), nv = n / W;
    TV acc = (TV)0;
    /* a fixed trip count, so the compiler may issue all PER_ITEM loads before the first
     * add (the host launches g >= nv / PER_ITEM work-items) */
    for (int k = 0; k < PER_ITEM; k++) {
        size_t v = i + (size_t)k * g;
        if (v < nv)
            acc += LOAD(inv, v);
    }
#if W == 4
    T s = (acc.s0 + acc.s1) + (acc.s2 + acc.s3);
#else
    T s = acc.s0 + acc.s1;
#endif
    if (i == g - 1)
        for (size_t e = nv * W; e < n; e++)
            s += LOAD(in, e);
    STORE(sums, i, s);
}

/* out[j] = clc_value(j): stores only */
__kernel void stream_write(__global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / W;
    if (i < nv) {
        STORE((__global TV *)out, i, clc_values(i));
    } else if (i == nv) {
        for (size_t e = nv * W; e < n; e++)
            STORE(out, e, clc_value(e));
    }
}

__kernel void stream_copy(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / W;
    if (i < nv)
        STORE((__global TV *)out, i, LOAD((__global const TV *)in, i));
    else if (i == nv)
        for (size_t e = nv * W; e < n; e++)
            STORE(out, e, LOAD(in, e));
}

/* a = b + 3 c */
__kernel void stream_triad(__global const T *b, __global const T *c, __global T *a,
                           ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / W;
    if (i < nv)
        STORE((__global TV *)a, i,
              LOAD((__global const TV *)b, i) + LOAD((__global const TV *)c, i) * (T)3);
    else if (i == nv)
        for (size_t e = nv * W; e < n; e++)
            STORE(a, e, LOAD(b, e) + LOAD(c, e) * (T)3);
}
