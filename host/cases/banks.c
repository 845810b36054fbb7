/* banks.c - local-memory bank conflicts alone: a warp reading __local words s apart, for
 * s = 1 .. 33, and a 32 x 32 tile read down its columns with and without a padding column.
 * The bytes counted are local-memory bytes: the figure is the local memory's bandwidth. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define LOCAL 256
#define WORDS 8192   /* as banks.cl */
#define REPS 4096    /* as banks.cl */
#define GROUPS_PER_CU 8

struct tile {
    unsigned pitch; /* 0 for the stride variant */
};

static size_t strides(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    for (long s = 1; s <= 33; s++)
        out[s - 1] = s;
    return 33;
}

/* The word work-item l reads at step r. */
static unsigned word(unsigned l, unsigned r, long s, unsigned pitch)
{
    if (pitch == 0)
        return (l * (unsigned)s + 32 * r) & (WORDS - 1);
    return (l / 32 * 32 * pitch + l % 32 * pitch + r % 32) & (WORDS - 1);
}

/* Element i is what work-item i % LOCAL of its group sums: one table of LOCAL values. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    const long *ctx = c->plan->check_ctx; /* stride, pitch */
    double want[LOCAL];
    for (unsigned l = 0; l < LOCAL; l++) {
        unsigned sum = 0;
        for (unsigned k = 0; k < REPS; k++)
            sum += word(l, k, ctx[0], (unsigned)ctx[1]) & 255;
        want[l] = sum; /* below 2^24: exact in float */
    }
    return clc_check_periodic(r, c->got[0], c->plan->bufs[0].elems, CLC_FLOAT, want, LOCAL);
}

static unsigned gcd(unsigned a, unsigned b)
{
    while (b != 0) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long s, struct clc_plan *p)
{
    const struct tile *t = v->data;
    if (e->dev->local_mem < WORDS * sizeof(float)) {
        clc_plan_note(p, "needs %zu KiB of local memory per work-group, the device has %zu",
                      WORDS * sizeof(float) / 1024, e->dev->local_mem / 1024);
        return CLC_SKIP;
    }
    long *ctx = clc_plan_host(p, 2 * sizeof *ctx);
    if (ctx == NULL)
        return CLC_ERR;
    ctx[0] = s;
    ctx[1] = t->pitch;
    size_t items = (size_t)GROUPS_PER_CU * clc_compute_units(&e->dev->meta) * LOCAL;
    unsigned out = clc_plan_buffer(p, "out", items, sizeof(float), CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, out);
    if (t->pitch == 0)
        clc_plan_arg_u32(p, (uint32_t)s);
    else
        clc_plan_define(p, "-DPITCH=%u", t->pitch);
    clc_plan_1d(p, items, LOCAL);
    p->bytes = (uint64_t)items * REPS * sizeof(float);
    p->local_bytes = true;
    p->check = check;
    p->check_ctx = ctx;
    unsigned ways = t->pitch == 0 ? gcd((unsigned)s, 32) : gcd(t->pitch, 32);
    clc_plan_note(p, "a %u-way conflict: each warp request takes %u pass%s", ways, ways,
                  ways == 1 ? "" : "es");
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "stride", .kernel = "banks_stride", .params = strides, .plan = plan,
     .data = &(const struct tile){0}},
    {.name = "tile_col", .kernel = "banks_tile", .plan = plan, .data = &(const struct tile){32}},
    {.name = "tile_col_padded", .kernel = "banks_tile", .plan = plan,
     .data = &(const struct tile){33}},
};

const struct clc_case clc_case_banks = {
    .name = "banks",
    .cl_file = "banks.cl",
    .summary = "local-memory bank conflicts alone: a warp reads __local words s apart, and a "
               "32 x 32 tile down its columns with and without padding",
    .variants_text = "stride, param = s in 4-byte words (1 .. 33); tile_col (pitch 32: a column "
                     "in one bank), tile_col_padded (pitch 33); 8 work-groups of 256 per "
                     "compute unit, 4096 reads each",
    .bytes_rule = "work-items x 4096 x 4 local-memory bytes read (no %copy: not DRAM bytes)",
    .expect = "bandwidth falls with the conflict degree gcd(s, 32): full speed for odd s, half "
              "for s = 2, 1/32 for s = 32 and the unpadded tile; s = 33 and the padded tile "
              "at full speed again (32 banks of 4 bytes)",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .no_plateau = true,
    .min_elems = 1,
    .sizeless = true,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
