/* work.cl - the kernels of the integer-work experiment (work.tsv, under `validate`): a copy
 * where each work-group moves one block of CLC_LOCAL_X * CLC_ITEMS consecutive elements, a
 * group's width a step (coalesced), after integer work that leaves every index as it is
 * (`z` is 0 at run time, n >> 62, which the compiler cannot see through):
 *   x_base          no work;
 *   x_uloopK        K rounds of u = u * (1 + z) + z on the group's id before the loads (the
 *                   same value in every lane of a warp), each round needing the last;
 *   x_vloopK        the same rounds on the work-item's global id (a value each lane has);
 *   x_div64_big     each element's index through a 64-bit division by a length known only
 *                   at run time, of a number past 2^32 (the full 64-bit path);
 *   x_div64_small   the same of a number below 2^32 (the compiler's 32-bit shortcut);
 *   x_div32         the same in 32 bits.
 * Each kernel at 1, 4 and 16 elements a work-item: whether the work costs its instructions
 * (per element, shared out over the elements) or the time a warp spends on it before its
 * first load (per work-item, whatever it moves). */
#include "clc.h"
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 256
#endif
#ifndef CLC_ITEMS
#define CLC_ITEMS 4
#endif

#define MOVE(idx)                                                                         \
    for (uint k_ = 0; k_ < CLC_ITEMS; k_++) {                                             \
        size_t i_ = get_group_id(0) * CLC_LOCAL_X * CLC_ITEMS + k_ * CLC_LOCAL_X +        \
                    get_local_id(0);                                                      \
        if (i_ < n)                                                                       \
            STORE(out, idx, LOAD(in, idx));                                               \
    }

__kernel void x_base(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    MOVE(i_)
}

#define LOOPS(K)                                                                          \
    __kernel void x_uloop##K(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS) \
    {                                                                                     \
        CLC_TRACE_BEGIN                                                                   \
        size_t z = n >> 62, u = get_group_id(0);                                          \
        for (uint r = 0; r < K; r++)                                                      \
            u = u * (1 + z) + z;                                                          \
        size_t s = u - get_group_id(0); /* 0 */                                           \
        MOVE(i_ + s)                                                                      \
    }                                                                                     \
    __kernel void x_vloop##K(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS) \
    {                                                                                     \
        CLC_TRACE_BEGIN                                                                   \
        size_t z = n >> 62, u = get_global_id(0);                                         \
        for (uint r = 0; r < K; r++)                                                      \
            u = u * (1 + z) + z;                                                          \
        size_t s = u - get_global_id(0); /* 0 */                                          \
        MOVE(i_ + s)                                                                      \
    }
LOOPS(8)
LOOPS(32)
LOOPS(128)

/* index + (index + big) / d * z: d a length known at run time, z = 0 */
__kernel void x_div64_big(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t z = n >> 62, d = n / 1000 + 1;
    MOVE(i_ + (i_ + ((size_t)1 << 40)) / d * z)
}

__kernel void x_div64_small(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t z = n >> 62, d = n / 1000 + 1;
    MOVE(i_ + i_ / d * z)
}

__kernel void x_div32(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    uint z = (uint)(n >> 62), d = (uint)(n / 1000 + 1);
    MOVE(i_ + (uint)i_ / d * z)
}
