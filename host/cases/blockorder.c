/* blockorder.c - a copy by blocks, one work-group a block, the blocks taken in five orders:
 * the same bytes, every access coalesced; only where the blocks of the work-groups resident
 * at once lie differs. */
#include "clcoalesce/cases.h"

#define LOCAL 256

/* Block sizes in bytes: a few DRAM pages' worth to many. */
static size_t block_bytes(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    (void)v;
    static const long bytes[] = {1024, 4096, 16384, 65536};
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++)
        out[i] = bytes[i];
    return sizeof bytes / sizeof bytes[0];
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long bytes,
                struct clc_plan *p)
{
    size_t block = (size_t)bytes / clc_env_es(e);
    size_t groups = (e->n + block - 1) / block;
    unsigned bits = 0; /* the largest power of two of blocks, 2^bits, that the orders permute */
    while (((size_t)2 << bits) <= groups)
        bits++;
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_copy);
    clc_plan_arg_u64(p, block);
    clc_plan_arg_u32(p, *(const unsigned *)v->data);
    clc_plan_arg_u32(p, bits);
    clc_plan_1d(p, (groups > 0 ? groups : 1) * LOCAL, LOCAL);
    clc_plan_note(p, "blocks of %ld bytes, %zu work-groups", bytes, groups);
    return CLC_OK;
}

/* blockorder.cl's order numbers */
static const unsigned linear = 0, reversed = 1, bitrev = 2, mulmod = 3, mixed = 4;

#define ORDER(label, order)                                                                  \
    {.name = label, .kernel = "block_copy", .params = block_bytes, .plan = plan, .data = &order}
static const struct clc_variant variants[] = {
    ORDER("linear", linear), ORDER("reversed", reversed), ORDER("bitrev", bitrev),
    ORDER("mulmod", mulmod), ORDER("random", mixed),
};

const struct clc_case clc_case_blockorder = {
    .name = "blockorder",
    .cl_file = "blockorder.cl",
    .summary = "out[i] = in[i] by blocks, one work-group a block: the blocks in order, "
               "reversed, or spread over the array",
    .variants_text = "linear, reversed, bitrev (the group id's bits reversed: neighbouring "
                     "groups half the array apart), mulmod (block 97 g + 13 modulo a power of "
                     "two), random (a pseudo-random bijection); param = block bytes (1, 4, 16, "
                     "64 KiB), 256 work-items a group",
    .bytes_rule = "2 x n x element size",
    .expect = "all orders within a few percent of linear from 4 KiB blocks: where the blocks "
              "in flight lie costs DRAM little (an H100: 0.94-0.97 of linear at 4 KiB, "
              "0.89-0.94 at 1 KiB); an index computed with a loop per work-item costs far "
              "more",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
