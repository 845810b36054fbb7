/* transpose.c - out-of-place transpose of a width x height matrix of any shape: a tile-shaped
 * copy (the ceiling), a naive transpose (one element a work-item too, with the work-groups that
 * fill a line of out a grid row apart or one after the other), __local tiles with and without
 * padding, one element per work-item, loaded straight into the tile under its guard, and 4 x 4
 * blocks transposed in registers with vector accesses. */
#include "clcoalesce/cases.h"

#define TILE 32

struct shape {
    size_t local[2]; /* work-items per group, x and y */
    size_t cover[2]; /* matrix elements a group covers: columns, rows */
    bool copy;       /* out = in, not the transpose */
};

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    const struct shape *s = v->data;
    uint64_t *wh = clc_plan_host(p, 2 * sizeof *wh);
    if (wh == NULL)
        return CLC_ERR;
    size_t width, height;
    clc_matrix_shape(e->n, &width, &height);
    wh[0] = width;
    wh[1] = height;
    unsigned es = clc_env_es(e);
    unsigned in = clc_plan_buffer(p, "in", e->n, es, CLC_INIT_VALUES);
    unsigned out = clc_plan_buffer(p, "out", e->n, es, CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    p->kernel = v->kernel;
    /* see tiled_1elem in transpose.cl: declare the 32 x 32 shape where the device allows it */
    size_t group = s->local[0] * s->local[1];
    if (group > 256 && group <= e->dev->max_group)
        clc_plan_define(p, "-DFULL_TILE");
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, width);
    clc_plan_arg_u64(p, height);
    clc_plan_2d(p, clc_round_up(width, s->cover[0]) / s->cover[0] * s->local[0],
                clc_round_up(height, s->cover[1]) / s->cover[1] * s->local[1], s->local[0],
                s->local[1]);
    p->bytes = 2 * (uint64_t)width * height * es;
    p->check = clc_check_transpose;
    p->check_ctx = &s->copy;
    p->ref_ctx = wh;
    p->has_param = true;
    p->param = (long)width;
    clc_plan_note(p, "%zu x %zu", width, height);
    return CLC_OK;
}

#define VARIANT(name_, kernel_, lx, ly, cx, cy, copy_)                                      \
    {.name = name_, .kernel = kernel_, .plan = plan,                                        \
     .data = &(const struct shape){{lx, ly}, {cx, cy}, copy_}}

static const struct clc_variant variants[] = {
    VARIANT("copy", "tile_copy", 32, 8, TILE, TILE, true),
    VARIANT("naive", "naive", 32, 8, TILE, TILE, false),
    VARIANT("naive_1elem", "naive_1elem", 32, 8, TILE, 8, false),
    VARIANT("naive_1elem_near", "naive_1elem_near", 32, 8, TILE, 8, false),
    VARIANT("tiled", "tiled", 32, 8, TILE, TILE, false),
    VARIANT("tiled_padded", "tiled_padded", 32, 8, TILE, TILE, false),
    VARIANT("tiled_1elem", "tiled_1elem", 32, 32, TILE, TILE, false),
    VARIANT("tiled_wide", "tiled_wide", 64, 4, 2 * TILE, 2 * TILE, false),
    VARIANT("tiled_held", "tiled_held", 32, 8, TILE, TILE, false),
    VARIANT("tiled_vec4", "tiled_vec4", 8, 32, TILE, 128, false),
};

const struct clc_case clc_case_transpose = {
    .name = "transpose",
    .cl_file = "transpose.cl",
    .summary = "out-of-place matrix transpose: naive, __local tiles with and without padding, "
               "and register blocks, against a copy with the same tiles",
    .variants_text = "copy (32 x 32 tiles, 32 x 8 work-items doing 4 rows each, out = in), "
                     "naive (coalesced reads, strided writes), naive_1elem (the same, one "
                     "element a work-item: each line of out filled by work-groups a grid row "
                     "apart), naive_1elem_near (the work-groups that fill a line one after "
                     "the other), tiled (__local [32][32]: bank "
                     "conflicts), tiled_padded (__local [32][33]), tiled_1elem (padded, 32 x "
                     "32 work-items; skipped below work-groups of 1024), tiled_wide (__local "
                     "[64][65], 64 x 4 work-items doing 16 rows each), tiled_held "
                     "(tiled_padded, each element loaded straight into the tile under its "
                     "guard), tiled_vec4 (4 x 4 "
                     "blocks transposed in registers, 4-wide loads and stores, 8 x 32 "
                     "work-items); param = width.  Shape: width = floor(sqrt(n)), height = "
                     "n / width for n = size / element size; from 2^20 elements square, the side a "
                     "multiple of 32",
    .bytes_rule = "2 x width x height x element size (each element read and written once)",
    .expect = "naive far below copy (each warp store touches 32 sectors); naive_1elem "
              "below naive_1elem_near where the lines left open a grid row of work-groups "
              "cost the L2 more (on an H100 at 1 GiB, 425 against 477 GB/s in fp32); "
              "tiled recovers "
              "most of it but loses to the 32-way __local bank conflicts that tiled_padded "
              "removes; tiled_1elem below tiled_padded (one load in flight per work-item); "
              "tiled_wide (16 loads in flight per work-item) and tiled_vec4 (whole sectors "
              "both ways, 4-wide accesses) fastest, tiled_wide above 90 % of the copy "
              "ceiling on an H200, where the 32 x 32 tiles (the tile copy included) have too "
              "few bytes in flight; tiled_held as tiled_padded where the compiler keeps its "
              "four loads in flight together (CUDA), below it where it waits for each before "
              "the next (NVIDIA's OpenCL)",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = TILE * TILE,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
