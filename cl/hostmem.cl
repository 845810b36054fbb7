/* hostmem.cl - a copy and a read, run on buffers in the device's memory, in host memory the
 * device reaches over the bus, and in managed memory: the same kernels, so the difference
 * is where the bytes live.  The host chooses the memory; the kernels do not know it. */
#include "clc.h"

/* out[i] = in[i]. */
__kernel void copy(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

/* A read: sums[i] = in[i] + in[i + g] + ... + in[i + (K - 1) g], g work-items: each of a
 * warp's K loads is coalesced, and eight times as many bytes are read as written. */
#define K 8
__kernel void read_sum(__global const T *in, __global T *sums, ulong g CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i >= g)
        return;
    T s = 0;
    for (uint k = 0; k < K; k++)
        s += LOAD(in, i + k * g);
    STORE(sums, i, s);
}
