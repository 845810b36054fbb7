/* clc_support.cl - the kernels the driver itself runs around a case's own: initial values
 * (clc_init, from clc.h), a strided buffer gathered for reading back, and the address of a
 * buffer as kernels see it (for the trace build's bounds).  Built with the row's -DT. */
#include "clc.h"

/* out[i] = a[i * s] for i < n: the stride case's buffer is s times larger than what its
 * check reads, so the elements it needs are gathered on the device. */
__kernel void clc_pick(__global const T *a, __global T *out, ulong s, ulong n)
{
    size_t i = get_global_id(0);
    if (i < n)
        out[i] = a[i * s];
}

/* out[0] = the address of p: the trace build compares every access with the buffers'. */
__kernel void clc_address(__global const uchar *p, __global ulong *out)
{
    if (get_global_id(0) == 0)
        out[0] = (ulong)p;
}
