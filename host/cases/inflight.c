/* inflight.c - bandwidth against bytes in flight: a fixed grid (work-groups of 256 per
 * compute unit) whose work-items each keep K independent loads of one element or one float4
 * in flight, so that one table shows bandwidth = bytes in flight / latency up to the ceiling
 * (Little's law), and where each GPU's knee is. */
#include "clcoalesce/cases.h"

#define LOCAL 256
#define MAX_PER_ITEM 16384 /* elements a work-item sums: 16384 x 512 < 2^24, exact in float */

struct shape {
    unsigned width;  /* elements per load: 1 or 4 */
    unsigned groups; /* work-groups per compute unit */
};

static size_t ks(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    for (long k = 1, i = 0; k <= 16; k *= 2)
        out[i++] = k;
    return 5;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long k,
                struct clc_plan *p)
{
    const struct shape *s = v->data;
    unsigned es = clc_env_es(e);
    size_t g = (size_t)s->groups * clc_compute_units(&e->dev->meta) * LOCAL;
    size_t n = e->n;
    if (n > g * MAX_PER_ITEM) {
        n = g * MAX_PER_ITEM;
        clc_plan_note(p, "the first %zu elements (so that the sums stay exact); ", n);
    }
    uint64_t *ctx = clc_plan_host(p, 3 * sizeof *ctx);
    if (ctx == NULL)
        return CLC_ERR;
    ctx[0] = g;
    ctx[1] = s->width;
    ctx[2] = n;
    unsigned in = clc_plan_buffer(p, "in", n, es, CLC_INIT_VALUES);
    unsigned sums = clc_plan_buffer(p, "sums", g, es, CLC_INIT_POISON);
    p->bufs[sums].read_back = true;
    p->kernel = v->kernel;
    clc_plan_define(p, "-DK=%ld -DW=%u", k, s->width);
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, sums);
    clc_plan_arg_u64(p, n);
    clc_plan_1d(p, g, LOCAL);
    p->bytes = (uint64_t)n * es + (uint64_t)g * es;
    p->check = clc_check_grid_sums;
    p->check_ctx = ctx;
    p->in_flight = (double)s->groups * LOCAL * (double)k * s->width * es;
    clc_plan_note(p, "%u groups of %d per compute unit, %ld loads of %u B in flight each: "
                  "%.0f KiB per compute unit", s->groups, LOCAL, k, s->width * es,
                  p->in_flight / 1024);
    return CLC_OK;
}

#define SHAPE(name_, w, g)                                                                  \
    {.name = name_, .kernel = "inflight", .params = ks, .plan = plan,                       \
     .data = &(const struct shape){w, g}}

static const struct clc_variant variants[] = {
    SHAPE("scalar_g1", 1, 1), SHAPE("scalar_g2", 1, 2), SHAPE("scalar_g4", 1, 4),
    SHAPE("scalar_g8", 1, 8), SHAPE("float4_g1", 4, 1), SHAPE("float4_g2", 4, 2),
    SHAPE("float4_g4", 4, 4), SHAPE("float4_g8", 4, 8),
};

const struct clc_case clc_case_inflight = {
    .name = "inflight",
    .cl_file = "inflight.cl",
    .summary = "bandwidth against bytes in flight: 1-8 work-groups of 256 per compute unit, "
               "each work-item keeping K independent loads of a float or a float4 in flight",
    .variants_text = "scalar_gG and float4_gG for G = 1, 2, 4, 8 work-groups per compute unit; "
                     "param = K independent loads per work-item (1, 2, 4, 8, 16)",
    .bytes_rule = "n x element read + one sum per work-item written",
    .expect = "bandwidth grows in proportion to the bytes in flight per compute unit (G x 256 "
              "x K x load size) until the ceiling: Little's law, bandwidth = bytes in flight / "
              "latency; float4 loads get there with a quarter of the loads",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = 4,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
