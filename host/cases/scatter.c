/* scatter.c - the rates at which the L2 takes scattered requests: every lane of a warp
 * stores into (store) or loads from (load) its own 128-byte line, a column of a block of 32
 * rows, the sectors filling or serving the next warps while they wait in L2, so DRAM moves
 * each byte once.  The profile reads them as line transactions per second, the limit of
 * kernels that store down columns or gather within a window that L2 holds.  And the rate at
 * which DRAM serves granules at random (random: each lane loads its own granule anywhere in
 * the buffer), which the profile reads as random gathers' efficiency.  The shared rows
 * (store_shared, load_shared) measure what it changes that the warps of a work-group ask for
 * the same sector at once, in teams of 1 to 8 warps (the profile reads the loads of teams of
 * one as the L2's rate for requests the L1 cannot serve); store_steps, a lane filling its
 * sectors over several steps with a load between, and store_steps_wide, the same with the
 * work-groups dealt over the blocks as a naive transpose's store over the rows of out. */
#include "clcoalesce/cases.h"

#include <string.h>

#define LOCAL 256

/* Rows of 16384 elements: 64 or 128 KiB, a large matrix's row.  A smaller buffer takes rows
 * of the largest power of two within a 32nd of it (the kernels find an element with shifts
 * and masks), but at least `least` elements: 32, so each lane still has its own line; the
 * shared layout's 8 lines, so each team of warps has lines of its own.  The pitch is kept
 * by the plan for the check, the shift goes to the kernel. */
#define PITCH 16384

static uint64_t *pitch_for(const struct clc_env *e, uint64_t least, struct clc_plan *p)
{
    uint64_t *pitch = clc_plan_host(p, sizeof *pitch);
    if (pitch != NULL) {
        for (*pitch = least; *pitch < PITCH && *pitch * 2 <= e->n / 32; *pitch *= 2)
            ;
        clc_plan_note(p, "blocks of 32 rows x %llu", (unsigned long long)*pitch);
    }
    return pitch;
}

static int plan_store(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    uint64_t *pitch = pitch_for(e, 32, p);
    if (pitch == NULL)
        return CLC_ERR;
    clc_plan_fill(p, e, v->kernel, LOCAL);
    clc_plan_arg_u32(p, clc_log2(*pitch));
    return CLC_OK;
}

static int plan_load(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    (void)param;
    uint64_t *pitch = pitch_for(e, 32, p);
    if (pitch == NULL)
        return CLC_ERR;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scatter);
    clc_plan_arg_u32(p, clc_log2(*pitch));
    p->ref_ctx = pitch;
    return CLC_OK;
}

/* The shared layout (param: the warps of a team, 1 to 8), its pitch kept for the check. */
static struct clc_scatter_shared *shared_for(const struct clc_env *e, long share,
                                             struct clc_plan *p)
{
    uint64_t *pitch = pitch_for(e, 8 * 128 / clc_env_es(e), p);
    struct clc_scatter_shared *s = clc_plan_host(p, sizeof *s);
    if (pitch == NULL || s == NULL)
        return NULL;
    s->pitch = *pitch;
    s->share = (unsigned)share;
    clc_plan_note(p, ", teams of %ld warps a sector", share);
    return s;
}

static size_t shares(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    return clc_powers_of_two(8, out);
}

static int plan_store_shared(const struct clc_env *e, const struct clc_variant *v, long share,
                             struct clc_plan *p)
{
    struct clc_scatter_shared *s = shared_for(e, share, p);
    if (s == NULL)
        return CLC_ERR;
    clc_plan_fill(p, e, v->kernel, LOCAL);
    clc_plan_arg_u32(p, clc_log2(s->pitch));
    clc_plan_arg_u32(p, clc_log2(s->share));
    return CLC_OK;
}

static int plan_load_shared(const struct clc_env *e, const struct clc_variant *v, long share,
                            struct clc_plan *p)
{
    struct clc_scatter_shared *s = shared_for(e, share, p);
    if (s == NULL)
        return CLC_ERR;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scatter_shared);
    clc_plan_arg_u32(p, clc_log2(s->pitch));
    clc_plan_arg_u32(p, clc_log2(s->share));
    p->ref_ctx = s;
    return CLC_OK;
}

/* store_steps: rows of `pitch` elements, 2^steps elements a work-item (param: 2^steps);
 * wide: the work-groups dealt over the blocks in turn (store_steps_wide). */
struct steps_ctx {
    uint64_t pitch;
    unsigned steps;
    bool wide;
};

/* scatter.cl's scatter_store_steps: work-item i's step s stores the element of its line that
 * its warp's load of that step read; past the whole blocks, each element in place. */
static void ref_steps(const struct clc_ref_args *a)
{
    const struct steps_ctx *c = a->ctx;
    uint64_t k = UINT64_C(1) << c->steps, block = 32 * c->pitch, whole = a->n_out / block * block;
    uint64_t items = (a->n_out + k - 1) / k, blocks = whole / block;
    uint64_t per_block = (block / k) / LOCAL; /* work-groups a block */
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < items; i++) {
        uint64_t at = i; /* the work-item whose place work-item i takes */
        if (c->wide && i * k + k <= whole)
            at = (i / LOCAL % blocks * per_block + i / LOCAL / blocks) * LOCAL + i % LOCAL;
        uint64_t first = at * k, j = first % block, lane = j / k % 32, warp = j / k / 32;
        for (uint64_t s = 0; s < k && i * k + s < a->n_out; s++) {
            uint64_t to = i * k + s, from = i * k + s;
            if (first + k <= whole) {
                to = first - j + lane * c->pitch + warp * k + s;
                from = (at - lane) * k + 32 * s + lane;
            }
            clc_put(a->want, to, a->t, clc_get(a->in, from, a->t));
        }
    }
}

static size_t step_counts(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    return clc_powers_of_two(16, out);
}

static int plan_steps(const struct clc_env *e, const struct clc_variant *v, long k,
                      struct clc_plan *p)
{
    uint64_t *pitch = pitch_for(e, 32, p);
    struct steps_ctx *c = clc_plan_host(p, sizeof *c);
    if (pitch == NULL || c == NULL)
        return CLC_ERR;
    c->pitch = *pitch;
    c->steps = clc_log2((uint64_t)k);
    /* dealt over the blocks only where a block holds whole work-groups of its own */
    c->wide = strcmp(v->name, "store_steps_wide") == 0 && 32 * *pitch / (uint64_t)k >= LOCAL;
    clc_plan_map(p, e, v->kernel, LOCAL, ref_steps);
    clc_plan_1d(p, (e->n + (size_t)k - 1) / (size_t)k, LOCAL);
    clc_plan_arg_u32(p, clc_log2(*pitch));
    clc_plan_arg_u32(p, c->steps);
    clc_plan_arg_u32(p, c->wide);
    clc_plan_note(p, ", %ld element%s of its line a lane, one a step%s", k, k > 1 ? "s" : "",
                  c->wide ? ", the work-groups dealt over the blocks" : "");
    p->ref_ctx = c;
    return CLC_OK;
}

/* random: the bits of the least power of two >= n, kept for the check */
static int plan_random(const struct clc_env *e, const struct clc_variant *v, long param,
                       struct clc_plan *p)
{
    (void)param;
    unsigned *bits = clc_plan_host(p, sizeof *bits);
    if (bits == NULL)
        return CLC_ERR;
    for (*bits = 1; *bits < 64 && (UINT64_C(1) << *bits) < e->n; ++*bits)
        ;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scatter_random);
    clc_plan_arg_u32(p, *bits);
    p->ref_ctx = bits;
    return CLC_OK;
}

/* tiles, tile_blocks, tile_loads: a matrix of the buffer's first elements, 2^k columns (the largest power
 * of two whose square the buffer holds) and as many whole rows of 32 as fit, so that it holds
 * all but fewer than 32 rows of the buffer (none under 32 x 32 elements); 4 elements a
 * work-item, the elements past it one a work-item. */
static int plan_tiles(const struct clc_env *e, const struct clc_variant *v, long param,
                      struct clc_plan *p)
{
    (void)param;
    struct clc_scatter_tiles *c = clc_plan_host(p, sizeof *c);
    if (c == NULL)
        return CLC_ERR;
    c->blocks = strcmp(v->name, "tile_blocks") == 0  ? 1
                : strcmp(v->name, "tile_loads") == 0 ? 2
                                                     : 0;
    c->shift = 0;
    for (unsigned k = 5; k < 32 && (UINT64_C(1) << (2 * k)) <= e->n; k++)
        c->shift = k;
    c->rows = c->shift ? (e->n >> c->shift) / 32 * 32 : 0;
    uint64_t tiled = c->shift ? c->rows << c->shift : 0;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_scatter_tiles);
    clc_plan_1d(p, (size_t)(tiled / 4 + (e->n - tiled)), LOCAL);
    clc_plan_arg_u32(p, c->shift);
    clc_plan_arg_u64(p, c->rows);
    clc_plan_arg_u32(p, c->blocks);
    p->ref_ctx = c;
    if (c->shift)
        clc_plan_note(p, "%llu x %llu in tiles of 32 x 32",
                      (unsigned long long)(UINT64_C(1) << c->shift), (unsigned long long)c->rows);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "store", .kernel = "scatter_store", .plan = plan_store},
    {.name = "load", .kernel = "scatter_load", .plan = plan_load},
    {.name = "random", .kernel = "scatter_random", .plan = plan_random},
    {.name = "store_shared", .kernel = "scatter_store_shared", .params = shares,
     .plan = plan_store_shared},
    {.name = "load_shared", .kernel = "scatter_load_shared", .params = shares,
     .plan = plan_load_shared},
    {.name = "store_steps", .kernel = "scatter_store_steps", .params = step_counts,
     .plan = plan_steps},
    {.name = "store_steps_wide", .kernel = "scatter_store_steps", .params = step_counts,
     .plan = plan_steps},
    {.name = "tiles", .kernel = "scatter_tiles", .plan = plan_tiles},
    {.name = "tile_blocks", .kernel = "scatter_tiles", .plan = plan_tiles},
    {.name = "tile_loads", .kernel = "scatter_tiles", .plan = plan_tiles},
};

const struct clc_case clc_case_scatter = {
    .name = "scatter",
    .cl_file = "scatter.cl",
    .summary = "one line per lane while L2 holds the sectors: the L2's rates for scattered "
               "stores and loads",
    .variants_text = "store (out[e] = value), load (out[i] = in[e]): e walks blocks of 32 rows "
                     "of 16384 elements (fewer in a buffer under 2 MiB: a power of two) column "
                     "by column, lane l of a warp in row l, warp w in column w; random (out[i] "
                     "= in[e]): e a fixed permutation of the elements, computed from i, at "
                     "random; store_shared, load_shared (param: warps a team): lane l in row "
                     "l, the 8 warps of a work-group in teams that each take one sector of "
                     "their own 32 lines, the next work-groups the rest of those lines; "
                     "store_steps (out[e] = in[f], param k: 1 .. 16): lane l in row l, warp w "
                     "in columns w k .. w k + k - 1, one element a step, a coalesced load "
                     "before each; store_steps_wide (the same, consecutive work-groups in "
                     "consecutive blocks, block b's columns to work-groups b, b + blocks, ..., "
                     "as a naive transpose's work-groups store a matrix row apart); tiles (a "
                     "matrix of the buffer copied in tiles of 32 x 32, a work-group of 32 x 8 "
                     "a tile, 4 rows each), tile_blocks (each tile stored "
                     "whole at the transposed tile's place, as a tiled transpose stores), "
                     "tile_loads (each tile loaded whole from there, stored in place, as a "
                     "transpose that takes its tiles down columns loads)",
    .bytes_rule = "store, store_shared: n x element size written; load, load_shared, "
                  "store_steps, random, tiles, tile_blocks, tile_loads: n x element size read "
                  "and written (store_steps_wide alike)",
    .expect = "far below stream write and copy although DRAM moves the same bytes: each "
              "request stores or loads 32 lines instead of 1 (float) or 2 (double); loads "
              "faster than stores; random far below the others: DRAM moves a granule per "
              "element, at random; load_shared slowest in teams of one (every sector a "
              "request to the L2), as fast as load in larger teams (their later warps find "
              "the sectors in L1); store_shared alike in every team; store_steps slower "
              "once a lane fills its sectors over several steps (the L2 writes them back "
              "in part), store_steps_wide as slow or slower (the lines open spread over the "
              "whole buffer); tile_blocks below tiles: DRAM takes the runs a tile's rows "
              "leave, continued only a row of tiles later, more slowly than whole rows; tile_loads "
              "likewise for the runs it loads",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
