/* uncoalesced.c - out[i] = in[(i * 32) % n] * 2: each lane of a warp reads its own sector. */
#include "clcoalesce/cases.h"

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    clc_plan_map(p, e, v->kernel, 256, clc_ref_uncoalesced);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "kernel", .kernel = "scale", .plan = plan},
};

const struct clc_case clc_case_uncoalesced = {
    .name = "uncoalesced",
    .cl_file = "uncoalesced.cl",
    .summary = "out[i] = in[(i * 32) % n] * 2: neighbouring work-items read 128 bytes apart",
    .variants_text = "kernel",
    .bytes_rule = "2 x n x element size (the useful bytes; the hardware moves far more)",
    .expect = "far below coalesced: each load request touches 32 sectors instead of 4, so "
              "about 8x the read traffic for the same useful bytes",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .no_plateau = true,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
