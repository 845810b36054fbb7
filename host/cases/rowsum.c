/* rowsum.c - the sum of each row of a row-major matrix: one work-item per row (a warp reads
 * 32 rows at once: strided) vs one work-group per row (coalesced reads and a __local tree). */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define MAX_COLS 4096 /* sums of up to 4096 values in [-512, 511] stay below 2^24: exact in float */
#define LOCAL 256

static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    const uint64_t *rc = c->plan->check_ctx;
    void *want = clc_check_want(c, r, rc[0]);
    if (want == NULL)
        return false;
    clc_ref_rowsum(want, rc[0], rc[1], c->type);
    bool ok = clc_check_values(r, c->got[1], want, rc[0], c->type, 0);
    clc_host_put(want);
    return ok;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    bool per_group = v->data != NULL;
    uint64_t *rc = clc_plan_host(p, 2 * sizeof *rc);
    if (rc == NULL)
        return CLC_ERR;
    size_t cols = e->n < MAX_COLS ? e->n : MAX_COLS, rows = e->n / cols;
    rc[0] = rows;
    rc[1] = cols;
    /* the largest power of two <= min(LOCAL, the device's work-group limit); group_per_row's
     * tree is built for it */
    size_t group = 1;
    while (group * 2 <= LOCAL && group * 2 <= e->dev->max_group)
        group *= 2;
    unsigned es = clc_env_es(e);
    unsigned m = clc_plan_buffer(p, "m", rows * cols, es, CLC_INIT_VALUES);
    unsigned out = clc_plan_buffer(p, "out", rows, es, CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    if (per_group)
        clc_plan_define(p, "-DGROUP=%zu", group);
    clc_plan_arg_buf(p, m);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, rows);
    clc_plan_arg_u64(p, cols);
    clc_plan_1d(p, per_group ? rows * group : rows, group);
    p->bytes = ((uint64_t)rows * cols + rows) * es;
    p->check = check;
    p->check_ctx = rc;
    p->has_param = true;
    p->param = (long)cols;
    clc_plan_note(p, "%zu rows x %zu", rows, cols);
    return CLC_OK;
}

static const bool group_per_row = true;

static const struct clc_variant variants[] = {
    {.name = "thread_per_row", .kernel = "thread_per_row", .plan = plan},
    {.name = "group_per_row", .kernel = "group_per_row", .plan = plan, .data = &group_per_row},
};

const struct clc_case clc_case_rowsum = {
    .name = "rowsum",
    .cl_file = "rowsum.cl",
    .summary = "sum of each row of a row-major matrix: one work-item per row (strided) vs "
               "one work-group per row (coalesced, __local tree reduction)",
    .variants_text = "thread_per_row (loops over its row), group_per_row (256 work-items per "
                     "row, then a tree in __local memory); param = cols.  Shape: cols = "
                     "min(4096, n), rows = n / cols for n = size / element size",
    .bytes_rule = "rows x cols x element size + rows x element size (matrix read once, sums "
                  "written once)",
    .expect = "group_per_row near the copy ceiling; thread_per_row far below: each warp load "
              "touches 32 sectors a row apart (16 KiB in float), which the caches must keep "
              "for the next steps, and only `rows` work-items exist to keep loads in flight",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 32,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
