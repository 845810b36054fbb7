/* gridstride.c - one element per work-item vs a grid-stride loop over a fixed grid (1024
 * work-groups, or 1, 4 and 16 work-groups per compute unit).  Same work, same bytes.  The
 * profile reads the fastest grid-stride row as the copy whose work-items copy element after
 * element, none of their groups started again (clc_profile_long_copy). */
#include "clcoalesce/cases.h"

#define LOCAL 256
#define FIXED_GROUPS 1024

static int plan_mono(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scale);
    return CLC_OK;
}

/* More groups than one element per work-item needs would only launch idle work-items, so
 * each grid is capped there; grids that come out equal run once. */
static size_t grids(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)v;
    size_t cu = clc_compute_units(&e->dev->meta);
    size_t needed = clc_round_up(e->n ? e->n : 1, LOCAL) / LOCAL;
    size_t wanted[] = {FIXED_GROUPS, cu, 4 * cu, 16 * cu}, groups[4];
    size_t n = clc_grid_sizes(wanted, 4, needed, groups);
    for (size_t i = 0; i < n; i++)
        out[i] = (long)groups[i];
    return n;
}

static int plan_grid(const struct clc_env *e, const struct clc_variant *v, long groups,
                     struct clc_plan *p)
{
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scale);
    clc_plan_arg_u32(p, (uint32_t)groups);
    clc_plan_1d(p, (size_t)groups * LOCAL, LOCAL);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "monolithic", .kernel = "monolithic", .plan = plan_mono},
    {.name = "gridstride", .kernel = "gridstride", .params = grids, .plan = plan_grid},
};

const struct clc_case clc_case_gridstride = {
    .name = "gridstride",
    .cl_file = "gridstride.cl",
    .summary = "out[i] = in[i] * 2: one element per work-item vs a grid-stride loop over a "
               "fixed grid",
    .variants_text = "monolithic; gridstride, param = work-groups of 256 (1024, and 1, 4, 16 "
                     "per compute unit; capped at one element per work-item, equal grids run "
                     "once)",
    .bytes_rule = "2 x n x element size",
    .expect = "monolithic and a grid of 4-16 groups per compute unit within a few percent of "
              "each other on an H100, the full grids 9-10 % faster on an H200 (no work-group "
              "started again); 1 group per compute unit leaves too few warps to hide latency "
              "and falls well short",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
