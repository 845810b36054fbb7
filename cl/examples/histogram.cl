/* histogram.cl - an example for `clcoalesce custom`: a 256-bin histogram of bytes, with
 * __local atomics (per-group counts merged once) and with global atomics.
 *
 *   clcoalesce custom --kernel-file cl/examples/histogram.cl --kernel histogram_local \
 *       --reference histogram_global
 *
 * bins is in-out and starts at zero: the check runs one launch on fresh buffers, so the
 * counts of the timed launches do not add up.  Each work-group of 256 walks the input in a
 * grid-stride loop (coalesced reads); histogram_global sends every byte to one of 256
 * global counters, histogram_local first to the group's own in __local memory.  The
 * atomics are not made through LOAD / STORE: the model sees the reads of `data`. */
#include "clc.h"

#define BINS 256

/* clcoalesce:
 *   arg data in     uchar n   random 0 256
 *   arg n    scalar uint  n
 *   arg bins inout  uint  256 const 0
 *   grid 64 * 256
 *   group 256
 */
__kernel void histogram_local(__global const uchar *data, uint n,
                              __global uint *bins CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local uint h[BINS];
    uint t = get_local_id(0);
    for (uint b = t; b < BINS; b += get_local_size(0))
        h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&h[LOAD(data, i)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = t; b < BINS; b += get_local_size(0))
        atomic_add(&bins[b], h[b]);
}

/* clcoalesce:
 *   arg data in     uchar n   random 0 256
 *   arg n    scalar uint  n
 *   arg bins inout  uint  256 const 0
 *   grid 64 * 256
 *   group 256
 */
__kernel void histogram_global(__global const uchar *data, uint n,
                               __global uint *bins CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[LOAD(data, i)]);
}
