/* gather.c - out[i] = in[idx[i]] with identity indices, a random permutation, and a
 * permutation shuffled only within blocks of k elements (the locality knob). */
#include <stdint.h>
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define LOCAL 256

static size_t blocks(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    out[0] = 32;
    out[1] = 1024;
    out[2] = 32768;
    return 3;
}

/* block 1 leaves the identity; block n shuffles everything (see clc_gather_indices) */
static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    /* uint indices reach 2^32 - 1 elements; larger arrays (> 16 GiB of float) are cut */
    size_t n = e->n > UINT32_MAX ? UINT32_MAX : e->n;
    size_t block = v->data != NULL ? *(const size_t *)v->data : (size_t)param;
    unsigned es = clc_env_es(e);
    uint32_t *idx = clc_plan_host(p, n * sizeof *idx);
    if (idx == NULL)
        return CLC_ERR;
    if (!e->dry)
        clc_gather_indices(idx, n, block ? block : n);
    unsigned in = clc_plan_buffer(p, "in", n, es, CLC_INIT_VALUES);
    unsigned ix = clc_plan_buffer(p, "idx", n, sizeof *idx, CLC_INIT_HOST);
    unsigned out = clc_plan_buffer(p, "out", n, es, CLC_INIT_POISON);
    p->bufs[ix].host = idx;
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, ix);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, n);
    clc_plan_1d(p, n, LOCAL);
    p->bytes = (uint64_t)n * (es + sizeof *idx) + (uint64_t)n * es;
    p->check = clc_check_gather;
    if (n < e->n)
        clc_plan_note(p, "first %zu elements (uint indices)", n);
    return CLC_OK;
}

static const size_t identity = 1, all = 0;

static const struct clc_variant variants[] = {
    {.name = "identity", .kernel = "gather", .plan = plan, .data = &identity},
    {.name = "random", .kernel = "gather", .plan = plan, .data = &all},
    {.name = "block_random", .kernel = "gather", .params = blocks, .plan = plan},
};

const struct clc_case clc_case_gather = {
    .name = "gather",
    .cl_file = "gather.cl",
    .summary = "out[i] = in[idx[i]]: identity indices vs a random permutation vs random "
               "within blocks of k elements",
    .variants_text = "identity; random (one permutation of all n); block_random, param = "
                     "block k in elements (32, 1024, 32768); uint indices, a fixed pseudo-random "
                     "permutation within each block",
    .bytes_rule = "n x (element size + 4) read (values and indices) + n x element size "
                  "written",
    .expect = "identity near the copy ceiling; random far below (every lane its own 32-byte "
              "sector, 8x the bytes for float); block_random k = 32 close to identity (a "
              "warp's reads stay in its own 128 bytes), k = 1024 mostly served by L1/L2, "
              "k = 32768 approaching random",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
