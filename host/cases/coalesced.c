/* coalesced.c - out[i] = in[i] * 2: the access pattern every other case is measured against. */
#include "clcoalesce/cases.h"

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    clc_plan_map(p, e, v->kernel, 256, clc_ref_scale);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "kernel", .kernel = "scale", .plan = plan},
};

const struct clc_case clc_case_coalesced = {
    .name = "coalesced",
    .cl_file = "coalesced.cl",
    .summary = "out[i] = in[i] * 2: a warp reads 32 consecutive elements",
    .variants_text = "kernel",
    .bytes_rule = "2 x n x element size",
    .expect = "near the copy kernel: 4 sectors of 32 bytes per warp request (float), all used",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
