/* scatter.cl - requests that scatter while the sectors they touch stay in L2: the buffer is
 * a run of blocks of 32 rows of `pitch` elements; lane l of each warp takes row l of its block
 * and warp w column w, so each lane of a request touches its own 128-byte line, and the next
 * warps the rest of its sector.  DRAM sees every byte once; what limits is how fast the L2
 * takes one line per lane.  Elements past the whole blocks are taken in place. */
#include "clc.h"

/* The element work-item i takes. */
size_t scatter_index(size_t i, size_t pitch, size_t n)
{
    size_t block = 32 * pitch, j = i % block;
    return i < n / block * block ? i - j + (j % 32) * pitch + j / 32 : i;
}

/* store: out[e] = clc_value(e), one line per lane */
__kernel void scatter_store(__global T *out, ulong n, ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        size_t e = scatter_index(i, pitch, n);
        STORE(out, e, clc_value(e));
    }
}

/* load: out[i] = in[e], one line per lane loaded, the stores coalesced */
__kernel void scatter_load(__global const T *in, __global T *out, ulong n,
                           ulong pitch CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, scatter_index(i, pitch, n)));
}
