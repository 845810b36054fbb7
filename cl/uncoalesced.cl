/* uncoalesced.cl - out[i] = in[(i * 32) % n] * 2: neighbouring work-items read elements
 * 32 apart (128 bytes for float), so each of the 32 loads of a warp lands in its own
 * sector: 32 sectors fetched for 128 useful bytes.  The writes stay coalesced. */
#include "clc.h"

/* The index is formed in 64 bits: i * 32 overflows 32 bits for arrays above 512 MiB. */
__kernel void scale(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, (i * 32) % n) * 2);
}
