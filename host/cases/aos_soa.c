/* aos_soa.c - reading one field of a record: array of structures vs structure of arrays,
 * and a record that alignment padding makes 16 bytes for a 4-byte field. */
#include <stdio.h>
#include <string.h>

#include "clcoalesce/cases.h"

#define LOCAL 256

static int run(struct clc_bench *b, enum clc_type t)
{
    size_t n = clc_bench_elems(b, t);
    size_t per_float = sizeof(float);
    /* float only: the bytes counted are the useful ones, 2 x n x 4 */
    struct clc_map_spec aos = clc_map_elementwise(n, t, LOCAL, "aos", "aos", clc_ref_aos);
    aos.n_in = n * (sizeof(struct clc_particle) / per_float);
    struct clc_map_spec soa = aos;
    soa.variant = "soa";
    soa.kernel = "soa";
    soa.reference = clc_ref_scale; /* x[n], y[n], z[n]: same buffer size as the aos one */
    struct clc_map_spec padded = aos;
    padded.variant = "aos_padded";
    padded.kernel = "aos_padded";
    padded.options = "-DCLC_FP64=1";
    padded.n_in = n * (sizeof(struct clc_padded) / per_float);
    padded.reference = clc_ref_aos_padded;

    int rc = CLC_OK;
    if (clc_bench_map(b, t, &aos) != CLC_OK)
        rc = CLC_ERR;
    if (clc_bench_map(b, t, &soa) != CLC_OK)
        rc = CLC_ERR;
    if (!clc_bench_wants(b, "aos_padded"))
        return rc;
    if (!b->ctx->dev.fp64) {
        if (clc_bench_skip(b, t, "aos_padded",
                           "device has no cl_khr_fp64 (the record holds a double)"))
            rc = CLC_ERR;
    } else if (clc_bench_map(b, t, &padded) != CLC_OK) {
        rc = CLC_ERR;
    }
    return rc;
}

const struct clc_case clc_case_aos_soa = {
    .name = "aos_soa",
    .cl_file = "aos_soa.cl",
    .kernels = "aos soa aos_padded",
    .summary = "out[i] = x[i] * 2 with x a field of a record: array of structures vs "
               "structure of arrays, and a padded record",
    .variants = "aos (struct {float x, y, z}, 12-byte records), soa (x[n], y[n], z[n]), "
                "aos_padded (struct {float f; double d}, 16-byte records, read f; needs "
                "cl_khr_fp64, else skipped)",
    .bytes_rule = "2 x n x 4: the useful bytes (x read once, out written once), not the "
                  "records' bytes",
    .expect = "soa at the copy ceiling; aos near 1/2 of it (reads move 3x the useful bytes, "
              "writes don't); aos_padded lower still (4x on the reads) although its useful "
              "field is a single float",
    .types = CLC_FLOAT,
    .alloc_factor = 4,
    .run = run,
};
