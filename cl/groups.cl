/* groups.cl - a[i] = a[i] * 2 + 1 in place, one element per work-item, in work-groups of
 * GROUP work-items (the host's -DGROUP).  Each work-item loads once, stores and leaves, so
 * the loads a compute unit keeps in flight come from the work-items it holds at each
 * moment: a work-group's place frees only when its last work-item is done, and the next
 * group starts as a whole.  And the same through __local (groups_staged): every work-item
 * of the group loads, then all wait at a barrier before any stores, as a tile staged for a
 * transpose does.  The shape is declared because NVIDIA's compiler allows only 256
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

/* staged: the group's elements in mirrored order, a[first + l] = a[first + GROUP - 1 - l] *
 * 2 + 1, through __local; a last group short of GROUP takes its own elements in place.
 * Every work-item loads before the barrier, so the update in place reads only old values. */
__attribute__((reqd_work_group_size(GROUP, 1, 1)))
__kernel void groups_staged(__global T *a, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[GROUP];
    size_t i = get_global_id(0), l = get_local_id(0);
    bool whole = i - l + GROUP <= n;
    if (i < n)
        LSTORE(tile, l, LOAD(a, i));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n)
        STORE(a, i, LLOAD(tile, whole ? GROUP - 1 - l : l) * 2 + 1);
}
