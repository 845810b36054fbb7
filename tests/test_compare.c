/* test_compare.c - `clcoalesce compare`: result files written by the library are joined by
 * (case, variant, param, type); ratios, rows missing from a file, --tolerance, the formats and
 * every failure exit code are checked through the real binary; --model holds a file's rows
 * against their predictions, or against those of a profile the test writes. */
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

/* Writes rows as dir/name through the library's JSON writer; returns the path (static). */
static const char *write_report(const char *name, const char *api, const char *device,
                                const struct clc_result *rows, size_t n)
{
    struct clc_report rep;
    clc_report_init(&rep, api);
    snprintf(rep.device.name, sizeof rep.device.name, "%s", device);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(clc_report_add(&rep, &rows[i]), CLC_OK);
    const char *path = clc_test_path(dir, name);
    clc_test_write_json(&rep, path);
    return path;
}

/* Writes text as dir/name; returns the path (clc_test_path). */
static const char *write_text(const char *name, const char *text)
{
    const char *path = clc_test_path(dir, name);
    clc_test_write_file(path, text);
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

/* Runs `compare <args> -f json -o dir/cmp.json`, asserts it exits 0 and returns the parsed
 * comparison. */
static json_t *compare_json(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *compare_json(const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    const char *js = clc_test_path(dir, "cmp.json");
    int rc = compare("%s -f json -o %s", args, js);
    ck_assert_msg(rc == 0, "compare %s: exit %d; stderr: %s", args, rc, err);
    return load_json(js);
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
    rows[n++] = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 100.0 * scale_copy);
    rows[n++] = clc_test_row("copy", "enqueue", -1, CLC_FLOAT, 120.0);
    rows[n++] = clc_test_row("stride", "inplace", 1, CLC_FLOAT, 80.0 * scale_stride);
    rows[n++] = clc_test_row("stride", "inplace", 2, CLC_FLOAT, 40.0);
    rows[n++] = clc_test_row("stride", "inplace", 2, CLC_DOUBLE, 50.0);
    return n;
}

/* base(scale_copy, scale_stride) written as dir/name (clc_test_path). */
static const char *base_file(const char *name, const char *api, const char *device,
                             double scale_copy, double scale_stride)
{
    struct clc_result rows[8];
    size_t n = base(rows, scale_copy, scale_stride);
    return write_report(name, api, device, rows, n);
}

/* The same file twice: every ratio is 1. */
START_TEST(identical_files_ratio_one)
{
    clc_test_make_dir(dir, "cmp");
    const char *a = base_file("a.json", "opencl", "Test GPU", 1, 1);
    ck_assert_int_eq(compare("%s %s", a, a), 0);
    clc_test_assert_has(out, "joined 5 rows");
    clc_test_assert_has(out, "geomean 1.000, min 1.000");
    clc_test_assert_has(out, "[1] ");
    clc_test_assert_has(out, "opencl on Test GPU");

    json_t *root = compare_json("%s %s", a, a);
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
    clc_test_remove_dir(dir);
}
END_TEST

/* B's copy kernel is twice as fast and stride 1 half as fast: the ratios say so, and the
 * summary names the extremes. */
START_TEST(known_ratios)
{
    clc_test_make_dir(dir, "cmp");
    const char *a = base_file("a.json", "opencl", "GPU A", 1, 1);
    const char *b = base_file("b.json", "cuda", "GPU B", 2, 0.5);
    ck_assert_int_eq(compare("%s %s", a, b), 0);
    clc_test_assert_has(out, "opencl on GPU A");
    clc_test_assert_has(out, "cuda on GPU B");
    clc_test_assert_has(out, "min 0.500 (stride/inplace:1 float)");
    clc_test_assert_has(out, "max 2.000 (copy/kernel float)");
    clc_test_assert_has(out, "2.000");
    clc_test_assert_has(out, "0.500");

    const char *js = clc_test_path(dir, "long.json");
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
    root = compare_json("%s %s --metric ms", a, b);
    ck_assert_str_eq(json_string_value(json_object_get(root, "metric")), "ms");
    ck_assert_double_eq_tol(ratio(find_row(root, "copy", "kernel", -1, "float"), 1), 0.5, 1e-6);
    json_decref(root);

    /* a third file: its ratios are to the first too */
    root = compare_json("%s %s %s", a, b, b);
    json_t *kr = find_row(root, "copy", "kernel", -1, "float");
    ck_assert_double_eq_tol(ratio(kr, 1), 2.0, 1e-6);
    ck_assert_double_eq_tol(ratio(kr, 2), 2.0, 1e-6);
    json_decref(root);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(tolerance)
{
    clc_test_make_dir(dir, "cmp");
    const char *a = base_file("a.json", "opencl", "GPU", 1, 1);
    const char *b = base_file("b.json", "opencl", "GPU", 1.03, 0.98);
    ck_assert_int_eq(compare("%s %s --tolerance 5", a, b), 0);
    clc_test_assert_has(out, "all ratios within 5%");
    ck_assert_int_eq(compare("%s %s --tolerance 2.5", a, b), 1);
    clc_test_assert_has(err, "1 ratio outside");
    clc_test_assert_has(err, "copy/kernel float");
    clc_test_assert_lacks(err, "stride/inplace:1 float");
    clc_test_assert_lacks(err, "with two devices");
    ck_assert_int_eq(compare("%s %s --tolerance 1", a, b), 1);
    clc_test_assert_has(err, "2 ratios outside");
    clc_test_assert_has(err, "stride/inplace:1 float");
    clc_test_assert_has(err, "copy/kernel float");
    /* the comparison is still printed in full before the verdict */
    clc_test_assert_has(out, "joined 5 rows");
    ck_assert_int_eq(compare("%s %s --tolerance -3", a, b), 2);
    ck_assert_int_eq(compare("%s %s --tolerance abc", a, b), 2);
    clc_test_remove_dir(dir);
}
END_TEST

/* --outliers: the same run on three GPUs, the third 10 % slower on one row; each row is held
 * against the median of the other files', and only the slow GPU is marked. */
START_TEST(outliers)
{
    clc_test_make_dir(dir, "cmp");
    const char *a = base_file("a.json", "opencl", "GPU A", 1, 1);
    const char *b = base_file("b.json", "opencl", "GPU B", 1.01, 1);
    const char *c = base_file("c.json", "opencl", "GPU C", 0.9, 1);
    ck_assert_int_eq(compare("%s %s %s --outliers 5", a, b, c), 1);
    clc_test_assert_has(out, "[3] GPU C (no bus id): OUTLIER, 1 of 5 rows more than 5% below");
    clc_test_assert_has(out, "[1] GPU A (no bus id): ok, 0 of 5 rows");
    clc_test_assert_has(out, "[2] GPU B (no bus id): ok, 0 of 5 rows");
    clc_test_assert_has(err, "1 of 3 devices have rows more than 5% below");
    clc_test_assert_has(err, "copy/kernel float");
    clc_test_assert_lacks(err, "stride/inplace:1 float");
    /* within 20 % every device passes */
    ck_assert_int_eq(compare("%s %s %s --outliers 20", a, b, c), 0);
    clc_test_assert_has(out, "[3] GPU C (no bus id): ok, 0 of 5 rows");

    const char *js = clc_test_path(dir, "out.json");
    ck_assert_int_eq(compare("%s %s %s --outliers 5 -f json -o %s", a, b, c, js), 1);
    json_t *root = load_json(js);
    json_t *row = find_row(root, "copy", "kernel", -1, "float");
    /* 90 against the median of 100 and 101 */
    ck_assert_double_eq_tol(json_number_value(json_object_get(cell(row, 2), "to_peers")),
                            90.0 / 100.5, 1e-6);
    ck_assert(json_is_true(json_object_get(cell(row, 2), "outlier")));
    ck_assert(json_is_false(json_object_get(cell(row, 0), "outlier")));
    json_t *o = json_object_get(json_object_get(root, "summary"), "outliers");
    ck_assert_uint_eq(json_array_size(o), 3);
    ck_assert(json_is_false(json_object_get(json_array_get(o, 0), "outlier")));
    ck_assert(json_is_true(json_object_get(json_array_get(o, 2), "outlier")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(o, 2), "below")), 1);
    json_decref(root);

    /* two files: each one's peer is the other, so only the slower is marked */
    ck_assert_int_eq(compare("%s %s --outliers 5", c, a), 1);
    clc_test_assert_has(out, "[1] GPU C (no bus id): OUTLIER");
    clc_test_assert_has(out, "[2] GPU A (no bus id): ok");
    clc_test_assert_has(err, "with two devices a marked row says that they differ");
    ck_assert_int_eq(compare("%s %s --outliers 100", a, c), 2);
    ck_assert_int_eq(compare("%s %s --outliers -1", a, c), 2);
    ck_assert_int_eq(compare("%s %s --outliers x", a, c), 2);
    clc_test_remove_dir(dir);
}
END_TEST

/* Rows in only one file show '-' and are counted; a row that failed gives no ratio. */
START_TEST(mismatched_rows)
{
    clc_test_make_dir(dir, "cmp");
    struct clc_result ra[8], rb[8];
    size_t na = base(ra, 1, 1), nb = base(rb, 1, 1);
    ra[na++] = clc_test_row("gather", "random", -1, CLC_FLOAT, 10.0);  /* only in a */
    rb[nb++] = clc_test_row("vector", "float4", 4, CLC_FLOAT, 90.0);  /* only in b */
    rb[2].status = CLC_STATUS_ERROR;                          /* stride:1 float failed in b */
    rb[2].gbps = NAN;
    const char *a = write_report("a.json", "opencl", "GPU", ra, na);
    const char *b = write_report("b.json", "opencl", "GPU", rb, nb);
    ck_assert_int_eq(compare("%s %s", a, b), 0);
    clc_test_assert_has(out, "joined 5 rows; 2 rows only in some files");
    clc_test_assert_has(out, "4 ratios");
    /* the table line of the failed row shows its status and no ratio */
    const char *line = strstr(out, "     1 float");
    ck_assert_msg(line != NULL, "%s", out);
    char buf[160];
    snprintf(buf, sizeof buf, "%.*s", (int)(strchr(line, '\n') - line), line);
    ck_assert_msg(strstr(buf, "error") != NULL && strstr(buf, "80.0") != NULL, "%s", buf);
    ck_assert_msg(buf[strlen(buf) - 1] == '-', "%s", buf);

    json_t *root = compare_json("%s %s", a, b);
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
    struct clc_result rc[1] = {clc_test_row("gather", "random", -1, CLC_DOUBLE, 5.0)};
    const char *c = write_report("c.json", "opencl", "GPU", rc, 1);
    ck_assert_int_eq(compare("%s %s", a, c), 1);
    clc_test_assert_has(err, "nothing to compare");
    clc_test_remove_dir(dir);
}
END_TEST

/* CSV: one header and one line per joined row, empty cells where a file lacks the row;
 * written atomically, leaving no temporary file. */
START_TEST(csv_output)
{
    clc_test_make_dir(dir, "cmp");
    struct clc_result ra[8], rb[8];
    size_t na = base(ra, 1, 1), nb = base(rb, 2, 1);
    nb--; /* b lacks stride:2 double */
    const char *a = write_report("a.json", "opencl", "GPU", ra, na);
    const char *b = write_report("b.json", "cuda", "GPU", rb, nb);
    ck_assert_int_eq(compare("%s %s -f csv", a, b), 0);
    ck_assert_msg(strncmp(out, "case,variant,param,type,status_1,gbps_1,status_2,gbps_2,ratio_2\n",
                          64) == 0,
                  "%s", out);
    clc_test_assert_has(out, "\ncopy,kernel,,float,ok,100,ok,200,2\n");
    clc_test_assert_has(out, "\nstride,inplace,2,double,ok,50,missing,,\n");
    /* the header and summary went to stderr, keeping stdout pure CSV */
    clc_test_assert_has(err, "joined 4 rows");
    int lines = 0;
    for (const char *p = out; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 6);

    const char *csv = clc_test_path(dir, "cmp.csv");
    ck_assert_int_eq(compare("%s %s -f csv -o %s", a, b, csv), 0);
    clc_test_assert_has(out, "joined 4 rows");
    clc_test_assert_has(out, "wrote ");
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char head[128];
    ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
    fclose(f);
    ck_assert_str_eq(head, "case,variant,param,type,status_1,gbps_1,status_2,gbps_2,ratio_2\n");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
    ck_assert_int_ne(system(cmd), 0);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(bad_inputs)
{
    clc_test_make_dir(dir, "cmp");
    const char *a = base_file("a.json", "opencl", "GPU", 1, 1);

    const char *bad = write_text("bad.json", "{\"results\": [ {\"case\": \"copy\", ");
    ck_assert_int_eq(compare("%s %s", a, bad), 1);
    clc_test_assert_has(err, "bad.json");
    clc_test_assert_has(err, "not a readable JSON file");

    const char *other = write_text("other.json", "{\"name\": \"not a result\"}\n");
    ck_assert_int_eq(compare("%s %s", a, other), 1);
    clc_test_assert_has(err, "not a clcoalesce result file");

    const char *norow = write_text("norow.json", "{\"results\": [ {\"case\": \"copy\"} ]}\n");
    ck_assert_int_eq(compare("%s %s", norow, a), 1);
    clc_test_assert_has(err, "results[0] has no string 'variant'");

    ck_assert_int_eq(compare("%s %s/missing.json", a, dir), 1);
    clc_test_assert_has(err, "missing.json");

    /* a failed comparison leaves no output file behind */
    const char *js = clc_test_path(dir, "never.json");
    ck_assert_int_eq(compare("%s %s -f json -o %s", a, bad, js), 1);
    ck_assert_int_ne(access(js, F_OK), 0);

    /* usage errors */
    ck_assert_int_eq(compare("%s", a), 2);
    clc_test_assert_has(err, "holds the rows of one API");
    ck_assert_int_eq(compare("%s", ""), 2);
    ck_assert_int_eq(compare("%s %s --bogus", a, a), 2);
    clc_test_assert_has(err, "unknown option");
    ck_assert_int_eq(compare("%s %s --format xml", a, a), 2);
    ck_assert_int_eq(compare("%s %s --metric watts", a, a), 2);
    ck_assert_int_eq(compare("%s %s --tolerance", a, a), 2);
    ck_assert_int_eq(compare("--help"), 0);
    clc_test_assert_has(out, "usage: clcoalesce compare");
    /* the main help lists both commands */
    ck_assert_int_eq(clc_test_cli("--help", out, sizeof out, err, sizeof err), 0);
    clc_test_assert_has(out, "  compare ");
    clc_test_assert_has(out, "  plot ");
    clc_test_remove_dir(dir);
}
END_TEST

/* One file of a run with --api both: its CUDA rows against its OpenCL rows; --api keeps one
 * API's rows of every file. */
START_TEST(one_file_of_two_apis)
{
    clc_test_make_dir(dir, "cmp");
    struct clc_report rep;
    clc_report_init(&rep, "both");
    rep.n_apis = 2;
    snprintf(rep.apis[0].name, sizeof rep.apis[0].name, "opencl");
    snprintf(rep.apis[1].name, sizeof rep.apis[1].name, "cuda");
    rep.apis[0].copy_gbps = 1000;
    rep.apis[1].copy_gbps = 1100;
    static const char *const apis[] = {"opencl", "cuda"};
    for (int a = 0; a < 2; a++) {
        struct clc_result r = clc_test_row("copy", "kernel", -1, CLC_FLOAT, a ? 990 : 900);
        snprintf(r.api, sizeof r.api, "%s", apis[a]);
        ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    }
    const char *both = clc_test_path(dir, "both.json");
    clc_test_write_json(&rep, both);
    ck_assert_int_eq(compare("%s", both), 0);
    clc_test_assert_has(out, ": opencl on");
    clc_test_assert_has(out, ": cuda on");
    clc_test_assert_has(out, "1.100");
    /* --api cuda of the same file twice: one API, ratio 1 */
    ck_assert_int_eq(compare("%s %s --api cuda", both, both), 0);
    clc_test_assert_has(out, "1.000");
    ck_assert_int_eq(compare("%s --api cuda", both), 2);
    clc_test_assert_has(err, "holds the rows of one API");
    clc_test_remove_dir(dir);
}
END_TEST

/* A file of a run with --api both on the device `device`: the copy row at gbps[0] on OpenCL
 * and gbps[1] on CUDA.  Returns its path (clc_test_path). */
static const char *both_file(const char *name, const char *device, const double gbps[2])
{
    struct clc_report rep;
    clc_report_init(&rep, "both");
    snprintf(rep.device.name, sizeof rep.device.name, "%s", device);
    rep.n_apis = 2;
    static const char *const apis[] = {"opencl", "cuda"};
    for (int a = 0; a < 2; a++) {
        snprintf(rep.apis[a].name, sizeof rep.apis[a].name, "%s", apis[a]);
        struct clc_result r = clc_test_row("copy", "kernel", -1, CLC_FLOAT, gbps[a]);
        snprintf(r.api, sizeof r.api, "%s", apis[a]);
        ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    }
    const char *path = clc_test_path(dir, name);
    clc_test_write_json(&rep, path);
    return path;
}

/* --outliers holds devices against devices of the same API: OpenCL and CUDA of one GPU are
 * not two devices, and one device per API is said, not marked. */
START_TEST(outliers_per_api)
{
    clc_test_make_dir(dir, "cmp");
    /* CUDA 30 % faster than OpenCL on one GPU: no outlier, one device per API */
    const char *one = both_file("one.json", "GPU A", (const double[]){700, 1000});
    ck_assert_int_eq(compare("%s --outliers 5", one), 0);
    clc_test_assert_has(out, "the only opencl device: no peer to hold it against");
    clc_test_assert_has(out, "the only cuda device: no peer to hold it against");
    clc_test_assert_lacks(out, "OUTLIER");
    /* three GPUs: C is slow on OpenCL only, and is marked there; no OpenCL row is held
     * against a CUDA one (A's OpenCL would be 30 % below its CUDA peers) */
    const char *b = both_file("b.json", "GPU B", (const double[]){710, 1010});
    const char *c = both_file("c.json", "GPU C", (const double[]){500, 1005});
    const char *js = clc_test_path(dir, "out.json");
    ck_assert_int_eq(compare("%s %s %s --outliers 5 -f json -o %s", one, b, c, js), 1);
    json_t *root = load_json(js);
    json_t *files = json_object_get(root, "files");
    ck_assert_uint_eq(json_array_size(files), 6);
    json_t *o = json_object_get(json_object_get(root, "summary"), "outliers");
    for (size_t i = 0; i < 6; i++) {
        const char *api = json_string_value(json_object_get(json_array_get(files, i), "api"));
        const char *dev = json_string_value(json_object_get(json_array_get(files, i), "device"));
        bool want = strcmp(api, "opencl") == 0 && strcmp(dev, "GPU C") == 0;
        json_t *marked = json_object_get(json_array_get(o, i), "outlier");
        ck_assert_msg(json_is_boolean(marked) && json_is_true(marked) == want,
                      "input %zu (%s on %s): outlier %s, want %s", i + 1, api, dev,
                      json_is_true(marked) ? "true" : "false", want ? "true" : "false");
    }
    json_decref(root);
    clc_test_remove_dir(dir);
}
END_TEST

/* Rows are matched by their key whatever their order: two files of many rows, the second
 * in reverse order, with rows of one file only and a repeated row. */
START_TEST(many_rows_join)
{
    clc_test_make_dir(dir, "cmp");
    enum { N = 20000 };
    struct clc_report ra, rb;
    clc_report_init(&ra, "opencl");
    clc_report_init(&rb, "opencl");
    for (int i = 0; i < N; i++) {
        char variant[32];
        snprintf(variant, sizeof variant, "v%d", i / 8);
        /* keys differ in variant, param (or none) and type */
        long param = i % 4 == 3 ? -1 : i % 4;
        enum clc_type t = i % 8 < 4 ? CLC_FLOAT : CLC_DOUBLE;
        struct clc_result r = clc_test_row("many", variant, param, t, 100.0);
        ck_assert_int_eq(clc_report_add(&ra, &r), CLC_OK);
    }
    for (int i = N - 1; i >= 0; i--) {
        struct clc_result r = ra.results[i];
        r.gbps = r.value = i % 3 == 0 ? 200.0 : 100.0;
        if (i % 1000 == 7)
            snprintf(r.case_name, sizeof r.case_name, "only_b"); /* not in a */
        ck_assert_int_eq(clc_report_add(&rb, &r), CLC_OK);
    }
    ck_assert_int_eq(clc_report_add(&rb, &rb.results[0]), CLC_OK); /* repeated */
    const char *a = clc_test_path(dir, "a.json"), *b = clc_test_path(dir, "b.json");
    clc_test_write_json(&ra, a);
    clc_test_write_json(&rb, b);
    json_t *root = compare_json("%s %s", a, b);
    json_t *sum = json_object_get(root, "summary");
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "joined")), N - N / 1000);
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "partial")), 2 * (N / 1000));
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "repeated")), 1);
    json_t *rows = json_object_get(root, "rows"), *row;
    ck_assert_uint_eq(json_array_size(rows), N + N / 1000);
    size_t k;
    json_array_foreach(rows, k, row)
    {
        if (k >= N)
            break; /* a's rows first, in a's order; then those of b only */
        double want = k % 1000 == 7 ? NAN : k % 3 == 0 ? 2.0 : 1.0;
        double got = ratio(row, 1);
        ck_assert_msg(isnan(want) ? isnan(got) : got == want, "row %zu: ratio %g, want %g", k,
                      got, want);
    }
    json_decref(root);
    clc_test_remove_dir(dir);
}
END_TEST

/* --model on a file whose rows have no prediction (a run with --no-model) is an error, and
 * writes no output file. */
START_TEST(model_without_predictions)
{
    clc_test_make_dir(dir, "cmp");
    struct clc_result rows[2];
    rows[0] = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 100);
    rows[1] = clc_test_row("stride", "inplace", 2, CLC_FLOAT, 40);
    const char *a = write_report("a.json", "opencl", "GPU A", rows, 2);
    ck_assert_int_eq(compare("--model %s", a), 1);
    clc_test_assert_has(err, "a.json: no row has a prediction");
    clc_test_assert_has(err, "--no-model");
    const char *js = clc_test_path(dir, "model.json");
    ck_assert_int_eq(compare("--model %s -f json -o %s", a, js), 1);
    ck_assert_int_ne(access(js, F_OK), 0);
    /* one file with predictions beside one without: still an error, naming the second */
    rows[0].model.gbps = 110;
    snprintf(rows[0].model.bound, sizeof rows[0].model.bound, "dram");
    const char *p = write_report("p.json", "opencl", "GPU A", rows, 1);
    ck_assert_int_eq(compare("--model %s", p), 0);
    ck_assert_int_eq(compare("--model %s %s", p, a), 1);
    clc_test_assert_has(err, "a.json: no row has a prediction");
    /* a result file read from a pipe (/dev/stdin, <(...)) */
    char *text = clc_read_text(p, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(clc_test_cli_stdin(text, false, "compare --model /dev/stdin", out,
                                        sizeof out, err, sizeof err), 0);
    free(text);
    clc_test_assert_has(out, "1 of 1 predicted rows within 20 %");
    clc_test_remove_dir(dir);
}
END_TEST

/* --model: measured against what the run predicted, the residual, the bound and the count
 * within 20 %; rows without a prediction are left out. */
START_TEST(model_table)
{
    clc_test_make_dir(dir, "cmp");
    struct clc_result rows[4];
    rows[0] = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 100);
    rows[1] = clc_test_row("stride", "inplace", 1, CLC_FLOAT, 80);
    rows[2] = clc_test_row("stride", "inplace", 2, CLC_FLOAT, 40);
    rows[3] = clc_test_row("copy", "enqueue", -1, CLC_FLOAT, 120); /* not predicted */
    static const double pred[] = {110, 50, 40};
    static const char *const bound[] = {"dram", "sectors", "sectors"};
    for (int i = 0; i < 3; i++) {
        rows[i].model.gbps = pred[i];
        snprintf(rows[i].model.bound, sizeof rows[i].model.bound, "%s", bound[i]);
    }
    const char *a = write_report("a.json", "opencl", "GPU A", rows, 4);
    ck_assert_int_eq(compare("--model %s", a), 0);
    clc_test_assert_has(out, "predictions as each run predicted them");
    clc_test_assert_has(out, "[1] ");
    clc_test_assert_has(out, ": opencl on GPU A");
    clc_test_assert_has(out, "     100.0      110.0     -9% dram");
    clc_test_assert_has(out, "      80.0       50.0    +60% sectors  outside");
    clc_test_assert_has(out, "      40.0       40.0     +0% sectors");
    clc_test_assert_has(out, "2 of 3 predicted rows within 20 %");
    clc_test_assert_lacks(out, "enqueue");
    /* by bound: dram 1 row within, 100 / 110; sectors 2 rows, 1 within, sqrt(1.6 x 1) */
    clc_test_assert_has(out, "by bound:  rows  within  measured / predicted\n"
                             "  dram         1       1  0.909\n"
                             "  sectors      2       1  1.265\n");
    clc_test_assert_lacks(out, "  inflight ");

    json_t *root = compare_json("--model %s", a);
    ck_assert_str_eq(json_string_value(json_object_get(root, "command")), "compare --model");
    ck_assert(json_is_null(json_object_get(root, "profile")));
    json_t *f = json_array_get(json_object_get(root, "files"), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(f, "predicted")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(f, "within")), 2);
    json_t *rs = json_object_get(f, "rows");
    ck_assert_uint_eq(json_array_size(rs), 3);
    json_t *r1 = json_array_get(rs, 1);
    ck_assert_str_eq(json_string_value(json_object_get(r1, "variant")), "inplace");
    ck_assert_int_eq(json_integer_value(json_object_get(r1, "param")), 1);
    ck_assert_double_eq_tol(json_number_value(json_object_get(r1, "model_gbps")), 50, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(r1, "residual")), 0.6, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(r1, "model_bound")), "sectors");
    json_t *by = json_object_get(f, "by_bound");
    ck_assert_uint_eq(json_object_size(by), 2);
    json_t *sec = json_object_get(by, "sectors");
    ck_assert_int_eq(json_integer_value(json_object_get(sec, "predicted")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(sec, "within")), 1);
    ck_assert_double_eq_tol(json_number_value(json_object_get(sec, "geomean")), sqrt(1.6), 1e-6);
    json_decref(root);

    /* what does not apply to it is a usage error */
    ck_assert_int_eq(compare("--model %s --tolerance 5", a), 2);
    ck_assert_int_eq(compare("--model %s --metric ms", a), 2);
    ck_assert_int_eq(compare("--model %s -f csv", a), 2);
    clc_test_assert_has(err, "--model writes a table or JSON");
    ck_assert_int_eq(compare("--model"), 2);
    ck_assert_int_eq(compare("--profile %s %s %s", a, a, a), 2);
    clc_test_assert_has(err, "--profile goes with --model");
    ck_assert_int_eq(compare("--help"), 0);
    clc_test_assert_has(out, "--model");
    clc_test_remove_dir(dir);
}
END_TEST

/* Writes dir/name, a profile of "Test GPU" whose stream rows all run at gbps; returns the
 * path (clc_test_path). */
static const char *write_profile(const char *name, double gbps)
{
    json_t *rows = json_array();
    static const char *const stream[] = {"read", "write", "copy"};
    for (int i = 0; i < 3; i++) {
        struct clc_result r = clc_test_row("stream", stream[i], -1, CLC_FLOAT, gbps);
        json_array_append_new(rows, clc_result_json(&r));
    }
    json_t *root = json_pack("{s:s, s:{s:s, s:s}, s:o}", "tool", "clcoalesce", "device", "name",
                             "Test GPU", "api", "opencl", "rows", rows);
    ck_assert_ptr_nonnull(root);
    const char *path = clc_test_path(dir, name);
    ck_assert_int_eq(json_dump_file(root, path, JSON_COMPACT), 0);
    json_decref(root);
    return path;
}

/* --model --profile: each row predicted again from its features, in place of the run's
 * prediction; a row without features has none on the new profile. */
START_TEST(model_reprediction)
{
    clc_test_make_dir(dir, "cmp");
    struct clc_result rows[2];
    /* a copy as a run's trace records it: each useful byte half loaded, half stored, each
     * moving one granule of its own */
    rows[0] = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 180);
    struct clc_model_features *ft = &rows[0].model.features;
    ft->valid = true;
    for (unsigned g = 0; g < CLC_MODEL_GRANULES; g++)
        ft->dram[0][g][0] = ft->dram[1][g][0] = 0.5;
    ft->elem_bytes = 4;
    rows[1] = clc_test_row("stride", "inplace", 2, CLC_FLOAT, 30); /* no features */
    for (int i = 0; i < 2; i++) {
        rows[i].model.gbps = 50;
        snprintf(rows[i].model.bound, sizeof rows[i].model.bound, "inflight");
    }
    const char *a = write_report("a.json", "opencl", "GPU A", rows, 2);
    const char *prof = write_profile("profile.json", 200);

    ck_assert_int_eq(compare("--model %s", a), 0);
    clc_test_assert_has(out, "     180.0       50.0   +260% inflight outside");
    clc_test_assert_has(out, "0 of 2 predicted rows within 20 %");

    ck_assert_int_eq(compare("--model --profile %s %s", prof, a), 0);
    clc_test_assert_has(out, "predictions on the profile ");
    clc_test_assert_has(out, "(Test GPU)");
    clc_test_assert_has(out, "     180.0      200.0    -10% dram");
    clc_test_assert_has(out, "1 of 1 predicted rows within 20 %");
    clc_test_assert_lacks(out, "inflight");

    json_t *root = compare_json("--model --profile %s %s", prof, a);
    ck_assert_str_eq(json_string_value(json_object_get(root, "profile")), prof);
    json_t *r0 = json_array_get(
        json_object_get(json_array_get(json_object_get(root, "files"), 0), "rows"), 0);
    ck_assert_double_eq_tol(json_number_value(json_object_get(r0, "model_gbps")), 200, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(r0, "residual")), -0.1, 1e-9);
    json_decref(root);

    /* a profile that cannot be read fails the comparison */
    ck_assert_int_eq(compare("--model --profile %s/missing.json %s", dir, a), 1);
    clc_test_assert_has(err, "missing.json: cannot read the profile");
    clc_test_remove_dir(dir);
}
END_TEST

/* End to end: two real runs of one case compare row for row. */
START_TEST(real_runs_join)
{
    clc_test_make_dir(dir, "cmp");
    for (int k = 1; k <= 2; k++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "run coalesced --quick -t float -k %s -f json -o %s/r%d.json",
                 CLC_TEST_KERNEL_DIR, dir, k);
        ck_assert_int_eq(clc_test_cli(cmd, out, sizeof out, err, sizeof err), 0);
    }
    ck_assert_int_eq(compare("%s/r1.json %s/r2.json", dir, dir), 0);
    clc_test_assert_has(out, "joined 1 row\n");
    clc_test_assert_has(out, "coalesced    kernel");
    clc_test_assert_has(out, "[2]/[1]: 1 ratio,");
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {identical_files_ratio_one, known_ratios, tolerance, outliers,
                            mismatched_rows, csv_output, bad_inputs, one_file_of_two_apis,
                            model_table, model_reprediction, outliers_per_api, many_rows_join,
                            model_without_predictions, real_runs_join};
    return clc_test_main(clc_test_suite("compare", tests, sizeof tests / sizeof tests[0]));
}
