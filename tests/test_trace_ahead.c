/* test_trace_ahead.c - the trace builds made ahead of the rows, on threads of their own while
 * earlier rows are timed and checked (host/driver/ahead.c; struct clc_opts trace_ahead, a
 * GPU's default, forced here on PoCL): the rows are modelled as by trace builds made in
 * place, a trace build that fails ahead is reported once, by its row, which it leaves as in
 * place, a row that is not traced shows nothing of its build ahead, and the builds the
 * threads make are in the build cache by the time their row needs them. */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "../host/driver/instance.h" /* the threads' own interface (ahead.c) */
#include "testutil.h"

/* The trace build of coalesced.cl fails to compile; the timed build does not. */
#define NO_TRACE "CLC_TRACE_BEGIN\n#ifdef CLC_TRACE\n#error no trace build here\n#endif\n"

/* The builds ahead made on the threads themselves, and by a compiler process of the
 * clcoalesce binary (OpenCL's; the CLI's default). */
static const char *const compilers[] = {NULL, CLC_TEST_BINARY};
#define N_COMPILERS (sizeof compilers / sizeof compilers[0])

/* Runs case `name` with the trace build made ahead (1), by `compiler` when not NULL, or in
 * place (0); every row verified. */
static void run_ahead(const char *name, int ahead, const char *compiler, struct clc_report *rep)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.trace_ahead = ahead;
    o.compiler = compiler;
    clc_test_run_verified(name, &o, 1, rep);
}

/* Asserts that a and b are the same figure of row r (both NAN, or equal). */
static void assert_same(const struct clc_result *r, const char *what, double a, double b)
{
    ck_assert_msg((isnan(a) && isnan(b)) || a == b, "%s/%s param %ld: %s %.17g ahead, %.17g in "
                  "place", r->case_name, r->variant, r->param, what, a, b);
}

/* What row r's note says of the model ("model: ..." to its end), or "". */
static const char *model_note(const struct clc_result *r)
{
    const char *m = strstr(r->note, "model:");
    return m != NULL ? m : "";
}

/* Every row of the vector case (nine kernels) is modelled alike, ahead (on the threads or
 * by the compiler process) or in place. */
START_TEST(ahead_models_as_in_place)
{
    struct clc_report in_place;
    run_ahead("vector", 0, NULL, &in_place);
    for (size_t w = 0; w < N_COMPILERS; w++) {
        struct clc_report ahead;
        run_ahead("vector", 1, compilers[w], &ahead);
        ck_assert_uint_eq(ahead.n_results, in_place.n_results);
        for (size_t i = 0; i < ahead.n_results; i++) {
            const struct clc_result *a = &ahead.results[i], *b = &in_place.results[i];
            ck_assert_str_eq(a->variant, b->variant);
            ck_assert_msg(a->model.features.valid && !isnan(a->model.efficiency),
                          "%s/%s param %ld: not modelled ahead (%s)", a->case_name, a->variant,
                          a->param, a->note);
            assert_same(a, "sectors per request", a->model.sectors_per_req,
                        b->model.sectors_per_req);
            assert_same(a, "efficiency", a->model.efficiency, b->model.efficiency);
            assert_same(a, "bytes moved", a->model.bytes_moved, b->model.bytes_moved);
            const struct clc_model_features *fa = &a->model.features, *fb = &b->model.features;
            assert_same(a, "sector bytes per useful byte", fa->l2_per_useful, fb->l2_per_useful);
            assert_same(a, "loads in flight", fa->loads_in_flight, fb->loads_in_flight);
            assert_same(a, "groups", fa->groups, fb->groups);
            assert_same(a, "registers", fa->registers, fb->registers);
            /* the model's part of the note; the rest (the launches batched per timed sample)
             * depends on the timing */
            ck_assert_str_eq(model_note(a), model_note(b));
        }
        clc_report_free(&ahead);
    }
    clc_report_free(&in_place);
}
END_TEST

/* Counts the occurrences of needle in text. */
static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A trace build that fails ahead: its log printed once, the row verified with the model
 * empty, as in place. */
START_TEST(failed_build_ahead_reported_once)
{
    for (size_t w = 0; w < N_COMPILERS; w++) {
        struct clc_opts o;
        const char *dir = clc_test_opts_edited(&o, "coalesced.cl", "CLC_TRACE_BEGIN", NO_TRACE);
        o.trace_ahead = 1;
        o.compiler = compilers[w];
        struct clc_report rep;
        clc_test_capture(2);
        int rc = clc_test_run_case("coalesced", &o, &rep);
        const char *err = clc_test_captured();
        ck_assert_msg(rc == CLC_OK, "returned %d; stderr:\n%s", rc, err);
        clc_test_assert_ok(&rep.results[0]);
        ck_assert(isnan(rep.results[0].model.efficiency) && !rep.results[0].model.features.valid);
        clc_test_assert_note(&rep.results[0], "model: trace build failed");
        /* counted by the tool's own lines: a compiler may repeat the message in its log (and
         * NVIDIA's prints its own summary lines) */
        ck_assert_msg(count(err, "build log:") == 1 && count(err, "clcoalesce: error: ") == 1 &&
                          count(err, "' failed\n") == 1,
                      "the failed build, once (its first error line, then its log):\n%s", err);
        clc_report_free(&rep);
        clc_test_remove_dir(dir);
    }
}
END_TEST

/* A row that does not verify is not traced: its build ahead goes unused, a failed one's log
 * unshown, as in place where it is never built. */
START_TEST(untraced_row_drops_its_build_ahead)
{
    for (int fails = 0; fails <= 1; fails++) {
        struct clc_opts o;
        const char *dir = clc_test_opts_edited(&o, "coalesced.cl", "LOAD(in, i) * 2",
                                               "LOAD(in, i) * 3");
        if (fails)
            clc_test_edit_kernel(dir, "coalesced.cl", "CLC_TRACE_BEGIN", NO_TRACE);
        o.trace_ahead = 1;
        struct clc_report rep;
        clc_test_capture(2);
        int rc = clc_test_run_case("coalesced", &o, &rep);
        const char *err = clc_test_captured();
        ck_assert_int_eq(rc, CLC_ERR);
        clc_test_assert_caught(&rep.results[0], "wrong result");
        clc_test_assert_lacks(err, "build log:");
        clc_report_free(&rep);
        clc_test_remove_dir(dir);
    }
}
END_TEST

/* Row `i` of the vector case for the white-box test below: its i-th variant, first param. */
struct row {
    const struct clc_variant *v;
    long param;
};

static struct row vector_row(const struct clc_case *c, const struct clc_env *e, size_t i)
{
    ck_assert_uint_gt(c->n_variants, i);
    const struct clc_variant *v = &c->variants[i];
    long params[CLC_MAX_PARAMS] = {0};
    if (v->params != NULL)
        ck_assert_uint_gt(v->params(e, v, params), 0);
    return (struct row){v, params[0]};
}

/* Builds row r's trace build on be: CLC_OK or CLC_ERR, what it prints captured. */
static int trace_build(struct clc_backend *be, const struct clc_case *c, const struct clc_env *e,
                       struct row r, const char *extra)
{
    struct clc_plan p;
    ck_assert_int_eq(clc_variant_plan(e, r.v, r.param, &p), CLC_OK);
    char opts[600];
    clc_trace_options(&p, e->type, be, opts, sizeof opts);
    strncat(opts, extra, sizeof opts - strlen(opts) - 1);
    struct clc_kernel *k = NULL;
    clc_test_capture(2);
    int rc = be->ops->build(be, clc_plan_file(&p, c->cl_file), opts, p.kernel, &k);
    clc_test_captured();
    if (rc == CLC_OK)
        clc_release_kernel(be, k);
    clc_plan_free(&p);
    return rc;
}

/* Once the run is at a listed row and the threads are through it, that row's trace build is
 * in the build cache: it is found even after the kernel file broke.  The same build with
 * options no row lists is compiled now, from the broken file, and fails.  With a compiler
 * process, the builds in the cache are the ones it made. */
START_TEST(builds_ahead_are_in_the_cache)
{
    for (size_t w = 0; w < N_COMPILERS; w++) {
        struct clc_opts o;
        const char *dir = clc_test_opts_edited(&o, "vector.cl", "CLC_TRACE_BEGIN",
                                               "CLC_TRACE_BEGIN");
        o.trace_ahead = 1;
        o.compiler = compilers[w];
        struct clc_report rep;
        clc_report_init(&rep, clc_api_name(CLC_API_OPENCL));
        struct clc_session s;
        ck_assert_int_eq(clc_session_open(&s, &o, &rep, NULL), CLC_OK);
        struct clc_backend *be = s.be[s.n_be - 1];
        const struct clc_case *c = clc_find_case("vector");
        ck_assert_ptr_nonnull(c);
        struct clc_env e = clc_env_make(&s.be[0]->dev, CLC_FLOAT, (uint64_t)1 << 20);
        struct row rows[3];
        for (size_t i = 0; i < 3; i++) {
            rows[i] = vector_row(c, &e, i);
            clc_ahead_add(&s, c, rows[i].v, CLC_FLOAT, e.size, rows[i].param);
        }
        clc_ahead_start(&s);
        clc_ahead_at(&s, c, rows[2].v, CLC_FLOAT, e.size, rows[2].param);
        clc_ahead_wait(&s, be);
        if (o.compiler != NULL && be->ops->start_compiler != NULL)
            ck_assert_uint_gt(be->built_elsewhere, 0);
        else
            ck_assert_uint_eq(be->built_elsewhere, 0);
        clc_test_edit_kernel(dir, "vector.cl", "CLC_TRACE_BEGIN", NO_TRACE);
        ck_assert_int_eq(trace_build(be, c, &e, rows[2], ""), CLC_OK);
        ck_assert_int_eq(trace_build(be, c, &e, rows[2], " -DCLC_UNLISTED"), CLC_ERR);
        clc_ahead_stop(&s);
        clc_session_close(&s);
        clc_report_free(&rep);
        clc_test_remove_dir(dir);
    }
}
END_TEST

int main(void)
{
    const TTest *tests[] = {ahead_models_as_in_place, failed_build_ahead_reported_once,
                            untraced_row_drops_its_build_ahead, builds_ahead_are_in_the_cache};
    return clc_test_main(clc_test_suite("trace_ahead", tests, sizeof tests / sizeof tests[0]));
}
