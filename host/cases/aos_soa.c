/* aos_soa.c - reading one field of a record: array of structures vs structure of arrays,
 * and a record that alignment padding makes 16 bytes for a 4-byte field. */
#include "clcoalesce/cases.h"

#define LOCAL 256

struct layout {
    size_t record_floats; /* the input buffer holds n records of this many floats */
    clc_reference_fn reference;
    bool fp64;            /* the record holds a double */
};

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    const struct layout *l = v->data;
    if (l->fp64 && !e->dev->fp64) {
        clc_plan_note(p, "device has no fp64 (the record holds a double)");
        return CLC_SKIP;
    }
    /* float only: the bytes counted are the useful ones, 2 x n x 4 */
    clc_plan_map(p, e, v->kernel, LOCAL, l->reference);
    p->bufs[0].elems = e->n * l->record_floats;
    if (l->fp64) {
        clc_plan_define(p, "-DCLC_FP64=1");
        p->needs_fp64 = true;
    }
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "aos", .kernel = "aos", .plan = plan,
     .data = &(const struct layout){sizeof(struct clc_particle) / sizeof(float), clc_ref_aos,
                                    false}},
    /* x[n], y[n], z[n] laid end to end: the same buffer as aos, x first */
    {.name = "soa", .kernel = "soa", .plan = plan,
     .data = &(const struct layout){3, clc_ref_scale, false}},
    {.name = "aos_padded", .kernel = "aos_padded", .plan = plan,
     .data = &(const struct layout){sizeof(struct clc_padded) / sizeof(float),
                                    clc_ref_aos_padded, true}},
};

const struct clc_case clc_case_aos_soa = {
    .name = "aos_soa",
    .cl_file = "aos_soa.cl",
    .summary = "out[i] = x[i] * 2 with x a field of a record: array of structures vs "
               "structure of arrays, and a padded record",
    .variants_text = "aos (struct {float x, y, z}, 12-byte records), soa (x[n], y[n], z[n]), "
                     "aos_padded (struct {float f; double d}, 16-byte records, read f; needs "
                     "fp64, else skipped)",
    .bytes_rule = "2 x n x 4: the useful bytes (x read once, out written once), not the "
                  "records' bytes",
    .expect = "soa at the copy ceiling; aos near 1/2 of it (reads move 3x the useful bytes, "
              "writes don't); aos_padded lower still (4x on the reads) although its useful "
              "field is a single float",
    .types = CLC_FLOAT,
    .alloc_factor = 4,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
