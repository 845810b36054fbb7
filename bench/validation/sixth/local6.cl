/* local6.cl - sixth validation set (family `local-6`): copy or scale through __local memory
 * in other shapes: a group's block cut into pieces of 8 rows x 32 and each piece stored down
 * its columns (8 rows of 4 elements a warp, __local read 8 lanes a bank), a block kept as the
 * 32 x 32 transpose of itself without padding (written and read 32 lanes a bank), and a group
 * split into producers and consumers: its first half loads the whole block into __local, its
 * second half stores it.  Every work-item reaches each barrier; the array's end is guarded
 * element by element.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 2
#endif

#if CLC_LOCAL_X == 256
/* A group's CLC_ITEMS pieces of 256 elements (8 rows of 32) loaded coalesced into __local;
 * in piece k work-item l stores element 32 (l mod 8) + l / 8, down the piece's columns: a
 * warp's store over 8 lines, 16 bytes of each, its __local read 4 banks 8 lanes each. */
__kernel void copy_local_piece32x8(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T s[256 * CLC_ITEMS];
    size_t l = get_local_id(0), base = get_group_id(0) * 256 * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + 256 * k;
        if (base + e < n)
            LSTORE(s, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = 256 * k + 32 * (l % 8) + l / 8;
        if (base + e < n)
            STORE(out, base + e, LLOAD(s, e));
    }
}
#endif

#if CLC_LOCAL_X == 256 && CLC_ITEMS == 4
/* A group's 1024 elements loaded coalesced (e = l + 256 k) and kept at 32 (e mod 32) + e / 32,
 * a 32 x 32 transpose with no padding: a warp's 32 words a row of 32 apart, all on one bank.
 * After the barrier work-item l stores element (e + 32) mod 1024 (the next warp's), read from
 * __local the same way (32 lanes a bank again); loads and stores coalesced. */
__kernel void scale_local_stride32(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T s[1024];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n)
            LSTORE(s, 32 * (e % 32) + e / 32, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = (l + 256 * k + 32) % 1024;
        if (base + e < n)
            STORE(out, base + e, LLOAD(s, 32 * (e % 32) + e / 32) * 2);
    }
}
#endif

/* Producers and consumers: a group's block of L * CLC_ITEMS elements (512 under 256 x 2) is
 * loaded by work-items l < L / 2 alone (half the warps, 2 * CLC_ITEMS coalesced loads each),
 * and after the barrier stored by work-items l >= L / 2 alone (the other half, as many
 * coalesced stores each): no warp both loads and stores. */
__kernel void copy_local_producer_consumer(__global const T *in, __global T *out,
                                           ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T s[CLC_LOCAL_X * CLC_ITEMS];
    size_t l = get_local_id(0), h = CLC_LOCAL_X / 2;
    size_t base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    if (l < h) {
        for (uint k = 0; k < 2 * CLC_ITEMS; k++) {
            size_t e = l + h * k;
            if (base + e < n)
                LSTORE(s, e, LOAD(in, base + e));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l >= h) {
        for (uint k = 0; k < 2 * CLC_ITEMS; k++) {
            size_t e = l - h + h * k;
            if (base + e < n)
                STORE(out, base + e, LLOAD(s, e));
        }
    }
}
