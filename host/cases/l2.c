/* l2.c - the L2's own throughput: a window it holds (param, KiB: a power of two up to half
 * the L2) read, written or copied over and over in one launch, 16-byte vectors a work-item,
 * so that its loads and stores reach the L2 and DRAM moves the window once.  The profile
 * reads the L2's rates for sectors loaded and stored from these rows (devprofile.c). */
#include <stdlib.h>

#include "clcoalesce/cases.h"

#define LOCAL 256
#define VECTOR 16             /* bytes per access (float4, double2) */
#define MIN_WINDOW (64 << 10) /* a copy's halves still hold many work-groups' vectors */
#define UNKNOWN_L2 (2 << 20)  /* where the device does not say */
#define MAX_PASSES 2048       /* a read's sums stay exact (below 2^24 in float) */

/* Windows of 1 / 16, 1 / 4 and all of the largest power of two within half the L2 and within
 * the case's size, in KiB: the L2 holds each with room to spare, and a small --size keeps
 * them small. */
static size_t windows(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)v;
    uint64_t l2 = e->dev != NULL && e->dev->meta.l2_bytes > 0 ? e->dev->meta.l2_bytes
                                                              : UNKNOWN_L2;
    uint64_t top = MIN_WINDOW;
    while (top * 2 <= l2 / 2 && top * 2 <= e->size)
        top *= 2;
    size_t n = 0;
    for (uint64_t w = top >> 4; w <= top; w *= 4)
        if (w >= MIN_WINDOW)
            out[n++] = (long)(w >> 10);
    return n;
}

/* The passes a launch makes over a window of `window` bytes: the case's size worth, at
 * least one. */
static uint64_t passes_for(const struct clc_env *e, uint64_t window)
{
    uint64_t p = e->size / window;
    return p < 1 ? 1 : p > MAX_PASSES ? MAX_PASSES : p;
}

/* The window as an array of its own: what clc_plan_map and clc_plan_fill lay out. */
static struct clc_env window_env(const struct clc_env *e, uint64_t bytes)
{
    struct clc_env w = *e;
    w.size = bytes;
    w.n = bytes / clc_env_es(e);
    return w;
}

/* One launch: a work-item per vector of the window (n elements), PASSES each. */
static void launch(const struct clc_env *w, uint64_t passes, struct clc_plan *p)
{
    clc_plan_define(p, "-DPASSES=%llu", (unsigned long long)passes);
    clc_plan_1d(p, w->n / (VECTOR / clc_env_es(w)), LOCAL);
    clc_plan_note(p, "%llu pass%s over the window", (unsigned long long)passes,
                  passes == 1 ? "" : "es");
}

struct read_ctx {
    uint64_t passes, vectors, width; /* width: elements a vector */
};

/* sums[i] adds the elements of vectors i, i + LOCAL, i + 2 LOCAL ... (mod the window's
 * vectors), one a pass. */
static bool check_read(const struct clc_check_in *c, struct clc_result *r)
{
    const struct read_ctx *x = c->plan->check_ctx;
    void *want = clc_check_want(c, r, x->vectors);
    if (want == NULL)
        return false;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < x->vectors; i++) {
        double s = 0;
        for (uint64_t k = 0, v = i; k < x->passes; k++, v = (v + LOCAL) & (x->vectors - 1))
            for (uint64_t j = 0; j < x->width; j++)
                s += clc_value(v * x->width + j);
        clc_put(want, i, c->type, s);
    }
    bool ok = clc_check_values(r, c->got[1], want, x->vectors, c->type, 0);
    clc_host_put(want);
    return ok;
}

static int plan_read(const struct clc_env *e, const struct clc_variant *v, long kib,
                     struct clc_plan *p)
{
    struct clc_env w = window_env(e, (uint64_t)kib << 10);
    unsigned es = clc_env_es(e);
    struct read_ctx *x = clc_plan_host(p, sizeof *x);
    if (x == NULL)
        return CLC_ERR;
    x->passes = passes_for(e, w.size);
    x->width = VECTOR / es;
    x->vectors = w.n / x->width;
    unsigned in = clc_plan_buffer(p, "in", w.n, es, CLC_INIT_VALUES);
    unsigned sums = clc_plan_buffer(p, "sums", x->vectors, es, CLC_INIT_POISON);
    p->bufs[sums].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, sums);
    clc_plan_arg_u64(p, w.n);
    launch(&w, x->passes, p);
    p->bytes = x->passes * w.size + x->vectors * es;
    p->check = check_read;
    p->check_ctx = x;
    return CLC_OK;
}

static int plan_write(const struct clc_env *e, const struct clc_variant *v, long kib,
                      struct clc_plan *p)
{
    struct clc_env w = window_env(e, (uint64_t)kib << 10);
    uint64_t passes = passes_for(e, w.size);
    clc_plan_fill(p, &w, v->kernel, LOCAL);
    launch(&w, passes, p);
    p->bytes = passes * w.size;
    return CLC_OK;
}

/* copy: in and out half the window each, so that the L2 holds as much as for the others */
static int plan_copy(const struct clc_env *e, const struct clc_variant *v, long kib,
                     struct clc_plan *p)
{
    uint64_t window = (uint64_t)kib << 10;
    struct clc_env half = window_env(e, window / 2);
    uint64_t passes = passes_for(e, window);
    clc_plan_map(p, &half, v->kernel, LOCAL, clc_ref_copy);
    p->bufs[0].initial = false; /* clc_check_map computes what `in` holds */
    launch(&half, passes, p);
    p->bytes = passes * window;
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "read", .kernel = "l2_read", .params = windows, .plan = plan_read},
    {.name = "write", .kernel = "l2_write", .params = windows, .plan = plan_write},
    {.name = "copy", .kernel = "l2_copy", .params = windows, .plan = plan_copy},
};

const struct clc_case clc_case_l2 = {
    .name = "l2",
    .cl_file = "l2.cl",
    .summary = "the L2's own throughput: a window it holds read, written or copied over and "
               "over in one launch",
    .variants_text = "read (each work-item sums the vectors it loads), write (a fill), copy "
                     "(out = in, each half the window); a 16-byte vector a work-item a pass, "
                     "moving on by a work-group each pass; param = the window in KiB (1/16, "
                     "1/4 and all of the largest power of two within half the L2 and the size)",
    .bytes_rule = "the window's bytes times the passes (the size over the window, 1 to "
                  "2048); read: + one sum per work-item",
    .expect = "above the stream ceilings of the same mix: DRAM moves the window once, the L2 "
              "serves every pass; the profile's L2 rates for sectors loaded and stored",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 4,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
