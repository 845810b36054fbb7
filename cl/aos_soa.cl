/* aos_soa.cl - out[i] = x[i] * 2 where the x values are one field of a particle record.
 * Array of structures {x, y, z}: x values are 12 bytes apart, so a warp's 128 useful bytes
 * are spread over 384.  Structure of arrays: the x values are contiguous.  Padded structure
 * {float f; double d;}: the double's alignment pads the record to 16 bytes, so reading f
 * alone uses a quarter of every sector.
 *
 * A field is read through its address, LOAD(&p[i].field, 0), so the access is the
 * field's 4 bytes, as the hardware sees it, not the whole record. */
#include "clc.h"

struct particle {
    float x, y, z;
};

__kernel void aos(__global const struct particle *p, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(&p[i].x, 0) * 2);
}

/* The x array is the first of the three arrays x[n], y[n], z[n] laid end to end. */
__kernel void soa(__global const float *x, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(x, i) * 2);
}

/* Built only with -DCLC_FP64 (devices with cl_khr_fp64): the record holds a double. */
#ifdef CLC_FP64
struct padded {
    float f; /* 4 bytes, then 4 bytes of padding so d is 8-byte aligned */
    double d;
};

__kernel void aos_padded(__global const struct padded *p, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(&p[i].f, 0) * 2);
}
#endif
