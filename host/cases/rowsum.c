/* rowsum.c - the sum of each row of a row-major matrix: one work-item per row (a warp reads
 * 32 rows at once: strided) vs one work-group per row (coalesced reads and a __local tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cases.h"

#define MAX_COLS 4096 /* sums of up to 4096 values in [-512, 511] stay below 2^24: exact in float */
#define LOCAL 256

struct rowsum {
    cl_mem m, out;
    size_t rows, cols;
    void *got, *want;
};

/* The largest power of two <= min(LOCAL, what kernel k allows in a work-group). */
static size_t group_size(struct clc_bench *b, cl_kernel k)
{
    size_t max = b->ctx->dev.max_wg_size, g = 1;
    if (k != NULL)
        clGetKernelWorkGroupInfo(k, b->ctx->dev.id, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max,
                                 NULL);
    while (g * 2 <= LOCAL && g * 2 <= max)
        g *= 2;
    return g;
}

static int run_variant(struct clc_bench *b, enum clc_type t, struct rowsum *s, const char *variant)
{
    if (!clc_bench_wants(b, variant))
        return CLC_OK;
    int rc = CLC_ERR;
    size_t es = clc_type_size(t);
    bool per_group = strcmp(variant, "group_per_row") == 0;
    cl_kernel k = NULL;
    cl_ulong rows = s->rows, cols = s->cols;
    struct clc_result r;
    struct clc_timing tm;
    char opts[32];
    clc_result_init(&r, b->c->name, variant, t);
    clc_result_set_param(&r, (long)s->cols);
    r.bytes = ((uint64_t)s->rows * s->cols + s->rows) * es;

    /* group_per_row's tree needs its (power-of-two) group size when it is built */
    size_t group = group_size(b, NULL);
    snprintf(opts, sizeof opts, "-DGROUP=%zu", group);
    if (clc_bench_kernel(b, t, per_group ? opts : NULL, variant, &k))
        goto cleanup;
    if (!per_group)
        group = group_size(b, k);
    struct clc_launch l = {k, 1, {per_group ? s->rows * group : clc_round_up(s->rows, group)},
                           {group}};
    if (clc_arg(k, 0, sizeof s->m, &s->m) || clc_arg(k, 1, sizeof s->out, &s->out) ||
        clc_arg(k, 2, sizeof rows, &rows) || clc_arg(k, 3, sizeof cols, &cols) ||
        clc_bench_poison(b, s->out, s->rows * es) ||
        clc_bench_time(b, &r, clc_enqueue_kernel, &l, &tm) ||
        clc_read(b->ctx, s->out, 0, s->rows * es, s->got))
        goto cleanup;
    clc_note_append(&r, "%zu rows x %zu", s->rows, s->cols);
    clc_note_batch(&r, tm.batch);
    rc = clc_bench_finish(b, &r, clc_check_values(&r, s->got, s->want, s->rows, t, 0));
cleanup:
    if (k)
        clReleaseKernel(k);
    return rc;
}

static int run(struct clc_bench *b, enum clc_type t)
{
    size_t n = clc_bench_elems(b, t), es = clc_type_size(t);
    struct rowsum s = {.cols = n < MAX_COLS ? n : MAX_COLS};
    int rc = CLC_ERR;
    if (n == 0) {
        clc_error("rowsum: --size holds no %s element", clc_type_name(t));
        return CLC_ERR;
    }
    s.rows = n / s.cols;
    s.got = clc_host_alloc(s.rows, t);
    s.want = clc_host_alloc(s.rows, t);
    if (s.got == NULL || s.want == NULL ||
        clc_buffer(b->ctx, s.rows * s.cols * es, "matrix", &s.m) != CLC_OK ||
        clc_buffer(b->ctx, s.rows * es, "row sums", &s.out) != CLC_OK ||
        clc_bench_init_values(b, t, s.m, s.rows * s.cols) != CLC_OK)
        goto cleanup;
    clc_ref_rowsum(s.want, s.rows, s.cols, t);
    rc = CLC_OK;
    if (run_variant(b, t, &s, "thread_per_row") != CLC_OK)
        rc = CLC_ERR;
    if (run_variant(b, t, &s, "group_per_row") != CLC_OK)
        rc = CLC_ERR;
cleanup:
    if (s.m)
        clReleaseMemObject(s.m);
    if (s.out)
        clReleaseMemObject(s.out);
    free(s.got);
    free(s.want);
    return rc;
}

const struct clc_case clc_case_rowsum = {
    .name = "rowsum",
    .cl_file = "rowsum.cl",
    .kernels = "thread_per_row group_per_row",
    .summary = "sum of each row of a row-major matrix: one work-item per row (strided) vs "
               "one work-group per row (coalesced, __local tree reduction)",
    .variants = "thread_per_row (loops over its row), group_per_row (256 work-items per row, "
                "then a tree in __local memory); param = cols.  Shape: cols = min(4096, n), "
                "rows = n / cols for n = size / element size",
    .bytes_rule = "rows x cols x element size + rows x element size (matrix read once, sums "
                  "written once)",
    .expect = "group_per_row near the copy ceiling; thread_per_row far below: each warp load "
              "touches 32 sectors a row apart (16 KiB in float), which the caches must keep "
              "for the next steps, and only `rows` work-items exist to keep loads in flight",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .run = run,
};
