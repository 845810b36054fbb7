/* rowsum.cl - out[r] = the sum of row r of a rows x cols row-major matrix.
 *
 * thread_per_row: one work-item per row walks its row; at each step the 32 lanes of a warp
 * read 32 different rows, `cols` elements apart: one sector per lane per load.
 * group_per_row: one work-group of GROUP work-items per row; at each step they read GROUP
 * consecutive elements (coalesced), then combine their partial sums with a tree in __local
 * memory (OpenCL C 1.2 has no work-group reduction).  The host builds it with -DGROUP=<a
 * power of two>. */
#include "clc.h"

#ifndef GROUP
#define GROUP 256
#endif

__kernel void thread_per_row(__global const T *m, __global T *out, ulong rows,
                             ulong cols CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t r = get_global_id(0);
    if (r >= rows)
        return;
    T s = 0;
    for (size_t c = 0; c < cols; c++)
        s += LOAD(m, r * cols + c);
    STORE(out, r, s);
}

__kernel void group_per_row(__global const T *m, __global T *out, ulong rows,
                            ulong cols CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T part[GROUP];
    size_t r = get_group_id(0), l = get_local_id(0);
    T s = 0;
    for (size_t c = l; c < cols; c += GROUP)
        s += LOAD(m, r * cols + c);
    LSTORE(part, l, s);
    /* halve the active work-items each step; every work-item reaches every barrier */
    for (uint step = GROUP / 2; step > 0; step /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < step)
            LSTORE(part, l, LLOAD(part, l) + LLOAD(part, l + step));
    }
    if (l == 0)
        STORE(out, r, LLOAD(part, 0));
}
