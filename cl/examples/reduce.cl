/* reduce.cl - an example for `clcoalesce custom`: a tree reduction in __local memory, each
 * work-group of 256 summing 512 elements into one partial sum, with interleaved and with
 * sequential addressing (the two first steps of the classic CUDA reduction lesson).
 *
 *   clcoalesce custom --kernel-file cl/examples/reduce.cl --kernel reduce_sequential \
 *       --reference reduce_interleaved
 *
 * Both read `in` the same way (coalesced; two elements per work-item); they differ in
 * __local memory.  Interleaved addressing has work-item t add s[2 s t] and s[2 s t + s]:
 * the active work-items are spread out and their __local addresses are 2 s apart, so the
 * banks conflict more at every step.  Sequential addressing has work-item t < s add s[t]
 * and s[t + s]: consecutive work-items, consecutive words, no conflict.  The sums differ
 * in their order of additions: the floats are compared with a relative tolerance.  The
 * __local accesses go through LLOAD / LSTORE, so that the model counts their bank passes. */
#include "clc.h"

#define GROUP 256

/* clcoalesce:
 *   size G = (n + 2 * 256 - 1) / (2 * 256)   # work-groups
 *   arg in   in     float n random
 *   arg sums out    float G
 *   arg n    scalar uint  n
 *   grid G * 256
 *   group 256
 *   tolerance 1e-4
 */
__kernel void reduce_interleaved(__global const float *in, __global float *sums,
                                 uint n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float s[GROUP];
    uint t = get_local_id(0), i = get_group_id(0) * 2 * GROUP + t;
    float v = i < n ? LOAD(in, i) : 0.0f;
    if (i + GROUP < n)
        v += LOAD(in, i + GROUP);
    LSTORE(s, t, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 1; k < GROUP; k *= 2) {
        uint j = 2 * k * t;
        if (j < GROUP)
            LSTORE(s, j, LLOAD(s, j) + LLOAD(s, j + k));
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0)
        STORE(sums, get_group_id(0), LLOAD(s, 0));
}

/* clcoalesce:
 *   size G = (n + 2 * 256 - 1) / (2 * 256)
 *   arg in   in     float n random
 *   arg sums out    float G
 *   arg n    scalar uint  n
 *   grid G * 256
 *   group 256
 *   tolerance 1e-4
 */
__kernel void reduce_sequential(__global const float *in, __global float *sums,
                                uint n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float s[GROUP];
    uint t = get_local_id(0), i = get_group_id(0) * 2 * GROUP + t;
    float v = i < n ? LOAD(in, i) : 0.0f;
    if (i + GROUP < n)
        v += LOAD(in, i + GROUP);
    LSTORE(s, t, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = GROUP / 2; k > 0; k /= 2) {
        if (t < k)
            LSTORE(s, t, LLOAD(s, t) + LLOAD(s, t + k));
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0)
        STORE(sums, get_group_id(0), LLOAD(s, 0));
}
