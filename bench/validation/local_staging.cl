/* local_staging.cl - validation kernels (family `local-staging`): copy or scale that pass
 * the data through __local memory in shapes of several kinds: a work-group's elements
 * reversed, a 16 x 16 square read by columns, float4 rotated by one work-item, a padded
 * chunk read back four per work-item, two buffers taken in turn, and a block shifted by one
 * with a halo element.  The sizes come from --local (CLC_LOCAL_X) and --items-per-thread
 * (CLC_ITEMS); every work-item reaches every barrier. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#define CLC_ITEMS 1
#endif

/* Work-item l parks its element at L - 1 - l, then stores the element it finds at L - 1 - l:
 * its own, having gone through the other end of the buffer. */
__kernel void copy_local_reversed(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CLC_LOCAL_X];
    size_t l = get_local_id(0), i = get_global_id(0);
    if (i < n)
        LSTORE(buf, CLC_LOCAL_X - 1 - l, LOAD(in, i));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n)
        STORE(out, i, LLOAD(buf, CLC_LOCAL_X - 1 - l));
}

/* The work-group's 256 elements as a 16 x 16 square, stored by rows, read back by columns:
 * work-item l = 16 r + c stores element 16 c + r. */
#if CLC_LOCAL_X == 256
__kernel void scale_local_square16(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T sq[16][16];
    size_t l = get_local_id(0), base = get_group_id(0) * 256;
    size_t r = l / 16, c = l % 16;
    if (base + l < n)
        LSTORE(sq[r], c, LOAD(in, base + l));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + 16 * c + r < n)
        STORE(out, base + 16 * c + r, LLOAD(sq[c], r) * 2);
}
#endif

/* float4 staged, each work-item storing its neighbour's vector (l + 1 mod L); the group's
 * vectors lie together, the leftover floats past the last whole vector go one by one. */
__kernel void copy_local_float4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local float4 buf[CLC_LOCAL_X];
    __global const float4 *in4 = (__global const float4 *)in;
    __global float4 *out4 = (__global float4 *)out;
    size_t l = get_local_id(0), n4 = n / 4, q = get_global_id(0);
    size_t nb = (l + 1) % CLC_LOCAL_X, qn = q - l + nb;
    if (q < n4)
        LSTORE(buf, l, LOAD(in4, q));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (qn < n4)
        STORE(out4, qn, LLOAD(buf, nb));
    if (q == n4)
        for (size_t i = 4 * n4; i < n; i++)
            STORE(out, i, LOAD(in, i));
}

/* A chunk of CLC_ITEMS * L elements loaded a group's width at a time into a buffer with a
 * padding element every 32, then stored CLC_ITEMS consecutive elements per work-item. */
__kernel void scale_local_padded(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CLC_LOCAL_X * CLC_ITEMS + CLC_LOCAL_X * CLC_ITEMS / 32 + 1];
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(buf, e + e / 32, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l * CLC_ITEMS + k;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e + e / 32) * 2);
    }
}

/* CLC_ITEMS tiles of L elements per group, staged through two buffers in turn (one barrier
 * per tile: a buffer is written again only after the next tile's barrier), each work-item
 * storing its neighbour's element. */
__kernel void copy_local_double(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[2][CLC_LOCAL_X];
    size_t l = get_local_id(0), nb = (l + 1) % CLC_LOCAL_X;
    size_t base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    for (uint t = 0; t < CLC_ITEMS; t++) {
        size_t tile = base + t * CLC_LOCAL_X;
        if (tile + l < n)
            LSTORE(buf[t & 1], l, LOAD(in, tile + l));
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tile + nb < n)
            STORE(out, tile + nb, LLOAD(buf[t & 1], nb));
    }
}

/* A block of L elements and the one after it (a halo, loaded by work-item 0), stored shifted
 * by one: group g writes elements base + 1 .. base + L; element 0 is written by work-item 0
 * of group 0. */
__kernel void copy_local_halo(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CLC_LOCAL_X + 1];
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X;
    if (base + l < n)
        LSTORE(buf, l, LOAD(in, base + l));
    if (l == 0 && base + CLC_LOCAL_X < n)
        LSTORE(buf, CLC_LOCAL_X, LOAD(in, base + CLC_LOCAL_X));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + l + 1 < n)
        STORE(out, base + l + 1, LLOAD(buf, l + 1));
    if (base == 0 && l == 0)
        STORE(out, 0, LLOAD(buf, 0));
}
