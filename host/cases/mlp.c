/* mlp.c - memory-level parallelism: a copy with K = 1, 2, 4, 8 float4 per work-item, and
 * a grid-stride loop over float4, to keep more bytes in flight per work-item. */
#include <stdio.h>

#include "clcoalesce/cases.h"

#define LOCAL 256
#define FIXED_GROUPS 1024

static int run(struct clc_bench *b, enum clc_type t)
{
    static const unsigned ks[] = {1, 2, 4, 8};
    size_t n = clc_bench_elems(b, t);
    struct clc_map_spec base = clc_map_elementwise(n, t, LOCAL, NULL, NULL, clc_ref_copy);
    base.has_param = true;
    int rc = CLC_OK;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        char opts[32];
        snprintf(opts, sizeof opts, "-DK=%u", ks[i]);
        struct clc_map_spec s = base;
        s.variant = "unrolled";
        s.kernel = "unrolled";
        s.options = opts;
        s.global = clc_float4_groups(n, LOCAL, ks[i]) * LOCAL;
        s.param = ks[i];
        if (clc_bench_map(b, t, &s) != CLC_OK)
            rc = CLC_ERR;
    }

    /* A full wave (8 groups of 256 per compute unit: 2048 resident work-items, the most an
     * H100 SM holds) and a fixed 1024; capped at one float4 per work-item, equal grids once. */
    size_t cu = clc_compute_units(&b->ctx->dev.meta);
    size_t grids[] = {8 * cu, FIXED_GROUPS};
    size_t groups[sizeof grids / sizeof grids[0]];
    size_t n_groups = clc_grid_sizes(grids, sizeof grids / sizeof grids[0],
                                     clc_float4_groups(n, LOCAL, 1), groups);
    for (size_t g = 0; g < n_groups; g++) {
        struct clc_map_spec s = base;
        s.variant = "gridstride_float4";
        s.kernel = "gridstride_float4";
        s.global = groups[g] * LOCAL;
        s.param = (long)groups[g];
        if (clc_bench_map(b, t, &s) != CLC_OK)
            rc = CLC_ERR;
    }
    return rc;
}

const struct clc_case clc_case_mlp = {
    .name = "mlp",
    .cl_file = "mlp.cl",
    .kernels = "unrolled gridstride_float4",
    .summary = "copy with more bytes in flight per work-item: K float4 per work-item, or a "
               "grid-stride loop over float4",
    .variants = "unrolled, param = K float4 per work-item (1, 2, 4, 8; built with -DK); "
                "gridstride_float4, param = work-groups of 256 (8 per compute unit, and "
                "1024; capped at one float4 per work-item)",
    .bytes_rule = "2 x n x 4 (each float read once and written once)",
    .expect = "unrolled K = 1 (16 bytes per work-item) already well above a float copy, "
              "K = 2-4 at the copy ceiling, K = 8 no better (registers); gridstride_float4 "
              "with a full wave near the ceiling too",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .run = run,
};
