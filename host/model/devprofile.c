/* devprofile.c - the device profile: the figures the predictive model reads, each taken from a
 * row of the cases that isolate one mechanism (latency, stream, inflight, groups, gridstride,
 * banks, stride, scatter, the vector case's fills), whether `clcoalesce profile` ran them or a suite
 * did; the profile as JSON and back. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/predict.h"

/* ------------------------------------------------------------------ rows */

#define CURVE_ROWS 256 /* inflight rows read, at most */

static const struct clc_result *row(const struct clc_report *rep, const char *c, const char *v,
                                    long param, enum clc_type t)
{
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && r->type == t && strcmp(r->case_name, c) == 0 &&
            strcmp(r->variant, v) == 0 && (param < 0 || (r->has_param && r->param == param)))
            return r;
    }
    return NULL;
}

static double value_of(const struct clc_result *r)
{
    return r != NULL ? r->value : NAN;
}

/* The latency plateaus: L1 at the smallest working set, L2 at the largest set of at most a
 * quarter of the L2 (well past L1, well inside L2), DRAM at the largest set when it is at
 * least twice the L2.  NAN where the sweep does not reach. */
static void latency_levels(const struct clc_report *rep, uint64_t l2, double out[3])
{
    out[0] = out[1] = out[2] = NAN;
    long first = -1, inside = -1, last = -1;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || strcmp(r->case_name, "latency") != 0)
            continue;
        uint64_t set = (uint64_t)r->param << 10;
        if (first < 0 || r->param < first)
            first = r->param;
        if (set >= ((uint64_t)1 << 20) && set <= l2 / 4 && r->param > inside)
            inside = r->param;
        if (r->param > last)
            last = r->param;
    }
    if (first >= 0)
        out[0] = value_of(row(rep, "latency", "chase", first, CLC_FLOAT));
    if (inside >= 0)
        out[1] = value_of(row(rep, "latency", "chase", inside, CLC_FLOAT));
    if (last >= 0 && l2 > 0 && ((uint64_t)last << 10) >= 2 * l2)
        out[2] = value_of(row(rep, "latency", "chase", last, CLC_FLOAT));
}

/* The L1's capacity from the latency sweep: the largest working set still read within 1.5 x
 * the smallest set's latency, where a larger set is read slower (the sweep left L1); NAN
 * when it never leaves L1 or has fewer than two sets. */
static double l1_capacity(const struct clc_report *rep)
{
    double first = NAN, at = NAN;
    long first_set = -1;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && strcmp(r->case_name, "latency") == 0 &&
            r->value > 0 && (first_set < 0 || r->param < first_set)) {
            first_set = r->param;
            first = r->value;
        }
    }
    bool left = false;
    long inside = -1;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || strcmp(r->case_name, "latency") != 0 || !(r->value > 0))
            continue;
        if (r->value <= 1.5 * first)
            inside = r->param > inside ? r->param : inside;
        else
            left = true;
    }
    if (inside > 0 && left)
        at = (double)((uint64_t)inside << 10);
    return at;
}

static int cmp_point(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

/* The inflight rows as a rising envelope (at each bytes-in-flight figure, the most read
 * bandwidth any row reached with at most that many bytes in flight), and as the grid they
 * are: param K loads per work-item, of a float4 (variants float4_*) or a float. */
static void inflight_curve(const struct clc_report *rep, struct clc_profile *p)
{
    double pts[CURVE_ROWS][2];
    size_t n = 0;
    p->n_grid = 0;
    for (size_t i = 0; i < rep->n_results && n < CURVE_ROWS; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && strcmp(r->case_name, "inflight") == 0 &&
            r->type == CLC_FLOAT && r->in_flight > 0 && r->gbps > 0) {
            pts[n][0] = r->in_flight;
            pts[n][1] = r->gbps;
            n++;
            if (r->has_param && r->param > 0 && p->n_grid < CLC_PROFILE_GRID) {
                double width = strncmp(r->variant, "float4", 6) == 0 ? 16 : 4;
                p->grid[p->n_grid++] = (struct clc_inflight_point){
                    r->in_flight / ((double)r->param * width), (double)r->param, width, r->gbps};
            }
        }
    }
    qsort(pts, n, sizeof pts[0], cmp_point);
    p->n_curve = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = p->n_curve;
        if (k > 0 && pts[i][1] <= p->curve_gbps[k - 1])
            continue; /* no better than fewer bytes in flight reached */
        if (k > 0 && pts[i][0] == p->curve_bytes[k - 1]) {
            p->curve_gbps[k - 1] = pts[i][1];
            continue;
        }
        if (k == CLC_PROFILE_CURVE)
            break;
        p->curve_bytes[k] = pts[i][0];
        p->curve_gbps[k] = pts[i][1];
        p->n_curve++;
    }
}

/* The element types of the rows the profile reads in pairs: [0] float (4-byte lanes), [1]
 * double (8-byte lanes). */
static const enum clc_type types[2] = {CLC_FLOAT, CLC_DOUBLE};

/* A groups row starting at least this fraction of the highest group rate is bound by it. */
#define AT_GROUP_RATE 0.9

/* The work-groups per second a row of the groups case started (each row counts each
 * element's bytes twice, read and written); NAN for any other row. */
static double group_rate(const struct clc_result *r)
{
    bool mine = r != NULL && r->status == CLC_STATUS_OK && strcmp(r->case_name, "groups") == 0 &&
                r->has_param && r->param > 0 && clc_type_size(r->type) > 0;
    double items = mine && strcmp(r->variant, "staged4") == 0 ? CLC_PROFILE_STAGED_ITEMS : 1;
    return mine ? r->value * 1e9 / (2.0 * clc_type_size(r->type)) / (double)r->param / items
                : NAN;
}

/* The profile's one-pass copies of a form, by lane size and group size. */
static double (*one_pass_table(struct clc_profile *p, int form))[CLC_PROFILE_GROUPS]
{
    return form == CLC_ONE_PASS_STAGED4 ? p->one_pass_staged4
           : form == CLC_ONE_PASS_STAGED ? p->one_pass_staged
                                         : p->one_pass;
}

/* The groups case's variant of each form. */
static const char *const form_variant[] = {"inplace", "staged", "staged4"};

/* The most work-groups per second any row of the groups case started: its smallest groups
 * of work-items that load, store and leave, which the device cannot start fast enough to
 * keep its memory busy. */
static double groups_per_s(const struct clc_report *rep)
{
    double most = NAN;
    for (size_t i = 0; i < rep->n_results; i++) {
        double rate = group_rate(&rep->results[i]);
        if (rate > 0 && !(rate <= most))
            most = rate;
    }
    return most;
}

/* The copies of one element per work-item (a float and a double: 4- and 8-byte lanes) as
 * fractions of the copy ceiling, by work-group size.  Their work-items load once, store and
 * leave, and new ones load while those stores drain: they reach more than the inflight
 * loops, which only load, with the same bytes in flight; but a group's place frees only when
 * its last work-item is done.  A row that started its groups at (nearly) the highest rate
 * measured them, not the copy: groups_per_s holds it, and it is left out here.  A run
 * without the groups case (one made before it) gives groups of 256 from the stride case's
 * stride 1, the same copy. */
static void one_pass(const struct clc_report *rep, struct clc_profile *p)
{
    for (int form = 0; form < CLC_ONE_PASS_FORMS; form++)
        for (int i = 0; i < 2; i++)
            for (int g = 0; g < CLC_PROFILE_GROUPS; g++) {
                const struct clc_result *r =
                    row(rep, "groups", form_variant[form], 32L << g, types[i]);
                if (group_rate(r) >= AT_GROUP_RATE * p->groups_per_s)
                    continue;
                if (r == NULL && form == CLC_ONE_PASS_STRAIGHT && g == CLC_PROFILE_ONE_PASS_GROUP)
                    r = row(rep, "stride", "inplace", 1, types[i]);
                double v = value_of(r);
                one_pass_table(p, form)[i][g] = v > 0 && p->copy_gbps > 0 ? v / p->copy_gbps : NAN;
            }
}

/* The most GB/s any measured row of a case's variant reached, whatever its param, among the
 * element types in `types` (a mask of enum clc_type) and, given `keep`, the rows it keeps;
 * NAN without one. */
static double fastest_kept_row(const struct clc_report *rep, const char *case_name,
                               const char *variant, unsigned types,
                               bool (*keep)(const struct clc_result *))
{
    double best = NAN;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && (r->type & types) != 0 &&
            strcmp(r->case_name, case_name) == 0 && strcmp(r->variant, variant) == 0 &&
            r->value > 0 && !(r->value <= best) && (keep == NULL || keep(r)))
            best = r->value;
    }
    return best;
}

static double fastest_row(const struct clc_report *rep, const char *case_name,
                          const char *variant, unsigned types)
{
    return fastest_kept_row(rep, case_name, variant, types, NULL);
}

/* The gridstride case's grid-stride rows (floats): the fastest, whose grid fills the device
 * and whose work-items copy element after element, none started again, as a fraction of the
 * copy ceiling; NAN without them. */
static double long_copy(const struct clc_report *rep, double copy_gbps)
{
    double best = fastest_row(rep, "gridstride", "gridstride", CLC_FLOAT);
    return copy_gbps > 0 ? best / copy_gbps : NAN;
}

/* Whether a row's build, as its trace found, waits for a load before it issues the next
 * (compiled_loads below its loads in flight). */
static bool waits_for_loads(const struct clc_result *r)
{
    const struct clc_model_features *f = &r->model.features;
    return f->compiled_loads >= 1 && f->compiled_loads < f->loads_in_flight;
}

/* The transpose case's tiled_held rows (floats, doubles), whose work-items load their 4
 * elements straight into the tile under a guard, which NVIDIA's OpenCL compiler branches
 * around, so each load waits for the one before: the fastest whose build waits so (a build
 * that keeps them in flight together, as CUDA's, measures no waiting), over the fastest
 * tiled_padded row, the same tile loaded into registers first.  Against the copy ceiling
 * the held tile would count the DRAM cost of its transposed rows, which the model finds
 * apart. */
static void held_tile(const struct clc_report *rep, struct clc_profile *p)
{
    for (int i = 0; i < 2; i++)
        p->held_tile[i] =
            fastest_kept_row(rep, "transpose", "tiled_held", types[i], waits_for_loads) /
            fastest_row(rep, "transpose", "tiled_padded", types[i]);
}

/* The scatter case's variant `variant` (param: -1, or its teams' warps), one line per lane:
 * line requests per second, the more of its fp32 and fp64 rows (each element its own line,
 * whatever its size: a row that DRAM or the L2's bytes slow, as the fp64 loads, only caps
 * the rate), from rows that count `counted` times each element's bytes (a load row its
 * coalesced stores too). */
static double lines_per_s(const struct clc_report *rep, const char *variant, long param,
                          double counted)
{
    double best = NAN;
    for (int i = 0; i < 2; i++) {
        double v = value_of(row(rep, "scatter", variant, param, types[i])) * 1e9 /
                   (counted * (double)clc_type_size(types[i]));
        if (v > 0 && !(v <= best))
            best = v;
    }
    return best;
}

/* The l2 case's rows of `variant` (read: loads, write: stores): the most sectors a second
 * any of them moved, each row's bytes as whole sectors (a read's few sums among them), of
 * float and double and every window: a row below the L2's rate only caps it (a window the
 * L2 holds less well, a CPU's cache). */
static double l2_rate(const struct clc_report *rep, const char *variant)
{
    return fastest_row(rep, "l2", variant, CLC_FLOAT | CLC_DOUBLE) * 1e9 / CLC_MODEL_SECTOR;
}

/* The vector case's fills of 32- and 64-byte lanes, in GB/s stored. */
static void split_stores(const struct clc_report *rep, struct clc_profile *p)
{
    static const char *const fills[2] = {"fill_float8", "fill_float16"};
    for (int i = 0; i < 2; i++)
        p->split_gbps[i] = value_of(row(rep, "vector", fills[i], -1, CLC_FLOAT));
}

/* The scatter case's store_steps rows (and store_steps_wide's, into wide): lane l of each
 * warp fills its own line, 2^c elements of it, one a step with a coalesced load before
 * each.  Each element moves its bytes twice (loaded, stored) and stores elem / 32 of a
 * sector: 64 useful bytes a stored sector, which the row of 2^c steps takes 64 (1 / v_c -
 * 1 / v_0) longer than the narrow row of one (GB/s: ns a byte), whose lines close at once
 * in either layout.  Where the L2 holds the lines open, nothing (a row a little faster than
 * the first: none). */
static void refills(const struct clc_report *rep, const char *variant,
                    double ps[2][CLC_PROFILE_STEPS])
{
    for (int i = 0; i < 2; i++) {
        double one = value_of(row(rep, "scatter", "store_steps", 1, types[i]));
        for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
            double v = value_of(row(rep, "scatter", variant, 1L << c, types[i]));
            ps[i][c] = one > 0 && v > 0 ? fmax(0, 64e3 * (1 / v - 1 / one)) : NAN;
        }
    }
}

bool clc_profile_has_wide_refills(const struct clc_profile *p, double elem)
{
    return p->refill_wide_ps[elem > 6][1] >= 0;
}

double clc_profile_refill_ps(const struct clc_profile *p, double elem, double window, bool wide)
{
    unsigned t = elem > 6;
    const double *ps = wide && clc_profile_has_wide_refills(p, elem) ? p->refill_wide_ps[t]
                                                                      : p->refill_ps[t];
    double es = t ? 8 : 4, w0 = NAN, v0 = NAN;
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        double w = clc_profile_refill_window(c, es), v = ps[c];
        if (!(v >= 0))
            continue;
        if (w >= window)
            return v0 >= 0 ? v0 + (v - v0) * (window - w0) / (w - w0) : v;
        w0 = w;
        v0 = v;
    }
    return v0;
}

/* The runs case's rows that store runs: each work-item stores a run of k elements of e
 * bytes an element a request, back to back, lanes k e bytes apart.  A request touches L =
 * k e / 4 lines (1 to 32) and writes min(32, k e) sectors in part, each of which n = min(k,
 * 32 / e) requests of the warp write in turn.  Alone, a byte it stores would cost (L line_ps
 * + P partial_ps) / (32 e) (clc_profile_store_costs); the row's time over that is m.  Of
 * each sector's n requests the first costs in full and the n - 1 after it a factor f each,
 * m = (1 + (n - 1) f) / n.  A row that something else bounds (DRAM, the L2's loads) only
 * caps f, so each class of L takes the least f of its rows of that kind, float and double:
 * [0] the copies and the fills (the stores alone), [1] the runs stored from __local, [2] and
 * [3] the same with a test before each store (store_apart, local_apart), which keeps the
 * run's stores apart, where they otherwise come back to back and merge the more: on an H200,
 * runs of 4 floats from __local stored at 4139 GB/s back to back, 1685 with every access
 * tested (bench/results/h100/validation/stores-apart/). */
static void store_merging(const struct clc_report *rep, struct clc_profile *p)
{
    /* the copies count a byte read beside each byte stored, the fills only it */
    static const struct {
        const char *variant;
        double counted;
        int table;
    } kinds[] = {{"store", 2, 0},       {"fill", 1, 0},        {"local", 2, 1},
                 {"store_apart", 2, 2}, {"local_apart", 2, 3}};
    double line_ps, partial_ps;
    if (!clc_profile_store_costs(p->store_lines_per_s, p->split_gbps[0], &line_ps, &partial_ps))
        return;
    for (size_t i = 0; i < 2 * sizeof kinds / sizeof kinds[0]; i++)
        for (long k = 2; k <= 32; k *= 2) {
            enum clc_type type = types[i % 2];
            double gbps = value_of(row(rep, "runs", kinds[i / 2].variant, k, type));
            double e = (double)clc_type_size(type), ke = (double)k * e;
            double lines = fmin(32, ke / 4), partial = fmin(32, ke), n = fmin((double)k, 32 / e);
            if (!(gbps > 0) || lines < 2 || n < 2)
                continue;
            double alone = (lines * line_ps + partial * partial_ps) / (32 * e);
            double m = kinds[i / 2].counted * 1e3 / gbps / alone; /* ps a byte stored */
            double f = fmin(1.0, fmax(0.0, (m * n - 1) / (n - 1)));
            double *at = &p->store_merge[kinds[i / 2].table][(unsigned)lround(log2(lines)) - 1];
            *at = *at >= 0 ? fmin(*at, f) : f;
        }
}

double clc_profile_split_gbps(const struct clc_profile *p, double lane)
{
    if (!(lane > CLC_MODEL_WIDEST))
        return NAN;
    double v = p->split_gbps[lane <= 32 ? 0 : 1];
    return v > 0 ? v : NAN;
}

/* v's place between lo and hi in log scale, 0 .. 1 (0 when they are one). */
static double log_place(double v, double lo, double hi)
{
    return hi > lo ? log(v / lo) / log(hi / lo) : 0;
}

/* A figure at lanes of `lane` bytes from its float (4) and double (8) values, in log scale
 * between them, the nearer one outside. */
static double by_lane(double four, double eight, double lane)
{
    return four + log_place(fmin(fmax(lane, 4), 8), 4, 8) * (eight - four);
}

double clc_profile_inflight_gbps(const struct clc_profile *p, double bytes)
{
    if (p->n_curve == 0 || !(bytes > 0))
        return NAN;
    if (bytes <= p->curve_bytes[0])
        return p->curve_gbps[0] * bytes / p->curve_bytes[0]; /* Little's law below the curve */
    for (size_t i = 1; i < p->n_curve; i++)
        if (bytes <= p->curve_bytes[i]) {
            double t = log_place(bytes, p->curve_bytes[i - 1], p->curve_bytes[i]);
            return p->curve_gbps[i - 1] + t * (p->curve_gbps[i] - p->curve_gbps[i - 1]);
        }
    return p->curve_gbps[p->n_curve - 1];
}

/* The grid's values of one coordinate (offset: loads or width) nearest below and above v,
 * each v's own where the grid has no value beyond it; false without a grid. */
static bool bracket(const struct clc_profile *p, size_t offset, double v, double *lo, double *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    double least = INFINITY, most = -INFINITY;
    for (size_t i = 0; i < p->n_grid; i++) {
        double g = *(const double *)((const char *)&p->grid[i] + offset);
        least = fmin(least, g);
        most = fmax(most, g);
        if (g <= v && g > *lo)
            *lo = g;
        if (g >= v && g < *hi)
            *hi = g;
    }
    if (p->n_grid == 0)
        return false;
    if (!isfinite(*lo))
        *lo = *hi = least;
    if (!isfinite(*hi))
        *lo = *hi = most;
    return true;
}

/* The grid's bandwidth with `items` work-items per compute unit along its points of `loads`
 * and `width`; NAN when it has none.  Outside the work-items measured, in proportion to them
 * (Little's law), up to the most the grid reached. */
static double along_items(const struct clc_profile *p, double loads, double width, double items)
{
    double below = 0, below_gbps = NAN, above = INFINITY, above_gbps = NAN;
    double least = INFINITY, least_gbps = NAN, most = 0;
    for (size_t i = 0; i < p->n_grid; i++) {
        const struct clc_inflight_point *g = &p->grid[i];
        most = fmax(most, g->gbps);
        if (g->loads != loads || g->width != width)
            continue;
        if (g->items < least) {
            least = g->items;
            least_gbps = g->gbps;
        }
        if (g->items <= items && g->items > below) {
            below = g->items;
            below_gbps = g->gbps;
        }
        if (g->items >= items && g->items < above) {
            above = g->items;
            above_gbps = g->gbps;
        }
    }
    if (!isfinite(least))
        return NAN;
    if (!(below > 0))
        return least_gbps * items / least;
    if (!isfinite(above))
        return fmin(below_gbps * items / below, most);
    return below_gbps + log_place(items, below, above) * (above_gbps - below_gbps);
}

double clc_profile_inflight_at(const struct clc_profile *p, double items, double loads,
                               double width)
{
    double k0, k1, w0, w1;
    if (!(items > 0 && loads > 0 && width > 0) ||
        !bracket(p, offsetof(struct clc_inflight_point, loads), loads, &k0, &k1) ||
        !bracket(p, offsetof(struct clc_inflight_point, width), width, &w0, &w1))
        return NAN;
    double tk = log_place(fmin(fmax(loads, k0), k1), k0, k1);
    double tw = log_place(fmin(fmax(width, w0), w1), w0, w1);
    double at[2];
    for (int j = 0; j < 2; j++) {
        double w = j ? w1 : w0;
        double a = along_items(p, k0, w, items), b = along_items(p, k1, w, items);
        at[j] = a + tk * (b - a);
    }
    return at[0] + tw * (at[1] - at[0]);
}

/* A figure measured by classes of powers of two, class c standing for first << c (NAN: not
 * measured), at x: in log scale (linear: in x itself) between the nearest classes measured on
 * either side, the nearest one where x lies outside them; NAN where none was measured. */
static double by_powers_at(const double *v, unsigned n, double first, double x, bool linear)
{
    int below = -1, above = -1;
    for (int c = 0; c < (int)n; c++) {
        if (!(v[c] >= 0))
            continue;
        double at = first * (double)(1u << c);
        if (at <= x)
            below = c;
        if (at >= x && above < 0)
            above = c;
    }
    if (below < 0 || above < 0 || below == above)
        return below >= 0 ? v[below] : above >= 0 ? v[above] : NAN;
    double lo = first * (1u << below), hi = first * (1u << above);
    double t = linear ? (x - lo) / (hi - lo) : log_place(x, lo, hi);
    return v[below] + t * (v[above] - v[below]);
}

double clc_profile_shared_store_ps(const struct clc_profile *p, double elem, double lines,
                                   double sectors)
{
    double by_lines[CLC_PROFILE_MERGE];
    for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++) /* 8, 16, 32 sectors: linear in them */
        by_lines[c] = by_powers_at(p->shared_ps[elem > 4][c], CLC_PROFILE_SHARED, 8, sectors, true);
    return by_powers_at(by_lines, CLC_PROFILE_MERGE, 2, lines, false); /* 2 .. 32 lines */
}

/* One lane size's copies at `group` work-items, by the group sizes measured (a copy that
 * ran reached more than nothing of the ceiling). */
static double one_pass_at(const double *by_group, double group)
{
    double ran[CLC_PROFILE_GROUPS];
    for (int g = 0; g < CLC_PROFILE_GROUPS; g++)
        ran[g] = by_group[g] > 0 ? by_group[g] : NAN;
    return by_powers_at(ran, CLC_PROFILE_GROUPS, 32, group, false);
}

double clc_profile_merge(const struct clc_profile *p, double lines, unsigned table)
{
    return lines > 0 ? by_powers_at(p->store_merge[table % CLC_PROFILE_MERGE_TABLES],
                                    CLC_PROFILE_MERGE,
                                    clc_profile_merge_lines(0), lines, false)
                     : NAN;
}

double clc_profile_one_pass(const struct clc_profile *p, double lane, double group,
                            enum clc_one_pass_form form)
{
    if (!(group > 0))
        group = 32 << CLC_PROFILE_ONE_PASS_GROUP;
    const double(*by)[CLC_PROFILE_GROUPS] = one_pass_table((struct clc_profile *)p, form);
    double four = one_pass_at(by[0], group), eight = one_pass_at(by[1], group);
    return four > 0 && eight > 0 && lane > 0 ? by_lane(four, eight, lane) : NAN;
}

double clc_profile_long_copy(const struct clc_profile *p, double one, double elements)
{
    double one256 = clc_profile_one_pass(p, 4, 32 << CLC_PROFILE_ONE_PASS_GROUP,
                                         CLC_ONE_PASS_STRAIGHT);
    double a = 1 / one256 - 1 / p->long_copy, b = 1 / one - a;
    if (!(elements > 1) || !(a > 0) || !(b > 0))
        return one;
    return elements / (a + b * elements);
}

/* The held tile transpose's work-groups: 32 x 8 work-items (cl/transpose.cl). */
#define HELD_TILE_GROUP 256

/* What waiting costs the held tile transpose at lanes of `lane` bytes, in log scale between
 * the float (4) and double (8) rows; the float rows alone for 4-byte lanes or fewer where no
 * double ran; NAN otherwise. */
static double held_tile_at(const struct clc_profile *p, double lane)
{
    double four = p->held_tile[0], eight = p->held_tile[1];
    if (four > 0 && eight > 0 && lane > 0)
        return by_lane(four, eight, lane);
    return four > 0 && lane > 0 && lane <= 4 ? four : NAN;
}

/* The time per element b of a staged copy whose loads wait one by one, from the held tile
 * in its own groups: its k loads reach the staged copy of k's rate times what waiting costs
 * the tile, k / fk = a + b k with a + b from the staged copy of one element there; NAN
 * without those figures. */
static double held_tile_b(const struct clc_profile *p, double lane)
{
    double k = CLC_PROFILE_STAGED_ITEMS;
    double fk = held_tile_at(p, lane) *
                clc_profile_one_pass(p, lane, HELD_TILE_GROUP, CLC_ONE_PASS_STAGED4);
    double f1 = clc_profile_one_pass(p, lane, HELD_TILE_GROUP, CLC_ONE_PASS_STAGED);
    return fk > 0 && f1 > 0 ? (k / fk - 1 / f1) / (k - 1) : NAN;
}

double clc_profile_staged(const struct clc_profile *p, double lane, double group, double loads,
                          bool held)
{
    double f1 = clc_profile_one_pass(p, lane, group, CLC_ONE_PASS_STAGED);
    if (!(f1 > 0 && loads > 0))
        return NAN;
    double b; /* 1 / f1 = a + b, k / fk = a + b k */
    if (held) { /* the held tile's b, else 1 / b: the straight copy, which holds one load at
                 * a time and no barrier */
        b = held_tile_b(p, lane);
        double fs = clc_profile_one_pass(p, lane, group, CLC_ONE_PASS_STRAIGHT);
        if (isnan(b)) /* no held tile in the profile */
            b = fs > 0 && fs >= f1 ? 1 / fs : NAN;
    } else {
        double fk = clc_profile_one_pass(p, lane, group, CLC_ONE_PASS_STAGED4);
        double k = CLC_PROFILE_STAGED_ITEMS;
        b = fk > 0 ? (k / fk - 1 / f1) / (k - 1) : NAN;
    }
    double a = 1 / f1 - b;
    return b > 0 && a + b * loads > 0 ? loads / (a + b * loads) : NAN;
}

/* The fewest bytes in flight per compute unit that reach `frac` of the read ceiling, on the
 * envelope; NAN when none reaches it. */
static double inflight_for(const struct clc_profile *p, double frac)
{
    double want = frac * p->read_gbps;
    for (size_t i = 0; i < p->n_curve; i++) {
        if (p->curve_gbps[i] < want)
            continue;
        if (i == 0)
            return p->curve_bytes[0];
        double t = (want - p->curve_gbps[i - 1]) / (p->curve_gbps[i] - p->curve_gbps[i - 1]);
        return exp(log(p->curve_bytes[i - 1]) +
                   t * (log(p->curve_bytes[i]) - log(p->curve_bytes[i - 1])));
    }
    return NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the n figures at v (sorted in place); NAN for none. */
static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The stores case's rows whose pieces write part of a sector (lanes1 .. lanes4 where a
 * piece is under 32 bytes and pieces do not touch): a request of 32 / w pieces of w elements
 * a pitch apart touches 32 / w lines at a pitch of a line or more, else as many as its span
 * fills, and writes one sector in part a piece at a pitch of a sector or more, else as many
 * as its span fills.  Each class of lines and sectors takes the median of its rows' time per
 * request (a row's 32 elements). */
#define SHARED_ROWS 16
static void shared_stores(const struct clc_report *rep, struct clc_profile *p)
{
    static const char *const lanes[] = {"lanes1", "lanes2", "lanes4"};
    for (int t = 0; t < 2; t++) {
        double cell[CLC_PROFILE_MERGE][CLC_PROFILE_SHARED][SHARED_ROWS];
        size_t n[CLC_PROFILE_MERGE][CLC_PROFILE_SHARED] = {{0}};
        double es = (double)clc_type_size(types[t]);
        for (unsigned v = 0; v < 3; v++)
            for (long pitch = 2L << v; pitch <= 16384; pitch *= 2) {
                double w = (double)(1 << v), piece = w * es, gap = (double)pitch * es;
                double pieces = 32 / w, span = pieces * gap;
                double lines = gap >= 128 ? pieces : span / 128;
                double sectors = gap >= 32 ? pieces : span / 32;
                double gbps = value_of(row(rep, "stores", lanes[v], pitch, types[t]));
                int c = (int)lround(log2(lines)) - 1, k = (int)lround(log2(sectors)) - 3;
                if (!(gbps > 0) || piece >= 32 || c < 0 || c >= CLC_PROFILE_MERGE || k < 0 ||
                    k >= CLC_PROFILE_SHARED || n[c][k] == SHARED_ROWS)
                    continue;
                cell[c][k][n[c][k]++] = 32 * es * 1e3 / gbps;
            }
        for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
            for (unsigned k = 0; k < CLC_PROFILE_SHARED; k++)
                p->shared_ps[t][c][k] = median(cell[c][k], n[c][k]);
    }
}

/* Whether the banks rows show conflicts at all.  By the gcd law every odd stride takes one
 * pass and every even one at least two, so the odd strides' median bandwidth stands well
 * above the even strides' (2.3 x on an H100); a difference within the rows' own spread is
 * noise (a CPU, which has no banks, measures the same thing at every stride, and a lone
 * stride 2 row can come out 1.5 x slower by chance).  True where the rows lack either side. */
static bool banks_conflict(const struct clc_report *rep, double spread)
{
    double odd[64], even[64];
    size_t n_odd = 0, n_even = 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || r->type != CLC_FLOAT || !r->has_param ||
            r->param < 1 || !(r->value > 0) || strcmp(r->case_name, "banks") != 0 ||
            strcmp(r->variant, "stride") != 0)
            continue;
        if (r->param % 2 && n_odd < 64)
            odd[n_odd++] = r->value;
        else if (r->param % 2 == 0 && n_even < 64)
            even[n_even++] = r->value;
    }
    if (n_odd == 0 || n_even == 0)
        return true;
    double m = isfinite(spread) ? spread : 0;
    return median(odd, n_odd) >= 4.0 / 3.0 * (1 + m) * median(even, n_even);
}

/* The banks: with 32 banks of 4 bytes, words s apart cost gcd(s, 32) passes.  The count is
 * the largest power of two s (2 .. 32) at which stride s runs at most 1.5 / s of stride 1's
 * bandwidth; 0 when no stride conflicts (a CPU), or the rows show none beyond their spread. */
static int bank_count(const struct clc_report *rep, double spread)
{
    double one = value_of(row(rep, "banks", "stride", 1, CLC_FLOAT));
    int count = 0;
    if (!banks_conflict(rep, spread))
        return 0;
    for (int s = 2; s <= 32; s *= 2) {
        double v = value_of(row(rep, "banks", "stride", s, CLC_FLOAT));
        if (one > 0 && v > 0 && one / v >= s / 1.5)
            count = s;
    }
    return count;
}

/* The local memory's cost per warp request and per pass, device-wide: stride 1 takes one
 * pass per request, stride `banks` one per lane; each request of the banks case counts 32
 * lanes of 4 bytes.  A request costs a little besides its passes (its instructions). */
static void local_costs(const struct clc_report *rep, struct clc_profile *p)
{
    p->local_request_ps = p->local_pass_ps = NAN;
    double one = value_of(row(rep, "banks", "stride", 1, CLC_FLOAT));
    double all = value_of(row(rep, "banks", "stride", p->banks, CLC_FLOAT));
    if (p->banks < 2 || !(one > 0) || !(all > 0))
        return;
    double t1 = 128.0 / one * 1e3, tb = 128.0 / all * 1e3; /* picoseconds per request */
    p->local_pass_ps = (tb - t1) / (p->banks - 1);
    p->local_request_ps = t1 - p->local_pass_ps;
    if (p->local_request_ps < 0) {
        p->local_request_ps = 0;
        p->local_pass_ps = tb / p->banks;
    }
}

/* ------------------------------------------------------------------ DRAM granules */

/* Seconds per element of row r, which counts an element of es bytes loaded and one stored
 * (2 x es bytes) per element; NAN where it did not run. */
static double elem_time(const struct clc_result *r, unsigned es)
{
    return r != NULL && r->ms_median > 0 && r->bytes > 0
               ? r->ms_median * 1e-3 / ((double)r->bytes / (2.0 * es))
               : NAN;
}

/* DRAM's efficiency for the loads of a row that, per element, reads m bytes at that
 * efficiency and stores es bytes streamed in t seconds: at the copy ceiling that takes
 * (m / e + es) / copy, so e = m / (t x copy - es); NAN where that is not positive. */
static double load_eff(double t, double m, unsigned es, double copy)
{
    double left = t * copy * 1e9 - es;
    return left > 0 ? m / left : NAN;
}

/* Seconds per element of the stride case's row of `variant` with sb bytes between elements
 * in elements of es bytes; NAN where it did not run. */
static double stride_row_time(const struct clc_report *rep, const char *variant, unsigned sb,
                              unsigned es)
{
    return sb % es ? NAN
                   : elem_time(row(rep, "stride", variant, sb / es,
                                   es == 4 ? CLC_FLOAT : CLC_DOUBLE), es);
}

/* Seconds per element of the stride row with sb bytes between elements, of either type
 * (their mean where both ran); NAN when neither did. */
static double stride_time(const struct clc_report *rep, unsigned sb)
{
    double sum = 0;
    int n = 0;
    for (unsigned es = 4; es <= 8; es *= 2) {
        double t = stride_row_time(rep, "inplace", sb, es);
        if (t > 0) {
            sum += t;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* DRAM's efficiency, one direction at a time, at sb bytes between elements: the load rows
 * read m = min(sb, g) at the gap and store an element streamed (load_eff); the inplace rows
 * read the same and store m at the gap, so their time less the load rows' is the stores'
 * alone: (t_inplace - t_load) x copy + es = m / e_store.  The mean over the types where the
 * rows ran; NAN where none did. */
static double dir_eff(const struct clc_report *rep, unsigned dir, unsigned sb, unsigned g,
                      double copy)
{
    double m = sb < g ? sb : g, sum = 0;
    int n = 0;
    for (unsigned es = 4; es <= 8; es *= 2) {
        double ld = stride_row_time(rep, "load", sb, es), e = NAN;
        if (dir == 0)
            e = load_eff(ld, m, es, copy);
        else {
            double in = stride_row_time(rep, "inplace", sb, es);
            double left = (in - ld) * copy * 1e9 + es;
            e = ld > 0 && in > 0 && left > 0 ? m / left : NAN;
        }
        if (e > 0) {
            sum += e;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* The efficiency of a stride row against the granule model: its DRAM bytes per element
 * (a load and a store of min(sb, G) each, as predict.c charges them) at the copy ceiling,
 * over its time. */
static double stride_eff(const struct clc_report *rep, unsigned sb, unsigned g, double copy)
{
    double t = stride_time(rep, sb);
    double bytes = 2.0 * (sb < g ? sb : g);
    return bytes / (copy * 1e9) / t;
}

/* DRAM's efficiency for granules at random addresses, as the gap classes' (relative to
 * adjacent granules, e0, the loads' where their rows ran): the scatter case's random load
 * moves a lone granule of g bytes and stores an element, streamed, per element (load_eff).
 * The mean of its fp32 and fp64 rows; NAN where neither ran. */
static double random_eff(const struct clc_report *rep, unsigned g, double copy, double e0)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < 2; i++) {
        unsigned es = (unsigned)clc_type_size(types[i]);
        double e = load_eff(elem_time(row(rep, "scatter", "random", -1, types[i]), es), g, es,
                            copy);
        if (e > 0) {
            sum += e / e0;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* An efficiency e read off two rows: 1 where its loss lies within the rows' spread. */
static double past_spread(double e, double spread)
{
    return isfinite(spread) && e * (1 + spread) >= 1 ? 1 : e;
}

/* DRAM's efficiency for stores bunched in windows that the work-groups a row of tiles later
 * fill, as the gap classes': the scatter case's tile_blocks (variant) copies the tiles its
 * tiles copy, each stored whole at the transposed tile's place, so the loads stream alike and
 * the time it takes more is its stores' (a copy's stores move half the bytes: t_tiles /
 * t_blocks = 2 / (1 + 1 / e)); for loads bunched so, its tile_loads, each tile loaded from
 * there.  A loss within the rows' spread is none; the mean of fp32 and fp64, NAN where
 * neither ran. */
static double bunched_eff(const struct clc_report *rep, const char *variant, double spread)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < 2; i++) {
        double in_place = value_of(row(rep, "scatter", "tiles", -1, types[i]));
        double blocks = value_of(row(rep, "scatter", variant, -1, types[i]));
        if (!(in_place > 0) || !(blocks > 0))
            continue;
        double ratio = blocks / in_place, e = ratio < 2 ? 1 / (2 / ratio - 1) : 1;
        sum += fmin(past_spread(e, spread), 1.0);
        n++;
    }
    return n ? sum / n : NAN;
}

/* The gaps the stride rows measure: 1, 2, 4 and 8 granules. */
#define GAPS_MEASURED 4

/* Each gap class's efficiency (model.h) from raw[k], the efficiency 2^k granules apart, over
 * raw[0] (adjacent granules): in log scale between the gaps measured; a loss within the
 * rows' spread is none; farther than the rows reach, as the farthest they do.  NAN every
 * class where raw[0] is unknown. */
static void gap_classes(const struct clc_profile *p, const double raw[GAPS_MEASURED],
                        double out[CLC_MODEL_GAPS])
{
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        out[c] = NAN;
    if (!(raw[0] > 0))
        return;
    double eff[GAPS_MEASURED] = {1.0};
    for (unsigned k = 1; k < GAPS_MEASURED; k++) {
        double e = past_spread(raw[k] / raw[0], p->spread);
        eff[k] = e > 0 ? fmin(e, 1.0) : eff[k - 1];
    }
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++) {
        double at = fmin(log2(clc_model_gap(c)), GAPS_MEASURED - 1);
        unsigned k = (unsigned)at < GAPS_MEASURED - 1 ? (unsigned)at : GAPS_MEASURED - 2;
        out[c] = eff[k] + (at - k) * (eff[k + 1] - eff[k]);
    }
}

/* The granule: at stride 64 bytes a 32-byte granule reads half of what stride 32 bytes
 * reads, a larger one the same per element, so the time per element doubles from 32 to 64
 * bytes only with granules of 64 bytes or more (and again from 64 to 128 with 128).  Then
 * the efficiency of granules 2, 4 and 8 granules apart, relative to adjacent ones, each gap
 * class's (model.h) read off them, in log scale between the gaps measured. */
static void granules(const struct clc_report *rep, struct clc_profile *p)
{
    double t32 = stride_time(rep, 32), t64 = stride_time(rep, 64), t128 = stride_time(rep, 128);
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        p->gap_eff[c] = p->gap_eff_dir[0][c] = p->gap_eff_dir[1][c] = NAN;
    p->random_eff = NAN;
    if (!(t32 > 0 && t64 > 0) || !(p->copy_gbps > 0))
        return;
    unsigned g = t64 / t32 < 1.4 ? 32 : t128 > 0 && t128 / t64 > 1.8 ? 128 : 64;
    p->granule = g;
    double e0 = stride_eff(rep, g, g, p->copy_gbps);
    if (!(e0 > 0))
        return;
    double raw[GAPS_MEASURED];
    for (unsigned k = 0; k < GAPS_MEASURED; k++)
        raw[k] = stride_eff(rep, (1u << k) * g, g, p->copy_gbps);
    gap_classes(p, raw, p->gap_eff);
    /* each direction apart, where the load rows ran */
    for (unsigned dir = 0; dir < 2; dir++) {
        for (unsigned k = 0; k < GAPS_MEASURED; k++)
            raw[k] = dir_eff(rep, dir, (1u << k) * g, g, p->copy_gbps);
        gap_classes(p, raw, p->gap_eff_dir[dir]);
    }
    double e0_load = dir_eff(rep, 0, g, g, p->copy_gbps);
    p->random_eff = random_eff(rep, g, p->copy_gbps, e0_load > 0 ? e0_load : e0);
}

/* Fused multiply-adds per second in type t: the fma case's flops (two an FMA) over its
 * median time; NAN without its row. */
static double fma_rate(const struct clc_report *rep, enum clc_type t)
{
    const struct clc_result *r = row(rep, "fma", "chains", -1, t);
    return r != NULL && r->flops > 0 && r->ms_median > 0 ? r->flops / 2 / (r->ms_median * 1e-3)
                                                         : NAN;
}

/* Integer work, from the indexmath case's rows: the cost of a unit from its shift and mad
 * rounds, of a division from its div32 and div64_wide rounds, past their other units
 * (predict.h's CLC_WORK_*_UNITS). */
#define WORK_BLEND_MAX 8.0

#define WORK_ROWS 8 /* the most round counts of a variant read */

/* A variant's rows of the indexmath case (float), by their rounds, fewest first: the rounds
 * (each count once) and the time an element (8 bytes moved), ps over the whole device. */
struct work_rows {
    size_t n;
    long rounds[WORK_ROWS];
    double ps[WORK_ROWS];
};

static struct work_rows work_rows(const struct clc_report *rep, const char *variant)
{
    struct work_rows w = {0};
    for (size_t i = 0; i < rep->n_results && w.n < WORK_ROWS; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || r->type != CLC_FLOAT || !r->has_param ||
            r->param < 0 || strcmp(r->case_name, "indexmath") != 0 ||
            strcmp(r->variant, variant) != 0 || !(r->ms_median > 0) || r->bytes < 8)
            continue;
        size_t at = 0;
        while (at < w.n && w.rounds[at] < r->param)
            at++;
        if (at < w.n && w.rounds[at] == r->param)
            continue; /* the first row of a count, as row() takes it */
        memmove(w.rounds + at + 1, w.rounds + at, (w.n - at) * sizeof *w.rounds);
        memmove(w.ps + at + 1, w.ps + at, (w.n - at) * sizeof *w.ps);
        w.rounds[at] = r->param;
        w.ps[at] = r->ms_median * 1e9 / (r->bytes / 8.0);
        w.n++;
    }
    return w;
}

/* What a round costs once the work binds: between the two largest round counts. */
static double round_ps(const struct work_rows *w)
{
    size_t n = w->n;
    return n >= 2 ? (w->ps[n - 1] - w->ps[n - 2]) / (double)(w->rounds[n - 1] - w->rounds[n - 2])
                  : NAN;
}

static double variant_round_ps(const struct clc_report *rep, const char *variant)
{
    struct work_rows w = work_rows(rep, variant);
    return round_ps(&w);
}

/* The b of (m^b + w^b)^(1/b) = t, by bisection (the left side falls as b grows); NAN where
 * t is not between the larger of m and w and their sum. */
static double blend_of(double m, double w, double t)
{
    if (!(t > fmax(m, w) && t < m + w))
        return NAN;
    double lo = 1, hi = WORK_BLEND_MAX;
    for (int i = 0; i < 50; i++) {
        double b = (lo + hi) / 2;
        if (pow(pow(m, b) + pow(w, b), 1 / b) > t)
            lo = b;
        else
            hi = b;
    }
    return (lo + hi) / 2;
}

/* b from the rows of `kinds` whose work alone takes a third to three times the copy's time
 * (the rounds' cost times their count against the row with none): their median. */
static double blend_from(const struct clc_report *rep, const char *const *kinds, size_t n_kinds)
{
    double b[8 * WORK_ROWS];
    size_t n = 0;
    for (size_t k = 0; k < n_kinds && k < 8; k++) {
        struct work_rows w = work_rows(rep, kinds[k]);
        if (w.n == 0 || w.rounds[0] != 0)
            continue; /* no row without work: no copy's time to hold the others against */
        double m = w.ps[0], per = round_ps(&w);
        for (size_t i = 1; i < w.n; i++) {
            double work = w.rounds[i] * per;
            double v = work > m / 3 && work < 3 * m ? blend_of(m, work, w.ps[i]) : NAN;
            if (isfinite(v))
                b[n++] = v;
        }
    }
    return n ? median(b, n) : NAN;
}

static void integer_work(const struct clc_report *rep, struct clc_profile *p)
{
    double shift = variant_round_ps(rep, "shift"), mad = variant_round_ps(rep, "mad");
    p->work_unit_ps = (shift + mad) / 2 / CLC_WORK_ROUND_UNITS;
    double div64 = variant_round_ps(rep, "div64"), div32 = variant_round_ps(rep, "div32");
    p->work_div_ps[0] = div32 - CLC_WORK_DIV32_ROUND_UNITS * p->work_unit_ps;
    /* the wide round is the narrow one with the division's full path for its 32-bit one */
    p->work_div_ps[1] = variant_round_ps(rep, "div64_wide") - (div64 - p->work_div_ps[0]);
    static const char *const one[] = {"shift", "mad", "shift_group", "div64", "div32"},
                             *four[] = {"shift4"};
    p->work_blend[0] = blend_from(rep, one, sizeof one / sizeof one[0]);
    p->work_blend[1] = blend_from(rep, four, 1);
    if (!(p->work_unit_ps > 0))
        p->work_unit_ps = p->work_blend[0] = p->work_blend[1] = NAN;
}

/* ------------------------------------------------------------------ from a report */

/* Whether a row is of a case the profile reads. */
static bool profile_row(const struct clc_result *r)
{
    static const char *const cases[] = {"latency", "stream", "inflight", "groups",   "gridstride",
                                        "banks",   "stride", "scatter",  "runs",     "vector",
                                        "fma",     "l2",     "stores",   "indexmath"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(r->case_name, cases[i]) == 0)
            return r->status == CLC_STATUS_OK && r->cv >= 0;
    return false;
}

/* The spread of the profile's rows: the median of their samples' coefficients of variation
 * (the median, so that a few rows disturbed by something else do not set it); NAN where no
 * row has one. */
static double rows_spread(const struct clc_report *rep)
{
    size_t n = 0;
    for (size_t i = 0; i < rep->n_results; i++)
        n += profile_row(&rep->results[i]);
    double *cv = n ? malloc(n * sizeof *cv) : NULL;
    if (cv == NULL)
        return NAN;
    n = 0;
    for (size_t i = 0; i < rep->n_results; i++)
        if (profile_row(&rep->results[i]))
            cv[n++] = rep->results[i].cv;
    double m = median(cv, n);
    free(cv);
    return m;
}

static void clear(struct clc_profile *p)
{
    memset(p, 0, sizeof *p);
    p->peak_gbps = p->read_gbps = p->write_gbps = p->copy_gbps = p->triad_gbps = NAN;
    p->latency_ns[0] = p->latency_ns[1] = p->latency_ns[2] = p->l1_bytes = NAN;
    p->inflight_50 = p->inflight_90 = p->local_gbps = p->launch_us = NAN;
    for (int g = 0; g < CLC_PROFILE_GROUPS; g++)
        p->one_pass[0][g] = p->one_pass[1][g] = p->one_pass_staged[0][g] =
            p->one_pass_staged[1][g] = p->one_pass_staged4[0][g] = p->one_pass_staged4[1][g] = NAN;
    p->load_lines_per_s = p->store_lines_per_s = p->groups_per_s = p->spread = NAN;
    p->long_copy = p->held_tile[0] = p->held_tile[1] = NAN;
    p->missed_lines_per_s = NAN;
    p->l2_sectors_per_s[0] = p->l2_sectors_per_s[1] = NAN;
    p->split_gbps[0] = p->split_gbps[1] = NAN;
    for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++)
        for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
            p->store_merge[t][c] = NAN;
    for (int t = 0; t < 2; t++)
        for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
            for (unsigned k = 0; k < CLC_PROFILE_SHARED; k++)
                p->shared_ps[t][c][k] = NAN;
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p->refill_ps[0][c] = p->refill_ps[1][c] = p->refill_wide_ps[0][c] =
            p->refill_wide_ps[1][c] = NAN;
    p->fma_per_s[0] = p->fma_per_s[1] = NAN;
    p->work_unit_ps = p->work_div_ps[0] = p->work_div_ps[1] = NAN;
    p->work_blend[0] = p->work_blend[1] = NAN;
    p->local_request_ps = p->local_pass_ps = NAN;
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        p->gap_eff[c] = p->gap_eff_dir[0][c] = p->gap_eff_dir[1][c] = NAN;
    p->random_eff = p->bunched_eff = p->bunched_load_eff = NAN;
}

/* The device facts a profile carries, from the device they were measured on. */
static void take_facts(struct clc_profile *p, const struct clc_device_meta *d)
{
    snprintf(p->device, sizeof p->device, "%s", d->name);
    p->peak_gbps = d->peak_gbps;
    p->l2_bytes = d->l2_bytes;
    p->compute_units = d->compute_units;
    p->threads_per_cu = d->threads_per_cu;
    p->groups_per_cu = d->groups_per_cu;
    p->regs_per_cu = d->regs_per_cu;
    p->local_per_cu = d->local_per_cu;
}

int clc_profile_from_report(const struct clc_report *rep, const char *source,
                            struct clc_profile *p)
{
    const struct clc_device_meta *d = &rep->device;
    clear(p);
    snprintf(p->source, sizeof p->source, "%s", source);
    snprintf(p->api, sizeof p->api, "%.7s", rep->n_apis > 0 ? rep->apis[0].name : rep->api);
    take_facts(p, d);
    p->spread = rows_spread(rep);
    const struct clc_result *read = row(rep, "stream", "read", -1, CLC_FLOAT);
    p->in_cache = read != NULL && read->cache_resident;
    p->read_gbps = value_of(read);
    p->write_gbps = value_of(row(rep, "stream", "write", -1, CLC_FLOAT));
    p->copy_gbps = value_of(row(rep, "stream", "copy", -1, CLC_FLOAT));
    p->triad_gbps = value_of(row(rep, "stream", "triad", -1, CLC_FLOAT));
    latency_levels(rep, d->l2_bytes, p->latency_ns);
    p->l1_bytes = l1_capacity(rep);
    inflight_curve(rep, p);
    p->inflight_50 = inflight_for(p, 0.5);
    p->inflight_90 = inflight_for(p, 0.9);
    p->banks = bank_count(rep, p->spread);
    p->bank_width = p->banks ? 4 : 0;
    p->local_gbps = value_of(row(rep, "banks", "stride", 1, CLC_FLOAT));
    local_costs(rep, p);
    granules(rep, p);
    p->bunched_eff = bunched_eff(rep, "tile_blocks", p->spread);
    p->bunched_load_eff = bunched_eff(rep, "tile_loads", p->spread);
    p->groups_per_s = groups_per_s(rep);
    one_pass(rep, p);
    p->long_copy = long_copy(rep, p->copy_gbps);
    held_tile(rep, p);
    p->load_lines_per_s = lines_per_s(rep, "load", -1, 2);
    p->store_lines_per_s = lines_per_s(rep, "store", -1, 1);
    p->missed_lines_per_s = lines_per_s(rep, "load_shared", 1, 2);
    p->l2_sectors_per_s[0] = l2_rate(rep, "read");
    p->l2_sectors_per_s[1] = l2_rate(rep, "write");
    split_stores(rep, p);
    store_merging(rep, p);
    shared_stores(rep, p);
    refills(rep, "store_steps", p->refill_ps);
    refills(rep, "store_steps_wide", p->refill_wide_ps);
    p->fma_per_s[0] = fma_rate(rep, CLC_FLOAT);
    p->fma_per_s[1] = fma_rate(rep, CLC_DOUBLE);
    integer_work(rep, p);
    int found = 0;
    double figs[] = {p->read_gbps, p->write_gbps, p->copy_gbps, p->latency_ns[0],
                     p->inflight_50, p->local_gbps, p->gap_eff[1], p->load_lines_per_s,
                     p->store_lines_per_s, p->split_gbps[0], p->split_gbps[1],
                     p->l2_sectors_per_s[0], p->l2_sectors_per_s[1]};
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++)
        found += isfinite(figs[i]);
    return found + (p->n_curve > 0) + (p->granule > 0);
}

/* ------------------------------------------------------------------ JSON */

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *count_or_null(long long v)
{
    return v > 0 ? json_integer(v) : json_null();
}

/* The profile's `inflight` object: the bytes-in-flight curve and grid, the copies of one
 * pass, the long copy and the held tile's ratio. */
static json_t *inflight_to_json(const struct clc_profile *p)
{
    json_t *inf = json_object(), *curve = json_array();
    for (size_t i = 0; i < p->n_curve; i++)
        json_array_append_new(curve, json_pack("{s:o, s:o}", "bytes_per_cu", num(p->curve_bytes[i]),
                                               "gbps", num(p->curve_gbps[i])));
    json_object_set_new(inf, "ceiling", json_string("stream read"));
    json_object_set_new(inf, "bytes_per_cu_50", num(p->inflight_50));
    json_object_set_new(inf, "bytes_per_cu_90", num(p->inflight_90));
    json_object_set_new(inf, "curve", curve);
    json_t *grid = json_array();
    for (size_t i = 0; i < p->n_grid; i++) {
        const struct clc_inflight_point *g = &p->grid[i];
        json_array_append_new(grid, json_pack("{s:o, s:o, s:o, s:o}", "items_per_cu",
                                              num(g->items), "loads", num(g->loads),
                                              "load_bytes", num(g->width), "gbps", num(g->gbps)));
    }
    json_object_set_new(inf, "grid", grid);
    json_t *one = json_array();
    for (int form = 0; form < CLC_ONE_PASS_FORMS; form++)
        for (int i = 0; i < 2; i++)
            for (int g = 0; g < CLC_PROFILE_GROUPS; g++) {
                double v = one_pass_table((struct clc_profile *)p, form)[i][g];
                if (!(v > 0))
                    continue;
                json_t *pt = json_pack("{s:i, s:i, s:b, s:o}", "lane_bytes", 4 << i,
                                       "group_items", 32 << g, "staged",
                                       form != CLC_ONE_PASS_STRAIGHT, "of_copy", num(v));
                if (form == CLC_ONE_PASS_STAGED4) /* one element a work-item where absent */
                    json_object_set_new(pt, "items", json_integer(CLC_PROFILE_STAGED_ITEMS));
                json_array_append_new(one, pt);
            }
    json_object_set_new(inf, "one_pass", one);
    json_object_set_new(inf, "long_copy_of_copy", num(p->long_copy));
    json_object_set_new(inf, "held_tile_ratio",
                        json_pack("[o, o]", num(p->held_tile[0]), num(p->held_tile[1])));
    return inf;
}

/* The stores' figures into root: how runs merge, the pieces a work-group stores together,
 * the refills of lines open over loads. */
static void stores_to_json(const struct clc_profile *p, json_t *root)
{
    json_t *merge_lines = json_array(), *merging = json_object();
    for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
        json_array_append_new(merge_lines, json_real(clc_profile_merge_lines(c)));
    json_object_set_new(merging, "lines", merge_lines);
    for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++) {
        json_t *merge = json_array();
        for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
            json_array_append_new(merge, num(p->store_merge[t][c]));
        json_object_set_new(merging, clc_profile_merge_key(t), merge);
    }
    json_object_set_new(root, "store_merging", merging);
    json_t *shared[2] = {json_array(), json_array()};
    for (int t = 0; t < 2; t++)
        for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++) {
            json_t *by_sectors = json_array();
            for (unsigned k = 0; k < CLC_PROFILE_SHARED; k++)
                json_array_append_new(by_sectors, num(p->shared_ps[t][c][k]));
            json_array_append_new(shared[t], by_sectors);
        }
    json_object_set_new(root, "shared_stores",
                        json_pack("{s:[i,i,i,i,i], s:[i,i,i], s:o, s:o}", "lines", 2, 4, 8, 16,
                                  32, "sectors", 8, 16, 32, "fp32_ps", shared[0], "fp64_ps",
                                  shared[1]));
    json_t *steps = json_array(), *refill = json_object();
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        json_array_append_new(steps, json_integer(1 << c));
    json_object_set_new(refill, "steps", steps);
    for (int wide = 0; wide < 2; wide++)
        for (unsigned t = 0; t < 2; t++) {
            const double *ps = wide ? p->refill_wide_ps[t] : p->refill_ps[t];
            json_t *a = json_array();
            for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
                json_array_append_new(a, num(ps[c]));
            json_object_set_new(refill, clc_profile_refill_key(wide, t), a);
        }
    json_object_set_new(root, "refill", refill);
}

json_t *clc_profile_to_json(const struct clc_profile *p)
{
    json_t *root = json_object(), *dev = json_object(), *lat = json_object(),
           *str = json_object(), *banks = json_object(), *dram = json_object(),
           *gaps = json_array();
    static const char *const level[] = {"l1", "l2", "dram"};
    for (int i = 0; i < 3; i++)
        json_object_set_new(lat, level[i], num(p->latency_ns[i]));
    json_object_set_new(str, "read", num(p->read_gbps));
    json_object_set_new(str, "write", num(p->write_gbps));
    json_object_set_new(str, "copy", num(p->copy_gbps));
    json_object_set_new(str, "triad", num(p->triad_gbps));
    json_object_set_new(str, "in_cache", json_boolean(p->in_cache));
    json_object_set_new(banks, "count", count_or_null(p->banks));
    json_object_set_new(banks, "width_bytes", count_or_null(p->bank_width));
    json_object_set_new(banks, "stride1_gbps", num(p->local_gbps));
    json_object_set_new(banks, "request_ps", num(p->local_request_ps));
    json_object_set_new(banks, "pass_ps", num(p->local_pass_ps));
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        json_array_append_new(gaps, num(p->gap_eff[c]));
    json_object_set_new(dram, "granule_bytes", count_or_null(p->granule));
    json_object_set_new(dram, "gap_efficiency", gaps);
    static const char *const dir_keys[2] = {"gap_efficiency_load", "gap_efficiency_store"};
    for (unsigned d = 0; d < 2; d++) {
        json_t *a = json_array();
        for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
            json_array_append_new(a, num(p->gap_eff_dir[d][c]));
        json_object_set_new(dram, dir_keys[d], a);
    }
    json_object_set_new(dram, "random_efficiency", num(p->random_eff));
    json_object_set_new(dram, "tile_rows_efficiency", num(p->bunched_eff));
    json_object_set_new(dram, "tile_rows_load_efficiency", num(p->bunched_load_eff));
    json_object_set_new(dev, "name", json_string(p->device));
    json_object_set_new(dev, "api", json_string(p->api));
    json_object_set_new(dev, "peak_gbps", num(p->peak_gbps));
    json_object_set_new(dev, "l2_bytes", count_or_null((long long)p->l2_bytes));
    json_object_set_new(dev, "compute_units", count_or_null(p->compute_units));
    json_object_set_new(dev, "threads_per_cu", count_or_null(p->threads_per_cu));
    json_object_set_new(dev, "groups_per_cu", count_or_null(p->groups_per_cu));
    json_object_set_new(dev, "regs_per_cu", count_or_null(p->regs_per_cu));
    json_object_set_new(dev, "local_per_cu", count_or_null((long long)p->local_per_cu));
    json_object_set_new(root, "source", json_string(p->source));
    json_object_set_new(root, "device", dev);
    json_object_set_new(root, "latency_ns", lat);
    json_object_set_new(root, "stream_gbps", str);
    json_object_set_new(root, "inflight", inflight_to_json(p));
    json_object_set_new(root, "local_banks", banks);
    json_object_set_new(root, "dram", dram);
    json_object_set_new(root, "scatter",
                        json_pack("{s:o, s:o, s:o}", "load_lines_per_s", num(p->load_lines_per_s),
                                  "store_lines_per_s", num(p->store_lines_per_s),
                                  "missed_lines_per_s", num(p->missed_lines_per_s)));
    json_object_set_new(root, "l2", json_pack("{s:o, s:o}", "load_sectors_per_s",
                                              num(p->l2_sectors_per_s[0]), "store_sectors_per_s",
                                              num(p->l2_sectors_per_s[1])));
    json_object_set_new(root, "launch_us", num(p->launch_us));
    json_object_set_new(root, "l1_bytes", num(p->l1_bytes));
    json_object_set_new(root, "spread", num(p->spread));
    json_object_set_new(root, "groups_per_s", num(p->groups_per_s));
    json_object_set_new(root, "split_stores", json_pack("{s:o, s:o}", "lane_32_gbps",
                                                        num(p->split_gbps[0]), "lane_64_gbps",
                                                        num(p->split_gbps[1])));
    stores_to_json(p, root);
    json_object_set_new(root, "compute", json_pack("{s:o, s:o}", "fp32_fma_per_s",
                                                   num(p->fma_per_s[0]), "fp64_fma_per_s",
                                                   num(p->fma_per_s[1])));
    json_object_set_new(root, "integer_work",
                        json_pack("{s:o, s:o, s:o, s:o, s:o}", "unit_ps", num(p->work_unit_ps),
                                  "div32_ps", num(p->work_div_ps[0]), "div64_ps",
                                  num(p->work_div_ps[1]), "blend_1_load",
                                  num(p->work_blend[0]), "blend_4_loads",
                                  num(p->work_blend[1])));
    return root;
}

enum clc_one_pass_form clc_profile_one_pass_form(json_t *point)
{
    if (!json_is_true(json_object_get(point, "staged")))
        return CLC_ONE_PASS_STRAIGHT;
    json_t *items = json_object_get(point, "items");
    return json_is_integer(items) && json_integer_value(items) == CLC_PROFILE_STAGED_ITEMS
               ? CLC_ONE_PASS_STAGED4
               : CLC_ONE_PASS_STAGED;
}

static double num_at(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The numbers of array a into out[0 .. n), NAN where a has none (or is no array). */
static void nums_at(json_t *a, double *out, unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        json_t *v = json_array_get(a, c);
        out[c] = json_is_number(v) ? json_number_value(v) : NAN;
    }
}

static int int_at(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) && json_integer_value(v) > 0 && json_integer_value(v) <= INT_MAX
               ? (int)json_integer_value(v)
               : 0;
}

/* The facts of a profile's "device" object (clc_profile_to_json's), into d: those the
 * profile's figures and the model read, unknown ones 0 (the peak NAN). */
static void read_facts(json_t *dev, struct clc_device_meta *d)
{
    json_t *name = json_object_get(dev, "name");
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", json_is_string(name) ? json_string_value(name) : "");
    /* a file anyone wrote: a peak or a cache beyond any device's is unknown */
    double peak = num_at(dev, "peak_gbps"), l2 = num_at(dev, "l2_bytes");
    d->peak_gbps = peak > 0 && peak < CLC_MAX_GBPS ? peak : NAN;
    d->l2_bytes = l2 > 0 && l2 < 0x1p50 ? (uint64_t)l2 : 0;
    d->compute_units = int_at(dev, "compute_units");
    d->threads_per_cu = int_at(dev, "threads_per_cu");
    d->groups_per_cu = int_at(dev, "groups_per_cu");
    d->regs_per_cu = int_at(dev, "regs_per_cu");
    d->local_per_cu = (uint64_t)int_at(dev, "local_per_cu");
}

int clc_profile_from_json(json_t *o, struct clc_profile *p)
{
    clear(p);
    json_t *dev = json_object_get(o, "device"), *lat = json_object_get(o, "latency_ns"),
           *str = json_object_get(o, "stream_gbps"), *inf = json_object_get(o, "inflight"),
           *banks = json_object_get(o, "local_banks"), *dram = json_object_get(o, "dram");
    if (!json_is_object(o) || !json_is_object(dev) || !json_is_object(str))
        return CLC_ERR;
    json_t *src = json_object_get(o, "source"), *api = json_object_get(dev, "api");
    snprintf(p->source, sizeof p->source, "%s", json_is_string(src) ? json_string_value(src) : "");
    snprintf(p->api, sizeof p->api, "%.7s", json_is_string(api) ? json_string_value(api) : "");
    struct clc_device_meta d;
    read_facts(dev, &d);
    take_facts(p, &d);
    static const char *const level[] = {"l1", "l2", "dram"};
    for (int i = 0; i < 3; i++)
        p->latency_ns[i] = num_at(lat, level[i]);
    p->l1_bytes = num_at(o, "l1_bytes");
    p->read_gbps = num_at(str, "read");
    p->write_gbps = num_at(str, "write");
    p->copy_gbps = num_at(str, "copy");
    p->triad_gbps = num_at(str, "triad");
    p->in_cache = json_is_true(json_object_get(str, "in_cache"));
    p->inflight_50 = num_at(inf, "bytes_per_cu_50");
    p->inflight_90 = num_at(inf, "bytes_per_cu_90");
    json_t *curve = json_object_get(inf, "curve");
    for (size_t i = 0; i < json_array_size(curve) && p->n_curve < CLC_PROFILE_CURVE; i++) {
        double x = num_at(json_array_get(curve, i), "bytes_per_cu");
        double y = num_at(json_array_get(curve, i), "gbps");
        if (x > 0 && y > 0 && (p->n_curve == 0 || (x > p->curve_bytes[p->n_curve - 1] &&
                                                    y > p->curve_gbps[p->n_curve - 1]))) {
            p->curve_bytes[p->n_curve] = x;
            p->curve_gbps[p->n_curve++] = y;
        }
    }
    json_t *grid = json_object_get(inf, "grid");
    for (size_t i = 0; i < json_array_size(grid) && p->n_grid < CLC_PROFILE_GRID; i++) {
        json_t *g = json_array_get(grid, i);
        struct clc_inflight_point pt = {num_at(g, "items_per_cu"), num_at(g, "loads"),
                                        num_at(g, "load_bytes"), num_at(g, "gbps")};
        if (pt.items > 0 && pt.loads > 0 && pt.width > 0 && pt.gbps > 0)
            p->grid[p->n_grid++] = pt;
    }
    json_t *one = json_object_get(inf, "one_pass");
    for (size_t i = 0; i < json_array_size(one); i++) {
        json_t *pt = json_array_get(one, i);
        int lane = int_at(pt, "lane_bytes"), group = int_at(pt, "group_items");
        if (json_object_get(pt, "group_items") == NULL)
            group = 32 << CLC_PROFILE_ONE_PASS_GROUP; /* a profile from before group sizes */
        double(*by)[CLC_PROFILE_GROUPS] = one_pass_table(p, clc_profile_one_pass_form(pt));
        for (int g = 0; g < CLC_PROFILE_GROUPS; g++)
            if ((lane == 4 || lane == 8) && group == 32 << g)
                by[lane == 4 ? 0 : 1][g] = num_at(pt, "of_copy");
    }
    p->banks = int_at(banks, "count");
    p->bank_width = int_at(banks, "width_bytes");
    p->local_gbps = num_at(banks, "stride1_gbps");
    p->local_request_ps = num_at(banks, "request_ps");
    p->local_pass_ps = num_at(banks, "pass_ps");
    int g = int_at(dram, "granule_bytes");
    p->granule = g == 32 || g == 64 || g == 128 ? (unsigned)g : 0;
    nums_at(json_object_get(dram, "gap_efficiency"), p->gap_eff, CLC_MODEL_GAPS);
    static const char *const dir_keys[2] = {"gap_efficiency_load", "gap_efficiency_store"};
    for (unsigned d = 0; d < 2; d++)
        nums_at(json_object_get(dram, dir_keys[d]), p->gap_eff_dir[d], CLC_MODEL_GAPS);
    p->random_eff = num_at(dram, "random_efficiency");
    p->bunched_eff = num_at(dram, "tile_rows_efficiency");
    p->bunched_load_eff = num_at(dram, "tile_rows_load_efficiency");
    p->load_lines_per_s = num_at(json_object_get(o, "scatter"), "load_lines_per_s");
    p->store_lines_per_s = num_at(json_object_get(o, "scatter"), "store_lines_per_s");
    p->missed_lines_per_s = num_at(json_object_get(o, "scatter"), "missed_lines_per_s");
    p->l2_sectors_per_s[0] = num_at(json_object_get(o, "l2"), "load_sectors_per_s");
    p->l2_sectors_per_s[1] = num_at(json_object_get(o, "l2"), "store_sectors_per_s");
    p->launch_us = num_at(o, "launch_us");
    p->spread = num_at(o, "spread");
    p->groups_per_s = num_at(o, "groups_per_s");
    p->long_copy = num_at(json_object_get(o, "inflight"), "long_copy_of_copy");
    nums_at(json_object_get(json_object_get(o, "inflight"), "held_tile_ratio"), p->held_tile,
            2);
    p->split_gbps[0] = num_at(json_object_get(o, "split_stores"), "lane_32_gbps");
    p->split_gbps[1] = num_at(json_object_get(o, "split_stores"), "lane_64_gbps");
    for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++)
        nums_at(json_object_get(json_object_get(o, "store_merging"), clc_profile_merge_key(t)),
                p->store_merge[t], CLC_PROFILE_MERGE);
    /* a profile from before the store_steps rows has none: the refill layer is left out;
     * one from before the wide rows, those: the layer takes the narrow ones for all */
    json_t *refill = json_object_get(o, "refill");
    for (int wide = 0; wide < 2; wide++)
        for (unsigned t = 0; t < 2; t++)
            nums_at(json_object_get(refill, clc_profile_refill_key(wide, t)),
                    wide ? p->refill_wide_ps[t] : p->refill_ps[t], CLC_PROFILE_STEPS);
    /* a profile from before the fma case has none: the compute layer is then left out */
    p->fma_per_s[0] = num_at(json_object_get(o, "compute"), "fp32_fma_per_s");
    p->fma_per_s[1] = num_at(json_object_get(o, "compute"), "fp64_fma_per_s");
    /* a profile from before the indexmath rows has none: the work layer is then left out */
    json_t *work = json_object_get(o, "integer_work");
    p->work_unit_ps = num_at(work, "unit_ps");
    p->work_div_ps[0] = num_at(work, "div32_ps");
    p->work_div_ps[1] = num_at(work, "div64_ps");
    p->work_blend[0] = num_at(work, "blend_1_load");
    p->work_blend[1] = num_at(work, "blend_4_loads");
    return p->copy_gbps > 0 ? CLC_OK : CLC_ERR;
}

/* The profile's figures are recomputed from its rows by the code that computes them in a
 * run, so a profile and a run can never disagree on what a figure means; the device facts
 * and the peak come from its device object. */
int clc_profile_load(const char *path, struct clc_profile *p)
{
    size_t len = 0;
    char *text = clc_read_text(path, &len);
    clear(p);
    if (text == NULL) {
        clc_error("%s: cannot read the profile: %s", path, strerror(errno));
        return CLC_ERR;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
    json_t *rows = json_object_get(root, "rows"), *dev = json_object_get(root, "device");
    if (!json_is_object(root) || !json_is_array(rows) || !json_is_object(dev) ||
        !json_is_string(json_object_get(root, "tool"))) {
        clc_error("%s: not a profile written by 'clcoalesce profile -o' (%s)", path,
                  root == NULL ? jerr.text : "no tool, device and rows");
        json_decref(root);
        return CLC_ERR;
    }
    json_t *wrap = json_pack("{s:s, s:i, s:s, s:O}", "tool", "clcoalesce", "format",
                             CLC_RESULT_FORMAT, "api",
                             json_is_string(json_object_get(dev, "api"))
                                 ? json_string_value(json_object_get(dev, "api"))
                                 : "opencl",
                             "results", rows);
    char *as_report = json_dumps(wrap, JSON_COMPACT);
    json_decref(wrap);
    struct clc_report rep;
    int rc = as_report != NULL ? clc_read_json_text(as_report, strlen(as_report), path, &rep)
                               : CLC_ERR;
    free(as_report);
    if (rc == CLC_OK) {
        read_facts(dev, &rep.device);
        if (clc_profile_from_report(&rep, path, p) == 0) {
            clc_error("%s: the profile's rows give none of the figures the model reads", path);
            rc = CLC_ERR;
        }
        p->launch_us = num_at(root, "launch_us");
    }
    clc_report_free(&rep);
    json_decref(root);
    return rc;
}
