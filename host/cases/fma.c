/* fma.c - the device's arithmetic rate, which the model's compute layer reads: independent
 * chains of fused multiply-adds in every work-item (cl/fma.cl), float and double, over
 * enough work-items to fill every compute unit.  The row's figure is the bandwidth of its
 * one store per work-item (next to nothing); what it measures is its flops per launch over
 * its time, which the profile keeps as FMAs per second.  Run by `profile`, and by `run`
 * only when named. */
#include <math.h>

#include "clcoalesce/cases.h"

#define LOCAL 256
#define ITEMS_PER_CU 2048 /* a GPU compute unit holds 1024 to 2048 work-items at once */
#define CHAINS 8          /* as cl/fma.cl: independent chains per work-item */
#define ITERS 1024        /* FMAs per chain */

/* The chains of work-item i as cl/fma.cl computes them, in the row's type, summed. */
static double chains_sum(size_t i, enum clc_type t)
{
    if (t == CLC_FLOAT) {
        float sum = 0;
        for (int c = 0; c < CHAINS; c++) {
            float a = (float)(i % 16) * 0.0625f + (float)c;
            for (int k = 0; k < ITERS; k++)
                a = fmaf(a, 0.999f, 0.001f);
            sum += a;
        }
        return sum;
    }
    double sum = 0;
    for (int c = 0; c < CHAINS; c++) {
        double a = (double)(i % 16) * 0.0625 + (double)c;
        for (int k = 0; k < ITERS; k++)
            a = fma(a, 0.999, 0.001);
        sum += a;
    }
    return sum;
}

/* Every work-item's sum against the host's: the chains repeat every 16 work-items, so 16
 * sums are computed and each element compared with its own (the device's fma rounds once,
 * as the host's does; the tolerance covers a compiler that orders the final sum otherwise). */
static bool check_fma(const struct clc_check_in *c, struct clc_result *r)
{
    size_t n = c->plan->bufs[0].elems;
    double *want = clc_check_want(c, r, n);
    if (want == NULL)
        return false;
    double sums[16];
    for (size_t i = 0; i < 16; i++)
        sums[i] = chains_sum(i, c->type);
    for (size_t i = 0; i < n; i++) {
        if (c->type == CLC_FLOAT)
            ((float *)want)[i] = (float)sums[i % 16];
        else
            want[i] = sums[i % 16];
    }
    bool ok = clc_check_values(r, c->got[0], want, n, c->type, 1e-6);
    clc_host_put(want);
    return ok;
}

static int plan_chains(const struct clc_env *e, const struct clc_variant *v, long param,
                       struct clc_plan *p)
{
    (void)param;
    int cus = e->dev != NULL && e->dev->meta.compute_units > 0 ? e->dev->meta.compute_units : 64;
    size_t n = clc_round_up((size_t)cus * ITEMS_PER_CU, LOCAL);
    unsigned es = clc_env_es(e);
    unsigned out = clc_plan_buffer(p, "out", n, es, CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    clc_plan_define(p, "-DITERS=%d", ITERS);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, n);
    clc_plan_1d(p, n, LOCAL);
    p->bytes = (uint64_t)n * es;
    p->flops = 2.0 * (double)n * CHAINS * ITERS;
    p->check = check_fma;
    clc_plan_note(p, "%zu work-items x %d chains x %d FMAs", n, CHAINS, ITERS);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "chains", .kernel = "fma_chains", .plan = plan_chains,
     .outside_model = "it measures arithmetic, not memory"},
};

const struct clc_case clc_case_fma = {
    .name = "fma",
    .cl_file = "fma.cl",
    .summary = "the arithmetic rate: independent chains of fused multiply-adds per work-item "
               "(what the model's compute layer reads from a profile)",
    .variants_text = "chains (8 chains of 1024 FMAs per work-item, 2048 work-items per "
                     "compute unit)",
    .bytes_rule = "n x element size (one store per work-item); flops 2 x 8 x 1024 x n",
    .expect = "flops / time: the device's FMA rate in the type (float, double)",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
    .explicit_only = true,
    .sizeless = true,
};
