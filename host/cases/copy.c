/* copy.c - the ceiling: the API's own device-to-device copy and a one-element-per-work-item
 * copy kernel over the same bytes. */
#include "clcoalesce/cases.h"

/* The driver's own copy: no kernel of ours, so it shows what the memory system gives. */
static bool check_copy(const struct clc_check_in *c, struct clc_result *r)
{
    return clc_check_values(r, c->got[1], c->initial[0], c->plan->bufs[1].elems, c->type, 0);
}

static int plan_enqueue(const struct clc_env *e, const struct clc_variant *v, long param,
                        struct clc_plan *p)
{
    (void)v;
    (void)param;
    unsigned src = clc_plan_buffer(p, "source", e->n, clc_env_es(e), CLC_INIT_VALUES);
    unsigned dst = clc_plan_buffer(p, "destination", e->n, clc_env_es(e), CLC_INIT_POISON);
    p->bufs[src].initial = true;
    p->bufs[dst].read_back = true;
    p->bytes = 2 * (uint64_t)e->n * clc_env_es(e);
    p->check = check_copy;
    return CLC_OK;
}

static int plan_kernel(const struct clc_env *e, const struct clc_variant *v, long param,
                       struct clc_plan *p)
{
    (void)param;
    clc_plan_map(p, e, v->kernel, 256, clc_ref_copy);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "enqueue", .plan = plan_enqueue},
    {.name = "kernel", .kernel = "copy", .plan = plan_kernel},
};

const struct clc_case clc_case_copy = {
    .name = "copy",
    .cl_file = "copy.cl",
    .summary = "the ceiling: the API's own copy (clEnqueueCopyBuffer, cuMemcpyDtoD) vs a "
               "one-element-per-work-item copy kernel",
    .variants_text = "enqueue (the API's device-to-device copy), kernel (out[i] = in[i])",
    .bytes_rule = "2 x n x element size (each element read once and written once)",
    .expect = "enqueue is the practical ceiling; a 4-byte-per-work-item kernel keeps too few "
              "bytes in flight to match it on a large GPU (see mlp and vector)",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
