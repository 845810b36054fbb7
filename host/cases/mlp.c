/* mlp.c - memory-level parallelism: a copy with K = 1, 2, 4, 8 float4 per work-item, and
 * a grid-stride loop over float4, to keep more bytes in flight per work-item. */
#include "clcoalesce/cases.h"

#define LOCAL 256
#define FIXED_GROUPS 1024

static size_t ks(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    out[0] = 1;
    out[1] = 2;
    out[2] = 4;
    out[3] = 8;
    return 4;
}

static int plan_unrolled(const struct clc_env *e, const struct clc_variant *v, long k,
                         struct clc_plan *p)
{
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_copy);
    clc_plan_define(p, "-DK=%ld", k);
    clc_plan_arg_u32(p, (uint32_t)k); /* the kernel checks it against K */
    clc_plan_1d(p, clc_float4_groups(e->n, LOCAL, (size_t)k) * LOCAL, LOCAL);
    return CLC_OK;
}

/* A full wave (8 groups of 256 per compute unit: 2048 resident work-items, the most an
 * H100 SM holds) and a fixed 1024; capped at one float4 per work-item, equal grids once. */
static size_t grids(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)v;
    size_t cu = clc_compute_units(&e->dev->meta);
    size_t wanted[] = {8 * cu, FIXED_GROUPS}, groups[2];
    size_t n = clc_grid_sizes(wanted, 2, clc_float4_groups(e->n, LOCAL, 1), groups);
    for (size_t i = 0; i < n; i++)
        out[i] = (long)groups[i];
    return n;
}

static int plan_grid(const struct clc_env *e, const struct clc_variant *v, long groups,
                     struct clc_plan *p)
{
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_copy);
    clc_plan_arg_u32(p, (uint32_t)groups);
    clc_plan_1d(p, (size_t)groups * LOCAL, LOCAL);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "unrolled", .kernel = "unrolled", .params = ks, .plan = plan_unrolled},
    {.name = "gridstride_float4", .kernel = "gridstride_float4", .params = grids,
     .plan = plan_grid},
};

const struct clc_case clc_case_mlp = {
    .name = "mlp",
    .cl_file = "mlp.cl",
    .summary = "copy with more bytes in flight per work-item: K float4 per work-item, or a "
               "grid-stride loop over float4",
    .variants_text = "unrolled, param = K float4 per work-item (1, 2, 4, 8; built with -DK); "
                     "gridstride_float4, param = work-groups of 256 (8 per compute unit, and "
                     "1024; capped at one float4 per work-item)",
    .bytes_rule = "2 x n x 4 (each float read once and written once)",
    .expect = "unrolled K = 1 (16 bytes per work-item) already well above a float copy, "
              "K = 2-4 at the copy ceiling, K = 8 no better (registers); gridstride_float4 "
              "with a full wave near the ceiling too",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
