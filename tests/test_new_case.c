/* test_new_case.c - what adding a case takes: a kernel file and a case (its variants as a
 * table, a plan per variant), here both defined by the test alone, run through the same
 * driver as the built-in cases on any API: verified, timed, modelled, and a wrong kernel
 * caught.  The registry line is the one thing a built-in case adds besides. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char kernel_text[] =
    "/* triple.cl - out[i] = in[i] * 3, one element per work-item or W per work-item. */\n"
    "#include \"clc.h\"\n"
    "#ifndef W\n"
    "#define W 1\n"
    "#endif\n"
    "__kernel void triple(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)\n"
    "{\n"
    "    CLC_TRACE_BEGIN\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        STORE(out, i, LOAD(in, i) * 3);\n"
    "}\n"
    "__kernel void triple_w(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)\n"
    "{\n"
    "    CLC_TRACE_BEGIN\n"
    "    size_t i = get_global_id(0) * W;\n"
    "    for (size_t j = i; j < i + W && j < n; j++)\n"
    "        STORE(out, j, LOAD(in, j) * 3);\n"
    "}\n";

static void ref_triple(const struct clc_ref_args *a)
{
    for (size_t j = 0; j < a->n_out; j++)
        clc_put(a->want, j, a->t, clc_get(a->in, j, a->t) * 3);
}

static int plan_one(const struct clc_env *e, const struct clc_variant *v, long param,
                    struct clc_plan *p)
{
    (void)param;
    clc_plan_map(p, e, v->kernel, 64, ref_triple);
    return CLC_OK;
}

static size_t widths(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    out[0] = 2;
    out[1] = 8;
    return 2;
}

static int plan_w(const struct clc_env *e, const struct clc_variant *v, long w,
                  struct clc_plan *p)
{
    clc_plan_map(p, e, v->kernel, 64, ref_triple);
    clc_plan_define(p, "-DW=%ld", w);
    clc_plan_1d(p, (e->n + (size_t)w - 1) / (size_t)w, 64);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "one", .kernel = "triple", .plan = plan_one},
    {.name = "chunk", .kernel = "triple_w", .params = widths, .plan = plan_w},
};

static const struct clc_case triple_case = {
    .name = "triple",
    .cl_file = "triple.cl",
    .summary = "out[i] = in[i] * 3",
    .variants_text = "one; chunk, param = elements per work-item",
    .bytes_rule = "2 x n x element size",
    .expect = "one near the copy kernel; chunk below it (lanes W elements apart)",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};

/* The source tree's kernels and triple.cl (with `from` replaced by `to`) in a fresh folder. */
static const char *kernels_with_triple(const char *from, const char *to)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_write_file(clc_test_path(dir, "triple.cl"), kernel_text);
    if (from != NULL)
        clc_test_edit_kernel(dir, "triple.cl", from, to);
    return dir;
}

START_TEST(case_defined_here_runs_verified_and_modelled)
{
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts(&o);
    o.kernel_dir = kernels_with_triple(NULL, NULL);
    const struct clc_case *cases[] = {&triple_case};
    clc_report_init(&rep, "opencl");
    ck_assert_int_eq(clc_run_cases(&o, cases, 1, &rep, NULL), CLC_OK);
    /* one + chunk 2 + chunk 8, in float and double (or double skipped) */
    clc_test_assert_all_verified(&rep, 6);
    const struct clc_result *one = clc_test_get(&rep, "one", -1, CLC_FLOAT);
    ck_assert_str_eq(one->case_name, "triple");
    ck_assert_double_eq_tol(one->model.efficiency, 1.0, 0.05);
    const struct clc_result *chunk = clc_test_get(&rep, "chunk", 8, CLC_FLOAT);
    ck_assert_msg(chunk->model.efficiency < 0.5, "8 elements a lane apart: efficiency %g",
                  chunk->model.efficiency);
    clc_report_free(&rep);
    clc_test_remove_dir(o.kernel_dir);
}
END_TEST

START_TEST(wrong_kernel_caught)
{
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts(&o);
    o.kernel_dir = kernels_with_triple("LOAD(in, i) * 3", "LOAD(in, i) * 2");
    o.variant = "one";
    const struct clc_case *cases[] = {&triple_case};
    clc_report_init(&rep, "opencl");
    ck_assert_int_eq(clc_run_cases(&o, cases, 1, &rep, NULL), CLC_ERR);
    clc_test_assert_caught(clc_test_get(&rep, "one", -1, CLC_FLOAT), "wrong result");
    clc_report_free(&rep);
    clc_test_remove_dir(o.kernel_dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {case_defined_here_runs_verified_and_modelled, wrong_kernel_caught};
    return clc_test_main(clc_test_suite("new_case", tests, sizeof tests / sizeof tests[0]));
}
