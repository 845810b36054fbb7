/* test_compare.c - `clcoalesce compare`: result files written by the library are joined by
 * (case, variant, param, type); ratios, rows missing from a file, --tolerance, the formats and
 * every failure exit code are checked through the real binary. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 16];
static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/clc-test-cmp-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char *cmd;
    ck_assert(asprintf(&cmd, "rm -rf %s", dir) > 0);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* A verified row with the given GB/s (param < 0: none). */
static struct clc_result row(const char *c, const char *v, long param, enum clc_type t,
                             double gbps)
{
    struct clc_result r;
    clc_result_init(&r, c, v, t);
    if (param >= 0)
        clc_result_set_param(&r, param);
    r.bytes = 1000000;
    r.reps = 3;
    r.ms_median = r.ms_min = r.ms_max = (double)r.bytes / (gbps * 1e6);
    r.cv = 0;
    r.gbps = gbps;
    r.verified = true;
    r.status = CLC_STATUS_OK;
    return r;
}

/* Writes rows as dir/name through the library's JSON writer; returns the path (static). */
static const char *write_report(const char *name, const char *api, const char *device,
                                const struct clc_result *rows, size_t n)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 256, "%s/%s", dir, name);
    struct clc_report rep;
    clc_report_init(&rep, api);
    snprintf(rep.device.name, sizeof rep.device.name, "%s", device);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(clc_report_add(&rep, &rows[i]), CLC_OK);
    ck_assert_int_eq(clc_write_report_file(&rep, CLC_FMT_JSON, path), CLC_OK);
    clc_report_free(&rep);
    return path;
}

static const char *write_text(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int compare(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int compare(const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char cmd[2100];
    snprintf(cmd, sizeof cmd, "compare %s", args);
    return clc_test_cli(cmd, out, sizeof out, err, sizeof err);
}

/* The JSON comparison written with -f json -o; asserts it parses. */
static json_t *load_json(const char *path)
{
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    ck_assert_msg(root != NULL, "%s: %s", path, e.text);
    return root;
}

/* The joined row of case/variant/param/type (param < 0: none) in a comparison. */
static json_t *find_row(json_t *root, const char *c, const char *v, long param, const char *t)
{
    json_t *rows = json_object_get(root, "rows"), *r;
    size_t i;
    json_array_foreach(rows, i, r)
    {
        json_t *p = json_object_get(r, "param");
        if (strcmp(json_string_value(json_object_get(r, "case")), c) == 0 &&
            strcmp(json_string_value(json_object_get(r, "variant")), v) == 0 &&
            strcmp(json_string_value(json_object_get(r, "type")), t) == 0 &&
            (param < 0 ? json_is_null(p) : json_integer_value(p) == param))
            return r;
    }
    ck_abort_msg("row %s/%s:%ld %s not in the comparison", c, v, param, t);
    return NULL;
}

/* files[file] of a joined row (file counted from 0). */
static json_t *cell(json_t *row, size_t file)
{
    return json_array_get(json_object_get(row, "files"), file);
}

static double ratio(json_t *row, size_t file)
{
    json_t *r = json_object_get(cell(row, file), "ratio");
    return json_is_number(r) ? json_number_value(r) : NAN;
}

/* Five rows; copy/kernel and stride/inplace:1 float scaled by the given factors. */
static size_t base(struct clc_result *rows, double scale_copy, double scale_stride)
{
    size_t n = 0;
    rows[n++] = row("copy", "kernel", -1, CLC_FLOAT, 100.0 * scale_copy);
    rows[n++] = row("copy", "enqueue", -1, CLC_FLOAT, 120.0);
    rows[n++] = row("stride", "inplace", 1, CLC_FLOAT, 80.0 * scale_stride);
    rows[n++] = row("stride", "inplace", 2, CLC_FLOAT, 40.0);
    rows[n++] = row("stride", "inplace", 2, CLC_DOUBLE, 50.0);
    return n;
}

/* The same file twice: every ratio is 1. */
START_TEST(identical_files_ratio_one)
{
    make_dir();
    struct clc_result rows[8];
    size_t n = base(rows, 1, 1);
    const char *a = write_report("a.json", "opencl", "Test GPU", rows, n);
    ck_assert_int_eq(compare("%s %s", a, a), 0);
    ck_assert_msg(strstr(out, "joined 5 rows") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "geomean 1.000, min 1.000") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "[1] ") != NULL && strstr(out, "opencl on Test GPU") != NULL,
                  "%s", out);

    char js[256];
    snprintf(js, sizeof js, "%s/cmp.json", dir);
    ck_assert_int_eq(compare("%s %s -f json -o %s", a, a, js), 0);
    json_t *root = load_json(js);
    ck_assert_uint_eq(json_array_size(json_object_get(root, "rows")), 5);
    json_t *r;
    size_t i;
    json_array_foreach(json_object_get(root, "rows"), i, r)
    {
        ck_assert(json_is_true(json_object_get(r, "in_all_files")));
        ck_assert_double_eq_tol(ratio(r, 1), 1.0, 1e-9);
    }
    json_t *sum = json_object_get(root, "summary");
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "joined")), 5);
    json_decref(root);
    remove_dir();
}
END_TEST

/* B's copy kernel is twice as fast and stride 1 half as fast: the ratios say so, and the
 * summary names the extremes. */
START_TEST(known_ratios)
{
    make_dir();
    struct clc_result ra[8], rb[8];
    size_t na = base(ra, 1, 1), nb = base(rb, 2, 0.5);
    const char *a = write_report("a.json", "opencl", "GPU A", ra, na);
    const char *b = write_report("b.json", "cuda", "GPU B", rb, nb);
    ck_assert_int_eq(compare("%s %s", a, b), 0);
    ck_assert_msg(strstr(out, "opencl on GPU A") && strstr(out, "cuda on GPU B"), "%s", out);
    ck_assert_msg(strstr(out, "min 0.500 (stride/inplace:1 float)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "max 2.000 (copy/kernel float)") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "2.000") && strstr(out, "0.500"), "%s", out);

    char js[256];
    snprintf(js, sizeof js, "%s/cmp.json", dir);
    ck_assert_int_eq(compare("%s %s --format json --output %s", a, b, js), 0);
    json_t *root = load_json(js);
    ck_assert_double_eq_tol(ratio(find_row(root, "copy", "kernel", -1, "float"), 1), 2.0, 1e-6);
    ck_assert_double_eq_tol(ratio(find_row(root, "stride", "inplace", 1, "float"), 1), 0.5, 1e-6);
    ck_assert_double_eq_tol(ratio(find_row(root, "stride", "inplace", 2, "double"), 1), 1.0, 1e-6);
    json_t *files = json_object_get(root, "files");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(files, 0), "api")), "opencl");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(files, 1), "api")), "cuda");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(files, 1), "device")), "GPU B");
    ck_assert(json_is_string(json_object_get(json_array_get(files, 0), "timestamp")));
    json_t *s = json_array_get(json_object_get(json_object_get(root, "summary"), "ratios"), 0);
    /* geomean of 2, 1, 0.5, 1, 1 */
    ck_assert_double_eq_tol(json_number_value(json_object_get(s, "geomean")), 1.0, 1e-6);
    ck_assert_str_eq(json_string_value(json_object_get(s, "min_row")), "stride/inplace:1 float");
    json_decref(root);

    /* --metric ms: times halve where GB/s doubles */
    ck_assert_int_eq(compare("%s %s --metric ms -f json -o %s", a, b, js), 0);
    root = load_json(js);
    ck_assert_str_eq(json_string_value(json_object_get(root, "metric")), "ms");
    ck_assert_double_eq_tol(ratio(find_row(root, "copy", "kernel", -1, "float"), 1), 0.5, 1e-6);
    json_decref(root);

    /* a third file: its ratios are to the first too */
    ck_assert_int_eq(compare("%s %s %s -f json -o %s", a, b, b, js), 0);
    root = load_json(js);
    json_t *kr = find_row(root, "copy", "kernel", -1, "float");
    ck_assert_double_eq_tol(ratio(kr, 1), 2.0, 1e-6);
    ck_assert_double_eq_tol(ratio(kr, 2), 2.0, 1e-6);
    json_decref(root);
    remove_dir();
}
END_TEST

START_TEST(tolerance)
{
    make_dir();
    struct clc_result ra[8], rb[8];
    size_t na = base(ra, 1, 1), nb = base(rb, 1.03, 0.98);
    const char *a = write_report("a.json", "opencl", "GPU", ra, na);
    const char *b = write_report("b.json", "opencl", "GPU", rb, nb);
    ck_assert_int_eq(compare("%s %s --tolerance 5", a, b), 0);
    ck_assert_msg(strstr(out, "all ratios within 5%") != NULL, "%s", out);
    ck_assert_int_eq(compare("%s %s --tolerance 2.5", a, b), 1);
    ck_assert_msg(strstr(err, "1 ratio outside") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "copy/kernel float") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "stride/inplace:1 float") == NULL, "%s", err);
    ck_assert_int_eq(compare("%s %s --tolerance 1", a, b), 1);
    ck_assert_msg(strstr(err, "2 ratios outside") && strstr(err, "stride/inplace:1 float") &&
                      strstr(err, "copy/kernel float"),
                  "%s", err);
    /* the comparison is still printed in full before the verdict */
    ck_assert_msg(strstr(out, "joined 5 rows") != NULL, "%s", out);
    ck_assert_int_eq(compare("%s %s --tolerance -3", a, b), 2);
    ck_assert_int_eq(compare("%s %s --tolerance abc", a, b), 2);
    remove_dir();
}
END_TEST

/* Rows in only one file show '-' and are counted; a row that failed gives no ratio. */
START_TEST(mismatched_rows)
{
    make_dir();
    struct clc_result ra[8], rb[8];
    size_t na = base(ra, 1, 1), nb = base(rb, 1, 1);
    ra[na++] = row("gather", "random", -1, CLC_FLOAT, 10.0);  /* only in a */
    rb[nb++] = row("vector", "float4", 4, CLC_FLOAT, 90.0);  /* only in b */
    rb[2].status = CLC_STATUS_ERROR;                          /* stride:1 float failed in b */
    rb[2].gbps = NAN;
    const char *a = write_report("a.json", "opencl", "GPU", ra, na);
    const char *b = write_report("b.json", "opencl", "GPU", rb, nb);
    ck_assert_int_eq(compare("%s %s", a, b), 0);
    ck_assert_msg(strstr(out, "joined 5 rows; 2 rows only in some files") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "4 ratios") != NULL, "%s", out);
    /* the table line of the failed row shows its status and no ratio */
    const char *line = strstr(out, "     1 float");
    ck_assert_msg(line != NULL, "%s", out);
    char buf[160];
    snprintf(buf, sizeof buf, "%.*s", (int)(strchr(line, '\n') - line), line);
    ck_assert_msg(strstr(buf, "error") != NULL && strstr(buf, "80.0") != NULL, "%s", buf);
    ck_assert_msg(buf[strlen(buf) - 1] == '-', "%s", buf);

    char js[256];
    snprintf(js, sizeof js, "%s/cmp.json", dir);
    ck_assert_int_eq(compare("%s %s -f json -o %s", a, b, js), 0);
    json_t *root = load_json(js);
    json_t *g = find_row(root, "gather", "random", -1, "float");
    ck_assert(json_is_false(json_object_get(g, "in_all_files")));
    ck_assert(json_is_null(cell(g, 1)));
    json_t *v = find_row(root, "vector", "float4", 4, "float");
    ck_assert(json_is_null(cell(v, 0)));
    ck_assert(isnan(ratio(v, 1)));
    json_t *s = find_row(root, "stride", "inplace", 1, "float");
    ck_assert_str_eq(json_string_value(json_object_get(cell(s, 1), "status")), "error");
    ck_assert(json_is_null(json_object_get(cell(s, 1), "ratio")));
    json_t *sum = json_object_get(root, "summary");
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "partial")), 2);
    json_decref(root);

    /* a tolerance never trips on rows without a ratio */
    ck_assert_int_eq(compare("%s %s --tolerance 0", a, b), 0);

    /* nothing in common: exit 1 */
    struct clc_result rc[1] = {row("gather", "random", -1, CLC_DOUBLE, 5.0)};
    const char *c = write_report("c.json", "opencl", "GPU", rc, 1);
    ck_assert_int_eq(compare("%s %s", a, c), 1);
    ck_assert_msg(strstr(err, "nothing to compare") != NULL, "%s", err);
    remove_dir();
}
END_TEST

/* CSV: one header and one line per joined row, empty cells where a file lacks the row;
 * written atomically, leaving no temporary file. */
START_TEST(csv_output)
{
    make_dir();
    struct clc_result ra[8], rb[8];
    size_t na = base(ra, 1, 1), nb = base(rb, 2, 1);
    nb--; /* b lacks stride:2 double */
    const char *a = write_report("a.json", "opencl", "GPU", ra, na);
    const char *b = write_report("b.json", "cuda", "GPU", rb, nb);
    ck_assert_int_eq(compare("%s %s -f csv", a, b), 0);
    ck_assert_msg(strncmp(out, "case,variant,param,type,status_1,gbps_1,status_2,gbps_2,ratio_2\n",
                          64) == 0,
                  "%s", out);
    ck_assert_msg(strstr(out, "\ncopy,kernel,,float,ok,100,ok,200,2\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\nstride,inplace,2,double,ok,50,missing,,\n") != NULL, "%s", out);
    /* the header and summary went to stderr, keeping stdout pure CSV */
    ck_assert_msg(strstr(err, "joined 4 rows") != NULL, "%s", err);
    int lines = 0;
    for (const char *p = out; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 6);

    char csv[256];
    snprintf(csv, sizeof csv, "%s/cmp.csv", dir);
    ck_assert_int_eq(compare("%s %s -f csv -o %s", a, b, csv), 0);
    ck_assert_msg(strstr(out, "joined 4 rows") && strstr(out, "wrote "), "%s", out);
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char head[128];
    ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
    fclose(f);
    ck_assert_str_eq(head, "case,variant,param,type,status_1,gbps_1,status_2,gbps_2,ratio_2\n");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
    ck_assert_int_ne(system(cmd), 0);
    remove_dir();
}
END_TEST

START_TEST(bad_inputs)
{
    make_dir();
    struct clc_result ra[8];
    size_t na = base(ra, 1, 1);
    const char *a = write_report("a.json", "opencl", "GPU", ra, na);

    const char *bad = write_text("bad.json", "{\"results\": [ {\"case\": \"copy\", ");
    ck_assert_int_eq(compare("%s %s", a, bad), 1);
    ck_assert_msg(strstr(err, "bad.json") && strstr(err, "not a readable JSON file"), "%s", err);

    const char *other = write_text("other.json", "{\"name\": \"not a result\"}\n");
    ck_assert_int_eq(compare("%s %s", a, other), 1);
    ck_assert_msg(strstr(err, "not a clcoalesce result file") != NULL, "%s", err);

    const char *norow = write_text("norow.json", "{\"results\": [ {\"case\": \"copy\"} ]}\n");
    ck_assert_int_eq(compare("%s %s", norow, a), 1);
    ck_assert_msg(strstr(err, "results[0] has no string 'variant'") != NULL, "%s", err);

    ck_assert_int_eq(compare("%s %s/missing.json", a, dir), 1);
    ck_assert_msg(strstr(err, "missing.json") != NULL, "%s", err);

    /* a failed comparison leaves no output file behind */
    char js[256];
    snprintf(js, sizeof js, "%s/never.json", dir);
    ck_assert_int_eq(compare("%s %s -f json -o %s", a, bad, js), 1);
    ck_assert_int_ne(access(js, F_OK), 0);

    /* usage errors */
    ck_assert_int_eq(compare("%s", a), 2);
    ck_assert_msg(strstr(err, "at least two") != NULL, "%s", err);
    ck_assert_int_eq(compare("%s", ""), 2);
    ck_assert_int_eq(compare("%s %s --bogus", a, a), 2);
    ck_assert_msg(strstr(err, "unknown option") != NULL, "%s", err);
    ck_assert_int_eq(compare("%s %s --format xml", a, a), 2);
    ck_assert_int_eq(compare("%s %s --metric watts", a, a), 2);
    ck_assert_int_eq(compare("%s %s --tolerance", a, a), 2);
    ck_assert_int_eq(compare("--help"), 0);
    ck_assert_msg(strstr(out, "usage: clcoalesce compare") != NULL, "%s", out);
    /* the main help lists both commands */
    ck_assert_int_eq(clc_test_cli("--help", out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "  compare ") && strstr(out, "  plot "), "%s", out);
    remove_dir();
}
END_TEST

/* End to end: two real runs of one case compare row for row. */
START_TEST(real_runs_join)
{
    make_dir();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "run coalesced --quick -t float -k %s -f json -o %s/r1.json",
             CLC_TEST_KERNEL_DIR, dir);
    ck_assert_int_eq(clc_test_cli(cmd, out, sizeof out, err, sizeof err), 0);
    snprintf(cmd, sizeof cmd, "run coalesced --quick -t float -k %s -f json -o %s/r2.json",
             CLC_TEST_KERNEL_DIR, dir);
    ck_assert_int_eq(clc_test_cli(cmd, out, sizeof out, err, sizeof err), 0);
    ck_assert_int_eq(compare("%s/r1.json %s/r2.json", dir, dir), 0);
    ck_assert_msg(strstr(out, "joined 1 row\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "coalesced    kernel") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "[2]/[1]: 1 ratio,") != NULL, "%s", out);
    remove_dir();
}
END_TEST

int main(void)
{
    const TTest *tests[] = {identical_files_ratio_one, known_ratios, tolerance, mismatched_rows,
                            csv_output, bad_inputs, real_runs_join};
    return clc_test_main(clc_test_suite("compare", tests, sizeof tests / sizeof tests[0]));
}
