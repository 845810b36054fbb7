/* test_model.c - the access model: sectors per request on synthetic traces (no device), then
 * on the real kernels traced on the default device, against the figures of the 2013 article
 * (coalesced fp32 4 sectors per request, stride 2 8, stride 32 32, offset 1 5, uncoalesced
 * loads 32); and a trace build that fails leaves the row verified with the model empty. */
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
    return store ? r->model_st_sectors_per_req : r->model_ld_sectors_per_req;
}

/* The sectors per request of row inplace:param of type t (the stride and offset cases). */
static double spr(const struct clc_report *rep, long param, enum clc_type t)
{
    return clc_test_get(rep, "inplace", param, t)->model_sectors_per_req;
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
    assert_spr(r->model_sectors_per_req, 4, slack);
    assert_spr(side(&rep, "kernel", -1, CLC_FLOAT, false), 4, slack);
    if (slack == 0) {
        ck_assert_double_eq(r->model_efficiency, 1);
        ck_assert_double_eq(r->model_bytes_moved, (double)r->bytes); /* n a multiple of 256 */
    }
    clc_report_free(&rep);

    run_modelled("uncoalesced", &rep);
    r = &rep.results[0];
    ck_assert_double_eq(side(&rep, "kernel", -1, CLC_FLOAT, false), 32);
    assert_spr(side(&rep, "kernel", -1, CLC_FLOAT, true), 4, slack);
    assert_spr(r->model_sectors_per_req, 18, slack / 2);
    ck_assert(r->model_efficiency < 0.25);
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
    ck_assert_double_eq_tol(clc_test_get(&rep, "inplace", 32, CLC_FLOAT)->model_efficiency,
                            0.125, 1e-12);
    if (clc_test_find(&rep, "inplace", 2, CLC_DOUBLE) != NULL) {
        assert_spr(spr(&rep, 2, CLC_DOUBLE), 16, slack);
        ck_assert_double_eq(spr(&rep, 4, CLC_DOUBLE), 32);
    }
    /* bytes moved grow with the stride while the useful bytes stay */
    const struct clc_result *s1 = clc_test_get(&rep, "inplace", 1, CLC_FLOAT);
    const struct clc_result *s8 = clc_test_get(&rep, "inplace", 8, CLC_FLOAT);
    ck_assert_uint_eq(s1->bytes, s8->bytes);
    ck_assert(s8->model_bytes_moved > 7 * s1->model_bytes_moved);
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
        ck_assert_double_eq_tol(clc_test_get(&rep, "inplace", 1, CLC_FLOAT)->model_efficiency,
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
    ck_assert(isnan(e->model_sectors_per_req) && isnan(e->model_efficiency) &&
              isnan(e->model_bytes_moved));
    clc_test_assert_lacks(e->note, "model");
    ck_assert(!isnan(clc_test_get(&rep, "kernel", -1, CLC_FLOAT)->model_efficiency));
    clc_report_free(&rep);

    struct clc_opts o;
    clc_test_opts(&o);
    o.model = false;
    clc_test_run_expect("coalesced", &o, CLC_OK, &rep);
    ck_assert(isnan(rep.results[0].model_sectors_per_req));
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
    ck_assert(isnan(rep.results[0].model_efficiency));
    clc_test_assert_note(&rep.results[0], "model: trace build failed");
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {coalesced_fp32_is_4, stride_fp32, offset_fp32, float4_is_16,
                            uncoalesced_and_fp64, inactive_and_short_warps, divergent_directions,
                            scaling_truncation_warp64, invalid_shapes_rejected, picture_of_requests,
                            traced_coalesced_and_uncoalesced, traced_stride, traced_offset,
                            unmodelled_rows, failed_trace_build_keeps_the_row};
    return clc_test_main(clc_test_suite("model", tests, sizeof tests / sizeof tests[0]));
}
