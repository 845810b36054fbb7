/* test_validate.c - `validate`: a manifest of kernels from bench/validation runs at a small
 * size with a device profile; the table and the JSON carry each kernel's split, figures and
 * status, and the score they print follows from their own rows; a kernel that fails is a
 * failed row and exit 1; bad options exit 2, an unreadable manifest exits 1. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define SET CLC_TEST_SOURCE_DIR "/bench/validation/"

static char out[1 << 16], err[1 << 16];

/* Writes dir/k.tsv: a header, a comment, and the rows given (NULL-ended). */
static const char *write_manifest(const char *dir, const char *const *rows)
{
    char text[4096] = "# a test manifest\nfile\tkernel\tpattern\tlocal\titems\tfamily\tsplit\n";
    for (size_t i = 0; rows[i] != NULL; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s\n", rows[i]);
    const char *path = clc_test_path(dir, "k.tsv");
    clc_test_write_file(path, text);
    return path;
}

/* Three kernels of the set, of three patterns, in both splits. */
static const char *const three[] = {
    SET "permutation_global.cl\tcopy_reverse\tcopy\t256\t1\tpermutation-global\tdev",
    SET "gather_index.cl\tgather_idx_vec4\tgather\t256\t4\tgather-index\ttest",
    SET "transpose_direct.cl\ttr_rows4\ttranspose\t32x8\t4\ttranspose-direct\ttest",
    NULL,
};

/* Checks a score object against the kernels of split (NULL: all) in the JSON's list (the
 * JSON keeps 8 significant digits: the figures agree to 1e-6). */
static void check_score(json_t *kernels, json_t *score, const char *split)
{
    size_t n = 0, predicted = 0, w10 = 0, w20 = 0, i;
    double abs_sum = 0, log_sum = 0;
    json_t *k;
    json_array_foreach(kernels, i, k) {
        if (split && strcmp(json_string_value(json_object_get(k, "split")), split) != 0)
            continue;
        n++;
        double g = json_number_value(json_object_get(k, "gbps"));
        double p = json_number_value(json_object_get(k, "predicted_gbps"));
        double r = json_number_value(json_object_get(k, "residual"));
        ck_assert_double_gt(g, 0);
        ck_assert_double_gt(p, 0);
        ck_assert_double_eq_tol(r, g / p - 1, 1e-6);
        predicted++;
        w10 += fabs(r) <= 0.10;
        w20 += fabs(r) <= 0.20;
        abs_sum += fabs(r);
        log_sum += log(g / p);
    }
    ck_assert_uint_eq(json_integer_value(json_object_get(score, "kernels")), n);
    ck_assert_uint_eq(json_integer_value(json_object_get(score, "predicted")), predicted);
    ck_assert_uint_eq(json_integer_value(json_object_get(score, "within_10pct")), w10);
    ck_assert_uint_eq(json_integer_value(json_object_get(score, "within_20pct")), w20);
    ck_assert_double_eq_tol(json_number_value(json_object_get(score, "mean_abs_residual")),
                            abs_sum / (double)n, 1e-6);
    ck_assert_double_eq_tol(
        json_number_value(json_object_get(score, "geomean_measured_over_predicted")),
        exp(log_sum / (double)n), 1e-6);
}

/* The JSON report: one entry per kernel with its split, verified and predicted; the score
 * per split and overall follows from those entries. */
START_TEST(json_scores_follow_from_rows)
{
    char dir[64], cmd[2048];
    clc_test_make_dir(dir, "validate-json");
    const char *prof = clc_test_write_profile(dir);
    char manifest[512];
    snprintf(manifest, sizeof manifest, "%s", write_manifest(dir, three));
    const char *json = clc_test_path(dir, "v.json");
    snprintf(cmd, sizeof cmd, "validate --manifest %s --size 64KiB -r 2 --profile %s -f json "
             "-o %s", manifest, prof, json);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    json_error_t e;
    json_t *root = json_load_file(json, 0, &e);
    ck_assert_msg(root != NULL, "%s: %s", json, e.text);
    json_t *kernels = json_object_get(root, "kernels"), *score = json_object_get(root, "score");
    ck_assert_uint_eq(json_array_size(kernels), 3);
    static const char *const names[] = {"copy_reverse", "gather_idx_vec4", "tr_rows4"};
    static const char *const split[] = {"dev", "test", "test"};
    for (size_t i = 0; i < 3; i++) {
        json_t *k = json_array_get(kernels, i);
        ck_assert_str_eq(json_string_value(json_object_get(k, "kernel")), names[i]);
        ck_assert_str_eq(json_string_value(json_object_get(k, "split")), split[i]);
        ck_assert_str_eq(json_string_value(json_object_get(k, "status")), "ok");
        ck_assert_ptr_nonnull(json_string_value(json_object_get(k, "bound")));
    }
    check_score(kernels, json_object_get(score, "dev"), "dev");
    check_score(kernels, json_object_get(score, "test"), "test");
    check_score(kernels, json_object_get(score, "all"), NULL);
    ck_assert_uint_eq(json_array_size(json_object_get(root, "results")), 3);
    json_decref(root);
    clc_test_remove_dir(dir);
}
END_TEST

/* The table: a row per kernel with its family and split, and the score lines; --split
 * keeps one split's kernels. */
START_TEST(table_rows_and_split)
{
    char dir[64], cmd[2048];
    clc_test_make_dir(dir, "validate-table");
    const char *manifest = write_manifest(dir, three);
    snprintf(cmd, sizeof cmd, "validate --manifest %s --size 64KiB -r 2 --split test",
             manifest);
    clc_test_expect(cmd, 0, "predictions need 'clcoalesce profile'", out, sizeof out, err,
                    sizeof err);
    clc_test_assert_has(out, "kernel                     family             split");
    clc_test_assert_lacks(out, "copy_reverse");
    double g;
    const char *row = strstr(out, "tr_rows4 ");
    ck_assert_msg(row != NULL, "no tr_rows4 row in: %s", out);
    ck_assert_msg(sscanf(row, "tr_rows4 transpose-direct test %lf - - - ok", &g) == 1,
                  "bad row in: %s", out);
    ck_assert_double_gt(g, 0);
    /* no profile: measured, none predicted */
    clc_test_assert_has(out, "test         2      0         0           0           0        -");
    clc_test_remove_dir(dir);
}
END_TEST

/* A kernel that does not exist in its file is a failed row; the others still run; exit 1,
 * and the report is written with the failure counted. */
START_TEST(failing_kernel_exits_1)
{
    char dir[64], cmd[2048];
    clc_test_make_dir(dir, "validate-fail");
    static const char *const rows[] = {
        SET "permutation_global.cl\tno_such_kernel\tcopy\t256\t1\tpermutation-global\tdev",
        SET "permutation_global.cl\tcopy_reverse\tcopy\t256\t1\tpermutation-global\ttest",
        NULL,
    };
    char manifest[512];
    snprintf(manifest, sizeof manifest, "%s", write_manifest(dir, rows));
    const char *json = clc_test_path(dir, "v.json");
    snprintf(cmd, sizeof cmd, "validate --manifest %s --size 64KiB -r 2 -f json -o %s",
             manifest, json);
    clc_test_expect(cmd, 1, "kernel 'no_such_kernel'", out, sizeof out, err, sizeof err);
    json_t *root = json_load_file(json, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *kernels = json_object_get(root, "kernels");
    ck_assert_uint_eq(json_array_size(kernels), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(kernels, 0), "status")),
                     "failed");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(kernels, 1), "status")),
                     "ok");
    json_t *all = json_object_get(json_object_get(root, "score"), "all");
    ck_assert_int_eq(json_integer_value(json_object_get(all, "failed")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(all, "kernels")), 2);
    json_decref(root);
    clc_test_remove_dir(dir);
}
END_TEST

/* Bad options exit 2 before anything runs; a manifest that cannot be read or lacks a
 * column exits 1, naming it. */
START_TEST(bad_options)
{
    char dir[64], cmd[2048];
    clc_test_make_dir(dir, "validate-bad");
    static const struct {
        const char *args;
        int code;
        const char *needle;
    } cases[] = {
        {"validate --split train", 2, "--split takes dev, test or all"},
        {"validate --family ''", 2, "--family takes a family name"},
        {"validate -f csv", 2, "not CSV"},
        {"validate --variant kernel", 2, "--variant has nothing to pick"},
        {"validate --manifest ''", 2, "--manifest takes a file"},
        {"validate copy", 2, NULL},
        {"validate --manifest /nonexistent/k.tsv", 1, "cannot read manifest"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        clc_test_expect(cases[i].args, cases[i].code, cases[i].needle, out, sizeof out, err,
                        sizeof err);
    const char *bad = clc_test_path(dir, "bad.tsv");
    clc_test_write_file(bad, "file\tkernel\tpattern\tlocal\titems\tfamily\n");
    snprintf(cmd, sizeof cmd, "validate --manifest %s", bad);
    clc_test_expect(cmd, 1, "lacks the column 'split'", out, sizeof out, err, sizeof err);
    clc_test_write_file(bad, "file\tkernel\tpattern\tlocal\titems\tfamily\tsplit\n"
                             "a.cl\tk\tcopy\t256\t1\tf\ttrain\n");
    clc_test_expect(cmd, 1, "bad.tsv:2: bad split", out, sizeof out, err, sizeof err);
    /* an output that is the manifest would replace it: refused, the manifest kept */
    snprintf(cmd, sizeof cmd, "validate --manifest %s -f json -o %s", bad, bad);
    clc_test_expect(cmd, 2, "--manifest", out, sizeof out, err, sizeof err);
    size_t len = 0;
    char *kept = clc_read_text(bad, &len);
    ck_assert_msg(kept != NULL && strncmp(kept, "file\tkernel\t", 12) == 0,
                  "the manifest changed");
    free(kept);
    clc_test_remove_dir(dir);
}
END_TEST

/* Each manifest holds the split its recorded seed draws (split.sh --check), and the check
 * fails on a manifest whose split was changed by hand: one kernel moved from dev to test. */
START_TEST(manifests_keep_their_draw)
{
    static const char *const manifests[] = {SET "kernels.tsv", SET "second/kernels.tsv",
                                            SET "third/kernels.tsv", SET "fourth/kernels.tsv",
                                            SET "fifth/kernels.tsv", SET "sixth/kernels.tsv"};
    char dir[64], cmd[2048];
    clc_test_make_dir(dir, "validate-split");
    for (size_t i = 0; i < sizeof manifests / sizeof manifests[0]; i++) {
        snprintf(cmd, sizeof cmd, "sh %ssplit.sh --check %s", SET, manifests[i]);
        ck_assert_msg(system(cmd) == 0, "%s differs from its seed's draw", manifests[i]);
        size_t len = 0;
        char *text = clc_read_text(manifests[i], &len);
        ck_assert_ptr_nonnull(text);
        char *dev = strstr(text, "\tdev\n");
        ck_assert_ptr_nonnull(dev);
        const char *moved = clc_test_path(dir, "moved.tsv");
        char *edited = NULL;
        ck_assert_int_ge(asprintf(&edited, "%.*s\ttest\n%s", (int)(dev - text), text, dev + 5),
                         0);
        clc_test_write_file(moved, edited);
        snprintf(cmd, sizeof cmd, "sh %ssplit.sh --check %s 2>/dev/null", SET, moved);
        ck_assert_msg(system(cmd) != 0, "a kernel moved to test passed the check");
        free(edited);
        free(text);
    }
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {json_scores_follow_from_rows, table_rows_and_split,
                            failing_kernel_exits_1, bad_options,
                            manifests_keep_their_draw};
    return clc_test_main(clc_test_suite("validate", tests, sizeof tests / sizeof tests[0]));
}
