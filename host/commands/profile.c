/* profile.c - `clcoalesce profile`: the device measured by the cases that isolate one
 * mechanism each (latency, stream, inflight, groups, gridstride, banks, stride, scatter, runs,
 * l2, stores, fma, indexmath) and
 * the vector case's fills of wide lanes, at their default sizes with few repetitions, summed
 * up as a device profile (JSON): the load-to-use latency of L1, L2 and DRAM, the read, write,
 * copy and triad ceilings, the curve of read bandwidth over the bytes in flight per compute
 * unit, copies of one element per work-item by work-group size and the rate at which
 * work-groups start, the local memory's banks and bandwidth, the DRAM granule and how
 * scattered granules slow down, the L2's rates for loads and stores of one line per lane and
 * for the sectors of a window it holds, how runs of stores merge, what stores in pieces that
 * a work-group's warps write together cost, stores of 32- and 64-byte
 * lanes alone, the fused multiply-adds per second in float and double (the fma case), and
 * what integer work costs a work-item (the indexmath case).
 * Every figure comes from a row of this run (devprofile.c); the rows go into the profile
 * too, and the predictive model reads it. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/outfile.h"
#include "clcoalesce/predict.h"
#include "clcoalesce/profcache.h"

#define PROG "clcoalesce"
#define HELP "'clcoalesce profile --help'"
#define REPS 5
#define LAUNCH_BYTES 65536 /* the copy that measures a launch's fixed cost */

static const char usage[] =
    "usage: clcoalesce profile [--device SEL] [--api opencl|cuda] [-o FILE] [--size BYTES]\n"
    "                          [--reps N] [--quick] [--kernel-dir DIR] [--quiet]\n"
    "Measures the device with the latency, stream, inflight, groups, gridstride, banks,\n"
    "stride, scatter, runs, l2, stores, fma and indexmath cases (float, and double where the\n"
    "cases and the device have it; default sizes, 5 repetitions) and the vector case's\n"
    "fill_float8 and fill_float16, and writes its profile as JSON to FILE (or stdout): L1,\n"
    "L2 and DRAM latency, the read / write / copy / triad\n"
    "ceilings, read bandwidth over the bytes in flight per compute unit (and the bytes for\n"
    "50 % and 90 % of the read ceiling), copies of one element per work-item by work-group\n"
    "size, the local memory's banks and bandwidth, the DRAM granule and the speed of scattered\n"
    "granules, the L2's rates for loads and stores of one line per lane and for the sectors\n"
    "of a window it holds (the l2 case), how runs of stores merge, what a request of stores\n"
    "in pieces that a work-group's warps write together costs (the stores case), the GB/s\n"
    "that stores of 32- and 64-byte lanes reach, and the fused multiply-adds per second in\n"
    "float and double (the fma case: the model's compute layer), and what a unit of integer\n"
    "work and a division cost a work-item and how they add to its memory time (the\n"
    "indexmath case: the work layer).  'run --profile FILE' predicts every row from it.\n"
    "Measured at the default sizes (no --size, --quick, --cold or --kernel-dir), the profile\n"
    "is also kept as the device's own (in $CLCOALESCE_CACHE_DIR, else ~/.cache/clcoalesce):\n"
    "explain, and a run without the stream case, then predict with it with no --profile.\n"
    "A summary goes to stdout with -o or where the JSON is only kept (no -o, stdout a\n"
    "terminal), else to stderr.\n";

/* ------------------------------------------------------------------ the profile */

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* v printed with fmt (one number), or "-" where it is none. */
static void fixed_or_dash(char *out, size_t len, const char *fmt, json_t *v)
{
    if (json_is_number(v))
        snprintf(out, len, fmt, json_number_value(v));
    else
        snprintf(out, len, "-");
}

/* The figures (devprofile.c) with what the file says of itself and the device. */
static json_t *profile_json(const struct clc_report *rep, double launch_us)
{
    const struct clc_device_meta *d = &rep->device;
    struct clc_profile p;
    clc_profile_from_report(rep, "measured", &p);
    p.launch_us = launch_us;
    json_t *root = json_object(), *fig = clc_profile_to_json(&p), *cyc = json_object();
    static const char *const level[] = {"l1", "l2", "dram"};
    for (int i = 0; i < 3; i++)
        json_object_set_new(cyc, level[i], num(d->clock_mhz > 0 ? p.latency_ns[i] * d->clock_mhz * 1e-3 : NAN));
    json_t *dev = json_object_get(fig, "device");
    json_object_set_new(dev, "clock_mhz", d->clock_mhz > 0 ? json_integer(d->clock_mhz) : json_null());
    json_object_set_new(dev, "l2_source", json_string(d->l2_source[0] ? d->l2_source : "reported"));
    json_object_set_new(dev, "peak_source", json_string(d->peak_source));
    json_object_set_new(root, "tool", json_string("clcoalesce"));
    json_object_set_new(root, "profile_format", json_integer(CLC_PROFILE_FORMAT));
    json_object_set_new(root, "version", json_string(CLC_VERSION));
    json_object_set_new(root, "timestamp", json_string(rep->timestamp));
    json_object_update(root, fig);
    json_decref(fig);
    json_object_del(root, "source");
    json_t *curve = json_array(); /* the whole latency sweep, for the plot */
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && strcmp(r->case_name, "latency") == 0)
            json_array_append_new(curve, json_pack("{s:I, s:o}", "kib", (json_int_t)r->param,
                                                   "ns", num(r->value)));
    }
    json_object_set_new(json_object_get(root, "latency_ns"), "curve", curve);
    json_object_set_new(root, "latency_cycles", cyc);
    json_object_set_new(root, "copy_ceiling_gbps", num(rep->apis[0].copy_gbps));
    return root;
}

/* The efficiency of the gap class whose gap (model.h) is `gap` granules, from the profile's
 * "gap_efficiency" array; NAN when it has none. */
static double gap_eff_at(json_t *gaps, double gap)
{
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++) {
        json_t *v = json_array_get(gaps, c);
        if (clc_model_gap(c) == gap && json_is_number(v))
            return json_number_value(v);
    }
    return NAN;
}

/* "a copy of one element per work-item, % of the copy ceiling (4- / 8-byte lanes), in
 * work-groups of 32: 40 / 70, ..." for the sizes measured, of one form (straight, staged,
 * staged with CLC_PROFILE_STAGED_ITEMS elements a work-item). */
static void print_one_pass(FILE *f, json_t *points, enum clc_one_pass_form form)
{
    static const char *const head[CLC_ONE_PASS_FORMS] = {
        "  a copy of one element per work-item, % of the copy ceiling with 4- / 8-byte lanes,\n"
        "    in work-groups of",
        "  the same staged through __local, a barrier between its loads and stores,\n"
        "    in work-groups of",
        "  the same staged with 4 elements a work-item, all loaded before the barrier,\n"
        "    in work-groups of"};
    bool any = false;
    for (int group = 32; group <= 1024; group *= 2) {
        double of[2] = {NAN, NAN};
        for (size_t i = 0; i < json_array_size(points); i++) {
            json_t *pt = json_array_get(points, i), *g = json_object_get(pt, "group_items");
            json_t *lane = json_object_get(pt, "lane_bytes"), *v = json_object_get(pt, "of_copy");
            if (json_is_integer(g) && json_integer_value(g) == group && json_is_integer(lane) &&
                json_is_number(v) && clc_profile_one_pass_form(pt) == form)
                of[json_integer_value(lane) == 4 ? 0 : 1] = 100 * json_number_value(v);
        }
        if (isnan(of[0]) && isnan(of[1]))
            continue;
        char four[8] = "-", eight[8] = "-";
        if (!isnan(of[0]))
            snprintf(four, sizeof four, "%.0f", of[0]);
        if (!isnan(of[1]))
            snprintf(eight, sizeof eight, "%.0f", of[1]);
        fprintf(f, "%s %d: %s / %s", any ? "," : head[form], group, four, eight);
        any = true;
    }
    if (any)
        fputs("\n", f);
    else if (form == CLC_ONE_PASS_STRAIGHT)
        fputs("  a copy of one element per work-item: not measured\n", f);
}

void clc_print_profile_summary(FILE *f, json_t *p)
{
    json_t *lat = json_object_get(p, "latency_ns"), *cyc = json_object_get(p, "latency_cycles"),
           *str = json_object_get(p, "stream_gbps"), *inf = json_object_get(p, "inflight"),
           *b = json_object_get(p, "local_banks");
    fprintf(f, "profile of %s (%s)\n", json_string_value(json_object_get(json_object_get(p, "device"), "name")),
            json_string_value(json_object_get(json_object_get(p, "device"), "api")));
    static const char *const level[] = {"l1", "l2", "dram"};
    static const char *const shown[] = {"L1", "L2", "DRAM"};
    for (int i = 0; i < 3; i++) {
        json_t *ns = json_object_get(lat, level[i]), *c = json_object_get(cyc, level[i]);
        if (json_is_number(ns))
            fprintf(f, "  latency %-5s %8.1f ns%s", shown[i], json_number_value(ns),
                    json_is_number(c) ? "" : "\n");
        else
            fprintf(f, "  latency %-5s        - (the sweep did not reach it)\n", shown[i]);
        if (json_is_number(ns) && json_is_number(c))
            fprintf(f, "  (%.0f cycles)\n", json_number_value(c));
    }
    json_t *l1 = json_object_get(p, "l1_bytes");
    if (json_is_number(l1))
        fprintf(f, "  L1 holds   %8.0f KiB (the largest set the sweep reads at L1's latency)\n",
                json_number_value(l1) / 1024);
    static const char *const streams[] = {"read", "write", "copy", "triad"};
    for (int i = 0; i < 4; i++) {
        json_t *v = json_object_get(str, streams[i]);
        if (json_is_number(v))
            fprintf(f, "  stream  %-5s %8.1f GB/s\n", streams[i], json_number_value(v));
        else
            fprintf(f, "  stream  %-5s        - (not measured)\n", streams[i]);
    }
    /* a figure the run could not give is said once, not printed as nan */
    json_t *h = json_object_get(inf, "bytes_per_cu_50"), *n = json_object_get(inf, "bytes_per_cu_90");
    char half[24] = "-", most[24] = "-";
    if (json_is_number(h))
        snprintf(half, sizeof half, "%.1f", json_number_value(h) / 1024);
    if (json_is_number(n))
        snprintf(most, sizeof most, "%.1f", json_number_value(n) / 1024);
    if (json_is_number(h) || json_is_number(n))
        fprintf(f, "  in flight per compute unit for 50 %% / 90 %% of the read ceiling: %s / %s "
                "KiB\n", half, most);
    else
        fprintf(f, "  in flight per compute unit: not measured (no inflight row reached half "
                "the read ceiling)\n");
    for (int form = 0; form < CLC_ONE_PASS_FORMS; form++)
        print_one_pass(f, json_object_get(inf, "one_pass"), (enum clc_one_pass_form)form);
    json_t *lived = json_object_get(inf, "long_copy_of_copy");
    if (json_is_number(lived))
        fprintf(f, "  a copy whose work-items copy element after element, all resident (a "
                "grid-stride loop): %.0f %%\n", 100 * json_number_value(lived));
    json_t *held = json_object_get(inf, "held_tile_ratio");
    json_t *floats = json_array_get(held, 0), *doubles = json_array_get(held, 1);
    if (json_is_number(floats)) {
        char pct[24] = "-"; /* the doubles' */
        if (json_is_number(doubles))
            snprintf(pct, sizeof pct, "%.0f", 100 * json_number_value(doubles));
        fprintf(f, "  a tile transpose whose work-items wait for each load (transpose "
                "tiled_held) against its loads issued together (tiled_padded), floats / "
                "doubles: %.0f / %s %%\n",
                100 * json_number_value(floats), pct);
    } else if (json_is_array(held)) { /* a profile from before the held tile says nothing */
        fprintf(f, "  a tile transpose whose work-items wait for each load: none here (the "
                "build of transpose tiled_held issues its loads together, or shows no PTX)\n");
    }
    json_t *dram = json_object_get(p, "dram"), *g = json_object_get(dram, "granule_bytes");
    json_t *gaps = json_object_get(dram, "gap_efficiency");
    if (json_is_integer(g)) {
        char two[24] = "- %", four[24] = "- %";
        if (!isnan(gap_eff_at(gaps, 2)))
            snprintf(two, sizeof two, "%.0f %%", 100 * gap_eff_at(gaps, 2));
        if (!isnan(gap_eff_at(gaps, 4)))
            snprintf(four, sizeof four, "%.0f %%", 100 * gap_eff_at(gaps, 4));
        fprintf(f, "  DRAM granule: %lld bytes; granules 2 / 4 apart move at %s / %s\n",
                (long long)json_integer_value(g), two, four);
        double ld = gap_eff_at(json_object_get(dram, "gap_efficiency_load"), 4);
        double st = gap_eff_at(json_object_get(dram, "gap_efficiency_store"), 4);
        if (!isnan(ld) && !isnan(st))
            fprintf(f, "  granules 4 apart: loads at %.0f %%, stores at %.0f %%\n", 100 * ld,
                    100 * st);
        json_t *rnd = json_object_get(dram, "random_efficiency");
        if (json_is_number(rnd))
            fprintf(f, "  granules at random (a gather): %.0f %%\n", 100 * json_number_value(rnd));
        json_t *rows = json_object_get(dram, "tile_rows_efficiency"),
               *loaded = json_object_get(dram, "tile_rows_load_efficiency");
        if (json_is_number(rows))
            fprintf(f, "  a tile's rows stored a row of tiles apart (a transpose's): %.0f %%\n",
                    100 * json_number_value(rows));
        if (json_is_number(loaded))
            fprintf(f, "  a tile's rows loaded a row of tiles apart: %.0f %%\n",
                    100 * json_number_value(loaded));
    } else
        fprintf(f, "  DRAM granule: not measured (the stride rows did not run)\n");
    json_t *sc = json_object_get(p, "scatter"), *ld = json_object_get(sc, "load_lines_per_s"),
           *st = json_object_get(sc, "store_lines_per_s");
    if (json_is_number(ld) && json_is_number(st))
        fprintf(f, "  one 128-byte line per lane: %.1f G lines/s loaded, %.1f G stored\n",
                json_number_value(ld) * 1e-9, json_number_value(st) * 1e-9);
    json_t *missed = json_object_get(sc, "missed_lines_per_s");
    if (json_is_number(missed))
        fprintf(f, "  loads no other warp of the work-group shares: %.1f G lines/s\n",
                json_number_value(missed) * 1e-9);
    json_t *l2 = json_object_get(p, "l2"), *l2ld = json_object_get(l2, "load_sectors_per_s"),
           *l2st = json_object_get(l2, "store_sectors_per_s");
    if (json_is_number(l2ld) && json_is_number(l2st))
        fprintf(f, "  the L2's own throughput (a window it holds): %.1f G sectors/s loaded, "
                "%.1f G stored\n", json_number_value(l2ld) * 1e-9, json_number_value(l2st) * 1e-9);
    json_t *launch = json_object_get(p, "launch_us");
    if (json_is_number(launch))
        fprintf(f, "  a launch costs %.1f us (a copy of %d KiB)\n", json_number_value(launch),
                LAUNCH_BYTES / 1024);
    json_t *groups = json_object_get(p, "groups_per_s");
    if (json_is_number(groups))
        fprintf(f, "  work-groups started: at most %.2f G per s\n", json_number_value(groups) * 1e-9);
    json_t *split = json_object_get(p, "split_stores");
    json_t *s32 = json_object_get(split, "lane_32_gbps");
    json_t *s64 = json_object_get(split, "lane_64_gbps");
    if (json_is_number(s32) && json_is_number(s64))
        fprintf(f, "  stores alone with 32- / 64-byte lanes (the split layer): %.1f / %.1f "
                "GB/s\n", json_number_value(s32), json_number_value(s64));
    double line_ps, partial_ps;
    if (json_is_number(st) && json_is_number(s32) &&
        clc_profile_store_costs(json_number_value(st), json_number_value(s32), &line_ps,
                                &partial_ps))
        fprintf(f, "  a store costs the L2 %.1f ps a line and %.1f ps a sector written in "
                "part\n", line_ps, partial_ps);
    json_t *merging = json_object_get(p, "store_merging");
    for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++) {
        json_t *merge = json_object_get(merging, clc_profile_merge_key(t));
        if (!json_is_number(json_array_get(merge, 2)))
            continue;
        fprintf(f, "  a run stored an element a request%s%s:\n"
                "    a request after the first costs, of its cost alone, by its lines:",
                t & 1 ? " from __local" : "", t & 2 ? ", each store apart" : "");
        for (size_t c = 0; c < json_array_size(merge); c++) {
            json_t *v = json_array_get(merge, c);
            if (json_is_number(v))
                fprintf(f, " %g: %.2f", clc_profile_merge_lines((unsigned)c), json_number_value(v));
        }
        fprintf(f, "\n");
    }
    json_t *shared = json_object_get(p, "shared_stores");
    for (int t = 0; t < 2; t++) {
        json_t *ps = json_object_get(shared, t ? "fp64_ps" : "fp32_ps");
        int n = 0;
        for (size_t c = 0; c < json_array_size(ps); c++)
            for (size_t k = 0; k < json_array_size(json_array_get(ps, c)); k++) {
                json_t *v = json_array_get(json_array_get(ps, c), k);
                if (!json_is_number(v))
                    continue;
                if (n++ == 0)
                    fprintf(f, "  %s pieces a work-group's warps store together, ps a request "
                               "by lines / sectors in part:\n   ", t ? "double's" : "float's");
                fprintf(f, " %d/%d: %.0f", 2 << c, 8 << k, json_number_value(v));
            }
        if (n > 0)
            fprintf(f, "\n");
    }
    json_t *refill = json_object_get(p, "refill");
    for (unsigned t = 0; t < 4; t++) {
        json_t *ps = json_object_get(refill, clc_profile_refill_key(t >= 2, t));
        if (!json_is_number(json_array_get(ps, CLC_PROFILE_STEPS - 1)))
            continue;
        if (t < 2)
            fprintf(f, "  a %s line filled over 2 .. %d steps, a load before each: a stored "
                    "sector\n    costs more by", t ? "double's" : "float's",
                    1 << (CLC_PROFILE_STEPS - 1));
        else
            fprintf(f, "  the same with %s lines open all over the buffer (store_steps_wide):\n"
                    "    costs more by", t % 2 ? "doubles'" : "floats'");
        for (unsigned c = 1; c < CLC_PROFILE_STEPS; c++)
            fprintf(f, " %u: %.1f", 1u << c, json_number_value(json_array_get(ps, c)));
        fprintf(f, " ps (the refill layer)\n");
    }
    json_t *fma = json_object_get(p, "compute");
    json_t *f32 = json_object_get(fma, "fp32_fma_per_s"), *f64 = json_object_get(fma, "fp64_fma_per_s");
    if (json_is_number(f32)) {
        char dp[24] = "-";
        if (json_is_number(f64))
            snprintf(dp, sizeof dp, "%.1f", 2e-9 * json_number_value(f64));
        fprintf(f, "  arithmetic: %.1f / %s GFLOP/s in float / double (fused multiply-adds, "
                "two flops each)\n", 2e-9 * json_number_value(f32), dp);
    } else
        fprintf(f, "  arithmetic: not measured (the fma rows did not run)\n");
    json_t *work = json_object_get(p, "integer_work");
    json_t *unit = json_object_get(work, "unit_ps");
    if (json_is_number(unit)) {
        char d32[24], d64[24], b1[24], b4[24];
        fixed_or_dash(d32, sizeof d32, "%.3f", json_object_get(work, "div32_ps"));
        fixed_or_dash(d64, sizeof d64, "%.3f", json_object_get(work, "div64_ps"));
        fixed_or_dash(b1, sizeof b1, "%.2f", json_object_get(work, "blend_1_load"));
        fixed_or_dash(b4, sizeof b4, "%.2f", json_object_get(work, "blend_4_loads"));
        fprintf(f, "  integer work: %.4f ps a unit, a division %s / %s ps in 32 / 64 bits;\n"
                "    work and memory time blended with b = %s / %s at 1 / 4 loads a work-item\n"
                "    (the work layer; - where no row's work took about the copy's time)\n",
                json_number_value(unit), d32, d64, b1, b4);
    } else
        fprintf(f, "  integer work: not measured (the indexmath rows did not run)\n");
    json_t *count = json_object_get(b, "count");
    if (json_is_integer(count))
        fprintf(f, "  local memory: %lld banks of 4 bytes\n", (long long)json_integer_value(count));
    else
        fprintf(f, "  local memory: no bank conflicts measured\n");
}

static int write_profile(FILE *f, void *arg)
{
    int rc = json_dumpf(arg, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    fputc('\n', f);
    return rc == 0 && !ferror(f) ? CLC_OK : CLC_ERR;
}

/* Runs one variant of one case in the types of the mask `types` (enum clc_type) at `size`
 * into a new report rep, its rows traced where o models; CLC_OK or the run's code. */
static int run_small(const struct clc_opts *o, const char *name, const char *variant,
                     unsigned types, uint64_t size, struct clc_report *rep)
{
    struct clc_opts small = *o;
    small.size = size;
    small.sweep_min = small.sweep_max = 0;
    small.types = types;
    small.variant = variant;
    const char *names[] = {name};
    clc_report_init(rep, clc_api_name(CLC_API_OPENCL));
    /* its notes (device, kernels, rows) are the main run's again: said once, there */
    bool quiet = clc_quiet;
    clc_quiet = true;
    int rc = clc_run(&small, names, 1, rep, NULL);
    clc_quiet = quiet;
    return rc;
}

/* Single variants of other cases, at the run's size, added to rep: the vector case's fills
 * of 32- and 64-byte lanes (split stores), and the tile transpose whose loads wait one by one
 * where the compiler branches around each (a held tile; traced, whose row then says how its
 * build keeps them) beside the same tile loaded into registers first. */
static int single_variants(const struct clc_opts *o, struct clc_report *rep)
{
    static const struct {
        const char *name, *variant;
        unsigned types;
        bool traced; /* its loads as compiled are a figure (compiled_loads) */
    } runs[] = {{"vector", "fill_float8", CLC_FLOAT, false},
                {"vector", "fill_float16", CLC_FLOAT, false},
                {"transpose", "tiled_held", CLC_FLOAT | CLC_DOUBLE, true},
                {"transpose", "tiled_padded", CLC_FLOAT | CLC_DOUBLE, false}};
    int rc = CLC_OK;
    for (size_t i = 0; rc == CLC_OK && i < sizeof runs / sizeof runs[0]; i++) {
        struct clc_report one;
        struct clc_opts traced = *o;
        traced.model = runs[i].traced;
        rc = run_small(&traced, runs[i].name, runs[i].variant, runs[i].types, o->size, &one);
        for (size_t k = 0; rc == CLC_OK && k < one.n_results; k++) {
            /* a traced row was predicted on the profile the device kept before: not this
             * profile's figure, so left out of its rows */
            struct clc_row_model *m = &one.results[k].model;
            m->gbps = m->dram_bytes = m->dram_read_bytes = m->dram_write_bytes = NAN;
            m->bound[0] = '\0';
            rc = clc_report_add(rep, &one.results[k]);
        }
        clc_report_free(&one);
    }
    return rc;
}

/* The fixed cost of a launch: the copy kernel over LAUNCH_BYTES, which moves next to
 * nothing, timed as every row is (short launches batched). */
static int launch_cost(const struct clc_opts *o, double *us)
{
    struct clc_report rep;
    int rc = run_small(o, "copy", "kernel", CLC_FLOAT, LAUNCH_BYTES, &rep);
    for (size_t i = 0; rc == CLC_OK && i < rep.n_results; i++)
        if (rep.results[i].status == CLC_STATUS_OK)
            *us = rep.results[i].ms_min * 1e3; /* the least: the launch itself, not a stall */
    clc_report_free(&rep);
    return rc;
}

/* Whether a profile measured with o is the device's own, to keep for explain and run: at the
 * default sizes of the kernels found by default, not a smoke test. */
static bool keeps(const struct clc_opts *o)
{
    return !o->quick && o->size == 0 && !o->cold && o->kernel_dir == NULL;
}

/* Keeps profile p as the device's (profcache.h), and says where; false after a note. */
static bool keep(const struct clc_device_meta *d, const char *api, json_t *p)
{
    char path[4096];
    if (clc_profcache_store(d, api, write_profile, p, path, sizeof path) != CLC_OK) {
        clc_note("the profile is not kept for explain and run (above)");
        return false;
    }
    clc_note("kept as this device's profile in %s: explain and run predict with it where no "
             "--profile is given", path);
    return true;
}

/* ------------------------------------------------------------------ the command */

int clc_cmd_profile(int argc, char **argv)
{
    struct clc_run_args a;
    int rc = clc_parse_run_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(usage, stdout);
        return CLC_OK;
    }
    if (a.n_cases > 0 || a.opts.sweep_max || a.opts.variant) {
        clc_usage_error(PROG, HELP, "profile runs its own cases: no case names, --variant or "
                        "--sweep-size", NULL);
        return CLC_USAGE;
    }
    if (__builtin_popcount(a.opts.apis) > 1) {
        clc_usage_error(PROG, HELP, "profile measures one API at a time: --api opencl or cuda",
                        NULL);
        return CLC_USAGE;
    }
    if (a.output != NULL && clc_output_check(a.output) != CLC_OK)
        return CLC_ERR;
    clc_quiet = a.quiet;
    clc_guard_run(a.timeout);
    struct clc_opts o = a.opts;
    /* float for every case; double too where the device has it: the stride rows of both
     * types reach granules 2 and 4 apart */
    o.types = CLC_FLOAT | CLC_DOUBLE;
    o.types_given = false;
    o.profile = NULL;
    o.model = false; /* the profile's own rows need no trace */
    if (o.reps == 0)
        o.reps = REPS;
    static const char *const names[] = {"latency", "stream", "inflight", "groups", "gridstride",
                                        "banks",   "stride", "scatter", "runs",  "fma",
                                        "l2",      "stores", "indexmath"};
    struct clc_report rep;
    clc_report_init(&rep, clc_api_name(CLC_API_OPENCL));
    rc = clc_run(&o, names, sizeof names / sizeof names[0], &rep, NULL);
    if (rc == CLC_OK)
        rc = single_variants(&o, &rep);
    double launch_us = NAN;
    if (rc == CLC_OK)
        rc = launch_cost(&o, &launch_us);
    if (rc == CLC_OK) {
        json_t *p = profile_json(&rep, launch_us);
        json_t *rows = json_array();
        for (size_t i = 0; i < rep.n_results; i++)
            json_array_append_new(rows, clc_result_json(&rep.results[i]));
        json_object_set_new(p, "rows", rows);
        /* with no -o the JSON goes to stdout, unless that is a terminal and the profile is
         * kept: there it would bury the summary */
        bool json_stdout = a.output == NULL && !(keeps(&o) && isatty(STDOUT_FILENO));
        if (!clc_quiet || !json_stdout)
            clc_print_profile_summary(json_stdout ? stderr : stdout, p);
        rc = a.output != NULL ? clc_output_write(a.output, write_profile, p)
             : json_stdout    ? write_profile(stdout, p)
                              : CLC_OK;
        bool kept = rc == CLC_OK && keeps(&o) && keep(&rep.device, rep.apis[0].name, p);
        if (rc == CLC_OK && !kept && a.output == NULL && !json_stdout)
            rc = write_profile(stdout, p); /* not lost: the JSON after the summary */
        json_decref(p);
    }
    clc_report_free(&rep);
    return rc;
}
