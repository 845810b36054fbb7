/* copy.cl - the simplest coalesced kernel: one element per work-item, out[i] = in[i].
 * Consecutive work-items of a warp read consecutive elements, so each warp-level request
 * touches the fewest 32-byte sectors possible. */
#include "clc.h"

__kernel void copy(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}
