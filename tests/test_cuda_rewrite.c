/* test_cuda_rewrite.c - a kernel written without the trace macros, traced through CUDA as
 * through OpenCL: the source that host/core/rewrite.c makes for its trace build compiles as
 * CUDA C++ through NVRTC (cl/clc_cuda.h in front, as the CUDA back end compiles it) to PTX
 * and on to a cubin, for every access form of rewrite_forms.h, every kernel file of
 * tests/data/handout whose own (timed) build compiles as CUDA, and a kernel holding every
 * atomic and every vloadN / vstoreN / vload_halfN / vstore_halfN of OpenCL C 1.2.  Needs
 * NVRTC and the rewriter (libclang), not a GPU: skipped (exit 77) without either.
 * test_rewrite.c holds what the rewritten forms compute on an OpenCL device. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cuda.h"
#include "clcoalesce/rewrite.h"
#include "rewrite_forms.h"
#include "testutil.h"

#define TRACE_OPTS "-DT=float -DCLC_TRACE"

/* Compiles `file` with opts as CUDA for a compute capability 9.0 GPU; returns the PTX (free
 * it), asserting that it holds entry `kernel`. */
static char *ptx_of(const char *file, const char *opts, const char *kernel, const char *src)
{
    char *ptx = NULL, *log = NULL, entry[128];
    int rc = clc_cuda_ptx(CLC_TEST_KERNEL_DIR, file, opts, 9, 0, "test", &ptx, &log);
    ck_assert_msg(rc == CLC_OK, "%s with '%s' does not compile as CUDA (the log is above):\n%s",
                  file, opts, src);
    snprintf(entry, sizeof entry, ".entry %s(", kernel);
    ck_assert_msg(strstr(ptx, entry) != NULL, "%s: no entry %s in the PTX", file, kernel);
    free(log);
    return ptx;
}

/* Rewrites `file` (kernel `kernel` among its kernels) for its trace build, and asserts that
 * the rewritten source compiles as CUDA to PTX, where the kernel calls a recorder of
 * cl/clc_trace.h (with -DCLC_TRACE_CALLS, as on a GPU, they stay calls), and to a cubin. */
static void rewritten_compiles(const char *dir, const char *file, const char *kernel)
{
    char *src = NULL, why[512];
    ck_assert_msg(clc_rewrite_for_trace(file, CLC_TEST_KERNEL_DIR, "-DT=float", &src, why,
                                        sizeof why) == CLC_OK, "not rewritten: %s", why);
    const char *traced = clc_test_path(dir, "traced.cl");
    clc_test_write_file(traced, src);
    char *ptx = ptx_of(traced, TRACE_OPTS " -DCLC_TRACE_CALLS", kernel, src);
    ck_assert_msg(strstr(ptx, "call") != NULL && strstr(ptx, "clc_trace_") != NULL,
                  "%s: kernel %s records nothing:\n%s", file, kernel, src);
    free(ptx);
    char *cubin = NULL, *log = NULL;
    size_t size = 0;
    ck_assert_msg(clc_cuda_cubin(CLC_TEST_KERNEL_DIR, traced, TRACE_OPTS " -DCLC_TRACE_CALLS", 9,
                                 0, &cubin, &size, &log) == CLC_OK,
                  "%s: the rewritten trace build compiles to PTX but not to a cubin", file);
    ck_assert_uint_gt(size, 4);
    ck_assert_mem_eq(cubin, "\177ELF", 4);
    free(cubin);
    free(log);
    free(src);
}

/* Each access form, written into kernel k.  CUDA has no __local pointer parameter (its
 * shared memory is declared inside the kernel), so the forms' lp is a __local array of the
 * kernel here; the rest of the signature is the forms' own. */
static void form_compiles(const char *body)
{
    char dir[64], text[4096];
    clc_test_make_dir(dir, "cuda-rewrite");
    snprintf(text, sizeof text,
             "#include \"clc.h\"\n"
             "__kernel void k(__global float *a, __global float *b, __global int *h)\n"
             "{\n"
             "    __local float lp[64];\n"
             "%s}\n", body);
    const char *path = clc_test_path(dir, "plain.cl");
    clc_test_write_file(path, text);
    /* the timed build compiles as CUDA: anything the trace build adds is the rewriting's */
    free(ptx_of(path, "-DT=float", "k", text));
    rewritten_compiles(dir, path, "k");
    clc_test_remove_dir(dir);
}

#define FORM_TEST(name, as_written, with_macros, same_output)                                  \
    START_TEST(name)                                                                           \
    {                                                                                          \
        form_compiles(as_written);                                                             \
    }                                                                                          \
    END_TEST
CLC_REWRITE_FORMS(FORM_TEST)

/* The kernel files of tests/data/handout, written as course handouts write them: where the
 * file compiles as CUDA as it is (its timed build), its rewritten trace build does, every
 * kernel of it.  A __local pointer parameter has no CUDA form (histogram.cl): such a file
 * runs through OpenCL only, traced or not. */
START_TEST(handout_kernels_compile)
{
    DIR *d = opendir(CLC_TEST_SOURCE_DIR "/tests/data/handout");
    ck_assert_ptr_nonnull(d);
    int files = 0, compiled = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".cl") != 0)
            continue;
        files++;
        char path[512], *ptx = NULL, *log = NULL;
        snprintf(path, sizeof path, "%s/tests/data/handout/%s", CLC_TEST_SOURCE_DIR, e->d_name);
        /* quiet: a file that does not compile as CUDA is left out here, not reported */
        bool as_cuda = clc_mute_messages() &&
                       clc_cuda_ptx(CLC_TEST_KERNEL_DIR, path, "-DT=float", 9, 0, "test", &ptx,
                                    &log) == CLC_OK;
        clc_unmute_messages();
        if (!as_cuda)
            continue;
        char dir[64];
        clc_test_make_dir(dir, "cuda-handout");
        /* every entry of the timed build is an entry of the trace build */
        for (char *at = ptx; (at = strstr(at, ".entry ")) != NULL;) {
            at += strlen(".entry ");
            char kernel[128];
            size_t n = strcspn(at, "(");
            ck_assert_uint_lt(n, sizeof kernel);
            memcpy(kernel, at, n);
            kernel[n] = '\0';
            if (strcmp(kernel, "clc_init") != 0)
                rewritten_compiles(dir, path, kernel);
        }
        clc_test_remove_dir(dir);
        free(ptx);
        free(log);
        compiled++;
    }
    closedir(d);
    ck_assert_int_ge(files, 3);
    ck_assert_int_ge(compiled, 2);
}
END_TEST

/* Every atomic of OpenCL C 1.2 and of its 64-bit extensions, on __global and __local
 * memory, and every width of vloadN / vstoreN and of the half forms (with each rounding):
 * compiled as written and as rewritten.  (test_rewrite.c runs a form of each kind.) */
static const char every_builtin[] =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "#define ALL(pre, p, one, j)                                                          \\\n"
    "    pre##add(&p[0], one); pre##sub(&p[1], one); pre##xchg(&p[2], one);               \\\n"
    "    pre##inc(&p[3]); pre##dec(p + 4); pre##cmpxchg(&p[5], one, one);                 \\\n"
    "    pre##min(&p[6], j); pre##max(&p[7], j); pre##and(&p[8], one);                     \\\n"
    "    pre##or(&p[9], one); pre##xor(&p[10], one)\n"
    "__kernel void atomics(__global int *a, __global uint *b, __global long *c,\n"
    "                      __global ulong *d, __global float *f)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    __local int li[16];\n"
    "    __local uint lu[16];\n"
    "    if (i < 16) {\n"
    "        li[i] = 0;\n"
    "        lu[i] = 0;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_add(&a[0], 1); atomic_sub(&a[1], 1); atomic_xchg(&a[2], 1);\n"
    "    atomic_inc(&a[3]); atomic_dec(a + 4); atomic_cmpxchg(&a[5], 1, 2);\n"
    "    atomic_min(&a[6], (int)i); atomic_max(&a[7], (int)i); atomic_and(&a[8], 1);\n"
    "    atomic_or(&a[9], 1); atomic_xor(&a[10], 1);\n"
    "    atomic_add(&b[0], 1u); atomic_sub(&b[1], 1u); atomic_xchg(&b[2], 1u);\n"
    "    atomic_inc(&b[3]); atomic_dec(b + 4); atomic_cmpxchg(&b[5], 1u, 2u);\n"
    "    atomic_min(&b[6], (uint)i); atomic_max(&b[7], (uint)i); atomic_and(&b[8], 1u);\n"
    "    atomic_or(&b[9], 1u); atomic_xor(&b[10], 1u);\n"
    "    atom_add(&a[0], 1); atom_sub(&b[1], 1u); atom_xchg(&a[2], 1); atom_inc(&b[3]);\n"
    "    atom_dec(&a[4]); atom_cmpxchg(&b[5], 1u, 2u); atom_min(&a[6], (int)i);\n"
    "    atom_max(&b[7], (uint)i); atom_and(&a[8], 1); atom_or(&b[9], 1u); atom_xor(&a[10], 1);\n"
    "    atom_add(&c[0], 1L); atom_sub(&c[1], 1L); atom_xchg(&c[2], 1L); atom_inc(&c[3]);\n"
    "    atom_dec(&c[4]); atom_cmpxchg(&c[5], 1L, 2L); atom_min(&c[6], (long)i);\n"
    "    atom_max(&c[7], (long)i); atom_and(&c[8], 1L); atom_or(&c[9], 1L); atom_xor(&c[10], 1L);\n"
    "    atom_add(&d[0], 1UL); atom_sub(&d[1], 1UL); atom_xchg(&d[2], 1UL); atom_inc(&d[3]);\n"
    "    atom_dec(&d[4]); atom_cmpxchg(&d[5], 1UL, 2UL); atom_min(&d[6], (ulong)i);\n"
    "    atom_max(&d[7], (ulong)i); atom_and(&d[8], 1UL); atom_or(&d[9], 1UL);\n"
    "    atom_xor(&d[10], 1UL);\n"
    "    atomic_xchg(&f[0], 2.0f);\n"
    "    atomic_add(&li[i % 16], 1); atomic_inc(&lu[i % 16]); atomic_max(&li[0], (int)i);\n"
    "    atomic_cmpxchg(&lu[1], 0u, 1u); atomic_xchg(&li[2], 3); atomic_dec(&li[3]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (i < 16)\n"
    "        a[16 + i] = li[i] + (int)lu[i];\n"
    "}\n"
    "\n"
    "__kernel void widths(__global const float *a, __global float *b, __global const half *h,\n"
    "                     __global half *o)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    __local float t[64];\n"
    "    t[get_local_id(0)] = a[i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    vstore2(vload2(i, a), i, b); vstore3(vload3(i, a), i, b); vstore4(vload4(i, a), i, b);\n"
    "    vstore8(vload8(i, a), i, b); vstore16(vload16(i, a), i, b);\n"
    "    vstore4(vload4(0, t + 4), i, b);\n"
    "    ((__global float2 *)b)[i] = ((__global const float2 *)a)[i];\n"
    "    float x = vload_half(i, h);\n"
    "    float2 x2 = vload_half2(i, h); float3 x3 = vload_half3(i, h);\n"
    "    float4 x4 = vload_half4(i, h); float8 x8 = vload_half8(i, h);\n"
    "    float16 x16 = vload_half16(i, h);\n"
    "    float2 y2 = vloada_half2(i, h); float3 y3 = vloada_half3(i, h);\n"
    "    float4 y4 = vloada_half4(i, h); float8 y8 = vloada_half8(i, h);\n"
    "    float16 y16 = vloada_half16(i, h);\n"
    "    vstore_half(x, i, o); vstore_half_rte(x, i, o); vstore_half_rtz(x, i, o);\n"
    "    vstore_half_rtp(x, i, o); vstore_half_rtn(x, i, o);\n"
    "    vstore_half2(x2, i, o); vstore_half3_rtz(x3, i, o); vstore_half4_rtp(x4, i, o);\n"
    "    vstore_half8_rtn(x8, i, o); vstore_half16_rte(x16, i, o);\n"
    "    vstorea_half2(y2, i, o); vstorea_half3_rtz(y3, i, o); vstorea_half4_rtp(y4, i, o);\n"
    "    vstorea_half8_rtn(y8, i, o); vstorea_half16_rte(y16, i, o);\n"
    "}\n";

START_TEST(every_atomic_and_vector_width_compiles)
{
    char dir[64];
    clc_test_make_dir(dir, "cuda-builtins");
    const char *path = clc_test_path(dir, "builtins.cl");
    clc_test_write_file(path, every_builtin);
    static const char *const kernels[] = {"atomics", "widths"};
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
        free(ptx_of(path, "-DT=float", kernels[i], every_builtin));
        rewritten_compiles(dir, path, kernels[i]);
    }
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    if (!clc_test_have_nvrtc()) {
        printf("NVRTC is not installed: skipped\n");
        return CLC_TEST_SKIPPED;
    }
    if (!clc_rewrite_available()) {
        printf("the rewriter was not built (no libclang): skipped\n");
        return CLC_TEST_SKIPPED;
    }
    clc_quiet = true;
#define FORM_NAME(name, as_written, with_macros, same_output) name,
    const TTest *tests[] = {CLC_REWRITE_FORMS(FORM_NAME) handout_kernels_compile,
                            every_atomic_and_vector_width_compiles};
    return clc_test_main(clc_test_suite("cuda_rewrite", tests, sizeof tests / sizeof tests[0]));
}
