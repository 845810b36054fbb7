/* test_model.c - the access model: sectors per request on synthetic traces (no device), then
 * on the real kernels traced on the default device, against the figures of the 2013 article
 * (coalesced fp32 4 sectors per request, stride 2 8, stride 32 32, offset 1 5, uncoalesced
 * loads 32); and a trace build that fails leaves the row verified with the model empty.
 * The predictive figures too: DRAM granules by gap class, loads in flight, sector bytes per
 * load lane, and __local bank passes, synthetic and on the traced transpose and banks. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/model.h"
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "testutil.h"

/* ------------------------------------------------------------------ synthetic traces */

#define BASE 0x10000000ull /* 128-byte aligned, like a fresh buffer */
#define BASE2 0x20000000ull

struct synth {
    uint64_t *w;
    struct clc_trace t;
};

static void synth_init(struct synth *s, size_t items, size_t wg, unsigned slots, unsigned warp)
{
    s->w = calloc(items * 2 * slots, sizeof *s->w);
    ck_assert_ptr_nonnull(s->w);
    s->t = (struct clc_trace){s->w, items, wg, slots, warp, 0};
}

/* Appends an access to work-item `item` in its next free slot. */
static void synth_add(struct synth *s, size_t item, uint64_t addr, uint32_t size, bool store)
{
    uint64_t *slot = s->w + item * 2 * s->t.slots;
    unsigned k = 0;
    while (k < s->t.slots && slot[2 * k + 1] != 0)
        k++;
    ck_assert_uint_lt(k, s->t.slots);
    slot[2 * k] = addr;
    slot[2 * k + 1] = ((uint64_t)size << 1) | store;
}

static void analyse(struct synth *s, struct clc_model *m)
{
    ck_assert_int_eq(clc_model_analyse(&s->t, m), 0);
}

/* Work-item i accesses `size` bytes at at + step * i (size 0: no access). */
struct stream {
    uint64_t at;
    uint64_t step;
    uint32_t size;
};
#define NO_STORE ((struct stream){0, 0, 0})

/* Analyses `items` work-items in work-groups of wg, warps of 32, each making one load (ld) and
 * then one store (st); room for more slots than that, so the trace is never truncated. */
static void analyse_streams(size_t items, size_t wg, struct stream ld, struct stream st,
                            struct clc_model *m)
{
    struct synth s;
    synth_init(&s, items, wg, 4, 32);
    for (size_t i = 0; i < items; i++) {
        if (ld.size)
            synth_add(&s, i, ld.at + ld.step * i, ld.size, false);
        if (st.size)
            synth_add(&s, i, st.at + st.step * i, st.size, true);
    }
    analyse(&s, m);
    free(s.w);
}

/* out[i] = in[i] * 2 in fp32: each request 128 contiguous bytes, 4 sectors, all used. */
START_TEST(coalesced_fp32_is_4)
{
    struct clc_model m;
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, (struct stream){BASE2, 4, 4}, &m);
    ck_assert_uint_eq(m.warps, 8);
    ck_assert_uint_eq(m.load.requests, 8);
    ck_assert_uint_eq(m.store.requests, 8);
    ck_assert_double_eq(m.sectors_per_req_load, 4);
    ck_assert_double_eq(m.sectors_per_req_store, 4);
    ck_assert_double_eq(m.sectors_per_req, 4);
    ck_assert_uint_eq(m.load.lines, 8);
    ck_assert_double_eq(m.efficiency, 1);
    ck_assert_double_eq(m.bytes_moved, 2 * 256 * 4);
    ck_assert(!m.truncated);
}
END_TEST

/* Stride s fp32: a warp's 32 elements span 128 s bytes: 4 s sectors up to 32. */
START_TEST(stride_fp32)
{
    static const unsigned strides[] = {1, 2, 4, 8, 32};
    static const double want[] = {4, 8, 16, 32, 32};
    for (size_t j = 0; j < 5; j++) {
        struct clc_model m;
        analyse_streams(64, 64, (struct stream){BASE, 4 * strides[j], 4}, NO_STORE, &m);
        ck_assert_double_eq(m.sectors_per_req, want[j]);
        ck_assert_double_eq_tol(m.efficiency, 4.0 / want[j], 1e-12);
        ck_assert(isnan(m.sectors_per_req_store));
    }
}
END_TEST

/* Offset 1 fp32: bytes 4..131 straddle 5 sectors in 2 lines; offset 8 is aligned again. */
START_TEST(offset_fp32)
{
    for (unsigned off = 0; off <= 8; off++) {
        struct clc_model m;
        analyse_streams(32, 32, (struct stream){BASE + 4 * off, 4, 4}, NO_STORE, &m);
        ck_assert_double_eq(m.sectors_per_req, off % 8 ? 5 : 4);
        ck_assert_uint_eq(m.load.lines, off ? 2 : 1);
    }
}
END_TEST

/* float4: 512 bytes per request, 16 sectors, all used; a vload4 one float off: 17. */
START_TEST(float4_is_16)
{
    struct clc_model m;
    analyse_streams(32, 32, (struct stream){BASE, 16, 16}, (struct stream){BASE2 + 4, 16, 16}, &m);
    ck_assert_double_eq(m.sectors_per_req_load, 16);
    ck_assert_uint_eq(m.load.useful, 512);
    ck_assert_double_eq(m.sectors_per_req_store, 17);
    ck_assert_uint_eq(m.store.lines, 5);
}
END_TEST

/* Uncoalesced: lanes 128 bytes apart, one sector each; fp64 coalesced: 8 sectors. */
START_TEST(uncoalesced_and_fp64)
{
    struct clc_model m;
    analyse_streams(32, 32, (struct stream){BASE, 128, 4}, (struct stream){BASE2, 8, 8}, &m);
    ck_assert_double_eq(m.sectors_per_req_load, 32);
    ck_assert_double_eq(m.sectors_per_req_store, 8);
    ck_assert_double_eq(m.sectors_per_req, 20);
    ck_assert_double_eq_tol(m.efficiency, (128.0 + 256.0) / (40 * 32), 1e-12);
}
END_TEST

/* A guard leaves lanes idle: they are not part of the request; a short last warp of a
 * work-group of 48 is its own warp; every lane of a warp on one element is one sector. */
START_TEST(inactive_and_short_warps)
{
    struct synth s;
    synth_init(&s, 96, 48, 2, 32); /* two work-groups of 48: warps of 32 and 16 lanes */
    for (size_t i = 0; i < 96; i++)
        if (i % 48 < 40)
            synth_add(&s, i, BASE + 4 * i, 4, false);
    struct clc_model m;
    analyse(&s, &m);
    ck_assert_uint_eq(m.warps, 4);
    ck_assert_uint_eq(m.load.requests, 4);
    ck_assert_uint_eq(m.load.useful, 80 * 4);
    /* work-group 0: items 0-31 4 sectors, 32-39 one; work-group 1: items 48-79 are bytes
     * 192..319, sectors 6-9, and 80-87 one more */
    ck_assert_uint_eq(m.load.sectors, 4 + 1 + 4 + 1);
    free(s.w);

    analyse_streams(32, 32, (struct stream){BASE + 8, 0, 4}, NO_STORE, &m);
    ck_assert_double_eq(m.sectors_per_req, 1);
    /* a broadcast: 4 distinct bytes used of the 32 moved */
    ck_assert_uint_eq(m.load.useful, 4);
    ck_assert_double_eq(m.efficiency, 0.125);
}
END_TEST

/* Lanes that diverge (even ones load, odd ones store at the same index) make two requests. */
START_TEST(divergent_directions)
{
    struct synth s;
    synth_init(&s, 32, 32, 2, 32);
    for (size_t i = 0; i < 32; i++)
        synth_add(&s, i, BASE + 4 * i, 4, i % 2 == 1);
    struct clc_model m;
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.requests, 1);
    ck_assert_uint_eq(m.store.requests, 1);
    ck_assert_uint_eq(m.load.useful, 64);
    ck_assert_double_eq(m.sectors_per_req, 4);
    ck_assert_double_eq(m.efficiency, 0.5);
    free(s.w);
}
END_TEST

/* Bytes per launch scale from the traced work-items to the launch; a full slot list marks
 * the trace truncated; warp 64 forms one request of 64 lanes. */
START_TEST(scaling_truncation_warp64)
{
    struct synth s;
    synth_init(&s, 64, 64, 2, 64);
    s.t.launch_items = 64 * 100;
    for (size_t i = 0; i < 64; i++) {
        synth_add(&s, i, BASE + 4 * i, 4, false);
        if (i == 3)
            synth_add(&s, i, BASE2, 4, true);
    }
    struct clc_model m;
    analyse(&s, &m);
    ck_assert_uint_eq(m.warps, 1);
    ck_assert_uint_eq(m.load.requests, 1);
    ck_assert_double_eq(m.sectors_per_req_load, 8);
    ck_assert_double_eq(m.bytes_moved, 100.0 * (8 + 1) * 32);
    ck_assert_double_eq(m.bytes_useful, 100.0 * (256 + 4));
    ck_assert(m.truncated);
    free(s.w);
}
END_TEST

START_TEST(invalid_shapes_rejected)
{
    struct synth s;
    struct clc_model m;
    synth_init(&s, 32, 32, 2, 32);
    s.t.warp = 0;
    ck_assert_int_eq(clc_model_analyse(&s.t, &m), -1);
    s.t.warp = 128;
    ck_assert_int_eq(clc_model_analyse(&s.t, &m), -1);
    s.t.warp = 32;
    s.t.wg_size = 24; /* 32 work-items are not whole work-groups of 24 */
    ck_assert_int_eq(clc_model_analyse(&s.t, &m), -1);
    ck_assert(isnan(m.sectors_per_req));
    s.t.wg_size = 32;
    ck_assert_int_eq(clc_model_analyse(&s.t, &m), 0); /* empty: nothing to divide */
    ck_assert(isnan(m.sectors_per_req) && isnan(m.efficiency));
    free(s.w);
}
END_TEST

/* ------------------------------------------------------------------ granules, in flight */

/* Granules of direction dir (0 loads) and size index gi: `count` of them, all in gap class
 * cls (model.h: gaps 1, 1.5, 2, 3, 4, 8), none in another. */
static void assert_granules(const struct clc_model *m, unsigned dir, unsigned gi, unsigned cls,
                            uint64_t count)
{
    const uint64_t *g = m->granules[dir][gi];
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        ck_assert_msg(g[c] == (c == cls ? count : 0),
                      "%s, %u-byte granules: %llu in class %u, want %llu",
                      dir ? "stores" : "loads", clc_model_granule_bytes(gi),
                      (unsigned long long)g[c], c, (unsigned long long)(c == cls ? count : 0));
}

/* 1 KiB of fp32 read in a stream: 32, 16 and 8 granules, every one touched (gap 1, the
 * window cut to the sample); no stores. */
START_TEST(granules_of_a_stream_are_adjacent)
{
    struct clc_model m;
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, NO_STORE, &m);
    assert_granules(&m, 0, 0, 0, 32);
    assert_granules(&m, 0, 1, 0, 16);
    assert_granules(&m, 0, 2, 0, 8);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++)
        assert_granules(&m, 1, gi, 0, 0);
}
END_TEST

/* fp32 128 bytes apart: 128-byte granules every one (class 0), 64-byte ones every second
 * (gap 2, class 2), 32-byte ones every fourth (gap 4, class 4), the window at the sample's
 * end too.  88 bytes apart, 11 or 12 of each window's 16 64-byte granules: gap 1.5 (class 1).
 * 6 granules apart is nearer 8 than 4 in log scale (class 5). */
START_TEST(granules_of_a_stride_by_gap)
{
    struct clc_model m;
    analyse_streams(64, 64, (struct stream){BASE, 128, 4}, NO_STORE, &m);
    assert_granules(&m, 0, 0, 4, 64);
    assert_granules(&m, 0, 1, 2, 64);
    assert_granules(&m, 0, 2, 0, 64);
    analyse_streams(256, 256, (struct stream){BASE, 88, 4}, NO_STORE, &m);
    assert_granules(&m, 0, 1, 1, 256);
    analyse_streams(32, 32, (struct stream){BASE, 6 * 32, 4}, NO_STORE, &m);
    assert_granules(&m, 0, 0, 5, 32);
    /* a stride's stores leave the same gaps (no other work-item writes them) */
    analyse_streams(64, 64, (struct stream){BASE, 128, 4}, (struct stream){BASE, 128, 4}, &m);
    for (unsigned dir = 0; dir < 2; dir++) {
        assert_granules(&m, dir, 0, 4, 64);
        assert_granules(&m, dir, 1, 2, 64);
    }
}
END_TEST

/* Addresses at least 4 KiB apart in no order: every granule alone in its window, DRAM's at
 * random (no gap class), the lanes of each warp being related by no stride; a single access
 * with no neighbour at all is alone (class 5); two adjacent granules alone in a window are
 * bunched, loaded or stored, where no gather scatters them. */
START_TEST(granules_far_apart_are_alone)
{
    struct synth s;
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++) {
        uint32_t h = (uint32_t)i * 2654435761u;
        /* a permutation of 64 slots 8 KiB apart, each at a hashed offset below 4 KiB */
        synth_add(&s, i, BASE + (uint64_t)((i * 37) % 64) * 8192 + (h >> 22) * 4, 4, false);
    }
    struct clc_model m;
    analyse(&s, &m);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++) {
        assert_granules(&m, 0, gi, 0, 0);
        ck_assert_uint_eq(m.random[gi], 64);
    }
    free(s.w);

    /* the same slots in a stride's order (37 slots apart, mod 64): one step a warp, a
     * stride's granules, none at random */
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++)
        synth_add(&s, i, BASE + (uint64_t)((i * 37) % 64) * 8192, 4, false);
    analyse(&s, &m);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++) {
        assert_granules(&m, 0, gi, 5, 64);
        ck_assert_uint_eq(m.random[gi], 0);
    }
    free(s.w);

    /* a tile's rows, 16 lanes along each of two rows 8 KiB apart: two steps a warp, not
     * random */
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++)
        synth_add(&s, i, BASE + (i / 16) * 8192 + (i % 16) * 4, 4, false);
    analyse(&s, &m);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++)
        ck_assert_uint_eq(m.random[gi], 0);
    free(s.w);

    analyse_streams(32, 32, (struct stream){BASE + 8, 0, 4}, NO_STORE, &m);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++)
        assert_granules(&m, 0, gi, 5, 1);

    /* pairs of 32-byte granules, one pair per 512-byte window, stored: other work-groups
     * write the rest of each window before L2 writes it back (a tiled transpose's tile
     * rows), dense but bunched, which DRAM takes at a rate of its own; the last pair's window
     * ends where the sample does.  Loaded alike (a transpose that takes its tiles down
     * columns loads its tile rows so), bunched loads, at a rate of their own */
    for (int stored = 0; stored < 2; stored++) {
        synth_init(&s, 64, 64, 2, 32);
        for (size_t i = 0; i < 64; i++)
            synth_add(&s, i, BASE + (i / 2) * 512 + (i % 2) * 32, 4, stored);
        analyse(&s, &m);
        assert_granules(&m, stored, 0, 0, 2);
        ck_assert_uint_eq(stored ? m.bunched[0] : m.bunched_loads[0], 62);
        ck_assert_uint_eq(stored ? m.bunched_loads[0] : m.bunched[0], 0);
        free(s.w);
    }

    /* gathered so (the pairs' windows in no order, no stride between them), they are DRAM's
     * at random, not bunched */
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++) {
        uint32_t h = (uint32_t)(i / 2) * 2654435761u;
        synth_add(&s, i, BASE + (uint64_t)(h >> 20) * 512 + (i % 2) * 32, 4, false);
    }
    analyse(&s, &m);
    ck_assert_uint_eq(m.bunched_loads[0], 0);
    ck_assert_uint_gt(m.random[0], 0);
    free(s.w);

    /* a stream fills its windows: none bunched */
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, (struct stream){BASE, 4, 4}, &m);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++)
        ck_assert_uint_eq(m.bunched[gi] + m.bunched_loads[gi], 0);
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++)
        synth_add(&s, i, BASE + (i / 2) * 512 + (i % 2) * 32, 4, false);
    analyse(&s, &m);
    ck_assert_uint_eq(m.bunched[0], 0);
    free(s.w);
}
END_TEST

/* Loads and stores of the same bytes count once in each direction; a second warp on the same
 * sectors adds requests and sectors but no granule (reuse in L2). */
START_TEST(granules_per_direction_and_reused_once)
{
    struct clc_model m;
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, (struct stream){BASE, 4, 4}, &m);
    for (unsigned dir = 0; dir < 2; dir++) {
        assert_granules(&m, dir, 0, 0, 32);
        assert_granules(&m, dir, 2, 0, 8);
    }

    struct synth s;
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++)
        synth_add(&s, i, BASE + 4 * (i % 32), 4, false);
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.requests, 2);
    ck_assert_uint_eq(m.load.sectors, 8);
    assert_granules(&m, 0, 0, 0, 4);
    assert_granules(&m, 0, 2, 5, 1);
    free(s.w);
}
END_TEST

/* A load then a store per work-item: 1 in flight; 4 loads summed then stored: 4; the longest
 * run counts (2, then 3: 3) and is averaged over the work-items that load; a load that waits
 * for the one before adds none. */
START_TEST(loads_in_flight_per_work_item)
{
    struct clc_model m;
    analyse_streams(64, 64, (struct stream){BASE, 4, 4}, (struct stream){BASE2, 4, 4}, &m);
    ck_assert_double_eq(m.loads_in_flight, 1);

    struct synth s;
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++) {
        for (uint64_t j = 0; j < 4; j++)
            synth_add(&s, i, BASE + 4 * (i + 32 * j), 4, false);
        synth_add(&s, i, BASE2 + 4 * i, 4, true);
    }
    analyse(&s, &m);
    ck_assert_double_eq(m.loads_in_flight, 4);
    free(s.w);

    /* items 0-15: L L S L L L S (3); items 16-31 only store: not counted */
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++) {
        static const bool st[] = {false, false, true, false, false, false, true};
        for (size_t j = 0; j < 7; j++)
            if (i < 16 || st[j])
                synth_add(&s, i, BASE + 4 * (i + 32 * j), 4, st[j]);
    }
    analyse(&s, &m);
    ck_assert_double_eq(m.loads_in_flight, 3);
    free(s.w);

    /* a gather: the index load, then the load it indexes (marked dependent), then the
     * store: 1; two such pairs before the store: 2 */
    for (unsigned pairs = 1; pairs <= 2; pairs++) {
        synth_init(&s, 32, 32, 8, 32);
        for (size_t i = 0; i < 32; i++) {
            for (unsigned j = 0; j < pairs; j++) {
                synth_add(&s, i, BASE + 4 * (i + 32 * j), 4, false);
                synth_add(&s, i, BASE2 + 4 * ((i * 7 + j) % 32), 4, false);
                s.w[i * 2 * s.t.slots + 2 * (2 * j + 1) + 1] |= CLC_TRACE_DEPENDENT;
            }
            synth_add(&s, i, BASE2 + 4096 + 4 * i, 4, true);
        }
        analyse(&s, &m);
        ck_assert_double_eq(m.loads_in_flight, pairs);
        ck_assert_double_eq(m.load.useful, 32 * 2 * 4 * pairs); /* the flag is not the size */
        free(s.w);
    }

    analyse_streams(32, 32, NO_STORE, (struct stream){BASE2, 4, 4}, &m);
    ck_assert(isnan(m.loads_in_flight) && isnan(m.load_lane_bytes));
}
END_TEST

/* Loads in flight as compiled, on PTX written the ways the compilers write it: each load
 * stored into __local under two branches (the second a short one around the load and the
 * store) waits before the next; under one short branch (predicated) or loaded into registers
 * before any is stored, all four are in flight; each stored to global memory under one short
 * branch (a naive transpose's rows, as NVIDIA's OpenCL compiles them), the next load waits
 * for the store before it, which may write its bytes, unless it reads through the read-only
 * path; a loop's back edge, loads left in flight across a barrier and a vector load's four
 * registers; an entry that is not there: NAN. */
#define GUARD2(i)                                                                            \
    "\t@%p1 bra $L__BB0_" #i ";\n\tsetp.ge.u64 %p" #i "0, %rd" #i ", %rd9;\n"             \
    "\t@%p" #i "0 bra $L__BB0_" #i ";\n\tld.global.f32 %f" #i ", [%rd2" #i "];\n"         \
    "\tadd.s64 %rd3" #i ", %rd7, 128;\n\tst.shared.f32 [%rd3" #i "], %f" #i ";\n$L__BB0_" #i ":\n"
#define GUARD1(i)                                                                            \
    "\t@%p" #i "0 bra $L__BB0_" #i ";\n\tld.global.f32 %f" #i ", [%rd2" #i "];\n"         \
    "\tst.shared.f32 [%rd3" #i "], %f" #i ";\n$L__BB0_" #i ":\n"
#define GUARD_GLOBAL(i, ld)                                                                  \
    "\t@%p" #i "0 bra $L__BB0_" #i ";\n\t" ld " %f" #i ", [%rd2" #i "];\n"                \
    "\tst.global.f32 [%rd3" #i "], %f" #i ";\n$L__BB0_" #i ":\n"
#define REGS(i)                                                                              \
    "\t@%p1 bra $L__BB0_" #i ";\n\tsetp.ge.u64 %p" #i "0, %rd" #i ", %rd9;\n"             \
    "\t@%p" #i "0 bra $L__BB0_" #i ";\n\tld.global.f32 %f" #i ", [%rd2" #i "];\n$L__BB0_" #i ":\n"
#define ENTRY(name, body)                                                                    \
    ".visible .entry " name "(\n\t.param .u64 in\n)\n{\n\t.reg .f32 %f<9>;\n"                \
    "\tld.param.u64 %rd1, [in];\n\tld.shared.f32 %f9, [%rd8];\n" body                          \
    "\tbar.sync 0;\n\tret;\n}\n"

START_TEST(loads_in_flight_as_compiled)
{
    static const char ptx[] =
        "//\n.version 8.0\n.target sm_90\n"
        ENTRY("two_branches", GUARD2(1) GUARD2(2) GUARD2(3) GUARD2(4))
        ENTRY("one_branch", GUARD1(1) GUARD1(2) GUARD1(3) GUARD1(4))
        ENTRY("registers_first", REGS(1) REGS(2) REGS(3) REGS(4)
              "\tst.shared.f32 [%rd31], %f1;\n\tst.shared.f32 [%rd32], %f2;\n"
              "\tst.shared.f32 [%rd33], %f3;\n\tst.shared.f32 [%rd34], %f4;\n")
        ENTRY("loop", "$L__BB0_1:\n\tld.global.f32 %f1, [%rd2];\n\tst.global.f32 [%rd3], %f1;\n"
              "\tadd.s64 %rd2, %rd2, 4;\n\tsetp.lt.u64 %p1, %rd2, %rd9;\n\t@%p1 bra $L__BB0_1;\n")
        ENTRY("barrier_between", "\tld.global.f32 %f1, [%rd2];\n\tld.global.f32 %f2, [%rd3];\n"
              "\tbar.sync 0;\n\tld.global.f32 %f3, [%rd4];\n\tst.shared.f32 [%rd5], %f3;\n"
              "\tst.shared.f32 [%rd6], %f1;\n")
        ENTRY("vector", "\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];\n"
              "\tld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd3];\n"
              "\tadd.f32 %f1, %f8, %f1;  // reads the second load\n"
              "\tst.global.f32 [%rd4], %f1;\n")
        ENTRY("generic", "\tld.f32 %f1, [%rd2];\n\tld.f32 %f2, [%rd3];\n"
              "\tadd.f32 %f3, %f1, %f2;\n\tst.f32 [%rd4], %f3;\n")
        ENTRY("stores_between", GUARD_GLOBAL(1, "ld.global.f32") GUARD_GLOBAL(2, "ld.global.f32")
              GUARD_GLOBAL(3, "ld.global.f32") GUARD_GLOBAL(4, "ld.global.f32"))
        ENTRY("read_only", GUARD_GLOBAL(1, "ld.global.nc.f32") GUARD_GLOBAL(2, "ld.global.nc.f32")
              GUARD_GLOBAL(3, "ld.global.nc.f32") GUARD_GLOBAL(4, "ld.global.nc.f32"));
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "two_branches"), 1);
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "one_branch"), 4);
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "registers_first"), 4);
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "loop"), 1);
    /* the two loads before the barrier are still in flight when the third is waited for */
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "barrier_between"), 3);
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "vector"), 2);
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "generic"), 2); /* not ld.param, .shared */
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "stores_between"), 1);
    ck_assert_double_eq(clc_ptx_loads_in_flight(ptx, "read_only"), 4);
    ck_assert(isnan(clc_ptx_loads_in_flight(ptx, "two")));  /* a prefix names no entry */
    ck_assert(isnan(clc_ptx_loads_in_flight(ptx, "absent")));
    ck_assert(isnan(clc_ptx_loads_in_flight("not PTX at all", "two_branches")));
}
END_TEST

/* Whether a build stores runs back to back, on PTX written as NVIDIA's compilers write it:
 * a run of four floats stored from one address register (with __local loads between) does;
 * the same run with each store behind its own test (a short branch each, as `if (e < n)`
 * compiles) does not, nor one under two different predicates, nor stores whose offsets are
 * not an element apart, nor stores to __local; a vector store is a run; no global store, or
 * no such entry: NAN. */
#define ST_RUN(i, off)                                                                        \
    "\tld.shared.f32 %f" #i ", [%rd4+" #off "];\n\tst.global.f32 [%rd9+" #off "], %f" #i ";\n"
#define ST_TESTED(i, off)                                                                     \
    "\tsetp.ge.u64 %p" #i ", %rd2" #i ", %rd8;\n\t@%p" #i " bra $L__BB1_" #i ";\n"         \
    "\tst.global.f32 [%rd9+" #off "], %f" #i ";\n$L__BB1_" #i ":\n"

START_TEST(stores_combined_as_compiled)
{
    static const char ptx[] =
        "//\n.version 8.0\n.target sm_90\n"
        ENTRY("together", ST_RUN(1, 0) ST_RUN(2, 4) ST_RUN(3, 8) ST_RUN(4, 12))
        ENTRY("tested", ST_TESTED(1, 0) ST_TESTED(2, 4) ST_TESTED(3, 8) ST_TESTED(4, 12))
        ENTRY("predicated", "\t@%p1 st.global.f32 [%rd9], %f1;\n"
              "\t@%p2 st.global.f32 [%rd9+4], %f2;\n")
        ENTRY("strided", "\tst.global.f32 [%rd9], %f1;\n\tst.global.f32 [%rd9+8], %f2;\n"
              "\tst.global.f32 [%rd10+4], %f3;\n")
        ENTRY("shared", "\tst.shared.f32 [%rd9], %f1;\n\tst.shared.f32 [%rd9+4], %f2;\n"
              "\tst.global.f32 [%rd10], %f3;\n")
        ENTRY("vector", "\tst.global.v2.f32 [%rd9], {%f1, %f2};\n")
        ENTRY("same_guard", "\t@%p1 st.global.f64 [%rd9+8], %fd1;\n"
              "\t@%p1 st.global.f64 [%rd9+16], %fd2;\n")
        ENTRY("no_store", "\tld.global.f32 %f1, [%rd2];\n");
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "together"), 1);
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "tested"), 0);
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "predicated"), 0);
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "strided"), 0);
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "shared"), 0);
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "vector"), 1);
    ck_assert_double_eq(clc_ptx_stores_combined(ptx, "same_guard"), 1);
    ck_assert(isnan(clc_ptx_stores_combined(ptx, "no_store")));
    ck_assert(isnan(clc_ptx_stores_combined(ptx, "absent")));
    ck_assert(isnan(clc_ptx_stores_combined("not PTX at all", "together")));
}
END_TEST

/* Sector bytes per load lane: coalesced fp32 4, fp32 32 bytes apart 32 (a sector per lane),
 * all lanes on one element 1 (one sector shared by 32 lanes), fp32 off its alignment 5; and
 * the bytes a lane reads, 4 in each. */
START_TEST(load_lane_bytes_by_pattern)
{
    struct clc_model m;
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, (struct stream){BASE2, 128, 4}, &m);
    ck_assert_double_eq(m.load_lane_bytes, 4);
    analyse_streams(64, 64, (struct stream){BASE, 32, 4}, NO_STORE, &m);
    ck_assert_double_eq(m.load_lane_bytes, 32);
    analyse_streams(32, 32, (struct stream){BASE, 0, 4}, NO_STORE, &m);
    ck_assert_double_eq(m.load_lane_bytes, 1);
    ck_assert_double_eq(m.load_access_bytes, 4); /* all 32 lanes read the same float */
    /* a float off its alignment: each warp's 128 bytes in 5 sectors */
    analyse_streams(256, 256, (struct stream){BASE + 4, 4, 4}, NO_STORE, &m);
    ck_assert_double_eq(m.load_lane_bytes, 5);
    ck_assert_double_eq(m.load_access_bytes, 4);
}
END_TEST

/* Bytes per store lane: a float's 4, a float16's 64 (however far apart the lanes), a
 * kernel that stores nothing has none. */
START_TEST(store_lane_bytes_by_pattern)
{
    struct clc_model m;
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, (struct stream){BASE2, 4, 4}, &m);
    ck_assert_double_eq(m.store_lane_bytes, 4);
    analyse_streams(64, 64, (struct stream){BASE, 64, 64}, (struct stream){BASE2, 64, 64}, &m);
    ck_assert_double_eq(m.store_lane_bytes, 64);
    ck_assert_uint_eq(m.store.lanes, 64);
    ck_assert_uint_eq(m.store.lane_bytes, 64 * 64);
    analyse_streams(32, 32, (struct stream){BASE, 4, 4}, NO_STORE, &m);
    ck_assert(isnan(m.store_lane_bytes));
}
END_TEST

/* Sectors a store writes only in part: none where the lanes fill whole sectors (floats side
 * by side, a float16 a lane), all 32 where lanes 32 bytes apart write a float each (a
 * work-item's chunk of 8), one of the two a lane's 8-byte store straddles at a 4-byte
 * offset, and none of a load's. */
START_TEST(partial_sectors_of_stores)
{
    struct clc_model m;
    analyse_streams(256, 256, (struct stream){BASE, 4, 4}, (struct stream){BASE2, 4, 4}, &m);
    ck_assert_uint_eq(m.store.partial_sectors, 0);
    analyse_streams(64, 64, (struct stream){BASE, 64, 64}, (struct stream){BASE2, 64, 64}, &m);
    ck_assert_uint_eq(m.store.partial_sectors, 0);
    analyse_streams(64, 64, (struct stream){BASE, 32, 4}, (struct stream){BASE2, 32, 4}, &m);
    ck_assert_uint_eq(m.store.requests, 2);
    ck_assert_uint_eq(m.store.partial_sectors, 2 * 32);
    ck_assert_uint_eq(m.load.partial_sectors, 0);
    /* 8-byte lanes side by side from 4 bytes into a sector: 256 bytes over 9 sectors, the
     * first and the last written in part */
    analyse_streams(32, 32, (struct stream){BASE, 4, 4}, (struct stream){BASE2 + 4, 8, 8}, &m);
    ck_assert_uint_eq(m.store.sectors, 9);
    ck_assert_uint_eq(m.store.partial_sectors, 2);
}
END_TEST

/* A run of 8 floats a lane stored an element a request, lanes 32 bytes apart: each request
 * writes 32 sectors of 8 lines in part, and the 7 after the first write sectors the warp's
 * last store wrote too, back to back: those follow.  With a load of its own before each
 * store (a loop that loads and stores an element a step) none does. */
START_TEST(stores_that_follow_a_run)
{
    struct clc_model m;
    struct synth s;
    for (int interleaved = 0; interleaved < 2; interleaved++) {
        synth_init(&s, 32, 32, 16, 32);
        for (size_t i = 0; i < 32; i++) {
            if (!interleaved)
                synth_add(&s, i, BASE + 4 * i, 4, false);
            for (uint64_t j = 0; j < 8; j++) {
                if (interleaved)
                    synth_add(&s, i, BASE + 128 * j + 4 * i, 4, false);
                synth_add(&s, i, BASE2 + 32 * i + 4 * j, 4, true);
            }
        }
        analyse(&s, &m);
        free(s.w);
        ck_assert_uint_eq(m.store.requests, 8);
        ck_assert_uint_eq(m.store.partial_sectors, 8 * 32);
        ck_assert_uint_eq(m.store.follow_partial, interleaved ? 0 : 7 * 32);
        ck_assert_uint_eq(m.store.follow_lines, interleaved ? 0 : 7 * 8);
        ck_assert_uint_eq(m.store.follow_requests, interleaved ? 0 : 7);
    }
    /* whole sectors never follow: a coalesced store after a coalesced store */
    analyse_streams(64, 64, (struct stream){BASE, 4, 4}, (struct stream){BASE2, 4, 4}, &m);
    ck_assert_uint_eq(m.store.follow_partial, 0);
}
END_TEST

/* The lines the L1 asks the L2 for: each lane walking its own row (a row per thread) asks
 * for a line once, then finds it held while its warp's loads stay in that line; lanes on new
 * lines each load, and every store's lines go on.  A load's new sectors likewise. */
START_TEST(new_lines_of_a_warp)
{
    struct clc_model m;
    struct synth s;
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++) {
        for (uint64_t j = 0; j < 6; j++) /* 6 floats along row i, rows 4 KiB apart */
            synth_add(&s, i, BASE + 4096 * i + 4 * j, 4, false);
        synth_add(&s, i, BASE2 + 4096 * i, 4, true); /* and a store down a column */
    }
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.lines, 6 * 32);
    ck_assert_uint_eq(m.load.new_lines, 32);
    ck_assert_uint_eq(m.load.new_sectors, 32);
    ck_assert_uint_eq(m.store.new_lines, 32);
    /* the other 5 loads of each lane come right after the one before (no store between):
     * the L1 has those lines, whatever the other warps keep */
    ck_assert_uint_eq(m.load.reused_lines, 0);
    ck_assert_uint_eq(m.load.reuse_footprint, 0);
    free(s.w);

    /* a store after each load: the other 5 loads reuse the 32 lines their warp's last load
     * touched, what hits while the L1 holds 32 lines a warp */
    synth_init(&s, 32, 32, 16, 32);
    for (size_t i = 0; i < 32; i++)
        for (uint64_t j = 0; j < 6; j++) {
            synth_add(&s, i, BASE + 4096 * i + 4 * j, 4, false);
            synth_add(&s, i, BASE2 + 4096 * i + 4 * j, 4, true);
        }
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.new_lines, 32);
    ck_assert_uint_eq(m.load.reused_lines, 5 * 32);
    ck_assert_uint_eq(m.load.reused_sectors, 5 * 32);
    ck_assert_uint_eq(m.load.reuse_footprint, 5 * 32 * 32);
    free(s.w);

    /* 12 floats along each row: the ninth enters the row's second sector, the same line */
    synth_init(&s, 32, 32, 16, 32);
    for (size_t i = 0; i < 32; i++)
        for (uint64_t j = 0; j < 12; j++)
            synth_add(&s, i, BASE + 4096 * i + 4 * j, 4, false);
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.new_lines, 32);
    ck_assert_uint_eq(m.load.new_sectors, 2 * 32);
    free(s.w);

    /* a column walk: every load a line of its own, a coalesced store one line */
    analyse_streams(64, 64, (struct stream){BASE, 4096, 4}, (struct stream){BASE2, 4, 4}, &m);
    ck_assert_uint_eq(m.load.new_lines, 64);
    ck_assert_uint_eq(m.store.new_lines, 2);

    /* only the same warp's last load counts: loads alternating between two lines ask for
     * each every time */
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++)
        for (uint64_t j = 0; j < 4; j++)
            synth_add(&s, i, (j % 2 ? BASE2 : BASE) + 4 * i, 4, false);
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.new_lines, 4);
    ck_assert_uint_eq(m.load.new_sectors, 4 * 4); /* 4 sectors a load */
    ck_assert_uint_eq(m.load.reused_lines, 0);
    ck_assert_uint_eq(m.load.reuse_footprint, 0);
    free(s.w);
}
END_TEST

/* Loads of granules their work-group stored at an earlier slot (a read-back of the output)
 * find them in the L2: only the input's 4 sectors come from DRAM; loaded first and stored
 * after (in place), the output's 4 sectors are read too. */
static uint64_t load_sectors_from_dram(bool store_first)
{
    struct clc_model m;
    struct synth s;
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++) {
        if (store_first)
            synth_add(&s, i, BASE2 + 4 * i, 4, true);
        synth_add(&s, i, BASE2 + 4 * ((i + 1) % 32), 4, false); /* a neighbour's element */
        synth_add(&s, i, BASE + 4 * i, 4, false);
        if (!store_first)
            synth_add(&s, i, BASE2 + 4 * i, 4, true);
    }
    analyse(&s, &m);
    free(s.w);
    uint64_t n = m.bunched_loads[0]; /* a sample of one warp leaves its windows' rest */
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        n += m.granules[0][0][c];
    ck_assert_uint_eq(m.granule_useful[0], 2 * 32 * 4); /* useful bytes count both loads */
    return n;
}

START_TEST(loads_after_stores_hit_the_l2)
{
    ck_assert_uint_eq(load_sectors_from_dram(true), 4);
    ck_assert_uint_eq(load_sectors_from_dram(false), 8);
}
END_TEST

/* What the compiler never issues.  out[i] = in[i], then out[i] = out[i] * 2: the load of
 * out[i] is the value just stored, and the first store is stored over before anything reads
 * it, so one load and one store leave.  out[i] = in[i], then out[i] = out[i] + in[i]: in
 * might be out, so in[i] is loaded again and both stores leave (out[i] still forwarded).  A
 * float4 stored an element at a time, loaded back and stored again leaves once. */
START_TEST(stores_overwritten_and_loads_forwarded)
{
    struct clc_model m;
    struct synth s;
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++) {
        synth_add(&s, i, BASE + 4 * i, 4, false);
        synth_add(&s, i, BASE2 + 4 * i, 4, true);
        synth_add(&s, i, BASE2 + 4 * i, 4, false);
        synth_add(&s, i, BASE2 + 4 * i, 4, true);
    }
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.requests, 1);
    ck_assert_uint_eq(m.store.requests, 1);
    ck_assert_uint_eq(m.granule_useful[1], 32 * 4);
    free(s.w);

    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++) {
        synth_add(&s, i, BASE + 4 * i, 4, false);
        synth_add(&s, i, BASE2 + 4 * i, 4, true);
        synth_add(&s, i, BASE2 + 4 * i, 4, false);
        synth_add(&s, i, BASE + 4 * i, 4, false);
        synth_add(&s, i, BASE2 + 4 * i, 4, true);
    }
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.requests, 2);
    ck_assert_uint_eq(m.store.requests, 2);
    free(s.w);

    synth_init(&s, 32, 32, 16, 32);
    for (size_t i = 0; i < 32; i++)
        for (int pass = 0; pass < 4; pass++)
            for (uint64_t e = 0; e < 4; e++)
                synth_add(&s, i, (pass ? BASE2 : BASE) + 16 * i + 4 * e, 4, pass % 2 == 1);
    analyse(&s, &m);
    ck_assert_uint_eq(m.load.requests, 4);
    ck_assert_uint_eq(m.store.requests, 4);
    ck_assert_uint_eq(m.store.useful, 32 * 16);
    ck_assert_double_eq(m.loads_in_flight, 4);
    free(s.w);
}
END_TEST

/* Loads' line requests that reach the L2: a work-group of 4 warps, lane l of each in row l
 * (its own 128-byte line).  Teams of `team` warps read the same sector at the same access;
 * each team's lines are its own, so the L2 gets a request per line from each team's first
 * warp only.  A second load of the same sectors by the same warps asks the L2 for nothing;
 * a third, of the lines' next sectors, asks again, once a team. */
START_TEST(group_lines_count_what_reaches_the_l2)
{
    for (unsigned team = 1; team <= 4; team *= 2) {
        struct clc_model m;
        struct synth s;
        synth_init(&s, 128, 128, 4, 32);
        for (size_t i = 0; i < 128; i++) {
            size_t warp = i / 32, lane = i % 32;
            uint64_t row = BASE + 4096 * lane, column = 128 * (warp / team) + 4 * (warp % team);
            synth_add(&s, i, row + column, 4, false);
            synth_add(&s, i, row + column, 4, false);        /* the warp's last load: held */
            synth_add(&s, i, row + (column ^ 32), 4, false); /* the next sector */
        }
        analyse(&s, &m);
        ck_assert_uint_eq(m.load.requests, 3 * 4);
        ck_assert_uint_eq(m.load.lines, 3 * 4 * 32);
        ck_assert_uint_eq(m.load.group_lines, 2 * (4 / team) * 32);
        free(s.w);
    }
}
END_TEST

/* Lines a warp leaves open over its loads: lane l of a warp of 32 fills its own line (4 KiB
 * apart), k floats of it one a step with a coalesced load before each, as the scatter case's
 * store_steps rows do.  The lines hold k x 4 bytes each (k / 8 of a sector) and stay open
 * over the k - 1 loads between a lane's first store and its last, a line held a lane.  Two
 * warps that share the lines, each half, count half a line each; lanes that share a line
 * hold their share of it; a line written whole at one store, or once, or
 * by stores back to back with no load between (a run), is open for no window at all. */
/* Work-groups of 256 (8 warps), one store a work-item at address at(i). */
static void analyse_stores(uint64_t (*at)(size_t), struct clc_model *m)
{
    struct synth s;
    synth_init(&s, 256, 256, 2, 32);
    for (size_t i = 0; i < 256; i++)
        synth_add(&s, i, at(i), 4, true);
    analyse(&s, m);
    free(s.w);
}

/* A 16 x 16 tile stored transposed (element 16 c + r, r = l / 16, c = l mod 16): each warp 8
 * lines, 16 sectors of 2 floats, each sector's other floats from 3 other warps */
static uint64_t tile16_transposed(size_t l)
{
    return BASE2 + 4 * (16 * (l % 16) + l / 16);
}

/* each lane its own line, the next warps the rest of its sector */
static uint64_t lane_a_line(size_t l)
{
    return BASE2 + 4096 * (l % 32) + 4 * (l / 32);
}

/* coalesced, a float past a line: each warp's first and last sectors its neighbours' too */
static uint64_t coalesced_off_by_one(size_t l)
{
    return BASE2 + 4 + 4 * l;
}

/* every other float of the warp's own 256 bytes: pieces no other warp writes into */
static uint64_t own_pieces(size_t l)
{
    return BASE2 + 256 * (l / 32) + 8 * (l % 32);
}

START_TEST(shared_stores_count_pieces_other_warps_write_at_once)
{
    struct clc_model m;
    analyse_stores(tile16_transposed, &m);
    ck_assert_uint_eq(m.store.shared_requests, 8);
    ck_assert_uint_eq(m.store.shared_lines, 8 * 8);
    ck_assert_uint_eq(m.store.shared_partial, 8 * 16);
    ck_assert_uint_eq(m.store.shared_useful, 8 * 128);
    analyse_stores(lane_a_line, &m);
    ck_assert_uint_eq(m.store.shared_requests, 8);
    ck_assert_uint_eq(m.store.shared_lines, 8 * 32);
    ck_assert_uint_eq(m.store.shared_partial, 8 * 32);
    analyse_stores(coalesced_off_by_one, &m); /* 2 shared of 5 sectors: a request whole */
    ck_assert_uint_eq(m.store.shared_requests, 0);
    analyse_stores(own_pieces, &m);
    ck_assert_uint_eq(m.store.shared_requests, 0);

    /* the same sectors, but warps 1 .. 7 store after a load of their own: warp 0 alone at
     * its access */
    struct synth s;
    synth_init(&s, 256, 256, 2, 32);
    for (size_t i = 0; i < 256; i++) {
        if (i >= 32)
            synth_add(&s, i, BASE + 4 * i, 4, false);
        synth_add(&s, i, lane_a_line(i), 4, true);
    }
    analyse(&s, &m);
    ck_assert_uint_eq(m.store.shared_requests, 7);
    ck_assert_uint_eq(m.store.shared_lines, 7 * 32);
    free(s.w);
}
END_TEST

START_TEST(open_lines_count_the_window_a_lane_fills_its_line_over)
{
    for (unsigned k = 1; k <= 16; k *= 2) {
        struct clc_model m;
        struct synth s;
        synth_init(&s, 32, 32, 2 * k, 32);
        for (size_t i = 0; i < 32; i++)
            for (uint64_t e = 0; e < k; e++) {
                synth_add(&s, i, BASE + 128 * e + 4 * i, 4, false);
                synth_add(&s, i, BASE2 + 4096 * i + 4 * e, 4, true);
            }
        analyse(&s, &m);
        double sectors = k > 1 ? 32.0 * k * 4 / 32 : 0;
        ck_assert_double_eq_tol(m.store.open_sectors, sectors, 1e-9);
        ck_assert_double_eq_tol(m.store.open_bytes, sectors * (k - 1.0) * 4, 1e-9);
        ck_assert_double_eq_tol(m.store.open_lane_bytes, sectors * 128, 1e-9); /* a line each */
        free(s.w);
    }

    /* two warps on the same 32 lines, each its half of a line over 8 steps */
    struct clc_model m;
    struct synth s;
    synth_init(&s, 64, 64, 16, 32);
    for (size_t i = 0; i < 64; i++)
        for (uint64_t e = 0; e < 8; e++) {
            synth_add(&s, i, BASE + 256 * e + 4 * i, 4, false);
            synth_add(&s, i, BASE2 + 4096 * (i % 32) + 64 * (i / 32) + 8 * e, 8, true);
        }
    analyse(&s, &m);
    ck_assert_double_eq_tol(m.store.open_sectors, 64 * 64 / 32.0, 1e-9);
    ck_assert_double_eq_tol(m.store.open_bytes, 64 * 64 / 32.0 * 7 * 4, 1e-9);
    free(s.w);

    /* lanes two a line, each its 64-byte half in four float4 steps with a load of 16 bytes
     * before each: open over 48 bytes, 64 bytes of a line held a lane */
    synth_init(&s, 32, 32, 8, 32);
    for (size_t i = 0; i < 32; i++)
        for (uint64_t e = 0; e < 4; e++) {
            synth_add(&s, i, BASE + 512 * e + 16 * i, 16, false);
            synth_add(&s, i, BASE2 + 64 * i + 16 * e, 16, true);
        }
    analyse(&s, &m);
    ck_assert_double_eq_tol(m.store.open_sectors, 32 * 64 / 32.0, 1e-9);
    ck_assert_double_eq_tol(m.store.open_bytes / m.store.open_sectors, 48, 1e-9);
    ck_assert_double_eq_tol(m.store.open_lane_bytes / m.store.open_sectors, 64, 1e-9);
    free(s.w);

    /* whole lines at one store (a coalesced copy), lines written once in part, and a run
     * of 8 floats a lane stored back to back after a load */
    synth_init(&s, 32, 32, 13, 32);
    for (size_t i = 0; i < 32; i++) {
        synth_add(&s, i, BASE + 4 * i, 4, false);
        synth_add(&s, i, BASE2 + 4 * i, 4, true);
        synth_add(&s, i, BASE + 4096 * i, 4, false);
        synth_add(&s, i, BASE2 + 65536 + 4096 * i, 4, true);
        synth_add(&s, i, BASE + 128 + 4 * i, 4, false);
        for (uint64_t e = 0; e < 8; e++)
            synth_add(&s, i, BASE2 + (1 << 20) + 4096 * i + 4 * e, 4, true);
    }
    analyse(&s, &m);
    ck_assert_double_eq(m.store.open_sectors, 0);
    ck_assert_double_eq(m.store.open_bytes, 0);
    free(s.w);
}
END_TEST

/* A warp of traced work-items, each making `stores` stores of its own (4096 bytes apart). */
static void synth_storing(struct synth *s, unsigned stores)
{
    synth_init(s, 32, 32, 16, 32);
    for (size_t i = 0; i < 32; i++)
        for (unsigned k = 0; k < stores; k++)
            synth_add(s, i, BASE2 + 4096 * k + 4 * i, 4, true);
}

/* A wide sample's records, zeroed: items work-items of `slots` records each. */
static uint64_t *wide_records(size_t items, unsigned slots)
{
    uint64_t *wide = calloc(items * 2 * slots, sizeof *wide);
    ck_assert_ptr_nonnull(wide);
    return wide;
}

/* The wide sample holds each work-item's first 4 loads: where the work-items make more and
 * the wide sample shows far fewer granules (a gather's 4 index loads, then the gathered loads
 * far apart), the traced warps' granules count; where they make no more, the wide sample's. */
START_TEST(wide_sample_cut_short_sees_another_mix)
{
    for (int gathers = 0; gathers <= 2; gathers += 2) {
        struct clc_model m;
        struct synth s;
        synth_init(&s, 32, 32, 8, 32);
        for (size_t i = 0; i < 32; i++) {
            for (uint64_t k = 0; k < 4; k++) /* index loads, coalesced */
                synth_add(&s, i, BASE + 128 * k + 4 * i, 4, false);
            for (int g = 0; g < gathers; g++) /* each far from any other */
                synth_add(&s, i, BASE2 + 65536 * (uint64_t)(i * 2 + (size_t)g), 4, false);
        }
        enum { WIDE = 256, WSLOTS = 8 };
        uint64_t *wide = wide_records(WIDE, WSLOTS);
        for (size_t i = 0; i < WIDE; i++)
            for (uint64_t k = 0; k < 4; k++) {
                wide[i * 2 * WSLOTS + 2 * k] = BASE + 1024 * k + 4 * i;
                wide[i * 2 * WSLOTS + 2 * k + 1] = (uint64_t)4 << 1;
            }
        s.t.wide_words = wide;
        s.t.wide_items = WIDE;
        s.t.wide_slots = WSLOTS;
        analyse(&s, &m);
        /* the bytes the chosen sample's loads access: the traced warp's or the wide one's */
        uint64_t traced = 32 * (4 + (uint64_t)gathers) * 4, in_wide = WIDE * 4 * 4;
        ck_assert_uint_eq(m.granule_useful[0], gathers ? traced : in_wide);
        free(wide);
        free(s.w);
    }
}
END_TEST

/* A gather at random within a block of 1024 elements: the traced warp's 32 loads fall far
 * apart (at random, in the narrow sample), while the wide sample's 1024 work-items load the
 * whole block, granule by granule: the wide sample, which sees what DRAM moves, counts, its
 * granules' random ones included in the comparison. */
START_TEST(wide_sample_sees_a_block_gathered_whole)
{
    struct synth s;
    synth_init(&s, 32, 32, 2, 32);
    for (uint32_t i = 0; i < 32; i++) /* 32 elements of the block, at random */
        synth_add(&s, i, BASE + 4 * (((i * 2654435761u + 12345u) * (i + 7u)) >> 22), 4, false);
    enum { WIDE = 1024, WSLOTS = 2 };
    uint64_t *wide = calloc(WIDE * 2 * WSLOTS, sizeof *wide);
    ck_assert_ptr_nonnull(wide);
    for (size_t i = 0; i < WIDE; i++) {
        wide[i * 2 * WSLOTS] = BASE + 4 * i; /* in any order: the whole block */
        wide[i * 2 * WSLOTS + 1] = (uint64_t)4 << 1;
    }
    s.t.wide_words = wide;
    s.t.wide_items = WIDE;
    s.t.wide_slots = WSLOTS;
    struct clc_model m;
    analyse(&s, &m);
    ck_assert_uint_eq(m.granule_useful[0], WIDE * 4);
    assert_granules(&m, 0, 0, 0, 128); /* 4 KiB in 32-byte granules, adjacent */
    ck_assert_uint_eq(m.random[0], 0);
    free(wide);
    free(s.w);
}
END_TEST

/* The model of s with wide (items work-items of slots records each) as its wide sample, for
 * the shares it gives; frees both. */
static struct clc_model with_wide(struct synth *s, uint64_t *wide, size_t items, unsigned slots)
{
    s->t.wide_words = wide;
    s->t.wide_items = items;
    s->t.wide_slots = slots;
    struct clc_model m;
    analyse(s, &m);
    free(wide);
    free(s->w);
    return m;
}

/* A share of the wide sample in case c: want, or NAN where want < 0. */
static void assert_share(double got, double want, size_t c)
{
    if (want < 0)
        ck_assert_msg(isnan(got), "case %zu: %g", c, got);
    else
        ck_assert_double_eq_tol(got, want, 1e-9);
}

/* Where the wide sample holds only the first 4 loads of work-items that make 8, what it
 * shares counts over the traced warps' same first 4: index loads then gathers (another mix
 * than the whole run), the wide sample's work-items i and i + 128 loading the same indices,
 * count the traced warps' granules for twice their useful bytes; 8 coalesced loads a
 * work-item (the first 4 the run's mix), the wide sample's work-items loading the same 512
 * bytes eight at a time, count the wide sample's. */
START_TEST(wide_sample_shares_over_the_same_first_accesses)
{
    for (int gather = 0; gather < 2; gather++) {
        struct synth s;
        synth_init(&s, 32, 32, 8, 32);
        for (size_t i = 0; i < 32; i++)
            for (uint64_t k = 0; k < 8; k++)
                synth_add(&s, i,
                          gather && k >= 4 ? BASE2 + 4096 * (((i * 2654435761u) ^ (k * 40503u)) %
                                                             65521)
                                           : BASE + 128 * k + 4 * i,
                          4, false);
        enum { WIDE = 256, WSLOTS = 8 };
        uint64_t *wide = wide_records(WIDE, WSLOTS);
        for (size_t i = 0; i < WIDE; i++)
            for (uint64_t k = 0; k < 4; k++) {
                uint64_t at = gather ? BASE + 1024 * k + 4 * (i % 128)
                                     : BASE + 128 * k + 4 * (i % 32);
                wide[i * 2 * WSLOTS + 2 * k] = at;
                wide[i * 2 * WSLOTS + 2 * k + 1] = (uint64_t)4 << 1;
            }
        struct clc_model m = with_wide(&s, wide, WIDE, WSLOTS);
        ck_assert_uint_eq(m.granule_useful[0], (uint64_t)(gather ? 2 * 32 * 8 * 4 : WIDE * 4 * 4));
        ck_assert_uint_eq(m.random[0], (uint64_t)(gather ? 32 * 4 : 0));
    }
}
END_TEST

/* The share of the stores whose windows the wide sample leaves to others (store_spread):
 * 256 work-items storing 256 bytes of each of four 512-byte windows, the rest of each left to
 * work-groups past the sample, three in four (the last window's room ends at the sample's
 * last granule: what lies past it, unknown); storing whole windows, none; where the traced
 * work-items make more stores than the wide sample keeps (8 against its 4), it cannot
 * tell: NAN. */
START_TEST(store_spread_from_the_wide_sample)
{
    static const struct {
        uint64_t per_window; /* work-items a window (of 128) */
        unsigned stores;     /* stores a traced work-item makes */
        double spread;       /* -1: NAN */
    } cases[] = {{64, 1, 0.75}, {128, 1, 0.0}, {64, 8, -1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct synth s;
        synth_storing(&s, cases[c].stores);
        enum { WIDE = 256, WSLOTS = 8 };
        uint64_t *wide = wide_records(WIDE, WSLOTS);
        for (size_t i = 0; i < WIDE; i++) {
            wide[i * 2 * WSLOTS] = BASE2 + 4096 * (i / cases[c].per_window) +
                                   4 * (i % cases[c].per_window);
            wide[i * 2 * WSLOTS + 1] = ((uint64_t)4 << 1) | 1;
        }
        assert_share(with_wide(&s, wide, WIDE, WSLOTS).store_spread, cases[c].spread, c);
    }
}
END_TEST

/* The share of the wide sample's store requests into lines it leaves to work-groups past it
 * (store_far): each lane of a warp stores 4 bytes of a line of its own (a naive transpose's
 * column), each warp the next 4 bytes of the same lines.  Eight warps fill a quarter of each
 * line and leave the rest: every request's lines, 1; thirty-two warps fill them whole: 0; a
 * sample that also loads the lines (a stride case's read, modify and write) brings them
 * whole into the L2: 0; traced work-items that make more stores than the sample keeps: NAN;
 * sixteen warps on the lines' first half and one on their last 4 bytes: 1. */
START_TEST(store_far_from_the_wide_sample)
{
    static const struct {
        size_t warps;    /* in the wide sample */
        bool loads;      /* each work-item loads the line it stores into first */
        unsigned stores; /* stores a traced work-item makes */
        double far;      /* -1: NAN */
    } cases[] = {{8, false, 1, 1.0},  {32, false, 1, 0.0}, {8, true, 1, 0.0},
                 {8, false, 8, -1},   {17, false, 1, 1.0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct synth s;
        synth_storing(&s, cases[c].stores);
        enum { WSLOTS = 8 };
        size_t items = 32 * cases[c].warps;
        uint64_t *wide = wide_records(items, WSLOTS);
        for (size_t i = 0; i < items; i++) {
            /* a seventeenth warp stores the lines' last 4 bytes: bytes 64 to 123 unwritten */
            size_t warp = i / 32, offset = cases[c].warps == 17 && warp == 16 ? 124 : 4 * warp;
            uint64_t *w = wide + i * 2 * WSLOTS, at = BASE2 + 4096 * (i % 32) + offset;
            if (cases[c].loads) {
                w[0] = at;
                w[1] = (uint64_t)4 << 1;
            }
            w[2 * (WSLOTS / 2)] = at;
            w[2 * (WSLOTS / 2) + 1] = ((uint64_t)4 << 1) | 1;
        }
        assert_share(with_wide(&s, wide, items, WSLOTS).store_far, cases[c].far, c);
    }
}
END_TEST

/* ------------------------------------------------------------------ __local passes */

#define LBASE 0x1040ull /* a __local address: only its value modulo 128 matters */

/* Analyses one warp whose lane i makes one __local access of `size` bytes at
 * LBASE + step * i (a store when store), and no global access. */
static void analyse_local(uint64_t step, uint32_t size, bool store, struct clc_model *m)
{
    struct synth s;
    synth_init(&s, 32, 32, 2, 32);
    uint64_t *l = calloc(32 * 2 * 2, sizeof *l);
    ck_assert_ptr_nonnull(l);
    for (size_t i = 0; i < 32; i++) {
        l[i * 2 * 2] = LBASE + step * i;
        l[i * 2 * 2 + 1] = ((uint64_t)size << 1) | store;
    }
    s.t.local_words = l;
    analyse(&s, m);
    free(l);
    free(s.w);
}

/* Words 1 apart: 32 banks, one pass; 32 apart: one bank, 32 passes; 33 apart: one pass
 * again; 2 apart: 2; one word for every lane: a broadcast, one pass. */
START_TEST(local_passes_by_stride)
{
    static const struct {
        uint64_t step;
        uint64_t passes;
    } cases[] = {{4, 1}, {4 * 32, 32}, {4 * 33, 1}, {4 * 2, 2}, {0, 1}, {4 * 16, 16}};
    for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++) {
        struct clc_model m;
        analyse_local(cases[j].step, 4, j % 2 == 1, &m);
        ck_assert_uint_eq(m.local.requests, 1);
        ck_assert_uint_eq(m.local.accesses, 32);
        ck_assert_msg(m.local.passes == cases[j].passes, "step %llu: %llu passes, want %llu",
                      (unsigned long long)cases[j].step, (unsigned long long)m.local.passes,
                      (unsigned long long)cases[j].passes);
        ck_assert_uint_eq(m.load.requests + m.store.requests, 0);
    }
}
END_TEST

/* 8-byte accesses one after the other: 256 bytes, served in two phases of 16 lanes, one pass
 * each; 8-byte banks serve them in one.  8 bytes 8 words apart: the 16 lanes of a phase fall
 * in 8 banks, 4 distinct words in each: 4 passes a phase. */
START_TEST(local_passes_of_wide_accesses)
{
    struct clc_model m;
    analyse_local(8, 8, false, &m);
    ck_assert_uint_eq(m.local.requests, 1);
    ck_assert_uint_eq(m.local.passes, 2);
    analyse_local(32, 8, false, &m);
    ck_assert_uint_eq(m.local.passes, 2 * 4);

    struct synth s;
    synth_init(&s, 32, 32, 2, 32);
    uint64_t *l = calloc(32 * 2 * 2, sizeof *l);
    ck_assert_ptr_nonnull(l);
    for (size_t i = 0; i < 32; i++) {
        l[i * 4] = LBASE + 8 * i;
        l[i * 4 + 1] = 8 << 1;
    }
    s.t.local_words = l;
    s.t.bank_width = 8;
    analyse(&s, &m);
    ck_assert_uint_eq(m.local.passes, 1);
    free(l);
    free(s.w);
}
END_TEST

/* __local requests are formed as the global ones: per warp and access index, loads and
 * stores apart, idle lanes left out; with no __local records the counts stay 0. */
START_TEST(local_requests_like_global_ones)
{
    struct synth s;
    synth_init(&s, 64, 64, 2, 32);
    uint64_t *l = calloc(64 * 2 * 2, sizeof *l);
    ck_assert_ptr_nonnull(l);
    for (size_t i = 0; i < 64; i++) {
        synth_add(&s, i, BASE + 4 * i, 4, false);
        /* access 0: even lanes store, odd lanes load, stride 1; access 1 in warp 0 only */
        l[i * 4] = LBASE + 4 * (i % 32);
        l[i * 4 + 1] = (4 << 1) | (i % 2 == 0);
        if (i < 16) {
            l[i * 4 + 2] = LBASE + 128 * i;
            l[i * 4 + 3] = 4 << 1;
        }
    }
    struct clc_model m;
    analyse(&s, &m);
    ck_assert_uint_eq(m.local.requests, 0);
    s.t.local_words = l;
    analyse(&s, &m);
    ck_assert_uint_eq(m.local.requests, 2 + 2 + 1);
    ck_assert_uint_eq(m.local.accesses, 64 + 16);
    ck_assert_uint_eq(m.local.passes, 4 + 16);
    ck_assert_uint_eq(m.load.requests, 2); /* the global figures stay */
    ck_assert_double_eq(m.sectors_per_req, 4);
    free(l);
    free(s.w);
}
END_TEST

static char *draw(const struct clc_model_request *rq)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    clc_model_picture(f, rq);
    fclose(f);
    return buf;
}

/* The picture: lane ranges per sector, one row per line, 80 columns even when a sector's
 * lanes are too many to list. */
START_TEST(picture_of_requests)
{
    struct synth s;
    struct clc_model_request rq;
    synth_init(&s, 64, 64, 2, 32);
    for (size_t i = 0; i < 64; i++) {
        synth_add(&s, i, BASE + 4 * (i + 1), 4, false);
        /* even lanes in sector 0, odd lanes in sector 1 of one line */
        synth_add(&s, i, BASE2 + (i % 2) * 32 + (i % 32) / 2, 1, true);
    }
    ck_assert_uint_eq(clc_model_warps(&s.t), 2);
    ck_assert(clc_model_first_request(&s.t, 0, false, &rq));
    ck_assert_uint_eq(rq.sectors, 5);
    ck_assert_uint_eq(rq.active, 32);
    char *p = draw(&rq);
    clc_test_assert_has(p, "|0-6 ");
    clc_test_assert_has(p, "|7-14 ");
    clc_test_assert_has(p, "+128 |31 ");
    clc_test_assert_has(p, "5 sectors in 2 lines: 128 useful of 160 bytes");
    clc_test_assert_width(p, 80);
    free(p);

    ck_assert(clc_model_first_request(&s.t, 1, true, &rq));
    ck_assert(rq.store);
    ck_assert_uint_eq(rq.sectors, 2);
    p = draw(&rq);
    clc_test_assert_has(p, "|0,2,4,6,8,+11  |1,3,5,7,9,+11  |");
    clc_test_assert_has(p, "1 line:");
    clc_test_assert_width(p, 80);
    free(p);
    ck_assert(!clc_model_first_request(&s.t, 2, true, &rq)); /* no third warp */
    free(s.w);

    /* uncoalesced: 32 rows, one lane each */
    synth_init(&s, 32, 32, 1, 32);
    for (size_t i = 0; i < 32; i++)
        synth_add(&s, i, BASE + 128 * i, 4, false);
    ck_assert(clc_model_first_request(&s.t, 0, false, &rq));
    ck_assert(!clc_model_first_request(&s.t, 0, true, &rq) || rq.active == 0);
    ck_assert(clc_model_first_request(&s.t, 0, false, &rq));
    p = draw(&rq);
    clc_test_assert_has(p, "+3968 |31 ");
    clc_test_assert_has(p, "32 sectors in 32 lines");
    clc_test_assert_width(p, 80);
    free(p);
    free(s.w);
}
END_TEST

/* ------------------------------------------------------------------ traced kernels */

/* Keeps the trace of every modelled row, keyed by param and type, to check the load and
 * store figures separately (the row holds only the overall one). */
/* Buffers aligned to 128 bytes make the article's figures exact (PoCL and NVIDIA: 1024
 * bits or more); with a smaller alignment a coalesced request may straddle one more. */
static double align_slack(void)
{
    cl_uint bits = 0;
    clGetDeviceInfo((cl_device_id)clc_test_default_device().handle[1],
                    CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    return bits >= 1024 ? 0 : 1;
}

static void run_modelled(const char *name, struct clc_report *rep)
{
    clc_test_run_verified(name, NULL, 1, rep);
}

/* The load (store false) or store sectors per request of row variant:param in type t. */
static double side(const struct clc_report *rep, const char *variant, long param,
                   enum clc_type t, bool store)
{
    const struct clc_result *r = clc_test_get(rep, variant, param, t);
    return store ? r->model.st_sectors_per_req : r->model.ld_sectors_per_req;
}

/* The sectors per request of row inplace:param of type t (the stride and offset cases). */
static double spr(const struct clc_report *rep, long param, enum clc_type t)
{
    return clc_test_get(rep, "inplace", param, t)->model.sectors_per_req;
}

static void assert_spr(double got, double want, double slack)
{
    ck_assert_msg(got >= want - 1e-9 && got <= want + slack + 1e-9, "%g sectors/request, want %g",
                  got, want);
}

START_TEST(traced_coalesced_and_uncoalesced)
{
    double slack = align_slack();
    struct clc_report rep;
    run_modelled("coalesced", &rep);
    const struct clc_result *r = &rep.results[0];
    assert_spr(r->model.sectors_per_req, 4, slack);
    assert_spr(side(&rep, "kernel", -1, CLC_FLOAT, false), 4, slack);
    if (slack == 0) {
        ck_assert_double_eq(r->model.efficiency, 1);
        ck_assert_double_eq(r->model.bytes_moved, (double)r->bytes); /* n a multiple of 256 */
    }
    clc_report_free(&rep);

    run_modelled("uncoalesced", &rep);
    r = &rep.results[0];
    ck_assert_double_eq(side(&rep, "kernel", -1, CLC_FLOAT, false), 32);
    assert_spr(side(&rep, "kernel", -1, CLC_FLOAT, true), 4, slack);
    assert_spr(r->model.sectors_per_req, 18, slack / 2);
    ck_assert(r->model.efficiency < 0.25);
    clc_report_free(&rep);
}
END_TEST

START_TEST(traced_stride)
{
    double slack = align_slack();
    struct clc_report rep;
    run_modelled("stride", &rep);
    assert_spr(spr(&rep, 1, CLC_FLOAT), 4, slack);
    assert_spr(spr(&rep, 2, CLC_FLOAT), 8, slack);
    assert_spr(spr(&rep, 4, CLC_FLOAT), 16, slack);
    ck_assert_double_eq(spr(&rep, 8, CLC_FLOAT), 32);
    ck_assert_double_eq(spr(&rep, 32, CLC_FLOAT), 32);
    ck_assert_double_eq(side(&rep, "inplace", 32, CLC_FLOAT, false), 32);
    ck_assert_double_eq(side(&rep, "inplace", 32, CLC_FLOAT, true), 32);
    ck_assert_double_eq_tol(clc_test_get(&rep, "inplace", 32, CLC_FLOAT)->model.efficiency,
                            0.125, 1e-12);
    if (clc_test_find(&rep, "inplace", 2, CLC_DOUBLE) != NULL) {
        assert_spr(spr(&rep, 2, CLC_DOUBLE), 16, slack);
        ck_assert_double_eq(spr(&rep, 4, CLC_DOUBLE), 32);
    }
    /* bytes moved grow with the stride while the useful bytes stay */
    const struct clc_result *s1 = clc_test_get(&rep, "inplace", 1, CLC_FLOAT);
    const struct clc_result *s8 = clc_test_get(&rep, "inplace", 8, CLC_FLOAT);
    ck_assert_uint_eq(s1->bytes, s8->bytes);
    ck_assert(s8->model.bytes_moved > 7 * s1->model.bytes_moved);
    clc_report_free(&rep);
}
END_TEST

START_TEST(traced_offset)
{
    double slack = align_slack();
    struct clc_report rep;
    run_modelled("offset", &rep);
    assert_spr(spr(&rep, 0, CLC_FLOAT), 4, slack);
    if (slack == 0) {
        ck_assert_double_eq(spr(&rep, 1, CLC_FLOAT), 5);
        ck_assert_double_eq(spr(&rep, 8, CLC_FLOAT), 4);
        ck_assert_double_eq(side(&rep, "inplace", 1, CLC_FLOAT, false), 5);
        ck_assert_double_eq(side(&rep, "inplace", 1, CLC_FLOAT, true), 5);
        ck_assert_double_eq_tol(clc_test_get(&rep, "inplace", 1, CLC_FLOAT)->model.efficiency,
                                0.8, 1e-12);
        if (clc_test_find(&rep, "inplace", 1, CLC_DOUBLE) != NULL)
            ck_assert_double_eq(spr(&rep, 1, CLC_DOUBLE), 9);
    } else {
        for (long s = 0; s <= 8; s++)
            assert_spr(spr(&rep, s, CLC_FLOAT), 4, slack);
    }
    clc_report_free(&rep);
}
END_TEST

/* The copy case's enqueue variant launches no kernel of ours: no model, no note. With
 * --no-model (opts.model false) no row is modelled. */
START_TEST(unmodelled_rows)
{
    struct clc_report rep;
    run_modelled("copy", &rep);
    const struct clc_result *e = clc_test_get(&rep, "enqueue", -1, CLC_FLOAT);
    ck_assert(isnan(e->model.sectors_per_req) && isnan(e->model.efficiency) &&
              isnan(e->model.bytes_moved));
    clc_test_assert_lacks(e->note, "model");
    ck_assert(!isnan(clc_test_get(&rep, "kernel", -1, CLC_FLOAT)->model.efficiency));
    clc_report_free(&rep);

    struct clc_opts o;
    clc_test_opts(&o);
    o.model = false;
    clc_test_run_expect("coalesced", &o, CLC_OK, &rep);
    ck_assert(isnan(rep.results[0].model.sectors_per_req));
    clc_report_free(&rep);
}
END_TEST

/* A kernel whose trace build fails still gives a verified row: the model stays empty and
 * the note says why. */
START_TEST(failed_trace_build_keeps_the_row)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "coalesced.cl", "CLC_TRACE_BEGIN",
                         "CLC_TRACE_BEGIN\n#ifdef CLC_TRACE\n#error no trace\n#endif\n");
    struct clc_report rep;
    clc_test_run_verified("coalesced", &o, 1, &rep);
    ck_assert(isnan(rep.results[0].model.efficiency));
    clc_test_assert_note(&rep.results[0], "model: trace build failed");
    clc_report_free(&rep);
}
END_TEST

/* Traces variant `variant` of case `name` (param, fp32, 1 MiB) on the default device and
 * analyses it into m; the trace must be clean. */
/* The wide sample's shape: a block of whole rows of the grid where the work-groups resident
 * at once span two rows or more, and narrower than a row; else the first work-groups. */
START_TEST(wide_sample_spans_the_rows_that_run_at_once)
{
    ck_assert_uint_eq(clc_trace_wide_rows(512, 4096, 1056, 200), 2);  /* 2.06 rows at once */
    ck_assert_uint_eq(clc_trace_wide_rows(512, 4096, 4000, 200), 7);  /* 7 rows, 28 wide */
    ck_assert_uint_eq(clc_trace_wide_rows(512, 4096, 1000, 200), 1);  /* less than 2 rows */
    ck_assert_uint_eq(clc_trace_wide_rows(512, 1, 1056, 200), 1);     /* a 1-D grid */
    ck_assert_uint_eq(clc_trace_wide_rows(50, 4096, 1056, 200), 21);  /* 21 rows, 9 wide */
    ck_assert_uint_eq(clc_trace_wide_rows(50, 4096, 150, 200), 1);    /* 4 whole rows in order */
    ck_assert_uint_eq(clc_trace_wide_rows(512, 4096, 1056, 1), 1);    /* one group */
    ck_assert_uint_eq(clc_trace_wide_rows(0, 4096, 1056, 200), 1);
}
END_TEST

/* A session on the default device, with the tests' options. */
static void session_open(struct clc_opts *o, struct clc_report *rep, struct clc_session *s)
{
    clc_test_opts(o);
    clc_report_init(rep, clc_api_name(CLC_API_OPENCL));
    ck_assert_int_eq(clc_session_open(s, o, rep, NULL), CLC_OK);
}

static void session_close(struct clc_session *s, struct clc_report *rep)
{
    clc_session_close(s);
    clc_report_free(rep);
}

/* Opens a session whose device claims `compute_units` units of 2048 work-items (8 groups of
 * 256 each) and 4 MiB of L2 (a wide sample of 4096 work-items); *saved keeps its own facts,
 * to set back before the session closes. */
static struct clc_device_meta *small_device(struct clc_opts *o, struct clc_report *rep,
                                            struct clc_session *s, int compute_units,
                                            struct clc_device_meta *saved)
{
    session_open(o, rep, s);
    struct clc_device_meta *m = &s->be[0]->dev.meta;
    *saved = *m;
    m->compute_units = compute_units;
    m->threads_per_cu = 2048;
    m->groups_per_cu = 32;
    m->l2_bytes = (uint64_t)4 << 20;
    return m;
}

/* The transpose case's naive kernel (512 x 512 floats, work-groups 32 x 8 over a tile of 32
 * rows, 16 a row of the grid), traced on a device that holds 16 or 32 work-groups at once
 * (1 or 2 rows of them) with room for a wide sample of 16: the first 16 in order, the tiles
 * of the first 32 rows; or a block of 8 x 2, the tiles of the first 64 rows and 256 columns.
 * Read off the wide sample's first loads (in[y * 512 + x], y the tile's row 0 .. 7); the
 * device's own facts set back after. */
START_TEST(wide_sample_of_a_2d_grid_sees_its_rows_together)
{
    for (int block = 0; block < 2; block++) {
        struct clc_opts o;
        struct clc_report rep;
        struct clc_session s;
        struct clc_device_meta saved, *m = small_device(&o, &rep, &s, block ? 4 : 2, &saved);
        const struct clc_case *c = clc_find_case("transpose");
        struct clc_traced tr;
        ck_assert_int_eq(clc_session_trace(&s, c, clc_find_variant(c, "naive"), 512, CLC_FLOAT,
                                           (uint64_t)1 << 20, &tr),
                         CLC_OK);
        ck_assert_uint_eq(tr.trace.wide_items, 16 * 256);
        uint64_t in = tr.words[1], most_x = 0, most_y = 0;
        for (size_t i = 0; i < tr.trace.wide_items; i++) {
            const uint64_t *r = tr.trace.wide_words + i * 2 * tr.trace.wide_slots;
            ck_assert_uint_eq(r[1] & 1, 0); /* a load */
            uint64_t e = (r[0] - in) / 4, x = e % 512, y = e / 512;
            most_x = x > most_x ? x : most_x;
            most_y = y > most_y ? y : most_y;
        }
        ck_assert_uint_eq(most_x, (uint64_t)(block ? 255 : 511));
        ck_assert_uint_eq(most_y, (uint64_t)(block ? 32 + 7 : 7)); /* its first load's row */
        *m = saved;
        clc_traced_free(&tr);
        session_close(&s, &rep);
    }
}
END_TEST

/* The scatter case's tiles end to end: copied in place, a row of tiles fills each window of
 * in and out (dense); stored at the transposed tiles' places (tile_blocks), each tile's rows
 * leave 128-byte runs of out that the work-groups a row of tiles later fill (bunched stores);
 * loaded from there (tile_loads), such runs of in (bunched loads).  A device of 2 compute
 * units of 8 work-groups: the wide sample holds 16 tiles, the square's first row of
 * 512 x 512. */
START_TEST(traced_tile_rows_bunched)
{
    static const char *const variants[] = {"tiles", "tile_blocks", "tile_loads"};
    for (unsigned v = 0; v < 3; v++) {
        struct clc_opts o;
        struct clc_report rep;
        struct clc_session s;
        struct clc_device_meta saved, *m = small_device(&o, &rep, &s, 2, &saved);
        const struct clc_case *c = clc_find_case("scatter");
        struct clc_traced tr;
        ck_assert_int_eq(clc_session_trace(&s, c, clc_find_variant(c, variants[v]), -1,
                                           CLC_FLOAT, (uint64_t)1 << 20, &tr),
                         CLC_OK);
        struct clc_model md;
        ck_assert_int_eq(clc_model_analyse(&tr.trace, &md), 0);
        for (unsigned dir = 0; dir < 2; dir++) {
            uint64_t dense = md.granules[dir][1][0];
            uint64_t bunched = dir ? md.bunched[1] : md.bunched_loads[1];
            if (v == 2 - dir) /* the side the variant places at the transposed tiles */
                ck_assert_msg(bunched > 0 && dense * 16 < bunched, "%s %u: %llu bunched, "
                              "%llu dense", variants[v], dir, (unsigned long long)bunched,
                              (unsigned long long)dense);
            else
                ck_assert_msg(bunched == 0 && dense > 0, "%s %u: %llu bunched, %llu dense",
                              variants[v], dir, (unsigned long long)bunched,
                              (unsigned long long)dense);
        }
        for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++)
            ck_assert_uint_eq(md.random[gi], 0);
        *m = saved;
        clc_traced_free(&tr);
        session_close(&s, &rep);
    }
}
END_TEST

static void trace_variant(const char *name, const char *variant, long param, struct clc_model *m)
{
    struct clc_opts o;
    struct clc_report rep;
    struct clc_session s;
    session_open(&o, &rep, &s);
    const struct clc_case *c = clc_find_case(name);
    ck_assert_ptr_nonnull(c);
    const struct clc_variant *v = clc_find_variant(c, variant);
    ck_assert_ptr_nonnull(v);
    struct clc_traced tr;
    int rc = clc_session_trace(&s, c, v, param, CLC_FLOAT, (uint64_t)1 << 20, &tr);
    ck_assert_msg(rc == CLC_OK, "%s/%s: trace returned %d (%s)", name, variant, rc,
                  tr.plan.note);
    ck_assert_uint_eq(tr.fault.count, 0);
    ck_assert_ptr_nonnull(tr.trace.local_words);
    ck_assert_int_eq(clc_model_analyse(&tr.trace, m), 0);
    clc_traced_free(&tr);
    session_close(&s, &rep);
}

/* The transposes store a row of the tile and load a column: 4 of each per work-item.  With a
 * pitch of 32 every column load takes 32 passes, with 33 one; the row stores take one. */
START_TEST(traced_transpose_bank_passes)
{
    struct clc_model tiled, padded;
    trace_variant("transpose", "tiled", -1, &tiled);
    trace_variant("transpose", "tiled_padded", -1, &padded);
    ck_assert_uint_eq(tiled.local.requests, tiled.warps * 8);
    ck_assert_uint_eq(tiled.local.accesses, tiled.local.requests * 32);
    ck_assert_uint_eq(tiled.local.passes, tiled.warps * (4 * 1 + 4 * 32));
    ck_assert_uint_eq(padded.local.requests, padded.warps * 8);
    ck_assert_uint_eq(padded.local.passes, padded.local.requests);
    /* no __local memory in the naive transpose */
    struct clc_model naive;
    trace_variant("transpose", "naive", -1, &naive);
    ck_assert_uint_eq(naive.local.requests, 0);
    ck_assert_uint_gt(naive.load.requests, 0);
}
END_TEST

/* banks/stride: each work-item fills 8192 / 256 = 32 words at a stride of 1 (one pass each),
 * then reads at a stride of s words: 32 passes a read at s = 32, 1 at s = 1. */
START_TEST(traced_banks_bank_passes)
{
    const uint64_t fills = 8192 / 256;
    struct clc_model s1, s32;
    trace_variant("banks", "stride", 1, &s1);
    trace_variant("banks", "stride", 32, &s32);
    ck_assert_uint_gt(s1.local.requests, s1.warps * fills);
    ck_assert_uint_eq(s1.local.passes, s1.local.requests);
    uint64_t reads = s32.local.requests - s32.warps * fills;
    ck_assert_uint_gt(reads, 0);
    ck_assert_uint_eq(s32.local.passes, s32.warps * fills + 32 * reads);
    ck_assert_uint_eq(s32.load.requests, 0); /* the only global access is the store */
}
END_TEST

int main(void)
{
    const TTest *tests[] = {coalesced_fp32_is_4, stride_fp32, offset_fp32, float4_is_16,
                            uncoalesced_and_fp64, inactive_and_short_warps, divergent_directions,
                            scaling_truncation_warp64, invalid_shapes_rejected,
                            granules_of_a_stream_are_adjacent, granules_of_a_stride_by_gap,
                            granules_far_apart_are_alone, granules_per_direction_and_reused_once,
                            loads_in_flight_per_work_item, loads_in_flight_as_compiled,
                            stores_combined_as_compiled, load_lane_bytes_by_pattern,
                            store_lane_bytes_by_pattern, partial_sectors_of_stores,
                            stores_that_follow_a_run,
                            new_lines_of_a_warp, local_passes_by_stride,
                            local_passes_of_wide_accesses, wide_sample_cut_short_sees_another_mix,
                            wide_sample_sees_a_block_gathered_whole,
                            wide_sample_shares_over_the_same_first_accesses,
                            store_spread_from_the_wide_sample,
                            store_far_from_the_wide_sample,
                            loads_after_stores_hit_the_l2, stores_overwritten_and_loads_forwarded,
                            group_lines_count_what_reaches_the_l2,
                            open_lines_count_the_window_a_lane_fills_its_line_over,
                            shared_stores_count_pieces_other_warps_write_at_once,
                            wide_sample_spans_the_rows_that_run_at_once,
                            wide_sample_of_a_2d_grid_sees_its_rows_together,
                            traced_tile_rows_bunched,
                            local_requests_like_global_ones, picture_of_requests,
                            traced_coalesced_and_uncoalesced, traced_stride, traced_offset,
                            unmodelled_rows, failed_trace_build_keeps_the_row,
                            traced_transpose_bank_passes, traced_banks_bank_passes};
    return clc_test_main(clc_test_suite("model", tests, sizeof tests / sizeof tests[0]));
}
