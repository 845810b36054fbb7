/* compare.c - `clcoalesce compare`: joins the rows of two or more result files by (case,
 * variant, param, type) and shows each file's figure beside the first file's with their
 * ratio, as a table, CSV or JSON.  The files may come from two APIs, two GPUs or two runs on
 * one; one file of a run with --api both is compared API with API; --api keeps one API's
 * rows of every file; --tolerance turns the comparison into a check, and --outliers into a
 * node's acceptance test: the files of one run per GPU, each row held against the median of
 * the other GPUs' of the same API.  --model (compare_model.c) holds each file's rows against
 * the predictive model instead: what the run predicted, or what a device profile (--profile)
 * predicts. */
#define _GNU_SOURCE
#include "clcoalesce/compare.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clcoalesce/outfile.h"
#include "clcoalesce/result.h"

static const char compare_usage[] =
    "usage: clcoalesce compare A.json B.json [MORE.json...] [options]\n"
    "       clcoalesce compare BOTH.json [options]\n"
    "       clcoalesce compare --model [--profile PROF] FILE.json [MORE.json...] [options]\n"
    "\n"
    "Joins the rows of result files by (case, variant, param, type) and shows each file's\n"
    "figure with its ratio to the FIRST file's.  Rows missing from a file show '-'; rows\n"
    "that did not verify or were skipped never give a ratio.  One file of a run with\n"
    "--api both is compared API with API (CUDA / OpenCL).\n"
    "\n"
    "      --api A               only the rows of API A (opencl or cuda) of every file\n"
    "  -f, --format FMT          table, csv or json (default table)\n"
    "  -o, --output FILE         write the comparison there (atomically; - for stdout)\n"
    "      --metric M            gbps (default) or ms: the figure compared; ratio = file / first\n"
    "      --tolerance PCT       exit 1 if any ratio lies outside [1 - PCT/100, 1 + PCT/100]\n"
    "      --outliers PCT        files of the same run on several devices (run --device all):\n"
    "                            mark every row more than PCT % slower than the median of the\n"
    "                            other devices' of its API (a file of a run with --api both\n"
    "                            is one device per API) and the devices that have one; exit\n"
    "                            1 if any; a device alone in its API is said to have no peer\n"
    "  -h, --help                this text\n"
    "\n"
    "      --model               each file on its own: its rows' measured GB/s against the\n"
    "                            predictive model's, with the residual (measured / predicted\n"
    "                            - 1), the limit that binds, and how many rows lie within\n"
    "                            20 %; as a table, or per row in JSON (-f json); no CSV\n"
    "      --profile PROF        with --model: predict every row again on the device profile\n"
    "                            PROF ('clcoalesce profile -o PROF') instead of showing what\n"
    "                            the run predicted; rows need the features a run records\n"
    "                            (not with --no-model)\n"
    "\n"
    "exit status: 0 compared (within the tolerance, no outlier), 1 unreadable file, no row\n"
    "joins, a ratio outside the tolerance or an outlier, 2 usage error.  With --model: 0\n"
    "whatever the residuals, 1 unreadable file or profile or a file with no predicted row,\n"
    "2 usage error\n";

enum metric { METRIC_GBPS, METRIC_MS };

/* One key of the join: the row each file holds for it, NULL where a file lacks it. */
struct joined {
    const struct clc_result *key; /* the first row seen with this key */
    const struct clc_result **cell; /* [n_files] */
    double *ratio;                  /* [n_files]; NAN where no ratio (always at 0) */
    double *to_peers;               /* [n_files]; speed / the median of the other files'
                                     * (> 1 faster), NAN without --outliers or peers */
    int n_present;
};

/* One file against its peers (--outliers): rows held, rows below, the slowest. */
struct peer_stats {
    size_t n, below;
    double worst;
    size_t worst_row;
};

/* Ratios of one file to the first: count, geometric mean and extremes. */
struct ratio_stats {
    size_t n;
    double log_sum;
    double min, max;
    size_t min_row, max_row;
};

struct compare {
    int n_files;
    const char **paths;
    struct clc_report *reps;
    enum metric metric;
    enum clc_format format;
    double tol_pct; /* NAN when --tolerance was not given */
    struct joined *rows;
    size_t n_rows, cap_rows;
    size_t n_joined;  /* keys present in every file */
    size_t n_partial; /* keys present in only some */
    size_t n_dupes;   /* repeated keys within one file, ignored */
    size_t n_outside; /* ratios outside the tolerance */
    struct ratio_stats *stats; /* [n_files]; [0] unused */
    double out_pct;   /* --outliers, NAN when not given */
    struct peer_stats *peers; /* [n_files] */
    int n_outlier_files;
    bool model;       /* --model: each file against the predictive model (compare_model.c) */
    const char *profile_path; /* --profile, NULL: the predictions the runs made */
};

static void usage_error(const char *msg, const char *arg)
{
    clc_usage_error("clcoalesce", "'clcoalesce compare --help'", msg, arg);
}

/* ------------------------------------------------------------------ the join */

static bool same_key(const struct clc_result *a, const struct clc_result *b)
{
    return a->type == b->type && a->has_param == b->has_param &&
           (!a->has_param || a->param == b->param) && strcmp(a->case_name, b->case_name) == 0 &&
           strcmp(a->variant, b->variant) == 0;
}

/* The figure compared, or NAN when the row is absent, did not verify or has none. */
static double figure(const struct clc_result *r, enum metric m)
{
    if (r == NULL || r->status != CLC_STATUS_OK)
        return NAN;
    double v = m == METRIC_GBPS ? r->gbps : r->ms_median;
    return isfinite(v) && v > 0 ? v : NAN;
}

/* Printable forms of a row's case and variant, which come from a file anyone may write:
 * control bytes shown as \xNN (clc_printable), never sent to the terminal. */
struct names {
    char case_name[4 * sizeof ((struct clc_result *)0)->case_name];
    char variant[4 * sizeof ((struct clc_result *)0)->variant];
};

static const struct names *printable_names(const struct clc_result *r, struct names *n)
{
    clc_printable(r->case_name, n->case_name, sizeof n->case_name);
    clc_printable(r->variant, n->variant, sizeof n->variant);
    return n;
}

static int add_row(struct compare *c, const struct clc_result *r, int file)
{
    if (c->n_rows == c->cap_rows) {
        size_t cap = c->cap_rows ? 2 * c->cap_rows : 128;
        struct joined *p = realloc(c->rows, cap * sizeof *p);
        if (p == NULL)
            return CLC_ERR;
        c->rows = p;
        c->cap_rows = cap;
    }
    struct joined *j = &c->rows[c->n_rows];
    j->key = r;
    j->cell = calloc((size_t)c->n_files, sizeof *j->cell);
    j->ratio = malloc((size_t)c->n_files * sizeof *j->ratio);
    j->to_peers = malloc((size_t)c->n_files * sizeof *j->to_peers);
    if (j->cell == NULL || j->ratio == NULL || j->to_peers == NULL) {
        free(j->cell);
        free(j->ratio);
        free(j->to_peers);
        return CLC_ERR;
    }
    j->cell[file] = r;
    j->n_present = 1;
    c->n_rows++;
    return CLC_OK;
}

/* The hash of a row's key (same_key): FNV-1a over its case, variant, param and type. */
static uint64_t key_hash(const struct clc_result *r)
{
    uint64_t h = 14695981039346656037ull;
    for (const char *p = r->case_name; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull; /* "ab"+"c" and "a"+"bc" differ */
    for (const char *p = r->variant; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    uint64_t tail[] = {(uint64_t)r->type, r->has_param, r->has_param ? (uint64_t)r->param : 0};
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++)
        h = (h ^ tail[i]) * 1099511628211ull;
    return h;
}

/* An open-addressed table from a key to its joined row, so that each row of each file is
 * matched in constant time (a scan of the rows so far made 70,000 rows take half a minute). */
struct key_index {
    size_t *slot; /* [mask + 1]: index in c->rows + 1, 0 for empty */
    size_t mask;
};

/* The slot of r's key: the one holding its row, or the empty one where it goes. */
static size_t *key_slot(const struct key_index *ix, const struct compare *c,
                        const struct clc_result *r)
{
    size_t i = (size_t)key_hash(r) & ix->mask;
    while (ix->slot[i] != 0 && !same_key(c->rows[ix->slot[i] - 1].key, r))
        i = (i + 1) & ix->mask;
    return &ix->slot[i];
}

/* Joins every file's rows; keys keep the order they are first met in, file by file. */
static int join(struct compare *c)
{
    size_t total = 0, cap = 16;
    for (int f = 0; f < c->n_files; f++)
        total += c->reps[f].n_results;
    while (cap < 2 * total) /* at most half full: probes stay short */
        cap *= 2;
    struct key_index ix = {calloc(cap, sizeof *ix.slot), cap - 1};
    if (ix.slot == NULL) {
        clc_error("out of memory joining the results");
        return CLC_ERR;
    }
    for (int f = 0; f < c->n_files; f++) {
        const struct clc_report *rep = &c->reps[f];
        for (size_t i = 0; i < rep->n_results; i++) {
            const struct clc_result *r = &rep->results[i];
            size_t *slot = key_slot(&ix, c, r);
            struct joined *j = *slot != 0 ? &c->rows[*slot - 1] : NULL;
            if (j == NULL) {
                if (add_row(c, r, f) != CLC_OK) {
                    clc_error("out of memory joining the results");
                    free(ix.slot);
                    return CLC_ERR;
                }
                *slot = c->n_rows;
            } else if (j->cell[f] != NULL) {
                c->n_dupes++;
            } else {
                j->cell[f] = r;
                j->n_present++;
            }
        }
    }
    free(ix.slot);
    double lo = 1.0 - c->tol_pct / 100.0 - 1e-9, hi = 1.0 + c->tol_pct / 100.0 + 1e-9;
    for (int f = 1; f < c->n_files; f++)
        c->stats[f].min = INFINITY, c->stats[f].max = -INFINITY;
    for (size_t k = 0; k < c->n_rows; k++) {
        struct joined *j = &c->rows[k];
        if (j->n_present == c->n_files)
            c->n_joined++;
        else
            c->n_partial++;
        double base = figure(j->cell[0], c->metric);
        j->ratio[0] = NAN;
        for (int f = 1; f < c->n_files; f++) {
            double v = figure(j->cell[f], c->metric);
            j->ratio[f] = v / base; /* NAN when either is NAN */
            if (isnan(j->ratio[f]))
                continue;
            struct ratio_stats *s = &c->stats[f];
            s->n++;
            s->log_sum += log(j->ratio[f]);
            if (j->ratio[f] < s->min)
                s->min = j->ratio[f], s->min_row = k;
            if (j->ratio[f] > s->max)
                s->max = j->ratio[f], s->max_row = k;
            if (!isnan(c->tol_pct) && (j->ratio[f] < lo || j->ratio[f] > hi))
                c->n_outside++;
        }
    }
    return CLC_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Whether inputs f and g are of one API: --outliers holds a device against the other
 * devices of its own API only (OpenCL and CUDA on one GPU are one device, not two). */
static bool same_api(const struct compare *c, int f, int g)
{
    return strcmp(c->reps[f].api, c->reps[g].api) == 0;
}

/* How many inputs other than f are of f's API: its peers. */
static int n_peers(const struct compare *c, int f)
{
    int n = 0;
    for (int g = 0; g < c->n_files; g++)
        n += g != f && same_api(c, f, g);
    return n;
}

/* Speed of file f's row against the median of the other files' of its API (> 1: faster),
 * or NAN. */
static double against_peers(const struct compare *c, const struct joined *j, int f,
                            double *scratch)
{
    double v = figure(j->cell[f], c->metric);
    size_t n = 0;
    for (int g = 0; g < c->n_files; g++) {
        double w = figure(j->cell[g], c->metric);
        if (g != f && same_api(c, f, g) && !isnan(w))
            scratch[n++] = w;
    }
    if (isnan(v) || n == 0)
        return NAN;
    qsort(scratch, n, sizeof *scratch, cmp_double);
    double median = n % 2 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
    return c->metric == METRIC_GBPS ? v / median : median / v;
}

static bool is_outlier(const struct compare *c, double to_peers)
{
    return !isnan(c->out_pct) && !isnan(to_peers) && to_peers < 1.0 - c->out_pct / 100.0 - 1e-9;
}

/* --outliers: every row of every file against its peers. */
static int hold_against_peers(struct compare *c)
{
    double *scratch = malloc((size_t)c->n_files * sizeof *scratch);
    if (scratch == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    for (int f = 0; f < c->n_files; f++)
        c->peers[f] = (struct peer_stats){0, 0, INFINITY, 0};
    for (size_t k = 0; k < c->n_rows; k++) {
        struct joined *j = &c->rows[k];
        for (int f = 0; f < c->n_files; f++) {
            j->to_peers[f] = isnan(c->out_pct) ? NAN : against_peers(c, j, f, scratch);
            if (isnan(j->to_peers[f]))
                continue;
            struct peer_stats *p = &c->peers[f];
            p->n++;
            p->below += is_outlier(c, j->to_peers[f]);
            if (j->to_peers[f] < p->worst)
                p->worst = j->to_peers[f], p->worst_row = k;
        }
    }
    for (int f = 0; f < c->n_files; f++)
        c->n_outlier_files += c->peers[f].below > 0;
    free(scratch);
    return CLC_OK;
}

static bool outside(const struct compare *c, double ratio)
{
    return !isnan(c->tol_pct) && !isnan(ratio) &&
           (ratio < 1.0 - c->tol_pct / 100.0 - 1e-9 || ratio > 1.0 + c->tol_pct / 100.0 + 1e-9);
}

static const char *metric_name(enum metric m)
{
    return m == METRIC_GBPS ? "gbps" : "ms";
}

static const char *or_unknown(const char *s, const char *what)
{
    return s[0] ? s : what;
}

/* ------------------------------------------------------------------ text parts */

static void write_header(const struct compare *c, FILE *f)
{
    fprintf(f, "comparing %s (%s); ratio = file / [1]\n",
            c->metric == METRIC_GBPS ? "GB/s" : "ms per launch",
            c->metric == METRIC_GBPS ? "higher is faster" : "lower is faster");
    for (int i = 0; i < c->n_files; i++) {
        const struct clc_report *r = &c->reps[i];
        char path[1024], api[4 * sizeof r->api], dev[4 * sizeof r->device.name],
            when[4 * sizeof r->timestamp];
        fprintf(f, "  [%d] %s: %s on %s (%s)\n", i + 1,
                clc_printable(c->paths[i], path, sizeof path),
                clc_printable(or_unknown(r->api, "unknown api"), api, sizeof api),
                clc_printable(or_unknown(r->device.name, "unknown device"), dev, sizeof dev),
                clc_printable(or_unknown(r->timestamp, "no timestamp"), when, sizeof when));
    }
}

static void write_summary(const struct compare *c, FILE *f)
{
    fprintf(f, "joined %zu row%s", c->n_joined, c->n_joined == 1 ? "" : "s");
    if (c->n_partial > 0)
        fprintf(f, "; %zu row%s only in some files", c->n_partial, c->n_partial == 1 ? "" : "s");
    if (c->n_dupes > 0)
        fprintf(f, "; %zu repeated row%s ignored", c->n_dupes, c->n_dupes == 1 ? "" : "s");
    fputc('\n', f);
    for (int i = 1; i < c->n_files; i++) {
        const struct ratio_stats *s = &c->stats[i];
        if (s->n == 0) {
            fprintf(f, "[%d]/[1]: no ratio (no verified row in both)\n", i + 1);
            continue;
        }
        char lmin[512], lmax[512];
        clc_row_label(c->rows[s->min_row].key, lmin, sizeof lmin);
        clc_row_label(c->rows[s->max_row].key, lmax, sizeof lmax);
        fprintf(f, "[%d]/[1]: %zu ratio%s, geomean %.3f, min %.3f (%s), max %.3f (%s)\n", i + 1,
                s->n, s->n == 1 ? "" : "s", exp(s->log_sum / (double)s->n), s->min, lmin, s->max,
                lmax);
    }
    for (int i = 0; !isnan(c->out_pct) && i < c->n_files; i++) {
        const struct clc_report *r = &c->reps[i];
        const struct peer_stats *p = &c->peers[i];
        char dev[4 * sizeof r->device.name], bus[4 * sizeof r->device.pci_bus_id], worst[512];
        clc_printable(or_unknown(r->device.name, "unknown device"), dev, sizeof dev);
        clc_printable(or_unknown(r->device.pci_bus_id, "no bus id"), bus, sizeof bus);
        if (n_peers(c, i) == 0) {
            char api[4 * sizeof r->api];
            fprintf(f, "[%d] %s (%s): the only %s device: no peer to hold it against\n", i + 1,
                    dev, bus, clc_printable(or_unknown(r->api, "unknown api"), api, sizeof api));
            continue;
        }
        if (p->n == 0) {
            fprintf(f, "[%d] %s (%s): no row to hold against its peers\n", i + 1, dev, bus);
            continue;
        }
        clc_row_label(c->rows[p->worst_row].key, worst, sizeof worst);
        fprintf(f, "[%d] %s (%s): %s %zu of %zu rows more than %g%% below the median of its "
                "peers; slowest %.3f x (%s)\n", i + 1, dev, bus, p->below ? "OUTLIER," : "ok,",
                p->below, p->n, c->out_pct, p->worst, worst);
    }
    if (!isnan(c->tol_pct)) {
        if (c->n_outside == 0)
            fprintf(f, "all ratios within %g%%\n", c->tol_pct);
        else
            fprintf(f, "%zu ratio%s outside %g%%\n", c->n_outside, c->n_outside == 1 ? "" : "s",
                    c->tol_pct);
    }
}

/* ------------------------------------------------------------------ table */

static void cell_text(const struct compare *c, const struct clc_result *r, char *buf, size_t len)
{
    if (r == NULL) {
        snprintf(buf, len, "-");
    } else if (r->status != CLC_STATUS_OK) {
        snprintf(buf, len, "%s", clc_status_name(r->status));
    } else {
        double v = figure(r, c->metric);
        if (isnan(v))
            snprintf(buf, len, "-");
        else
            snprintf(buf, len, c->metric == METRIC_GBPS ? "%.1f" : "%.4f", v);
    }
}

static void write_table(const struct compare *c, FILE *f)
{
    write_header(c, f);
    fputc('\n', f);
    fprintf(f, "%-12s %-20s %6s %-6s", "case", "variant", "param", "type");
    for (int i = 0; i < c->n_files; i++) {
        char h[32];
        snprintf(h, sizeof h, "[%d] %s", i + 1, c->metric == METRIC_GBPS ? "GB/s" : "ms");
        fprintf(f, " %10s", h);
        if (i > 0) {
            snprintf(h, sizeof h, "[%d]/[1]", i + 1);
            fprintf(f, " %8s", h);
        }
    }
    fputc('\n', f);
    for (size_t k = 0; k < c->n_rows; k++) {
        const struct joined *j = &c->rows[k];
        char param[24] = "-";
        if (j->key->has_param)
            snprintf(param, sizeof param, "%ld", j->key->param);
        struct names n;
        printable_names(j->key, &n);
        fprintf(f, "%-12s %-20s %6s %-6s", n.case_name, n.variant, param,
                clc_type_name(j->key->type));
        for (int i = 0; i < c->n_files; i++) {
            char v[32];
            cell_text(c, j->cell[i], v, sizeof v);
            if (is_outlier(c, j->to_peers[i])) /* '<': slower than its peers (--outliers) */
                strncat(v, "<", sizeof v - strlen(v) - 1);
            fprintf(f, " %10s", v);
            if (i > 0) {
                /* '!' marks a ratio outside the tolerance */
                if (isnan(j->ratio[i]))
                    fprintf(f, " %8s", "-");
                else
                    fprintf(f, " %7.3f%c", j->ratio[i], outside(c, j->ratio[i]) ? '!' : ' ');
            }
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    write_summary(c, f);
}

/* ------------------------------------------------------------------ CSV */

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputs(",", f);
    else
        fprintf(f, ",%.6g", v);
}

static void write_csv(const struct compare *c, FILE *f)
{
    const char *m = metric_name(c->metric);
    fputs("case,variant,param,type", f);
    for (int i = 1; i <= c->n_files; i++) {
        fprintf(f, ",status_%d,%s_%d", i, m, i);
        if (i > 1)
            fprintf(f, ",ratio_%d", i);
    }
    fputc('\n', f);
    for (size_t k = 0; k < c->n_rows; k++) {
        const struct joined *j = &c->rows[k];
        clc_csv_name(f, j->key->case_name);
        fputc(',', f);
        clc_csv_name(f, j->key->variant);
        fputc(',', f);
        if (j->key->has_param)
            fprintf(f, "%ld", j->key->param);
        fprintf(f, ",%s", clc_type_name(j->key->type));
        for (int i = 0; i < c->n_files; i++) {
            const struct clc_result *r = j->cell[i];
            fprintf(f, ",%s", r == NULL ? "missing" : clc_status_name(r->status));
            csv_num(f, figure(r, c->metric));
            if (i > 0)
                csv_num(f, j->ratio[i]);
        }
        fputc('\n', f);
    }
}

/* ------------------------------------------------------------------ JSON */

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const struct compare *c, const struct joined *j)
{
    json_t *o = json_object();
    json_object_set_new(o, "case", json_string(j->key->case_name));
    json_object_set_new(o, "variant", json_string(j->key->variant));
    json_object_set_new(o, "param", j->key->has_param ? json_integer(j->key->param) : json_null());
    json_object_set_new(o, "type", json_string(clc_type_name(j->key->type)));
    json_object_set_new(o, "in_all_files", json_boolean(j->n_present == c->n_files));
    json_t *cells = json_array();
    for (int i = 0; i < c->n_files; i++) {
        const struct clc_result *r = j->cell[i];
        if (r == NULL) {
            json_array_append_new(cells, json_null());
            continue;
        }
        json_t *e = json_object();
        json_object_set_new(e, "status", json_string(clc_status_name(r->status)));
        json_object_set_new(e, "gbps", num_or_null(figure(r, METRIC_GBPS)));
        json_object_set_new(e, "ms_median", num_or_null(figure(r, METRIC_MS)));
        if (!isnan(c->out_pct)) {
            json_object_set_new(e, "to_peers", num_or_null(j->to_peers[i]));
            json_object_set_new(e, "outlier", json_boolean(is_outlier(c, j->to_peers[i])));
        }
        if (i > 0) {
            json_object_set_new(e, "ratio", num_or_null(j->ratio[i]));
            if (!isnan(c->tol_pct))
                json_object_set_new(e, "outside_tolerance", json_boolean(outside(c, j->ratio[i])));
        }
        json_array_append_new(cells, e);
    }
    json_object_set_new(o, "files", cells);
    return o;
}

static json_t *compare_json(const struct compare *c)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_string("clcoalesce"));
    json_object_set_new(root, "version", json_string(CLC_VERSION));
    json_object_set_new(root, "command", json_string("compare"));
    json_object_set_new(root, "metric", json_string(metric_name(c->metric)));
    json_object_set_new(root, "tolerance_pct", num_or_null(c->tol_pct));
    json_object_set_new(root, "outliers_pct", num_or_null(c->out_pct));
    json_t *files = json_array();
    for (int i = 0; i < c->n_files; i++) {
        const struct clc_report *r = &c->reps[i];
        json_t *o = json_object();
        json_object_set_new(o, "path", json_string(c->paths[i]));
        json_object_set_new(o, "api", json_string(r->api));
        json_object_set_new(o, "device", json_string(r->device.name));
        json_object_set_new(o, "pci_bus_id", json_string(r->device.pci_bus_id));
        json_object_set_new(o, "timestamp", json_string(r->timestamp));
        json_object_set_new(o, "version", json_string(r->version));
        json_object_set_new(o, "peak_gbps", num_or_null(r->device.peak_gbps));
        json_object_set_new(o, "copy_gbps", num_or_null(r->device.copy_gbps));
        json_array_append_new(files, o);
    }
    json_object_set_new(root, "files", files);
    json_t *rows = json_array();
    for (size_t k = 0; k < c->n_rows; k++)
        json_array_append_new(rows, row_json(c, &c->rows[k]));
    json_object_set_new(root, "rows", rows);
    json_t *sum = json_object();
    json_object_set_new(sum, "joined", json_integer((json_int_t)c->n_joined));
    json_object_set_new(sum, "partial", json_integer((json_int_t)c->n_partial));
    json_object_set_new(sum, "repeated", json_integer((json_int_t)c->n_dupes));
    json_t *ratios = json_array();
    for (int i = 1; i < c->n_files; i++) {
        const struct ratio_stats *s = &c->stats[i];
        json_t *o = json_object();
        json_object_set_new(o, "file", json_integer(i + 1));
        json_object_set_new(o, "n", json_integer((json_int_t)s->n));
        if (s->n > 0) {
            char lmin[512], lmax[512];
            clc_row_label(c->rows[s->min_row].key, lmin, sizeof lmin);
            clc_row_label(c->rows[s->max_row].key, lmax, sizeof lmax);
            json_object_set_new(o, "geomean", json_real(exp(s->log_sum / (double)s->n)));
            json_object_set_new(o, "min", json_real(s->min));
            json_object_set_new(o, "min_row", json_string(lmin));
            json_object_set_new(o, "max", json_real(s->max));
            json_object_set_new(o, "max_row", json_string(lmax));
        }
        json_array_append_new(ratios, o);
    }
    json_object_set_new(sum, "ratios", ratios);
    if (!isnan(c->tol_pct))
        json_object_set_new(sum, "outside_tolerance", json_integer((json_int_t)c->n_outside));
    if (!isnan(c->out_pct)) {
        json_t *out = json_array();
        for (int i = 0; i < c->n_files; i++) {
            const struct peer_stats *p = &c->peers[i];
            json_t *o = json_object();
            json_object_set_new(o, "file", json_integer(i + 1));
            json_object_set_new(o, "rows", json_integer((json_int_t)p->n));
            json_object_set_new(o, "below", json_integer((json_int_t)p->below));
            json_object_set_new(o, "outlier", json_boolean(p->below > 0));
            json_object_set_new(o, "slowest", num_or_null(p->n ? p->worst : NAN));
            json_array_append_new(out, o);
        }
        json_object_set_new(sum, "outliers_pct", json_real(c->out_pct));
        json_object_set_new(sum, "outliers", out);
    }
    json_object_set_new(root, "summary", sum);
    return root;
}

/* ------------------------------------------------------------------ output */

static int write_output(FILE *f, void *ctx)
{
    const struct compare *c = ctx;
    if (c->format == CLC_FMT_TABLE) {
        write_table(c, f);
    } else if (c->format == CLC_FMT_CSV) {
        write_csv(c, f);
    } else {
        json_t *root = compare_json(c);
        int rc = clc_json_dump(f, root);
        json_decref(root);
        if (rc != CLC_OK)
            return CLC_ERR;
    }
    return ferror(f) ? CLC_ERR : CLC_OK;
}

/* Names every ratio outside the tolerance on stderr. */
static void report_outside(const struct compare *c)
{
    clc_error("%zu ratio%s outside the %g%% tolerance [%.4g, %.4g]:", c->n_outside,
              c->n_outside == 1 ? "" : "s", c->tol_pct, 1.0 - c->tol_pct / 100.0,
              1.0 + c->tol_pct / 100.0);
    for (size_t k = 0; k < c->n_rows; k++) {
        const struct joined *j = &c->rows[k];
        for (int i = 1; i < c->n_files; i++) {
            if (!outside(c, j->ratio[i]))
                continue;
            char label[512];
            clc_row_label(j->key, label, sizeof label);
            fprintf(stderr, "  %-40s [%d]/[1] = %.3f\n", label, i + 1, j->ratio[i]);
        }
    }
}

/* Names every row slower than its peers by more than --outliers on stderr. */
static void report_outliers(const struct compare *c)
{
    clc_error("%d of %d devices have rows more than %g%% below the median of their peers:",
              c->n_outlier_files, c->n_files, c->out_pct);
    for (size_t k = 0; k < c->n_rows; k++) {
        const struct joined *j = &c->rows[k];
        for (int i = 0; i < c->n_files; i++) {
            if (!is_outlier(c, j->to_peers[i]))
                continue;
            char label[512], bus[4 * sizeof c->reps[i].device.pci_bus_id];
            clc_row_label(j->key, label, sizeof label);
            clc_printable(or_unknown(c->reps[i].device.pci_bus_id, "no bus id"), bus, sizeof bus);
            fprintf(stderr, "  %-40s [%d] (%s) = %.3f x its peers\n", label, i + 1, bus,
                    j->to_peers[i]);
        }
    }
    /* a peer that ran a row fast for once marks the other (seen on a node of two H200s) */
    bool one_peer = false;
    for (int i = 0; i < c->n_files; i++)
        one_peer |= c->peers[i].below > 0 && n_peers(c, i) == 1;
    if (one_peer)
        fprintf(stderr, "  (with two devices a marked row says that they differ, not which one is "
                "off: run again, or add a file of a third device as a peer)\n");
}

/* Keeps only the rows of one API in rep. */
static int select_api(struct clc_report *rep, const char *api)
{
    struct clc_report one;
    if (clc_report_select_api(rep, api, &one) != CLC_OK) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    clc_report_free(rep);
    *rep = one;
    return CLC_OK;
}

/* File f of a run with several APIs becomes one input per API in its place, its first API
 * first; the inputs after it move up (the caller made room for them). */
static int split_apis(struct compare *c, int f)
{
    const char *names[CLC_MAX_APIS];
    int n = clc_report_apis(&c->reps[f], names, CLC_MAX_APIS);
    if (n < 2)
        return CLC_OK;
    struct clc_report all = c->reps[f];
    size_t tail = (size_t)(c->n_files - f - 1);
    memmove(&c->reps[f + n], &c->reps[f + 1], tail * sizeof *c->reps);
    memmove(&c->paths[f + n], &c->paths[f + 1], tail * sizeof *c->paths);
    c->n_files += n - 1;
    for (int i = 0; i < n; i++)
        clc_report_init(&c->reps[f + i], ""); /* freeable whatever happens below */
    int rc = CLC_OK;
    for (int i = 0; i < n && rc == CLC_OK; i++) {
        if (clc_report_select_api(&all, names[i], &c->reps[f + i]) != CLC_OK) {
            clc_error("out of memory");
            clc_report_init(&c->reps[f + i], "");
            rc = CLC_ERR;
        }
        c->paths[f + i] = c->paths[f];
    }
    clc_report_free(&all);
    return rc;
}

static void compare_free(struct compare *c)
{
    for (size_t k = 0; k < c->n_rows; k++) {
        free(c->rows[k].cell);
        free(c->rows[k].ratio);
        free(c->rows[k].to_peers);
    }
    free(c->rows);
    if (c->reps != NULL)
        for (int i = 0; i < c->n_files; i++)
            clc_report_free(&c->reps[i]);
    free(c->reps);
    free(c->stats);
    free(c->peers);
    free(c->paths);
}

enum { OPT_TOLERANCE = 256, OPT_METRIC, OPT_API, OPT_OUTLIERS, OPT_MODEL, OPT_PROFILE };

static const struct option compare_options[] = {
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"outliers", required_argument, NULL, OPT_OUTLIERS},
    {"metric", required_argument, NULL, OPT_METRIC},
    {"api", required_argument, NULL, OPT_API},
    {"model", no_argument, NULL, OPT_MODEL},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int clc_cmd_compare(int argc, char **argv)
{
    struct compare c;
    memset(&c, 0, sizeof c);
    c.metric = METRIC_GBPS;
    c.format = CLC_FMT_TABLE;
    c.tol_pct = NAN;
    c.out_pct = NAN;
    const char *output = NULL, *api = NULL;
    bool metric_given = false;
    /* 0, not 1: glibc then also forgets a cluster of short options an earlier parse
     * stopped inside ("-hq" stops at h), which it would go on reading from that argv */
    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":f:o:h", compare_options, NULL)) != -1) {
        switch (opt) {
        case 'f':
            if (clc_parse_format(optarg, &c.format) != CLC_OK) {
                usage_error("--format takes table, csv or json, not", optarg);
                return CLC_USAGE;
            }
            break;
        case 'o': output = optarg; break;
        case OPT_TOLERANCE:
        case OPT_OUTLIERS: {
            char *end;
            errno = 0;
            double t = strtod(optarg, &end);
            bool outliers = opt == OPT_OUTLIERS;
            if (end == optarg || *end != '\0' || errno != 0 || !isfinite(t) || t < 0 ||
                (outliers && t >= 100)) {
                usage_error(outliers ? "--outliers takes a percentage from 0 to below 100, not"
                                     : "--tolerance takes a percentage >= 0, not", optarg);
                return CLC_USAGE;
            }
            *(outliers ? &c.out_pct : &c.tol_pct) = t;
            break;
        }
        case OPT_METRIC:
            metric_given = true;
            if (strcmp(optarg, "gbps") == 0)
                c.metric = METRIC_GBPS;
            else if (strcmp(optarg, "ms") == 0)
                c.metric = METRIC_MS;
            else {
                usage_error("--metric takes gbps or ms, not", optarg);
                return CLC_USAGE;
            }
            break;
        case OPT_API:
            if (strcmp(optarg, "opencl") != 0 && strcmp(optarg, "cuda") != 0) {
                usage_error("--api takes opencl or cuda, not", optarg);
                return CLC_USAGE;
            }
            api = optarg;
            break;
        case OPT_MODEL: c.model = true; break;
        case OPT_PROFILE: c.profile_path = optarg; break;
        case 'h': fputs(compare_usage, stdout); return CLC_OK;
        case ':': usage_error("option needs a value:", argv[optind - 1]); return CLC_USAGE;
        default: usage_error("unknown option", argv[optind - 1]); return CLC_USAGE;
        }
    }
    if (c.profile_path != NULL && !c.model) {
        usage_error("--profile goes with --model", NULL);
        return CLC_USAGE;
    }
    if (c.model && (metric_given || !isnan(c.tol_pct) || !isnan(c.out_pct))) {
        usage_error("--model holds GB/s against the model: --metric, --tolerance and "
                    "--outliers do not apply", NULL);
        return CLC_USAGE;
    }
    if (c.model && c.format == CLC_FMT_CSV) {
        usage_error("--model writes a table or JSON, not", "csv");
        return CLC_USAGE;
    }
    c.n_files = argc - optind;
    if (c.model && c.n_files < 1) {
        usage_error("--model needs a result file", NULL);
        return CLC_USAGE;
    }
    if (c.n_files < 1) {
        usage_error("compare needs two result files, or one of a run with --api both", NULL);
        return CLC_USAGE;
    }
    /* an output that is one of the files compared would replace it */
    for (int i = 0; i < c.n_files; i++) {
        const struct clc_input in[] = {{argv[optind + i], NULL}, {c.profile_path, "--profile"}};
        if (clc_output_refuse_inputs("clcoalesce", "'clcoalesce compare --help'", "-o", output,
                                     in, i == 0 ? 2 : 1) != CLC_OK)
            return CLC_USAGE;
    }
    /* room for every file split into its APIs */
    c.paths = calloc((size_t)c.n_files * CLC_MAX_APIS, sizeof *c.paths);
    c.reps = calloc((size_t)c.n_files * CLC_MAX_APIS, sizeof *c.reps);
    c.stats = calloc((size_t)c.n_files * CLC_MAX_APIS, sizeof *c.stats);
    c.peers = calloc((size_t)c.n_files * CLC_MAX_APIS, sizeof *c.peers);
    int rc = CLC_ERR;
    if (c.paths == NULL || c.reps == NULL || c.stats == NULL || c.peers == NULL) {
        clc_error("out of memory");
        goto done;
    }
    if (clc_output_is_stdout(output))
        output = NULL; /* "-": stdout, as without --output */
    else if (clc_output_check(output) != CLC_OK)
        goto done; /* before reading anything: it said what is wrong with the path */
    for (int i = 0; i < c.n_files; i++) {
        c.paths[i] = argv[optind + i];
        if (clc_read_json(c.paths[i], &c.reps[i]) != CLC_OK)
            goto done; /* it said what is wrong with the file */
        if (api != NULL && select_api(&c.reps[i], api) != CLC_OK)
            goto done;
    }
    if (c.model) {
        rc = clc_compare_model(c.n_files, c.paths, c.reps, c.profile_path, c.format, output);
        goto done;
    }
    /* one file is compared API with API; --outliers holds each API's devices against their
     * own API's, so every file of a run with several APIs is split */
    for (int f = c.n_files - 1; f >= 0 && api == NULL && (c.n_files == 1 || !isnan(c.out_pct));
         f--)
        if (split_apis(&c, f) != CLC_OK)
            goto done;
    if (c.n_files < 2) {
        clc_error("%s holds the rows of one API: compare needs two result files, or one of a "
                  "run with --api both", c.paths[0]);
        rc = CLC_USAGE;
        goto done;
    }
    if (join(&c) != CLC_OK || hold_against_peers(&c) != CLC_OK)
        goto done;
    if (c.n_joined == 0) {
        clc_error("no row is in all %d files: nothing to compare", c.n_files);
        goto done;
    }
    if (output != NULL) {
        if (clc_output_write(output, write_output, &c) != CLC_OK)
            goto done;
        write_header(&c, stdout);
        write_summary(&c, stdout);
        char shown[1024];
        printf("wrote %s\n", clc_printable(output, shown, sizeof shown));
    } else if (c.format == CLC_FMT_TABLE) {
        if (clc_output_write("-", write_output, &c) != CLC_OK)
            goto done;
    } else {
        /* stdout carries only the CSV or JSON; the header and summary go to stderr */
        if (clc_output_write("-", write_output, &c) != CLC_OK)
            goto done;
        write_header(&c, stderr);
        write_summary(&c, stderr);
    }
    fflush(stdout);
    if (c.n_outside > 0)
        report_outside(&c);
    if (c.n_outlier_files > 0)
        report_outliers(&c);
    if (c.n_outside > 0 || c.n_outlier_files > 0)
        goto done;
    rc = CLC_OK;
done:
    compare_free(&c);
    return rc;
}
