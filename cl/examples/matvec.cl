/* matvec.cl - an example for `clcoalesce custom`: y = A x for a dense R x C matrix A
 * (row-major), with a row per work-item and with a row per work-group.
 *
 *   clcoalesce custom --kernel-file cl/examples/matvec.cl --kernel matvec_group \
 *       --reference matvec_row
 *
 * A row per work-item: at each step the work-items of a warp read A[r][c] for 32
 * consecutive rows r, C elements apart: 32 sectors for 32 useful floats.  A row per
 * work-group of 64: the work-items read 64 consecutive elements of one row (coalesced),
 * then add their parts in __local memory. */
#include "clc.h"

#define GROUP 64

/* clcoalesce:
 *   size R = 1024
 *   size C = n / R
 *   arg a    in     float R*C random
 *   arg x    in     float C   random
 *   arg y    out    float R
 *   arg rows scalar int   R
 *   arg cols scalar int   C
 *   grid R
 *   group 64
 */
__kernel void matvec_row(__global const float *a, __global const float *x, __global float *y,
                         int rows, int cols CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int c = 0; c < cols; c++)
        sum += LOAD(a, (size_t)r * cols + c) * LOAD(x, c);
    STORE(y, r, sum);
}

/* clcoalesce:
 *   size R = 1024
 *   size C = n / R
 *   arg a    in     float R*C random
 *   arg x    in     float C   random
 *   arg y    out    float R
 *   arg rows scalar int   R
 *   arg cols scalar int   C
 *   grid R * 64
 *   group 64
 *   ref_grid R
 *   ref_group 64
 */
__kernel void matvec_group(__global const float *a, __global const float *x,
                           __global float *y, int rows, int cols CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float part[GROUP];
    int r = get_group_id(0), t = get_local_id(0);
    float sum = 0.0f;
    for (int c = t; c < cols; c += GROUP)
        sum += LOAD(a, (size_t)r * cols + c) * LOAD(x, c);
    part[t] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GROUP / 2; s > 0; s /= 2) {
        if (t < s)
            part[t] += part[t + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0 && r < rows)
        STORE(y, r, part[0]);
}
