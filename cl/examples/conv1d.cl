/* conv1d.cl - an example for `clcoalesce custom`: a 1-D convolution with a 9-tap filter,
 * out[i] = sum over k of w[k] in[i + k - 4] (zero outside `in`), naive and with the
 * work-group's window and its halo staged in __local memory.
 *
 *   clcoalesce custom --kernel-file cl/examples/conv1d.cl --kernel conv1d_local \
 *       --reference conv1d_naive
 *
 * Naive: each work-item reads 9 neighbours of `in`, 8 of them read by its neighbours too
 * (the cache absorbs most).  Local: a group of 256 loads its 256 elements plus 4 on each
 * side once, then every work-item reads its 9 taps from __local memory. */
#include "clc.h"

#define TAPS 9
#define HALO 4
#define GROUP 256

/* clcoalesce:
 *   arg in  in     float n    random
 *   arg w   in     float 9    random
 *   arg out out    float n
 *   arg n   scalar uint  n
 *   grid n
 *   group 256
 */
__kernel void conv1d_naive(__global const float *in, __global const float *w,
                           __global float *out, uint n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    int i = get_global_id(0);
    if (i >= (int)n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < TAPS; k++) {
        int j = i + k - HALO;
        if (j >= 0 && j < (int)n)
            sum += LOAD(w, k) * LOAD(in, j);
    }
    STORE(out, i, sum);
}

/* clcoalesce:
 *   arg in  in     float n    random
 *   arg w   in     float 9    random
 *   arg out out    float n
 *   arg n   scalar uint  n
 *   grid n
 *   group 256
 */
__kernel void conv1d_local(__global const float *in, __global const float *w,
                           __global float *out, uint n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float win[GROUP + 2 * HALO];
    int t = get_local_id(0), base = get_group_id(0) * GROUP - HALO;
    for (int k = t; k < GROUP + 2 * HALO; k += GROUP) {
        int j = base + k;
        win[k] = j >= 0 && j < (int)n ? LOAD(in, j) : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = get_global_id(0);
    if (i >= (int)n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < TAPS; k++)
        sum += LOAD(w, k) * win[t + k];
    STORE(out, i, sum);
}
