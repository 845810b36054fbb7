/* copy_float4.cl - an example for `clcoalesce custom`, pattern copy: out[i] = in[i].
 *
 *   clcoalesce custom --kernel-file cl/examples/copy_float4.cl --kernel copy_float4 \
 *       --pattern copy --items-per-thread 4
 *
 * Each work-item moves one float4 (16 bytes) instead of one float: a warp's request then
 * covers 512 bytes, and a quarter as many work-items keep the same bytes in flight.  The
 * host launches ceil(n / 4) work-items (rounded up to whole work-groups) because of
 * --items-per-thread 4.  n need not be a multiple of 4: the work-item just past the last
 * whole float4 copies the 0 to 3 floats left over, one by one. */
#include "clc.h"

__kernel void copy_float4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    size_t n4 = n / 4;
    /* the buffers start on a 16-byte boundary (OpenCL aligns them far more) */
    __global const float4 *in4 = (__global const float4 *)in;
    __global float4 *out4 = (__global float4 *)out;
    if (i < n4) {
        STORE(out4, i, LOAD(in4, i));
    } else if (i == n4) {
        for (size_t j = 4 * n4; j < n; j++)
            STORE(out, j, LOAD(in, j));
    }
}
