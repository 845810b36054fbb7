/* misaligned.cl - second validation set, 1-D kernels (family `misaligned`): copy or scale
 * whose accesses sit off the natural boundaries: every work-item's element shifted by 33
 * (wrapping round at n), float4 starting at element 7 with the first seven elements peeled
 * off, and copies whose loads and stores are aligned differently (a float3 one float past a
 * 16-byte boundary loaded and an aligned float4 stored, or an aligned float4 loaded and a
 * float2 stored one float past its boundary).  Elements past the last whole vector go one by
 * one.  Launches in kernels.tsv. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_Y 1
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 1
#endif

/* Elements first .. n-1 times factor, one by one.  A macro, not a function: LOAD and STORE
 * record into the kernel's own trace variables. */
#define COPY_TAIL(first, factor)                                                            \
    for (size_t i_ = (first); i_ < n; i_++)                                                 \
        STORE(out, i_, LOAD(in, i_) * (factor))

/* Work-item j takes element (j + 33) mod n: a warp's 32 elements start one float into a
 * line and end on the first float of the next, and the last 33 work-items wrap to the
 * start. */
__kernel void copy_shift33_wrap(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t j = get_global_id(0);
    if (j < n) {
        size_t i = (j + 33) % n;
        STORE(out, i, LOAD(in, i));
    }
}

/* float4 q covers elements 7 + 4q .. 10 + 4q, loaded and stored as vload4 / vstore4 at
 * in + 7 + 4q (12 bytes past a 16-byte boundary, so each vector straddles two); work-item 0
 * also does the peeled head, elements 0 .. 6, and the work-item just past the last whole
 * vector the tail. */
__kernel void scale_vec4_off7_peel(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n > 7 ? (n - 7) / 4 : 0;
    if (q == 0)
        for (size_t i = 0; i < 7 && i < n; i++)
            STORE(out, i, LOAD(in, i) * 2);
    if (q < n4)
        VSTORE(4, VLOAD(4, 0, in + 7 + 4 * q) * 2.0f, 0, out + 7 + 4 * q);
    else if (q == n4)
        COPY_TAIL(7 + 4 * n4, 2);
}

/* Loads misaligned, stores aligned: work-item q loads element 4q as a scalar and elements
 * 4q + 1 .. 4q + 3 as one vload3 at in + 4q + 1 (4 bytes past a 16-byte boundary), then
 * stores all four as one aligned float4. */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void copy_ld_v3_st_v4(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4;
    if (q < n4) {
        float3 t = VLOAD(3, 0, in + 4 * q + 1);
        float4 v;
        v.x = LOAD(in, 4 * q);
        v.y = t.x;
        v.z = t.y;
        v.w = t.z;
        VSTORE(4, v, q, out);
    } else if (q == n4) {
        COPY_TAIL(4 * n4, 1);
    }
}

/* Loads aligned, stores misaligned: an aligned float4 per work-item, stored as a scalar at
 * 4q, a vstore2 at out + 4q + 1 (4 bytes past an 8-byte boundary) and a scalar at 4q + 3. */
__kernel void scale_ld_v4_st_v2(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t q = get_global_id(0), n4 = n / 4;
    if (q < n4) {
        float4 v = VLOAD(4, q, in) * 2.0f;
        float2 m;
        m.x = v.y;
        m.y = v.z;
        STORE(out, 4 * q, v.x);
        VSTORE(2, m, 0, out + 4 * q + 1);
        STORE(out, 4 * q + 3, v.w);
    } else if (q == n4) {
        COPY_TAIL(4 * n4, 2);
    }
}
