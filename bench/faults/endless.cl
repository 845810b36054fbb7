/* endless.cl - a copy whose loop never ends (its bound is never reached): `clcoalesce custom`
 * must stop at --timeout and name the kernel (bench/faults.sh). */
#include "clc.h"

__kernel void spin(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    for (ulong k = 0; k != n + 1; k += 2)
        STORE(out, i % n, LOAD(in, i % n) + k);
}
