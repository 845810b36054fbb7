/* stores of S partial sectors a line a request, B bytes a lane (exploration): lane l of a
 * warp in row l / S (32 / S lines a request, rows 64 KiB apart) and sector l % S of its line;
 * the warps of a work-group take the elements of those sectors in turn (as the scatter case),
 * then the next sectors; narrow: a block of 32 / S rows at once; wide: consecutive
 * work-groups in blocks far apart. */
#include "clc.h"

/* the byte offset of work-item i's element */
ulong slot(ulong i, uint s, uint b, ulong kk)
{
    ulong e = 32 / b, per_block = e * 2048 / s / 8; /* work-groups a block */
    ulong g = i >> 8, w = (i >> 5) & 7, l = i & 31;
    ulong lo = g % kk, t = g / kk, gb = t % per_block, hi = t / per_block;
    ulong blk = hi * kk + lo, vw = gb * 8 + w, c = vw / e;
    ulong linecol = c / (4 / s), soff = (c % (4 / s)) * s;
    return blk * (32 / s) * 65536 + (l / s) * 65536 + linecol * 128 + (soff + l % s) * 32 +
           (vw % e) * b;
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   arg kk scalar ulong 1
 *   grid n * 4 / 4
 */
__kernel void ps1_b4_narrow(__global float *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 1, 4, kk) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   arg kk scalar ulong n * 4 / (32 * 65536)
 *   grid n * 4 / 4
 */
__kernel void ps1_b4_wide(__global float *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 1, 4, kk) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   arg kk scalar ulong 1
 *   grid n * 4 / 8
 */
__kernel void ps1_b8_narrow(__global float2 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 1, 8, kk) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   arg kk scalar ulong n * 4 / (32 * 65536)
 *   grid n * 4 / 8
 */
__kernel void ps1_b8_wide(__global float2 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 1, 8, kk) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float4 n * 4 / 16
 *   arg m scalar ulong n * 4 / 16
 *   arg kk scalar ulong 1
 *   grid n * 4 / 16
 */
__kernel void ps1_b16_narrow(__global float4 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 1, 16, kk) / 16;
        STORE(out, o < m ? o : i, (float4)((float)(o & 65535), 1.0f, 2.0f, 3.0f));
    }
}

/* clcoalesce:
 *   arg out out float4 n * 4 / 16
 *   arg m scalar ulong n * 4 / 16
 *   arg kk scalar ulong n * 4 / (32 * 65536)
 *   grid n * 4 / 16
 */
__kernel void ps1_b16_wide(__global float4 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 1, 16, kk) / 16;
        STORE(out, o < m ? o : i, (float4)((float)(o & 65535), 1.0f, 2.0f, 3.0f));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   arg kk scalar ulong 1
 *   grid n * 4 / 4
 */
__kernel void ps2_b4_narrow(__global float *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 2, 4, kk) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   arg kk scalar ulong n * 4 / (16 * 65536)
 *   grid n * 4 / 4
 */
__kernel void ps2_b4_wide(__global float *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 2, 4, kk) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   arg kk scalar ulong 1
 *   grid n * 4 / 8
 */
__kernel void ps2_b8_narrow(__global float2 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 2, 8, kk) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   arg kk scalar ulong n * 4 / (16 * 65536)
 *   grid n * 4 / 8
 */
__kernel void ps2_b8_wide(__global float2 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 2, 8, kk) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float4 n * 4 / 16
 *   arg m scalar ulong n * 4 / 16
 *   arg kk scalar ulong 1
 *   grid n * 4 / 16
 */
__kernel void ps2_b16_narrow(__global float4 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 2, 16, kk) / 16;
        STORE(out, o < m ? o : i, (float4)((float)(o & 65535), 1.0f, 2.0f, 3.0f));
    }
}

/* clcoalesce:
 *   arg out out float4 n * 4 / 16
 *   arg m scalar ulong n * 4 / 16
 *   arg kk scalar ulong n * 4 / (16 * 65536)
 *   grid n * 4 / 16
 */
__kernel void ps2_b16_wide(__global float4 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 2, 16, kk) / 16;
        STORE(out, o < m ? o : i, (float4)((float)(o & 65535), 1.0f, 2.0f, 3.0f));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   arg kk scalar ulong 1
 *   grid n * 4 / 4
 */
__kernel void ps4_b4_narrow(__global float *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 4, 4, kk) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   arg kk scalar ulong n * 4 / (8 * 65536)
 *   grid n * 4 / 4
 */
__kernel void ps4_b4_wide(__global float *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 4, 4, kk) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   arg kk scalar ulong 1
 *   grid n * 4 / 8
 */
__kernel void ps4_b8_narrow(__global float2 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 4, 8, kk) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   arg kk scalar ulong n * 4 / (8 * 65536)
 *   grid n * 4 / 8
 */
__kernel void ps4_b8_wide(__global float2 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 4, 8, kk) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float4 n * 4 / 16
 *   arg m scalar ulong n * 4 / 16
 *   arg kk scalar ulong 1
 *   grid n * 4 / 16
 */
__kernel void ps4_b16_narrow(__global float4 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 4, 16, kk) / 16;
        STORE(out, o < m ? o : i, (float4)((float)(o & 65535), 1.0f, 2.0f, 3.0f));
    }
}

/* clcoalesce:
 *   arg out out float4 n * 4 / 16
 *   arg m scalar ulong n * 4 / 16
 *   arg kk scalar ulong n * 4 / (8 * 65536)
 *   grid n * 4 / 16
 */
__kernel void ps4_b16_wide(__global float4 *out, ulong m, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = slot(i, 4, 16, kk) / 16;
        STORE(out, o < m ? o : i, (float4)((float)(o & 65535), 1.0f, 2.0f, 3.0f));
    }
}
