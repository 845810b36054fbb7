/* clc_trace.h - the trace build of the access macros (cl/clc.h includes it under
 * -DCLC_TRACE).  The host's access model rebuilds a timed kernel with it, launches it once
 * with the same arguments and sizes, and reads back the byte address of every global access.
 *
 * Trace buffer layout: work-items of the first `clc_trace_groups` work-groups (group linear
 * id, x fastest) record; work-item w = group * local size + local linear id owns the
 * 2 * clc_trace_slots words at clc_trace + w * 2 * clc_trace_slots.  Its k-th global access
 * (in program order) fills words 2k and 2k + 1:
 *     word 2k     = the byte address of the first byte accessed
 *     word 2k + 1 = (access size in bytes << 1) | 1 for a store, 0 for a load
 * The host zero-fills the buffer, so a second word of 0 marks an unused slot.  Accesses past
 * the last slot are done but not recorded; other work-groups run without recording.
 *
 * The index is evaluated once (it can itself be a LOAD, as in a gather): the recorder takes
 * the base pointer and the index and hands the index back.  The pointer expression is
 * evaluated twice, so it must have no side effects. */
#ifndef CLC_TRACE_H
#define CLC_TRACE_H

#define CLC_TRACE_ARGS , __global ulong *clc_trace, uint clc_trace_slots, uint clc_trace_groups

/* This work-item's first slot, or 0 when its work-group is not traced. */
__global ulong *clc_trace_base(__global ulong *trace, uint slots, uint groups)
{
    size_t g = get_group_id(0) +
               get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
    if (g >= groups)
        return 0;
    size_t wg = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t l = get_local_id(0) +
               get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
    return trace + (g * wg + l) * 2 * (size_t)slots;
}

/* Records the access to base + i * size (size bytes) and returns i. */
long clc_trace_ix(__global ulong *t, uint *count, uint slots, ulong base, long i, uint size,
                  uint store)
{
    uint k = *count;
    if (t != 0 && k < slots) {
        t[2 * (size_t)k] = base + (ulong)i * size;
        t[2 * (size_t)k + 1] = ((ulong)size << 1) | store;
    }
    *count = k + 1;
    return i;
}

#define CLC_TRACE_BEGIN                                                                     \
    __global ulong *clc_trace_p = clc_trace_base(clc_trace, clc_trace_slots, clc_trace_groups); \
    uint clc_trace_n = 0;

#define CLC_TRACE_IX_(p, i, size, store)                                                    \
    clc_trace_ix(clc_trace_p, &clc_trace_n, clc_trace_slots, (ulong)(p), (long)(i),         \
                 (uint)(size), (store))

#define LOAD(p, i) ((p)[CLC_TRACE_IX_(p, i, sizeof((p)[0]), 0u)])
#define STORE(p, i, v) ((p)[CLC_TRACE_IX_(p, i, sizeof((p)[0]), 1u)] = (v))
/* vloadN / vstoreN touch N elements at p + N * i: one access of N * sizeof(*p) bytes. */
#define VLOAD(n, i, p) vload##n((size_t)CLC_TRACE_IX_(p, i, (n) * sizeof((p)[0]), 0u), (p))
#define VSTORE(n, v, i, p) vstore##n((v), (size_t)CLC_TRACE_IX_(p, i, (n) * sizeof((p)[0]), 1u), (p))

#endif
