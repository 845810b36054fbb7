/* clc_trace.h - the trace build of the access macros (cl/clc.h includes it under
 * -DCLC_TRACE).  The host rebuilds a kernel with it and launches it once with the same
 * arguments and sizes: the first work-groups record the byte address of every global and
 * every __local access (the access model reads them), and every work-item checks every
 * global access against the buffers the launch was given, so an access outside them is
 * found and named instead of done.
 *
 * The trace buffer, in 64-bit words (host/driver/trace.c reads it with the same layout):
 *     [0]                 the number of buffers, at most CLC_TRACE_MAX_BOUNDS
 *     [1 + 2b], [2 + 2b]  buffer b's first byte address and one past its last
 *     [17]                accesses outside every buffer, counted in its low 32 bits
 *     [18 .. 21]          the first such access: work-item (linear global id), byte
 *                         address, (size << 1) | is_store, and the pointer it was made through
 *     [22], [23]          the wide sample: its work-groups and slots per work-item (below)
 *     [24]                the lowest work-item with such an access, in its low 32 bits (the
 *                         host sets them to 0xffffffff)
 *     [25], [26]          the work-item whose first such access [18 .. 21] are to hold
 *                         (~0: the first in time), and how often it had one (low 32 bits):
 *                         the host launches again for the lowest, so the work-item it names
 *                         does not depend on the order work-groups ran in
 *     [27]                where the byte maps begin, in words; 0: none (below)
 *     [28]                the wide sample's width in work-groups along dimension 0: its
 *                         groups a block [28] wide and [22] / [28] rows tall; 0: the first
 *                         [22] groups in order
 *     [32 .. 127]         a scratch area: an access outside the buffers is done here instead
 *     [CLC_TRACE_HEADER + w * 2 * slots ...]  work-item w's records of global accesses
 *                         (w = group linear id * local size + local linear id, for the
 *                         first clc_trace_groups groups: items = groups * local size)
 *     [CLC_TRACE_HEADER + (items + w) * 2 * slots ...]  its records of __local accesses,
 *                         as many slots, counted apart
 *     [CLC_TRACE_HEADER + 2 * items * 2 * slots + w * 2 * 2 * wide_slots ...]  the wide
 *                         sample: the first [23] global loads, then the first [23] stores,
 *                         of each work-item of the first [22] groups; a sample wide enough
 *                         to see what L2 reuses between groups
 *     [[27] ...]          the byte maps, when the host asks for them: for each buffer b
 *                         in turn, a bit per byte it read, then a bit per byte it wrote, each
 *                         map ceil(bytes of b / 32) 32-bit words; every work-item marks every
 *                         access inside the buffers, so the host counts the distinct bytes
 *                         the whole launch read and wrote
 * A record is two words: the byte address of the first byte accessed, then
 * (access size in bytes << 1) | 1 for a store, 0 for a load, with CLC_TRACE_DEPENDENT set
 * on a load whose index is the value the work-item's previous access, a load of 4 or 8
 * bytes, returned (a gather's idx[i]): it cannot be issued before that load returns.  The
 * host zero-fills the records, so a second word of 0 marks an unused slot.  Accesses past
 * the last slot are checked and done but not recorded.
 *
 * A __local address is the integer value of the __local pointer (a window offset on a GPU,
 * a host address under PoCL, a generic address under CUDA): the banks need only its value
 * modulo 128 and the distances between lanes (bank = address / width % banks).
 * __local accesses are only recorded, and done as they are: they lie in none of the
 * buffers, so the bounds check has nothing to hold them against.
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
#define CLC_TRACE_WIDE_GROUPS 22
#define CLC_TRACE_WIDE_SLOTS 23
#define CLC_TRACE_WIDE_WIDTH 28
#define CLC_TRACE_LOWEST 24
#define CLC_TRACE_WANT 25
#define CLC_TRACE_WANT_SEEN 26
#define CLC_TRACE_MAPS 27
#define CLC_TRACE_SCRATCH 64 /* in the scratch area with 128 bytes below and 256 above */
#define CLC_TRACE_DEPENDENT ((ulong)1 << 32)

#define CLC_TRACE_PARAMS_ __global ulong *clc_trace, uint clc_trace_slots, uint clc_trace_groups
#define CLC_TRACE_ARGS , CLC_TRACE_PARAMS_

/* With -DCLC_TRACE_CALLS (the host's choice on a GPU) the recorders are compiled once per
 * kernel and called from every access: inlined at every access, the trace builds took NVIDIA's
 * compilers twice as long as the timed builds.  On a CPU they stay inlined: PoCL runs a
 * work-group's items in vector lanes, which a call breaks (the trace launch took 4x longer). */
#ifdef CLC_TRACE_CALLS
#define CLC_TRACE_CALL __attribute__((noinline))
#else
#define CLC_TRACE_CALL
#endif

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

/* This work-item's first __local record (the region after every traced work-item's global
 * records), or 0 when it is not traced; t is its first global record. */
__global ulong *clc_trace_local(__global ulong *t, uint slots, uint groups)
{
    if (t == 0)
        return 0;
    size_t wg = get_local_size(0) * get_local_size(1) * get_local_size(2);
    return t + (size_t)groups * wg * 2 * (size_t)slots;
}

/* This work-item's first record in the wide sample, or 0 when its group is not in it. */
__global ulong *clc_trace_wide(__global ulong *trace, uint slots, uint groups)
{
    size_t g = get_group_id(0) +
               get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
    size_t width = trace[CLC_TRACE_WIDE_WIDTH];
    if (width > 0) { /* a block: the rows' first `width` groups */
        size_t row = g / get_num_groups(0), column = g % get_num_groups(0);
        if (column >= width)
            return 0;
        g = row * width + column;
    }
    if (g >= trace[CLC_TRACE_WIDE_GROUPS])
        return 0;
    size_t wg = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t l = get_local_id(0) +
               get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
    return trace + CLC_TRACE_HEADER + 2 * (size_t)groups * wg * 2 * (size_t)slots +
           (g * wg + l) * 2 * 2 * trace[CLC_TRACE_WIDE_SLOTS];
}

/* Counts an access outside the buffers, keeps the lowest work-item that made one, and
 * records the first access of the work-item wanted (or the first in time). */
void clc_trace_fault(__global ulong *trace, ulong base, ulong addr, uint size, uint store)
{
    ulong item = get_global_id(0) +
                 get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
    atomic_min((volatile __global uint *)&trace[CLC_TRACE_LOWEST],
               item < 0xffffffffUL ? (uint)item : 0xfffffffeu);
    uint before = atomic_inc((volatile __global uint *)&trace[CLC_TRACE_FAULTS]);
    ulong want = trace[CLC_TRACE_WANT];
    bool record = want == ~(ulong)0
                      ? before == 0
                      : item == want &&
                            atomic_inc((volatile __global uint *)&trace[CLC_TRACE_WANT_SEEN]) == 0;
    if (record) {
        trace[18] = item;
        trace[19] = addr;
        trace[20] = ((ulong)size << 1) | store;
        trace[21] = base;
    }
}

/* Whether [addr, addr + size) lies inside one of the launch's buffers. */
uint clc_trace_inside(__global ulong *trace, ulong addr, uint size)
{
    uint inside = 0;
    ulong nb = trace[0] < CLC_TRACE_MAX_BOUNDS ? trace[0] : CLC_TRACE_MAX_BOUNDS;
    for (uint b = 0; b < nb; b++)
        inside |= addr >= trace[1 + 2 * b] && addr + size <= trace[2 + 2 * b] &&
                  addr + size > addr;
    return inside;
}

/* Whether [addr, addr + size), reached from the pointer base, lies inside the buffer base
 * points into: an index past one buffer's end must not pass for an access to the next one,
 * which a driver may place right after it.  A base inside no buffer (a pointer one past the
 * end, say) is held against all of them. */
uint clc_trace_inside_from(__global ulong *trace, ulong base, ulong addr, uint size)
{
    ulong nb = trace[0] < CLC_TRACE_MAX_BOUNDS ? trace[0] : CLC_TRACE_MAX_BOUNDS;
    for (uint b = 0; b < nb; b++)
        if (base >= trace[1 + 2 * b] && base < trace[2 + 2 * b])
            return addr >= trace[1 + 2 * b] && addr + size <= trace[2 + 2 * b] &&
                   addr + size > addr;
    return clc_trace_inside(trace, addr, size);
}

/* Sets the bits of mask in the 32-bit word m, unless they are set already (most accesses of
 * a stencil's or a gather's find theirs set): a compare-and-swap, which OpenCL C and the CUDA
 * form of this header both have. */
void clc_trace_mark(__global uint *m, uint mask)
{
    uint old = *(volatile __global uint *)m;
    while ((old & mask) != mask) {
        uint seen = atomic_cmpxchg((volatile __global uint *)m, old, old | mask);
        if (seen == old)
            break;
        old = seen;
    }
}

/* Marks the bytes [addr, addr + size), inside one of the buffers, read (store 0) or written
 * (store 1) in that buffer's byte map, when the host asked for the maps. */
void clc_trace_count(__global ulong *trace, ulong addr, uint size, uint store)
{
    if (trace[CLC_TRACE_MAPS] == 0)
        return;
    __global uint *map = (__global uint *)(trace + trace[CLC_TRACE_MAPS]);
    ulong nb = trace[0] < CLC_TRACE_MAX_BOUNDS ? trace[0] : CLC_TRACE_MAX_BOUNDS;
    for (uint b = 0; b < nb; b++) {
        ulong lo = trace[1 + 2 * b], hi = trace[2 + 2 * b], words = (hi - lo + 31) / 32;
        if (addr >= lo && addr + size <= hi) {
            __global uint *m = map + store * words;
            for (ulong x = addr - lo, end = addr - lo + size; x < end;) {
                uint bit = (uint)(x % 32), n = end - x < 32 - bit ? (uint)(end - x) : 32 - bit;
                clc_trace_mark(m + x / 32, n == 32 ? ~0u : ((1u << n) - 1) << bit);
                x += n;
            }
            return;
        }
        map += 2 * words;
    }
}

/* CLC_TRACE_DEPENDENT when index i of a load is the value that the previous record of this
 * work-item (t: its records, k of them so far), a load of 4 or 8 bytes inside the buffers,
 * holds; 0 otherwise. */
ulong clc_trace_dependent(__global ulong *trace, __global ulong *t, uint k, uint slots, long i)
{
    if (k == 0 || k > slots || i < 0)
        return 0;
    ulong prev = t[2 * (size_t)(k - 1)], kind = t[2 * (size_t)(k - 1) + 1];
    if (kind != (4 << 1) && kind != (8 << 1))
        return 0;
    if (!clc_trace_inside(trace, prev, (uint)(kind >> 1)))
        return 0;
    ulong v = kind == (4 << 1) ? (ulong)*(__global const uint *)prev
                               : *(__global const ulong *)prev;
    return v == (ulong)i ? CLC_TRACE_DEPENDENT : 0;
}

/* Checks the access to base + i * size (size bytes), records it when this work-item is
 * traced (t, and wide in the wide sample), and returns i, or an index that lands in the
 * scratch area when the access lies outside every buffer (i's distance from the scratch
 * area, in accesses of size bytes). */
CLC_TRACE_CALL long clc_trace_ix(__global ulong *trace, __global ulong *t, __global ulong *wide,
                                 uint *count, uint *wcount, uint slots, ulong base, long i,
                                 uint size, uint store)
{
    ulong addr = base + (ulong)i * size;
    uint k = *count, inside = clc_trace_inside_from(trace, base, addr, size);
    if (t != 0 && k < slots) {
        t[2 * (size_t)k] = addr;
        t[2 * (size_t)k + 1] = ((ulong)size << 1) | store |
                               (store ? 0 : clc_trace_dependent(trace, t, k, slots, i));
    }
    if (wide != 0) {
        uint ws = (uint)trace[CLC_TRACE_WIDE_SLOTS], wk = wcount[store];
        if (wk < ws) {
            __global ulong *w = wide + 2 * ((size_t)store * ws + wk);
            w[0] = addr;
            w[1] = ((ulong)size << 1) | store;
        }
        wcount[store] = wk + 1;
    }
    *count = k + 1;
    if (inside) {
        clc_trace_count(trace, addr, size, store);
        return i;
    }
    clc_trace_fault(trace, base, addr, size, store);
    return ((long)(ulong)&trace[CLC_TRACE_SCRATCH] - (long)base) / (long)size;
}

/* Records the __local access to base + i * size (size bytes) in this work-item's next
 * __local slot when it is traced (t != 0), and returns i unchanged. */
CLC_TRACE_CALL long clc_trace_lix(__global ulong *t, uint *count, uint slots, ulong base,
                                  long i, uint size, uint store)
{
    uint k = *count;
    if (t != 0 && k < slots) {
        t[2 * (size_t)k] = base + (ulong)i * size;
        t[2 * (size_t)k + 1] = ((ulong)size << 1) | store;
    }
    *count = k + 1;
    return i;
}

/* clc_trace_ix for vloadN / vstoreN: the N elements of size bytes at base + N * i, each its
 * own access.  OpenCL asks p only for an element's alignment, so a GPU's compiler that
 * cannot prove more issues them one element at a time: a warp's first store of a float8
 * writes every lane's sector in part, and seven more fill them (NVIDIA's, on both APIs, as
 * the runs case's store rows show).  Returns i, or an index in the scratch area when an
 * element lies outside every buffer. */
CLC_TRACE_CALL long clc_trace_vix(__global ulong *trace, __global ulong *t, __global ulong *wide,
                                  uint *count, uint *wcount, uint slots, ulong base, long i,
                                  uint n, uint size, uint store)
{
    long r = i;
    for (uint j = 0; j < n; j++) {
        long e = i * (long)n + (long)j;
        if (clc_trace_ix(trace, t, wide, count, wcount, slots, base, e, size, store) != e)
            r = ((long)(ulong)&trace[CLC_TRACE_SCRATCH] - (long)base) / (long)(n * size);
    }
    return r;
}

/* clc_trace_p / clc_trace_n: global records and their count; clc_trace_wp / clc_trace_wn:
 * the wide sample's, loads and stores counted apart; clc_trace_lp / clc_trace_ln: __local
 * ones.  The void casts keep kernels without __local accesses free of unused-variable
 * warnings (NVRTC's "set but never used" goes only once the counter's address is taken). */
#define CLC_TRACE_BEGIN                                                                     \
    __global ulong *clc_trace_p = clc_trace_base(clc_trace, clc_trace_slots, clc_trace_groups); \
    uint clc_trace_n = 0;                                                                   \
    __global ulong *clc_trace_wp = clc_trace_wide(clc_trace, clc_trace_slots, clc_trace_groups); \
    uint clc_trace_wn[2] = {0, 0};                                                          \
    __global ulong *clc_trace_lp = clc_trace_local(clc_trace_p, clc_trace_slots,            \
                                                   clc_trace_groups);                       \
    uint clc_trace_ln = 0;                                                                  \
    (void)clc_trace_lp;                                                                     \
    (void)&clc_trace_ln;

#define CLC_TRACE_IX_(p, i, size, store)                                                    \
    clc_trace_ix(clc_trace, clc_trace_p, clc_trace_wp, &clc_trace_n, clc_trace_wn,          \
                 clc_trace_slots, (ulong)(p), (long)(i), (uint)(size), (store))

#define LOAD(p, i) ((p)[CLC_TRACE_IX_(p, i, sizeof((p)[0]), 0u)])
#define STORE(p, i, v) ((p)[CLC_TRACE_IX_(p, i, sizeof((p)[0]), 1u)] = (v))
/* vloadN / vstoreN touch N elements at p + N * i, an access each (clc_trace_vix). */
#define CLC_TRACE_VIX_(p, i, n, size, store)                                                \
    clc_trace_vix(clc_trace, clc_trace_p, clc_trace_wp, &clc_trace_n, clc_trace_wn,         \
                  clc_trace_slots, (ulong)(p), (long)(i), (uint)(n), (uint)(size), (store))
#define VLOAD(n, i, p) vload##n((size_t)CLC_TRACE_VIX_(p, i, n, sizeof((p)[0]), 0u), (p))
#define VSTORE(n, v, i, p) vstore##n((v), (size_t)CLC_TRACE_VIX_(p, i, n, sizeof((p)[0]), 1u), (p))

/* __local arrays: p is an array (or a row of one), whose address converts to an integer in
 * OpenCL C and in CUDA alike; the index is evaluated once, p more than once. */
#define CLC_TRACE_LIX_(p, i, store)                                                         \
    clc_trace_lix(clc_trace_lp, &clc_trace_ln, clc_trace_slots, (ulong)(p), (long)(i),      \
                  (uint)sizeof((p)[0]), (store))

#define LLOAD(p, i) ((p)[CLC_TRACE_LIX_(p, i, 0u)])
#define LSTORE(p, i, v) ((p)[CLC_TRACE_LIX_(p, i, 1u)] = (v))

/* ------------------------------------------------------------------ rewritten accesses
 * The trace build of a kernel written without the macros (host/core/rewrite.c) reaches
 * memory through these.  kind: 0 a load, 1 a store, 2 a load then a store of the same
 * object (a[i] += x, a[i]++, an atomic). */

/* clc_trace_ix for an access of `kind`: returns the index to use. */
CLC_TRACE_CALL long clc_trace_gk(__global ulong *trace, __global ulong *t, __global ulong *wide,
                                 uint *count, uint *wcount, uint slots, ulong base, long i,
                                 uint size, uint kind)
{
    long r = clc_trace_ix(trace, t, wide, count, wcount, slots, base, i, size, kind == 1);
    if (kind == 2)
        clc_trace_ix(trace, t, wide, count, wcount, slots, base, i, size, 1);
    return r;
}

/* clc_trace_lix for an access of `kind`: returns i. */
CLC_TRACE_CALL long clc_trace_lk(__global ulong *t, uint *count, uint slots, ulong base, long i,
                                 uint size, uint kind)
{
    clc_trace_lix(t, count, slots, base, i, size, kind == 1);
    if (kind == 2)
        clc_trace_lix(t, count, slots, base, i, size, 1);
    return i;
}

#define CLC_TRACE_GK_(p, i, size, kind)                                                     \
    clc_trace_gk(clc_trace, clc_trace_p, clc_trace_wp, &clc_trace_n, clc_trace_wn,          \
                 clc_trace_slots, (ulong)(p), (long)(i), (uint)(size), (kind))
#define CLC_TRACE_LK_(p, i, size, kind)                                                     \
    clc_trace_lk(clc_trace_lp, &clc_trace_ln, clc_trace_slots, (ulong)(p), (long)(i),       \
                 (uint)(size), (kind))

/* vloadN / vstoreN (and their half forms) on __global memory: n elements of size bytes,
 * an access each, as VLOAD / VSTORE record them. */
#define CLC_TRACE_GV_(p, i, n, size, kind) CLC_TRACE_VIX_(p, i, n, size, (kind) == 1)

/* p[i], the index evaluated once and p more than once (the rewriter checks that p has no
 * side effects). */
#define CLC_TRACE_GI_(p, i, kind) ((p)[CLC_TRACE_GK_(p, i, sizeof((p)[0]), kind)])
#define CLC_TRACE_LI_(p, i, kind) ((p)[CLC_TRACE_LK_(p, i, sizeof((p)[0]), kind)])

/* The address of the object at addr (size bytes) after recording its access: a __global
 * one outside the buffers is done in the scratch area instead. */
CLC_TRACE_CALL ulong clc_trace_ga(__global ulong *trace, __global ulong *t, __global ulong *wide,
                                  uint *count, uint *wcount, uint slots, ulong addr, uint size,
                                  uint kind)
{
    return addr + (ulong)clc_trace_gk(trace, t, wide, count, wcount, slots, addr, 0, size, kind) *
                      size;
}

CLC_TRACE_CALL ulong clc_trace_la(__global ulong *t, uint *count, uint slots, ulong addr,
                                  uint size, uint kind)
{
    clc_trace_lk(t, count, slots, addr, 0, size, kind);
    return addr;
}

/* The type of the pointer q, q unevaluated: __typeof__ in OpenCL C; NVRTC's C++ has no
 * __typeof__, and decltype of an lvalue q (a pointer variable) is a reference, which a cast
 * from an integer cannot give (clc_unref, cl/clc_cuda.h, takes it off). */
#ifdef CLC_CUDA
#define CLC_TRACE_TYPEOF_(q) clc_unref<decltype(q)>::type
#else
#define CLC_TRACE_TYPEOF_(q) __typeof__(q)
#endif

/* The pointer q to the object accessed, evaluated once (CLC_TRACE_TYPEOF_ and sizeof
 * evaluate nothing). */
#define CLC_TRACE_GP_(q, kind)                                                              \
    ((CLC_TRACE_TYPEOF_(q))clc_trace_ga(clc_trace, clc_trace_p, clc_trace_wp, &clc_trace_n,   \
                                        clc_trace_wn, clc_trace_slots, (ulong)(q),          \
                                        (uint)sizeof(*(q)), (kind)))
#define CLC_TRACE_LP_(q, kind)                                                              \
    ((CLC_TRACE_TYPEOF_(q))clc_trace_la(clc_trace_lp, &clc_trace_ln, clc_trace_slots,       \
                                        (ulong)(q), (uint)sizeof(*(q)), (kind)))

/* The lvalue e (p[i], *p, p->x, a __local variable), its address evaluated once. */
#define CLC_TRACE_GA_(e, kind) (*CLC_TRACE_GP_(&(e), kind))
#define CLC_TRACE_LA_(e, kind) (*CLC_TRACE_LP_(&(e), kind))

#endif
