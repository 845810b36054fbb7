/* gather.cl - out[i] = in[idx[i]]: the reads of `in` go wherever the index array says.
 * Identity indices read like a copy; a random permutation sends each lane of a warp to its
 * own sector; a permutation that only shuffles within blocks of k elements keeps a warp's
 * reads inside a window of k elements.  The index reads and the writes stay coalesced. */
#include "clc.h"

__kernel void gather(__global const T *in, __global const uint *idx, __global T *out, ulong n
                     CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, LOAD(idx, i)));
}
