/* broadcast.c - stride 0: every lane of a warp on the same element, read from __global and
 * from __constant, against the coalesced read of as many bytes; and the read-only stride
 * sweep out[i] = in[i * s] from s = 0, the first point of the 2013 article's figure. */
#include "clcoalesce/cases.h"

#define GROUP 256
#define SAME 1024     /* elements the same_* kernels read, one per work-group in turn: 8 KiB
                       * at most, within any device's __constant buffer (64 KiB at least) */
#define MAX_STRIDE 32

static const long strides[] = {0, 1, 2, 4, 8, 16, MAX_STRIDE};
#define N_STRIDES (sizeof strides / sizeof strides[0])

static size_t params(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    for (size_t k = 0; k < N_STRIDES; k++)
        out[k] = strides[k];
    return N_STRIDES;
}

/* The element of in that out[i] holds, for the plan's kernel: ctx points at the stride, or
 * is NULL for the broadcast of element (group % SAME). */
static uint64_t source(uint64_t i, const long *stride)
{
    return stride != NULL ? i * (uint64_t)*stride : (i / GROUP) % SAME;
}

/* out (buffer 1, read back) holds clc_value(source(i)) at every i, exactly. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    size_t n = (size_t)c->plan->bufs[1].elems;
    void *want = clc_check_want(c, r, n);
    if (want == NULL)
        return false;
    for (size_t i = 0; i < n; i++)
        clc_put(want, i, c->type, clc_value(source(i, c->plan->check_ctx)));
    bool ok = clc_check_values(r, c->got[1], want, n, c->type, 0);
    clc_host_put(want);
    return ok;
}

/* in (clc_value) of `in_elems`, out (poisoned, read back) of n, one element per work-item;
 * the useful bytes counted, as for stride: each lane's element read once and written once. */
static void plan_common(const struct clc_env *e, const char *kernel, uint64_t in_elems,
                        struct clc_plan *p)
{
    unsigned in = clc_plan_buffer(p, "in", in_elems, clc_env_es(e), CLC_INIT_VALUES);
    unsigned out = clc_plan_buffer(p, "out", e->n, clc_env_es(e), CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    p->kernel = kernel;
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, out);
    clc_plan_1d(p, e->n, GROUP);
    p->bytes = 2 * (uint64_t)e->n * clc_env_es(e);
    p->check = check;
}

static int plan_coalesced(const struct clc_env *e, const struct clc_variant *v, long param,
                          struct clc_plan *p)
{
    (void)param;
    plan_common(e, v->kernel, e->n, p);
    clc_plan_arg_u64(p, e->n);
    p->check_ctx = &strides[1];
    return CLC_OK;
}

static int plan_same(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    plan_common(e, v->kernel, SAME, p);
    clc_plan_arg_u64(p, e->n);
    clc_plan_arg_u32(p, SAME);
    p->check_ctx = NULL;
    return CLC_OK;
}

static int plan_strided(const struct clc_env *e, const struct clc_variant *v, long s,
                        struct clc_plan *p)
{
    plan_common(e, v->kernel, s > 0 ? (uint64_t)e->n * (uint64_t)s : 1, p);
    clc_plan_arg_u32(p, (uint32_t)s);
    clc_plan_arg_u64(p, e->n);
    for (size_t k = 0; k < N_STRIDES; k++)
        if (strides[k] == s)
            p->check_ctx = &strides[k];
    return p->check_ctx != NULL ? CLC_OK : CLC_ERR;
}

static const struct clc_variant variants[] = {
    {.name = "coalesced", .kernel = "coalesced", .plan = plan_coalesced},
    {.name = "global", .kernel = "same_global", .plan = plan_same},
    {.name = "constant",
     .kernel = "same_constant",
     .plan = plan_same,
     .not_on = {[CLC_API_CUDA] = "CUDA reaches the constant cache only through a __constant__ "
                                 "variable, not a kernel's pointer parameter"},
     .explain = "through __constant: the constant cache serves the lanes of a warp that read "
                "one address in one read, once per warp (lanes on n addresses take n reads, "
                "one after another); the sectors above are the ones its misses bring from L2"},
    {.name = "stride", .kernel = "strided", .params = params, .plan = plan_strided},
};

const struct clc_case clc_case_broadcast = {
    .name = "broadcast",
    .cl_file = "broadcast.cl",
    .summary = "stride 0: every lane of a warp reads the same element, from __global and "
               "__constant, vs the coalesced read; out[i] = in[i * s] from s = 0",
    .variants_text = "coalesced (out[i] = in[i]), global and constant (every work-item of a "
                     "work-group reads one element, through __global / __constant), stride "
                     "(out[i] = in[i * s], param s = 0, 1, 2, 4, 8, 16, 32)",
    .bytes_rule = "2 x n x element size (each work-item's element read and written once: "
                  "the useful bytes, as for stride, whatever the lanes share)",
    .expect = "a broadcast reads one sector per warp request, so it runs at the write "
              "ceiling, above coalesced; __constant matches __global or beats it; the stride "
              "sweep falls from s = 0 to flat at s = 8 (fp32)",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = MAX_STRIDE,
    .no_plateau = true,
    .min_elems = GROUP,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
