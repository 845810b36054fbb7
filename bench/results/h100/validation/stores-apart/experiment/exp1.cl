/* exp1.cl - the kernels of the stores-apart experiment (exp.tsv, under `validate`): a block of
 * B = 4 x local elements loaded coalesced into __local (padded a word every 32), then each
 * work-item stores 4 neighbouring elements (lanes 16 bytes apart, 4 lines a request):
 * x_scale_guarded / x_copy_guarded test every load and store against n; x_scale_whole takes
 * whole blocks untested (as the runs case's `local` rows); x_scale_ldguard tests the loads
 * and stores whole blocks untested; x_scale_nolocal stores the same runs from registers,
 * every access tested.  Launched with 256 and 128 work-items a group. */
#include "clc.h"
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif
#define B (CLC_LOCAL_X * 4)
#define PADI(e) ((e) + (e) / 32)

/* guarded stores, factor F */
#define BODY_GUARDED(F)                                                                   \
    __local T t[B + B / 32];                                                              \
    size_t l = get_local_id(0), base = get_group_id(0) * B;                              \
    for (uint k = 0; k < 4; k++) {                                                        \
        size_t e = l + CLC_LOCAL_X * k;                                                   \
        if (base + e < n)                                                                 \
            LSTORE(t, PADI(e), LOAD(in, base + e));                                       \
    }                                                                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                         \
    for (uint k = 0; k < 4; k++) {                                                        \
        size_t e = 4 * l + k;                                                             \
        if (base + e < n)                                                                 \
            STORE(out, base + e, LLOAD(t, PADI(e)) * F);                                  \
    }

__kernel void x_scale_guarded(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    BODY_GUARDED(2)
}
__kernel void x_copy_guarded(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    BODY_GUARDED(1)
}
/* whole blocks unguarded, as the runs case */
__kernel void x_scale_whole(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[B + B / 32];
    size_t l = get_local_id(0), base = get_group_id(0) * B;
    if (base + B <= n) {
        for (uint k = 0; k < 4; k++)
            LSTORE(t, PADI(l + CLC_LOCAL_X * k), LOAD(in, base + l + CLC_LOCAL_X * k));
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < 4; k++)
            STORE(out, base + 4 * l + k, LLOAD(t, PADI(4 * l + k)) * 2);
    } else {
        for (uint k = 0; k < 4; k++)
            if (base + l + CLC_LOCAL_X * k < n)
                STORE(out, base + l + CLC_LOCAL_X * k, LOAD(in, base + l + CLC_LOCAL_X * k) * 2);
    }
}
/* guarded loads, unguarded stores in whole blocks */
__kernel void x_scale_ldguard(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[B + B / 32];
    size_t l = get_local_id(0), base = get_group_id(0) * B;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + CLC_LOCAL_X * k;
        if (base + e < n)
            LSTORE(t, PADI(e), LOAD(in, base + e));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + B <= n) {
        for (uint k = 0; k < 4; k++)
            STORE(out, base + 4 * l + k, LLOAD(t, PADI(4 * l + k)) * 2);
    } else {
        for (uint k = 0; k < 4; k++)
            if (base + 4 * l + k < n)
                STORE(out, base + 4 * l + k, LLOAD(t, PADI(4 * l + k)) * 2);
    }
}
/* no __local: the same stores from registers (loads coalesced, stored 4 a lane) */
__kernel void x_scale_nolocal(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), base = get_group_id(0) * B;
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n)
            STORE(out, base + e, LOAD(in, base + e) * 2);
    }
}
