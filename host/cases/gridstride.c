/* gridstride.c - one element per work-item vs a grid-stride loop over a fixed grid (1024
 * work-groups, or 1, 4 and 16 work-groups per compute unit).  Same work, same bytes. */
#include "clcoalesce/cases.h"

#define LOCAL 256
#define FIXED_GROUPS 1024

static int run(struct clc_bench *b, enum clc_type t)
{
    size_t n = clc_bench_elems(b, t);
    struct clc_map_spec mono =
        clc_map_elementwise(n, t, LOCAL, "monolithic", "monolithic", clc_ref_scale);
    int rc = clc_bench_map(b, t, &mono);

    /* More groups than one element per work-item needs would only launch idle work-items,
     * so each grid is capped there; grids that come out equal run once. */
    size_t cu = clc_compute_units(&b->ctx->dev.meta);
    size_t needed = clc_round_up(n ? n : 1, LOCAL) / LOCAL;
    size_t grids[] = {FIXED_GROUPS, cu, 4 * cu, 16 * cu};
    size_t groups[sizeof grids / sizeof grids[0]];
    size_t n_groups = clc_grid_sizes(grids, sizeof grids / sizeof grids[0], needed, groups);
    for (size_t g = 0; g < n_groups; g++) {
        struct clc_map_spec s = mono;
        s.variant = "gridstride";
        s.kernel = "gridstride";
        s.global = groups[g] * LOCAL;
        s.has_param = true;
        s.param = (long)groups[g];
        if (clc_bench_map(b, t, &s) != CLC_OK)
            rc = CLC_ERR;
    }
    return rc;
}

const struct clc_case clc_case_gridstride = {
    .name = "gridstride",
    .cl_file = "gridstride.cl",
    .kernels = "monolithic gridstride",
    .summary = "out[i] = in[i] * 2: one element per work-item vs a grid-stride loop over a "
               "fixed grid",
    .variants = "monolithic; gridstride, param = work-groups of 256 (1024, and 1, 4, 16 per "
                "compute unit; capped at one element per work-item, equal grids run once)",
    .bytes_rule = "2 x n x element size",
    .expect = "monolithic and a grid of 4-16 groups per compute unit within a few percent of "
              "each other; 1 group per compute unit leaves too few warps to hide latency and "
              "falls well short",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .run = run,
};
