/* stores one line a lane by the span of memory the resident work-groups write at once
 * (exploration): blocks of 32 rows x 16384 elements, lane l in row l, the 8 warps of a
 * work-group in 8 adjacent columns (one sector of each line, as the scatter case); group g
 * in block b = (g / K / 2048) K + g % K, so K blocks are written at once: K = 1 the scatter
 * case, K = all blocks the naive transpose's spread. */
#include "clc.h"

#define P 16384

size_t span_index(size_t i, ulong k, ulong n)
{
    size_t g = i >> 8, w = (i >> 5) & 7, l = i & 31;
    size_t lo = g % k, t = g / k, chunk = t % (P / 8), hi = t / (P / 8);
    size_t b = hi * k + lo;
    size_t e = b * 32 * P + l * P + chunk * 8 + w;
    return e < n ? e : i;
}

/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
__kernel void st_ref(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, (float)(i & 65535));
}


/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
    __kernel void st_k1(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, (float)(e & 65535));
        }
    }
/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 4
 */
    __kernel void st_k4(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, (float)(e & 65535));
        }
    }
/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 16
 */
    __kernel void st_k16(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, (float)(e & 65535));
        }
    }
/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 64
 */
    __kernel void st_k64(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, (float)(e & 65535));
        }
    }
/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong n / (32 * 16384)
 */
    __kernel void st_kall(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, (float)(e & 65535));
        }
    }

/* copy, both sides at e: loads and stores one line a lane */
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
__kernel void cp_ref(__global const float *in, __global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, i));
}

/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
    __kernel void cp_k1(__global const float *in, __global float *out, ulong n,
                       ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, LOAD(in, e));
        }
    }
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong n / (32 * 16384)
 */
    __kernel void cp_kall(__global const float *in, __global float *out, ulong n,
                       ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index(i, k, n);
            STORE(out, e, LOAD(in, e));
        }
    }

/* loads one line a lane, stores coalesced: out[i] = in[e] (checked against the same index
 * computed by a work-item that loops over nothing else) */
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
    __kernel void ld_k1(__global const float *in, __global float *out, ulong n,
                       ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n)
            STORE(out, i, LOAD(in, span_index(i, k, n)));
    }
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong n / (32 * 16384)
 */
    __kernel void ld_kall(__global const float *in, __global float *out, ulong n,
                       ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n)
            STORE(out, i, LOAD(in, span_index(i, k, n)));
    }

/* doubles: rows of 16384 doubles (128 KiB), 4 MiB blocks; 8 warps write two sectors a line */
size_t span_index_d(size_t i, ulong k, ulong n)
{
    return span_index(i, k, n);
}
/* clcoalesce:
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 1
 *   grid n / 2
 */
__kernel void sd_ref(__global double *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, (double)(i & 65535));
}
/* clcoalesce:
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 1
 *   grid n / 2
 */
    __kernel void sd_k1(__global double *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index_d(i, k, n);
            STORE(out, e, (double)(e & 65535));
        }
    }
/* clcoalesce:
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 16
 *   grid n / 2
 */
    __kernel void sd_k16(__global double *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index_d(i, k, n);
            STORE(out, e, (double)(e & 65535));
        }
    }
/* clcoalesce:
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong n / 2 / (32 * 16384)
 *   grid n / 2
 */
    __kernel void sd_kall(__global double *out, ulong n, ulong k CLC_TRACE_ARGS)
    {
        CLC_TRACE_BEGIN
        size_t i = get_global_id(0);
        if (i < n) {
            size_t e = span_index_d(i, k, n);
            STORE(out, e, (double)(e & 65535));
        }
    }

/* coalesced stores, each work-group's 1 KiB chunk, group g in chunk (g % K) (n / 256 / K) +
 * g / K: K places across the buffer written at once */
/* clcoalesce:
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 512
 */
__kernel void co_k512(__global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), g = i >> 8, per = n / 256 / k;
    size_t e = ((g % k) * per + g / k) * 256 + (i & 255);
    if (i < n) {
        e = e < n ? e : i;
        STORE(out, e, (float)(e & 65535));
    }
}

/* a coalesced load before each store: out[e] = in[i] (a permutation: unchecked) */
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
__kernel void stl_k1(__global const float *in, __global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, span_index(i, k, n), LOAD(in, i));
}
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong n / (32 * 16384)
 */
__kernel void stl_kall(__global const float *in, __global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, span_index(i, k, n), LOAD(in, i));
}
/* the loads from the first 4 MiB of in, which the L2 keeps */
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong n / (32 * 16384)
 */
__kernel void stlc_kall(__global const float *in, __global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, span_index(i, k, n), LOAD(in, i & ((1 << 20) - 1)));
}
/* clcoalesce:
 *   arg in in float n
 *   arg out out float n
 *   arg n scalar ulong n
 *   arg k scalar ulong 1
 */
__kernel void stlc_k1(__global const float *in, __global float *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, span_index(i, k, n), LOAD(in, i & ((1 << 20) - 1)));
}
/* doubles, a coalesced load before each store */
/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong 1
 *   grid n / 2
 */
__kernel void sdl_k1(__global const double *in, __global double *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, span_index(i, k, n), LOAD(in, i));
}
/* clcoalesce:
 *   arg in in double n / 2
 *   arg out out double n / 2
 *   arg n scalar ulong n / 2
 *   arg k scalar ulong n / 2 / (32 * 16384)
 *   grid n / 2
 */
__kernel void sdl_kall(__global const double *in, __global double *out, ulong n, ulong k CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, span_index(i, k, n), LOAD(in, i));
}
