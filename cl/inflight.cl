/* inflight.cl - bandwidth against bytes in flight (Little's law: bandwidth = bytes in flight
 * / latency).  A fixed grid of work-items (the host chooses work-groups per compute unit)
 * walks the array; at each step a work-item issues K independent loads of W elements
 * (scalar or float4) before it uses any of them, so each keeps K x W x sizeof(T) bytes in
 * flight.  Each load instruction is coalesced: load j of a step reads element base + j g + i
 * for work-item i of g.  Each work-item writes one sum, which the host checks. */
#include "clc.h"

#ifndef K
#define K 1
#endif
#ifndef W
#define W 1
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if W == 1
typedef T VT;
#define VSUM(v) (v)
#else
typedef CAT(T, W) VT;
#define VSUM(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3))
#endif

__kernel void inflight(__global const T *in, __global T *sums, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __global const VT *inv = (__global const VT *)in;
    size_t g = get_global_size(0), i = get_global_id(0), nv = n / W;
    size_t full = nv / (K * g) * (K * g);
    VT acc = (VT)0;
    for (size_t base = 0; base < full; base += K * g) {
        VT v[K];
#pragma unroll
        for (int j = 0; j < K; j++)
            v[j] = LOAD(inv, base + j * g + i);
#pragma unroll
        for (int j = 0; j < K; j++)
            acc += v[j];
    }
    for (size_t e = full + i; e < nv; e += g) /* what whole steps leave */
        acc += LOAD(inv, e);
    T s = VSUM(acc);
    if (i == g - 1)
        for (size_t e = nv * W; e < n; e++)
            s += LOAD(in, e);
    STORE(sums, i, s);
}
