/* offset.cl - a[i + s] = a[i + s] + 1 for an offset s of 0..32 elements (the 2013 article
 * "How to Access Global Memory Efficiently").  With s not a multiple of 8 floats, a warp's
 * 128 bytes straddle one more 32-byte sector than needed: a few percent, not a cliff. */
#include "clc.h"

__kernel void offset(__global T *a, uint s, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(a, i + s, LOAD(a, i + s) + 1);
}

