/* l2.cl - the L2's own throughput: a window of N elements (N / W vectors of 16 bytes, a power
 * of two) that the L2 holds, read (each work-item sums what it loads), written or copied
 * PASSES times in one launch, so that DRAM moves the window once and the L2 serves the rest.
 *
 * Work-item i takes vector i in pass 0 and moves on by a work-group's vectors each pass: what
 * a compute unit's L1 kept of one pass is what other work-groups take next, a compute unit
 * meets its own lines again only after about as many passes as there are compute units, and
 * by then its L1 holds other lines.  The loads and stores reach the L2. */
#include "clc.h"
#include "clc_vec16.h"

#ifndef PASSES
#define PASSES 1
#endif

/* sums[i] = the elements of the PASSES vectors work-item i loads */
__kernel void l2_read(__global const T *in, __global T *sums, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global const TV *inv = (__global const TV *)in;
    size_t i = get_global_id(0), mask = n / W - 1, v = i;
    TV acc = (TV)0;
    /* a fixed trip count: the compiler may issue several loads before the first add */
    for (int p = 0; p < PASSES; p++) {
        acc += LOAD(inv, v);
        v = (v + get_local_size(0)) & mask;
    }
#if W == 4
    STORE(sums, i, (acc.s0 + acc.s1) + (acc.s2 + acc.s3));
#else
    STORE(sums, i, acc.s0 + acc.s1);
#endif
}

/* out[j] = clc_value(j), every vector stored PASSES times (by as many work-items) */
__kernel void l2_write(__global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global TV *outv = (__global TV *)out;
    size_t mask = n / W - 1, v = get_global_id(0);
    for (int p = 0; p < PASSES; p++) {
        STORE(outv, v, clc_values(v));
        v = (v + get_local_size(0)) & mask;
    }
}

/* out = in, every vector copied PASSES times */
__kernel void l2_copy(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global const TV *inv = (__global const TV *)in;
    __global TV *outv = (__global TV *)out;
    size_t mask = n / W - 1, v = get_global_id(0);
    for (int p = 0; p < PASSES; p++) {
        STORE(outv, v, LOAD(inv, v));
        v = (v + get_local_size(0)) & mask;
    }
}
