/* test_custom_any.c - `custom` for a kernel of any signature: the description parser (good
 * and bad lines), the size expressions, each generator, the reading of a kernel's parameters
 * and the match against a description; then through the binary: three kernels written as
 * course handouts write them run with a description alone and verify against their
 * reference, a wrong kernel fails naming the buffer, the index and both values, a row
 * without a reference is unchecked, the bytes counted, and every bad input class exits 2
 * (or 1) with a message naming what is wrong. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/describe.h"
#include "testutil.h"

#define HANDOUT CLC_TEST_SOURCE_DIR "/tests/data/handout/"

static char out[1 << 16], err[1 << 16];

/* The stencil handout's description, and its reference's own launch (a row per work-item). */
#define STENCIL_DESC                                                                           \
    "size NX = sqrt(n); size NY = n / NX; arg u in float NX*NY random; arg unew out float "     \
    "NX*NY; arg nx scalar int NX; arg ny scalar int NY; grid NX, NY; group 16, 16; "            \
    "ref_grid NY; ref_group 64"
#define STENCIL "--kernel-file " HANDOUT "stencil.cl --describe '" STENCIL_DESC "'"

/* ------------------------------------------------------------------ the parser */

static void parse_ok(const char *text, struct clc_desc *d)
{
    char e[CLC_DESC_ERR] = "";
    ck_assert_msg(clc_desc_parse(text, d, e, sizeof e), "'%s' refused: %s", text, e);
}

/* Asserts that text is refused (by the parser, or at evaluation when `at_eval`) with a
 * message holding needle. */
static void parse_bad(const char *text, bool at_eval, const char *needle)
{
    struct clc_desc d;
    struct clc_dvals v;
    char e[CLC_DESC_ERR] = "";
    bool ok = clc_desc_parse(text, &d, e, sizeof e);
    if (at_eval) {
        ck_assert_msg(ok, "'%s' refused by the parser: %s", text, e);
        ok = clc_desc_eval(&d, 1 << 20, 1 << 30, &v, e, sizeof e);
    }
    ck_assert_msg(!ok, "'%s' was accepted", text);
    ck_assert_msg(strstr(e, needle) != NULL, "'%s': message '%s' lacks '%s'", text, e, needle);
}

START_TEST(parses_a_description)
{
    struct clc_desc d;
    struct clc_dvals v;
    char e[CLC_DESC_ERR];
    parse_ok("/* clcoalesce:\n * size W = sqrt(n)   # the width\n *   size H = (n / W) + 1\n"
             " * arg a in float4 W*H iota\n * arg b out double W\n * arg t local int 16*16\n"
             " * arg k scalar uint H - 1\n * arg f scalar float 0.5\n * grid W, H\n"
             " * group 8, 4\n * tolerance 1e-3\n",
             &d);
    ck_assert_uint_eq(d.nargs, 5);
    ck_assert_uint_eq(d.dims, 2);
    ck_assert(d.tolerance > 0.9e-3 && d.tolerance < 1.1e-3);
    ck_assert_uint_eq(d.args[0].elem.width, 4);
    ck_assert_int_eq(d.args[0].gen, CLC_GEN_IOTA);
    ck_assert_int_eq(d.args[2].role, CLC_ROLE_LOCAL);
    /* n = 1 MiB / 4 = 262144: W = 512, H = 513 */
    ck_assert(clc_desc_eval(&d, 1 << 20, 0, &v, e, sizeof e));
    ck_assert_uint_eq(v.len[0], 512 * 513);
    ck_assert_uint_eq(clc_darg_bytes(&d, &v, 0), 512 * 513 * 16);
    ck_assert_uint_eq(v.len[1], 512);
    ck_assert_uint_eq(clc_darg_bytes(&d, &v, 2), 16 * 16 * 4);
    ck_assert_uint_eq(v.bits[3], 512);
    float half = 0.5f;
    uint32_t bits;
    memcpy(&bits, &half, 4);
    ck_assert_uint_eq(v.bits[4], bits);
    ck_assert_uint_eq(v.dims, 2);
    ck_assert_uint_eq(v.global[0], 512);
    ck_assert_uint_eq(v.global[1], 516); /* 513 rounded up to groups of 4 */
    ck_assert_uint_eq(v.local[1], 4);
}
END_TEST

START_TEST(expressions_evaluate_and_refuse)
{
    struct clc_dvals v = {.nsizes = 1, .names = {"n"}, .values = {100}};
    uint64_t x;
    char e[CLC_DESC_ERR];
    ck_assert(clc_desc_expr("(n + 4) * 2 % 7 + min(3, n) + max(n, 2) / 10 + 1K", &v, &x, e,
                            sizeof e));
    ck_assert_uint_eq(x, (104 * 2) % 7 + 3 + 10 + 1024);
    ck_assert(clc_desc_expr("sqrt(n - 1)", &v, &x, e, sizeof e));
    ck_assert_uint_eq(x, 9);
    ck_assert(!clc_desc_expr("n * 1G * 1G * 1G", &v, &x, e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "overflows"));
    ck_assert(!clc_desc_expr("n / (n - 100)", &v, &x, e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "division by zero"));
    ck_assert(!clc_desc_expr("n - 101", &v, &x, e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "negative"));
    ck_assert(!clc_desc_expr("m + 1", &v, &x, e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "unknown size 'm'"));
    ck_assert(!clc_desc_expr("(n + 1", &v, &x, e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "missing ')'"));
}
END_TEST

/* The flops line: an expression of the sizes, kept as written and evaluated like the
 * others; without an expression it is refused. */
START_TEST(flops_line_parsed)
{
    struct clc_desc d;
    struct clc_dvals v;
    char e[CLC_DESC_ERR];
    uint64_t flops;
    parse_ok("size W = sqrt(n); arg a in float n; flops 2 * 16 * W   # 16 FMAs a column", &d);
    ck_assert_str_eq(d.flops, "2 * 16 * W");
    ck_assert(clc_desc_eval(&d, 1 << 20, 0, &v, e, sizeof e));
    ck_assert(clc_desc_expr(d.flops, &v, &flops, e, sizeof e));
    ck_assert_uint_eq(flops, 2 * 16 * 512);
    parse_ok("arg a in float n", &d);
    ck_assert_str_eq(d.flops, ""); /* not given: the compute layer is left out */
    parse_bad("arg a in float n; flops", false, "flops: give an expression");
}
END_TEST

START_TEST(bad_descriptions_refused)
{
    parse_bad("arg a inn float n", false, "role 'inn'");
    parse_bad("arg a in float5 n", false, "'float5' is not an element type");
    parse_bad("arg a in float", false, "no length");
    parse_bad("arg a out float n iota", false, "only in and inout");
    parse_bad("arg a in uint n colidx M", false, "no csr matrix 'M'");
    parse_bad("arg a in float n; arg a out float n", false, "described twice");
    parse_bad("size = 3", false, "NAME = EXPRESSION");
    parse_bad("launch 3", false, "'launch' begins no line");
    parse_bad("group 16", false, "group without a grid");
    parse_bad("csr A 10 10 2", false, "density");
    parse_bad("tolerance 2", false, "tolerance");
    parse_bad("arg a in float n * 1G * 1G * 1G", true, "arg a: a product overflows");
    parse_bad("arg a in float n - n", true, "a length of 0");
    parse_bad("arg a in float n * 2K", true, "exceed the device's largest allocation");
    parse_bad("arg k scalar uchar 300", true, "does not fit");
    parse_bad("size W = Q; arg a in float W", true, "size W: unknown size 'Q'");
}
END_TEST

/* ------------------------------------------------------------------ the generators */

/* Evaluates `text` (one in argument) at 1 MiB and fills it; returns the buffer (free it). */
static void *filled(const char *text, struct clc_desc *d, struct clc_dvals *v, unsigned arg)
{
    char e[CLC_DESC_ERR];
    parse_ok(text, d);
    ck_assert_msg(clc_desc_eval(d, 1 << 20, 0, v, e, sizeof e), "%s", e);
    void *p = malloc(clc_darg_bytes(d, v, arg));
    ck_assert_ptr_nonnull(p);
    clc_desc_fill(d, v, arg, p);
    return p;
}

START_TEST(generators_fill_as_named)
{
    struct clc_desc d;
    struct clc_dvals v;
    uint32_t *u = filled("arg a in uint 1000 iota", &d, &v, 0);
    for (uint32_t i = 0; i < 1000; i++)
        ck_assert_uint_eq(u[i], i);
    free(u);
    float *f = filled("arg a in float 1000 const 2.5", &d, &v, 0);
    for (int i = 0; i < 1000; i++)
        ck_assert(f[i] == 2.5f);
    free(f);
    f = filled("arg a in float 1000 random -2 3", &d, &v, 0);
    float *g = filled("arg a in float 1000 random -2 3", &d, &v, 0);
    bool differ = false;
    for (int i = 0; i < 1000; i++) {
        ck_assert_msg(f[i] >= -2 && f[i] < 3, "random[%d] = %g", i, f[i]);
        differ |= f[i] != f[0];
    }
    ck_assert(differ);
    ck_assert_int_eq(memcmp(f, g, 1000 * sizeof *f), 0); /* reproducible */
    free(f);
    free(g);
    int *p = filled("arg a in int 777 perm", &d, &v, 0);
    char seen[777] = {0};
    for (int i = 0; i < 777; i++) {
        ck_assert(p[i] >= 0 && p[i] < 777 && !seen[p[i]]);
        seen[p[i]] = 1;
    }
    free(p);
    u = filled("arg a in uint 1000 index 37", &d, &v, 0);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_lt(u[i], 37);
    free(u);
    u = filled("arg a in uint 1000 sorted n / 2", &d, &v, 0);
    for (int i = 0; i < 1000; i++) {
        ck_assert_uint_lt(u[i], 131072);
        ck_assert(i == 0 || u[i - 1] <= u[i]);
    }
    free(u);
}
END_TEST

START_TEST(csr_matrix_is_consistent)
{
    struct clc_desc d;
    struct clc_dvals v;
    const char *text = "csr A 100 1000 0.01; arg r in uint 101 rowptr A; "
                       "arg c in uint A_nnz colidx A; arg x in float A_nnz random";
    uint32_t *rows = filled(text, &d, &v, 0);
    uint32_t *cols = filled(text, &d, &v, 1);
    ck_assert_uint_eq(v.len[1], 100 * 10); /* 10 nonzeros a row */
    ck_assert_uint_eq(rows[0], 0);
    ck_assert_uint_eq(rows[100], 1000);
    for (int r = 0; r < 100; r++)
        for (uint32_t k = rows[r]; k < rows[r + 1]; k++) {
            ck_assert_uint_lt(cols[k], 1000);
            ck_assert(k == rows[r] || cols[k - 1] < cols[k]);
        }
    free(rows);
    free(cols);
}
END_TEST

/* ------------------------------------------------------------------ the signature */

START_TEST(signature_read_and_matched)
{
    const char *src = "#include \"clc.h\"\n/* clcoalesce: arg a in float n; arg b out float4 n;"
                      " arg t local int 64; arg k scalar uint n */\n"
                      "// kernel k2(x) is below: this comment's words are no code\n"
                      "__kernel void k1(__global const float *restrict a,\n"
                      "                 global float4 *b, /* the\n"
                      "                 output, k1(y) */"
                      "                 __local int *t, const uint k CLC_TRACE_ARGS) { }\n"
                      "kernel void k2(__global float *a) { }\n";
    struct clc_param p[8];
    struct clc_desc d;
    char e[CLC_DESC_ERR];
    int n = clc_kernel_params(src, "k1", p, 8, e, sizeof e);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(p[0].type, "float");
    ck_assert(p[0].pointer && p[0].is_global && p[0].is_const);
    ck_assert_str_eq(p[1].type, "float4");
    ck_assert(p[2].is_local && !p[2].is_global);
    ck_assert(!p[3].pointer);
    ck_assert_str_eq(p[3].name, "k");
    char *text = clc_desc_find(src, "k1");
    ck_assert_ptr_nonnull(text);
    parse_ok(text, &d);
    free(text);
    ck_assert(clc_desc_match(&d, p, n, "k1", e, sizeof e));
    ck_assert_ptr_null(clc_desc_find(src, "k2")); /* the comment is k1's */
    ck_assert_int_eq(clc_kernel_params(src, "k3", p, 8, e, sizeof e), -1);
    ck_assert_ptr_nonnull(strstr(e, "no __kernel 'k3'"));

    /* each mismatch names the parameter */
    parse_ok("arg a in float n; arg b out float4 n; arg t local int 64", &d);
    ck_assert(!clc_desc_match(&d, p, n, "k1", e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "takes 4 parameters; the description has 3: not described: k"));
    parse_ok("arg a in float n; arg b out float2 n; arg t local int 64; arg k scalar uint n", &d);
    ck_assert(!clc_desc_match(&d, p, n, "k1", e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "parameter 2 'b': described as float2, declared float4"));
    parse_ok("arg a in float n; arg b out float4 n; arg t in int 64; arg k scalar uint n", &d);
    ck_assert(!clc_desc_match(&d, p, n, "k1", e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "parameter 3 't': described as a __global pointer"));
    parse_ok("arg a in float n; arg b out float4 n; arg t local int 64; arg k in uint n", &d);
    ck_assert(!clc_desc_match(&d, p, n, "k1", e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "parameter 4 'k'"));

    /* the default: const in, others out, integer scalars n; a __local one needs describing */
    n = clc_kernel_params(src, "k2", p, 8, e, sizeof e);
    ck_assert(clc_desc_default(p, n, &d, e, sizeof e));
    ck_assert_int_eq(d.args[0].role, CLC_ROLE_OUT);
    n = clc_kernel_params(src, "k1", p, 8, e, sizeof e);
    ck_assert(!clc_desc_default(p, n, &d, e, sizeof e));
    ck_assert_ptr_nonnull(strstr(e, "'t' (__local int) needs a description: its size"));
}
END_TEST

/* ------------------------------------------------------------------ through the binary */

/* Runs `custom ARGS --size SIZE -r 2 -f json` into dir/r.json, asserts exit `code`, and
 * when 0 reads the one row into *row. */
static void run_json(const char *args, const char *size, int code, const char *needle,
                     struct clc_result *row)
{
    char dir[64], cmd[2048];
    struct clc_report rep;
    clc_test_make_dir(dir, "custom-any");
    const char *json = clc_test_path(dir, "r.json");
    snprintf(cmd, sizeof cmd, "custom %s --size %s -r 2 -f json -o %s", args, size, json);
    clc_test_expect(cmd, code, needle, out, sizeof out, err, sizeof err);
    if (code == 0) {
        ck_assert_int_eq(clc_read_json(json, &rep), CLC_OK);
        ck_assert_uint_eq(rep.n_results, 1);
        *row = rep.results[0];
        clc_report_free(&rep);
    } else {
        ck_assert_msg(access(json, F_OK) != 0, "a failed run left %s", json);
    }
    clc_test_remove_dir(dir);
}

START_TEST(handout_stencil_verifies_against_its_reference)
{
    struct clc_result r;
    run_json(STENCIL " --kernel jacobi --reference jacobi_rows", "64K", 0, NULL, &r);
    ck_assert_int_eq(r.status, CLC_STATUS_OK);
    ck_assert(r.verified);
    /* bytes: u read once and unew written once, 128 x 128 floats each */
    ck_assert_uint_eq(r.bytes, 2 * 128 * 128 * 4);
}
END_TEST

START_TEST(handout_wrong_stencil_fails_naming_buffer_index_values)
{
    struct clc_result r;
    run_json(STENCIL " --kernel jacobi_wrong --reference jacobi_rows", "64K", 1,
             "wrong against the reference jacobi_rows: unew[129] = ", &r);
    clc_test_assert_has(err, ", reference: ");
}
END_TEST

START_TEST(handout_matvec_and_histogram_verify)
{
    struct clc_result r;
    run_json("--kernel-file " HANDOUT "matvec.cl --kernel matvec_group --reference matvec "
             "--describe 'size R = 64; size C = n / R; arg A in float R*C random; "
             "arg x in float C random; arg y out float R; arg rows scalar int R; "
             "arg cols scalar int C; grid R*64; group 64; ref_grid R; ref_group 32'",
             "64K", 0, NULL, &r);
    ck_assert(r.verified);
    ck_assert_uint_eq(r.bytes, (64 * 256 + 256 + 64) * 4);
    run_json("--kernel-file " HANDOUT "histogram.cl --kernel histogram --reference "
             "histogram_global --describe 'arg data in uchar n random 0 256; arg n scalar uint "
             "n; arg bins inout uint 256 const 0; arg local_bins local uint 256; grid 16*64; "
             "group 64' --bytes 'n + 256 * 4'",
             "64K", 0, NULL, &r);
    ck_assert(r.verified);
    ck_assert_uint_eq(r.bytes, 16384 + 1024);
}
END_TEST

START_TEST(without_reference_the_row_is_unchecked)
{
    struct clc_result r;
    run_json(STENCIL " --kernel jacobi", "64K", 0, NULL, &r);
    ck_assert_int_eq(r.status, CLC_STATUS_OK);
    ck_assert(!r.verified);
    ck_assert_ptr_nonnull(strstr(r.note, "; no --reference"));
    /* the table says so in its status column */
    clc_test_expect("custom " STENCIL " --kernel jacobi --size 64K -r 2", 0, NULL, out,
                    sizeof out, err, sizeof err);
    clc_test_assert_has(out, "unchecked");
    clc_test_assert_lacks(out, "verified");
}
END_TEST

START_TEST(bad_inputs_are_named)
{
    struct clc_result r;
    /* a description that does not match the kernel: count, type, address space */
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --describe 'arg u in float n; "
             "arg unew out float n; arg nx scalar int n'", "64K", 2,
             "takes 4 parameters; the description has 3: not described: ny", &r);
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --describe 'arg u in int n; "
             "arg unew out float n; arg nx scalar int n; arg ny scalar int n'", "64K", 2,
             "parameter 1 'u': described as int, declared float", &r);
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --describe 'arg u local "
             "float n; arg unew out float n; arg nx scalar int n; arg ny scalar int n'", "64K",
             2, "parameter 1 'u': described as a __local pointer 'u', declared __global", &r);
    /* sizes that overflow, or exceed the device's allocation limit, before anything runs */
    run_json(STENCIL "'; arg ny scalar int 1' --kernel jacobi", "64K", 2, "described twice", &r);
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --describe 'arg u in float "
             "n * 1G * 1G; arg unew out float n; arg nx scalar int n; arg ny scalar int n'",
             "64K", 2, "arg u: a product overflows 64 bits", &r);
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --describe 'arg u in float "
             "n * 64G; arg unew out float n; arg nx scalar int n; arg ny scalar int n'",
             "64K", 1, "exceed the device's largest allocation", &r);
    /* a reference with another signature */
    run_json(STENCIL " --kernel jacobi --reference matvec --reference-file " HANDOUT
             "matvec.cl", "64K", 2, "--reference matvec: its signature is not that of 'jacobi'",
             &r);
    /* a kernel the file does not hold; options that belong to the other form */
    run_json(STENCIL " --kernel jacobi --reference nope", "64K", 1, "no __kernel 'nope'", &r);
    run_json(STENCIL " --kernel jacobi --local 64", "64K", 2, "--local goes with --pattern", &r);
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --pattern copy --reference "
             "jacobi", "64K", 2, "--reference goes with a described kernel", &r);
    run_json(STENCIL " --kernel jacobi --tolerance 2", "64K", 2, "--tolerance takes", &r);
}
END_TEST

/* A compute-heavy example (a polynomial of degree 32 per element): verified against its
 * reference, its row carries the flops its description counts, --flops overrides them, and
 * a bad expression is a usage error before anything runs.  Which bound a CPU names is
 * its own affair: not asserted. */
START_TEST(compute_heavy_example_carries_its_flops)
{
    struct clc_result r;
    const char *poly = "--kernel-file " CLC_TEST_SOURCE_DIR "/cl/examples/poly.cl --kernel "
                       "poly_horner --reference poly_powers";
    run_json(poly, "64K", 0, NULL, &r);
    ck_assert_msg(r.status == CLC_STATUS_OK && r.verified, "%s", r.note);
    ck_assert_double_eq(r.flops, 64.0 * 16384); /* n = 64 KiB / 4 */
    char args[512];
    snprintf(args, sizeof args, "%s --flops '2 * n'", poly);
    run_json(args, "64K", 0, NULL, &r);
    ck_assert_double_eq(r.flops, 2.0 * 16384);
    snprintf(args, sizeof args, "%s --flops 'm + 1'", poly);
    run_json(args, "64K", 2, "--flops: unknown size 'm'", &r);
    run_json("--kernel-file " HANDOUT "stencil.cl --kernel jacobi --pattern copy --flops n",
             "64K", 2, "--flops goes with a described kernel", &r);
    /* a kernel without flops counted has none in its row */
    run_json(STENCIL " --kernel jacobi --reference jacobi_rows", "64K", 0, NULL, &r);
    ck_assert(isnan(r.flops));
}
END_TEST

/* Runs kernel k (in, out, n; the body after i = get_global_id(0)) described and unchecked, and
 * expects the checked run to stop it, naming the load of in. */
static void expect_load_caught(const char *k, const char *body)
{
    char dir[64], src[1024], args[1024];
    clc_test_make_dir(dir, "custom-any-oob");
    const char *file = clc_test_path(dir, "oob.cl");
    snprintf(src, sizeof src, "#include \"clc.h\"\n__kernel void %s(__global const float *in, "
             "__global float *out, uint n CLC_TRACE_ARGS)\n{\n    CLC_TRACE_BEGIN\n"
             "    uint i = get_global_id(0);\n%s}\n", k, body);
    clc_test_write_file(file, src);
    snprintf(args, sizeof args, "custom --kernel-file %s --kernel %s --describe 'arg in in "
             "float n; arg out out float n; arg n scalar uint n' --size 64K -r 2", file, k);
    clc_test_expect(args, 1, "found by the checked run", out, sizeof out, err, sizeof err);
    clc_test_assert_has(err, "in[");
    clc_test_remove_dir(dir);
}

START_TEST(out_of_bounds_caught_by_the_checked_run)
{
    /* the first work-item reads one element past its input (the first: the checked run
     * traces the first work-groups on any device) */
    expect_load_caught("past", "    if (i < n)\n        STORE(out, i, LOAD(in, n - i));\n");
}
END_TEST

START_TEST(an_index_into_the_next_buffer_is_caught)
{
    /* in's index reaches into out: inside a buffer, but not the one in points to (a driver
     * may place the next buffer right after the first, where in[n] lies) */
    expect_load_caught("across", "    long d = out - in;\n"
                                 "    if (i < n)\n        STORE(out, i, LOAD(in, i + d));\n");
}
END_TEST

START_TEST(examples_verify_against_their_reference_and_are_modelled)
{
    static const char *const ex[][3] = {
        {"stencil.cl", "stencil_tiled", "stencil_naive"},
        {"reduce.cl", "reduce_sequential", "reduce_interleaved"},
        {"matvec.cl", "matvec_group", "matvec_row"},
        {"spmv.cl", "spmv_vector", "spmv_scalar"},
        {"conv1d.cl", "conv1d_local", "conv1d_naive"},
        {"histogram.cl", "histogram_local", "histogram_global"},
        {"softmax.cl", "softmax_group", "softmax_row"},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        char args[512];
        struct clc_result r;
        snprintf(args, sizeof args, "--kernel-file " CLC_TEST_SOURCE_DIR "/cl/examples/%s "
                 "--kernel %s --reference %s", ex[i][0], ex[i][1], ex[i][2]);
        run_json(args, "64K", 0, NULL, &r);
        ck_assert_msg(r.status == CLC_STATUS_OK && r.verified, "%s: %s", ex[i][1], r.note);
        ck_assert_msg(isfinite(r.model.efficiency), "%s: no model figure", ex[i][1]);
    }
}
END_TEST

int main(void)
{
    const TTest *tests[] = {parses_a_description,
                            expressions_evaluate_and_refuse,
                            bad_descriptions_refused,
                            generators_fill_as_named,
                            csr_matrix_is_consistent,
                            signature_read_and_matched,
                            handout_stencil_verifies_against_its_reference,
                            handout_wrong_stencil_fails_naming_buffer_index_values,
                            handout_matvec_and_histogram_verify,
                            without_reference_the_row_is_unchecked,
                            bad_inputs_are_named,
                            flops_line_parsed,
                            compute_heavy_example_carries_its_flops,
                            out_of_bounds_caught_by_the_checked_run,
                            an_index_into_the_next_buffer_is_caught,
                            examples_verify_against_their_reference_and_are_modelled};
    return clc_test_main(clc_test_suite("custom_any", tests, sizeof tests / sizeof tests[0]));
}
