/* clc_trace.h - the trace build of the access macros (cl/clc.h includes it under
 * -DCLC_TRACE).  The host rebuilds a kernel with it and launches it once with the same
 * arguments and sizes: the first work-groups record the byte address of every global access
 * (the access model reads them), and every work-item checks every access against the
 * buffers the launch was given, so an access outside them is found and named instead of done.
 *
 * The trace buffer, in 64-bit words (host/driver/trace.c reads it with the same layout):
 *     [0]                 the number of buffers, at most CLC_TRACE_MAX_BOUNDS
 *     [1 + 2b], [2 + 2b]  buffer b's first byte address and one past its last
 *     [17]                accesses outside every buffer, counted in its low 32 bits
 *     [18 .. 21]          the first such access: work-item (linear global id), byte
 *                         address, (size << 1) | is_store, and the pointer it was made through
 *     [32 .. 127]         a scratch area: an access outside the buffers is done here instead
 *     [CLC_TRACE_HEADER + w * 2 * slots ...]  work-item w's records (w = group linear id *
 *                         local size + local linear id, for the first clc_trace_groups groups)
 * A record is two words: the byte address of the first byte accessed, then
 * (access size in bytes << 1) | 1 for a store, 0 for a load.  The host zero-fills the
 * records, so a second word of 0 marks an unused slot.  Accesses past the last slot are
 * checked and done but not recorded.
 *
 * The index is evaluated once (it can itself be a LOAD, as in a gather): the recorder takes
 * the base pointer and the index and hands back the index, or one that lands in the scratch
 * area.  The pointer expression is evaluated more than once, so it must have no side
 * effects. */
#ifndef CLC_TRACE_H
#define CLC_TRACE_H

#define CLC_TRACE_HEADER 128
#define CLC_TRACE_MAX_BOUNDS 8
#define CLC_TRACE_FAULTS 17
#define CLC_TRACE_SCRATCH 64 /* in the scratch area with 128 bytes below and 256 above */

#define CLC_TRACE_ARGS , __global ulong *clc_trace, uint clc_trace_slots, uint clc_trace_groups

/* This work-item's first record, or 0 when its work-group is not traced. */
__global ulong *clc_trace_base(__global ulong *trace, uint slots, uint groups)
{
    size_t g = get_group_id(0) +
               get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
    if (g >= groups)
        return 0;
    size_t wg = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t l = get_local_id(0) +
               get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
    return trace + CLC_TRACE_HEADER + (g * wg + l) * 2 * (size_t)slots;
}

/* Records the first access outside the buffers (the others are only counted). */
void clc_trace_fault(__global ulong *trace, ulong base, ulong addr, uint size, uint store)
{
    if (atomic_inc((volatile __global uint *)&trace[CLC_TRACE_FAULTS]) == 0) {
        trace[18] = get_global_id(0) +
                    get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
        trace[19] = addr;
        trace[20] = ((ulong)size << 1) | store;
        trace[21] = base;
    }
}

/* Checks the access to base + i * size (size bytes), records it when this work-item is
 * traced, and returns i, or an index that lands in the scratch area when the access lies
 * outside every buffer (i's distance from the scratch area, in accesses of size bytes). */
long clc_trace_ix(__global ulong *trace, __global ulong *t, uint *count, uint slots, ulong base,
                  long i, uint size, uint store)
{
    ulong addr = base + (ulong)i * size;
    uint k = *count, inside = 0;
    ulong nb = trace[0] < CLC_TRACE_MAX_BOUNDS ? trace[0] : CLC_TRACE_MAX_BOUNDS;
    for (uint b = 0; b < nb; b++)
        inside |= addr >= trace[1 + 2 * b] && addr + size <= trace[2 + 2 * b] &&
                  addr + size > addr;
    if (t != 0 && k < slots) {
        t[2 * (size_t)k] = addr;
        t[2 * (size_t)k + 1] = ((ulong)size << 1) | store;
    }
    *count = k + 1;
    if (inside)
        return i;
    clc_trace_fault(trace, base, addr, size, store);
    return ((long)(ulong)&trace[CLC_TRACE_SCRATCH] - (long)base) / (long)size;
}

#define CLC_TRACE_BEGIN                                                                     \
    __global ulong *clc_trace_p = clc_trace_base(clc_trace, clc_trace_slots, clc_trace_groups); \
    uint clc_trace_n = 0;

#define CLC_TRACE_IX_(p, i, size, store)                                                    \
    clc_trace_ix(clc_trace, clc_trace_p, &clc_trace_n, clc_trace_slots, (ulong)(p),         \
                 (long)(i), (uint)(size), (store))

#define LOAD(p, i) ((p)[CLC_TRACE_IX_(p, i, sizeof((p)[0]), 0u)])
#define STORE(p, i, v) ((p)[CLC_TRACE_IX_(p, i, sizeof((p)[0]), 1u)] = (v))
/* vloadN / vstoreN touch N elements at p + N * i: one access of N * sizeof(*p) bytes. */
#define VLOAD(n, i, p) vload##n((size_t)CLC_TRACE_IX_(p, i, (n) * sizeof((p)[0]), 0u), (p))
#define VSTORE(n, v, i, p) vstore##n((v), (size_t)CLC_TRACE_IX_(p, i, (n) * sizeof((p)[0]), 1u), (p))

#endif
