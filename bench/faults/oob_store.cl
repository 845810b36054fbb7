/* oob_store.cl - a copy that stores 100000000 elements past its output: the checked run of
 * `clcoalesce custom` must name the work-item, the buffer and the index before the unchecked
 * kernel runs (bench/faults.sh). */
#include "clc.h"

__kernel void copy_k(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i + 100000000, LOAD(in, i));
}
