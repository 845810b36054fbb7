/* offset.c - in-place a[i + s] += 1 for s = 0..32: the cost of a misaligned start. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define MAX_OFFSET 32

static size_t params(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    for (long s = 0; s <= MAX_OFFSET; s++)
        out[s] = s;
    return MAX_OFFSET + 1;
}

/* Every element of the array: the n incremented ones, a[j] + 1 for j in [s, s + n), and the
 * s before and 32 - s after as initialised. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    size_t len = c->plan->bufs[0].elems;
    return clc_check_shifted_range(r, c->got[0], len, c->type,
                                   (size_t)*(const long *)c->plan->check_ctx, len - MAX_OFFSET);
}

static const long offsets[MAX_OFFSET + 1] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                             11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                             22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

static int plan(const struct clc_env *e, const struct clc_variant *v, long s, struct clc_plan *p)
{
    size_t n = e->n - MAX_OFFSET; /* the case's min_elems keeps n >= 1 */
    unsigned a = clc_plan_buffer(p, "a", e->n, clc_env_es(e), CLC_INIT_VALUES);
    p->bufs[a].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, a);
    clc_plan_arg_u32(p, (uint32_t)s);
    clc_plan_arg_u64(p, n);
    clc_plan_1d(p, n, 256);
    p->bytes = 2 * (uint64_t)n * clc_env_es(e);
    p->fresh_check = true;
    p->check = check;
    p->check_ctx = &offsets[s];
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "inplace", .kernel = "offset", .params = params, .plan = plan},
};

const struct clc_case clc_case_offset = {
    .name = "offset",
    .cl_file = "offset.cl",
    .summary = "a[i + s] = a[i + s] + 1, s = 0..32 elements: misaligned but contiguous access",
    .variants_text = "inplace, param = offset s in elements (0..32)",
    .bytes_rule = "2 x n x element size (n = size / element size - 32), as the 2013 article",
    .expect = "a few percent at most below s = 0: a misaligned warp touches one extra 32-byte "
              "sector, and neighbouring warps share it through L2",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = MAX_OFFSET + 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
