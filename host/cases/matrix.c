/* matrix.c - m = m * 2 + 1 in place on a width x height matrix with 2-D work-groups:
 * row-major indexing (a warp reads one row segment) vs column-major indexing with the same
 * launch (a warp's lanes sit `height` elements apart). */
#include <stdio.h>
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define TILE 32 /* work-groups are 32 x 32, or 32 x fewer rows where the kernel allows less */

struct matrix {
    cl_mem buf;
    size_t n;             /* elements in the buffer: size / element size */
    size_t width, height; /* the matrix: width * height <= n */
    void *got, *want;
};

/* Rows of work-items per group: 32, unless the device allows fewer than 1024 work-items. */
static size_t group_rows(const struct clc_bench *b)
{
    size_t rows = b->ctx->dev.max_wg_size / TILE;
    return rows > TILE ? TILE : rows ? rows : 1;
}

static int run_variant(struct clc_bench *b, enum clc_type t, struct matrix *m,
                       const char *variant, const char *kernel)
{
    if (!clc_bench_wants(b, variant))
        return CLC_OK;
    int rc = CLC_ERR;
    size_t es = clc_type_size(t);
    cl_kernel k = NULL;
    cl_event ev = NULL;
    cl_ulong width = m->width, height = m->height;
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, variant, t);
    clc_result_set_param(&r, (long)m->width);
    r.bytes = 2 * (uint64_t)m->width * m->height * es;
    size_t rows = group_rows(b);
    char shape[32];
    snprintf(shape, sizeof shape, "-DGROUP_Y=%zu", rows);
    if (clc_bench_kernel(b, t, shape, kernel, &k) || clc_arg(k, 0, sizeof m->buf, &m->buf) ||
        clc_arg(k, 1, sizeof width, &width) || clc_arg(k, 2, sizeof height, &height))
        goto cleanup;
    struct clc_launch l = {k, 2, {clc_round_up(m->width, TILE), clc_round_up(m->height, rows)},
                           {TILE, rows}};
    if (clc_bench_init_values(b, t, m->buf, m->n) ||
        clc_bench_time(b, &r, clc_enqueue_kernel, &l, &tm))
        goto cleanup;

    /* Every launch above applied the map again: tm.launches of them, thousands when short
     * launches are batched, by which time the values have overflowed to inf.  So the check
     * uses a launch of its own: fresh values, exactly one launch, compared with one
     * application of the map on the host. */
    if (clc_bench_init_values(b, t, m->buf, m->n))
        goto cleanup;
    CLC_CHECK(clc_enqueue_kernel(&l, b->ctx->queue, &ev));
    CLC_CHECK(clWaitForEvents(1, &ev));
    if (clc_read(b->ctx, m->buf, 0, m->n * es, m->got))
        goto cleanup;

    clc_note_append(&r, "%zu x %zu", m->width, m->height);
    if (rows < TILE)
        clc_note_append(&r, ", %d x %zu work-groups (the device's limit)", TILE, rows);
    clc_note_batch(&r, tm.batch);
    rc = clc_bench_finish(b, &r, clc_check_values(&r, m->got, m->want, m->n, t, 0));
cleanup:
    if (ev)
        clReleaseEvent(ev);
    if (k)
        clReleaseKernel(k);
    return rc;
}

static int run(struct clc_bench *b, enum clc_type t)
{
    struct matrix m = {.n = clc_bench_elems(b, t)};
    int rc = CLC_ERR;
    if (!clc_matrix_shape(m.n, &m.width, &m.height)) {
        clc_error("matrix: --size holds no %s element", clc_type_name(t));
        return CLC_ERR;
    }
    m.got = clc_host_alloc(m.n, t);
    m.want = clc_host_alloc(m.n, t);
    if (m.got == NULL || m.want == NULL ||
        clc_buffer(b->ctx, m.n * clc_type_size(t), "matrix", &m.buf) != CLC_OK)
        goto cleanup;
    clc_ref_matrix(m.want, m.n, m.width * m.height, t);
    rc = CLC_OK;
    if (run_variant(b, t, &m, "rowmajor", "matrix_rowmajor") != CLC_OK)
        rc = CLC_ERR;
    if (run_variant(b, t, &m, "colmajor", "matrix_colmajor") != CLC_OK)
        rc = CLC_ERR;
cleanup:
    if (m.buf)
        clReleaseMemObject(m.buf);
    free(m.got);
    free(m.want);
    return rc;
}

const struct clc_case clc_case_matrix = {
    .name = "matrix",
    .cl_file = "matrix.cl",
    .kernels = "matrix_rowmajor matrix_colmajor",
    .summary = "m = m * 2 + 1 in place on a 2-D matrix with 32 x 32 work-groups: row-major vs "
               "column-major indexing",
    .variants = "rowmajor (x = column, index row * width + col), colmajor (x = column, index "
                "col * height + row); param = width.  Shape: width = floor(sqrt(n)), "
                "height = n / width for n = size / element size",
    .bytes_rule = "2 x width x height x element size (each element read and written once)",
    .expect = "rowmajor near the copy ceiling; colmajor far below: each warp request touches "
              "32 sectors (one per lane) instead of 4 (float), and only the other warps of the "
              "work-group, if the caches keep the sectors, use the rest of them",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .run = run,
};
