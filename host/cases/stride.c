/* stride.c - in-place a[i * s] += 1 for s = 1..32: bandwidth falls as a warp's elements
 * spread over more sectors. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define MAX_STRIDE 32
#define WINDOW 65536 /* elements checked one by one at the start, touched or not */

struct stride_run {
    cl_kernel k, pick;
    cl_mem a, dense;
    size_t n;
    void *got, *want;
};

/* Checks the n strided elements (gathered on the device by `pick`) and every element of a
 * window at the start, so a kernel that writes the wrong place is caught too. */
static bool verify(struct clc_bench *b, struct stride_run *sr, enum clc_type t, cl_uint s,
                   long launches, struct clc_result *r, bool *io_error)
{
    size_t n = sr->n, es = clc_type_size(t);
    cl_ulong count = n;
    struct clc_launch l = {sr->pick, 1, {clc_round_up(n, 256)}, {256}};
    cl_event ev = NULL;
    *io_error = true;
    if (clc_arg(sr->pick, 0, sizeof sr->a, &sr->a) || clc_arg(sr->pick, 1, sizeof sr->dense, &sr->dense) ||
        clc_arg(sr->pick, 2, sizeof s, &s) || clc_arg(sr->pick, 3, sizeof count, &count))
        return false;
    cl_int err = clc_enqueue_kernel(&l, b->ctx->queue, &ev);
    if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &ev);
    if (ev)
        clReleaseEvent(ev);
    if (err != CL_SUCCESS) {
        clc_cl_fail("clEnqueueNDRangeKernel(pick)", err, __FILE__, __LINE__);
        return false;
    }
    if (clc_read(b->ctx, sr->dense, 0, n * es, sr->got))
        return false;
    clc_ref_stride(sr->want, n, s, launches, t);
    *io_error = false;
    if (!clc_check_values(r, sr->got, sr->want, n, t, 0))
        return false;

    size_t w = n * s < WINDOW ? n * s : WINDOW;
    *io_error = true;
    if (clc_read(b->ctx, sr->a, 0, w * es, sr->got))
        return false;
    *io_error = false;
    clc_ref_stride_window(sr->want, w, s, launches, t);
    return clc_check_values(r, sr->got, sr->want, w, t, 0);
}

static int run_stride(struct clc_bench *b, enum clc_type t, struct stride_run *sr, cl_uint s)
{
    cl_ulong count = sr->n;
    struct clc_launch l = {sr->k, 1, {clc_round_up(sr->n, 256)}, {256}};
    struct clc_result r;
    struct clc_timing tm;
    bool io_error;
    clc_result_init(&r, b->c->name, "inplace", t);
    clc_result_set_param(&r, s);
    r.bytes = 2 * (uint64_t)sr->n * clc_type_size(t);
    if (clc_bench_init_values(b, t, sr->a, sr->n * s) || clc_arg(sr->k, 0, sizeof sr->a, &sr->a) ||
        clc_arg(sr->k, 1, sizeof s, &s) || clc_arg(sr->k, 2, sizeof count, &count) ||
        clc_bench_time(b, &r, clc_enqueue_kernel, &l, &tm))
        return CLC_ERR;
    bool ok = verify(b, sr, t, s, tm.launches, &r, &io_error);
    if (io_error)
        return CLC_ERR;
    return clc_bench_finish(b, &r, ok);
}

static int run(struct clc_bench *b, enum clc_type t)
{
    if (!clc_bench_wants(b, "inplace"))
        return CLC_OK;
    struct stride_run sr = {.n = clc_bench_elems(b, t)};
    size_t es = clc_type_size(t);
    int rc = CLC_ERR;
    sr.got = clc_host_alloc(sr.n, t);
    sr.want = clc_host_alloc(sr.n, t);
    if (sr.got == NULL || sr.want == NULL || clc_bench_kernel(b, t, NULL, "stride", &sr.k) ||
        clc_bench_kernel(b, t, NULL, "pick", &sr.pick) ||
        clc_buffer(b->ctx, sr.n * MAX_STRIDE * es, "strided array", &sr.a) ||
        clc_buffer(b->ctx, sr.n * es, "gathered copy", &sr.dense))
        goto cleanup;
    rc = CLC_OK;
    for (cl_uint s = 1; s <= MAX_STRIDE; s++)
        if (run_stride(b, t, &sr, s) != CLC_OK)
            rc = CLC_ERR;
cleanup:
    if (sr.k)
        clReleaseKernel(sr.k);
    if (sr.pick)
        clReleaseKernel(sr.pick);
    if (sr.a)
        clReleaseMemObject(sr.a);
    if (sr.dense)
        clReleaseMemObject(sr.dense);
    free(sr.got);
    free(sr.want);
    return rc;
}

const struct clc_case clc_case_stride = {
    .name = "stride",
    .cl_file = "stride.cl",
    .kernels = "stride",
    .summary = "a[i * s] = a[i * s] + 1, s = 1..32 elements: strided access",
    .variants = "inplace, param = stride s in elements (1..32)",
    .bytes_rule = "2 x n x element size (n = size / element size; the buffer holds 32 n), "
                  "the useful bytes, as the 2013 article",
    .expect = "falls steadily with the stride: fp32 stride 2 near 70 % of stride 1, and flat "
              "from s = 8 (fp32) or 4 (fp64), where every lane needs its own 32-byte sector",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = MAX_STRIDE,
    .run = run,
};
