/* coalesced.c - out[i] = in[i] * 2: the access pattern every other case is measured against. */
#include "clcoalesce/cases.h"

static int run(struct clc_bench *b, enum clc_type t)
{
    struct clc_map_spec spec =
        clc_map_elementwise(clc_bench_elems(b, t), t, 256, "kernel", "scale", clc_ref_scale);
    return clc_bench_map(b, t, &spec);
}

const struct clc_case clc_case_coalesced = {
    .name = "coalesced",
    .cl_file = "coalesced.cl",
    .kernels = "scale",
    .summary = "out[i] = in[i] * 2: a warp reads 32 consecutive elements",
    .variants = "kernel",
    .bytes_rule = "2 x n x element size",
    .expect = "near the copy kernel: 4 sectors of 32 bytes per warp request (float), all used",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .run = run,
};
