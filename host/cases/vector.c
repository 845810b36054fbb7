/* vector.c - bytes per work-item: a copy with float, float2, ... float16 per work-item,
 * ReLU scalar vs float4, and an aligned vs a misaligned float4 vload.  Sizes that are not
 * a multiple of the width are finished by a scalar tail, and every element is checked. */
#include <stdio.h>

#include "clcoalesce/cases.h"

#define VLOAD_SLACK 4 /* input elements past n that the misaligned vload may read */

/* One vector per work-item plus one work-item for the tail. */
static size_t vec_global(size_t n, unsigned width)
{
    return clc_round_up(n / width + 1, 256);
}

static int run_width(struct clc_bench *b, enum clc_type t, size_t n, const char *variant,
                     const char *kernel, unsigned width, clc_reference_fn reference)
{
    char opts[32];
    snprintf(opts, sizeof opts, "-DW=%u", width);
    struct clc_map_spec s = clc_map_elementwise(n, t, 256, variant, kernel, reference);
    s.options = opts;
    s.global = vec_global(n, width);
    s.has_param = true;
    s.param = width;
    return clc_bench_map(b, t, &s);
}

static int run_vload(struct clc_bench *b, enum clc_type t, size_t n, const char *variant,
                     const unsigned *offset)
{
    char opts[32];
    snprintf(opts, sizeof opts, "-DOFFSET=%u", *offset);
    struct clc_map_spec s =
        clc_map_elementwise(n, t, 256, variant, "copy_vload4", clc_ref_shifted);
    s.options = opts;
    s.n_in = n + VLOAD_SLACK;
    s.global = vec_global(n, 4);
    s.ref_ctx = offset;
    return clc_bench_map(b, t, &s);
}

static int run(struct clc_bench *b, enum clc_type t)
{
    static const struct {
        const char *variant;
        unsigned width;
    } copies[] = {{"float", 1}, {"float2", 2}, {"float4", 4}, {"float8", 8}, {"float16", 16}};
    static const unsigned aligned = 0, misaligned = 1;
    size_t n = clc_bench_elems(b, t);
    int rc = CLC_OK;
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
        if (run_width(b, t, n, copies[i].variant, "copy_vec", copies[i].width,
                      clc_ref_copy) != CLC_OK)
            rc = CLC_ERR;
    if (run_width(b, t, n, "relu", "relu_vec", 1, clc_ref_relu) != CLC_OK)
        rc = CLC_ERR;
    if (run_width(b, t, n, "relu_float4", "relu_vec", 4, clc_ref_relu) != CLC_OK)
        rc = CLC_ERR;
    /* n shrinks by the slack so both vload variants fit in the main array's size */
    size_t nv = n > VLOAD_SLACK ? n - VLOAD_SLACK : 0;
    if (run_vload(b, t, nv, "float4_aligned", &aligned) != CLC_OK)
        rc = CLC_ERR;
    if (run_vload(b, t, nv, "float4_misaligned", &misaligned) != CLC_OK)
        rc = CLC_ERR;
    return rc;
}

const struct clc_case clc_case_vector = {
    .name = "vector",
    .cl_file = "vector.cl",
    .kernels = "copy_vec relu_vec copy_vload4",
    .summary = "bytes per work-item: copy with float .. float16, ReLU scalar vs float4, "
               "aligned vs misaligned vload4",
    .variants = "float, float2, float4, float8, float16 (copy, param = width); relu, "
                "relu_float4 (param = width); float4_aligned, float4_misaligned (vload4 from "
                "in + 0 / in + 1, n = size / 4 - 4)",
    .bytes_rule = "2 x n x 4 (each element read once and written once; the vector width "
                  "changes nothing in the count)",
    .expect = "float4 or wider reaches the copy ceiling where float does not: fewer, wider "
              "requests keep more bytes in flight; float16 gains nothing over float4 and may "
              "lose (register pressure); the misaligned vload4 costs a few percent",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .run = run,
};
