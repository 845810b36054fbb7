/* test_cuda_source.c - one kernel source for both APIs: every kernel every case plans, in
 * every type, variant and param, and in its trace build, compiles as CUDA C++ through NVRTC
 * with cl/clc_cuda.h in front, the vector kernels keep their wide loads, and a trace build
 * compiles on to a cubin.  Needs NVRTC, not a GPU: skipped (exit 77) where NVRTC is not
 * installed. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cuda.h"
#include "testutil.h"

/* A Hopper as the plans see it: what decides shapes and grids. */
static struct clc_device hopper(void)
{
    struct clc_device d;
    memset(&d, 0, sizeof d);
    d.api = CLC_API_CUDA;
    d.gpu = d.fp64 = d.nvidia = d.managed = true;
    d.image2d_max[0] = 131072; /* MAXIMUM_TEXTURE2D_WIDTH / _HEIGHT */
    d.image2d_max[1] = 65536;
    d.max_group = 1024;
    d.meta.compute_units = 132;
    d.meta.warp_size = 32;
    d.meta.cc_major = 9;
    d.meta.cc_minor = 0;
    d.meta.max_alloc = (uint64_t)20 << 30;
    snprintf(d.meta.name, sizeof d.meta.name, "a compute capability 9.0 device");
    return d;
}

/* Compiles p's kernel in type t (trace build when trace) and returns the PTX (free it). */
static char *compile(const struct clc_case *c, const struct clc_plan *p, enum clc_type t,
                     bool trace)
{
    char opts[512], *ptx = NULL, *log = NULL;
    clc_plan_options(p, t, opts, sizeof opts);
    if (trace)
        strcat(opts, " -DCLC_TRACE");
    int rc = clc_cuda_ptx(CLC_TEST_KERNEL_DIR, p->file ? p->file : c->cl_file, opts, 9, 0,
                          "test", &ptx, &log);
    ck_assert_msg(rc == CLC_OK, "%s: %s with '%s' does not compile as CUDA: %s", c->name,
                  p->kernel, opts, log ? log : "(see stderr)");
    ck_assert_msg(strstr(ptx, ".entry ") != NULL && strstr(ptx, p->kernel) != NULL,
                  "%s: no entry %s in the PTX", c->name, p->kernel);
    free(log);
    return ptx;
}

START_TEST(every_planned_kernel_compiles)
{
    struct clc_device d = hopper();
    size_t compiled = 0;
    for (size_t i = 0; i < clc_n_cases; i++) {
        const struct clc_case *c = clc_cases[i];
        for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
            if (!(c->types & t))
                continue;
            struct clc_env e = clc_env_make(&d, (enum clc_type)t, (uint64_t)1 << 20);
            for (size_t v = 0; v < c->n_variants; v++) {
                const struct clc_variant *var = &c->variants[v];
                long params[CLC_MAX_PARAMS] = {0};
                size_t np = var->params ? var->params(&e, var, params) : 1;
                for (size_t k = 0; k < np; k++) {
                    struct clc_plan p;
                    if (clc_variant_plan(&e, var, params[k], &p) != CLC_OK)
                        continue;
                    if (p.kernel != NULL) {
                        free(compile(c, &p, (enum clc_type)t, false));
                        free(compile(c, &p, (enum clc_type)t, true));
                        compiled += 2;
                    }
                    clc_plan_free(&p);
                }
            }
        }
    }
    ck_assert_uint_ge(compiled, 100);
}
END_TEST

/* The PTX keeps the widths the OpenCL compiler gives: a float4 copy is one 16-byte load and
 * store per work-item, a double4 two 16-byte ones. */
/* The examples of kernels of any signature (cl/examples/, run by `custom` with their
 * descriptions): each kernel of each file compiles in its trace build, which holds every
 * line of the timed build with LOAD / STORE recording as well (one build per file keeps the
 * suite short). */
START_TEST(any_signature_examples_compile)
{
    static const struct {
        const char *file, *kernels[2];
    } ex[] = {
        {"examples/stencil.cl", {"stencil_naive", "stencil_tiled"}},
        {"examples/reduce.cl", {"reduce_interleaved", "reduce_sequential"}},
        {"examples/matvec.cl", {"matvec_row", "matvec_group"}},
        {"examples/spmv.cl", {"spmv_scalar", "spmv_vector"}},
        {"examples/conv1d.cl", {"conv1d_naive", "conv1d_local"}},
        {"examples/histogram.cl", {"histogram_local", "histogram_global"}},
        {"examples/softmax.cl", {"softmax_row", "softmax_group"}},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        char *ptx = NULL, *log = NULL;
        const char *opts = "-DT=float -DCLC_TRACE";
        int rc = clc_cuda_ptx(CLC_TEST_KERNEL_DIR, ex[i].file, opts, 9, 0, "test", &ptx, &log);
        ck_assert_msg(rc == CLC_OK, "%s with '%s' does not compile as CUDA: %s", ex[i].file,
                      opts, log ? log : "(see stderr)");
        for (int k = 0; k < 2; k++)
            ck_assert_msg(strstr(ptx, ex[i].kernels[k]) != NULL, "%s: no entry %s in the PTX",
                          ex[i].file, ex[i].kernels[k]);
        free(ptx);
        free(log);
    }
}
END_TEST

/* Every kernel file of the validation sets (the first, second/ .. sixth/)
 * compiles as CUDA, plain and traced, as `validate --api both` builds it (its float3 vectors
 * and clz included). */
START_TEST(validation_set_compiles)
{
    static const char *const sets[] = {"bench/validation", "bench/validation/second",
                                       "bench/validation/third", "bench/validation/fourth",
                                       "bench/validation/fifth", "bench/validation/sixth"};
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CLC_TEST_SOURCE_DIR, sets[s]);
        DIR *d = opendir(path);
        ck_assert_ptr_nonnull(d);
        int files = 0;
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            size_t len = strlen(e->d_name);
            if (len < 4 || strcmp(e->d_name + len - 3, ".cl") != 0)
                continue;
            char file[512];
            snprintf(file, sizeof file, "../%s/%s", sets[s], e->d_name);
            for (int traced = 0; traced < 2; traced++) {
                char *ptx = NULL, *log = NULL;
                const char *opts = traced ? "-DT=float -DCLC_ITEMS=4 -DCLC_LOCAL_X=256 "
                                            "-DCLC_LOCAL_Y=1 -DCLC_TRACE"
                                          : "-DT=float -DCLC_ITEMS=4 -DCLC_LOCAL_X=256 "
                                            "-DCLC_LOCAL_Y=1";
                int rc =
                    clc_cuda_ptx(CLC_TEST_KERNEL_DIR, file, opts, 9, 0, "test", &ptx, &log);
                ck_assert_msg(rc == CLC_OK, "%s with '%s' does not compile as CUDA: %s", file,
                              opts, log ? log : "(see stderr)");
                free(ptx);
                free(log);
            }
            files++;
        }
        closedir(d);
        ck_assert_int_ge(files, 5);
    }
}
END_TEST

START_TEST(vector_widths_kept)
{
    struct clc_device d = hopper();
    const struct clc_case *c = clc_find_case("vector");
    struct clc_env e = clc_env_make(&d, CLC_FLOAT, 1 << 20);
    struct clc_plan p;
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "float4"), 4, &p), CLC_OK);
    char *ptx = compile(c, &p, CLC_FLOAT, false);
    clc_test_assert_has(ptx, "ld.global.v4.f32");
    clc_test_assert_has(ptx, "st.global.v4.f32");
    free(ptx);
    clc_plan_free(&p);

    c = clc_find_case("transpose");
    e = clc_env_make(&d, CLC_DOUBLE, 1 << 20);
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "tiled_vec4"), 0, &p), CLC_OK);
    ptx = compile(c, &p, CLC_DOUBLE, false);
    clc_test_assert_has(ptx, "ld.global.v2.f64");
    clc_test_assert_has(ptx, "st.global.v2.f64");
    free(ptx);
    clc_plan_free(&p);
}
END_TEST

/* The PTX of entry `name` alone, cut from ptx in place: up to the next entry. */
static char *entry_of(char *ptx, const char *name)
{
    char head[160];
    snprintf(head, sizeof head, ".entry %s(", name);
    char *at = strstr(ptx, head);
    ck_assert_msg(at != NULL, "no entry %s in the PTX", name);
    char *next = strstr(at + 1, ".entry ");
    if (next != NULL)
        *next = '\0';
    return at;
}

/* An image2d_t read (cl/clc_cuda.h: read_imagef on a texture object) is a texture fetch in
 * the PTX, not a global load; its buffer twin reads global memory. */
START_TEST(image_reads_are_texture_fetches)
{
    struct clc_device d = hopper();
    const struct clc_case *c = clc_find_case("image");
    struct clc_env e = clc_env_make(&d, CLC_FLOAT, 1 << 20);
    struct clc_plan p;
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "transpose_image"), 0, &p),
                     CLC_OK);
    char *ptx = compile(c, &p, CLC_FLOAT, false), *body = entry_of(ptx, p.kernel);
    clc_test_assert_has(body, "tex.2d");
    clc_test_assert_lacks(body, "ld.global");
    free(ptx);
    clc_plan_free(&p);
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "transpose_global"), 0, &p),
                     CLC_OK);
    ptx = compile(c, &p, CLC_FLOAT, false);
    body = entry_of(ptx, p.kernel);
    clc_test_assert_has(body, "ld.global");
    clc_test_assert_lacks(body, "tex.2d");
    free(ptx);
    clc_plan_free(&p);
}
END_TEST

/* A kernel that does not compile is reported against its file and line, as in OpenCL. */
START_TEST(compile_error_names_the_file)
{
    char dir[64], *ptx = NULL, *log = NULL;
    clc_test_make_dir(dir, "nvrtc");
    const char *path = clc_test_path(dir, "broken.cl");
    clc_test_write_file(path, "#include \"clc.h\"\n"
                              "__kernel void k(__global T *a)\n"
                              "{\n"
                              "    a[0] = undefined_name;\n"
                              "}\n");
    ck_assert_int_eq(clc_cuda_ptx(CLC_TEST_KERNEL_DIR, path, "-DT=float", 9, 0, "test", &ptx,
                                  &log), CLC_ERR);
    ck_assert_ptr_null(ptx);
    /* OpenCL vector literals would silently broadcast in C++: they are refused instead */
    clc_test_write_file(path, "#include \"clc.h\"\n"
                              "__kernel void k(__global float4 *a, float x)\n"
                              "{\n"
                              "    a[0] = (float4)(x, x, x, 1.0f);\n"
                              "}\n");
    ck_assert_int_eq(clc_cuda_ptx(CLC_TEST_KERNEL_DIR, path, "-DT=float", 9, 0, "test", &ptx,
                                  &log), CLC_ERR);
    clc_test_remove_dir(dir);
}
END_TEST

/* A trace build, which the back end compiles past PTX, is a cubin for the GPU; an
 * architecture NVRTC does not know, or a file that does not compile, gives none (the back
 * end then falls back to PTX). */
START_TEST(trace_build_compiles_to_sass)
{
    struct clc_device d = hopper();
    const struct clc_case *c = clc_find_case("transpose");
    struct clc_env e = clc_env_make(&d, CLC_FLOAT, 1 << 20);
    struct clc_plan p;
    char opts[512], *cubin = NULL, *log = NULL;
    size_t size = 0;
    ck_assert_int_eq(clc_variant_plan(&e, clc_find_variant(c, "naive"), 0, &p), CLC_OK);
    clc_plan_options(&p, CLC_FLOAT, opts, sizeof opts);
    strcat(opts, " -DCLC_TRACE -DCLC_TRACE_CALLS");
    ck_assert_int_eq(clc_cuda_cubin(CLC_TEST_KERNEL_DIR, c->cl_file, opts, 9, 0, &cubin, &size,
                                    &log), CLC_OK);
    ck_assert_uint_gt(size, 4);
    ck_assert_mem_eq(cubin, "\177ELF", 4);
    free(cubin);
    free(log);
    ck_assert_int_eq(clc_cuda_cubin(CLC_TEST_KERNEL_DIR, c->cl_file, opts, 1, 0, &cubin, &size,
                                    &log), CLC_ERR);
    ck_assert_ptr_null(cubin);
    clc_plan_free(&p);

    char dir[64];
    clc_test_make_dir(dir, "nvrtc");
    const char *path = clc_test_path(dir, "broken.cl");
    clc_test_write_file(path, "__kernel void k(__global float *a) { a[0] = undefined_name; }\n");
    ck_assert_int_eq(clc_cuda_cubin(CLC_TEST_KERNEL_DIR, path, "-DT=float", 9, 0, &cubin, &size,
                                    &log), CLC_ERR);
    ck_assert_ptr_null(cubin);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    if (!clc_test_have_nvrtc()) {
        printf("NVRTC is not installed: skipped\n");
        return 77;
    }
    clc_quiet = true;
    const TTest *tests[] = {every_planned_kernel_compiles, any_signature_examples_compile,
                            validation_set_compiles,
                            vector_widths_kept,         image_reads_are_texture_fetches,
                            compile_error_names_the_file, trace_build_compiles_to_sass};
    return clc_test_main(clc_test_suite("cuda_source", tests, sizeof tests / sizeof tests[0]));
}
