/* vector.c - bytes per work-item: a copy with float, float2, ... float16 per work-item, its
 * stores alone (a fill) with float4, float8 and float16, ReLU scalar vs float4, and an aligned
 * vs a misaligned float4 vload.  Sizes that are not a multiple of the width are finished by a
 * scalar tail, and every element is checked. */
#include "clcoalesce/cases.h"

#define VLOAD_SLACK 4 /* input elements past n that the misaligned vload may read */

struct vec {
    unsigned width;             /* elements per work-item (built with -DW) */
    clc_reference_fn reference;
    unsigned offset;            /* the vload variants: elements between in and the first load */
};

/* One vector per work-item plus one work-item for the tail. */
static size_t vec_global(size_t n, unsigned width)
{
    return n / width + 1;
}

/* What every width's launch adds to its plan: the width as -DW and as the argument the
 * kernel checks it against, and one work-item per vector. */
static void plan_vectors(const struct clc_env *e, unsigned width, struct clc_plan *p)
{
    clc_plan_define(p, "-DW=%u", width);
    clc_plan_arg_u32(p, width);
    clc_plan_1d(p, vec_global(e->n, width), 256);
}

static int plan_width(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    const struct vec *d = v->data;
    clc_plan_map(p, e, v->kernel, 256, d->reference);
    plan_vectors(e, d->width, p);
    return CLC_OK;
}

static int plan_fill(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    const struct vec *d = v->data;
    clc_plan_fill(p, e, v->kernel, 256);
    plan_vectors(e, d->width, p);
    return CLC_OK;
}

/* The width is the row's param, as the rows before the vload variants have always shown. */
static size_t width_param(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    out[0] = ((const struct vec *)v->data)->width;
    return 1;
}

static int plan_vload(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    const struct vec *d = v->data;
    struct clc_env shrunk = *e;
    /* n shrinks by the slack so both vload variants fit in the main array's size */
    shrunk.n = e->n - VLOAD_SLACK;
    clc_plan_map(p, &shrunk, v->kernel, 256, clc_ref_shifted);
    p->bufs[0].elems = e->n;
    p->ref_ctx = &d->offset;
    clc_plan_define(p, "-DOFFSET=%u", d->offset);
    clc_plan_1d(p, vec_global(shrunk.n, 4), 256);
    return CLC_OK;
}

#define COPY(name_, w)                                                                      \
    {.name = name_, .kernel = "copy_vec", .params = width_param, .plan = plan_width,        \
     .data = &(const struct vec){w, clc_ref_copy, 0}}

#define FILL(name_, w)                                                                      \
    {.name = name_, .kernel = "fill_vec", .params = width_param, .plan = plan_fill,         \
     .data = &(const struct vec){w, NULL, 0}}

static const struct clc_variant variants[] = {
    COPY("float", 1),
    COPY("float2", 2),
    COPY("float4", 4),
    COPY("float8", 8),
    COPY("float16", 16),
    FILL("fill_float4", 4),
    FILL("fill_float8", 8),
    FILL("fill_float16", 16),
    {.name = "relu", .kernel = "relu_vec", .params = width_param, .plan = plan_width,
     .data = &(const struct vec){1, clc_ref_relu, 0}},
    {.name = "relu_float4", .kernel = "relu_vec", .params = width_param, .plan = plan_width,
     .data = &(const struct vec){4, clc_ref_relu, 0}},
    {.name = "float4_aligned", .kernel = "copy_vload4", .plan = plan_vload,
     .data = &(const struct vec){4, clc_ref_shifted, 0}},
    {.name = "float4_misaligned", .kernel = "copy_vload4", .plan = plan_vload,
     .data = &(const struct vec){4, clc_ref_shifted, 1}},
};

const struct clc_case clc_case_vector = {
    .name = "vector",
    .cl_file = "vector.cl",
    .summary = "bytes per work-item: copy with float .. float16, fill with float4 .. "
               "float16, ReLU scalar vs float4, aligned vs misaligned vload4",
    .variants_text = "float, float2, float4, float8, float16 (copy, param = width); "
                     "fill_float4, fill_float8, fill_float16 (stores only, param = width); relu, "
                     "relu_float4 (param = width); float4_aligned, float4_misaligned (vload4 "
                     "from in + 0 / in + 1, n = size / 4 - 4)",
    .bytes_rule = "2 x n x 4 (each element read once and written once; the vector width "
                  "changes nothing in the count); fill: n x 4",
    .expect = "float4 or wider reaches the copy ceiling where float does not: fewer, wider "
              "requests keep more bytes in flight; float8 and float16 gain nothing over "
              "float4 and float16 loses: an NVIDIA instruction moves at most 16 bytes a lane, "
              "so each request fills half of every sector it touches and L2 takes each stored "
              "sector twice; the fills show that cost alone (on a GPU fill_float8 and "
              "fill_float16 store about half as fast as fill_float4); the misaligned vload4 "
              "costs a few percent",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = VLOAD_SLACK + 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
