/* stores of L lines a request, one sector of each (exploration): the 32 / L lanes that share
 * a line write consecutive elements of one of its sectors, rows 64 KiB apart; the warps of a
 * work-group take the rest of those sectors, then the next sectors of the lines. */
#include "clc.h"

/* the byte offset of work-item i's element: L lines a request, lanes of b bytes */
ulong lslot(ulong i, uint L, uint b)
{
    ulong q = 32 / L, e = 32 / b, per = e / q; /* warps a sector takes */
    ulong w = i >> 5, l = i & 31;              /* the warp, as a whole number over the grid */
    ulong c = w / per, per_block = 512 * 4;    /* sectors a row: 512 lines of 4 */
    ulong blk = c / per_block, sec = c % per_block;
    return blk * L * 65536 + (l / q) * 65536 + sec * 32 + ((w % per) * q + l % q) * b;
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   grid n * 4 / 4
 */
__kernel void pl32_b4(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 32, 4) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   grid n * 4 / 4
 */
__kernel void pl16_b4(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 16, 4) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   grid n * 4 / 4
 */
__kernel void pl8_b4(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 8, 4) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float n * 4 / 4
 *   arg m scalar ulong n * 4 / 4
 *   grid n * 4 / 4
 */
__kernel void pl4_b4(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 4, 4) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   grid n * 4 / 8
 */
__kernel void pl32_b8(__global float2 *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 32, 8) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   grid n * 4 / 8
 */
__kernel void pl16_b8(__global float2 *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 16, 8) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* clcoalesce:
 *   arg out out float2 n * 4 / 8
 *   arg m scalar ulong n * 4 / 8
 *   grid n * 4 / 8
 */
__kernel void pl8_b8(__global float2 *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = lslot(i, 8, 8) / 8;
        STORE(out, o < m ? o : i, (float2)((float)(o & 65535), 1.0f));
    }
}

/* only the first A lanes of each warp store, each into its own line (the rest idle): A lines
 * a request, one lane each */
ulong aslot(ulong i, uint A)
{
    ulong w = i >> 5, l = i & 31, c = w / 8, blk = c / 2048, sec = c % 2048;
    return blk * 32 * 65536 + l * 65536 + sec * 32 + (w % 8) * 4;
}
/* clcoalesce:
 *   arg out out float n
 *   arg m scalar ulong n
 *   grid n
 */
__kernel void a16_one(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m && (i & 31) < 16) {
        ulong o = aslot(i, 16) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}
/* clcoalesce:
 *   arg out out float n
 *   arg m scalar ulong n
 *   grid n
 */
__kernel void a8_one(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m && (i & 31) < 8) {
        ulong o = aslot(i, 8) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}
/* clcoalesce:
 *   arg out out float n
 *   arg m scalar ulong n
 *   grid n
 */
__kernel void a32_one(__global float *out, ulong m CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    ulong i = get_global_id(0);
    if (i < m) {
        ulong o = aslot(i, 32) / 4;
        STORE(out, o < m ? o : i, (float)(o & 65535));
    }
}
