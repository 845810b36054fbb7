/* local5.cl - fifth validation set (family `local-staging-5`): copy or scale through __local
 * memory in other shapes: a block staged coalesced and stored as float4 by a quarter of the
 * work-items, a block kept as its 256 x 4 transpose (written and read back four words a
 * lane apart: four lanes a bank) and stored by the other half of the group, and a block
 * loaded as float2 and stored as scalars from its end.  Every work-item reaches each
 * barrier; the array's end is guarded element by element.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements loaded coalesced at e = l + 256 k; work-items 0 .. 63 (two of the
 * group's eight warps) then store them as 256 float4, float4 l + 64 k: each store 512 bytes
 * a warp, each float4 read from __local as four words 16 bytes a lane apart.  A block cut
 * by the array's end is stored element by element by every work-item. */
__kernel void copy_local_float4_quarter(__global const T *in, __global T *out,
                                        ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T s[1024];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++)
        if (base + l + 256 * k < n)
            LSTORE(s, l + 256 * k, LOAD(in, base + l + 256 * k));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + 1024 <= n) {
        if (l < 64) {
            for (uint k = 0; k < 4; k++) {
                size_t q = l + 64 * k;
                float4 v;
                v.x = LLOAD(s, 4 * q);
                v.y = LLOAD(s, 4 * q + 1);
                v.z = LLOAD(s, 4 * q + 2);
                v.w = LLOAD(s, 4 * q + 3);
                VSTORE(4, v, base / 4 + q, out);
            }
        }
    } else {
        for (uint k = 0; k < 4; k++)
            if (base + l + 256 * k < n)
                STORE(out, base + l + 256 * k, LLOAD(s, l + 256 * k));
    }
}

/* A group's 1024 elements loaded coalesced at e = l + 256 k and kept at 4 (e mod 256) +
 * e / 256 = 4 l + k: __local written at a stride of four words (lanes 0, 8, 16, 24 on one
 * bank).  After the barrier work-item l stores the elements of work-item l ^ 128 (the other
 * half of the group), read at the same stride; loads and stores coalesced. */
__kernel void scale_local_stride4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T s[1024];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++)
        if (base + l + 256 * k < n)
            LSTORE(s, 4 * l + k, LOAD(in, base + l + 256 * k));
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t m = l ^ 128;
    for (uint k = 0; k < 4; k++)
        if (base + m + 256 * k < n)
            STORE(out, base + m + 256 * k, LLOAD(s, 4 * m + k) * 2);
}
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 2
/* A group's 512 elements loaded as 256 float2 (one a work-item, 256 bytes a warp) into
 * __local (two words a lane: two lanes a bank), then stored element e = 511 - l - 256 k:
 * coalesced scalar stores from the block's end.  A block cut by the array's end is loaded
 * element by element. */
__kernel void copy_local_float2_rev(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T s[512];
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    if (base + 512 <= n) {
        float2 v = VLOAD(2, base / 2 + l, in);
        LSTORE(s, 2 * l, v.x);
        LSTORE(s, 2 * l + 1, v.y);
    } else {
        for (uint k = 0; k < 2; k++)
            if (base + l + 256 * k < n)
                LSTORE(s, l + 256 * k, LOAD(in, base + l + 256 * k));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 2; k++) {
        size_t e = 511 - l - 256 * k;
        if (base + e < n)
            STORE(out, base + e, LLOAD(s, e));
    }
}
#endif
