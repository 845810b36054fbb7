/* distribution5.cl - fifth validation set (family `distribution-5`): copy or scale where the
 * elements are dealt to work-items in other ways: a chunk of 8 neighbouring elements a
 * work-item walked forward in scalar steps, a chunk of 4 walked from its end back to its
 * start, and a grid-stride loop over float2 that takes four passes.  Launches in
 * kernels.tsv. */
#include "clc.h"

/* Elements 8 t .. 8 t + 7 (CLC_ITEMS = 8), one scalar access a step: a step's lanes 32 bytes
 * apart, a request over eight lines and four bytes of each of their sectors, the same lines
 * again the next seven steps. */
__kernel void copy_chunk8_scalar(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * 8;
    for (uint k = 0; k < 8; k++)
        if (first + k < n)
            STORE(out, first + k, LOAD(in, first + k));
}

/* Elements 4 t + 3 down to 4 t (CLC_ITEMS = 4): lanes 16 bytes apart, a request over four
 * lines, the chunk's last element first. */
__kernel void scale_chunk4_backward(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * 4;
    for (uint k = 0; k < 4; k++) {
        size_t i = first + 3 - k;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}

/* A grid-stride loop over the n / 2 float2 (G work-items, CLC_ITEMS = 8: four passes), each
 * pass a coalesced float2 a lane (256 bytes a warp); the odd element of an odd n by
 * work-item 0. */
__kernel void copy_gridstride_float2(__global const T *in, __global T *out,
                                     ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t h = n / 2, g = get_global_size(0);
    for (size_t p = get_global_id(0); p < h; p += g)
        VSTORE(2, VLOAD(2, p, in), p, out);
    if (get_global_id(0) == 0 && n % 2 == 1)
        STORE(out, n - 1, LOAD(in, n - 1));
}
