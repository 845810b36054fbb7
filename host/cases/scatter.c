/* scatter.c - the rates at which the L2 takes scattered requests: every lane of a warp
 * stores into (store) or loads from (load) its own 128-byte line, a column of a block of 32
 * rows, the sectors filling or serving the next warps while they wait in L2, so DRAM moves
 * each byte once.  The profile reads them as line transactions per second, the limit of
 * kernels that store down columns or gather within a window that L2 holds.  And the rate at
 * which DRAM serves granules at random (random: each lane loads its own granule anywhere in
 * the buffer), which the profile reads as random gathers' efficiency. */
#include "clcoalesce/cases.h"

#define LOCAL 256

/* Rows of 16384 elements: 64 or 128 KiB, a large matrix's row.  A smaller buffer takes
 * rows of a 32nd of it, but at least 32 elements, so each lane still has its own line. */
#define PITCH 16384
#define MIN_PITCH 32

/* The row pitch for n elements, kept by the plan for the check. */
static uint64_t *pitch_for(const struct clc_env *e, struct clc_plan *p)
{
    uint64_t *pitch = clc_plan_host(p, sizeof *pitch);
    if (pitch != NULL) {
        size_t n = e->n / 32;
        *pitch = n > PITCH ? PITCH : n < MIN_PITCH ? MIN_PITCH : n;
        clc_plan_note(p, "blocks of 32 rows x %llu", (unsigned long long)*pitch);
    }
    return pitch;
}

static int plan_store(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    uint64_t *pitch = pitch_for(e, p);
    if (pitch == NULL)
        return CLC_ERR;
    clc_plan_fill(p, e, v->kernel, LOCAL);
    clc_plan_arg_u64(p, *pitch);
    return CLC_OK;
}

static int plan_load(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    uint64_t *pitch = pitch_for(e, p);
    if (pitch == NULL)
        return CLC_ERR;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scatter);
    clc_plan_arg_u64(p, *pitch);
    p->ref_ctx = pitch;
    return CLC_OK;
}

/* random: the bits of the least power of two >= n, kept for the check */
static int plan_random(const struct clc_env *e, const struct clc_variant *v, long param,
                       struct clc_plan *p)
{
    (void)param;
    unsigned *bits = clc_plan_host(p, sizeof *bits);
    if (bits == NULL)
        return CLC_ERR;
    for (*bits = 1; *bits < 64 && (UINT64_C(1) << *bits) < e->n; ++*bits)
        ;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scatter_random);
    clc_plan_arg_u32(p, *bits);
    p->ref_ctx = bits;
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "store", .kernel = "scatter_store", .plan = plan_store},
    {.name = "load", .kernel = "scatter_load", .plan = plan_load},
    {.name = "random", .kernel = "scatter_random", .plan = plan_random},
};

const struct clc_case clc_case_scatter = {
    .name = "scatter",
    .cl_file = "scatter.cl",
    .summary = "one line per lane while L2 holds the sectors: the L2's rates for scattered "
               "stores and loads",
    .variants_text = "store (out[e] = value), load (out[i] = in[e]): e walks blocks of 32 rows "
                     "of 16384 elements (fewer in a buffer under 2 MiB) column by column, lane "
                     "l of a warp in row l, warp w in column w; random (out[i] = in[e]): e a "
                     "fixed permutation of the elements, computed from i, at random",
    .bytes_rule = "store: n x element size written; load, random: n x element size read and "
                  "written",
    .expect = "far below stream write and copy although DRAM moves the same bytes: each "
              "request stores or loads 32 lines instead of 1 (float) or 2 (double); loads "
              "faster than stores; random far below the others: DRAM moves a granule per "
              "element, at random",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
