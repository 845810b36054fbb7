/* spmv.cl - an example for `clcoalesce custom`: y = A x for a sparse R x C matrix A in CSR
 * form (rowptr, col, val), scalar (a row per work-item) and vector (a row per 32
 * work-items).
 *
 *   clcoalesce custom --kernel-file cl/examples/spmv.cl --kernel spmv_vector \
 *       --reference spmv_scalar
 *
 * The matrix has C / 500 nonzeros per row (density 0.002: 16 at 1 MiB).  Scalar: the 32 work-items of a
 * warp walk 32 different rows, 16 elements apart in col and val: a sector per element.
 * Vector: 32 work-items share a row and read its 16 nonzeros side by side (coalesced), then
 * add their parts in __local memory.  x is read through col in both: a gather. */
#include "clc.h"

#define LANES 32
#define GROUP 128

/* clcoalesce:
 *   size R = n / 32
 *   size C = min(R, 16384)
 *   csr A R C 0.002
 *   arg rowptr in  uint  R + 1  rowptr A
 *   arg col    in  uint  A_nnz  colidx A
 *   arg val    in  float A_nnz  random
 *   arg x      in  float C      random
 *   arg y      out float R
 *   arg rows   scalar uint R
 *   grid R
 *   group 128
 */
__kernel void spmv_scalar(__global const uint *rowptr, __global const uint *col,
                          __global const float *val, __global const float *x,
                          __global float *y, uint rows CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    uint r = get_global_id(0);
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (uint k = LOAD(rowptr, r); k < LOAD(rowptr, r + 1); k++)
        sum += LOAD(val, k) * LOAD(x, LOAD(col, k));
    STORE(y, r, sum);
}

/* clcoalesce:
 *   size R = n / 32
 *   size C = min(R, 16384)
 *   csr A R C 0.002
 *   arg rowptr in  uint  R + 1  rowptr A
 *   arg col    in  uint  A_nnz  colidx A
 *   arg val    in  float A_nnz  random
 *   arg x      in  float C      random
 *   arg y      out float R
 *   arg rows   scalar uint R
 *   grid R * 32
 *   group 128
 *   ref_grid R
 *   ref_group 128
 */
__kernel void spmv_vector(__global const uint *rowptr, __global const uint *col,
                          __global const float *val, __global const float *x,
                          __global float *y, uint rows CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float part[GROUP];
    uint t = get_local_id(0), lane = t % LANES, r = get_global_id(0) / LANES;
    float sum = 0.0f;
    if (r < rows)
        for (uint k = LOAD(rowptr, r) + lane; k < LOAD(rowptr, r + 1); k += LANES)
            sum += LOAD(val, k) * LOAD(x, LOAD(col, k));
    part[t] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = LANES / 2; s > 0; s /= 2) {
        if (lane < s)
            part[t] += part[t + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && r < rows)
        STORE(y, r, part[t]);
}
