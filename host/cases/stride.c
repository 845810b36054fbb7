/* stride.c - in-place a[i * s] += 1 for s = 1..32: bandwidth falls as a warp's elements
 * spread over more sectors. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define MAX_STRIDE 32
#define WINDOW 65536 /* elements checked one by one at the start, touched or not */

static const long strides[MAX_STRIDE + 1] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                             11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                             22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

static size_t params(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    for (long s = 1; s <= MAX_STRIDE; s++)
        out[s - 1] = s;
    return MAX_STRIDE;
}

/* The n strided elements (read back through the driver's pick) and every element of a window
 * at the start, so a kernel that writes the wrong place is caught too. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    const struct clc_buffer_spec *b = &c->plan->bufs[0];
    unsigned s = (unsigned)*(const long *)c->plan->check_ctx;
    size_t n = b->elems / s, w = b->window;
    void *want = clc_check_want(c, r, (n > w ? n : w));
    if (want == NULL)
        return false;
    clc_ref_stride(want, n, s, c->type);
    bool ok = clc_check_values(r, c->got[0], want, n, c->type, 0);
    if (ok) {
        clc_ref_stride_window(want, w, s, c->type);
        ok = clc_check_values(r, c->window[0], want, w, c->type, 0);
    }
    clc_host_put(want);
    return ok;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long s, struct clc_plan *p)
{
    size_t n = e->n, len = n * (size_t)s;
    unsigned a = clc_plan_buffer(p, "a", len, clc_env_es(e), CLC_INIT_VALUES);
    p->bufs[a].read_back = true;
    p->bufs[a].pick_stride = (uint64_t)s;
    p->bufs[a].window = len < WINDOW ? len : WINDOW;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, a);
    clc_plan_arg_u32(p, (uint32_t)s);
    clc_plan_arg_u64(p, n);
    clc_plan_1d(p, n, 256);
    p->bytes = 2 * (uint64_t)n * clc_env_es(e);
    p->fresh_check = true;
    p->check = check;
    p->check_ctx = &strides[s];
    return CLC_OK;
}

/* load: the strides a granule's multiples take (1, 2, 4 ... 32), enough for the profile's
 * loads at each gap */
static size_t load_params(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    size_t n = 0;
    for (long s = 1; s <= MAX_STRIDE; s *= 2)
        out[n++] = s;
    return n;
}

/* out[i] against the strided elements each load read, plus one */
static bool check_load(const struct clc_check_in *c, struct clc_result *r)
{
    unsigned s = (unsigned)*(const long *)c->plan->check_ctx;
    size_t n = c->plan->bufs[1].elems;
    void *want = clc_check_want(c, r, n);
    if (want == NULL)
        return false;
    clc_ref_stride(want, n, s, c->type);
    bool ok = clc_check_values(r, c->got[1], want, n, c->type, 0);
    clc_host_put(want);
    return ok;
}

static int plan_load(const struct clc_env *e, const struct clc_variant *v, long s,
                     struct clc_plan *p)
{
    size_t n = e->n;
    unsigned a = clc_plan_buffer(p, "a", n * (size_t)s, clc_env_es(e), CLC_INIT_VALUES);
    unsigned out = clc_plan_buffer(p, "out", n, clc_env_es(e), CLC_INIT_POISON);
    p->bufs[a].initial = true;
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, a);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u32(p, (uint32_t)s);
    clc_plan_arg_u64(p, n);
    clc_plan_1d(p, n, 256);
    p->bytes = 2 * (uint64_t)n * clc_env_es(e);
    p->check = check_load;
    p->check_ctx = &strides[s];
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "inplace", .kernel = "stride", .params = params, .plan = plan},
    {.name = "load", .kernel = "stride_load", .params = load_params, .plan = plan_load},
};

const struct clc_case clc_case_stride = {
    .name = "stride",
    .cl_file = "stride.cl",
    .summary = "a[i * s] = a[i * s] + 1, s = 1..32 elements: strided access; out[i] = "
               "a[i * s] + 1: strided loads alone",
    .variants_text = "inplace, param = stride s in elements (1..32); load, param = s (1, 2, 4, "
                     "8, 16, 32), the stores coalesced",
    .bytes_rule = "2 x n x element size (n = size / element size; the buffer holds s n), the "
                  "useful bytes, as the 2013 article",
    .expect = "falls with the stride: on the committed H100 results (bench/results/h100/) each "
              "doubling of s about halves the GB/s up to s = 16 in fp32 and 8 in fp64, and it "
              "falls more slowly beyond",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = MAX_STRIDE,
    .no_plateau = true,
    .min_elems = MAX_STRIDE,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
