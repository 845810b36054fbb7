/* The first form of groups_staged4_rows that registers/ ran (sources of 7d7064b, not kept in
 * the history): the same kernel as 2d7389c's cl/groups.cl, but loading into registers first,
 * as cl/transpose.cl's tiles do.  To run it, put it in place of that kernel at 2d7389c. */
__attribute__((reqd_work_group_size(GROUP, 1, 1)))
__kernel void groups_staged4_rows(__global T *a, ulong width, ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[ITEMS][GROUP];
    uint l = get_local_id(0);
    size_t bx = get_group_id(0) * GROUP, by = get_group_id(1) * ITEMS;
    bool whole = bx + GROUP <= width;
    T v[ITEMS];
    for (uint j = 0; j < ITEMS; j++)
        if (bx + l < width && by + j < height)
            v[j] = LOAD(a, (by + j) * width + bx + l);
    for (uint j = 0; j < ITEMS; j++)
        LSTORE(tile[j], l, v[j]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < ITEMS; j++)
        if (bx + l < width && by + j < height)
            STORE(a, (by + j) * width + bx + l, LLOAD(tile[j], whole ? GROUP - 1 - l : l) * 2 + 1);
}
