/* multipass6.cl - sixth validation set (family `multipass-6`): copy or scale in more than one
 * pass in one launch: in read at two offsets (its own element and the one 33 on) and out
 * written twice and read back once; a group's block written zero as float4 a work-item, then
 * copied over a group's width a step after a barrier; and a block copied, then doubled in
 * place down the columns of its 32 x 32 square after a barrier (each read-modify-write a line
 * a lane).  Only the final values are checked; all are exact on the inputs' small integers.
 * Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

/* Element i (CLC_ITEMS = 1) and j = i + 33 (wrapping round at n): out = in[i] + in[j], then
 * out = out + in[i] - in[j]: in read twice at i and twice at j (each j request over two
 * lines, a line and a float on), out read back once and written twice. */
__kernel void scale_in_two_offsets(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), j = i + 33;
    if (j >= n)
        j -= n;
    if (j >= n)
        j = i;
    if (i < n) {
        STORE(out, i, LOAD(in, i) + LOAD(in, j));
        STORE(out, i, LOAD(out, i) + LOAD(in, i) - LOAD(in, j));
    }
}

#if CLC_ITEMS == 4
/* A group's block of 4 L elements (CLC_ITEMS = 4): work-item l writes float4 l of it zero
 * (lanes 16 bytes apart, a warp's store 512 bytes); after a barrier on global memory it copies
 * elements l + L k (k < 4) over them, coalesced, mostly over another warp's zeros.  A block
 * cut by the array's end is zeroed element by element. */
__kernel void copy_zero4_then_copy(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * 4 * CLC_LOCAL_X;
    if (base + 4 * CLC_LOCAL_X <= n) {
        float4 z = (float4)0;
        VSTORE(4, z, base / 4 + l, out);
    } else {
        for (uint k = 0; k < 4; k++)
            if (base + 4 * l + k < n)
                STORE(out, base + 4 * l + k, 0);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = base + l + CLC_LOCAL_X * k;
        if (e < n)
            STORE(out, e, LOAD(in, e));
    }
}
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements copied coalesced (e = l + 256 k); after a barrier on global memory
 * the block, as 32 rows of 32, doubled in place down its columns: work-item l reads and
 * rewrites row l mod 32, column l / 32 + 8 k (lanes 128 bytes apart, a request over 32
 * lines), elements mostly other warps copied. */
__kernel void scale_copy_then_double_columns(__global const T *in, __global T *out,
                                             ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = base + l + 256 * k;
        if (e < n)
            STORE(out, e, LOAD(in, e));
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = base + 32 * (l % 32) + l / 32 + 8 * k;
        if (e < n)
            STORE(out, e, LOAD(out, e) * 2);
    }
}
#endif
