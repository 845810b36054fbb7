/* offset.c - in-place a[i + s] += 1 for s = 0..32: the cost of a misaligned start. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define MAX_OFFSET 32

static int run_offset(struct clc_bench *b, enum clc_type t, cl_kernel k, cl_mem a, size_t n,
                      cl_uint s, void *got, void *want)
{
    size_t len = n + MAX_OFFSET;
    cl_ulong count = n;
    struct clc_launch l = {k, 1, {clc_round_up(n, 256)}, {256}};
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, "inplace", t);
    clc_result_set_param(&r, s);
    r.bytes = 2 * (uint64_t)n * clc_type_size(t);
    if (clc_bench_init_values(b, t, a, len) || clc_arg(k, 0, sizeof a, &a) ||
        clc_arg(k, 1, sizeof s, &s) || clc_arg(k, 2, sizeof count, &count) ||
        clc_bench_time(b, &r, clc_enqueue_kernel, &l, &tm) ||
        clc_read(b->ctx, a, 0, len * clc_type_size(t), got))
        return CLC_ERR;
    clc_ref_offset(want, len, s, n, tm.launches, t);
    return clc_bench_finish(b, &r, clc_check_values(&r, got, want, len, t, 0));
}

static int run(struct clc_bench *b, enum clc_type t)
{
    if (!clc_bench_wants(b, "inplace"))
        return CLC_OK;
    size_t n = clc_bench_elems(b, t) - MAX_OFFSET;
    size_t len = n + MAX_OFFSET;
    int rc = CLC_ERR;
    cl_kernel k = NULL;
    cl_mem a = NULL;
    void *got = clc_host_alloc(len, t), *want = clc_host_alloc(len, t);
    if (got == NULL || want == NULL || clc_bench_kernel(b, t, NULL, "offset", &k) ||
        clc_buffer(b->ctx, len * clc_type_size(t), "array", &a))
        goto cleanup;
    rc = CLC_OK;
    for (cl_uint s = 0; s <= MAX_OFFSET; s++)
        if (run_offset(b, t, k, a, n, s, got, want) != CLC_OK)
            rc = CLC_ERR;
cleanup:
    if (k)
        clReleaseKernel(k);
    if (a)
        clReleaseMemObject(a);
    free(got);
    free(want);
    return rc;
}

const struct clc_case clc_case_offset = {
    .name = "offset",
    .cl_file = "offset.cl",
    .kernels = "offset",
    .summary = "a[i + s] = a[i + s] + 1, s = 0..32 elements: misaligned but contiguous access",
    .variants = "inplace, param = offset s in elements (0..32)",
    .bytes_rule = "2 x n x element size (n = size / element size - 32), as the 2013 article",
    .expect = "a few percent at most below s = 0: a misaligned warp touches one extra 32-byte "
              "sector, and neighbouring warps share it through L2",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .run = run,
};
