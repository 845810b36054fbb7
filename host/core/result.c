/* result.c - result rows and the report: table, CSV and JSON writers (files through
 * outfile.c), and the strict JSON reader that compare, plot and explain share. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/result.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clcoalesce/lesson.h"
#include "clcoalesce/outfile.h"
#include "clcoalesce/stats.h"

bool clc_result_noisy(const struct clc_result *r)
{
    return r->status == CLC_STATUS_OK && isfinite(r->cv) && r->cv > CLC_NOISY_CV;
}

void clc_report_note_noisy(const struct clc_report *rep, size_t first)
{
    size_t n = 0, worst = first;
    for (size_t i = first; i < rep->n_results; i++) {
        if (!clc_result_noisy(&rep->results[i]))
            continue;
        if (n++ == 0 || rep->results[i].cv > rep->results[worst].cv)
            worst = i;
    }
    if (n == 0)
        return;
    char label[512];
    clc_row_label(&rep->results[worst], label, sizeof label);
    clc_note("%zu row%s (marked 'noisy') spread by more than %.0f %% (cv) from sample to "
             "sample, up to %.0f %% (%s): their median is less sure than the others'; more "
             "--reps, an idle machine, or a larger --size steadies them (docs/noise.md)", n,
             n == 1 ? "" : "s", 100 * CLC_NOISY_CV, 100 * rep->results[worst].cv, label);
}

const char *clc_status_name(enum clc_status s)
{
    switch (s) {
    case CLC_STATUS_OK: return "ok";
    case CLC_STATUS_SKIPPED: return "skipped";
    default: return "error";
    }
}

static const struct {
    const char *name, *unit;
} metrics[CLC_METRIC_COUNT] = {
    [CLC_METRIC_GBPS] = {"gbps", "GB/s"},
    [CLC_METRIC_NS_PER_ACCESS] = {"ns_per_access", "ns"},
};

const char *clc_metric_name(enum clc_metric m)
{
    return (unsigned)m < CLC_METRIC_COUNT ? metrics[m].name : "?";
}

const char *clc_metric_unit(enum clc_metric m)
{
    return (unsigned)m < CLC_METRIC_COUNT ? metrics[m].unit : "?";
}

int clc_parse_metric(const char *s, enum clc_metric *m)
{
    for (unsigned i = 0; i < CLC_METRIC_COUNT; i++) {
        if (strcmp(s, metrics[i].name) == 0) {
            *m = (enum clc_metric)i;
            return CLC_OK;
        }
    }
    return CLC_USAGE;
}

void clc_result_init(struct clc_result *r, const char *case_name, const char *variant,
                     enum clc_type type)
{
    memset(r, 0, sizeof *r);
    snprintf(r->case_name, sizeof r->case_name, "%s", case_name);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->api, sizeof r->api, "opencl");
    r->metric = CLC_METRIC_GBPS;
    r->value = r->accesses = r->in_flight = r->flops = NAN;
    r->type = type;
    r->batch = 1;
    r->ms_median = r->ms_min = r->ms_max = r->cv = r->ms_host = NAN;
    r->gbps = r->pct_copy = r->pct_peak = NAN;
    r->model.sectors_per_req = r->model.efficiency = r->model.bytes_moved = NAN;
    r->model.ld_sectors_per_req = r->model.st_sectors_per_req = NAN;
    clc_model_features_clear(&r->model.features);
    r->model.gbps = r->model.dram_bytes = r->model.dram_read_bytes = r->model.dram_write_bytes = NAN;
    r->status = CLC_STATUS_ERROR;
}

void clc_result_set_param(struct clc_result *r, long param)
{
    r->param = param;
    r->has_param = true;
}

void clc_note_append(struct clc_result *r, const char *fmt, ...)
{
    size_t len = strlen(r->note);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->note + len, sizeof r->note - len, fmt, ap);
    va_end(ap);
}

void clc_note_batch(struct clc_result *r, int batch)
{
    if (batch > 1)
        clc_note_append(r, ", %d launches per timed sample", batch);
}

void clc_report_init(struct clc_report *rep, const char *api)
{
    memset(rep, 0, sizeof *rep);
    snprintf(rep->tool, sizeof rep->tool, "clcoalesce");
    snprintf(rep->version, sizeof rep->version, "%s", CLC_VERSION);
    snprintf(rep->api, sizeof rep->api, "%s", api);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(rep->timestamp, sizeof rep->timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    rep->format = CLC_RESULT_FORMAT;
    rep->table_cols = CLC_COL_ALL & ~CLC_COL_API;
    rep->device.cc_major = rep->device.cc_minor = rep->device.warp_size = -1;
    rep->device.peak_gbps = rep->device.copy_gbps = NAN;
    for (int i = 0; i < CLC_MAX_APIS; i++)
        rep->apis[i].copy_gbps = NAN;
}

void clc_report_free(struct clc_report *rep)
{
    free(rep->results);
    rep->results = NULL;
    rep->n_results = rep->cap_results = 0;
}

int clc_report_add(struct clc_report *rep, const struct clc_result *r)
{
    if (rep->n_results == rep->cap_results) {
        size_t cap = rep->cap_results ? 2 * rep->cap_results : 64;
        struct clc_result *p = realloc(rep->results, cap * sizeof *p);
        if (p == NULL) {
            clc_error("out of memory for results");
            return CLC_ERR;
        }
        rep->results = p;
        rep->cap_results = cap;
    }
    rep->results[rep->n_results++] = *r;
    return CLC_OK;
}

int clc_report_apis(const struct clc_report *rep, const char **names, int max)
{
    int n = 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        bool seen = false;
        for (int k = 0; k < n && !seen; k++)
            seen = strcmp(names[k], rep->results[i].api) == 0;
        if (!seen && n < max)
            names[n++] = rep->results[i].api;
    }
    return n;
}

int clc_report_select_api(const struct clc_report *in, const char *api, struct clc_report *out)
{
    *out = *in;
    out->results = NULL;
    out->n_results = out->cap_results = 0;
    snprintf(out->api, sizeof out->api, "%s", api);
    out->n_apis = 0;
    for (int i = 0; i < in->n_apis; i++) {
        if (strcmp(in->apis[i].name, api) != 0)
            continue;
        out->apis[out->n_apis++] = in->apis[i];
        out->device.copy_gbps = in->apis[i].copy_gbps;
        snprintf(out->device.copy_source, sizeof out->device.copy_source, "%s",
                 in->apis[i].copy_source);
    }
    for (size_t i = 0; i < in->n_results; i++) {
        if (strcmp(in->results[i].api, api) == 0 && clc_report_add(out, &in->results[i]) != CLC_OK) {
            clc_report_free(out);
            return CLC_ERR;
        }
    }
    return CLC_OK;
}

double clc_report_copy_gbps(const struct clc_report *rep, const struct clc_result *r)
{
    for (int i = 0; i < rep->n_apis; i++)
        if (strcmp(rep->apis[i].name, r->api) == 0)
            return rep->apis[i].copy_gbps;
    return rep->device.copy_gbps;
}

void clc_result_complete(struct clc_result *r, bool verified, double copy_gbps, double peak_gbps,
                         double min_ms)
{
    r->verified = verified;
    if (verified) {
        r->status = CLC_STATUS_OK;
        if (r->metric == CLC_METRIC_GBPS) {
            r->gbps = r->value = clc_gbps(r->bytes, r->ms_median);
            r->pct_copy = clc_percent(r->gbps, copy_gbps);
            r->pct_peak = clc_percent(r->gbps, peak_gbps);
        } else {
            r->gbps = NAN;
            r->value = r->accesses > 0 ? r->ms_median * 1e6 / r->accesses : NAN;
        }
        if (r->batch > 1 && r->note[0] == '\0')
            snprintf(r->note, sizeof r->note, "%d launches per timed sample (one is < %.3g ms)",
                     r->batch, min_ms);
    } else {
        /* a wrong result is never a number */
        r->status = CLC_STATUS_ERROR;
        r->gbps = r->value = r->pct_copy = r->pct_peak = NAN;
        r->ms_median = r->ms_min = r->ms_max = r->cv = r->ms_host = NAN;
    }
}

int clc_report_row(struct clc_report *rep, FILE *table, const struct clc_result *r)
{
    if (clc_report_add(rep, r) != CLC_OK)
        return CLC_ERR;
    if (table != NULL)
        clc_table_row(table, r, rep->table_cols, clc_report_api_ratio(rep, rep->n_results - 1));
    return CLC_OK;
}

int clc_report_skip(struct clc_report *rep, FILE *table, const char *case_name,
                    const char *variant, enum clc_type t, uint64_t size, const char *why)
{
    struct clc_result r;
    clc_result_init(&r, case_name, variant, t);
    r.size = size;
    r.status = CLC_STATUS_SKIPPED;
    snprintf(r.note, sizeof r.note, "%s", why);
    return clc_report_row(rep, table, &r);
}

bool clc_report_all_ok(const struct clc_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++)
        if (rep->results[i].status == CLC_STATUS_ERROR)
            return false;
    return true;
}

int clc_parse_format(const char *s, enum clc_format *f)
{
    if (strcmp(s, "table") == 0)
        *f = CLC_FMT_TABLE;
    else if (strcmp(s, "csv") == 0)
        *f = CLC_FMT_CSV;
    else if (strcmp(s, "json") == 0)
        *f = CLC_FMT_JSON;
    else
        return CLC_USAGE;
    return CLC_OK;
}

/* ------------------------------------------------------------------ text from files */

const char *clc_printable(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    for (; *s && n + 1 < len; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f) {
            if (n + 5 > len)
                break; /* no room for the whole escape: cut here rather than half of one */
            snprintf(buf + n, len - n, "\\x%02x", ch);
            n += 4;
        } else {
            buf[n++] = (char)ch;
        }
    }
    if (len > 0)
        buf[n] = '\0';
    return buf;
}

void clc_row_label(const struct clc_result *r, char *buf, size_t len)
{
    char name[4 * sizeof r->case_name], variant[4 * sizeof r->variant];
    clc_printable(r->case_name, name, sizeof name);
    clc_printable(r->variant, variant, sizeof variant);
    if (r->has_param)
        snprintf(buf, len, "%s/%s:%ld %s", name, variant, r->param, clc_type_name(r->type));
    else
        snprintf(buf, len, "%s/%s %s", name, variant, clc_type_name(r->type));
}

/* ------------------------------------------------------------------ table */

double clc_report_api_ratio(const struct clc_report *rep, size_t i)
{
    const struct clc_result *r = &rep->results[i];
    if (rep->n_apis < 2 || strcmp(r->api, rep->apis[0].name) == 0)
        return NAN;
    for (size_t j = i; j-- > 0;) {
        const struct clc_result *q = &rep->results[j];
        if (strcmp(q->api, rep->apis[0].name) == 0 && strcmp(q->case_name, r->case_name) == 0 &&
            strcmp(q->variant, r->variant) == 0 && q->type == r->type &&
            q->has_param == r->has_param && (!r->has_param || q->param == r->param) &&
            q->size == r->size)
            return q->status == CLC_STATUS_OK && r->status == CLC_STATUS_OK && q->value > 0
                       ? r->value / q->value
                       : NAN;
    }
    return NAN;
}

unsigned clc_table_cols(const struct clc_report *rep)
{
    unsigned cols = rep->n_apis > 1 ? CLC_COL_API : 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        cols |= (isfinite(r->model.gbps) || r->model.bound[0] ? CLC_COL_PRED : 0) |
                (isfinite(r->pct_peak) ? CLC_COL_PEAK : 0) |
                (isfinite(r->model.efficiency) ? CLC_COL_MODEL : 0) |
                (isfinite(r->ms_host) ? CLC_COL_HOST : 0);
    }
    return cols;
}

void clc_table_header(FILE *f, unsigned cols)
{
    fprintf(f, "%-12s %-20s %6s %-6s ", "case", "variant", "param", "type");
    if (cols & CLC_COL_API)
        fprintf(f, "%-6s ", "api");
    fprintf(f, "%10s %10s ", "MB", "ms");
    if (cols & CLC_COL_HOST)
        fprintf(f, "%10s ", "ms_host");
    fprintf(f, "%10s ", "GB/s");
    if (cols & CLC_COL_PRED)
        fprintf(f, "%8s %-8s ", "pred", "bound");
    if (cols & CLC_COL_API)
        fprintf(f, "%6s ", "vs cl");
    fprintf(f, "%7s ", "%copy");
    if (cols & CLC_COL_PEAK)
        fprintf(f, "%7s ", "%peak");
    fprintf(f, "%6s ", "cv%");
    if (cols & CLC_COL_MODEL)
        fprintf(f, "%7s ", "model");
    fprintf(f, "%s\n", "status");
}

static void fmt_num(char *buf, size_t len, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fmt, v);
}

void clc_table_row(FILE *f, const struct clc_result *r, unsigned cols, double ratio)
{
    char param[24] = "-", ms[24], value[32], copy[24], peak[24], cv[24], model[24], rt[24];
    char pred[24], host[24];
    if (r->has_param)
        snprintf(param, sizeof param, "%ld", r->param);
    fmt_num(ms, sizeof ms, "%.4f", r->ms_median);
    fmt_num(host, sizeof host, "%.4f", r->ms_host);
    if (r->metric == CLC_METRIC_GBPS)
        fmt_num(value, sizeof value, "%.1f", r->value);
    else if (isnan(r->value))
        snprintf(value, sizeof value, "-");
    else
        snprintf(value, sizeof value, "%.1f %s", r->value, clc_metric_unit(r->metric));
    fmt_num(copy, sizeof copy, "%.1f", r->pct_copy);
    fmt_num(peak, sizeof peak, "%.1f", r->pct_peak);
    fmt_num(cv, sizeof cv, "%.1f", r->cv * 100.0);
    fmt_num(model, sizeof model, "%.0f%%", r->model.efficiency * 100.0);
    fmt_num(rt, sizeof rt, "%.3f", ratio);
    fmt_num(pred, sizeof pred, "%.1f", r->model.gbps);
    /* a row may come from a file anyone wrote: no byte of it reaches the terminal raw */
    char name[4 * sizeof r->case_name], variant[4 * sizeof r->variant], note[4 * sizeof r->note];
    char api[4 * sizeof r->api];
    clc_printable(r->case_name, name, sizeof name);
    clc_printable(r->api, api, sizeof api);
    clc_printable(r->variant, variant, sizeof variant);
    clc_printable(r->note, note, sizeof note);
    const char *status = clc_status_name(r->status);
    if (r->status == CLC_STATUS_OK) {
        static const char *const ok[2][2] = {{"verified", "verified, noisy"},
                                             {"verified, in cache", "verified, in cache, noisy"}};
        status = !r->verified ? "unchecked" : ok[r->cache_resident][clc_result_noisy(r)];
    }
    fprintf(f, "%-12s %-20s %6s %-6s ", name, variant, param, clc_type_name(r->type));
    if (cols & CLC_COL_API)
        fprintf(f, "%-6s ", api);
    fprintf(f, "%10.1f %10s ", (double)r->bytes / 1e6, ms);
    if (cols & CLC_COL_HOST)
        fprintf(f, "%10s ", host);
    fprintf(f, "%10s ", value);
    if (cols & CLC_COL_PRED)
        fprintf(f, "%8s %-8s ", pred, r->model.bound[0] ? r->model.bound : "-");
    if (cols & CLC_COL_API)
        fprintf(f, "%6s ", rt);
    fprintf(f, "%7s ", copy);
    if (cols & CLC_COL_PEAK)
        fprintf(f, "%7s ", peak);
    fprintf(f, "%6s ", cv);
    if (cols & CLC_COL_MODEL)
        fprintf(f, "%7s ", model);
    fprintf(f, "%s%s%s\n", status, note[0] ? ": " : "", note);
    fflush(f);
}

/* ------------------------------------------------------------------ CSV */

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputs(",", f);
    else
        fprintf(f, ",%.6g", v);
}

/* A count of bytes: a whole number, never in exponent form (2097152, not 2.09715e+06). */
static void csv_bytes(FILE *f, double v)
{
    if (isnan(v))
        fputs(",", f);
    else
        fprintf(f, ",%.0f", v);
}

/* A text field as RFC 4180 asks: quoted, embedded quotes doubled. */
static void csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Free text (notes, names): always quoted. */
static void csv_text(FILE *f, const char *s)
{
    fputc(',', f);
    csv_quoted(f, s);
}

void clc_csv_name(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") != NULL)
        csv_quoted(f, s);
    else
        fputs(s, f);
}

int clc_write_csv(const struct clc_report *rep, FILE *f)
{
    fputs("case,variant,param,type,bytes,reps,batch,ms_median,ms_min,ms_max,cv,ms_host,gbps,"
          "pct_copy,pct_peak,model_sectors_per_req,model_efficiency,model_bytes_moved,"
          "verified,status,run_api,device,note,size_bytes,api,metric,unit,value,cache_resident,"
          "model_gbps,model_bound,model_dram_bytes,noisy\n",
          f);
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        clc_csv_name(f, r->case_name);
        fputc(',', f);
        clc_csv_name(f, r->variant);
        fputc(',', f);
        if (r->has_param)
            fprintf(f, "%ld", r->param);
        fprintf(f, ",%s,%llu,%d,%d", clc_type_name(r->type), (unsigned long long)r->bytes,
                r->reps, r->batch);
        csv_num(f, r->ms_median);
        csv_num(f, r->ms_min);
        csv_num(f, r->ms_max);
        csv_num(f, r->cv);
        csv_num(f, r->ms_host);
        csv_num(f, r->gbps);
        csv_num(f, r->pct_copy);
        csv_num(f, r->pct_peak);
        csv_num(f, r->model.sectors_per_req);
        csv_num(f, r->model.efficiency);
        csv_bytes(f, r->model.bytes_moved);
        /* run_api: the run's --api (opencl, cuda or both); the row's own is `api` below */
        fprintf(f, ",%s,%s,%s", r->verified ? "true" : "false", clc_status_name(r->status),
                rep->api);
        csv_text(f, rep->device.name);
        csv_text(f, r->note);
        /* new columns go last, so readers that count columns from the left keep working:
         * size_bytes, then (format 2) the row's own API, its metric, unit and value */
        fprintf(f, ",%llu,%s,%s,%s", (unsigned long long)r->size, r->api,
                clc_metric_name(r->metric), clc_metric_unit(r->metric));
        csv_num(f, r->value);
        fprintf(f, ",%s", r->cache_resident ? "true" : "false");
        csv_num(f, r->model.gbps);
        fprintf(f, ",%s", r->model.bound);
        csv_bytes(f, r->model.dram_bytes);
        fprintf(f, ",%s", clc_result_noisy(r) ? "true" : "false");
        fputc('\n', f);
    }
    return ferror(f) ? CLC_ERR : CLC_OK;
}

/* ------------------------------------------------------------------ JSON */

/* The features' plain numbers, by JSON key (the writer and the reader share the list). */
static const struct {
    const char *key;
    size_t offset;
} feature_nums[] = {
#define FEATURE(field) {#field, offsetof(struct clc_model_features, field)}
    FEATURE(l2_per_useful),
    FEATURE(load_lines),
    FEATURE(store_lines),
    FEATURE(store_sectors),
    FEATURE(store_partial),
    FEATURE(store_follow_partial),
    FEATURE(store_follow_lines),
    FEATURE(store_follow_lines_per_request),
    FEATURE(load_sectors),
    FEATURE(load_reused_lines),
    FEATURE(load_reused_sectors),
    FEATURE(load_group_lines),
    FEATURE(store_shared_requests),
    FEATURE(store_shared_lines),
    FEATURE(store_shared_partial),
    FEATURE(store_shared_bytes),
    FEATURE(store_open_sectors),
    FEATURE(store_open_bytes),
    FEATURE(store_open_lane_bytes),
    FEATURE(store_spread),
    FEATURE(store_far),
    FEATURE(reuse_footprint),
    FEATURE(accessed),
    FEATURE(loads_in_flight),
    FEATURE(compiled_loads),
    FEATURE(stores_combined),
    FEATURE(work_units),
    FEATURE(work_div32),
    FEATURE(work_div64),
    FEATURE(load_lane_bytes),
    FEATURE(load_access_bytes),
    FEATURE(store_lane_bytes),
    FEATURE(stored),
    FEATURE(l1_requests),
    FEATURE(l1_lines),
    FEATURE(resident_per_cu),
    FEATURE(group_items),
    FEATURE(groups),
    FEATURE(registers),
    FEATURE(local_bytes),
    FEATURE(local_passes),
    FEATURE(local_accesses),
    FEATURE(local_passes_per_access),
    FEATURE(local_load_passes),
    {"dram_random_32", offsetof(struct clc_model_features, dram_random[0])},
    {"dram_random_64", offsetof(struct clc_model_features, dram_random[1])},
    {"dram_random_128", offsetof(struct clc_model_features, dram_random[2])},
    {"dram_bunched_32", offsetof(struct clc_model_features, dram_bunched[0])},
    {"dram_bunched_64", offsetof(struct clc_model_features, dram_bunched[1])},
    {"dram_bunched_128", offsetof(struct clc_model_features, dram_bunched[2])},
    {"dram_bunched_loads_32", offsetof(struct clc_model_features, dram_bunched_loads[0])},
    {"dram_bunched_loads_64", offsetof(struct clc_model_features, dram_bunched_loads[1])},
    {"dram_bunched_loads_128", offsetof(struct clc_model_features, dram_bunched_loads[2])},
#undef FEATURE
};
#define FEATURE_NUMS (sizeof feature_nums / sizeof feature_nums[0])

void clc_model_features_clear(struct clc_model_features *f)
{
    memset(f, 0, sizeof *f);
    for (size_t k = 0; k < FEATURE_NUMS; k++)
        *(double *)((char *)f + feature_nums[k].offset) = NAN;
}

static json_t *num_or_null(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A JSON string of s.  jansson refuses text that is not UTF-8 (a device name, a kernel name
 * typed on the command line) and the key would silently go missing: such bytes become '?'. */
static json_t *text_json(const char *s)
{
    json_t *v = json_string(s);
    if (v != NULL)
        return v;
    char *copy = strdup(s);
    if (copy == NULL)
        return NULL;
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    v = json_string(copy);
    free(copy);
    return v;
}

static json_t *text_or_null(const char *s)
{
    return s[0] ? text_json(s) : json_null();
}

static json_t *device_json(const struct clc_device_meta *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", text_json(d->name));
    json_object_set_new(o, "vendor", text_json(d->vendor));
    json_object_set_new(o, "driver", text_json(d->driver));
    json_object_set_new(o, "platform", text_json(d->platform));
    json_object_set_new(o, "version", text_json(d->version));
    if (d->cc_major >= 0) {
        char cc[32];
        snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
        json_object_set_new(o, "compute_capability", json_string(cc));
    } else {
        json_object_set_new(o, "compute_capability", json_null());
    }
    json_object_set_new(o, "warp_size", d->warp_size > 0 ? json_integer(d->warp_size) : json_null());
    json_object_set_new(o, "pci_bus_id", text_or_null(d->pci_bus_id));
    json_object_set_new(o, "compute_units", json_integer(d->compute_units));
    json_object_set_new(o, "global_mem_bytes", json_integer((json_int_t)d->global_mem));
    json_object_set_new(o, "max_alloc_bytes", json_integer((json_int_t)d->max_alloc));
    json_object_set_new(o, "l2_bytes", d->l2_bytes ? json_integer((json_int_t)d->l2_bytes) : json_null());
    json_object_set_new(o, "timer_resolution_ns", num_or_null(d->timer_res_ns));
    json_object_set_new(o, "peak_gbps", num_or_null(d->peak_gbps));
    json_object_set_new(o, "peak_source", text_or_null(d->peak_source));
    json_object_set_new(o, "copy_gbps", num_or_null(d->copy_gbps));
    json_object_set_new(o, "copy_source", text_or_null(d->copy_source));
    json_object_set_new(o, "threads_per_cu", d->threads_per_cu > 0 ? json_integer(d->threads_per_cu) : json_null());
    json_object_set_new(o, "groups_per_cu", d->groups_per_cu > 0 ? json_integer(d->groups_per_cu) : json_null());
    json_object_set_new(o, "regs_per_cu", d->regs_per_cu > 0 ? json_integer(d->regs_per_cu) : json_null());
    json_object_set_new(o, "local_per_cu", d->local_per_cu > 0 ? json_integer((json_int_t)d->local_per_cu) : json_null());
    return o;
}

static json_t *config_json(const struct clc_run_meta *m)
{
    json_t *o = json_object();
    json_object_set_new(o, "size_bytes", json_integer((json_int_t)m->size));
    json_object_set_new(o, "size_auto", json_boolean(m->size_auto));
    json_object_set_new(o, "reps", json_integer(m->reps));
    json_object_set_new(o, "warmup", json_integer(m->warmup));
    json_object_set_new(o, "quick", json_boolean(m->quick));
    json_object_set_new(o, "cold", json_boolean(m->cold));
    json_t *types = json_array();
    if (m->types & CLC_FLOAT)
        json_array_append_new(types, json_string("float"));
    if (m->types & CLC_DOUBLE)
        json_array_append_new(types, json_string("double"));
    json_object_set_new(o, "types", types);
    json_object_set_new(o, "cases", text_json(m->cases));
    return o;
}

/* The model's features (predict.h), so that a file can be predicted again on another
 * profile; null when the row was not traced. */
static json_t *features_json(const struct clc_model_features *f)
{
    if (!f->valid)
        return json_null();
    json_t *o = json_object(), *dram = json_array();
    for (unsigned d = 0; d < 2; d++) {
        json_t *dir = json_array();
        for (unsigned g = 0; g < CLC_MODEL_GRANULES; g++) {
            json_t *gaps = json_array();
            for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
                json_array_append_new(gaps, num_or_null(f->dram[d][g][c]));
            json_array_append_new(dir, gaps);
        }
        json_array_append_new(dram, dir);
    }
    json_object_set_new(o, "local_row", json_boolean(f->local_row));
    json_object_set_new(o, "elem_bytes", json_integer(f->elem_bytes));
    json_object_set_new(o, "dram_per_useful", dram);
    for (size_t k = 0; k < FEATURE_NUMS; k++)
        json_object_set_new(o, feature_nums[k].key,
                            num_or_null(*(const double *)((const char *)f + feature_nums[k].offset)));
    return o;
}

/* The report's "apis": name, version and copy ceiling of each API the run used. */
static json_t *apis_json(const struct clc_report *rep)
{
    json_t *a = json_array();
    for (int i = 0; i < rep->n_apis && i < CLC_MAX_APIS; i++) {
        const struct clc_api_meta *m = &rep->apis[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", text_json(m->name));
        json_object_set_new(o, "version", text_json(m->version));
        json_object_set_new(o, "copy_gbps", num_or_null(m->copy_gbps));
        json_object_set_new(o, "copy_source", text_or_null(m->copy_source));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *clc_result_json(const struct clc_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "case", text_json(r->case_name));
    json_object_set_new(o, "variant", text_json(r->variant));
    json_object_set_new(o, "api", text_json(r->api));
    json_object_set_new(o, "param", r->has_param ? json_integer(r->param) : json_null());
    json_object_set_new(o, "type", json_string(clc_type_name(r->type)));
    json_object_set_new(o, "bytes", json_integer((json_int_t)r->bytes));
    json_object_set_new(o, "bytes_rule", text_or_null(r->bytes_rule));
    json_object_set_new(o, "size_bytes", json_integer((json_int_t)r->size));
    json_object_set_new(o, "reps", json_integer(r->reps));
    json_object_set_new(o, "batch", json_integer(r->batch));
    json_object_set_new(o, "metric", json_string(clc_metric_name(r->metric)));
    json_object_set_new(o, "unit", json_string(clc_metric_unit(r->metric)));
    json_object_set_new(o, "value", num_or_null(r->value));
    json_object_set_new(o, "accesses", r->metric == CLC_METRIC_NS_PER_ACCESS
                                           ? num_or_null(r->accesses)
                                           : json_null());
    json_object_set_new(o, "bytes_in_flight_per_cu", num_or_null(r->in_flight));
    json_object_set_new(o, "flops", num_or_null(r->flops));
    json_object_set_new(o, "ms_median", num_or_null(r->ms_median));
    json_object_set_new(o, "ms_min", num_or_null(r->ms_min));
    json_object_set_new(o, "ms_max", num_or_null(r->ms_max));
    json_object_set_new(o, "cv", num_or_null(r->cv));
    json_object_set_new(o, "ms_host", num_or_null(r->ms_host));
    /* gbps stays for readers of format 1; null for a row that measures something else */
    json_object_set_new(o, "gbps", num_or_null(r->metric == CLC_METRIC_GBPS ? r->gbps : NAN));
    if (r->metric == CLC_METRIC_NS_PER_ACCESS)
        json_object_set_new(o, "ns_per_access", num_or_null(r->value));
    json_object_set_new(o, "pct_copy", num_or_null(r->pct_copy));
    json_object_set_new(o, "pct_peak", num_or_null(r->pct_peak));
    json_object_set_new(o, "model_sectors_per_req", num_or_null(r->model.sectors_per_req));
    json_object_set_new(o, "model_ld_sectors_per_req", num_or_null(r->model.ld_sectors_per_req));
    json_object_set_new(o, "model_st_sectors_per_req", num_or_null(r->model.st_sectors_per_req));
    json_object_set_new(o, "model_efficiency", num_or_null(r->model.efficiency));
    json_object_set_new(o, "model_bytes_moved", num_or_null(r->model.bytes_moved));
    json_object_set_new(o, "model_gbps", num_or_null(r->model.gbps));
    json_object_set_new(o, "model_bound", text_or_null(r->model.bound));
    json_object_set_new(o, "model_dram_bytes", num_or_null(r->model.dram_bytes));
    json_object_set_new(o, "model_dram_read_bytes", num_or_null(r->model.dram_read_bytes));
    json_object_set_new(o, "model_dram_write_bytes", num_or_null(r->model.dram_write_bytes));
    json_object_set_new(o, "model_features", features_json(&r->model.features));
    json_object_set_new(o, "verified", json_boolean(r->verified));
    json_object_set_new(o, "cache_resident", json_boolean(r->cache_resident));
    /* written for a reader's convenience, never read back: it follows from cv, so files
     * written before it existed are marked alike */
    json_object_set_new(o, "noisy", json_boolean(clc_result_noisy(r)));
    json_object_set_new(o, "status", json_string(clc_status_name(r->status)));
    json_object_set_new(o, "note", text_json(r->note));
    return o;
}

int clc_write_json(const struct clc_report *rep, FILE *f)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", text_json(rep->tool));
    json_object_set_new(root, "version", text_json(rep->version));
    json_object_set_new(root, "format", json_integer(CLC_RESULT_FORMAT));
    json_object_set_new(root, "api", text_json(rep->api));
    json_object_set_new(root, "apis", apis_json(rep));
    json_object_set_new(root, "timestamp", text_json(rep->timestamp));
    json_object_set_new(root, "device", device_json(&rep->device));
    json_object_set_new(root, "config", config_json(&rep->run));
    json_t *used = rep->model_profile[0] ? json_loads(rep->model_profile, 0, NULL) : NULL;
    json_object_set_new(root, "model_profile", used != NULL ? used : json_null());
    json_object_set_new(root, "lesson", clc_lesson_json(rep));
    json_t *results = json_array();
    for (size_t i = 0; i < rep->n_results; i++)
        json_array_append_new(results, clc_result_json(&rep->results[i]));
    json_object_set_new(root, "results", results);
    int rc = clc_json_dump(f, root);
    json_decref(root);
    return rc;
}

int clc_json_dump(FILE *f, const json_t *root)
{
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    fputc('\n', f);
    return rc == 0 && !ferror(f) ? CLC_OK : CLC_ERR;
}

void clc_write_table(const struct clc_report *rep, FILE *f)
{
    unsigned cols = clc_table_cols(rep);
    clc_table_header(f, cols);
    for (size_t i = 0; i < rep->n_results; i++)
        clc_table_row(f, &rep->results[i], cols, clc_report_api_ratio(rep, i));
}

struct report_fill {
    const struct clc_report *rep;
    enum clc_format fmt;
};

static int fill_report(FILE *f, void *arg)
{
    const struct report_fill *rf = arg;
    if (rf->fmt == CLC_FMT_JSON)
        return clc_write_json(rf->rep, f);
    if (rf->fmt == CLC_FMT_CSV)
        return clc_write_csv(rf->rep, f);
    clc_write_table(rf->rep, f);
    return CLC_OK;
}

int clc_write_report_file(const struct clc_report *rep, enum clc_format fmt, const char *path)
{
    struct report_fill rf = {rep, fmt};
    return clc_output_write(path, fill_report, &rf);
}

/* ------------------------------------------------------------------ JSON reader */

/* Fields a row may lack that matter to someone reading it: each is warned about once per
 * file, with the first row lacking it and how many do. */
enum lack { LACK_MS_MEDIAN, LACK_API, LACK_METRIC, N_LACK };

static const char *const lack_text[N_LACK] = {
    [LACK_MS_MEDIAN] = "is ok but has no 'ms_median': its time reads as unknown",
    [LACK_API] = "has no 'api': read as the file's",
    [LACK_METRIC] = "has no 'metric': read as gbps",
};

/* The state of one file's reading: its name and format for messages and defaults. */
struct reader {
    const char *file;
    int format;            /* the file's "format", 1 when it has none */
    char root_api[8];      /* the file's "api", what a format 1 row ran on */
    char obj[40];          /* where in the file: "results[3]", "device", "" for the root */
    struct {
        size_t n, first;
    } lack[N_LACK];
};

/* "clcoalesce: warning: ..." on stderr: always shown, unlike clc_note. */
static void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clc_vmessage("clcoalesce", "warning", fmt, ap);
    va_end(ap);
}

/* "<file>: <where> <what is wrong>" as an error. */
static void bad(const struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(const struct reader *rd, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    clc_error("%s: %s%s%s", rd->file, rd->obj, rd->obj[0] ? " " : "", what);
}

/* What a JSON value is, for "'gbps' is a string, not a number". */
static const char *kind_of(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* The value of key, NULL when absent or null (both read as unknown). */
static json_t *member(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_null(v) ? NULL : v;
}

/* A number that may be absent or null (NAN then).  CLC_ERR, said, when it is another type. */
static int opt_num(struct reader *rd, json_t *o, const char *key, double *out)
{
    json_t *v = member(o, key);
    *out = NAN;
    if (v == NULL)
        return CLC_OK;
    if (!json_is_number(v)) {
        bad(rd, "'%s' is %s, not a number", key, kind_of(v));
        return CLC_ERR;
    }
    *out = json_number_value(v);
    /* jansson refuses NaN, Infinity and overflowing literals; this keeps it so */
    if (!isfinite(*out)) {
        bad(rd, "'%s' is not a finite number", key);
        return CLC_ERR;
    }
    return CLC_OK;
}

/* A whole number in [min, max].  Absent or null: an error when required, else *present is
 * false.  A fraction or a number out of range (reps = 1e300) is an error either way. */
static int get_int(struct reader *rd, json_t *o, const char *key, bool required, long long min,
                   long long max, long long *out, bool *present)
{
    json_t *v = member(o, key);
    if (present != NULL)
        *present = v != NULL;
    if (v == NULL) {
        if (!required)
            return CLC_OK;
        bad(rd, "has no whole number '%s'", key);
        return CLC_ERR;
    }
    if (json_is_integer(v) && json_integer_value(v) >= min && json_integer_value(v) <= max) {
        *out = json_integer_value(v);
        return CLC_OK;
    }
    if (json_is_number(v))
        bad(rd, "'%s' is %.17g, not a whole number from %lld to %lld", key,
            json_number_value(v), min, max);
    else
        bad(rd, "'%s' is %s, not a whole number", key, kind_of(v));
    return CLC_ERR;
}

/* A string into dst (len bytes).  Absent or null: an error when required, else "".  A
 * string longer than dst is an error when must_fit (a name compared with others), else
 * cut (free text). */
static int get_str(struct reader *rd, json_t *o, const char *key, bool required, bool must_fit,
                   char *dst, size_t len)
{
    json_t *v = member(o, key);
    dst[0] = '\0';
    if (v == NULL) {
        if (!required)
            return CLC_OK;
        bad(rd, "has no string '%s'", key);
        return CLC_ERR;
    }
    if (!json_is_string(v)) {
        bad(rd, "'%s' is %s, not a string", key, kind_of(v));
        return CLC_ERR;
    }
    if (must_fit && json_string_length(v) >= len) {
        bad(rd, "'%s' is longer than %zu bytes", key, len - 1);
        return CLC_ERR;
    }
    snprintf(dst, len, "%s", json_string_value(v));
    return CLC_OK;
}

/* true or false.  Absent or null: an error when required, else false. */
static int get_bool(struct reader *rd, json_t *o, const char *key, bool required, bool *out)
{
    json_t *v = member(o, key);
    *out = false;
    if (v == NULL) {
        if (!required)
            return CLC_OK;
        bad(rd, "has no true/false '%s'", key);
        return CLC_ERR;
    }
    if (!json_is_boolean(v)) {
        bad(rd, "'%s' is %s, not true or false", key, kind_of(v));
        return CLC_ERR;
    }
    *out = json_is_true(v);
    return CLC_OK;
}

/* Counts a row lacking `what`, remembering the first, for one warning per file. */
static void lacks(struct reader *rd, enum lack what, size_t row)
{
    if (rd->lack[what].n++ == 0)
        rd->lack[what].first = row;
}

/* "ok", "skipped" or "error" into *st; CLC_USAGE for anything else. */
static int parse_status(const char *s, enum clc_status *st)
{
    for (int i = CLC_STATUS_OK; i <= CLC_STATUS_ERROR; i++) {
        if (strcmp(s, clc_status_name((enum clc_status)i)) == 0) {
            *st = (enum clc_status)i;
            return CLC_OK;
        }
    }
    return CLC_USAGE;
}

/* The numbers of a row that may be unknown: absent and null read as NAN.  Each is a
 * measurement or a count, so never negative, and bounded by what a device can do: GB/s by
 * CLC_MAX_GBPS, percentages by that over the least --peak, times by a year (the longest
 * --timeout), bytes and counts by 2^63. */
#define MS_MAX (86400.0 * 365 * 1e3)
#define PCT_MAX (100.0 * CLC_MAX_GBPS / CLC_MIN_PEAK_GBPS)
#define COUNT_MAX 9.2e18
static const struct {
    const char *key;
    size_t offset;
    double max; /* the largest value that can be true; the least is 0 */
} row_numbers[] = {
#define ROW_NUM(key, field, max) {key, offsetof(struct clc_result, field), max}
    ROW_NUM("value", value, COUNT_MAX),
    ROW_NUM("accesses", accesses, COUNT_MAX),
    ROW_NUM("bytes_in_flight_per_cu", in_flight, COUNT_MAX),
    ROW_NUM("flops", flops, COUNT_MAX),
    ROW_NUM("ms_median", ms_median, MS_MAX),
    ROW_NUM("ms_min", ms_min, MS_MAX),
    ROW_NUM("ms_max", ms_max, MS_MAX),
    ROW_NUM("cv", cv, COUNT_MAX),
    ROW_NUM("ms_host", ms_host, MS_MAX),
    ROW_NUM("gbps", gbps, CLC_MAX_GBPS),
    ROW_NUM("pct_copy", pct_copy, PCT_MAX),
    ROW_NUM("pct_peak", pct_peak, PCT_MAX),
    ROW_NUM("model_sectors_per_req", model.sectors_per_req, COUNT_MAX),
    ROW_NUM("model_ld_sectors_per_req", model.ld_sectors_per_req, COUNT_MAX),
    ROW_NUM("model_st_sectors_per_req", model.st_sectors_per_req, COUNT_MAX),
    ROW_NUM("model_efficiency", model.efficiency, COUNT_MAX),
    ROW_NUM("model_bytes_moved", model.bytes_moved, COUNT_MAX),
    ROW_NUM("model_gbps", model.gbps, CLC_MAX_GBPS),
    ROW_NUM("model_dram_bytes", model.dram_bytes, COUNT_MAX),
    ROW_NUM("model_dram_read_bytes", model.dram_read_bytes, COUNT_MAX),
    ROW_NUM("model_dram_write_bytes", model.dram_write_bytes, COUNT_MAX),
#undef ROW_NUM
};

/* opt_num, and a number present must lie in [0, max]. */
static int opt_num_in(struct reader *rd, json_t *o, const char *key, double max, double *out)
{
    if (opt_num(rd, o, key, out) != CLC_OK)
        return CLC_ERR;
    if (!isnan(*out) && !(*out >= 0 && *out <= max)) {
        bad(rd, "'%s' is %g, not a number from 0 to %g", key, *out, max);
        return CLC_ERR;
    }
    return CLC_OK;
}

/* A row's "model_features": absent or null (not traced), or an object of the writer's keys,
 * dram_per_useful 2 x CLC_MODEL_GRANULES x CLC_MODEL_GAPS numbers.  Features with another
 * number of gap classes were written by an earlier model: the row reads as not traced. */
static int read_features(struct reader *rd, json_t *o, struct clc_model_features *f)
{
    clc_model_features_clear(f);
    if (o == NULL)
        return CLC_OK;
    json_t *dram = member(o, "dram_per_useful");
    bool shape = json_is_object(o) && json_is_array(dram) && json_array_size(dram) == 2;
    size_t classes = CLC_MODEL_GAPS;
    for (unsigned d = 0; shape && d < 2; d++) {
        json_t *dir = json_array_get(dram, d);
        shape = json_is_array(dir) && json_array_size(dir) == CLC_MODEL_GRANULES;
        for (unsigned g = 0; shape && g < CLC_MODEL_GRANULES; g++) {
            json_t *gaps = json_array_get(dir, g);
            shape = json_is_array(gaps) && json_array_size(gaps) > 0;
            if (shape && d == 0 && g == 0)
                classes = json_array_size(gaps);
            shape = shape && json_array_size(gaps) == classes;
            for (unsigned c = 0; shape && c < classes; c++) {
                json_t *v = json_array_get(gaps, c);
                shape = json_is_number(v) && json_number_value(v) >= 0 &&
                        isfinite(json_number_value(v));
                if (c < CLC_MODEL_GAPS)
                    f->dram[d][g][c] = shape ? json_number_value(v) : NAN;
            }
        }
    }
    if (!shape) {
        bad(rd, "'model_features' is not an object with dram_per_useful of 2 x %u x %u numbers",
            CLC_MODEL_GRANULES, CLC_MODEL_GAPS);
        return CLC_ERR;
    }
    if (classes != CLC_MODEL_GAPS) {
        clc_model_features_clear(f);
        return CLC_OK;
    }
    long long v;
    bool present;
    if (get_bool(rd, o, "local_row", false, &f->local_row) != CLC_OK ||
        get_int(rd, o, "elem_bytes", false, 0, 64, &v, &present) != CLC_OK)
        return CLC_ERR;
    f->elem_bytes = present ? (unsigned)v : 0;
    for (size_t k = 0; k < FEATURE_NUMS; k++)
        if (opt_num_in(rd, o, feature_nums[k].key, COUNT_MAX,
                       (double *)((char *)f + feature_nums[k].offset)) != CLC_OK)
            return CLC_ERR;
    f->valid = true;
    return CLC_OK;
}

/* Reads results[idx] into r.  Required: case, variant, type, status (strings), bytes, reps,
 * batch (whole numbers), verified (true/false), and for an ok row its figure (gbps for a
 * bandwidth row, else value) as a number >= 0.  Everything else may be absent or null and
 * reads as unknown; any field present with the wrong type is an error. */
static int read_result(struct reader *rd, json_t *o, size_t idx, struct clc_result *r)
{
    snprintf(rd->obj, sizeof rd->obj, "results[%zu]", idx);
    char case_name[sizeof r->case_name], variant[sizeof r->variant], type[16], status[16];
    if (get_str(rd, o, "case", true, true, case_name, sizeof case_name) != CLC_OK ||
        get_str(rd, o, "variant", true, true, variant, sizeof variant) != CLC_OK ||
        get_str(rd, o, "type", true, false, type, sizeof type) != CLC_OK ||
        get_str(rd, o, "status", true, false, status, sizeof status) != CLC_OK)
        return CLC_ERR;
    unsigned mask;
    if (clc_parse_type(type, &mask) != CLC_OK || mask == (CLC_FLOAT | CLC_DOUBLE)) {
        bad(rd, "has unknown type '%s'", type);
        return CLC_ERR;
    }
    clc_result_init(r, case_name, variant, (enum clc_type)mask);
    if (parse_status(status, &r->status) != CLC_OK) {
        bad(rd, "has unknown status '%s' (ok, skipped or error)", status);
        return CLC_ERR;
    }

    long long v;
    bool present;
    if (get_int(rd, o, "param", false, LONG_MIN, LONG_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    if (present)
        clc_result_set_param(r, (long)v);
    if (get_int(rd, o, "bytes", true, 0, INT64_MAX, &v, NULL) != CLC_OK)
        return CLC_ERR;
    r->bytes = (uint64_t)v;
    /* absent in files written before sweeps existed */
    if (get_int(rd, o, "size_bytes", false, 0, INT64_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    r->size = present ? (uint64_t)v : 0;
    if (get_int(rd, o, "reps", true, 0, INT_MAX, &v, NULL) != CLC_OK)
        return CLC_ERR;
    r->reps = (int)v;
    if (get_int(rd, o, "batch", true, 0, INT_MAX, &v, NULL) != CLC_OK)
        return CLC_ERR;
    r->batch = (int)v;
    if (get_bool(rd, o, "verified", true, &r->verified) != CLC_OK ||
        get_bool(rd, o, "cache_resident", false, &r->cache_resident) != CLC_OK)
        return CLC_ERR;

    for (size_t k = 0; k < sizeof row_numbers / sizeof row_numbers[0]; k++)
        if (opt_num_in(rd, o, row_numbers[k].key, row_numbers[k].max,
                       (double *)((char *)r + row_numbers[k].offset)) != CLC_OK)
            return CLC_ERR;
    double ns;
    char unit[16];
    if (opt_num_in(rd, o, "ns_per_access", COUNT_MAX, &ns) != CLC_OK ||
        get_str(rd, o, "unit", false, false, unit, sizeof unit) != CLC_OK)
        return CLC_ERR; /* both restate metric and value: read for their type only */

    /* format 1 rows have no api, metric or value: the file's API, bandwidth, the GB/s */
    if (get_str(rd, o, "api", false, true, r->api, sizeof r->api) != CLC_OK)
        return CLC_ERR;
    if (r->api[0] == '\0') {
        snprintf(r->api, sizeof r->api, "%s", rd->root_api);
        if (rd->format >= 2)
            lacks(rd, LACK_API, idx);
    }
    char metric[32];
    if (get_str(rd, o, "metric", false, false, metric, sizeof metric) != CLC_OK)
        return CLC_ERR;
    if (metric[0] == '\0') {
        r->metric = CLC_METRIC_GBPS;
        if (rd->format >= 2)
            lacks(rd, LACK_METRIC, idx);
    } else if (clc_parse_metric(metric, &r->metric) != CLC_OK) {
        bad(rd, "has unknown metric '%s'", metric);
        return CLC_ERR;
    }
    if (r->metric == CLC_METRIC_GBPS && isnan(r->value))
        r->value = r->gbps;
    if (r->metric != CLC_METRIC_GBPS)
        r->gbps = NAN; /* a figure in another unit is never read as bandwidth */

    if (r->status == CLC_STATUS_OK) {
        const char *key = r->metric == CLC_METRIC_GBPS ? "gbps" : "value";
        double fig = r->metric == CLC_METRIC_GBPS ? r->gbps : r->value;
        if (isnan(fig)) { /* its range was checked with the other numbers */
            bad(rd, "is ok but has no number '%s'", key);
            return CLC_ERR;
        }
        if (isnan(r->ms_median))
            lacks(rd, LACK_MS_MEDIAN, idx);
    }
    if (get_str(rd, o, "model_bound", false, true, r->model.bound, sizeof r->model.bound) !=
            CLC_OK ||
        get_str(rd, o, "bytes_rule", false, true, r->bytes_rule, sizeof r->bytes_rule) != CLC_OK)
        return CLC_ERR;
    if (read_features(rd, member(o, "model_features"), &r->model.features) != CLC_OK)
        return CLC_ERR;
    return get_str(rd, o, "note", false, false, r->note, sizeof r->note);
}

/* The report's "device" into d: every field optional, each of its own type. */
static int read_device(struct reader *rd, json_t *dev, struct clc_device_meta *d)
{
    snprintf(rd->obj, sizeof rd->obj, "device");
    if (!json_is_object(dev)) {
        bad(rd, "is %s, not an object", kind_of(dev));
        return CLC_ERR;
    }
    char cc[32];
    long long v;
    bool present;
    if (get_str(rd, dev, "name", false, false, d->name, sizeof d->name) != CLC_OK ||
        get_str(rd, dev, "vendor", false, false, d->vendor, sizeof d->vendor) != CLC_OK ||
        get_str(rd, dev, "driver", false, false, d->driver, sizeof d->driver) != CLC_OK ||
        get_str(rd, dev, "platform", false, false, d->platform, sizeof d->platform) != CLC_OK ||
        get_str(rd, dev, "version", false, false, d->version, sizeof d->version) != CLC_OK ||
        get_str(rd, dev, "pci_bus_id", false, false, d->pci_bus_id, sizeof d->pci_bus_id) != CLC_OK ||
        get_str(rd, dev, "peak_source", false, false, d->peak_source, sizeof d->peak_source) != CLC_OK ||
        get_str(rd, dev, "copy_source", false, false, d->copy_source, sizeof d->copy_source) != CLC_OK ||
        get_str(rd, dev, "compute_capability", false, true, cc, sizeof cc) != CLC_OK)
        return CLC_ERR;
    d->cc_major = d->cc_minor = -1;
    if (cc[0] != '\0') {
        int major, minor, end = 0;
        if (sscanf(cc, "%3d.%3d%n", &major, &minor, &end) != 2 || cc[end] != '\0' || major < 0 ||
            minor < 0) {
            bad(rd, "'compute_capability' is '%s', not MAJOR.MINOR", cc);
            return CLC_ERR;
        }
        d->cc_major = major;
        d->cc_minor = minor;
    }
    if (get_int(rd, dev, "warp_size", false, 1, INT_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    d->warp_size = present ? (int)v : -1;
    if (get_int(rd, dev, "compute_units", false, 0, INT_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    d->compute_units = present ? (int)v : 0;
    if (get_int(rd, dev, "global_mem_bytes", false, 0, INT64_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    d->global_mem = present ? (uint64_t)v : 0;
    if (get_int(rd, dev, "max_alloc_bytes", false, 0, INT64_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    d->max_alloc = present ? (uint64_t)v : 0;
    if (get_int(rd, dev, "l2_bytes", false, 0, INT64_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    d->l2_bytes = present ? (uint64_t)v : 0;
    if (opt_num_in(rd, dev, "timer_resolution_ns", 1e9, &d->timer_res_ns) != CLC_OK ||
        opt_num_in(rd, dev, "peak_gbps", CLC_MAX_GBPS, &d->peak_gbps) != CLC_OK ||
        opt_num_in(rd, dev, "copy_gbps", CLC_MAX_GBPS, &d->copy_gbps) != CLC_OK)
        return CLC_ERR;
    static const char *const per_cu[] = {"threads_per_cu", "groups_per_cu", "regs_per_cu"};
    int *dst[] = {&d->threads_per_cu, &d->groups_per_cu, &d->regs_per_cu};
    for (size_t i = 0; i < 3; i++) {
        if (get_int(rd, dev, per_cu[i], false, 1, INT_MAX, &v, &present) != CLC_OK)
            return CLC_ERR;
        *dst[i] = present ? (int)v : 0;
    }
    if (get_int(rd, dev, "local_per_cu", false, 1, INT64_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    d->local_per_cu = present ? (uint64_t)v : 0;
    return CLC_OK;
}

/* The report's "config" into m: every field optional, each of its own type. */
static int read_config(struct reader *rd, json_t *cfg, struct clc_run_meta *m)
{
    snprintf(rd->obj, sizeof rd->obj, "config");
    if (!json_is_object(cfg)) {
        bad(rd, "is %s, not an object", kind_of(cfg));
        return CLC_ERR;
    }
    long long v;
    bool present;
    if (get_int(rd, cfg, "size_bytes", false, 0, INT64_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    m->size = present ? (uint64_t)v : 0;
    if (get_int(rd, cfg, "reps", false, 0, INT_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    m->reps = present ? (int)v : 0;
    if (get_int(rd, cfg, "warmup", false, -1, INT_MAX, &v, &present) != CLC_OK)
        return CLC_ERR;
    m->warmup = present ? (int)v : 0;
    if (get_bool(rd, cfg, "size_auto", false, &m->size_auto) != CLC_OK ||
        get_bool(rd, cfg, "quick", false, &m->quick) != CLC_OK ||
        get_bool(rd, cfg, "cold", false, &m->cold) != CLC_OK ||
        get_str(rd, cfg, "cases", false, false, m->cases, sizeof m->cases) != CLC_OK)
        return CLC_ERR;
    json_t *types = member(cfg, "types");
    m->types = 0;
    if (types != NULL) {
        if (!json_is_array(types)) {
            bad(rd, "'types' is %s, not an array", kind_of(types));
            return CLC_ERR;
        }
        for (size_t i = 0; i < json_array_size(types); i++) {
            json_t *t = json_array_get(types, i);
            unsigned mask;
            if (!json_is_string(t) || clc_parse_type(json_string_value(t), &mask) != CLC_OK) {
                bad(rd, "'types'[%zu] is not \"float\" or \"double\"", i);
                return CLC_ERR;
            }
            m->types |= mask;
        }
    }
    return CLC_OK;
}

/* The report's "apis" (format 2) into rep->apis: each needs a name; more than
 * CLC_MAX_APIS are warned about and left out. */
static int read_apis(struct reader *rd, json_t *apis, struct clc_report *rep)
{
    snprintf(rd->obj, sizeof rd->obj, "apis");
    if (!json_is_array(apis)) {
        bad(rd, "is %s, not an array", kind_of(apis));
        return CLC_ERR;
    }
    size_t n = json_array_size(apis);
    if (n > CLC_MAX_APIS)
        warning("%s: 'apis' lists %zu APIs; the first %d are read", rd->file, n, CLC_MAX_APIS);
    for (size_t i = 0; i < n && i < CLC_MAX_APIS; i++) {
        json_t *o = json_array_get(apis, i);
        struct clc_api_meta *m = &rep->apis[i];
        snprintf(rd->obj, sizeof rd->obj, "apis[%zu]", i);
        if (!json_is_object(o)) {
            bad(rd, "is %s, not an object", kind_of(o));
            return CLC_ERR;
        }
        if (get_str(rd, o, "name", true, true, m->name, sizeof m->name) != CLC_OK ||
            get_str(rd, o, "version", false, false, m->version, sizeof m->version) != CLC_OK ||
            get_str(rd, o, "copy_source", false, false, m->copy_source, sizeof m->copy_source) !=
                CLC_OK ||
            opt_num_in(rd, o, "copy_gbps", CLC_MAX_GBPS, &m->copy_gbps) != CLC_OK)
            return CLC_ERR;
        rep->n_apis = (int)i + 1;
    }
    return CLC_OK;
}

/* Reads a parsed file's root into rep (initialised here); frees nothing. */
static int read_root(struct reader *rd, json_t *root, struct clc_report *rep)
{
    clc_report_init(rep, "");
    rd->obj[0] = '\0';
    json_t *results = json_object_get(root, "results");
    if (!json_is_object(root) || !json_is_array(results)) {
        clc_error("%s: not a clcoalesce result file (no 'results' array)", rd->file);
        return CLC_ERR;
    }
    long long format = 1;
    if (get_int(rd, root, "format", false, 1, INT_MAX, &format, NULL) != CLC_OK)
        return CLC_ERR;
    rd->format = rep->format = (int)format;
    if (format > CLC_RESULT_FORMAT)
        warning("%s: written in format %lld, newer than this clcoalesce reads (%d): fields it "
                "does not know are ignored", rd->file, format, CLC_RESULT_FORMAT);
    if (get_str(rd, root, "tool", false, false, rep->tool, sizeof rep->tool) != CLC_OK ||
        get_str(rd, root, "version", false, false, rep->version, sizeof rep->version) != CLC_OK ||
        get_str(rd, root, "api", false, false, rep->api, sizeof rep->api) != CLC_OK ||
        get_str(rd, root, "timestamp", false, false, rep->timestamp, sizeof rep->timestamp) !=
            CLC_OK)
        return CLC_ERR;
    snprintf(rd->root_api, sizeof rd->root_api, "%.7s", rep->api);
    json_t *v;
    if ((v = member(root, "apis")) != NULL && read_apis(rd, v, rep) != CLC_OK)
        return CLC_ERR;
    if ((v = member(root, "device")) != NULL && read_device(rd, v, &rep->device) != CLC_OK)
        return CLC_ERR;
    if ((v = member(root, "config")) != NULL && read_config(rd, v, &rep->run) != CLC_OK)
        return CLC_ERR;
    /* the profiles the predictions used: kept as text for whoever re-predicts (predict.h
     * reads them); one too large for the field is dropped, not cut */
    if ((v = member(root, "model_profile")) != NULL && json_is_array(v)) {
        char *text = json_dumps(v, JSON_COMPACT);
        if (text != NULL && strlen(text) < sizeof rep->model_profile)
            snprintf(rep->model_profile, sizeof rep->model_profile, "%s", text);
        free(text);
    }
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *o = json_array_get(results, i);
        struct clc_result r;
        if (!json_is_object(o)) {
            clc_error("%s: results[%zu] is %s, not an object", rd->file, i, kind_of(o));
            return CLC_ERR;
        }
        if (read_result(rd, o, i, &r) != CLC_OK || clc_report_add(rep, &r) != CLC_OK)
            return CLC_ERR;
    }
    for (int k = 0; k < N_LACK; k++) {
        size_t n = rd->lack[k].n;
        if (n == 1)
            warning("%s: results[%zu] %s", rd->file, rd->lack[k].first, lack_text[k]);
        else if (n > 1)
            warning("%s: results[%zu] %s (and %zu more rows)", rd->file, rd->lack[k].first,
                    lack_text[k], n - 1);
    }
    return CLC_OK;
}

/* Reads a parsed document (NULL when it did not parse: jerr says why) and frees it. */
static int read_parsed(const char *name, json_t *root, const json_error_t *jerr,
                       struct clc_report *rep)
{
    if (root == NULL) {
        if (jerr->line > 0)
            clc_error("%s: not a readable JSON file: %s (line %d)", name, jerr->text, jerr->line);
        else
            clc_error("%s: not a readable JSON file: %s", name, jerr->text);
        clc_report_init(rep, "");
        return CLC_ERR;
    }
    struct reader rd;
    memset(&rd, 0, sizeof rd);
    rd.file = name;
    int rc = read_root(&rd, root, rep);
    if (rc != CLC_OK)
        clc_report_free(rep);
    json_decref(root);
    return rc;
}

/* Duplicate keys are refused: which of two "gbps" a row means is anyone's guess. */
#define READ_FLAGS JSON_REJECT_DUPLICATES

int clc_read_json_text(const char *text, size_t len, const char *name, struct clc_report *rep)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, READ_FLAGS, &jerr);
    return read_parsed(name, root, &jerr, rep);
}

int clc_read_json(const char *path, struct clc_report *rep)
{
    size_t len = 0;
    char *text = clc_read_text(path, &len); /* a pipe or /dev/stdin as well as a file */
    if (text == NULL) {
        if (errno == EISDIR)
            clc_error("%s: is a directory, not a result file", path);
        else
            clc_error("%s: cannot read: %s", path, strerror(errno));
        clc_report_init(rep, "");
        return CLC_ERR;
    }
    int rc = clc_read_json_text(text, len, path, rep);
    free(text);
    return rc;
}
