/* softmax.cl - an example for `clcoalesce custom`: a softmax over each row of an R x C
 * matrix, out[r][c] = exp(in[r][c] - max_r) / sum over c of exp(in[r][c] - max_r), with a
 * row per work-item and with a row per work-group.
 *
 *   clcoalesce custom --kernel-file cl/examples/softmax.cl --kernel softmax_group \
 *       --reference softmax_row
 *
 * A row per work-item reads its row three times, the 32 work-items of a warp C elements
 * apart: uncoalesced.  A row per work-group of 128 reads it with 128 consecutive
 * work-items (coalesced) and finds the maximum and the sum in __local memory. */
#include "clc.h"

#define GROUP 128
/* the lowest float: INFINITY has no CUDA spelling without a header */
#define LOWEST (-3.402823466e+38f)

/* clcoalesce:
 *   size C = 1024
 *   size R = n / C
 *   arg in   in     float R*C random -4 4
 *   arg out  out    float R*C
 *   arg rows scalar int   R
 *   arg cols scalar int   C
 *   grid R
 *   group 64
 *   tolerance 1e-5
 */
__kernel void softmax_row(__global const float *in, __global float *out, int rows,
                          int cols CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    int r = get_global_id(0);
    if (r >= rows)
        return;
    size_t row = (size_t)r * cols;
    float m = LOWEST, s = 0.0f;
    for (int c = 0; c < cols; c++)
        m = fmax(m, LOAD(in, row + c));
    for (int c = 0; c < cols; c++)
        s += exp(LOAD(in, row + c) - m);
    for (int c = 0; c < cols; c++)
        STORE(out, row + c, exp(LOAD(in, row + c) - m) / s);
}

/* clcoalesce:
 *   size C = 1024
 *   size R = n / C
 *   arg in   in     float R*C random -4 4
 *   arg out  out    float R*C
 *   arg rows scalar int   R
 *   arg cols scalar int   C
 *   grid R * 128
 *   group 128
 *   ref_grid R
 *   ref_group 64
 *   tolerance 1e-5
 */
__kernel void softmax_group(__global const float *in, __global float *out, int rows,
                            int cols CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float red[GROUP];
    int r = get_group_id(0), t = get_local_id(0);
    size_t row = (size_t)r * cols;
    float m = LOWEST;
    for (int c = t; c < cols; c += GROUP)
        m = fmax(m, LOAD(in, row + c));
    red[t] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = GROUP / 2; k > 0; k /= 2) {
        if (t < k)
            red[t] = fmax(red[t], red[t + k]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    m = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0.0f;
    for (int c = t; c < cols; c += GROUP)
        s += exp(LOAD(in, row + c) - m);
    red[t] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = GROUP / 2; k > 0; k /= 2) {
        if (t < k)
            red[t] += red[t + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    s = red[0];
    for (int c = t; c < cols; c += GROUP)
        STORE(out, row + c, exp(LOAD(in, row + c) - m) / s);
}
