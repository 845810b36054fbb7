/* tile transposes whose loads go straight into __local, guarded several ways (exploration) */
#include "clc.h"
#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 32
#define CLC_LOCAL_Y 8
#define CLC_ITEMS 4
#endif
#define TL (CLC_LOCAL_Y * CLC_ITEMS) /* rows of the tile */

#define BODY_STORE                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    for (uint j = 0; j < TL; j += CLC_LOCAL_Y)                                              \
        if (by + lx < height && bx + ly + j < width)                                        \
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(t[lx], ly + j));

/* two conditions, && */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void hg_and(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * TL;
    for (uint j = 0; j < TL; j += CLC_LOCAL_Y)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    BODY_STORE
}

/* two conditions, & */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void hg_amp(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * TL;
    for (uint j = 0; j < TL; j += CLC_LOCAL_Y)
        if ((bx + lx < width) & (by + ly + j < height))
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    BODY_STORE
}

/* one condition */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void hg_one(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * TL;
    for (uint j = 0; j < TL; j += CLC_LOCAL_Y)
        if (by + ly + j < height)
            LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    BODY_STORE
}

/* no guard */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void hg_none(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * TL;
    for (uint j = 0; j < TL; j += CLC_LOCAL_Y)
        LSTORE(t[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    BODY_STORE
}

/* &&, loaded into registers first, then stored into the tile */
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
__kernel void hg_regs(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T t[32][33];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * 32, by = get_group_id(1) * TL;
    T v[CLC_ITEMS];
    for (uint j = 0; j < CLC_ITEMS; j++)
        v[j] = bx + lx < width && by + ly + j * CLC_LOCAL_Y < height
                   ? LOAD(in, (by + ly + j * CLC_LOCAL_Y) * width + bx + lx) : 0;
    for (uint j = 0; j < CLC_ITEMS; j++)
        LSTORE(t[ly + j * CLC_LOCAL_Y], lx, v[j]);
    BODY_STORE
}
