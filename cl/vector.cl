/* vector.cl - the same copy with 1, 2, 4, 8 or 16 floats per work-item, its stores alone (a
 * fill), ReLU scalar vs float4, and a float4 vload from an address that is not 16-byte
 * aligned.
 *
 * The host builds the file with -DW=<width> (1, 2, 4, 8, 16) and, for copy_vload4,
 * -DOFFSET=<elements>.  Work-items 0 .. n/W - 1 move one vector each; when n is not a
 * multiple of W, work-item n/W moves the n % W leftover elements one at a time. */
#include "clc.h"

#ifndef W
#define W 4
#endif
#ifndef OFFSET
#define OFFSET 0
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if W == 1
typedef T VT;             /* there is no float1 */
#else
typedef CAT(T, W) VT;     /* float2, float4, float8, float16 */
#endif
typedef CAT(T, 4) T4;

/* `width` repeats the W the kernel was built with, so the host can report it; a launch
 * that disagrees writes nothing and fails verification instead of timing the wrong thing. */
__kernel void copy_vec(__global const T *in, __global T *out, ulong n, uint width CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    if (width != W)
        return;
    size_t i = get_global_id(0), nv = n / W;
    if (i < nv)
        STORE((__global VT *)out, i, LOAD((__global const VT *)in, i));
    else if (i == nv) /* the tail: n % W elements, one by one */
        for (size_t j = nv * W; j < n; j++)
            STORE(out, j, LOAD(in, j));
}

/* out[j] = clc_value(j), W floats per work-item as one vector store: copy_vec's stores
 * without its loads.  A store wider than 16 bytes a lane leaves as 16-byte pieces, each
 * filling half of every sector it touches, so on its own it shows the rate at which the L2
 * takes such stores (the profile reads it). */
__kernel void fill_vec(__global T *out, ulong n, uint width CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    if (width != W)
        return;
    size_t i = get_global_id(0), nv = n / W;
    if (i < nv) {
        VT v;
        T *e = (T *)&v;
        for (uint k = 0; k < W; k++)
            e[k] = clc_value(W * i + k);
        STORE((__global VT *)out, i, v);
    } else if (i == nv) {
        for (size_t j = nv * W; j < n; j++)
            STORE(out, j, clc_value(j));
    }
}

/* out = max(in, 0), W elements per work-item: the arithmetic is trivial, so the vector
 * width only changes how many bytes each load instruction moves. */
__kernel void relu_vec(__global const T *in, __global T *out, ulong n, uint width CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    if (width != W)
        return;
    size_t i = get_global_id(0), nv = n / W;
    if (i < nv)
        STORE((__global VT *)out, i, fmax(LOAD((__global const VT *)in, i), (VT)0));
    else if (i == nv)
        for (size_t j = nv * W; j < n; j++)
            STORE(out, j, fmax(LOAD(in, j), (T)0));
}

/* out[4i .. 4i+3] = in[OFFSET + 4i .. OFFSET + 4i + 3] with vload4, which accepts any
 * float-aligned address.  OFFSET 0: every vector starts on a 16-byte boundary; OFFSET 1:
 * none does, and each warp's 512 bytes straddle one more 32-byte sector.  The input holds
 * n + OFFSET elements; the stores stay aligned. */
__kernel void copy_vload4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), nv = n / 4;
    if (i < nv)
        STORE((__global T4 *)out, i, VLOAD(4, i, in + OFFSET));
    else if (i == nv)
        for (size_t j = nv * 4; j < n; j++)
            STORE(out, j, LOAD(in, OFFSET + j));
}
