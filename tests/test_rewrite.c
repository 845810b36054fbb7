/* test_rewrite.c - a kernel written without the trace macros, rewritten for its trace build
 * (host/core/rewrite.c): for each access form of rewrite_forms.h (indexing, compound
 * assignment, pointer arithmetic, a pointer derived from a parameter, vloadN / vstoreN of
 * every width and the half forms, a vector pointer cast, every atomic of OpenCL C 1.2 on
 * __global and __local memory, __local arrays and __local pointer parameters) the
 * rewritten source builds, computes what the kernel computes built normally, and records
 * the accesses the same kernel written with LOAD / STORE records; an access it cannot trace
 * is named by file and line; and `custom` on the examples of cl/examples with their macros
 * taken out gives the model figures it gives with them.  Without libclang the suite is
 * reported skipped. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/rewrite.h"
#include "rewrite_forms.h"
#include "testutil.h"

#define ITEMS 64  /* work-items, one work-group */
#define ELEMS 256 /* floats in a and b, ints in h */
#define SLOTS 16  /* trace records per work-item */
#define MAX_ITEMS 256 /* work-items of an example's launch, one work-group */
#define WORDS (128 + 2 * MAX_ITEMS * 2 * SLOTS)

static char out[1 << 16], err[1 << 16];

/* ------------------------------------------------------------------ a small OpenCL harness */

struct cl {
    cl_context ctx;
    cl_command_queue q;
    cl_device_id dev;
};

/* The default device (the first GPU, else the first device), as the tool picks it. */
static void cl_open(struct cl *c)
{
    cl_platform_id plat[8];
    cl_uint np = 0;
    ck_assert_int_eq(clGetPlatformIDs(8, plat, &np), CL_SUCCESS);
    cl_device_id first = NULL, gpu = NULL;
    for (cl_uint p = 0; p < np && gpu == NULL; p++) {
        cl_device_id d[8];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plat[p], CL_DEVICE_TYPE_ALL, 8, d, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint i = 0; i < nd && gpu == NULL; i++) {
            cl_device_type t;
            clGetDeviceInfo(d[i], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            if (first == NULL)
                first = d[i];
            if (t & CL_DEVICE_TYPE_GPU)
                gpu = d[i];
        }
    }
    c->dev = gpu ? gpu : first;
    ck_assert_ptr_nonnull(c->dev);
    cl_int e;
    c->ctx = clCreateContext(NULL, 1, &c->dev, NULL, NULL, &e);
    ck_assert_int_eq(e, CL_SUCCESS);
    c->q = clCreateCommandQueue(c->ctx, c->dev, 0, &e);
    ck_assert_int_eq(e, CL_SUCCESS);
}

static void cl_close(struct cl *c)
{
    clReleaseCommandQueue(c->q);
    clReleaseContext(c->ctx);
}

/* Kernel `name` of src built with -I cl and `opts`; the build log on failure. */
static cl_kernel cl_build(struct cl *c, const char *src, const char *opts, const char *name)
{
    char all[512];
    snprintf(all, sizeof all, "-cl-std=CL1.2 -I %s %s", CLC_TEST_KERNEL_DIR, opts);
    cl_int e;
    cl_program p = clCreateProgramWithSource(c->ctx, 1, &src, NULL, &e);
    ck_assert_int_eq(e, CL_SUCCESS);
    if (clBuildProgram(p, 1, &c->dev, all, NULL, NULL) != CL_SUCCESS) {
        static char log[1 << 14];
        clGetProgramBuildInfo(p, c->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        ck_abort_msg("build failed (%s):\n%s\nsource:\n%s", all, log, src);
    }
    cl_kernel k = clCreateKernel(p, name, &e);
    ck_assert_int_eq(e, CL_SUCCESS);
    clReleaseProgram(p);
    return k;
}

/* What one launch left: the buffers a, b, h and, for a trace build, the trace words. */
struct run {
    float a[ELEMS], b[ELEMS];
    int h[ELEMS];
    cl_ulong words[WORDS];
    cl_ulong base[3]; /* the device addresses of a, b, h */
};

static const char addr_src[] =
    "__kernel void addr(__global ulong *o, __global float *a, __global float *b,"
    "                   __global int *h)"
    "{ o[0] = (ulong)a; o[1] = (ulong)b; o[2] = (ulong)h; }";

/* How an example is launched: kernel(a, b, scalars...) over one work-group. */
struct shape {
    const char *kernel;
    unsigned dims;
    size_t items[2];
    unsigned nscalars;
    cl_ulong scalar[2];
};

/* The launch of the access forms: k(a, b, h, __local float lp[ITEMS]), ITEMS work-items. */
static const struct shape forms = {"k", 1, {ITEMS, 1}, 0, {0, 0}};

/* The header of cl/clc_trace.h in words (WORDS of them, the rest zero): nb buffers of
 * ELEMS * 4 bytes at base[], no fault yet, no wide sample. */
static void trace_header(cl_ulong *words, const cl_ulong *base, int nb)
{
    memset(words, 0, WORDS * sizeof *words);
    words[0] = (cl_ulong)nb;
    for (int b = 0; b < nb; b++) {
        words[1 + 2 * b] = base[b];
        words[2 + 2 * b] = base[b] + ELEMS * 4;
    }
    words[24] = 0xffffffffu;
    words[25] = ~(cl_ulong)0;
}

/* Launches sh's kernel of src (trace: its trace build) and fills r. */
static void launch(struct cl *c, const char *src, bool trace, const struct shape *sh,
                   struct run *r)
{
    cl_int e;
    cl_mem m[4];
    for (int i = 0; i < ELEMS; i++) {
        r->a[i] = (float)(i % 17) - 3.0f;
        r->b[i] = (float)(i % 5);
        r->h[i] = i % 3;
    }
    m[0] = clCreateBuffer(c->ctx, CL_MEM_COPY_HOST_PTR, sizeof r->a, r->a, &e);
    m[1] = clCreateBuffer(c->ctx, CL_MEM_COPY_HOST_PTR, sizeof r->b, r->b, &e);
    m[2] = clCreateBuffer(c->ctx, CL_MEM_COPY_HOST_PTR, sizeof r->h, r->h, &e);
    m[3] = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, sizeof r->words, NULL, &e);
    ck_assert_int_eq(e, CL_SUCCESS);
    size_t one = 1;
    cl_kernel ka = cl_build(c, addr_src, "", "addr");
    for (int i = 0; i < 4; i++)
        clSetKernelArg(ka, (cl_uint)i, sizeof(cl_mem), &m[(i + 3) % 4]);
    ck_assert_int_eq(clEnqueueNDRangeKernel(c->q, ka, 1, NULL, &one, &one, 0, NULL, NULL),
                     CL_SUCCESS);
    ck_assert_int_eq(clEnqueueReadBuffer(c->q, m[3], CL_TRUE, 0, sizeof r->base, r->base, 0,
                                         NULL, NULL), CL_SUCCESS);
    clReleaseKernel(ka);
    trace_header(r->words, r->base, 3);
    ck_assert_int_eq(clEnqueueWriteBuffer(c->q, m[3], CL_TRUE, 0, sizeof r->words, r->words, 0,
                                          NULL, NULL), CL_SUCCESS);
    cl_kernel k = cl_build(c, src, trace ? "-DCLC_TRACE" : "", sh->kernel);
    cl_uint n = 0;
    clSetKernelArg(k, n++, sizeof(cl_mem), &m[0]);
    clSetKernelArg(k, n++, sizeof(cl_mem), &m[1]);
    if (sh == &forms) {
        clSetKernelArg(k, n++, sizeof(cl_mem), &m[2]);
        clSetKernelArg(k, n++, ITEMS * sizeof(float), NULL);
    }
    for (unsigned i = 0; i < sh->nscalars; i++)
        clSetKernelArg(k, n++, sizeof(cl_ulong), &sh->scalar[i]);
    if (trace) {
        cl_uint slots = SLOTS, groups = 1;
        clSetKernelArg(k, n++, sizeof(cl_mem), &m[3]);
        clSetKernelArg(k, n++, sizeof slots, &slots);
        clSetKernelArg(k, n++, sizeof groups, &groups);
    }
    ck_assert_int_eq(clEnqueueNDRangeKernel(c->q, k, sh->dims, NULL, sh->items, sh->items, 0,
                                            NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(c->q, m[0], CL_TRUE, 0, sizeof r->a, r->a, 0, NULL, NULL);
    clEnqueueReadBuffer(c->q, m[1], CL_TRUE, 0, sizeof r->b, r->b, 0, NULL, NULL);
    clEnqueueReadBuffer(c->q, m[2], CL_TRUE, 0, sizeof r->h, r->h, 0, NULL, NULL);
    ck_assert_int_eq(clEnqueueReadBuffer(c->q, m[3], CL_TRUE, 0, sizeof r->words, r->words, 0,
                                         NULL, NULL), CL_SUCCESS);
    clReleaseKernel(k);
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(m[i]);
}

/* ------------------------------------------------------------------ records */

/* One record, with its address made comparable between launches: a global one as its
 * buffer and offset, a __local one as its distance from the lowest __local address. */
struct rec {
    int space;  /* 0..2: buffer a, b, h; 3: __local */
    long long off;
    cl_ulong kind; /* (size << 1) | store */
};

static int by_rec(const void *x, const void *y)
{
    const struct rec *a = x, *b = y;
    if (a->space != b->space)
        return a->space - b->space;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    return a->kind < b->kind ? -1 : a->kind > b->kind;
}

/* Work-item w's records of r, sorted (the order of a load and a store in one expression is
 * the compiler's), into out; returns how many. */
static int records(const struct run *r, int w, struct rec *out)
{
    int n = 0;
    cl_ulong lowest = ~(cl_ulong)0;
    const cl_ulong *local = r->words + 128 + 2 * (size_t)ITEMS * SLOTS;
    for (int i = 0; i < ITEMS * SLOTS; i++)
        if (local[2 * i + 1] != 0 && local[2 * i] < lowest)
            lowest = local[2 * i];
    for (int l = 0; l < 2; l++) {
        const cl_ulong *t = r->words + 128 + 2 * ((size_t)l * ITEMS + w) * SLOTS;
        for (int k = 0; k < SLOTS && t[2 * k + 1] != 0; k++) {
            struct rec *x = &out[n++];
            /* without the dependent bit: whether an index equals the value loaded just
             * before depends on the data and on the order the compiler chose */
            x->kind = t[2 * k + 1] & 0xffffffffu;
            x->space = 3;
            x->off = (long long)(t[2 * k] - lowest);
            for (int b = 0; b < 3 && l == 0; b++)
                if (t[2 * k] >= r->base[b] && t[2 * k] < r->base[b] + ELEMS * 4) {
                    x->space = b;
                    x->off = (long long)(t[2 * k] - r->base[b]);
                }
        }
    }
    qsort(out, (size_t)n, sizeof *out, by_rec);
    return n;
}

/* ------------------------------------------------------------------ one access form */

#define SIGNATURE                                                                           \
    "__kernel void k(__global float *a, __global float *b, __global int *h, "              \
    "__local float *lp%s)\n{\n%s"

/* Writes `body` as kernel k twice into files of dir: as written (plain.cl) and with the
 * macros (hand.cl, from hand_body); rewrites the plain one, and asserts that its normal
 * build and the rewritten trace build leave the same buffers, that no access was outside
 * them, and that each work-item recorded the accesses the hand version records.  With
 * `same_output`, the hand version must also compute the same. */
static void check_form(const char *body, const char *hand_body, bool same_output)
{
    char dir[64], plain[4096], hand[4096], why[512];
    clc_test_make_dir(dir, "rewrite");
    snprintf(plain, sizeof plain, "#include \"clc.h\"\n" SIGNATURE "%s}\n", "", "", body);
    snprintf(hand, sizeof hand, "#include \"clc.h\"\n" SIGNATURE "%s}\n", " CLC_TRACE_ARGS",
             "    CLC_TRACE_BEGIN\n", hand_body);
    const char *path = clc_test_path(dir, "plain.cl");
    clc_test_write_file(path, plain);
    char *rewritten = NULL;
    int rc = clc_rewrite_for_trace(path, CLC_TEST_KERNEL_DIR, "-DT=float", &rewritten, why,
                                   sizeof why);
    ck_assert_msg(rc == CLC_OK, "not rewritten: %s", why);
    struct cl c;
    cl_open(&c);
    static struct run normal, traced, by_hand;
    launch(&c, plain, false, &forms, &normal);
    launch(&c, rewritten, true, &forms, &traced);
    launch(&c, hand, true, &forms, &by_hand);
    cl_close(&c);
    ck_assert_msg(memcmp(normal.b, traced.b, sizeof normal.b) == 0 &&
                      memcmp(normal.h, traced.h, sizeof normal.h) == 0 &&
                      memcmp(normal.a, traced.a, sizeof normal.a) == 0,
                  "the rewritten trace build computes something else:\n%s", rewritten);
    if (same_output)
        ck_assert(memcmp(normal.b, by_hand.b, sizeof normal.b) == 0 &&
                  memcmp(normal.h, by_hand.h, sizeof normal.h) == 0);
    ck_assert_msg((traced.words[17] & 0xffffffffu) == 0, "%llu accesses outside the buffers",
                  (unsigned long long)(traced.words[17] & 0xffffffffu));
    for (int w = 0; w < ITEMS; w++) {
        struct rec x[2 * SLOTS], y[2 * SLOTS];
        int nx = records(&traced, w, x), ny = records(&by_hand, w, y);
        ck_assert_msg(nx == ny, "work-item %d: %d records rewritten, %d by hand:\n%s", w, nx,
                      ny, rewritten);
        ck_assert_msg(nx > 0, "work-item %d recorded nothing", w);
        for (int i = 0; i < nx; i++)
            ck_assert_msg(by_rec(&x[i], &y[i]) == 0,
                          "work-item %d, record %d: space %d offset %lld kind %#llx rewritten, "
                          "space %d offset %lld kind %#llx by hand:\n%s", w, i, x[i].space,
                          x[i].off, (unsigned long long)x[i].kind, y[i].space, y[i].off,
                          (unsigned long long)y[i].kind, rewritten);
    }
    free(rewritten);
    clc_test_remove_dir(dir);
}

/* One test per access form of rewrite_forms.h. */
#define FORM_TEST(name, as_written, with_macros, same_output)                                  \
    START_TEST(name)                                                                           \
    {                                                                                          \
        check_form(as_written, with_macros, same_output);                                      \
    }                                                                                          \
    END_TEST
CLC_REWRITE_FORMS(FORM_TEST)

/* ------------------------------------------------------------------ what cannot be traced */

/* Rewriting `text` fails, and the reason names the file and line `line` and holds `what`. */
static void expect_untraceable(const char *text, int line, const char *what)
{
    char dir[64], why[512], where[128];
    clc_test_make_dir(dir, "rewrite");
    const char *path = clc_test_path(dir, "k.cl");
    clc_test_write_file(path, text);
    char *src = NULL;
    int rc = clc_rewrite_for_trace(path, CLC_TEST_KERNEL_DIR, NULL, &src, why, sizeof why);
    ck_assert_msg(rc == CLC_ERR, "rewritten, though it cannot be:\n%s", src ? src : "");
    ck_assert_ptr_null(src);
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    clc_test_assert_has(why, where);
    clc_test_assert_has(why, what);
    clc_test_remove_dir(dir);
}

START_TEST(access_in_a_function_is_named)
{
    expect_untraceable("float get(__global const float *p, size_t i)\n"
                       "{\n"
                       "    return p[i];\n"
                       "}\n"
                       "__kernel void k(__global const float *a, __global float *b)\n"
                       "{\n"
                       "    b[0] = get(a, 1);\n"
                       "}\n",
                       3, "'get', which is not a kernel");
    expect_untraceable("float4 g(__global const float *p, size_t i)\n"
                       "{\n"
                       "    return vload4(i, p);\n"
                       "}\n"
                       "__kernel void k(__global float *a)\n"
                       "{\n"
                       "    vstore4(g(a, 1), 0, a);\n"
                       "}\n",
                       3, "vload4 in 'g', which is not a kernel");
}
END_TEST

START_TEST(access_in_a_macro_is_named)
{
    expect_untraceable("#define TWICE(x) ((x) + (x))\n"
                       "__kernel void k(__global const float *a, __global float *b)\n"
                       "{\n"
                       "    size_t i = get_global_id(0);\n"
                       "    b[i] = TWICE(a[i]);\n"
                       "}\n",
                       5, "inside a macro");
}
END_TEST

START_TEST(builtin_through_a_pointer_is_named)
{
    expect_untraceable("__kernel void k(__global const float *a, __global float *b)\n"
                       "{\n"
                       "    __local float t[64];\n"
                       "    event_t e = async_work_group_copy(t, a, 64, 0);\n"
                       "    wait_group_events(1, &e);\n"
                       "    b[get_global_id(0)] = t[get_local_id(0)];\n"
                       "}\n",
                       4, "async_work_group_copy");
}
END_TEST

START_TEST(compile_error_is_named)
{
    expect_untraceable("__kernel void k(__global float *b)\n"
                       "{\n"
                       "    b[0] = undeclared;\n"
                       "}\n",
                       3, "does not compile");
}
END_TEST

/* A kernel as written that stores past its buffer: `custom`'s checked run names the access
 * before any unchecked launch, where without the rewriter the kernel ran unchecked. */
START_TEST(out_of_bounds_as_written_named)
{
    char dir[64], cmd[512];
    clc_test_make_dir(dir, "rewrite");
    const char *path = clc_test_path(dir, "far.cl");
    clc_test_write_file(path, "__kernel void k(__global const float *in, __global float *out,\n"
                              "                ulong n)\n"
                              "{\n"
                              "    size_t i = get_global_id(0);\n"
                              "    __global float *o = out + n;\n"
                              "    if (i < n)\n"
                              "        o[i + 7] = in[i];\n"
                              "}\n");
    snprintf(cmd, sizeof cmd, "custom --kernel-file %s --kernel k --pattern copy --size 16KiB",
             path);
    clc_test_expect(cmd, 1, "found by the checked run", out, sizeof out, err, sizeof err);
    clc_test_assert_has(err, "work-item 0 of k stores 4 bytes at address ");
    clc_test_assert_has(err, "in none of its buffers");
    clc_test_remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------ the examples, as written */

/* text with every LOAD(p, i) written (p)[i], STORE(p, i, v) ((p)[i] = (v)), and
 * CLC_TRACE_ARGS and CLC_TRACE_BEGIN removed: the kernel as its author would write it. */
static char *without_macros(const char *text)
{
    char *o = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&o, &len);
    ck_assert_ptr_nonnull(m);
    for (const char *p = text; *p;) {
        bool load = strncmp(p, "LOAD(", 5) == 0 && (p == text || !isalnum((unsigned char)p[-1]));
        bool store = strncmp(p, "STORE(", 6) == 0;
        if (strncmp(p, " CLC_TRACE_ARGS", 15) == 0) {
            p += 15;
        } else if (strncmp(p, "CLC_TRACE_BEGIN", 15) == 0) {
            p += 15;
        } else if (load || store) {
            /* the arguments, split at top-level commas */
            const char *a = p + (load ? 5 : 6), *arg[3];
            size_t n[3];
            int k = 0, depth = 0;
            arg[0] = a;
            for (; *a && !(depth == 0 && *a == ')'); a++) {
                if (*a == '(')
                    depth++;
                else if (*a == ')')
                    depth--;
                else if (*a == ',' && depth == 0 && k < 2) {
                    n[k] = (size_t)(a - arg[k]);
                    arg[++k] = a + 1;
                }
            }
            n[k] = (size_t)(a - arg[k]);
            ck_assert_int_eq(k, load ? 1 : 2);
            char *inner0 = strndup(arg[0], n[0]), *inner1 = strndup(arg[1], n[1]);
            char *inner2 = store ? strndup(arg[2], n[2]) : NULL;
            char *v = store ? without_macros(inner2) : NULL, *i = without_macros(inner1);
            if (load)
                fprintf(m, "(%s)[%s]", inner0, i);
            else
                fprintf(m, "((%s)[%s] = (%s))", inner0, i, v);
            free(inner0), free(inner1), free(inner2), free(v), free(i);
            p = a + 1;
        } else {
            fputc(*p++, m);
        }
    }
    fclose(m);
    return o;
}

/* Runs `custom` on file with args at 40 KiB into a JSON report and returns the custom row's
 * model figures: efficiency and sectors per request. */
static void model_of(const char *file, const char *args, double *eff, double *sectors)
{
    char dir[64], cmd[1024];
    clc_test_make_dir(dir, "rewrite-json");
    const char *json = clc_test_path(dir, "r.json");
    snprintf(cmd, sizeof cmd, "custom --kernel-file %s %s --size 40028 -r 2 -f json -o %s",
             file, args, json);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_lacks(err, "runs unchecked");
    struct clc_report rep;
    ck_assert_int_eq(clc_read_json(json, &rep), CLC_OK);
    ck_assert_str_eq(rep.results[0].case_name, "custom");
    *eff = rep.results[0].model.efficiency;
    *sectors = rep.results[0].model.sectors_per_req;
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}

/* Each example of cl/examples, its macros taken out, computes the same built normally, built
 * as the rewritten trace build, and as the example's own trace build (with the macros),
 * without an access outside the buffers. */
START_TEST(examples_as_written_compute_the_same)
{
    static const struct {
        const char *file;
        struct shape sh;
    } ex[] = {
        {"copy_float4.cl", {"copy_float4", 1, {64, 1}, 1, {250, 0}}},
        {"scale_strided_bad.cl", {"scale_chunked", 1, {64, 1}, 1, {250, 0}}},
        {"transpose_tiled.cl", {"transpose_tiled", 2, {32, 8}, 2, {16, 15}}},
    };
    struct cl c;
    cl_open(&c);
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++) {
        char dir[64], orig[512], why[512];
        snprintf(orig, sizeof orig, "%s/cl/examples/%s", CLC_TEST_SOURCE_DIR, ex[e].file);
        char *text = clc_read_text(orig, NULL), *rewritten = NULL;
        ck_assert_ptr_nonnull(text);
        char *plain = without_macros(text);
        clc_test_make_dir(dir, "rewrite-example");
        const char *copy = clc_test_path(dir, ex[e].file);
        clc_test_write_file(copy, plain);
        ck_assert_msg(clc_rewrite_for_trace(copy, CLC_TEST_KERNEL_DIR, "-DT=float", &rewritten,
                                            why, sizeof why) == CLC_OK, "%s", why);
        static struct run normal, traced, by_hand;
        launch(&c, plain, false, &ex[e].sh, &normal);
        launch(&c, rewritten, true, &ex[e].sh, &traced);
        launch(&c, text, true, &ex[e].sh, &by_hand);
        ck_assert_msg(memcmp(normal.b, traced.b, sizeof normal.b) == 0, "%s: the rewritten "
                      "trace build computes something else:\n%s", ex[e].file, rewritten);
        ck_assert_msg(memcmp(normal.b, by_hand.b, sizeof normal.b) == 0, "%s", ex[e].file);
        ck_assert_uint_eq(traced.words[17] & 0xffffffffu, 0);
        /* the kernel wrote something: out differs from what it was filled with */
        bool wrote = false;
        for (int i = 0; i < ELEMS; i++)
            wrote |= normal.b[i] != (float)(i % 5);
        ck_assert_msg(wrote, "%s wrote nothing", ex[e].file);
        free(text);
        free(plain);
        free(rewritten);
        clc_test_remove_dir(dir);
    }
    cl_close(&c);
}
END_TEST

/* Each example of cl/examples, its macros taken out: the same model figures as with them. */
START_TEST(examples_as_written_model_the_same)
{
    static const struct {
        const char *file, *args;
    } ex[] = {
        {"copy_float4.cl", "--kernel copy_float4 --pattern copy --items-per-thread 4 "
                           "--variant float"},
        {"scale_strided_bad.cl", "--kernel scale_chunked --pattern scale --items-per-thread 8 "
                                 "--variant kernel"},
        {"transpose_tiled.cl", "--kernel transpose_tiled --pattern transpose --variant naive"},
    };
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++) {
        char dir[64], orig[512];
        snprintf(orig, sizeof orig, "%s/cl/examples/%s", CLC_TEST_SOURCE_DIR, ex[e].file);
        char *text = clc_read_text(orig, NULL);
        ck_assert_ptr_nonnull(text);
        char *plain = without_macros(text);
        ck_assert_ptr_null(strstr(plain, "LOAD("));
        ck_assert_ptr_null(strstr(plain, "CLC_TRACE"));
        clc_test_make_dir(dir, "rewrite-example");
        const char *copy = clc_test_path(dir, ex[e].file);
        clc_test_write_file(copy, plain);
        double eff, sectors, eff0, sectors0;
        model_of(orig, ex[e].args, &eff0, &sectors0);
        model_of(copy, ex[e].args, &eff, &sectors);
        ck_assert_msg(isfinite(eff0) && fabs(eff - eff0) < 1e-9 &&
                          fabs(sectors - sectors0) < 1e-9,
                      "%s: model %g, %g sectors per request as written; %g, %g with the macros",
                      ex[e].file, eff, sectors, eff0, sectors0);
        free(text);
        free(plain);
        clc_test_remove_dir(dir);
    }
}
END_TEST

/* ------------------------------------------------------------------ the handout kernels */

/* A handout kernel's launch: its arguments, one letter each (F: a float buffer of ELEMS, U:
 * a uint buffer of ELEMS, C: a uchar buffer of 4 * ELEMS, i / u: the int / uint of scalar[],
 * in turn; L: a __local buffer of ELEMS uints), over global[] in work-groups of local[], the
 * first of them traced. */
struct handout {
    const char *file, *kernel, *args;
    cl_uint scalar[2];
    unsigned dims;
    size_t global[2], local[2];
};

/* Launches h's kernel of src (trace: its trace build with one traced group), after filling
 * its buffers with the same values each time; their contents end in bufs, the trace words in
 * words. */
static void launch_handout(struct cl *c, const struct handout *h, const char *src, bool trace,
                           unsigned char bufs[4][4 * ELEMS], cl_ulong *words)
{
    cl_int e;
    cl_mem m[5];
    int nb = 0, ns = 0;
    cl_kernel k = cl_build(c, src, trace ? "-DCLC_TRACE" : "", h->kernel);
    for (const char *a = h->args; *a; a++) {
        cl_uint n = (cl_uint)(a - h->args);
        if (*a == 'i' || *a == 'u') {
            clSetKernelArg(k, n, sizeof(cl_uint), &h->scalar[ns++]);
        } else if (*a == 'L') {
            clSetKernelArg(k, n, ELEMS * sizeof(cl_uint), NULL);
        } else {
            for (int i = 0; i < 4 * ELEMS; i++)
                bufs[nb][i] = *a == 'F' && i % 4 == 3 ? 0x40 : (unsigned char)(i * 7 + nb);
            if (*a == 'U')
                memset(bufs[nb], 0, 4 * ELEMS);
            m[nb] = clCreateBuffer(c->ctx, CL_MEM_COPY_HOST_PTR, 4 * ELEMS, bufs[nb], &e);
            ck_assert_int_eq(e, CL_SUCCESS);
            clSetKernelArg(k, n, sizeof(cl_mem), &m[nb++]);
        }
    }
    cl_uint n = (cl_uint)strlen(h->args);
    if (trace) {
        cl_ulong addr[4];
        cl_mem am = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, sizeof addr, NULL, &e);
        cl_kernel ka = cl_build(c, addr_src, "", "addr");
        for (int b = 0; b < 4; b++)
            clSetKernelArg(ka, (cl_uint)b, sizeof(cl_mem), b == 0 ? &am : &m[b <= nb ? b - 1 : 0]);
        size_t one = 1;
        ck_assert_int_eq(clEnqueueNDRangeKernel(c->q, ka, 1, NULL, &one, &one, 0, NULL, NULL),
                         CL_SUCCESS);
        clEnqueueReadBuffer(c->q, am, CL_TRUE, 0, sizeof addr, addr, 0, NULL, NULL);
        clReleaseKernel(ka);
        clReleaseMemObject(am);
        trace_header(words, addr, nb);
        m[nb] = clCreateBuffer(c->ctx, CL_MEM_COPY_HOST_PTR, WORDS * sizeof *words, words, &e);
        ck_assert_int_eq(e, CL_SUCCESS);
        cl_uint slots = SLOTS, groups = 1;
        clSetKernelArg(k, n++, sizeof(cl_mem), &m[nb]);
        clSetKernelArg(k, n++, sizeof slots, &slots);
        clSetKernelArg(k, n++, sizeof groups, &groups);
    }
    ck_assert_int_eq(clEnqueueNDRangeKernel(c->q, k, h->dims, NULL, h->global, h->local, 0, NULL,
                                            NULL), CL_SUCCESS);
    for (int b = 0; b < nb; b++)
        ck_assert_int_eq(clEnqueueReadBuffer(c->q, m[b], CL_TRUE, 0, 4 * ELEMS, bufs[b], 0, NULL,
                                             NULL), CL_SUCCESS);
    if (trace)
        ck_assert_int_eq(clEnqueueReadBuffer(c->q, m[nb], CL_TRUE, 0, WORDS * sizeof *words,
                                             words, 0, NULL, NULL), CL_SUCCESS);
    for (int b = 0; b < nb + trace; b++)
        clReleaseMemObject(m[b]);
    clReleaseKernel(k);
}

/* Every kernel of tests/data/handout, written as course handouts write them: its rewritten
 * trace build leaves every buffer as its normal build does, records accesses and makes none
 * outside its buffers (test_cuda_rewrite.c compiles the same rewritten sources as CUDA). */
START_TEST(handout_kernels_compute_the_same)
{
    static const struct handout ho[] = {
        {"stencil.cl", "jacobi", "FFii", {16, 16}, 2, {16, 16}, {16, 16}},
        {"stencil.cl", "jacobi_rows", "FFii", {16, 16}, 1, {16, 1}, {16, 1}},
        {"stencil.cl", "jacobi_wrong", "FFii", {16, 16}, 2, {16, 16}, {16, 16}},
        {"matvec.cl", "matvec", "FFFii", {8, 32}, 1, {8, 1}, {8, 1}},
        {"matvec.cl", "matvec_group", "FFFii", {8, 32}, 1, {8 * 64, 1}, {64, 1}},
        {"histogram.cl", "histogram", "CuUL", {4 * ELEMS, 0}, 1, {4 * 64, 1}, {64, 1}},
        {"histogram.cl", "histogram_global", "CuUL", {4 * ELEMS, 0}, 1, {4 * 64, 1}, {64, 1}},
    };
    struct cl c;
    cl_open(&c);
    for (size_t i = 0; i < sizeof ho / sizeof *ho; i++) {
        char path[512], why[512], *rewritten = NULL;
        snprintf(path, sizeof path, "%s/tests/data/handout/%s", CLC_TEST_SOURCE_DIR, ho[i].file);
        char *text = clc_read_text(path, NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_msg(clc_rewrite_for_trace(path, CLC_TEST_KERNEL_DIR, "-DT=float", &rewritten,
                                            why, sizeof why) == CLC_OK, "%s", why);
        static unsigned char normal[4][4 * ELEMS], traced[4][4 * ELEMS];
        static cl_ulong words[WORDS];
        launch_handout(&c, &ho[i], text, false, normal, words);
        launch_handout(&c, &ho[i], rewritten, true, traced, words);
        ck_assert_msg(memcmp(normal, traced, sizeof normal) == 0, "%s: the rewritten trace "
                      "build of %s computes something else:\n%s", ho[i].file, ho[i].kernel,
                      rewritten);
        ck_assert_msg((words[17] & 0xffffffffu) == 0, "%s: %llu accesses outside the buffers",
                      ho[i].kernel, (unsigned long long)(words[17] & 0xffffffffu));
        ck_assert_msg(words[128 + 1] != 0, "%s: work-item 0 recorded nothing", ho[i].kernel);
        free(text);
        free(rewritten);
    }
    cl_close(&c);
}
END_TEST

int main(void)
{
    /* visible as skipped, not passed, where libclang was missing when the tool was built */
    if (!clc_rewrite_available()) {
        fprintf(stderr, "rewrite: skipped: the rewriter was not built (no libclang)\n");
        return CLC_TEST_SKIPPED;
    }
    const TTest *tests[] = {
#define FORM_NAME(name, as_written, with_macros, same_output) name,
        CLC_REWRITE_FORMS(FORM_NAME)
        access_in_a_function_is_named, access_in_a_macro_is_named,
        builtin_through_a_pointer_is_named, compile_error_is_named,
        out_of_bounds_as_written_named,
        examples_as_written_compute_the_same, examples_as_written_model_the_same,
        handout_kernels_compute_the_same,
    };
    return clc_test_main(clc_test_suite("rewrite", tests, sizeof tests / sizeof tests[0]));
}
