/* uncoalesced.c - out[i] = in[(i * 32) % n] * 2: each lane of a warp reads its own sector. */
#include "clcoalesce/cases.h"

static int run(struct clc_bench *b, enum clc_type t)
{
    struct clc_map_spec spec =
        clc_map_elementwise(clc_bench_elems(b, t), t, 256, "kernel", "scale", clc_ref_uncoalesced);
    return clc_bench_map(b, t, &spec);
}

const struct clc_case clc_case_uncoalesced = {
    .name = "uncoalesced",
    .cl_file = "uncoalesced.cl",
    .kernels = "scale",
    .summary = "out[i] = in[(i * 32) % n] * 2: neighbouring work-items read 128 bytes apart",
    .variants = "kernel",
    .bytes_rule = "2 x n x element size (the useful bytes; the hardware moves far more)",
    .expect = "far below coalesced: each load request touches 32 sectors instead of 4, so "
              "about 8x the read traffic for the same useful bytes",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .run = run,
};
