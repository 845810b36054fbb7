/* groups.c - the same one-pass update in place, a[i] = a[i] * 2 + 1, in work-groups of 32 to
 * 1024 work-items: work-items that live for one load and one store keep fewer loads in
 * flight in groups too small for a compute unit to hold enough of them, or so large that
 * each waits for its slowest work-item before the next group starts.  The profile reads the
 * rows as the copy of one element per work-item by group size, and the model the matrix and
 * custom rows from them; the staged rows, through __local with a barrier between the loads
 * and the stores, as the copy of a kernel that stages one element a work-item (a tile of a
 * transpose); the staged4 rows, four elements a work-item loaded before the barrier, as the
 * copy of a kernel that stages several (a tile transpose's rows); and the staged4_rows rows,
 * the same written as a tile transpose's loads are, as the copy of a kernel whose build
 * waits for each such load before the next. */
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
    return strncmp(kernel, "groups_staged4", 14) == 0 ? 4 : 1;
}

/* The staged4_rows rows see the array as a matrix of rows this wide (or one row of all of
 * it, where it is shorter), as wide as a transpose's of 1 GiB of floats; elements past its
 * last whole row are left as they are. */
#define ROW_ELEMS 16384

static size_t row_width(size_t n)
{
    return n < ROW_ELEMS ? n : ROW_ELEMS;
}

/* Where element i's new value comes from: in staged4_rows, mirrored inside its group's
 * piece of a row, where the row holds the whole piece; in the other staged rows, mirrored
 * inside its chunk (a group's elements, times its work-items'), where n holds the whole
 * chunk; in place otherwise. */
static size_t source_of(size_t i, size_t n, size_t group, const char *kernel)
{
    if (strcmp(kernel, "groups_staged4_rows") == 0) {
        size_t width = row_width(n), x = i % width, first = x - x % group;
        bool whole = i < n / width * width && first + group <= width;
        return whole ? i - x + first + group - 1 - (x - first) : i;
    }
    size_t chunk = group * items_of(kernel);
    bool mirrored = strncmp(kernel, "groups_staged", 13) == 0 && i < n / chunk * chunk;
    return mirrored ? i - i % chunk + chunk - 1 - i % chunk : i;
}

/* One application of the map on fresh values, each element's from source_of; staged4_rows
 * leaves the elements past its matrix as they were. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    size_t n = c->plan->bufs[0].elems, group = c->plan->local[0];
    const char *kernel = c->plan->kernel;
    size_t cells = strcmp(kernel, "groups_staged4_rows") == 0 ? n / row_width(n) * row_width(n)
                                                               : n;
    void *want = clc_check_want(c, r, n);
    if (want == NULL)
        return false;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < n; i++) {
        double v = clc_value(source_of(i, n, group, kernel));
        clc_put(want, i, c->type, i < cells ? v * 2 + 1 : v);
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
    size_t items = items_of(v->kernel), cells = e->n;
    if (strcmp(v->kernel, "groups_staged4_rows") == 0) {
        size_t width = row_width(e->n), height = e->n / width;
        clc_plan_arg_u64(p, width);
        clc_plan_arg_u64(p, height);
        clc_plan_2d(p, (width + group - 1) / group * group, (height + items - 1) / items,
                    (size_t)group, 1);
        cells = width * height;
    } else {
        clc_plan_arg_u64(p, e->n);
        clc_plan_1d(p, (e->n + items - 1) / items, (size_t)group);
    }
    p->bytes = 2 * (uint64_t)cells * clc_env_es(e);
    p->fresh_check = true;
    p->check = check;
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "inplace", .kernel = "groups", .params = params, .plan = plan},
    {.name = "staged", .kernel = "groups_staged", .params = params, .plan = plan},
    {.name = "staged4", .kernel = "groups_staged4", .params = params, .plan = plan},
    {.name = "staged4_rows", .kernel = "groups_staged4_rows", .params = params, .plan = plan},
};

const struct clc_case clc_case_groups = {
    .name = "groups",
    .cl_file = "groups.cl",
    .summary = "a[i] = a[i] * 2 + 1, one element per work-item (or 4), in work-groups of 32 to "
               "1024 work-items, straight or through __local",
    .variants_text = "inplace; staged (each group's elements in mirrored order through __local, "
                     "a barrier between the loads and the stores); param = work-items per group "
                     "(32, 64, 128, 256, 512, 1024; those the device launches); staged4 (the same "
                     "staged, 4 elements a work-item, all loaded before the barrier); "
                     "staged4_rows (staged4 over the array seen as rows 16384 elements wide, "
                     "each load behind a tile transpose's test of its column and row)",
    .bytes_rule = "2 x n x element size (staged4_rows: of its whole rows)",
    .expect = "on a GPU fastest at 256: smaller groups cannot be started fast enough (groups "
              "of 32, 64 and 128 start at one rate, so the bandwidth doubles with each), larger "
              "ones hold their place until their slowest work-item is done; staged below inplace "
              "where the barrier holds a group's stores behind its slowest load; staged4 above "
              "staged, its group's fixed costs spread over 4 elements a work-item; staged4_rows "
              "as staged4 where the compiler keeps the 4 loads in flight together, below it "
              "where it waits for each before the next",
    .types = CLC_FLOAT | CLC_DOUBLE,
    .alloc_factor = 1,
    .min_elems = 1,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
