/* stream.c - the memory system's own ceilings: one stream of 16-byte vectors (float4,
 * double2) read only, written only, copied (1 read : 1 write) and as a triad (2 reads :
 * 1 write), each against the peak and the copy ceiling. */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define LOCAL 256
#define PER_ITEM 16 /* vectors each work-item of the read stream sums */
#define VECTOR 16   /* bytes per access (stream.cl says why) */

/* The whole vectors in the array: the work-item after them does the elements left over. */
static size_t vectors(const struct clc_env *e)
{
    return e->n / (VECTOR / clc_env_es(e));
}

/* Each kernel's output is clc_value(j) times 1 (write: filled with it, clc_check_fill;
 * copy: copied from an input that holds it, clc_check_map) or 4 (triad: b + 3 c with b and
 * c both holding it). */
static bool check_triad(const struct clc_check_in *c, struct clc_result *r)
{
    return clc_check_generated(r, c->got[2], c->plan->bufs[2].elems, c->type, 4);
}

static int plan_read(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    unsigned es = clc_env_es(e);
    size_t nv = vectors(e), g = clc_round_up((nv + PER_ITEM - 1) / PER_ITEM, LOCAL);
    uint64_t *ctx = clc_plan_host(p, 3 * sizeof *ctx);
    if (ctx == NULL)
        return CLC_ERR;
    ctx[0] = g;
    ctx[1] = VECTOR / es;
    ctx[2] = e->n;
    unsigned in = clc_plan_buffer(p, "in", e->n, es, CLC_INIT_VALUES);
    unsigned sums = clc_plan_buffer(p, "sums", g, es, CLC_INIT_POISON);
    p->bufs[sums].read_back = true;
    p->kernel = v->kernel;
    clc_plan_define(p, "-DPER_ITEM=%d", PER_ITEM);
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, sums);
    clc_plan_arg_u64(p, e->n);
    clc_plan_1d(p, g, LOCAL);
    p->bytes = (uint64_t)e->n * es + (uint64_t)g * es;
    p->check = clc_check_grid_sums;
    p->check_ctx = ctx;
    return CLC_OK;
}

static int plan_write(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    clc_plan_fill(p, e, v->kernel, LOCAL);
    clc_plan_1d(p, vectors(e) + 1, LOCAL);
    return CLC_OK;
}

static int plan_copy(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_copy);
    clc_plan_1d(p, vectors(e) + 1, LOCAL);
    p->bufs[0].initial = false; /* clc_check_map computes what `in` held */
    return CLC_OK;
}

static int plan_triad(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    unsigned es = clc_env_es(e);
    unsigned b = clc_plan_buffer(p, "b", e->n, es, CLC_INIT_VALUES);
    unsigned c = clc_plan_buffer(p, "c", e->n, es, CLC_INIT_VALUES);
    unsigned a = clc_plan_buffer(p, "a", e->n, es, CLC_INIT_POISON);
    p->bufs[a].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, b);
    clc_plan_arg_buf(p, c);
    clc_plan_arg_buf(p, a);
    clc_plan_arg_u64(p, e->n);
    clc_plan_1d(p, vectors(e) + 1, LOCAL);
    p->bytes = 3 * (uint64_t)e->n * es;
    p->check = check_triad;
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "read", .kernel = "stream_read", .plan = plan_read},
    {.name = "write", .kernel = "stream_write", .plan = plan_write},
    {.name = "copy", .kernel = "stream_copy", .plan = plan_copy},
    {.name = "triad", .kernel = "stream_triad", .plan = plan_triad},
};

const struct clc_case clc_case_stream = {
    .name = "stream",
    .cl_file = "stream.cl",
    .summary = "the memory system's ceilings: a stream of 16-byte vectors read only, written "
               "only, copied and as a triad",
    .variants_text = "read (each work-item sums 16 vectors a grid apart), write (a fill), copy "
                     "(out = in), triad (a = b + 3 c); one vector per work-item otherwise: "
                     "float4 or double2, 16 bytes",
    .bytes_rule = "read: n x element + one sum per work-item; write: n x element; copy: 2 x n "
                  "x element; triad: 3 x n x element",
    .expect = "write highest (no read-to-write turnarounds: near the peak), read next, copy "
              "and triad lower, with triad (2 reads : 1 write) a little above copy",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 4,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
