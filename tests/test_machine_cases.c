/* test_machine_cases.c - the cases that measure the machine itself (latency, stream, inflight,
 * banks, scatter, runs) verify on the default device at small sizes, and each check catches a kernel
 * that computes the wrong thing; `profile` writes a profile with every figure in its place. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 16];

START_TEST(latency_sweep_verifies)
{
    struct clc_report rep;
    clc_test_run_verified_at("latency", 256 << 10, 5, &rep);
    /* 16 KiB .. 256 KiB, a row each, in nanoseconds per access */
    ck_assert_uint_eq(rep.n_results, 5);
    for (size_t i = 0; i < rep.n_results; i++) {
        const struct clc_result *r = &rep.results[i];
        ck_assert_int_eq(r->metric, CLC_METRIC_NS_PER_ACCESS);
        ck_assert_int_eq(r->param, 16L << i);
        ck_assert(isnan(r->gbps) && r->value > 0 && r->accesses == 65536);
        ck_assert(isnan(r->pct_copy));
    }
    clc_report_free(&rep);
}
END_TEST

/* A chase one hop too long ends on the wrong element. */
START_TEST(latency_check_catches_a_wrong_chase)
{
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts_edited(&o, "latency.cl", "k < steps", "k <= steps");
    o.size = 16 << 10;
    clc_test_run_expect("latency", &o, CLC_ERR, &rep);
    clc_test_assert_all_caught(&rep, 1, "the chase ended at element");
    clc_report_free(&rep);
}
END_TEST

/* Variant `variant` of case name, its kernel file edited from `from` to `to`: each of its
 * `rows` float rows caught with a wrong result. */
static void assert_edit_caught(const char *name, const char *variant, const char *from,
                               const char *to, size_t rows)
{
    char file[64];
    snprintf(file, sizeof file, "%s.cl", name);
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts_edited(&o, file, from, to);
    o.variant = variant;
    o.types = CLC_FLOAT;
    clc_test_run_expect(name, &o, CLC_ERR, &rep);
    clc_test_assert_all_caught(&rep, rows, "wrong result");
    clc_report_free(&rep);
}

/* Each edit {variant, text, replacement} of case name's kernel file makes that variant's
 * float row a wrong result, caught by its check. */
static void assert_edits_caught(const char *name, const char *const edits[][3], size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_edit_caught(name, edits[i][0], edits[i][1], edits[i][2], 1);
}

START_TEST(stream_verifies)
{
    struct clc_report rep;
    /* 20014 floats or 10007 doubles: every kernel's tail runs, after float4s or double2s */
    clc_test_run_verified_at("stream", 4 * 10007 * 2, 4, &rep);
    const struct clc_result *read = clc_test_get(&rep, "read", -1, CLC_FLOAT);
    const struct clc_result *triad = clc_test_get(&rep, "triad", -1, CLC_FLOAT);
    ck_assert_uint_eq(triad->bytes, 3 * 20014 * 4);
    ck_assert_uint_gt(read->bytes, 20014 * 4); /* the sums too */
    const struct clc_result *write64 = clc_test_find(&rep, "write", -1, CLC_DOUBLE);
    if (write64 != NULL) /* a device with fp64 */
        ck_assert_uint_eq(write64->bytes, 10007 * 8);
    clc_report_free(&rep);
}
END_TEST

START_TEST(stream_checks_catch_wrong_kernels)
{
    static const char *const edits[][3] = {
        {"read", "acc += LOAD(inv, v);", "acc += LOAD(inv, v) * (T)2;"},
        {"write", "STORE((__global TV *)out, i, clc_values(i));",
         "STORE((__global TV *)out, i, clc_values(i + 1));"},
        {"triad", "LOAD((__global const TV *)c, i) * (T)3", "LOAD((__global const TV *)c, i) * (T)2"},
    };
    assert_edits_caught("stream", edits, 3);
}
END_TEST

START_TEST(inflight_verifies_and_counts_bytes_in_flight)
{
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts(&o);
    o.variant = "float4_g2";
    clc_test_run_verified("inflight", &o, 5, &rep);
    for (long k = 1; k <= 16; k *= 2) {
        const struct clc_result *r = clc_test_get(&rep, "float4_g2", k, CLC_FLOAT);
        /* 2 groups of 256, k loads of 16 bytes each */
        ck_assert_double_eq(r->in_flight, 2.0 * 256 * (double)k * 16);
    }
    clc_report_free(&rep);

    /* a load that is left out of the sum is caught */
    clc_test_opts_edited(&o, "inflight.cl", "acc += v[j];", "if (j > 0) acc += v[j];");
    o.variant = "scalar_g1";
    clc_test_run_expect("inflight", &o, CLC_ERR, &rep);
    ck_assert(!clc_test_get(&rep, "scalar_g1", 2, CLC_FLOAT)->verified);
    clc_report_free(&rep);
}
END_TEST

START_TEST(banks_verify_and_say_the_conflict)
{
    struct clc_report rep;
    clc_test_run_verified("banks", NULL, 35, &rep);
    const struct clc_result *s32 = clc_test_get(&rep, "stride", 32, CLC_FLOAT);
    clc_test_assert_note(s32, "a 32-way conflict");
    clc_test_assert_note(clc_test_get(&rep, "stride", 33, CLC_FLOAT), "a 1-way conflict");
    clc_test_assert_note(clc_test_get(&rep, "stride", 12, CLC_FLOAT), "a 4-way conflict");
    clc_test_assert_note(clc_test_get(&rep, "tile_col", -1, CLC_FLOAT), "a 32-way conflict");
    clc_test_assert_note(clc_test_get(&rep, "tile_col_padded", -1, CLC_FLOAT), "a 1-way");
    ck_assert(isnan(s32->pct_copy)); /* local-memory bytes are no fraction of DRAM's */
    clc_report_free(&rep);

    struct clc_opts o;
    clc_test_opts_edited(&o, "banks.cl", "acc += LLOAD(lm, (base + 32 * r) & (WORDS - 1));",
                         "acc += LLOAD(lm, (base + 31 * r) & (WORDS - 1));");
    o.variant = "stride";
    clc_test_run_expect("banks", &o, CLC_ERR, &rep);
    ck_assert(!clc_test_get(&rep, "stride", 1, CLC_FLOAT)->verified);
    clc_report_free(&rep);
}
END_TEST

START_TEST(scatter_verifies)
{
    struct clc_report rep;
    /* 66666 floats and 33333 doubles: whole blocks of 32 rows, then a tail written in place */
    clc_test_run_verified_at("scatter", 8 * 33333, 4, &rep);
    const struct clc_result *st = clc_test_get(&rep, "store", -1, CLC_FLOAT);
    const struct clc_result *ld = clc_test_get(&rep, "load", -1, CLC_DOUBLE);
    ck_assert_uint_eq(st->bytes, 66666 * 4);
    ck_assert_uint_eq(ld->bytes, 2 * 33333 * 8);
    clc_test_assert_has(st->note, "blocks of 32 rows x 2048");
    clc_test_assert_has(ld->note, "blocks of 32 rows x 1024");
    /* the shared rows: each team size, the same rows (a power of two, at least 8 lines) */
    for (long w = 1; w <= 8; w *= 2) {
        const struct clc_result *sh = clc_test_get(&rep, "load_shared", w, CLC_FLOAT);
        char team[48];
        snprintf(team, sizeof team, "2048, teams of %ld warps a sector", w);
        clc_test_assert_has(sh->note, team);
        ck_assert_uint_eq(sh->bytes, 2 * 66666 * 4);
        ck_assert_uint_eq(clc_test_get(&rep, "store_shared", w, CLC_DOUBLE)->bytes, 33333 * 8);
    }
    /* the steps rows: 1 to 16 elements of its line a lane, a load before each store */
    for (long k = 1; k <= 16; k *= 2) {
        const struct clc_result *st = clc_test_get(&rep, "store_steps", k, CLC_DOUBLE);
        clc_test_assert_note(st, "blocks of 32 rows x 1024, %ld element%s of its line a lane", k,
                             k > 1 ? "s" : "");
        ck_assert_uint_eq(st->bytes, 2 * 33333 * 8);
        /* the trace: each lane's line open from its first store to its last, over the
         * k - 1 loads of 8 bytes between; a sector's worth of such bytes stored for each 64
         * bytes moved (the profile's refill figures assume both) */
        const struct clc_model_features *f = &st->model.features;
        if (k == 1) {
            ck_assert(f->store_open_sectors == 0 && isnan(f->store_open_bytes));
            continue;
        }
        ck_assert_double_eq_tol(f->store_open_bytes, clc_profile_refill_window(
                                    (unsigned)log2((double)k), 8), 1e-9);
        ck_assert_double_eq_tol(f->store_open_sectors, 1.0 / 64, 1e-9);
        ck_assert_double_eq_tol(f->store_open_lane_bytes, 128, 1e-9); /* a line a lane */
    }
    clc_report_free(&rep);
}
END_TEST

/* A store of the wrong value and a load down the wrong walk are both caught, in every team
 * size of the shared rows and every step count of the steps rows; a store down the wrong
 * walk is not wrong: every element still gets its value. */
START_TEST(scatter_checks_catch_wrong_kernels)
{
    static const char *const edits[][3] = {
        {"store", "STORE(out, e, clc_value(e));", "STORE(out, e, clc_value(e + 1));"},
        {"load", "((j & 31) << shift) + (j >> 5)", "((j >> 5) << 5) + (j & 31)"},
        {"store_shared", "STORE(out, e, clc_value(e));\n    }\n}\n\n/* load_shared",
         "STORE(out, e, clc_value(e + 1));\n    }\n}\n\n/* load_shared"},
        {"load_shared", "+ ((j & 31) << shift) + column;", "+ ((j & 31) << shift) + (column ^ 1);"},
        {"store_steps", "LOAD(in, chunk + (s << 5) + lane)",
         "LOAD(in, chunk + (s << 5) + (lane ^ 1))"},
    };
    static const size_t rows[] = {1, 1, 4, 4, 5}; /* the variants' params */
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++)
        assert_edit_caught("scatter", edits[i][0], edits[i][1], edits[i][2], rows[i]);
}
END_TEST

START_TEST(runs_verify)
{
    struct clc_report rep;
    /* 100003 floats and 50001 doubles: whole blocks of 256 (128 staged) x k elements, then
     * a last block copied in place */
    clc_test_run_verified_at("runs", 4 * 100003, 48, &rep);
    const struct clc_result *st = clc_test_get(&rep, "store", 8, CLC_FLOAT);
    const struct clc_result *fill = clc_test_get(&rep, "fill", 32, CLC_DOUBLE);
    ck_assert_uint_eq(st->bytes, 2 * 100003 * 4);
    ck_assert_uint_eq(fill->bytes, 50001 * 8);
    clc_test_assert_note(st, "runs of 8 elements a work-item");
    /* the trace sees each run stored an element a request: 7 of 8 requests of 8 lines
     * follow the one before; the loaded runs of 32 are each loaded back to back, so none
     * of their reuse waits on the L1 */
    const struct clc_model_features *f = &st->model.features;
    ck_assert_double_eq_tol(f->store_follow_lines_per_request, 8, 1e-9);
    ck_assert_double_eq_tol(f->store_follow_partial, 7.0 / 8 * f->store_partial, 1e-9);
    const struct clc_result *ld = clc_test_get(&rep, "load", 32, CLC_FLOAT);
    ck_assert(ld->model.features.store_follow_partial == 0);
    ck_assert(ld->model.features.load_reused_lines == 0);
    clc_report_free(&rep);
}
END_TEST

/* Each variant with its runs walked one element off: every row with runs of 2 or more is a
 * wrong result, the run of 1 (nothing to walk) still right. */
START_TEST(runs_checks_catch_wrong_kernels)
{
    static const char *const edits[][3] = {
        {"store", "STORE(out, base + l * K + j, v[j]);",
         "STORE(out, base + l * K + j, v[(j + 1) % K]);"},
        {"load", "v[j] = LOAD(in, base + l * K + j);",
         "v[j] = LOAD(in, base + l * K + (j + 1) % K);"},
        {"fill", "clc_value(base + l * K + j));", "clc_value(base + l * K + (j + 1) % K));"},
        {"local", "LLOAD(buf, PAD(l * K + j))", "LLOAD(buf, PAD(l * K + (j + 1) % K))"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        struct clc_opts o;
        struct clc_report rep;
        clc_test_opts_edited(&o, "runs.cl", edits[i][1], edits[i][2]);
        o.variant = edits[i][0];
        o.types = CLC_FLOAT;
        clc_test_run_expect("runs", &o, CLC_ERR, &rep);
        ck_assert_uint_eq(rep.n_results, 6);
        for (size_t k = 0; k < rep.n_results; k++) {
            const struct clc_result *r = &rep.results[k];
            if (r->param == 1)
                clc_test_assert_ok(r);
            else
                clc_test_assert_caught(r, "wrong result");
        }
        clc_report_free(&rep);
    }
}
END_TEST

START_TEST(l2_verifies)
{
    struct clc_report rep;
    /* at 256 KiB, windows of 64 and 256 KiB: 4 passes and 1 */
    clc_test_run_verified_at("l2", 256 << 10, 12, &rep);
    const struct clc_result *rd = clc_test_get(&rep, "read", 64, CLC_FLOAT);
    const struct clc_result *cp = clc_test_get(&rep, "copy", 256, CLC_DOUBLE);
    const struct clc_result *wr = clc_test_get(&rep, "write", 64, CLC_DOUBLE);
    ck_assert_uint_eq(rd->bytes, 4 * (64 << 10) + (64 << 10) / 16 * 4); /* and a sum a vector */
    ck_assert_uint_eq(cp->bytes, 256 << 10);
    ck_assert_uint_eq(wr->bytes, 4 * (64 << 10));
    clc_test_assert_note(rd, "4 passes over the window");
    clc_test_assert_note(cp, "1 pass over the window");
    /* whole 16-byte lanes: a sector for every 32 bytes each way, and each pass a vector the
     * warp's last load did not touch */
    const struct clc_model_features *f = &wr->model.features;
    ck_assert_double_eq_tol(f->store_sectors, 1.0 / 32, 1e-9);
    f = &cp->model.features;
    ck_assert_double_eq_tol(f->store_sectors, 1.0 / 64, 1e-9);
    ck_assert_double_eq_tol(f->load_sectors, 1.0 / 64, 1e-9);
    clc_report_free(&rep);
}
END_TEST

/* Each variant loading or storing the vector beside its own is caught, in its one window. */
START_TEST(l2_checks_catch_wrong_kernels)
{
    static const char *const edits[][3] = {
        {"read", "acc += LOAD(inv, v);", "acc += LOAD(inv, v ^ 1);"},
        {"write", "STORE(outv, v, clc_values(v));", "STORE(outv, v, clc_values(v ^ 1));"},
        {"copy", "STORE(outv, v, LOAD(inv, v));", "STORE(outv, v, LOAD(inv, v ^ 1));"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        struct clc_opts o;
        struct clc_report rep;
        clc_test_opts_edited(&o, "l2.cl", edits[i][1], edits[i][2]);
        o.variant = edits[i][0];
        o.types = CLC_FLOAT;
        o.size = 64 << 10;
        clc_test_run_expect("l2", &o, CLC_ERR, &rep);
        clc_test_assert_all_caught(&rep, 1, "wrong result");
        clc_report_free(&rep);
    }
}
END_TEST

START_TEST(groups_verify)
{
    struct clc_report rep;
    /* 10007 floats or 5003 doubles: no group size divides them, so the last group is cut */
    clc_test_run_verified_at("groups", 4 * 10007, 16, &rep);
    const struct clc_result *g32 = clc_test_get(&rep, "inplace", 32, CLC_FLOAT);
    const struct clc_result *g256 = clc_test_get(&rep, "inplace", 256, CLC_DOUBLE);
    ck_assert_uint_eq(g32->bytes, 2 * 10007 * 4);
    ck_assert_uint_eq(g256->bytes, 2 * 5003 * 8);
    ck_assert_double_eq(g32->model.features.group_items, 32);
    /* the staged rows: as many bytes, each work-item's load and store through __local */
    const struct clc_result *s64 = clc_test_get(&rep, "staged", 64, CLC_DOUBLE);
    ck_assert_uint_eq(s64->bytes, 2 * 5003 * 8);
    ck_assert(s64->model.features.local_accesses > 0);
    ck_assert_double_eq(s64->model.features.loads_in_flight, 1);
    /* with 4 elements a work-item (the last chunk of 4 x 128 cut short): 4 loads before the
     * barrier */
    const struct clc_result *q128 = clc_test_get(&rep, "staged4", 128, CLC_FLOAT);
    ck_assert_uint_eq(q128->bytes, 2 * 10007 * 4);
    ck_assert(q128->model.features.local_accesses > 0);
    ck_assert_double_eq(q128->model.features.loads_in_flight, 4);
    clc_report_free(&rep);
}
END_TEST

/* A wrong value and a work-item left out are both caught, in every group size of both
 * variants; and the staged rows' order: elements kept in place instead of mirrored; and
 * the staged4 rows' order, and an element loaded from the wrong place. */
START_TEST(groups_checks_catch_wrong_kernels)
{
    static const char *const edits[][3] = {
        {"inplace", "STORE(a, i, LOAD(a, i) * 2 + 1);", "STORE(a, i, LOAD(a, i) * 2);"},
        {"inplace", "if (i < n)", "if (i + 1 < n)"},
        {"staged", "LLOAD(tile, whole ? GROUP - 1 - l : l) * 2 + 1", "LLOAD(tile, l) * 2 + 1"},
        {"staged", "STORE(a, i, LLOAD", "if (i + 1 < n) STORE(a, i, LLOAD"},
        {"staged4", "LLOAD(tile, whole ? ITEMS * GROUP - 1 - e : e)", "LLOAD(tile, e)"},
        {"staged4", "v[j] = LOAD(a, first + l + j * GROUP);", "v[j] = LOAD(a, first + l);"},
    };
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts(&o);
    o.variant = "inplace";
    o.types = CLC_FLOAT;
    clc_test_run_verified("groups", &o, 1, &rep);
    size_t rows = rep.n_results; /* the group sizes this device launches */
    clc_report_free(&rep);
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++)
        assert_edit_caught("groups", edits[i][0], edits[i][1], edits[i][2], rows);
}
END_TEST

/* The profile holds every figure in its place; the values are the device's own, so only their
 * kind is checked. */
START_TEST(profile_writes_every_figure)
{
    char dir[64], cmd[512];
    clc_test_make_dir(dir, "profile");
    const char *path = clc_test_path(dir, "p.json");
    snprintf(cmd, sizeof cmd, "profile --size 1MiB -r 2 -o %s", path);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(out, "latency L1");
    clc_test_assert_has(out, "stream  write");
    clc_test_assert_lacks(out, "nan");
    /* the notes of the run are said once, not again by each of its small runs */
    const char *dev = strstr(err, "note: device:");
    ck_assert_msg(dev != NULL && strstr(dev + 1, "note: device:") == NULL, "%s", err);
    json_error_t je;
    json_t *p = json_load_file(path, 0, &je);
    ck_assert_msg(p != NULL, "%s: %s", path, je.text);
    ck_assert(json_is_number(json_object_get(json_object_get(p, "latency_ns"), "l1")));
    ck_assert_uint_eq(json_array_size(json_object_get(json_object_get(p, "latency_ns"), "curve")),
                      7); /* 16 KiB .. 1 MiB */
    static const char *const streams[] = {"read", "write", "copy", "triad"};
    for (int i = 0; i < 4; i++)
        ck_assert(json_number_value(json_object_get(json_object_get(p, "stream_gbps"),
                                                    streams[i])) > 0);
    ck_assert(json_is_object(json_object_get(p, "inflight")));
    ck_assert(json_is_object(json_object_get(p, "local_banks")));
    ck_assert(json_is_string(json_object_get(json_object_get(p, "device"), "l2_source")));
    json_t *scatter = json_object_get(p, "scatter");
    ck_assert(json_number_value(json_object_get(scatter, "load_lines_per_s")) > 0);
    ck_assert(json_number_value(json_object_get(scatter, "store_lines_per_s")) > 0);
    ck_assert(json_number_value(json_object_get(scatter, "missed_lines_per_s")) > 0);
    /* the refill figures: a row of one step costs nothing more than itself */
    json_t *refill = json_object_get(p, "refill");
    ck_assert_uint_eq(json_array_size(json_object_get(refill, "steps")), CLC_PROFILE_STEPS);
    for (int t = 0; t < 2; t++) {
        json_t *ps = json_object_get(refill, t ? "fp64_ps" : "fp32_ps");
        ck_assert_uint_eq(json_array_size(ps), CLC_PROFILE_STEPS);
        for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
            json_t *v = json_array_get(ps, c);
            ck_assert(json_is_number(v) && json_number_value(v) >= 0);
            ck_assert(c > 0 || json_number_value(v) == 0);
        }
    }
    clc_test_assert_has(out, "one 128-byte line per lane");
    clc_test_assert_has(out, "work-groups started: at most");
    ck_assert(json_number_value(json_object_get(p, "groups_per_s")) > 0);
    /* the copies by group size: those not bound by the rate of groups (the fastest is) */
    json_t *one = json_object_get(json_object_get(p, "inflight"), "one_pass");
    ck_assert(json_is_array(one));
    size_t staged4 = 0;
    for (size_t i = 0; i < json_array_size(one); i++) {
        json_t *pt = json_array_get(one, i);
        ck_assert(json_integer_value(json_object_get(pt, "group_items")) >= 32);
        staged4 += json_integer_value(json_object_get(pt, "items")) == CLC_PROFILE_STAGED_ITEMS;
    }
    ck_assert_uint_gt(staged4, 0); /* the staged copies of 4 elements a work-item */
    /* the long-lived copy: the gridstride case's grid-stride rows over the copy ceiling */
    ck_assert(json_number_value(json_object_get(json_object_get(p, "inflight"),
                                                "long_copy_of_copy")) > 0);
    clc_test_assert_has(out, "staged with 4 elements a work-item");
    /* the held tile transpose over the same tile loaded together, floats and doubles: a
     * figure only where its build waits for each load (NVIDIA's OpenCL), else none */
    json_t *held = json_object_get(json_object_get(p, "inflight"), "held_tile_ratio");
    ck_assert_uint_eq(json_array_size(held), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *v = json_array_get(held, i);
        ck_assert(json_is_null(v) || json_number_value(v) > 0);
    }
    clc_test_assert_has(out, "a tile transpose whose work-items wait for each load");
    size_t tiles = 0;
    json_t *all = json_object_get(p, "rows");
    for (size_t i = 0; i < json_array_size(all); i++) {
        const char *v = json_string_value(json_object_get(json_array_get(all, i), "variant"));
        tiles += v != NULL && (strcmp(v, "tiled_held") == 0 || strcmp(v, "tiled_padded") == 0);
    }
    ck_assert_uint_eq(tiles, 4); /* both tiles in floats and doubles */
    /* integer work: a unit's cost from the indexmath rows (work grows with their rounds) */
    json_t *work = json_object_get(p, "integer_work");
    ck_assert(json_number_value(json_object_get(work, "unit_ps")) > 0);
    clc_test_assert_has(out, "integer work:");
    ck_assert_uint_gt(json_array_size(json_object_get(p, "rows")), 80);
    /* the store merging factors' classes, and the runs rows they come from */
    json_t *merging = json_object_get(p, "store_merging");
    ck_assert_uint_eq(json_array_size(json_object_get(merging, "lines")), CLC_PROFILE_MERGE);
    ck_assert_uint_eq(json_array_size(json_object_get(merging, "factor")), CLC_PROFILE_MERGE);
    for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++)
        ck_assert_uint_eq(json_array_size(json_object_get(merging, clc_profile_merge_key(t))),
                          CLC_PROFILE_MERGE);
    size_t runs = 0;
    json_t *rows = json_object_get(p, "rows");
    for (size_t i = 0; i < json_array_size(rows); i++)
        runs += strcmp(json_string_value(json_object_get(json_array_get(rows, i), "case")),
                       "runs") == 0;
    ck_assert_uint_eq(runs, 6 * 2 * 6); /* six variants, two types, k = 1 .. 32 */
    json_t *l2 = json_object_get(p, "l2");
    ck_assert(json_number_value(json_object_get(l2, "load_sectors_per_s")) > 0);
    ck_assert(json_number_value(json_object_get(l2, "store_sectors_per_s")) > 0);
    clc_test_assert_has(out, "the L2's own throughput");
    clc_test_assert_has(out, "a float's line filled over 2 .. 16 steps");
    json_decref(p);
    clc_test_expect("profile stride", 2, "no case names", out, sizeof out, err, sizeof err);
    clc_test_expect("profile --api both", 2, "one API at a time", out, sizeof out, err,
                    sizeof err);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {latency_sweep_verifies, latency_check_catches_a_wrong_chase,
                            stream_verifies, stream_checks_catch_wrong_kernels,
                            inflight_verifies_and_counts_bytes_in_flight,
                            banks_verify_and_say_the_conflict, scatter_verifies,
                            scatter_checks_catch_wrong_kernels, runs_verify,
                            runs_checks_catch_wrong_kernels, l2_verifies,
                            l2_checks_catch_wrong_kernels, groups_verify,
                            groups_checks_catch_wrong_kernels, profile_writes_every_figure};
    return clc_test_main(
        clc_test_suite("machine_cases", tests, sizeof tests / sizeof tests[0]));
}
