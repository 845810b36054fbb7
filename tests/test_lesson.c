/* test_lesson.c - what a run showed: the lesson's pairs and predicted-worst rows from
 * synthetic reports (a line only for pairs the report holds, with the ratio of its rows),
 * the lesson in the JSON, the table's columns dropped where no row fills them, and the
 * profile's stability rule (banks and DRAM gaps taken only beyond the rows' spread).  No
 * device. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/lesson.h"
#include "clcoalesce/predict.h"
#include "testutil.h"

/* Adds a verified row of case c, variant v, param p (< 0 none), type t at gbps. */
static void add(struct clc_report *rep, const char *c, const char *v, long p, enum clc_type t,
                double gbps)
{
    struct clc_result r = clc_test_row(c, v, p, t, gbps);
    ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);
}

/* The lesson as printed. */
static char *printed(const struct clc_report *rep)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clc_lesson_print(rep, f);
    fclose(f);
    return buf;
}

/* ------------------------------------------------------------------ the pairs */

START_TEST(pairs_present_give_their_ratio)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    add(&rep, "coalesced", "kernel", -1, CLC_FLOAT, 300);
    add(&rep, "uncoalesced", "kernel", -1, CLC_FLOAT, 125);
    add(&rep, "stride", "inplace", 1, CLC_FLOAT, 400);
    add(&rep, "stride", "inplace", 2, CLC_FLOAT, 200);
    add(&rep, "stride", "inplace", 16, CLC_FLOAT, 40); /* the worst */
    add(&rep, "stride", "inplace", 32, CLC_FLOAT, 50);
    add(&rep, "stride", "inplace", 16, CLC_DOUBLE, 1); /* another type: not mixed in */
    struct clc_lesson_line l[CLC_LESSON_MAX];
    size_t n = clc_lesson_make(&rep, l, CLC_LESSON_MAX);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq_tol(l[0].ratio, 300.0 / 125, 1e-9);
    ck_assert_str_eq(l[0].a, "coalesced kernel float");
    ck_assert_str_eq(l[0].b, "uncoalesced kernel float");
    ck_assert_double_eq_tol(l[1].ratio, 400.0 / 40, 1e-9);
    ck_assert_str_eq(l[1].b, "stride inplace 16 float");
    ck_assert_uint_eq(l[1].rows[0], 2);
    ck_assert_uint_eq(l[1].rows[1], 4);
    char *text = printed(&rep);
    clc_test_assert_has(text, "uncoalesced kernel float is 2.4x slower than coalesced kernel "
                              "float (125.0 against 300.0 GB/s)");
    clc_test_assert_has(text, "stride inplace 16 float is 10.0x slower than stride inplace 1");
    clc_test_assert_lacks(text, "furthest"); /* nothing was predicted */
    free(text);
    clc_report_free(&rep);
}
END_TEST

START_TEST(pairs_absent_give_no_line)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    add(&rep, "coalesced", "kernel", -1, CLC_FLOAT, 300); /* its pair's other side is missing */
    add(&rep, "stride", "inplace", 1, CLC_FLOAT, 400);    /* and so is this one's */
    struct clc_result failed = clc_test_row("uncoalesced", "kernel", -1, CLC_FLOAT, 100);
    failed.status = CLC_STATUS_ERROR; /* a wrong result is no side of a pair */
    failed.value = NAN;
    ck_assert_int_eq(clc_report_add(&rep, &failed), CLC_OK);
    struct clc_lesson_line l[CLC_LESSON_MAX];
    ck_assert_uint_eq(clc_lesson_make(&rep, l, CLC_LESSON_MAX), 0);
    char *text = printed(&rep);
    ck_assert_str_eq(text, "");
    free(text);
    clc_report_free(&rep);
}
END_TEST

START_TEST(faster_or_as_fast_said_as_measured)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    add(&rep, "aos_soa", "soa", -1, CLC_FLOAT, 100);
    add(&rep, "aos_soa", "aos", -1, CLC_FLOAT, 200); /* the expected loser won */
    add(&rep, "gather", "identity", -1, CLC_FLOAT, 100);
    add(&rep, "gather", "random", -1, CLC_FLOAT, 98);
    char *text = printed(&rep);
    clc_test_assert_has(text, "aos_soa aos float is 2.0x faster than aos_soa soa float");
    clc_test_assert_has(text, "gather random float is as fast as gather identity float");
    free(text);
    clc_report_free(&rep);
}
END_TEST

START_TEST(worst_predicted_rows_named)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    static const double measured[] = {100, 100, 100, 100, 100};
    static const double predicted[] = {95, 400, 110, 25, 150};
    for (int i = 0; i < 5; i++) {
        struct clc_result r = clc_test_row("offset", "inplace", i, CLC_FLOAT, measured[i]);
        r.model.gbps = predicted[i];
        snprintf(r.model.bound, sizeof r.model.bound, "lines");
        ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    }
    struct clc_lesson_line l[CLC_LESSON_MAX];
    size_t n = clc_lesson_make(&rep, l, CLC_LESSON_MAX);
    ck_assert_uint_eq(n, CLC_LESSON_WORST);
    /* 1/4 and 4 are as far in log scale: the first of them first, then 1.5 */
    ck_assert_uint_eq(l[0].rows[0], 1);
    ck_assert_uint_eq(l[1].rows[0], 3);
    ck_assert_uint_eq(l[2].rows[0], 4);
    ck_assert_double_eq_tol(l[1].ratio, 4.0, 1e-9);
    char *text = printed(&rep);
    clc_test_assert_has(text, "furthest from their predictions (2 of 5 predicted rows within 20");
    clc_test_assert_has(text, "offset inplace 3 float: 100.0 GB/s measured, 25.0 predicted "
                              "(+300 %, bound lines)");
    clc_test_assert_lacks(text, "offset inplace 0 float");
    free(text);
    clc_report_free(&rep);
}
END_TEST

START_TEST(lesson_in_the_json)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    add(&rep, "matrix", "rowmajor", 1024, CLC_FLOAT, 90);
    add(&rep, "matrix", "colmajor", 1024, CLC_FLOAT, 30);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(clc_write_json(&rep, f), CLC_OK);
    fclose(f);
    json_error_t err;
    json_t *root = json_loads(buf, 0, &err);
    ck_assert_msg(root != NULL, "%s", err.text);
    json_t *lesson = json_object_get(root, "lesson");
    ck_assert_uint_eq(json_array_size(lesson), 1);
    json_t *line = json_array_get(lesson, 0);
    ck_assert_double_eq_tol(json_real_value(json_object_get(line, "ratio")), 3.0, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(line, "a")), "matrix rowmajor 1024 float");
    json_t *rows = json_object_get(line, "rows");
    ck_assert_int_eq(json_integer_value(json_array_get(rows, 0)), 0);
    ck_assert_int_eq(json_integer_value(json_array_get(rows, 1)), 1);
    json_decref(root);
    /* the reader takes a file with a lesson as before */
    struct clc_report back;
    ck_assert_int_eq(clc_read_json_text(buf, len, "lesson.json", &back), CLC_OK);
    ck_assert_uint_eq(back.n_results, 2);
    clc_report_free(&back);
    free(buf);
    clc_report_free(&rep);
}
END_TEST

/* ------------------------------------------------------------------ columns */

START_TEST(empty_columns_dropped)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    add(&rep, "copy", "kernel", -1, CLC_FLOAT, 100); /* no prediction, peak, model, host */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clc_write_table(&rep, f);
    fclose(f);
    clc_test_assert_lacks(buf, "pred");
    clc_test_assert_lacks(buf, "bound");
    clc_test_assert_lacks(buf, "%peak");
    clc_test_assert_lacks(buf, "ms_host");
    clc_test_assert_has(buf, "%copy");
    free(buf);
    rep.results[0].model.gbps = 80;
    rep.results[0].pct_peak = 10;
    rep.results[0].ms_host = 0.01;
    ck_assert_uint_eq(clc_table_cols(&rep), CLC_COL_PRED | CLC_COL_PEAK | CLC_COL_HOST);
    f = open_memstream(&buf, &len);
    clc_write_table(&rep, f);
    fclose(f);
    clc_test_assert_has(buf, "pred");
    clc_test_assert_has(buf, "%peak");
    clc_test_assert_has(buf, "ms_host");
    clc_test_assert_has(buf, "80.0");
    free(buf);
    clc_report_free(&rep);
}
END_TEST

/* ------------------------------------------------------------------ the stability rule */

/* Banks rows of 33 strides: stride s at one / passes(s), or flat with noise. */
static void banks_rows(struct clc_report *rep, bool conflicts, double cv)
{
    for (long s = 1; s <= 33; s++) {
        long g = 1;
        for (long k = 2; k <= 32; k *= 2)
            if (s % k == 0)
                g = k;
        /* flat: the same at every stride, but stride 2 came out 1.6 x slower by chance */
        double v = conflicts ? 1000.0 / g : s == 2 ? 1000.0 / 1.6 : 1000.0 * (1 + 0.1 * (s % 3));
        struct clc_result r = clc_test_row("banks", "stride", s, CLC_FLOAT, v);
        r.cv = cv;
        ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);
    }
}

START_TEST(banks_taken_only_beyond_the_spread)
{
    struct clc_report rep;
    struct clc_profile p;
    clc_report_init(&rep, "opencl");
    banks_rows(&rep, false, 0.3);
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_int_eq(p.banks, 0); /* the lone slow stride 2 is noise: no banks */
    ck_assert_double_eq_tol(p.spread, 0.3, 1e-9);
    ck_assert(!(p.local_pass_ps > 0));
    clc_report_free(&rep);

    clc_report_init(&rep, "opencl");
    banks_rows(&rep, true, 0.01);
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_int_eq(p.banks, 32); /* the gcd law, clear of a 1 % spread */
    ck_assert(p.local_pass_ps > 0);
    clc_report_free(&rep);
}
END_TEST

/* Stride rows (copy in place, 2 x 4 bytes counted per element) taking ms per element as the
 * granule model has them: 64-byte granules, and the gaps of 2, 4, 8 granules `loss` slower. */
static void stride_rows(struct clc_report *rep, double loss, double cv)
{
    static const long strides[] = {8, 16, 32, 64, 128};
    for (size_t i = 0; i < 5; i++) {
        long sb = strides[i] * 4;
        double per = (sb < 64 ? sb : 64) * (sb > 64 ? loss : 1.0); /* bytes a DRAM moves */
        struct clc_result r = clc_test_row("stride", "inplace", strides[i], CLC_FLOAT, 100);
        r.ms_median = per * 1e-6 * ((double)r.bytes / 8.0);
        r.cv = cv;
        ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);
    }
    struct clc_result copy = clc_test_row("stream", "copy", -1, CLC_FLOAT, 1000);
    copy.cv = cv;
    ck_assert_int_eq(clc_report_add(rep, &copy), CLC_OK);
}

START_TEST(gap_losses_taken_only_beyond_the_spread)
{
    struct clc_report rep;
    struct clc_profile p;
    clc_report_init(&rep, "opencl");
    stride_rows(&rep, 1.2, 0.3); /* 17 % slower, samples 30 % apart: not told apart */
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_uint_eq(p.granule, 64);
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        ck_assert_double_eq_tol(p.gap_eff[c], 1.0, 1e-9);
    clc_report_free(&rep);

    clc_report_init(&rep, "opencl");
    stride_rows(&rep, 1.2, 0.01); /* the same loss, samples 1 % apart: a loss */
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_double_lt(p.gap_eff[CLC_MODEL_GAPS - 1], 0.9);
    clc_report_free(&rep);
}
END_TEST

START_TEST(spread_round_trips_through_json)
{
    struct clc_report rep;
    struct clc_profile p, back;
    clc_report_init(&rep, "opencl");
    stride_rows(&rep, 1.0, 0.25);
    clc_profile_from_report(&rep, "test", &p);
    json_t *o = clc_profile_to_json(&p);
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert_double_eq_tol(back.spread, 0.25, 1e-9);
    json_decref(o);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        pairs_present_give_their_ratio,
        pairs_absent_give_no_line,
        faster_or_as_fast_said_as_measured,
        worst_predicted_rows_named,
        lesson_in_the_json,
        empty_columns_dropped,
        banks_taken_only_beyond_the_spread,
        gap_losses_taken_only_beyond_the_spread,
        spread_round_trips_through_json,
    };
    return clc_test_main(clc_test_suite("lesson", tests, sizeof tests / sizeof tests[0]));
}
