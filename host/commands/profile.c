/* profile.c - `clcoalesce profile`: the device measured by the four cases that isolate one
 * mechanism each (latency, stream, inflight, banks), at their default sizes with few
 * repetitions, summed up as a device profile (JSON): the load-to-use latency of L1, L2 and
 * DRAM, the read, write, copy and triad ceilings, the bytes in flight per compute unit that
 * reach 50 % and 90 % of the read ceiling, and the local memory's banks.  Every figure comes
 * from a row of this run; the rows go into the profile too. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/outfile.h"

#define PROG "clcoalesce"
#define HELP "'clcoalesce profile --help'"
#define REPS 5

static const char usage[] =
    "usage: clcoalesce profile [--device SEL] [--api opencl|cuda] [-o FILE] [--size BYTES]\n"
    "                          [--reps N] [--quick] [--kernel-dir DIR] [--quiet]\n"
    "Measures the device with the latency, stream, inflight and banks cases (float, default\n"
    "sizes, 5 repetitions) and writes its profile as JSON to FILE (or stdout): L1, L2 and\n"
    "DRAM latency, the read / write / copy / triad ceilings, the bytes in flight per compute\n"
    "unit for 50 % and 90 % of the read ceiling, and the local memory's banks.  A summary\n"
    "goes to stdout with -o, else to stderr.\n";

/* ------------------------------------------------------------------ figures from rows */

static const struct clc_result *row(const struct clc_report *rep, const char *c, const char *v,
                                    long param)
{
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && strcmp(r->case_name, c) == 0 &&
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
        out[0] = value_of(row(rep, "latency", "chase", first));
    if (inside >= 0)
        out[1] = value_of(row(rep, "latency", "chase", inside));
    if (last >= 0 && l2 > 0 && ((uint64_t)last << 10) >= 2 * l2)
        out[2] = value_of(row(rep, "latency", "chase", last));
}

/* The fewest bytes in flight per compute unit that reach `frac` of `ceiling`, interpolated
 * between the inflight rows (on the rising envelope, log scale); NAN when none reaches it. */
static double inflight_for(const struct clc_report *rep, double ceiling, double frac)
{
    double best_x = NAN, want = frac * ceiling;
    double below_x = NAN, below_y = 0; /* the row with the most bandwidth under `want` ... */
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || strcmp(r->case_name, "inflight") != 0 ||
            isnan(r->in_flight))
            continue;
        if (r->gbps >= want && (isnan(best_x) || r->in_flight < best_x))
            best_x = r->in_flight;
    }
    if (isnan(best_x))
        return NAN;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || strcmp(r->case_name, "inflight") != 0 ||
            isnan(r->in_flight) || r->in_flight >= best_x || r->gbps >= want)
            continue;
        if (r->gbps > below_y || (r->gbps == below_y && r->in_flight > below_x)) {
            below_y = r->gbps;
            below_x = r->in_flight;
        }
    }
    double best_y = NAN;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && strcmp(r->case_name, "inflight") == 0 &&
            r->in_flight == best_x && (isnan(best_y) || r->gbps < best_y))
            best_y = r->gbps;
    }
    if (isnan(below_x) || best_y <= below_y)
        return best_x;
    double t = (want - below_y) / (best_y - below_y);
    return exp(log(below_x) + t * (log(best_x) - log(below_x)));
}

/* The banks: with 32 banks of 4 bytes, words s apart cost gcd(s, 32) passes.  The count is
 * the largest power of two s (2 .. 32) at which stride s runs at most 1.5 / s of stride 1's
 * bandwidth; 0 when no stride conflicts (a CPU). */
static int bank_count(const struct clc_report *rep)
{
    double one = value_of(row(rep, "banks", "stride", 1));
    int count = 0;
    for (int s = 2; s <= 32; s *= 2) {
        double v = value_of(row(rep, "banks", "stride", s));
        if (one > 0 && v > 0 && one / v >= s / 1.5)
            count = s;
    }
    return count;
}

/* ------------------------------------------------------------------ the profile */

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *profile_json(const struct clc_report *rep)
{
    const struct clc_device_meta *d = &rep->device;
    json_t *root = json_object(), *dev = json_object(), *lat = json_object(),
           *cyc = json_object(), *str = json_object(), *inf = json_object(),
           *banks = json_object(), *curve = json_array();
    double lv[3];
    latency_levels(rep, d->l2_bytes, lv);
    static const char *const level[] = {"l1", "l2", "dram"};
    for (int i = 0; i < 3; i++) {
        json_object_set_new(lat, level[i], num(lv[i]));
        json_object_set_new(cyc, level[i], num(d->clock_mhz > 0 ? lv[i] * d->clock_mhz * 1e-3 : NAN));
    }
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && strcmp(r->case_name, "latency") == 0)
            json_array_append_new(curve, json_pack("{s:I, s:o}", "kib", (json_int_t)r->param,
                                                   "ns", num(r->value)));
    }
    json_object_set_new(lat, "curve", curve);
    static const char *const streams[] = {"read", "write", "copy", "triad"};
    for (int i = 0; i < 4; i++)
        json_object_set_new(str, streams[i], num(value_of(row(rep, "stream", streams[i], -1))));
    double read = value_of(row(rep, "stream", "read", -1));
    json_object_set_new(inf, "ceiling", json_string("stream read"));
    json_object_set_new(inf, "bytes_per_cu_50", num(inflight_for(rep, read, 0.5)));
    json_object_set_new(inf, "bytes_per_cu_90", num(inflight_for(rep, read, 0.9)));
    int count = bank_count(rep);
    json_object_set_new(banks, "count", count ? json_integer(count) : json_null());
    json_object_set_new(banks, "width_bytes", count ? json_integer(4) : json_null());
    json_object_set_new(banks, "stride1_gbps", num(value_of(row(rep, "banks", "stride", 1))));
    json_object_set_new(banks, "stride32_gbps", num(value_of(row(rep, "banks", "stride", 32))));

    json_object_set_new(dev, "name", json_string(d->name));
    json_object_set_new(dev, "api", json_string(rep->apis[0].name));
    json_object_set_new(dev, "compute_units", json_integer(d->compute_units));
    json_object_set_new(dev, "clock_mhz", d->clock_mhz > 0 ? json_integer(d->clock_mhz) : json_null());
    json_object_set_new(dev, "l2_bytes", json_integer((json_int_t)d->l2_bytes));
    json_object_set_new(dev, "l2_source", json_string(d->l2_source[0] ? d->l2_source : "reported"));
    json_object_set_new(dev, "peak_gbps", num(d->peak_gbps));
    json_object_set_new(dev, "peak_source", json_string(d->peak_source));
    json_object_set_new(root, "tool", json_string("clcoalesce"));
    json_object_set_new(root, "profile_format", json_integer(1));
    json_object_set_new(root, "version", json_string(CLC_VERSION));
    json_object_set_new(root, "timestamp", json_string(rep->timestamp));
    json_object_set_new(root, "device", dev);
    json_object_set_new(root, "latency_ns", lat);
    json_object_set_new(root, "latency_cycles", cyc);
    json_object_set_new(root, "copy_ceiling_gbps", num(rep->apis[0].copy_gbps));
    json_object_set_new(root, "stream_gbps", str);
    json_object_set_new(root, "inflight", inf);
    json_object_set_new(root, "local_banks", banks);
    return root;
}

static void print_summary(FILE *f, json_t *p)
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
    static const char *const streams[] = {"read", "write", "copy", "triad"};
    for (int i = 0; i < 4; i++) {
        json_t *v = json_object_get(str, streams[i]);
        fprintf(f, "  stream  %-5s %8.1f GB/s\n", streams[i],
                json_is_number(v) ? json_number_value(v) : NAN);
    }
    json_t *h = json_object_get(inf, "bytes_per_cu_50"), *n = json_object_get(inf, "bytes_per_cu_90");
    fprintf(f, "  in flight per compute unit for 50 %% / 90 %% of the read ceiling: %.1f / %.1f KiB\n",
            json_is_number(h) ? json_number_value(h) / 1024 : NAN,
            json_is_number(n) ? json_number_value(n) / 1024 : NAN);
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
    o.types = CLC_FLOAT;
    if (o.reps == 0)
        o.reps = REPS;
    static const char *const names[] = {"latency", "stream", "inflight", "banks"};
    struct clc_report rep;
    clc_report_init(&rep, clc_api_name(CLC_API_OPENCL));
    rc = clc_run(&o, names, 4, &rep, NULL);
    if (rc == CLC_OK) {
        json_t *p = profile_json(&rep);
        json_t *rows = json_array();
        for (size_t i = 0; i < rep.n_results; i++)
            json_array_append_new(rows, clc_result_json(&rep.results[i]));
        json_object_set_new(p, "rows", rows);
        if (!clc_quiet || a.output != NULL)
            print_summary(a.output != NULL ? stdout : stderr, p);
        rc = a.output != NULL ? clc_output_write(a.output, write_profile, p)
                              : write_profile(stdout, p);
        json_decref(p);
    }
    clc_report_free(&rep);
    return rc;
}
