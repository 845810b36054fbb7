/* matrix.c - m = m * 2 + 1 in place on a width x height matrix with 2-D work-groups:
 * row-major indexing (a warp reads one row segment) vs column-major indexing with the same
 * launch (a warp's lanes sit `height` elements apart). */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define TILE 32 /* work-groups are 32 x 32, or 32 x fewer rows where the device allows less */

/* One application of the map on fresh values: every launch of the timing applied it again,
 * thousands of times when short launches are batched, by which time the values overflow. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    size_t n = c->plan->bufs[0].elems, used = (size_t)*(const uint64_t *)c->plan->check_ctx;
    void *want = clc_check_want(c, r, n);
    if (want == NULL)
        return false;
    clc_ref_matrix(want, n, used, c->type);
    bool ok = clc_check_values(r, c->got[0], want, n, c->type, 0);
    clc_host_put(want);
    return ok;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    size_t width, height;
    clc_matrix_shape(e->n, &width, &height);
    /* rows of work-items per group: 32, unless the device allows fewer than 1024 */
    size_t rows = e->dev->max_group / TILE;
    rows = rows > TILE ? TILE : rows ? rows : 1;
    uint64_t *used = clc_plan_host(p, sizeof *used);
    if (used == NULL)
        return CLC_ERR;
    *used = (uint64_t)width * height;
    unsigned m = clc_plan_buffer(p, "m", e->n, clc_env_es(e), CLC_INIT_VALUES);
    p->bufs[m].read_back = true;
    p->kernel = v->kernel;
    clc_plan_define(p, "-DGROUP_Y=%zu", rows);
    clc_plan_arg_buf(p, m);
    clc_plan_arg_u64(p, width);
    clc_plan_arg_u64(p, height);
    clc_plan_2d(p, width, height, TILE, rows);
    p->bytes = 2 * *used * clc_env_es(e);
    p->fresh_check = true;
    p->check = check;
    p->check_ctx = used;
    p->has_param = true;
    p->param = (long)width;
    clc_plan_note(p, "%zu x %zu", width, height);
    if (rows < TILE)
        clc_plan_note(p, ", %d x %zu work-groups (the device's limit)", TILE, rows);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "rowmajor", .kernel = "matrix_rowmajor", .plan = plan},
    {.name = "colmajor", .kernel = "matrix_colmajor", .plan = plan},
};

const struct clc_case clc_case_matrix = {
    .name = "matrix",
    .cl_file = "matrix.cl",
    .summary = "m = m * 2 + 1 in place on a 2-D matrix with 32 x 32 work-groups: row-major vs "
               "column-major indexing",
    .variants_text = "rowmajor (x = column, index row * width + col), colmajor (x = column, "
                     "index col * height + row); param = width.  Shape: width = "
                     "floor(sqrt(n)), height = n / width for n = size / element size; from 2^20 "
                     "elements square, the side a multiple of 32",
    .bytes_rule = "2 x width x height x element size (each element read and written once)",
    .expect = "rowmajor well above colmajor, but in fp32 below the copy kernel: one element per "
              "work-item in groups of 1024 (see the groups case); colmajor far below: each warp "
              "request touches 32 sectors (one per lane) instead of 4 (float), and only the "
              "other warps of the work-group, if the caches keep the sectors, use the rest of "
              "them",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = TILE * TILE,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
