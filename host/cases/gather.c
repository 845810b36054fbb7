/* gather.c - out[i] = in[idx[i]] with identity indices, a random permutation, and a
 * permutation shuffled only within blocks of k elements (the locality knob).  The kernel
 * takes an index array besides in and out, so the case runs its own launches. */
#include <stdint.h>
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define LOCAL 256

struct gather_run {
    cl_kernel k;
    cl_mem in, idx, out;
    size_t n;
    uint32_t *h_idx;
    void *got, *want;
};

static int run_variant(struct clc_bench *b, enum clc_type t, struct gather_run *g,
                       const char *variant, size_t block, bool has_param)
{
    if (!clc_bench_wants(b, variant))
        return CLC_OK;
    size_t n = g->n, es = clc_type_size(t);
    cl_ulong count = n;
    struct clc_launch l = {g->k, 1, {clc_round_up(n, LOCAL)}, {LOCAL}};
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, variant, t);
    if (has_param)
        clc_result_set_param(&r, (long)block);
    r.bytes = (uint64_t)n * (es + sizeof(cl_uint)) + (uint64_t)n * es;
    clc_gather_indices(g->h_idx, n, block);
    if (clc_write(b->ctx, g->idx, 0, n * sizeof(cl_uint), g->h_idx) ||
        clc_bench_poison(b, g->out, n * es) || clc_arg(g->k, 0, sizeof g->in, &g->in) ||
        clc_arg(g->k, 1, sizeof g->idx, &g->idx) || clc_arg(g->k, 2, sizeof g->out, &g->out) ||
        clc_arg(g->k, 3, sizeof count, &count) ||
        clc_bench_time(b, &r, clc_enqueue_kernel, &l, &tm) ||
        clc_read(b->ctx, g->out, 0, n * es, g->got))
        return CLC_ERR;
    /* in holds clc_value(j), so the expected output needs only the indices */
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < n; i++)
        clc_put(g->want, i, t, clc_value(g->h_idx[i]));
    return clc_bench_finish(b, &r, clc_check_values(&r, g->got, g->want, n, t, 0));
}

static int run(struct clc_bench *b, enum clc_type t)
{
    static const size_t blocks[] = {32, 1024, 32768};
    struct gather_run g = {.n = clc_bench_elems(b, t)};
    size_t es = clc_type_size(t);
    int rc = CLC_ERR;
    /* uint indices reach 2^32 - 1 elements; larger arrays (> 16 GiB of float) are cut */
    if (g.n > UINT32_MAX)
        g.n = UINT32_MAX;
    g.h_idx = malloc(g.n * sizeof *g.h_idx);
    g.got = clc_host_alloc(g.n, t);
    g.want = clc_host_alloc(g.n, t);
    if (g.h_idx == NULL) {
        clc_error("out of host memory for %zu indices", g.n);
        goto cleanup;
    }
    if (g.got == NULL || g.want == NULL || clc_bench_kernel(b, t, NULL, "gather", &g.k) ||
        clc_buffer(b->ctx, g.n * es, "input", &g.in) ||
        clc_buffer(b->ctx, g.n * sizeof(cl_uint), "indices", &g.idx) ||
        clc_buffer(b->ctx, g.n * es, "output", &g.out) ||
        clc_bench_init_values(b, t, g.in, g.n))
        goto cleanup;
    rc = CLC_OK;
    if (run_variant(b, t, &g, "identity", 1, false) != CLC_OK)
        rc = CLC_ERR;
    if (run_variant(b, t, &g, "random", g.n, false) != CLC_OK)
        rc = CLC_ERR;
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (run_variant(b, t, &g, "block_random", blocks[i], true) != CLC_OK)
            rc = CLC_ERR;
cleanup:
    if (g.k)
        clReleaseKernel(g.k);
    if (g.in)
        clReleaseMemObject(g.in);
    if (g.idx)
        clReleaseMemObject(g.idx);
    if (g.out)
        clReleaseMemObject(g.out);
    free(g.h_idx);
    free(g.got);
    free(g.want);
    return rc;
}

const struct clc_case clc_case_gather = {
    .name = "gather",
    .cl_file = "gather.cl",
    .kernels = "gather",
    .summary = "out[i] = in[idx[i]]: identity indices vs a random permutation vs random "
               "within blocks of k elements",
    .variants = "identity; random (one permutation of all n); block_random, param = block "
                "k in elements (32, 1024, 32768); uint indices from a fixed-seed xorshift",
    .bytes_rule = "n x (element size + 4) read (values and indices) + n x element size "
                  "written",
    .expect = "identity near the copy ceiling; random far below (every lane its own 32-byte "
              "sector, 8x the bytes for float); block_random k = 32 close to identity (a "
              "warp's reads stay in its own 128 bytes), k = 1024 mostly served by L1/L2, "
              "k = 32768 approaching random",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .run = run,
};
