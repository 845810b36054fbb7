/* test_custom.c - `custom`: the example kernels in cl/examples verify, are modelled and are
 * ranked against the built-in variants of their pattern; a wrong kernel and a kernel that
 * does not compile fail with exit 1 (the compile error naming the user's file and line); a
 * kernel that reaches outside its buffers is named by the checked run before any unchecked
 * launch; one that crashes is reported, one that never ends stops at --timeout; bad or
 * missing options exit 2. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/rewrite.h"
#include "testutil.h"

#define EXAMPLES CLC_TEST_SOURCE_DIR "/cl/examples/"
/* The float4 copy example's file and kernel options. */
#define COPY_FLOAT4 "--kernel-file " EXAMPLES "copy_float4.cl --kernel copy_float4"

static char out[1 << 16], err[1 << 16];

/* n = 10007 floats: not a multiple of 4 (copy_float4's scalar tail runs) and a 100 x 100
 * transpose with 7 elements past the matrix that must stay untouched. */
#define ODD_SIZE (4 * 10007)

static size_t count_case(const struct clc_report *rep, const char *case_name)
{
    size_t n = 0;
    for (size_t i = 0; i < rep->n_results; i++)
        n += strcmp(rep->results[i].case_name, case_name) == 0;
    return n;
}

/* Runs `custom` with `args` (file, kernel, pattern ...) at ODD_SIZE through the binary into a
 * JSON report, asserts exit 0 and reads the report into rep. */
static void run_custom_json(const char *args, struct clc_report *rep)
{
    char dir[64], cmd[1024];
    clc_test_make_dir(dir, "custom-json");
    const char *json = clc_test_path(dir, "r.json");
    snprintf(cmd, sizeof cmd, "custom %s --size %d -r 2 -f json -o %s", args, ODD_SIZE, json);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    ck_assert_int_eq(clc_read_json(json, rep), CLC_OK);
    clc_test_remove_dir(dir);
}

/* Runs an example through the binary and checks: every row verified, one custom row (the
 * first) with the kernel's name and a model figure, and rows of every case it ranks with.
 * Returns the custom row's model efficiency. */
static double run_example(const char *file, const char *kernel, const char *pattern,
                          unsigned items, const char *const *compare, size_t n_compare)
{
    struct clc_report rep;
    char args[512] = "";
    snprintf(args, sizeof args, "--kernel-file %s --kernel %s --pattern %s", file, kernel,
             pattern);
    if (items)
        snprintf(args + strlen(args), sizeof args - strlen(args), " --items-per-thread %u",
                 items);
    run_custom_json(args, &rep);
    clc_test_assert_all_verified(&rep, 2);
    const struct clc_result *r = &rep.results[0];
    ck_assert_str_eq(r->case_name, "custom");
    ck_assert_str_eq(r->variant, kernel);
    ck_assert_uint_eq(count_case(&rep, "custom"), 1);
    ck_assert_msg(!isnan(r->model.efficiency), "%s not modelled: %s", kernel, r->note);
    clc_test_assert_lacks(r->note, "model:");
    for (size_t c = 0; c < n_compare; c++)
        ck_assert_msg(count_case(&rep, compare[c]) >= 1, "no %s rows", compare[c]);
    double eff = r->model.efficiency;
    clc_report_free(&rep);
    return eff;
}

START_TEST(copy_example_verifies_and_ranks)
{
    static const char *const cmp[] = {"copy", "vector", "mlp"};
    double eff = run_example(EXAMPLES "copy_float4.cl", "copy_float4", "copy", 4, cmp, 3);
    ck_assert_msg(eff > 0.99, "float4 copy efficiency %g", eff);
}
END_TEST

START_TEST(scale_example_verifies_and_ranks)
{
    static const char *const cmp[] = {"coalesced", "uncoalesced"};
    /* 8 floats per work-item in a chunk: lanes 32 bytes apart, 1 useful sector in 8 */
    double eff =
        run_example(EXAMPLES "scale_strided_bad.cl", "scale_chunked", "scale", 8, cmp, 2);
    ck_assert_msg(eff < 0.5, "chunked scale efficiency %g", eff);
}
END_TEST

START_TEST(transpose_example_verifies_and_ranks)
{
    static const char *const cmp[] = {"transpose"};
    run_example(EXAMPLES "transpose_tiled.cl", "transpose_tiled", "transpose", 0, cmp, 1);
}
END_TEST

/* --variant picks the built-in variants to rank against; the user's kernel runs anyway. */
START_TEST(variant_picks_the_built_in_rows)
{
    struct clc_report rep;
    run_custom_json("--kernel-file " EXAMPLES "copy_float4.cl --kernel copy_float4 --pattern copy "
                    "--items-per-thread 4 --variant float4",
                    &rep);
    clc_test_assert_all_verified(&rep, 2);
    ck_assert_uint_eq(count_case(&rep, "custom"), 1);
    ck_assert_uint_eq(count_case(&rep, "vector"), 1);
    ck_assert_str_eq(rep.results[1].variant, "float4");
    ck_assert_uint_eq(rep.n_results, 2);
    clc_report_free(&rep);
}
END_TEST

/* Writes text to a fresh file in a temporary folder and returns its path (static). */
static const char *write_kernel(const char *name, const char *text)
{
    char dir[64];
    clc_test_make_dir(dir, "custom");
    const char *path = clc_test_path(dir, name);
    clc_test_write_file(path, text);
    return path;
}

/* Writes a copy-pattern kernel k that stores `value` (an expression of LOAD(in, i)) at
 * out[i], with `before` above it and `after` below it in the file. */
static const char *copy_kernel(const char *name, const char *before, const char *value,
                               const char *after)
{
    static char text[2048];
    snprintf(text, sizeof text,
             "#include \"clc.h\"\n"
             "%s__kernel void k(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)\n"
             "{\n"
             "    CLC_TRACE_BEGIN\n"
             "    size_t i = get_global_id(0);\n"
             "    if (i < n)\n"
             "        STORE(out, i, %s);\n"
             "}\n%s", before, value, after);
    return write_kernel(name, text);
}

/* Runs `custom` on kernel `kernel` of file with the copy pattern at 16 KiB and the
 * options `extra`; asserts the exit code and, unless needle is NULL, that stderr holds it. */
static void run_copy_pattern(const char *file, const char *kernel, const char *extra, int code,
                             const char *needle)
{
    char args[512];
    snprintf(args, sizeof args, "custom --kernel-file %s --kernel %s --pattern copy "
             "--size 16KiB %s", file, kernel, extra);
    clc_test_expect(args, code, needle, out, sizeof out, err, sizeof err);
}

/* A gather kernel written without clc.h: it verifies and ranks, and is modelled through its
 * rewritten trace build (test_rewrite.c); without the rewriter the model is off, and its row
 * says why. */
START_TEST(plain_gather_runs_as_written)
{
    const char *file = write_kernel(
        "plain.cl", "__kernel void g(__global const float *in, __global const uint *idx,\n"
                    "                __global float *out, ulong n)\n"
                    "{\n"
                    "    size_t i = get_global_id(0);\n"
                    "    if (i < n)\n"
                    "        out[i] = in[idx[i]];\n"
                    "}\n");
    struct clc_report rep;
    char args[512];
    snprintf(args, sizeof args, "--kernel-file %s --kernel g --pattern gather", file);
    run_custom_json(args, &rep);
    clc_test_assert_all_verified(&rep, 2);
    const struct clc_result *r = &rep.results[0];
    ck_assert_str_eq(r->case_name, "custom");
    if (clc_rewrite_available()) {
        ck_assert(isfinite(r->model.efficiency) && r->model.efficiency > 0);
        ck_assert_ptr_null(strstr(r->note, "model: off"));
    } else {
        ck_assert(isnan(r->model.efficiency));
        clc_test_assert_note(r, "model: off (the rewriter was not built");
    }
    ck_assert_uint_ge(count_case(&rep, "gather"), 2);
    /* the same permutation as the built-in random gather: same bytes counted */
    const struct clc_result *random = clc_test_get(&rep, "random", -1, CLC_FLOAT);
    ck_assert_uint_eq(r->bytes, random->bytes);
    clc_report_free(&rep);
}
END_TEST

/* A kernel with CLC_TRACE_ARGS but not the rest of the macros is built as it is, so it runs
 * unchecked, and the note and its row say what it lacks. */
START_TEST(partial_macros_run_unchecked)
{
    const char *file = write_kernel(
        "half.cl", "#include \"clc.h\"\n"
                   "__kernel void k(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)\n"
                   "{\n"
                   "    size_t i = get_global_id(0);\n"
                   "    if (i < n)\n"
                   "        out[i] = in[i];\n"
                   "}\n");
    run_copy_pattern(file, "k", "--variant float", 0,
                     "the checked run cannot trace your kernel (no CLC_TRACE_BEGIN)");
    clc_test_assert_has(err, "it runs unchecked");
    clc_test_assert_has(out, "model: off (no CLC_TRACE_BEGIN");
}
END_TEST

/* The CLI with a path relative to the current folder: the ranking follows the table on
 * stdout; with CSV on stdout it goes to stderr and the CSV stays clean. */
START_TEST(cli_prints_ranking)
{
    ck_assert_int_eq(chdir(CLC_TEST_SOURCE_DIR), 0); /* each test runs in its own process */
    const char *args = "custom --kernel-file cl/examples/scale_strided_bad.cl --kernel "
                       "scale_chunked --pattern scale --items-per-thread 8 --size 64KiB -r 2";
    clc_test_expect(args, 0, NULL, out, sizeof out, err, sizeof err);
    const char *rank = strstr(out, "ranking: scale_chunked (pattern scale)");
    ck_assert_msg(rank != NULL, "no ranking in: %s", out);
    clc_test_assert_has(rank, "% of best");
    clc_test_assert_has(rank, "coalesced");
    clc_test_assert_has(rank, "uncoalesced");
    clc_test_assert_has(rank, "scale_chunked");
    clc_test_assert_has(rank, "<- yours");
    /* ranks 1 to 3, the best at 100.0 % */
    clc_test_assert_has(rank, "   3  ");
    clc_test_assert_has(rank, "100.0");

    char csv[512];
    snprintf(csv, sizeof csv, "%s -f csv", args);
    clc_test_expect(csv, 0, "ranking: scale_chunked", out, sizeof out, err, sizeof err);
    clc_test_assert_lacks(out, "ranking");
    clc_test_assert_has(out, "custom,scale_chunked");
}
END_TEST

/* With a device profile the ranking predicts every row, the user's among them, and names
 * the bound; the report keeps the prediction. */
START_TEST(ranking_predicts_with_a_profile)
{
    char dir[64], cmd[1024];
    clc_test_make_dir(dir, "predicted");
    const char *prof = clc_test_write_profile(dir);
    const char *json = clc_test_path(dir, "r.json");
    snprintf(cmd, sizeof cmd, "custom " COPY_FLOAT4 " --pattern copy --items-per-thread 4 "
             "--size 64KiB -r 2 --profile %s -f json -o %s", prof, json);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(err, "was measured on 'Test GPU', not on this device");
    const char *rank = strstr(out, "ranking: copy_float4");
    ck_assert_msg(rank != NULL, "no ranking in: %s", out);
    clc_test_assert_has(rank, "pred bound\n");
    const char *mine = strstr(rank, "custom       copy_float4");
    ck_assert_msg(mine != NULL, "no row of yours in: %s", rank);
    double gbps, best, pred;
    char bound[16];
    ck_assert_msg(sscanf(mine, "custom copy_float4 - %lf %lf %*s %lf %15s", &gbps, &best, &pred,
                         bound) == 4, "no prediction in: %s", rank);
    ck_assert_double_gt(pred, 0);
    ck_assert_str_ne(bound, "<-");
    /* and why, layer by layer, as explain prints it: the profile is another device's */
    const char *why = strstr(rank, "copy_float4, layer by layer on the profile of\n  Test GPU\n");
    ck_assert_msg(why != NULL, "no waterfall in: %s", rank);
    static const char *const layers[] = {"  ceiling   x ", "  lines     x ", "bound: ",
                                         "predicted for the profile's device, not this one"};
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        clc_test_assert_has(why, layers[i]);
    clc_test_assert_lacks(why, "  measured  ");
    struct clc_report rep;
    ck_assert_int_eq(clc_read_json(json, &rep), CLC_OK);
    const struct clc_result *r = clc_test_get(&rep, "copy_float4", -1, CLC_FLOAT);
    ck_assert_double_eq_tol(r->model.gbps, pred, 0.05);
    ck_assert_str_eq(r->model.bound, bound);
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(wrong_kernel_exits_1)
{
    const char *file = copy_kernel("wrong.cl", "", "LOAD(in, i) + 1", "");
    run_copy_pattern(file, "k", "-r 1", 1, "wrong result");
    clc_test_assert_lacks(out, "ranking"); /* a wrong kernel is not ranked */
}
END_TEST

/* A kernel that declares its work-group shape runs at that shape; asked to run at another
 * it is refused before any launch, naming the declared shape. */
START_TEST(declared_shape)
{
    const char *file = copy_kernel(
        "shaped.cl", "__attribute__((reqd_work_group_size(CLC_LOCAL_X, CLC_LOCAL_Y, 1)))\n",
        "LOAD(in, i)",
        "__attribute__((reqd_work_group_size(64, 1, 1)))\n"
        "__kernel void k64(__global const T *in, __global T *out, ulong n)\n"
        "{\n"
        "    if (get_global_id(0) < n)\n"
        "        out[get_global_id(0)] = in[get_global_id(0)];\n"
        "}\n");
    run_copy_pattern(file, "k", "--local 128 -r 1", 0, NULL);
    clc_test_assert_has(out, "<- yours");
    run_copy_pattern(file, "k64", "--local 128 -r 1", 1,
                     "--local 128x1: kernel 'k64' declares reqd_work_group_size(64, 1, 1)");
    clc_test_assert_lacks(out, "ranking");
}
END_TEST

START_TEST(compile_error_names_file_and_line)
{
    /* the missing ';' is on line 5 */
    const char *file = write_kernel(
        "broken.cl", "#include \"clc.h\"\n"
                     "__kernel void k(__global const T *in, __global T *out, ulong n "
                     "CLC_TRACE_ARGS)\n"
                     "{\n"
                     "    CLC_TRACE_BEGIN\n"
                     "    size_t i = get_global_id(0)\n"
                     "    if (i < n)\n"
                     "        STORE(out, i, LOAD(in, i));\n"
                     "}\n");
    run_copy_pattern(file, "k", "", 1, NULL);
    /* the first error line of ours names the file and the line */
    char where[256];
    snprintf(where, sizeof where, "clcoalesce: error: %s:5:", file);
    const char *first = strstr(err, "clcoalesce: error:");
    ck_assert_msg(first != NULL && strncmp(first, where, strlen(where)) == 0,
                  "expected '%s' first; stderr: %s", where, err);
    /* and so does the log: no temporary file name is left */
    clc_test_assert_lacks(err, "tempfile");
    clc_test_assert_lacks(err, "<kernel>");
}
END_TEST

/* A __local array larger than the device's local memory made PoCL assert at the launch,
 * reported as an access outside the buffers; it is named before any launch. */
START_TEST(local_memory_too_large)
{
    const char *file = write_kernel(
        "big.cl", "__kernel void big(__global const float *in, __global float *out, ulong n)\n"
                  "{\n"
                  "    __local float tile[268435456];\n" /* 1 GiB */
                  "    size_t i = get_global_id(0);\n"
                  "    tile[get_local_id(0)] = in[i < n ? i : 0];\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "    if (i < n)\n"
                  "        out[i] = tile[get_local_id(0)];\n"
                  "}\n");
    /* a compiler that refuses the array itself (NVIDIA's) fails the build, naming the file;
     * one that builds it (PoCL) meets the tool's own check before any launch */
    run_copy_pattern(file, "big", "", 1, NULL);
    if (strstr(err, "building '") == NULL) {
        clc_test_assert_has(err, "kernel 'big' uses 1 GiB of local memory");
        clc_test_assert_has(err, "CL_DEVICE_LOCAL_MEM_SIZE");
    }
    clc_test_assert_lacks(err, "outside its buffers");
}
END_TEST

/* A kernel name that is no identifier, or of 5,000 characters, is a usage error. */
START_TEST(kernel_name_checked)
{
    clc_test_expect("custom " COPY_FLOAT4 "' x' --pattern copy", 2,
                    "--kernel takes the name of a __kernel", out, sizeof out, err, sizeof err);
    static char args[6000];
    int n = snprintf(args, sizeof args, "custom --kernel-file %s --pattern copy --kernel ",
                     EXAMPLES "copy_float4.cl");
    memset(args + n, 'k', 5000);
    args[n + 5000] = '\0';
    clc_test_expect(args, 2, "an identifier of at most 47 characters", out, sizeof out, err,
                    sizeof err);
}
END_TEST

/* An error inside a macro of clc.h (STORE) named a line of clc.h as the user's file
 * ("mine.cl:49:36", in a file of 8 lines): every FILE:LINE of the user's file is one of its
 * own lines, the error's first. */
START_TEST(macro_error_names_the_users_line)
{
    const char *file = write_kernel(
        "macro.cl", "#include \"clc.h\"\n"
                    "__kernel void k(__global const T *in, __global T *out, ulong n "
                    "CLC_TRACE_ARGS)\n"
                    "{\n"
                    "    CLC_TRACE_BEGIN\n"
                    "    size_t i = get_global_id(0);\n"
                    "    if (i < n)\n"
                    "        STORE(out, i, LOAD(in, i) * );\n"
                    "}\n");
    run_copy_pattern(file, "k", "", 1, NULL);
    char where[256];
    snprintf(where, sizeof where, "clcoalesce: error: %s:7:", file);
    clc_test_assert_has(err, where);
    size_t len = strlen(file);
    for (const char *p = strstr(err, file); p != NULL; p = strstr(p + len, file))
        if (p[len] == ':')
            ck_assert_msg(atoi(p + len + 1) <= 8, "a line past the file's 8: %.60s", p);
}
END_TEST

START_TEST(bad_options)
{
    static const struct {
        const char *args;
        int code;
        const char *needle; /* in stderr */
    } runs[] = {
        {"custom", 2, "missing --kernel-file, --kernel"},
        {"custom " COPY_FLOAT4 " --items-per-thread 4", 2, "--items-per-thread goes with --pattern"},
        {"custom " COPY_FLOAT4 " --pattern reduce", 2,
         "--pattern takes copy, scale, transpose or gather, not 'reduce'"},
        {"run copy " COPY_FLOAT4 " --pattern copy", 2, "unknown option '--kernel-file'"},
        {"run --kernel-file x.cl", 2, "unknown option '--kernel-file'"},
        {"run stride --local 64", 2, "unknown option '--local'"},
        {"custom " COPY_FLOAT4 " --pattern copy stride", 2, "unknown case 'stride'"},
        {"custom " COPY_FLOAT4 " --pattern copy --sweep-size 1MiB:2MiB --size 1MiB", 2,
         "--sweep-size and --size exclude each other"},
        {"custom " COPY_FLOAT4 " --pattern copy --timeout -1", 2, "--timeout takes"},
        {"custom --kernel-file '' --kernel k --pattern copy", 2, "--kernel-file takes a file"},
        {"custom " COPY_FLOAT4 " --pattern copy --local 32x8", 2, "launches in 1-D"},
        {"custom " COPY_FLOAT4 " --pattern transpose --local 32", 2, "launches in 2-D"},
        {"custom " COPY_FLOAT4 " --pattern copy --local 8y8", 2, "--local takes N or XxY"},
        {"custom " COPY_FLOAT4 " --pattern copy --items-per-thread 0", 2,
         "--items-per-thread"},
        {"custom " COPY_FLOAT4 " --pattern copy --type double", 2, "float only"},
        {"custom " COPY_FLOAT4 " --pattern copy --variant tiled", 2,
         "no variant 'tiled' among the built-in variants the copy pattern is ranked with"},
        {"custom " COPY_FLOAT4 " --pattern copy --profile ''", 2, "--profile takes a file"},
        {"custom " COPY_FLOAT4 " --pattern copy --size 16KiB --profile /nonexistent/p.json", 1,
         "/nonexistent/p.json: cannot read the profile"},
        /* run time: exit 1 */
        {"custom --kernel-file /nonexistent/k.cl --kernel k --pattern copy --size 16KiB", 1,
         "cannot read kernel file '/nonexistent/k.cl'"},
        {"custom --kernel-file " CLC_TEST_SOURCE_DIR "/cl --kernel k --pattern copy --size 16KiB",
         1, "Is a directory"},
        {"custom " COPY_FLOAT4 " --pattern gather --size 16KiB", 1,
         "takes 3 parameters; the gather pattern passes 4"},
        {"custom --kernel-file " EXAMPLES "copy_float4.cl --kernel nope --pattern copy "
         "--size 16KiB", 1, "no __kernel 'nope'"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        clc_test_expect(runs[i].args, runs[i].code, runs[i].needle, out, sizeof out, err,
                        sizeof err);
    /* the help names every pattern's signature */
    ck_assert_int_eq(clc_test_cli("custom --help", out, sizeof out, err, sizeof err), 0);
    clc_test_assert_has(out, "ulong width, ulong height CLC_TRACE_ARGS");
    clc_test_assert_has(out, "__global const uint *idx");
    clc_test_assert_has(out, "--items-per-thread");
}
END_TEST

/* Writes kernel copy_k, which stores every element 10^8 elements past the end of out. */
static const char *store_far_kernel(const char *name)
{
    return write_kernel(name, "#include \"clc.h\"\n"
                              "__kernel void copy_k(__global const T *in, __global T *out, "
                              "ulong n CLC_TRACE_ARGS)\n"
                              "{\n"
                              "    CLC_TRACE_BEGIN\n"
                              "    size_t i = get_global_id(0);\n"
                              "    if (i < n)\n"
                              "        STORE(out, i + 100000000, LOAD(in, i));\n"
                              "}\n");
}

/* An index far past the end of out: the checked run names the work-item, the buffer and the
 * index, and the unchecked kernel never runs (no rows). */
START_TEST(store_out_of_bounds_named)
{
    const char *file = store_far_kernel("oob.cl");
    run_copy_pattern(file, "copy_k", "-f json", 1,
                     "work-item 0 of copy_k stores out[100000000]; out holds 262144 elements");
    clc_test_assert_has(err, "before any unchecked launch");
    clc_test_assert_lacks(out, "\"results\"");
}
END_TEST

/* The access named is the lowest work-item's first, whichever work-group ran first: with the
 * trace build made to record work-item 5's first access outside (as if its group had run
 * first), the checked run still names work-item 0's, and counts them all once. */
START_TEST(lowest_work_item_named)
{
    const char *kernels = clc_test_copy_kernels();
    clc_test_edit_kernel(kernels, "clc_trace.h", "? before == 0", "? item == 5");
    const char *file = store_far_kernel("oob5.cl");
    char extra[300];
    snprintf(extra, sizeof extra, "--kernel-dir %s", kernels);
    run_copy_pattern(file, "copy_k", extra, 1,
                     "work-item 0 of copy_k stores out[100000000]; out holds 262144 elements "
                     "(and 262143 more such accesses)");
    clc_test_remove_dir(kernels);
}
END_TEST

START_TEST(load_out_of_bounds_named)
{
    const char *file = copy_kernel("oobload.cl", "", "LOAD(in, i + 100000000)", "");
    run_copy_pattern(file, "k", "", 1, "work-item 0 of k loads in[100000000]; in holds 262144");
    const char *below = copy_kernel("below.cl", "", "LOAD(in, (long)i - 1000000)", "");
    run_copy_pattern(below, "k", "", 1, "work-item 0 of k loads in[-1000000]");
}
END_TEST

/* A kernel that writes far outside its buffer in a function of its own: the checked run cannot
 * trace it (test_rewrite.c), and on a CPU the child process that runs it dies; the error says
 * so. */
START_TEST(crash_is_reported)
{
    const char *file = write_kernel(
        "crash.cl", "void put(__global float *o, size_t j, float v)\n"
                    "{\n"
                    "    o[j] = v;\n"
                    "}\n"
                    "__kernel void k(__global const float *in, __global float *out, ulong n)\n"
                    "{\n"
                    "    size_t i = get_global_id(0);\n"
                    "    if (i < n)\n"
                    "        put(out, i + 4000000000000ul, in[i]);\n"
                    "}\n");
    struct clc_device d = clc_test_default_device();
    if (!d.cpu)
        return; /* a GPU reports the failed launch instead, tested on the GPU */
    /* the crash is the kernel's, not the tool's: under AddressSanitizer (the sanitizer build
     * of this suite) the child must die of the signal as it does without, not report it */
    char args[512];
    snprintf(args, sizeof args, "custom --kernel-file %s --kernel k --pattern copy --size 16KiB",
             file);
    int rc = clc_test_cli_env("ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0", args,
                              out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == 1, "exit %d; stderr: %s", rc, err);
    clc_test_assert_has(err, "crashed the process that ran it");
}
END_TEST

/* --kernel-file reads a pipe (/dev/stdin here, <(...) in bash) as it reads a file: it said
 * "No such file" once. */
START_TEST(kernel_file_from_a_pipe)
{
    char *src = clc_read_text(EXAMPLES "copy_float4.cl", NULL);
    ck_assert_ptr_nonnull(src);
    int rc = clc_test_cli_stdin(src, false, "custom --kernel-file /dev/stdin --kernel copy_float4 "
                                "--pattern copy --items-per-thread 4 --size 16KiB --variant "
                                "kernel --quick", out, sizeof out, err, sizeof err);
    free(src);
    ck_assert_msg(rc == 0, "exit %d; stderr: %s", rc, err);
    clc_test_assert_has(out, "copy_float4");
    clc_test_assert_has(out, "verified");
    /* an empty pipe is a kernel file without the kernel */
    rc = clc_test_cli_stdin(NULL, false, "custom --kernel-file /dev/stdin --kernel copy_float4 "
                            "--pattern copy --size 16KiB", out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == 1, "exit %d; stderr: %s", rc, err);
    clc_test_assert_has(err, "no __kernel 'copy_float4'");
}
END_TEST

/* A kernel that includes /dev/stdin builds against an empty file instead of waiting for a
 * stdin that never ends (here a pipe held open until the run is over; before, the run hung
 * until its --timeout). */
START_TEST(include_of_stdin_does_not_hang)
{
    const char *file = copy_kernel("inc.cl", "#include \"/dev/stdin\"\n", "LOAD(in, i)", "");
    char args[512];
    snprintf(args, sizeof args, "custom --kernel-file %s --kernel k --pattern copy --size 16KiB "
             "--variant kernel --quick", file);
    int rc = clc_test_cli_stdin(NULL, true, args, out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == 0, "exit %d; stderr: %s", rc, err);
    clc_test_assert_lacks(err, "--timeout");
    clc_test_assert_has(out, "verified");
}
END_TEST

/* A kernel that builds with a warning: the compiler's lone count lines ("1 warning
 * generated.", printed by PoCL once per build, through the progress line) are not shown. */
START_TEST(build_warning_counts_not_shown)
{
    const char *file = copy_kernel("warn.cl", "", "LOAD(in, i)",
                                   "__kernel void w(__global int *a) { int b[2]; b[5] = 1; "
                                   "a[0] = b[0]; }\n");
    run_copy_pattern(file, "k", "--variant kernel --quick --progress", 0, NULL);
    clc_test_assert_lacks(err, "generated.");
}
END_TEST

/* A loop whose bound is never reached ends at --timeout, naming the kernel. */
START_TEST(endless_loop_times_out)
{
    const char *file = write_kernel(
        "loop.cl", "__kernel void spin(__global const float *in, __global float *out, ulong n)\n"
                   "{\n"
                   "    size_t i = get_global_id(0);\n"
                   "    for (ulong k = 0; k != n + 1; k += 2)\n"
                   "        out[i % n] = in[i % n] + k;\n"
                   "}\n");
    run_copy_pattern(file, "spin", "--timeout 3", 1, "took longer than --timeout 3 s");
    clc_test_assert_has(err, "spin");
    clc_test_assert_has(err, "barrier");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        copy_example_verifies_and_ranks, variant_picks_the_built_in_rows,
        scale_example_verifies_and_ranks, transpose_example_verifies_and_ranks,
        plain_gather_runs_as_written, partial_macros_run_unchecked,
        cli_prints_ranking, ranking_predicts_with_a_profile, wrong_kernel_exits_1, declared_shape,
        compile_error_names_file_and_line,
        bad_options, store_out_of_bounds_named, lowest_work_item_named,
        load_out_of_bounds_named, crash_is_reported, endless_loop_times_out,
        local_memory_too_large, kernel_name_checked, macro_error_names_the_users_line,
        kernel_file_from_a_pipe, include_of_stdin_does_not_hang, build_warning_counts_not_shown,
    };
    return clc_test_main(clc_test_suite("custom", tests, sizeof tests / sizeof tests[0]));
}
