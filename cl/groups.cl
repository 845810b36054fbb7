/* groups.cl - a[i] = a[i] * 2 + 1 in place, one element per work-item, in work-groups of
 * GROUP work-items (the host's -DGROUP).  Each work-item loads once, stores and leaves, so
 * the loads a compute unit keeps in flight come from the work-items it holds at each
 * moment: a work-group's place frees only when its last work-item is done, and the next
 * group starts as a whole.  And the same through __local (groups_staged): every work-item
 * of the group loads, then all wait at a barrier before any stores, as a tile staged for a
 * transpose does; and staged with ITEMS (4) elements a work-item, all loaded before the
 * barrier (groups_staged4), as a tile transpose's rows are.  The shape is declared because
 * NVIDIA's compiler allows only 256 work-items to a kernel that does not declare it. */
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

/* staged4: the staged copy of a chunk of ITEMS * GROUP elements a group, work-item l taking
 * elements l + j GROUP of it (j < ITEMS), mirrored through __local (a last chunk short of a
 * whole one in place).  Each work-item loads all of its elements into registers, then
 * stores them into the tile: ITEMS loads in flight before the barrier, where the staged
 * rows have one; the profile reads the two as a group's life, a fixed part and a part per
 * element (clc_profile_staged). */
#define ITEMS 4

__attribute__((reqd_work_group_size(GROUP, 1, 1)))
__kernel void groups_staged4(__global T *a, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[ITEMS * GROUP];
    size_t l = get_local_id(0), first = get_group_id(0) * ITEMS * GROUP;
    bool whole = first + ITEMS * GROUP <= n;
    T v[ITEMS];
    for (uint j = 0; j < ITEMS; j++) {
        v[j] = 0;
        if (first + l + j * GROUP < n)
            v[j] = LOAD(a, first + l + j * GROUP);
    }
    for (uint j = 0; j < ITEMS; j++)
        LSTORE(tile, l + j * GROUP, v[j]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < ITEMS; j++) {
        size_t e = l + j * GROUP;
        if (first + e < n)
            STORE(a, first + e, LLOAD(tile, whole ? ITEMS * GROUP - 1 - e : e) * 2 + 1);
    }
}
