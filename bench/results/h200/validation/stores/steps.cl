/* lines filled over several steps, a coalesced load before each store (the scatter case's
 * store_steps) in the narrow layout (K = 1: a block of 32 rows at once) and the wide one
 * (K = all blocks: consecutive work-groups in blocks 2 MiB apart, as a transpose's columns);
 * and the same stores with no loads (exploration) */
#include "clc.h"

#define P 16384

/* work-item i's first element: 32 rows x P columns a block, lane l in row l, the warps of
 * its work-group (8) in adjacent runs of k columns, group g in block (g / K / G) K + g % K */
size_t steps_row(size_t i, ulong k, ulong kk, ulong n)
{
    size_t per_block = 32 * P / k / 256; /* work-groups a block */
    size_t g = i >> 8, w = (i >> 5) & 7, l = i & 31;
    size_t lo = g % kk, t = g / kk, gb = t % per_block, hi = t / per_block;
    size_t b = hi * kk + lo;
    return b * 32 * P + l * P + (gb * 8 + w) * k;
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 2
 *   arg kk scalar ulong 1
 *   grid (n) / 2
 */
__kernel void swf2_narrow(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 2
 *   arg kk scalar ulong 1
 *   grid (n) / 2
 */
__kernel void sof2_narrow(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (float)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 2
 *   arg kk scalar ulong n / (32 * 16384)
 *   grid (n) / 2
 */
__kernel void swf2_wide(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 2
 *   arg kk scalar ulong n / (32 * 16384)
 *   grid (n) / 2
 */
__kernel void sof2_wide(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (float)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 4
 *   arg kk scalar ulong 1
 *   grid (n) / 4
 */
__kernel void swf4_narrow(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 4
 *   arg kk scalar ulong 1
 *   grid (n) / 4
 */
__kernel void sof4_narrow(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (float)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 4
 *   arg kk scalar ulong n / (32 * 16384)
 *   grid (n) / 4
 */
__kernel void swf4_wide(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 4
 *   arg kk scalar ulong n / (32 * 16384)
 *   grid (n) / 4
 */
__kernel void sof4_wide(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (float)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 8
 *   arg kk scalar ulong 1
 *   grid (n) / 8
 */
__kernel void swf8_narrow(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 8
 *   arg kk scalar ulong 1
 *   grid (n) / 8
 */
__kernel void sof8_narrow(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (float)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 8
 *   arg kk scalar ulong n / (32 * 16384)
 *   grid (n) / 8
 */
__kernel void swf8_wide(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 8
 *   arg kk scalar ulong n / (32 * 16384)
 *   grid (n) / 8
 */
__kernel void sof8_wide(__global const float *in, __global float *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (float)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 2
 *   arg kk scalar ulong 1
 *   grid (n / 2) / 2
 */
__kernel void swd2_narrow(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 2
 *   arg kk scalar ulong 1
 *   grid (n / 2) / 2
 */
__kernel void sod2_narrow(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (double)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 2
 *   arg kk scalar ulong n / 2 / (32 * 16384)
 *   grid (n / 2) / 2
 */
__kernel void swd2_wide(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 2
 *   arg kk scalar ulong n / 2 / (32 * 16384)
 *   grid (n / 2) / 2
 */
__kernel void sod2_wide(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (double)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 4
 *   arg kk scalar ulong 1
 *   grid (n / 2) / 4
 */
__kernel void swd4_narrow(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 4
 *   arg kk scalar ulong 1
 *   grid (n / 2) / 4
 */
__kernel void sod4_narrow(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (double)((row + s) & 65535));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 4
 *   arg kk scalar ulong n / 2 / (32 * 16384)
 *   grid (n / 2) / 4
 */
__kernel void swd4_wide(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n), lane = i & 31;
    size_t chunk = (i - lane) * k;
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + s * 32 + lane));
}

/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 4
 *   arg kk scalar ulong n / 2 / (32 * 16384)
 *   grid (n / 2) / 4
 */
__kernel void sod4_wide(__global const double *in, __global double *out, ulong n, ulong k, ulong kk CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), row = steps_row(i, k, kk, n);
    if (row + k <= n)
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, (double)((row + s) & 65535));
}
