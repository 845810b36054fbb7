/* result.c - result rows and the report: table, CSV and JSON writers (files through
 * outfile.c), and the JSON reader. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/result.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clcoalesce/outfile.h"
#include "clcoalesce/stats.h"

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
    r->value = r->accesses = NAN;
    r->type = type;
    r->batch = 1;
    r->ms_median = r->ms_min = r->ms_max = r->cv = r->ms_host = NAN;
    r->gbps = r->pct_copy = r->pct_peak = NAN;
    r->model_sectors_per_req = r->model_efficiency = r->model_bytes_moved = NAN;
    r->model_ld_sectors_per_req = r->model_st_sectors_per_req = NAN;
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
        clc_table_row(table, r);
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

/* ------------------------------------------------------------------ table */

void clc_table_header(FILE *f)
{
    fprintf(f, "%-12s %-20s %6s %-6s %10s %10s %9s %7s %7s %6s %7s %s\n", "case", "variant",
            "param", "type", "MB", "ms", "GB/s", "%copy", "%peak", "cv%", "model", "status");
}

static void fmt_num(char *buf, size_t len, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fmt, v);
}

void clc_table_row(FILE *f, const struct clc_result *r)
{
    char param[24] = "-", ms[24], gbps[24], copy[24], peak[24], cv[24], model[24];
    if (r->has_param)
        snprintf(param, sizeof param, "%ld", r->param);
    fmt_num(ms, sizeof ms, "%.4f", r->ms_median);
    fmt_num(gbps, sizeof gbps, "%.1f", r->gbps);
    fmt_num(copy, sizeof copy, "%.1f", r->pct_copy);
    fmt_num(peak, sizeof peak, "%.1f", r->pct_peak);
    fmt_num(cv, sizeof cv, "%.1f", r->cv * 100.0);
    fmt_num(model, sizeof model, "%.0f%%", r->model_efficiency * 100.0);
    const char *status = r->status == CLC_STATUS_OK ? "verified" : clc_status_name(r->status);
    fprintf(f, "%-12s %-20s %6s %-6s %10.1f %10s %9s %7s %7s %6s %7s %s%s%s\n", r->case_name,
            r->variant, param, clc_type_name(r->type), (double)r->bytes / 1e6, ms, gbps, copy,
            peak, cv, model, status, r->note[0] ? ": " : "", r->note);
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

/* Notes are free text: quote them and double embedded quotes, as RFC 4180 asks. */
static void csv_text(FILE *f, const char *s)
{
    fputs(",\"", f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int clc_write_csv(const struct clc_report *rep, FILE *f)
{
    fputs("case,variant,param,type,bytes,reps,batch,ms_median,ms_min,ms_max,cv,ms_host,gbps,"
          "pct_copy,pct_peak,model_sectors_per_req,model_efficiency,model_bytes_moved,"
          "verified,status,api,device,note,size_bytes\n",
          f);
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        fprintf(f, "%s,%s,", r->case_name, r->variant);
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
        csv_num(f, r->model_sectors_per_req);
        csv_num(f, r->model_efficiency);
        csv_num(f, r->model_bytes_moved);
        fprintf(f, ",%s,%s,%s", r->verified ? "true" : "false", clc_status_name(r->status),
                rep->api);
        csv_text(f, rep->device.name);
        csv_text(f, r->note);
        /* last, so readers that count columns from the left keep working */
        fprintf(f, ",%llu\n", (unsigned long long)r->size);
    }
    return ferror(f) ? CLC_ERR : CLC_OK;
}

/* ------------------------------------------------------------------ JSON */

static json_t *num_or_null(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *device_json(const struct clc_device_meta *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(o, "vendor", json_string(d->vendor));
    json_object_set_new(o, "driver", json_string(d->driver));
    json_object_set_new(o, "platform", json_string(d->platform));
    json_object_set_new(o, "version", json_string(d->version));
    if (d->cc_major >= 0) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
        json_object_set_new(o, "compute_capability", json_string(cc));
    } else {
        json_object_set_new(o, "compute_capability", json_null());
    }
    json_object_set_new(o, "warp_size", d->warp_size > 0 ? json_integer(d->warp_size) : json_null());
    json_object_set_new(o, "pci_bus_id", d->pci_bus_id[0] ? json_string(d->pci_bus_id) : json_null());
    json_object_set_new(o, "compute_units", json_integer(d->compute_units));
    json_object_set_new(o, "global_mem_bytes", json_integer((json_int_t)d->global_mem));
    json_object_set_new(o, "max_alloc_bytes", json_integer((json_int_t)d->max_alloc));
    json_object_set_new(o, "l2_bytes", d->l2_bytes ? json_integer((json_int_t)d->l2_bytes) : json_null());
    json_object_set_new(o, "timer_resolution_ns", num_or_null(d->timer_res_ns));
    json_object_set_new(o, "peak_gbps", num_or_null(d->peak_gbps));
    json_object_set_new(o, "peak_source", d->peak_source[0] ? json_string(d->peak_source) : json_null());
    json_object_set_new(o, "copy_gbps", num_or_null(d->copy_gbps));
    json_object_set_new(o, "copy_source", d->copy_source[0] ? json_string(d->copy_source) : json_null());
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
    json_object_set_new(o, "cases", json_string(m->cases));
    return o;
}

static json_t *result_json(const struct clc_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "case", json_string(r->case_name));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "param", r->has_param ? json_integer(r->param) : json_null());
    json_object_set_new(o, "type", json_string(clc_type_name(r->type)));
    json_object_set_new(o, "bytes", json_integer((json_int_t)r->bytes));
    json_object_set_new(o, "size_bytes", json_integer((json_int_t)r->size));
    json_object_set_new(o, "reps", json_integer(r->reps));
    json_object_set_new(o, "batch", json_integer(r->batch));
    json_object_set_new(o, "ms_median", num_or_null(r->ms_median));
    json_object_set_new(o, "ms_min", num_or_null(r->ms_min));
    json_object_set_new(o, "ms_max", num_or_null(r->ms_max));
    json_object_set_new(o, "cv", num_or_null(r->cv));
    json_object_set_new(o, "ms_host", num_or_null(r->ms_host));
    json_object_set_new(o, "gbps", num_or_null(r->gbps));
    json_object_set_new(o, "pct_copy", num_or_null(r->pct_copy));
    json_object_set_new(o, "pct_peak", num_or_null(r->pct_peak));
    json_object_set_new(o, "model_sectors_per_req", num_or_null(r->model_sectors_per_req));
    json_object_set_new(o, "model_ld_sectors_per_req", num_or_null(r->model_ld_sectors_per_req));
    json_object_set_new(o, "model_st_sectors_per_req", num_or_null(r->model_st_sectors_per_req));
    json_object_set_new(o, "model_efficiency", num_or_null(r->model_efficiency));
    json_object_set_new(o, "model_bytes_moved", num_or_null(r->model_bytes_moved));
    json_object_set_new(o, "verified", json_boolean(r->verified));
    json_object_set_new(o, "status", json_string(clc_status_name(r->status)));
    json_object_set_new(o, "note", json_string(r->note));
    return o;
}

int clc_write_json(const struct clc_report *rep, FILE *f)
{
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_string(rep->tool));
    json_object_set_new(root, "version", json_string(rep->version));
    json_object_set_new(root, "api", json_string(rep->api));
    json_object_set_new(root, "timestamp", json_string(rep->timestamp));
    json_object_set_new(root, "device", device_json(&rep->device));
    json_object_set_new(root, "config", config_json(&rep->run));
    json_t *results = json_array();
    for (size_t i = 0; i < rep->n_results; i++)
        json_array_append_new(results, result_json(&rep->results[i]));
    json_object_set_new(root, "results", results);
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    fputc('\n', f);
    json_decref(root);
    return rc == 0 && !ferror(f) ? CLC_OK : CLC_ERR;
}

int clc_write_file_atomic(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx)
{
    return clc_output_write(path, fill, ctx);
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
    clc_table_header(f);
    for (size_t i = 0; i < rf->rep->n_results; i++)
        clc_table_row(f, &rf->rep->results[i]);
    return CLC_OK;
}

int clc_write_report_file(const struct clc_report *rep, enum clc_format fmt, const char *path)
{
    struct report_fill rf = {rep, fmt};
    return clc_output_write(path, fill_report, &rf);
}

/* ------------------------------------------------------------------ JSON reader */

static double get_num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void get_str(json_t *o, const char *key, char *dst, size_t len)
{
    json_t *v = json_object_get(o, key);
    snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static int read_result(json_t *o, struct clc_result *r, const char *path, size_t idx)
{
    static const char *required[] = {"case", "variant", "type", "status"};
    for (size_t k = 0; k < 4; k++) {
        if (!json_is_string(json_object_get(o, required[k]))) {
            clc_error("%s: results[%zu] has no string '%s'", path, idx, required[k]);
            return CLC_ERR;
        }
    }
    const char *type = json_string_value(json_object_get(o, "type"));
    unsigned mask;
    if (clc_parse_type(type, &mask) != CLC_OK || mask == (CLC_FLOAT | CLC_DOUBLE)) {
        clc_error("%s: results[%zu] has unknown type '%s'", path, idx, type);
        return CLC_ERR;
    }
    clc_result_init(r, json_string_value(json_object_get(o, "case")),
                    json_string_value(json_object_get(o, "variant")), (enum clc_type)mask);
    json_t *param = json_object_get(o, "param");
    if (json_is_integer(param))
        clc_result_set_param(r, (long)json_integer_value(param));
    r->bytes = (uint64_t)get_num(o, "bytes");
    double size = get_num(o, "size_bytes"); /* absent in files written before it existed */
    r->size = isnan(size) || size < 0 ? 0 : (uint64_t)size;
    r->reps = (int)get_num(o, "reps");
    r->batch = (int)get_num(o, "batch");
    r->ms_median = get_num(o, "ms_median");
    r->ms_min = get_num(o, "ms_min");
    r->ms_max = get_num(o, "ms_max");
    r->cv = get_num(o, "cv");
    r->ms_host = get_num(o, "ms_host");
    r->gbps = get_num(o, "gbps");
    r->pct_copy = get_num(o, "pct_copy");
    r->pct_peak = get_num(o, "pct_peak");
    r->model_sectors_per_req = get_num(o, "model_sectors_per_req");
    r->model_ld_sectors_per_req = get_num(o, "model_ld_sectors_per_req");
    r->model_st_sectors_per_req = get_num(o, "model_st_sectors_per_req");
    r->model_efficiency = get_num(o, "model_efficiency");
    r->model_bytes_moved = get_num(o, "model_bytes_moved");
    r->verified = json_is_true(json_object_get(o, "verified"));
    const char *status = json_string_value(json_object_get(o, "status"));
    r->status = strcmp(status, "ok") == 0        ? CLC_STATUS_OK
                : strcmp(status, "skipped") == 0 ? CLC_STATUS_SKIPPED
                                                 : CLC_STATUS_ERROR;
    get_str(o, "note", r->note, sizeof r->note);
    return CLC_OK;
}

int clc_read_json(const char *path, struct clc_report *rep)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (root == NULL) {
        if (jerr.line > 0)
            clc_error("%s: not a readable JSON file: %s (line %d)", path, jerr.text, jerr.line);
        else
            clc_error("%s: not a readable JSON file: %s", path, jerr.text);
        return CLC_ERR;
    }
    int rc = CLC_ERR;
    json_t *results = json_object_get(root, "results");
    if (!json_is_object(root) || !json_is_array(results)) {
        clc_error("%s: not a clcoalesce result file (no 'results' array)", path);
        goto done;
    }
    clc_report_init(rep, "");
    get_str(root, "tool", rep->tool, sizeof rep->tool);
    get_str(root, "version", rep->version, sizeof rep->version);
    get_str(root, "api", rep->api, sizeof rep->api);
    get_str(root, "timestamp", rep->timestamp, sizeof rep->timestamp);
    json_t *dev = json_object_get(root, "device");
    if (json_is_object(dev)) {
        struct clc_device_meta *d = &rep->device;
        get_str(dev, "name", d->name, sizeof d->name);
        get_str(dev, "vendor", d->vendor, sizeof d->vendor);
        get_str(dev, "driver", d->driver, sizeof d->driver);
        get_str(dev, "platform", d->platform, sizeof d->platform);
        get_str(dev, "version", d->version, sizeof d->version);
        get_str(dev, "pci_bus_id", d->pci_bus_id, sizeof d->pci_bus_id);
        char cc[16];
        get_str(dev, "compute_capability", cc, sizeof cc);
        if (sscanf(cc, "%d.%d", &d->cc_major, &d->cc_minor) != 2)
            d->cc_major = d->cc_minor = -1;
        double w = get_num(dev, "warp_size");
        d->warp_size = isnan(w) ? -1 : (int)w;
        d->peak_gbps = get_num(dev, "peak_gbps");
        d->copy_gbps = get_num(dev, "copy_gbps");
        double l2 = get_num(dev, "l2_bytes");
        d->l2_bytes = isnan(l2) ? 0 : (uint64_t)l2;
        get_str(dev, "peak_source", d->peak_source, sizeof d->peak_source);
        get_str(dev, "copy_source", d->copy_source, sizeof d->copy_source);
    }
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *o = json_array_get(results, i);
        struct clc_result r;
        if (!json_is_object(o)) {
            clc_error("%s: results[%zu] is not an object", path, i);
            goto fail;
        }
        if (read_result(o, &r, path, i) != CLC_OK || clc_report_add(rep, &r) != CLC_OK)
            goto fail;
    }
    rc = CLC_OK;
    goto done;
fail:
    clc_report_free(rep);
done:
    json_decref(root);
    return rc;
}
