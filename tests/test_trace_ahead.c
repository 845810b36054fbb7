/* test_trace_ahead.c - the trace builds made ahead of the rows, on threads of their own while
 * earlier rows are timed and checked (host/driver/ahead.c; struct clc_opts trace_ahead, a
 * GPU's default, forced here on PoCL): the rows are modelled as by trace builds made in
 * place, a trace build that fails ahead is reported once, by its row, which it leaves as in
 * place, and a row that is not traced shows nothing of its build ahead. */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "testutil.h"

/* The trace build of coalesced.cl fails to compile; the timed build does not. */
#define NO_TRACE "CLC_TRACE_BEGIN\n#ifdef CLC_TRACE\n#error no trace build here\n#endif\n"

/* Runs case `name` with the trace build made ahead (1) or in place (0); every row verified. */
static void run_ahead(const char *name, int ahead, struct clc_report *rep)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.trace_ahead = ahead;
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

/* Every row of the vector case (nine kernels) is modelled alike, ahead or in place. */
START_TEST(ahead_models_as_in_place)
{
    struct clc_report ahead, in_place;
    run_ahead("vector", 1, &ahead);
    run_ahead("vector", 0, &in_place);
    ck_assert_uint_eq(ahead.n_results, in_place.n_results);
    for (size_t i = 0; i < ahead.n_results; i++) {
        const struct clc_result *a = &ahead.results[i], *b = &in_place.results[i];
        ck_assert_str_eq(a->variant, b->variant);
        ck_assert_msg(a->model_features.valid && !isnan(a->model_efficiency),
                      "%s/%s param %ld: not modelled ahead (%s)", a->case_name, a->variant,
                      a->param, a->note);
        assert_same(a, "sectors per request", a->model_sectors_per_req,
                    b->model_sectors_per_req);
        assert_same(a, "efficiency", a->model_efficiency, b->model_efficiency);
        assert_same(a, "bytes moved", a->model_bytes_moved, b->model_bytes_moved);
        const struct clc_model_features *fa = &a->model_features, *fb = &b->model_features;
        assert_same(a, "sector bytes per useful byte", fa->l2_per_useful, fb->l2_per_useful);
        assert_same(a, "loads in flight", fa->loads_in_flight, fb->loads_in_flight);
        assert_same(a, "groups", fa->groups, fb->groups);
        assert_same(a, "registers", fa->registers, fb->registers);
        /* the model's part of the note; the rest (the launches batched per timed sample)
         * depends on the timing */
        ck_assert_str_eq(model_note(a), model_note(b));
    }
    clc_report_free(&ahead);
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
    struct clc_opts o;
    const char *dir = clc_test_opts_edited(&o, "coalesced.cl", "CLC_TRACE_BEGIN", NO_TRACE);
    o.trace_ahead = 1;
    struct clc_report rep;
    clc_test_capture(2);
    int rc = clc_test_run_case("coalesced", &o, &rep);
    const char *err = clc_test_captured();
    ck_assert_msg(rc == CLC_OK, "returned %d; stderr:\n%s", rc, err);
    clc_test_assert_ok(&rep.results[0]);
    ck_assert(isnan(rep.results[0].model_efficiency) && !rep.results[0].model_features.valid);
    clc_test_assert_note(&rep.results[0], "model: trace build failed");
    ck_assert_msg(count(err, "build log:") == 1 && count(err, "no trace build here") == 2,
                  "the failed build, once (its first error line, then its log):\n%s", err);
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
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

int main(void)
{
    const TTest *tests[] = {ahead_models_as_in_place, failed_build_ahead_reported_once,
                            untraced_row_drops_its_build_ahead};
    return clc_test_main(clc_test_suite("trace_ahead", tests, sizeof tests / sizeof tests[0]));
}
