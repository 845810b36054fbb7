#include "clc.h"
#define TX CLC_LOCAL_X
#define TY (CLC_LOCAL_Y * CLC_ITEMS)
#if TX != TY
#error "square tiles only"
#endif
#if CLC_LOCAL_X * CLC_LOCAL_Y > 256
__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))
#endif
__kernel void tp(__global const T *in, __global T *out, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[TY][TX + 1];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t x0 = get_group_id(0) * TX, y0 = get_group_id(1) * TY;
    T v[CLC_ITEMS];
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t x = x0 + lx, y = y0 + ly + j * CLC_LOCAL_Y;
        if (x < width && y < height)
            v[j] = LOAD(in, y * width + x);
    }
    for (uint j = 0; j < CLC_ITEMS; j++)
        tile[ly + j * CLC_LOCAL_Y][lx] = v[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < CLC_ITEMS; j++) {
        size_t oy = x0 + ly + j * CLC_LOCAL_Y, ox = y0 + lx;
        T w = tile[lx][ly + j * CLC_LOCAL_Y];
        if (oy < width && ox < height)
            STORE(out, oy * height + ox, w);
    }
}
