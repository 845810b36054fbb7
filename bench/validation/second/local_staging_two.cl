/* local_staging_two.cl - validation kernels, second set (family `local-staging-2`): 1-D copy
 * or scale passed through __local memory: a chunk of several tiles per work-group staged
 * through two buffers with the next tile's load issued before the current tile's store
 * (double buffering), two consecutive elements per work-item loaded as a float2, a group's
 * whole chunk stored rotated by one warp (32 elements), and a chunk of 1024 elements
 * transposed as a padded 32 x 33 tile into a second tile and transposed back on the way out.
 * The launch: local = --local N (CLC_LOCAL_X), K = --items-per-thread (CLC_ITEMS), global =
 * round_up(ceil(n / K), N), so a group's chunk is N * K elements; every work-item reaches
 * every barrier. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#define CLC_ITEMS 4
#endif

/* Double buffering: the group's CLC_ITEMS tiles of L elements; tile t + 1 is loaded into one
 * buffer while tile t is stored from the other, each work-item storing the element at the
 * mirrored place of the tile (L - 1 - l: another warp's load).  One barrier per tile orders
 * both the reads of a buffer before its refill and its fill before its reads. */
__kernel void scale_local_prefetch(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[2][CLC_LOCAL_X];
    size_t l = get_local_id(0), rl = CLC_LOCAL_X - 1 - l;
    size_t base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    if (base + l < n)
        LSTORE(buf[0], l, LOAD(in, base + l));
    for (uint t = 0; t < CLC_ITEMS; t++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        size_t next = base + (t + 1) * CLC_LOCAL_X;
        if (t + 1 < CLC_ITEMS && next + l < n)
            LSTORE(buf[(t + 1) & 1], l, LOAD(in, next + l));
        size_t e = base + t * CLC_LOCAL_X + rl;
        if (e < n)
            STORE(out, e, LLOAD(buf[t & 1], rl) * 2);
    }
}

/* Two elements per work-item: work-item l loads elements 2 l and 2 l + 1 of the group's
 * chunk of 2 L as one float2 (a warp: 256 bytes), then stores elements l and l + L (a warp:
 * two 128-byte runs). */
__kernel void copy_local_pair2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[2 * CLC_LOCAL_X];
    size_t l = get_local_id(0), base = get_group_id(0) * 2 * CLC_LOCAL_X, p = base + 2 * l;
    if (p + 1 < n) {
        float2 v = VLOAD(2, 0, in + p);
        LSTORE(buf, 2 * l, v.x);
        LSTORE(buf, 2 * l + 1, v.y);
    } else if (p < n) {
        LSTORE(buf, 2 * l, LOAD(in, p));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 2; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e));
    }
}

/* The group's chunk of C = L * CLC_ITEMS elements loaded L at a time (element l + k L),
 * stored rotated by one warp: work-item l stores element (l + k L + 32) mod C, so each warp
 * writes the 32 elements the next warp loaded (the last warp the first warp's). */
__kernel void scale_local_rot_warp(__global const T *in, __global T *out,
                                   ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T buf[CLC_LOCAL_X * CLC_ITEMS];
    size_t l = get_local_id(0), base = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(buf, e, LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = (l + k * CLC_LOCAL_X + 32) % (CLC_LOCAL_X * CLC_ITEMS);
        if (base + e < n)
            STORE(out, base + e, LLOAD(buf, e) * 2);
    }
}

#if CLC_LOCAL_X * CLC_ITEMS == 1024
/* A chunk of 1024 elements as a 32 x 32 square (element e at row e / 32, column e % 32) in a
 * padded 32 x 33 tile a; transposed into a second tile b (b[r][c] = a[c][r]); stored from b
 * transposed back (element e from b[e % 32][e / 32]).  Loads and stores both run along the
 * chunk, L at a time; places past n hold 0 and are not stored. */
__kernel void copy_local_tr33_twice(__global const T *in, __global T *out,
                                    ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T a[32][33];
    __local T b[32][33];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            LSTORE(a[e / 32], e % 32, LOAD(in, base + e));
        else
            LSTORE(a[e / 32], e % 32, (T)0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        LSTORE(b[e / 32], e % 32, LLOAD(a[e % 32], e / 32));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t e = l + k * CLC_LOCAL_X;
        if (base + e < n)
            STORE(out, base + e, LLOAD(b[e % 32], e / 32));
    }
}
#endif
