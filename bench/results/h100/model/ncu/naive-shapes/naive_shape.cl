/* naive_shape.cl - the built-in naive transpose (one element per work-item) in any work-group
 * shape, for `clcoalesce custom --pattern transpose --local 32xY --items-per-thread 1`:
 * a work-group of 32 x Y work-items writes Y consecutive elements of each of 32 rows of out,
 * so Y sets how many work-groups, and how far apart, finish each 128-byte line. */
#include "clc.h"

__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void naive_shape(__global const T *in, __global T *out, ulong width,
                          ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height)
        STORE(out, x * height + y, LOAD(in, y * width + x));
}
