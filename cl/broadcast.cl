/* broadcast.cl - stride 0: every lane of a warp reads the same element, from __global and
 * from __constant, against the coalesced read of as many bytes, and out[i] = in[i * s] for a
 * stride s from 0 (the 2013 article's figure starts there).  A warp's request for one
 * address touches one 32-byte sector; the constant cache serves it in one read per warp. */
#include "clc.h"

/* The trace build records addresses, which a __constant buffer has as a __global one does:
 * it reads the same buffer through __global, where the recorder can take its address. */
#ifdef CLC_TRACE
#define CLC_CONSTANT __global const
#else
#define CLC_CONSTANT __constant
#endif

/* The coalesced read of the same bytes: out[i] = in[i]. */
__kernel void coalesced(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

/* Every work-item of a work-group reads element (group % m) of in, through __global. */
__kernel void same_global(__global const T *in, __global T *out, ulong n, uint m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, get_group_id(0) % m));
}

/* The same through __constant: m elements, within the device's constant buffer size. */
__kernel void same_constant(CLC_CONSTANT T *in, __global T *out, ulong n, uint m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, get_group_id(0) % m));
}

/* out[i] = in[i * s]: the stride sweep, read only, from s = 0 (every lane on element 0). */
__kernel void strided(__global const T *in, __global T *out, uint s, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i * s));
}
