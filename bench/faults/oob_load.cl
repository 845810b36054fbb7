/* oob_load.cl - a copy that loads 100000000 elements past its input (bench/faults.sh). */
#include "clc.h"

__kernel void copy_k(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i + 100000000));
}
