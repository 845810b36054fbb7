/* runs.cl - each work-item copies a run of K consecutive elements with K scalar accesses,
 * the other side coalesced: store (the runs stored, lanes K elements apart) or load (the
 * runs loaded); or stores a run of values it computes (fill: stores alone), or of elements
 * a work-group staged in __local (local: a chunk each work-item stores after a barrier).
 * The first store of a run writes every lane's sectors in part and the next ones fill them.
 * Where nothing comes between a run's stores, NVIDIA's compilers issue them back to back
 * (four STG.E of one register, offsets 0, 4, 8 and 12, for four floats), and the L1 merges
 * their pieces; store_apart and local_apart test each element against n first, which gives
 * every store of the run a predicate of its own and instructions between, as a kernel that
 * guards each element compiles, and the pieces merge less.  Each block of L x K elements (L the
 * work-group's size) is permuted within itself; a last block that is not whole is copied in
 * place. */
#include "clc.h"

#ifndef K
#define K 1
#endif
#ifndef LSIZE
#define LSIZE 128 /* the local variant's work-group size (runs.c passes it) */
#endif

/* store: out[base + l K + j] = in[base + j L + l].  IF_APART(e) is nothing, or (apart) a test
 * of e against n before each store of a run: always true in a whole block, but the compiler
 * cannot know it, so it keeps the run's stores apart (a branch or a predicate each), where
 * it otherwise issues them back to back */
#define RUNS_STORE(name, IF_APART)                                                           \
    __kernel void name(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)       \
    {                                                                                         \
        CLC_TRACE_BEGIN                                                                       \
        size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L * K;  \
        T v[K];                                                                               \
        if (base + L * K <= n) {                                                              \
            for (uint j = 0; j < K; j++)                                                      \
                v[j] = LOAD(in, base + j * L + l);                                            \
            for (uint j = 0; j < K; j++)                                                      \
                IF_APART(base + l * K + j)                                                    \
                STORE(out, base + l * K + j, v[j]);                                           \
        } else {                                                                              \
            for (uint j = 0; j < K; j++)                                                      \
                if (base + j * L + l < n)                                                     \
                    STORE(out, base + j * L + l, LOAD(in, base + j * L + l));                \
        }                                                                                     \
    }
#define TOGETHER(e)
#define APART(e) if ((e) < n)
RUNS_STORE(runs_store, TOGETHER)
RUNS_STORE(runs_store_apart, APART)

/* load: out[base + j L + l] = in[base + l K + j] */
__kernel void runs_load(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L * K;
    T v[K];
    if (base + L * K <= n) {
        for (uint j = 0; j < K; j++)
            v[j] = LOAD(in, base + l * K + j);
        for (uint j = 0; j < K; j++)
            STORE(out, base + j * L + l, v[j]);
    } else {
        for (uint j = 0; j < K; j++)
            if (base + j * L + l < n)
                STORE(out, base + j * L + l, LOAD(in, base + j * L + l));
    }
}

/* fill: out[base + l K + j] = clc_value(base + l K + j), the stores back to back */
__kernel void runs_fill(__global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t l = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L * K;
    if (base + L * K <= n) {
        for (uint j = 0; j < K; j++)
            STORE(out, base + l * K + j, clc_value(base + l * K + j));
    } else {
        for (uint j = 0; j < K; j++)
            if (base + j * L + l < n)
                STORE(out, base + j * L + l, clc_value(base + j * L + l));
    }
}

/* local: the block loaded coalesced into __local (one word of padding every 32, so that the
 * runs read back without bank conflicts), then out[base + l K + j] = in[base + l K + j],
 * each work-item storing its run back to back after the barrier; a last block that is not
 * whole is copied in place without staging */
#define PAD(x) ((x) + (x) / 32)
#define RUNS_LOCAL(name, IF_APART)                                                           \
    __kernel void name(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)       \
    {                                                                                         \
        CLC_TRACE_BEGIN                                                                       \
        __local T buf[PAD(LSIZE * K)];                                                        \
        size_t l = get_local_id(0), base = get_group_id(0) * LSIZE * K;                      \
        if (base + LSIZE * K <= n) {                                                          \
            for (uint j = 0; j < K; j++)                                                      \
                LSTORE(buf, PAD(j * LSIZE + l), LOAD(in, base + j * LSIZE + l));              \
            barrier(CLK_LOCAL_MEM_FENCE);                                                     \
            for (uint j = 0; j < K; j++)                                                      \
                IF_APART(base + l * K + j)                                                    \
                STORE(out, base + l * K + j, LLOAD(buf, PAD(l * K + j)));                     \
        } else {                                                                              \
            for (uint j = 0; j < K; j++)                                                      \
                if (base + j * LSIZE + l < n)                                                 \
                    STORE(out, base + j * LSIZE + l, LOAD(in, base + j * LSIZE + l));         \
        }                                                                                     \
    }
RUNS_LOCAL(runs_local, TOGETHER)
RUNS_LOCAL(runs_local_apart, APART)
