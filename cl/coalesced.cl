/* coalesced.cl - out[i] = in[i] * 2: work-item i reads element i, so the 32 work-items of a
 * warp read 32 consecutive floats, 128 bytes: four 32-byte sectors per request. */
#include "clc.h"

__kernel void scale(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i) * 2);
}
