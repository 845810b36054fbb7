/* stores.c - what the L2 takes for stores by the lines and the pieces of a request: every
 * element written once, a warp's request in pieces of w neighbouring elements (one to eight
 * lanes) a pitch apart, so the same bytes reach the L2 as few lines with many pieces each or
 * as many lines with one piece each, in pieces that fill a sector, part of it, or several.
 * The lines layer's store costs are read off such requests. */
#include "clcoalesce/cases.h"

#define LOCAL 256
#define WIDEST_PITCH 16384 /* elements: 64 or 128 KiB, a large matrix's row */

/* Pitches, in elements, from twice the piece (pieces that do not touch) to WIDEST_PITCH, as
 * far as a block of 32 / w rows fits the buffer (the smallest always). */
static size_t pitches(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    long w = *(const long *)v->data;
    size_t k = 0;
    for (long pitch = 2 * w; pitch <= WIDEST_PITCH; pitch *= 2)
        if (k == 0 || (uint64_t)(32 / w * pitch) <= e->n)
            out[k++] = pitch;
    return k;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long pitch,
                struct clc_plan *p)
{
    long w = *(const long *)v->data;
    clc_plan_fill(p, e, v->kernel, LOCAL);
    clc_plan_arg_u32(p, clc_log2((uint64_t)pitch));
    clc_plan_arg_u32(p, clc_log2((uint64_t)w));
    uint64_t line_elems = 128 / clc_env_es(e), span = (uint64_t)pitch * (32 / w);
    uint64_t lines = pitch >= (long)line_elems ? (uint64_t)(32 / w)
                                                : (span + line_elems - 1) / line_elems;
    clc_plan_note(p, "pieces of %ld element%s %ld apart: %llu line%s a request", w,
                  w > 1 ? "s" : "", pitch, (unsigned long long)lines, lines > 1 ? "s" : "");
    return CLC_OK;
}

static const long lanes[] = {1, 2, 4, 8};

#define PIECES(label, i)                                                                      \
    {.name = label, .kernel = "stores_pieces", .params = pitches, .plan = plan,               \
     .data = &lanes[i]}
static const struct clc_variant variants[] = {
    PIECES("lanes1", 0), PIECES("lanes2", 1), PIECES("lanes4", 2), PIECES("lanes8", 3),
};

const struct clc_case clc_case_stores = {
    .name = "stores",
    .cl_file = "stores.cl",
    .summary = "out[e] = value, each request in pieces of 1 to 8 lanes a pitch apart: the L2's "
               "cost of a store by its lines and its pieces",
    .variants_text = "lanes1, lanes2, lanes4, lanes8 (the lanes of a piece: neighbouring lanes "
                     "on neighbouring elements); param = the pitch between a request's pieces "
                     "in elements (twice the piece .. 16384); the next warps fill the gaps",
    .bytes_rule = "n x element size written",
    .expect = "pieces that the warps of a work-group write into one sector together merge in "
              "the L1 where a request touches 16 lines or fewer: such rows run as fast as a "
              "coalesced store (an H100, float: 1672-1690 GB/s, the rate work-groups start); "
              "at 32 lines a request nothing merges (249-267 GB/s); how much merges depends "
              "on how closely the warps' stores follow each other",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .explicit_only = true,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
