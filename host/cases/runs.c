/* runs.c - each work-item copies a run of k consecutive elements with k scalar accesses, the
 * other side coalesced: what the compiler, the L1 and the L2 do with stores that write every
 * sector in part, k requests of the warp filling it back to back (store; fill, the stores
 * alone; local, from __local after a barrier; store_apart and local_apart, each store kept
 * apart from the next by a test of its element), and with loads a lane at a time along a
 * run (load).  The profile reads how much such stores merge from the stores' rows
 * (devprofile.c). */
#include "clcoalesce/cases.h"
#include "clcoalesce/reference.h"

#define LOCAL 256
#define MAX_RUN 32
#define LOCAL_STAGED 128

/* The run lengths: 1 (coalesced both ways, the baseline) and the powers of two to 32. */
static size_t run_lengths(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    return clc_powers_of_two(MAX_RUN, out);
}

struct runs_ctx {
    uint64_t k;
    bool load; /* the runs are loaded (else stored) */
};

/* runs.cl's permutation of each whole block of LOCAL x k elements; the rest in place. */
static void ref_runs(const struct clc_ref_args *a)
{
    const struct runs_ctx *c = a->ctx;
    uint64_t k = c->k, block = LOCAL * k, whole = a->n_out / block * block;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < a->n_out; i++) {
        uint64_t r = i % block, e = i;
        if (i < whole)
            e = i - r + (c->load ? r % LOCAL * k + r / LOCAL : r % k * LOCAL + r / k);
        clc_put(a->want, i, a->t, clc_get(a->in, e, a->t));
    }
}

/* A work-item a run: the blocks of `local` x k elements, the last one perhaps in part. */
static void launch_runs(const struct clc_env *e, long k, size_t local, bool staged,
                        struct clc_plan *p)
{
    size_t block = local * (size_t)k;
    clc_plan_define(p, "-DK=%ld -DLSIZE=%zu", k, local);
    clc_plan_1d(p, (e->n + block - 1) / block * local, local);
    clc_plan_note(p, "runs of %ld elements a work-item%s, lanes %ld elements apart", k,
                  staged ? " from __local" : "", k);
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long k, struct clc_plan *p)
{
    struct runs_ctx *c = clc_plan_host(p, sizeof *c);
    if (c == NULL)
        return CLC_ERR;
    c->k = (uint64_t)k;
    c->load = v->data != NULL;
    clc_plan_map(p, e, v->kernel, LOCAL, ref_runs);
    launch_runs(e, k, LOCAL, false, p);
    p->ref_ctx = c;
    return CLC_OK;
}

/* fill: the runs stored alone, of values each work-item computes (clc_check_fill) */
static int plan_fill(const struct clc_env *e, const struct clc_variant *v, long k,
                     struct clc_plan *p)
{
    clc_plan_fill(p, e, v->kernel, LOCAL);
    launch_runs(e, k, LOCAL, false, p);
    return CLC_OK;
}

/* local: a copy in place through __local, in work-groups of LOCAL_STAGED (the largest run
 * of doubles then fits in 32 KiB) */
static int plan_local(const struct clc_env *e, const struct clc_variant *v, long k,
                      struct clc_plan *p)
{
    clc_plan_map(p, e, v->kernel, LOCAL_STAGED, clc_ref_copy);
    launch_runs(e, k, LOCAL_STAGED, true, p);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "store", .kernel = "runs_store", .params = run_lengths, .plan = plan},
    {.name = "load", .kernel = "runs_load", .params = run_lengths, .plan = plan,
     .data = &(const bool){true}},
    {.name = "fill", .kernel = "runs_fill", .params = run_lengths, .plan = plan_fill},
    {.name = "local", .kernel = "runs_local", .params = run_lengths, .plan = plan_local},
    {.name = "store_apart", .kernel = "runs_store_apart", .params = run_lengths, .plan = plan},
    {.name = "local_apart", .kernel = "runs_local_apart", .params = run_lengths,
     .plan = plan_local},
};

const struct clc_case clc_case_runs = {
    .name = "runs",
    .cl_file = "runs.cl",
    .summary = "each work-item copies a run of k consecutive elements, one element an "
               "access: stores (or loads) that fill each sector over k instructions",
    .variants_text = "store (the runs stored, the loads coalesced), load (the runs loaded, the "
                     "stores coalesced), fill (the runs stored alone, of values computed), "
                     "local (a copy staged in __local, each work-item storing its run after "
                     "the barrier), store_apart and local_apart (the same, each store after a "
                     "test of its element against n: the compiler keeps them apart, where it "
                     "issues a run's stores back to back otherwise); param = k elements a run "
                     "(1, 2, 4 ... 32)",
    .bytes_rule = "store, load, local: 2 x n x element size (each element read once and "
                  "written once); fill: n x element size written",
    .expect = "k = 1 near the copy ceiling; stored runs fall once a lane's run fills its "
              "sectors over several requests, each writing them in part (vstore8 through a "
              "float * is k = 8), the less the more the L1 merges them: where the stores "
              "come back to back, from __local, over few lines a request; the apart "
              "variants slower where a run's stores are 16 bytes a lane; loaded runs stay "
              "near the ceiling while the L1 keeps their lines",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = LOCAL * MAX_RUN, /* a whole block of the longest run */
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
