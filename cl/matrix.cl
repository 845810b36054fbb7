/* matrix.cl - m = m * 2 + 1 in place on a width x height matrix, launched as a 2-D range with
 * x = column and y = row.  rowmajor stores the matrix row by row (index row * width + col), so
 * the 32 x-neighbours of a warp touch 32 consecutive elements; colmajor stores it column by
 * column (index col * height + row) with x still the column, so they sit `height` elements
 * apart and every lane needs its own 32-byte sector.  Both touch each of the width * height
 * elements exactly once; the range is rounded up to whole work-groups, hence the guards. */
#include "clc.h"

/* NVIDIA's compiler allows only 256 work-items to a kernel that does not declare its shape;
 * the host passes -DGROUP_Y (32 where the device allows 1024) so both kernels can run
 * 32 x 32 work-groups. */
#ifdef GROUP_Y
#define SHAPE __attribute__((reqd_work_group_size(32, GROUP_Y, 1)))
#else
#define SHAPE
#endif

SHAPE __kernel void matrix_rowmajor(__global T *m, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t col = get_global_id(0), row = get_global_id(1);
    if (col < width && row < height) {
        size_t i = row * width + col;
        STORE(m, i, LOAD(m, i) * 2 + 1);
    }
}

SHAPE __kernel void matrix_colmajor(__global T *m, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t col = get_global_id(0), row = get_global_id(1);
    if (col < width && row < height) {
        size_t i = col * height + row;
        STORE(m, i, LOAD(m, i) * 2 + 1);
    }
}
