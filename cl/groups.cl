/* groups.cl - a[i] = a[i] * 2 + 1 in place, one element per work-item, in work-groups of
 * GROUP work-items (the host's -DGROUP).  Each work-item loads once, stores and leaves, so
 * the loads a compute unit keeps in flight come from the work-items it holds at each
 * moment: a work-group's place frees only when its last work-item is done, and the next
 * group starts as a whole.  The shape is declared because NVIDIA's compiler allows only 256
 * work-items to a kernel that does not declare it. */
#include "clc.h"

__attribute__((reqd_work_group_size(GROUP, 1, 1)))
__kernel void groups(__global T *a, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(a, i, LOAD(a, i) * 2 + 1);
}
