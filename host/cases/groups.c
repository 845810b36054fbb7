/* groups.c - the same one-pass update in place, a[i] = a[i] * 2 + 1, in work-groups of 32 to
 * 1024 work-items: work-items that live for one load and one store keep fewer loads in
 * flight in groups too small for a compute unit to hold enough of them, or so large that
 * each waits for its slowest work-item before the next group starts.  The profile reads the
 * rows as the copy of one element per work-item by group size, and the model the matrix and
 * custom rows from them; the staged rows, through __local with a barrier between the loads
 * and the stores, as the copy of a kernel that stages one element a work-item (a tile of a
 * transpose); and the staged4 rows, four elements a work-item loaded before the barrier, as
 * the copy of a kernel that stages several (a tile transpose's rows). */
#include <string.h>

#include "clcoalesce/cases.h"

static const long group_sizes[] = {32, 64, 128, 256, 512, 1024};
#define N_SIZES (sizeof group_sizes / sizeof group_sizes[0])

/* The sizes the device launches. */
static size_t params(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)v;
    size_t n = 0;
    for (size_t i = 0; i < N_SIZES; i++)
        if ((size_t)group_sizes[i] <= e->dev->max_group)
            out[n++] = group_sizes[i];
    return n;
}

/* Elements a work-item takes: 4 in the staged4 rows (as cl/groups.cl's ITEMS), else 1. */
static size_t items_of(const char *kernel)
{
    return strcmp(kernel, "groups_staged4") == 0 ? 4 : 1;
}

/* One application of the map on fresh values; the staged rows take each whole chunk's
 * elements (a group's, times its work-items' elements) in mirrored order (the last chunk
 * short of a whole one keeps its own). */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    size_t n = c->plan->bufs[0].elems;
    size_t chunk = (size_t)c->plan->local[0] * items_of(c->plan->kernel);
    void *want = clc_check_want(c, r, n);
    if (want == NULL)
        return false;
    size_t mirrored =
        strncmp(c->plan->kernel, "groups_staged", 13) == 0 ? n / chunk * chunk : 0;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < n; i++) {
        size_t from = i < mirrored ? i - i % chunk + chunk - 1 - i % chunk : i;
        clc_put(want, i, c->type, clc_value(from) * 2 + 1);
    }
    bool ok = clc_check_values(r, c->got[0], want, n, c->type, 0);
    clc_host_put(want);
    return ok;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long group,
                struct clc_plan *p)
{
    unsigned a = clc_plan_buffer(p, "a", e->n, clc_env_es(e), CLC_INIT_VALUES);
    p->bufs[a].read_back = true;
    p->kernel = v->kernel;
    clc_plan_define(p, "-DGROUP=%ld", group);
    clc_plan_arg_buf(p, a);
    clc_plan_arg_u64(p, e->n);
    size_t items = items_of(v->kernel);
    clc_plan_1d(p, (e->n + items - 1) / items, (size_t)group);
    p->bytes = 2 * (uint64_t)e->n * clc_env_es(e);
    p->fresh_check = true;
    p->check = check;
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "inplace", .kernel = "groups", .params = params, .plan = plan},
    {.name = "staged", .kernel = "groups_staged", .params = params, .plan = plan},
    {.name = "staged4", .kernel = "groups_staged4", .params = params, .plan = plan},
};

const struct clc_case clc_case_groups = {
    .name = "groups",
    .cl_file = "groups.cl",
    .summary = "a[i] = a[i] * 2 + 1, one element per work-item (or 4), in work-groups of 32 to "
               "1024 work-items, straight or through __local",
    .variants_text = "inplace; staged (each group's elements in mirrored order through __local, "
                     "a barrier between the loads and the stores); param = work-items per group "
                     "(32, 64, 128, 256, 512, 1024; those the device launches); staged4 (the same "
                     "staged, 4 elements a work-item, all loaded before the barrier)",
    .bytes_rule = "2 x n x element size",
    .expect = "on a GPU fastest at 256: smaller groups cannot be started fast enough (groups "
              "of 32, 64 and 128 start at one rate, so the bandwidth doubles with each), larger "
              "ones hold their place until their slowest work-item is done; staged below inplace "
              "where the barrier holds a group's stores behind its slowest load; staged4 above "
              "staged, its group's fixed costs spread over 4 elements a work-item",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
