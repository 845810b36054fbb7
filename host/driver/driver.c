/* driver.c - the run: sizes, devices and back ends, the copy ceilings, and every row of
 * every case carried out on each API, timed side by side, verified, modelled and reported. */
#define _GNU_SOURCE
#include "clcoalesce/driver.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/kernelfile.h"
#include "clcoalesce/lesson.h"
#include "clcoalesce/nvml.h"
#include "clcoalesce/stats.h"
#include "instance.h"

void clc_opts_defaults(struct clc_opts *o)
{
    memset(o, 0, sizeof *o);
    clc_run_opts_defaults(&o->run);
    o->model = true;
    o->apis = 1u << CLC_API_OPENCL;
    o->progress = -1;
    o->trace_ahead = -1;
}

struct clc_env clc_env_make(const struct clc_device *dev, enum clc_type t, uint64_t size)
{
    struct clc_env e = {dev, t, size, (size_t)(size / clc_type_size(t)), false};
    return e;
}

int clc_variant_plan(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p)
{
    memset(p, 0, sizeof *p);
    p->metric = CLC_METRIC_GBPS;
    if (v->params != NULL) {
        p->has_param = true;
        p->param = param;
    }
    int rc = v->plan(e, v, param, p);
    if (rc != CLC_OK)
        clc_plan_free(p);
    return rc;
}

/* The types of case c that the run asks for. */
static unsigned case_types(const struct clc_opts *o, const struct clc_case *c)
{
    return c->types & o->types;
}

int clc_check_sizes(const struct clc_opts *o, const struct clc_case *const *cases, size_t n)
{
    bool sweep = o->sweep_max != 0;
    uint64_t size = sweep ? o->sweep_min : o->size;
    const char *what = sweep ? "--sweep-size MIN" : "--size";
    if (size == 0)
        return CLC_OK; /* chosen per device */
    unsigned noted = 0; /* the types whose rounding was said */
    for (size_t i = 0; i < n; i++) {
        const struct clc_case *c = cases[i];
        for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
            if (!(case_types(o, c) & t))
                continue;
            size_t es = clc_type_size((enum clc_type)t);
            if (size % es != 0 && !(noted & t)) {
                noted |= t;
                clc_note("%s %" PRIu64 " is not a whole number of %s elements: the %s rows use "
                         "%" PRIu64 " of them (%" PRIu64 " bytes)", what, size,
                         clc_type_name((enum clc_type)t), clc_type_name((enum clc_type)t),
                         size / es, size / es * es);
            }
            if (size / es < c->min_elems) {
                char need[32];
                clc_error("%s %" PRIu64 " bytes is too small for case '%s': it needs at least "
                          "%" PRIu64 " %s elements (%s)", what, size, c->name, c->min_elems,
                          clc_type_name((enum clc_type)t),
                          clc_format_size(c->min_elems * es, need, sizeof need));
                return CLC_USAGE;
            }
        }
    }
    return CLC_OK;
}

/* ------------------------------------------------------------------ progress */

static void fmt_time(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* "[37/187] stride inplace 12 float  0:42, about 1:10 left" */
static void progress(struct clc_session *s, const char *label)
{
    if (!s->progress)
        return;
    double el = (double)(clc_now_ns() - s->t0) * 1e-9;
    char line[320], a[32], b[32];
    fmt_time(a, sizeof a, el);
    if (s->rows_done > 0) {
        fmt_time(b, sizeof b, el / (double)s->rows_done * (double)(s->rows_total - s->rows_done));
        snprintf(line, sizeof line, "[%zu/%zu] %s  %s, about %s left", s->rows_done + 1,
                 s->rows_total, label, a, b);
    } else {
        snprintf(line, sizeof line, "[%zu/%zu] %s  %s", s->rows_done + 1, s->rows_total, label, a);
    }
    clc_status(line);
}

/* Adds a row to the report (and the table), clearing the progress line first. */
static int report_row(struct clc_session *s, const struct clc_result *r)
{
    clc_status(NULL);
    s->rows_done++;
    return clc_report_row(s->rep, s->table, r);
}

/* ------------------------------------------------------------------ sizes */

/* The size case c runs at for `given` (0: chosen for the device; `what` names where a given
 * size came from), saying why where the tool reduced it.  CLC_ERR after a message when given
 * does not fit the device. */
static int case_size(struct clc_session *s, const struct clc_case *c, uint64_t given,
                     const char *what, uint64_t *size, bool quiet)
{
    const struct clc_backend *be = s->be[0];
    char why[256], a[32], b[32], lim[32];
    unsigned factor = c->alloc_factor ? c->alloc_factor : 1;
    if (clc_case_size(&be->dev.meta, be->dev.cpu, c->alloc_factor, !c->no_plateau, given, s->o->quick, size, why,
                      sizeof why) != CLC_OK) {
        clc_error("allocation too large: case '%s' allocates %u x %s (%s) = %s, the device "
                  "allows %s per buffer (%s)", c->name, factor, clc_format_size(given, a, sizeof a),
                  what, clc_format_size(given * factor, b, sizeof b),
                  clc_format_size(be->dev.meta.max_alloc, lim, sizeof lim), be->ops->alloc_limit);
        return CLC_ERR;
    }
    if (!quiet && why[0])
        clc_note("%s runs at %s", c->name, why);
    return CLC_OK;
}

/* The sizes case c runs at: one, or the sweep's steps that fit (the first must). */
static size_t case_sizes(struct clc_session *s, const struct clc_case *c, uint64_t *out,
                         size_t max, bool quiet)
{
    const struct clc_opts *o = s->o;
    if (o->sweep_max == 0)
        return case_size(s, c, o->size, "--size", &out[0], quiet) == CLC_OK ? 1 : 0;
    if (case_size(s, c, o->sweep_min, "--sweep-size MIN", &out[0], quiet) != CLC_OK)
        return 0;
    if (c->sizeless)
        return 1;
    size_t n = 1;
    for (uint64_t step = o->sweep_min * 2; step <= o->sweep_max && n < max; step *= 2) {
        if (!clc_size_fits(&s->be[0]->dev.meta, c->alloc_factor, step)) {
            char a[32], lim[32];
            if (!quiet)
                clc_note("%s: the sweep stops before %s: the case would allocate %u x that, "
                         "the device allows %s per buffer", c->name,
                         clc_format_size(step, a, sizeof a), c->alloc_factor ? c->alloc_factor : 1,
                         clc_format_size(s->be[0]->dev.meta.max_alloc, lim, sizeof lim));
            break;
        }
        out[n++] = step;
        if (step > UINT64_MAX / 4)
            break;
    }
    return n;
}

#define MAX_SIZES CLC_MAX_SWEEP_SIZES

/* ------------------------------------------------------------------ timing */

/* One API's side of a row, for clc_time_launches. */
struct api_timer {
    struct clc_session *s;
    int api;                  /* index into s->be */
    struct clc_instance *in;
    const char *label;        /* "clc/<case>/<variant>/<param or ->/<type>" for the profiler */
};

static int timer_run(void *arg, int count)
{
    struct api_timer *a = arg;
    struct clc_backend *be = a->s->be[a->api];
    return be->ops->run(be, &a->in->op, count);
}

/* With CLC_PROFILE_PROBE set, each row's probe launch is the one a profiler sees (started
 * off: bench/ncu-sectors.sh), and a line names it, in the order of the launches. */
static int timer_time(void *arg, int lead, int count, bool probe, double *ms)
{
    struct api_timer *a = arg;
    struct clc_backend *be = a->s->be[a->api];
    const char *env = getenv("CLC_PROFILE_PROBE");
    bool profile = probe && a->label != NULL && env != NULL && *env && strcmp(env, "0") != 0;
    if (profile)
        fprintf(stderr, "clcoalesce: probe: %s\n", a->label);
    return be->ops->time(be, &a->in->op, lead, count, profile, ms);
}

/* Writes a buffer of twice the last-level cache (at least 8 MiB) and waits for it, so the
 * next launch finds none of its data cached.  A new pattern each time keeps the write from
 * being skipped as redundant. */
static int timer_flush(void *arg)
{
    struct api_timer *a = arg;
    struct clc_session *s = a->s;
    struct clc_backend *be = s->be[a->api];
    if (s->flush[a->api] == NULL) {
        uint64_t want = 2 * be->dev.meta.l2_bytes;
        if (want < ((uint64_t)8 << 20))
            want = (uint64_t)8 << 20;
        if (want > be->dev.meta.max_alloc)
            want = be->dev.meta.max_alloc;
        s->flush_bytes = (size_t)want & ~(size_t)3;
        if (clc_alloc(be, s->flush_bytes, "cache flush buffer", &s->flush[a->api]) != CLC_OK)
            return CLC_ERR;
    }
    return be->ops->fill(be, s->flush[a->api], s->flush_bytes, ++s->flush_count);
}

/* ------------------------------------------------------------------ one row */

/* Reports a skipped row of every API. */
static int skip_rows(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                     const struct clc_plan *p, enum clc_type t, uint64_t size, const char *why)
{
    for (int i = 0; i < s->n_be; i++) {
        struct clc_result r;
        clc_result_init(&r, c->name, v->name, t);
        snprintf(r.api, sizeof r.api, "%s", clc_api_name(s->be[i]->dev.api));
        if (p != NULL && p->has_param)
            clc_result_set_param(&r, p->param);
        r.size = size;
        r.status = CLC_STATUS_SKIPPED;
        snprintf(r.note, sizeof r.note, "%s", why);
        if (report_row(s, &r) != CLC_OK)
            return CLC_ERR;
    }
    return CLC_OK;
}

/* Why the instance's kernel cannot run the plan's work-group here, or NULL. */
static const char *group_limit(struct clc_instance *in, char *why, size_t len)
{
    const struct clc_plan *p = in->plan;
    struct clc_kernel_info ki;
    if (in->kernel == NULL || in->be->ops->kernel_info(in->be, in->kernel, &ki) != CLC_OK)
        return NULL;
    size_t group = p->local[0] * (p->dims > 1 ? p->local[1] : 1) * (p->dims > 2 ? p->local[2] : 1);
    if (group <= ki.max_group)
        return NULL;
    if (p->dims > 1)
        snprintf(why, len, "needs work-groups of %zu x %zu, the kernel allows %zu work-items "
                 "(%s)", p->local[0], p->local[1], ki.max_group, clc_api_name(in->be->dev.api));
    else
        snprintf(why, len, "needs work-groups of %zu, the kernel allows %zu work-items (%s)",
                 group, ki.max_group, clc_api_name(in->be->dev.api));
    return why;
}

/* The copy ceiling row r of API i is compared with: in a sweep the one measured at the
 * largest size of the sweep not above the row's, else the run's (clc_report_copy_gbps). */
static double row_ceiling(const struct clc_session *s, int i, const struct clc_result *r)
{
    size_t k = s->n_sweep;
    while (k > 0 && s->sweep_size[k - 1] > r->size)
        k--;
    if (k > 0)
        return s->sweep_ceiling[k - 1][i];
    return s->n_sweep > 0 ? s->sweep_ceiling[0][i] : clc_report_copy_gbps(s->rep, r);
}

/* The row of API i: verified (or not), completed and reported. */
static int finish_row(struct clc_session *s, int i, struct clc_result *r, bool verified,
                      bool local_bytes, bool unchecked)
{
    const struct clc_device_meta *d = &s->rep->device;
    /* local-memory bytes are no fraction of what DRAM moves */
    double copy = local_bytes ? NAN : row_ceiling(s, i, r);
    clc_result_complete(r, verified, copy, local_bytes ? NAN : d->peak_gbps, s->timing.min_ms);
    if (unchecked) /* a figure, but nothing held the output against a reference */
        r->verified = false;
    int mhz = s->be[i]->dev.meta.clock_mhz;
    if (verified && r->metric == CLC_METRIC_NS_PER_ACCESS && mhz > 0)
        clc_note_append(r, "%s= %.0f cycles at %d MHz", r->note[0] ? "; " : "",
                        r->value * mhz * 1e-3, mhz);
    if (verified && s->timing.cold) {
        if (r->batch == 1 && r->ms_median < s->timing.min_ms)
            clc_note_append(r, "%scold: L2 flushed before each launch; one launch is < %.3g ms, "
                            "near the timer's resolution: a coarse figure",
                            r->note[0] ? "; " : "", s->timing.min_ms);
        else
            clc_note_append(r, "%scold: L2 flushed before each launch", r->note[0] ? "; " : "");
    }
    if (!verified)
        clc_error("%s/%s (%s, %s): %s", r->case_name, r->variant, clc_type_name(r->type),
                  clc_api_name(s->be[i]->dev.api), r->note);
    clc_session_predict_row(s, r);
    if (report_row(s, r) != CLC_OK)
        return CLC_ERR;
    return verified ? CLC_OK : CLC_ERR;
}

/* Says that a launch of the user's kernel failed (an API error, not a wrong result). */
static void custom_failed(struct clc_session *s)
{
    if (s->custom_kernel != NULL)
        clc_error("your kernel '%s' failed at synchronisation: it most likely accessed memory "
                  "outside its buffers (or ran too long); check its indices and guards",
                  s->custom_kernel);
}

/* Adds the host time since *t0 to phase `ph` and restarts the clock. */
static void phase(struct clc_session *s, enum clc_phase ph, uint64_t *t0)
{
    uint64_t now = clc_now_ns();
    s->phase_ns[ph] += now - *t0;
    *t0 = now;
}

/* True for a bandwidth row whose buffers together fit in the last-level cache, so that its
 * launches need not reach DRAM (a case without a size, such as banks, measures on-chip
 * memory by design and is not marked; nor is a --cold row, which flushed it). */
static bool in_cache(const struct clc_session *s, const struct clc_case *c,
                     const struct clc_plan *p)
{
    uint64_t l2 = s->be[0]->dev.meta.l2_bytes, bytes = 0;
    if (c->sizeless || p->metric != CLC_METRIC_GBPS || l2 == 0 || s->o->cold)
        return false; /* --cold flushes the cache before every timed launch */
    for (unsigned i = 0; i < p->nbufs; i++)
        bytes += p->bufs[i].elems * p->bufs[i].elem_size;
    return bytes <= l2;
}

static int run_row_on(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                      enum clc_type t, uint64_t size, long param)
{
    struct clc_env e = clc_env_make(&s->be[0]->dev, t, size);
    struct clc_plan p;
    int rc = clc_variant_plan(&e, v, param, &p);
    if (rc == CLC_SKIP)
        return skip_rows(s, c, v, &p, t, size, p.note);
    if (rc != CLC_OK)
        return CLC_ERR;
    char label[160], why[160];
    snprintf(label, sizeof label, "%s %s%s%s %s", c->name, v->name, p.has_param ? " " : "",
             p.has_param ? "" : "", clc_type_name(t));
    if (p.has_param)
        snprintf(label, sizeof label, "%s %s %ld %s", c->name, v->name, p.param, clc_type_name(t));
    progress(s, label);

    uint64_t t0 = clc_now_ns();
    char probe_label[200], pv[24] = "-";
    if (p.has_param)
        snprintf(pv, sizeof pv, "%ld", p.param);
    snprintf(probe_label, sizeof probe_label, "clc/%s/%s/%s/%s", c->name, v->name, pv,
             clc_type_name(t));
    struct clc_instance in[CLC_MAX_APIS];
    struct api_timer at[CLC_MAX_APIS];
    struct clc_timer tm[CLC_MAX_APIS];
    struct clc_timing timing[CLC_MAX_APIS];
    struct clc_readback first = {0};
    memset(in, 0, sizeof in);
    rc = CLC_ERR;
    if (p.needs_fp64 && !s->be[0]->dev.fp64) {
        rc = skip_rows(s, c, v, &p, t, size, "the device has no fp64");
        goto done;
    }
    for (int i = 0; i < s->n_be; i++) {
        if (clc_instance_open(&in[i], s->be[i], c->cl_file, &p, t) != CLC_OK)
            goto done;
        if (group_limit(&in[i], why, sizeof why) != NULL) {
            rc = skip_rows(s, c, v, &p, t, size, why);
            goto done;
        }
        if (clc_instance_init(&in[i]) != CLC_OK)
            goto done;
        at[i] = (struct api_timer){s, i, &in[i], probe_label};
        tm[i] = (struct clc_timer){&at[i], timer_run, timer_time, timer_flush};
    }
    clc_activity("%s %s (%s): kernel %s", c->name, v->name, clc_type_name(t),
                 p.kernel ? p.kernel : "the vendor copy");
    phase(s, CLC_PHASE_SETUP, &t0);
    /* the next rows' trace builds go on from here, not beside this row's own build: NVIDIA's
     * OpenCL compiler would take the two in turn */
    clc_ahead_at(s, c, v, t, size, param);
    if (clc_time_launches(tm, (size_t)s->n_be, &s->timing, timing) != CLC_OK) {
        custom_failed(s);
        goto done;
    }
    phase(s, CLC_PHASE_TIMING, &t0);
    rc = CLC_OK;
    struct clc_result r[CLC_MAX_APIS];
    bool verified[CLC_MAX_APIS] = {false}, checked[CLC_MAX_APIS] = {false}, clean = true;
    int tracer = -1;
    for (int i = 0; i < s->n_be; i++) {
        clc_result_init(&r[i], c->name, v->name, t);
        snprintf(r[i].api, sizeof r[i].api, "%s", clc_api_name(s->be[i]->dev.api));
        if (p.has_param)
            clc_result_set_param(&r[i], p.param);
        r[i].bytes = p.bytes;
        if (p.bytes_rule != NULL)
            snprintf(r[i].bytes_rule, sizeof r[i].bytes_rule, "%s", p.bytes_rule);
        if (p.flops > 0)
            r[i].flops = p.flops;
        r[i].size = size;
        r[i].metric = p.metric;
        r[i].accesses = p.accesses;
        if (p.in_flight > 0)
            r[i].in_flight = p.in_flight;
        r[i].cache_resident = in_cache(s, c, &p);
        s->rows_in_cache += r[i].cache_resident;
        snprintf(r[i].note, sizeof r[i].note, "%s", p.note);
        if (v->outside_model != NULL)
            clc_note_append(&r[i], "%sbound none: %s", r[i].note[0] ? "; " : "",
                            v->outside_model);
        clc_timing_to_result(&timing[i], &r[i]);
        if (p.note[0])
            clc_note_batch(&r[i], timing[i].batch);
        if (p.fresh_check && (clc_instance_init(&in[i]) != CLC_OK ||
                              s->be[i]->ops->run(s->be[i], &in[i].op, 1) != CLC_OK)) {
            custom_failed(s);
            rc = CLC_ERR;
            continue;
        }
        /* the first API's output, verified against the host reference, is what the others'
         * are held against: the same bytes need no second reference */
        if (clc_instance_check(&in[i], &r[i], &verified[i], i > 0 ? &first : NULL,
                               i == 0 && s->n_be > 1 ? &first : NULL) != CLC_OK) {
            custom_failed(s);
            rc = CLC_ERR;
            continue;
        }
        checked[i] = true;
        if (verified[i])
            tracer = i;
        phase(s, CLC_PHASE_CHECK, &t0);
    }
    /* the model reads the addresses, which are the same on every API: traced once, on the
     * last API that verified */
    /* an image's reads are texture reads, not addresses the trace build can record: such a
     * row is outside the model (its variant says so), and not traced */
    if (tracer >= 0 && s->o->model && p.kernel != NULL && !clc_plan_has_image(&p)) {
        if (clc_model_row(s, &in[tracer], &r[tracer], &clean) != CLC_OK)
            rc = CLC_ERR;
        for (int i = 0; i < s->n_be; i++) {
            if (i == tracer || !verified[i])
                continue;
            r[i].model.sectors_per_req = r[tracer].model.sectors_per_req;
            r[i].model.ld_sectors_per_req = r[tracer].model.ld_sectors_per_req;
            r[i].model.st_sectors_per_req = r[tracer].model.st_sectors_per_req;
            r[i].model.efficiency = r[tracer].model.efficiency;
            r[i].model.bytes_moved = r[tracer].model.bytes_moved;
            r[i].model.features = r[tracer].model.features;
            /* each API's compiler makes its own code of the same addresses */
            if (r[i].model.features.valid)
                clc_instance_compiled(&in[i], &r[i].model.features);
            if (!clean) /* the access outside the buffers, named */
                memcpy(r[i].note, r[tracer].note, sizeof r[i].note);
        }
        phase(s, CLC_PHASE_MODEL, &t0);
    }
    for (int i = 0; i < s->n_be; i++)
        if (checked[i] && finish_row(s, i, &r[i], verified[i] && clean, p.local_bytes, p.unchecked) != CLC_OK)
            rc = CLC_ERR;
done:
    clc_readback_release(&first);
    for (int i = 0; i < s->n_be; i++)
        clc_instance_close(&in[i]);
    clc_plan_free(&p);
    return rc;
}

/* Keeps in s the APIs of `from` (n of them) that v runs on (want) or those it cannot run on
 * (!want), with their --cold buffers, and returns how many. */
static int keep_apis(struct clc_session *s, const struct clc_variant *v,
                     struct clc_backend *const *from, struct clc_buf *const *flush, int n,
                     bool want)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if ((v->not_on[from[i]->dev.api] == NULL) != want)
            continue;
        s->be[kept] = from[i];
        s->flush[kept++] = flush[i];
    }
    s->n_be = kept;
    return kept;
}

/* One row on every API of the session: those the variant cannot run on (its not_on) as rows
 * skipped with its note, then the others together. */
static int run_row(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                   enum clc_type t, uint64_t size, long param)
{
    struct clc_backend *be[CLC_MAX_APIS];
    struct clc_buf *flush[CLC_MAX_APIS];
    int n = s->n_be, rc = CLC_OK;
    memcpy(be, s->be, sizeof be);
    memcpy(flush, s->flush, sizeof flush);
    int n_skip = keep_apis(s, v, be, flush, n, false);
    if (n_skip == 0) {
        s->n_be = n;
        return run_row_on(s, c, v, t, size, param);
    }
    struct clc_backend *skipped[CLC_MAX_APIS];
    memcpy(skipped, s->be, sizeof skipped);
    struct clc_plan p = {.has_param = v->params != NULL, .param = param};
    for (int i = 0; i < n_skip && rc == CLC_OK; i++) {
        s->be[0] = skipped[i];
        s->n_be = 1;
        rc = skip_rows(s, c, v, &p, t, size, v->not_on[skipped[i]->dev.api]);
    }
    if (rc == CLC_OK && keep_apis(s, v, be, flush, n, true) > 0)
        rc = run_row_on(s, c, v, t, size, param);
    memcpy(s->be, be, sizeof be);
    memcpy(s->flush, flush, sizeof flush);
    s->n_be = n;
    return rc;
}

/* ------------------------------------------------------------------ the cases */

/* The host memory available now: MemAvailable of /proc/meminfo (what can be had without
 * swapping), else the free pages sysconf reports; 0 when neither says.  *source names it. */
static uint64_t host_available(const char **source)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
            fclose(f);
            *source = "MemAvailable in /proc/meminfo";
            return (uint64_t)kib * 1024;
        }
    }
    if (f != NULL)
        fclose(f);
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    *source = "sysconf(_SC_AVPHYS_PAGES)";
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* Whether one row of v at `size` fits the memory there is, before anything is allocated:
 * all its buffers on the device (its global memory), and on the host the buffers it fills
 * from, reads back or keeps for the check, plus, on a CPU device, the device's buffers too
 * (the same memory).  Rows run one at a time, so the largest row is what a run needs.  Each
 * buffer alone was checked against the per-buffer limit (case_size).  CLC_ERR after a
 * message naming the row, what it needs and the limit. */
static int row_memory_fits(struct clc_session *s, const struct clc_case *c,
                           const struct clc_variant *v, enum clc_type t, uint64_t size,
                           long param)
{
    const struct clc_device *dev = &s->be[0]->dev;
    struct clc_env e = clc_env_make(dev, t, size);
    e.dry = true;
    struct clc_plan p;
    if (clc_variant_plan(&e, v, param, &p) != CLC_OK)
        return CLC_OK; /* the row is skipped or says why when it runs */
    uint64_t on_dev = 0, on_host = 0;
    for (unsigned b = 0; b < p.nbufs; b++) {
        const struct clc_buffer_spec *sp = &p.bufs[b];
        uint64_t bytes = sp->elems * sp->elem_size;
        on_dev += bytes;
        if (sp->read_back)
            on_host += sp->pick_stride > 1 ? bytes / sp->pick_stride : bytes;
        if (sp->initial || sp->init == CLC_INIT_HOST)
            on_host += bytes;
    }
    clc_plan_free(&p);
    char a[32], b[32], row[96];
    snprintf(row, sizeof row, "%s/%s (%s) at %s", c->name, v->name, clc_type_name(t),
             clc_format_size(size, a, sizeof a));
    uint64_t global = dev->meta.global_mem;
    if (global > 0 && on_dev > global) {
        clc_error("not enough memory: %s needs %s of device memory for its buffers; the device "
                  "has %s (%s)", row, clc_format_size(on_dev, a, sizeof a),
                  clc_format_size(global, b, sizeof b),
                  dev->api == CLC_API_OPENCL ? "CL_DEVICE_GLOBAL_MEM_SIZE" : "cuDeviceTotalMem");
        return CLC_ERR;
    }
    const char *source;
    uint64_t avail = host_available(&source), need = on_host + (dev->cpu ? on_dev : 0);
    if (avail > 0 && need > avail) {
        clc_error("not enough memory: %s needs %s of host memory (%s), the host has %s "
                  "available (%s)", row, clc_format_size(need, a, sizeof a),
                  dev->cpu ? "its buffers on this CPU device, and the host copies the check "
                             "reads back"
                           : "the host copies it fills from and reads back",
                  clc_format_size(avail, b, sizeof b), source);
        return CLC_ERR;
    }
    return CLC_OK;
}

/* Runs every row of the cases, or counts them into *count (and lists them for the trace
 * builds made ahead) when count is not NULL. */
static int each_row(struct clc_session *s, const struct clc_case *const *cases, size_t n,
                    size_t *count)
{
    const struct clc_opts *o = s->o;
    int rc = CLC_OK;
    for (size_t i = 0; i < n; i++) {
        const struct clc_case *c = cases[i];
        uint64_t sizes[MAX_SIZES];
        if (count == NULL)
            clc_give_back_memory();
        size_t ns = case_sizes(s, c, sizes, MAX_SIZES, count != NULL);
        if (ns == 0)
            rc = CLC_ERR;
        for (size_t k = 0; k < ns; k++) {
            for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
                if (!(case_types(o, c) & t))
                    continue;
                if (t == CLC_DOUBLE && !s->be[0]->dev.fp64) {
                    if (count != NULL)
                        *count += (size_t)s->n_be;
                    else if (skip_rows(s, c, &(struct clc_variant){.name = "*"}, NULL,
                                       CLC_DOUBLE, sizes[k], "the device has no fp64") != CLC_OK)
                        rc = CLC_ERR;
                    continue;
                }
                struct clc_env e = clc_env_make(&s->be[0]->dev, (enum clc_type)t, sizes[k]);
                for (size_t vi = 0; vi < c->n_variants; vi++) {
                    const struct clc_variant *v = &c->variants[vi];
                    if ((o->variant && strcmp(o->variant, v->name) != 0) ||
                        (v->types && !(v->types & t)))
                        continue;
                    long params[CLC_MAX_PARAMS] = {0};
                    size_t np = v->params ? v->params(&e, v, params) : 1;
                    for (size_t pi = 0; pi < np; pi++) {
                        enum clc_type ty = (enum clc_type)t;
                        if (count != NULL) {
                            if (row_memory_fits(s, c, v, ty, sizes[k], params[pi]) != CLC_OK)
                                return CLC_ERR;
                            *count += (size_t)s->n_be;
                            clc_ahead_add(s, c, v, ty, sizes[k], params[pi]);
                            continue;
                        }
                        if (run_row(s, c, v, ty, sizes[k], params[pi]) != CLC_OK)
                            rc = CLC_ERR;
                    }
                }
            }
        }
    }
    return rc;
}

static int measure_ceilings(struct clc_session *s);

/* The table's columns this run fills (CLC_COL_*): pred and bound only when the rows are
 * predicted as they stream (a profile loaded first), %peak only with a peak, ms_host only
 * with --host-check (which --cold skips). */
static unsigned table_cols(const struct clc_session *s)
{
    const struct clc_opts *o = s->o;
    return (s->n_be > 1 ? CLC_COL_API : 0) |
           (o->model && s->profile[0] != NULL ? CLC_COL_PRED : 0) |
           (isfinite(s->rep->device.peak_gbps) ? CLC_COL_PEAK : 0) |
           (o->model ? CLC_COL_MODEL : 0) |
           (s->timing.host_check && !s->timing.cold ? CLC_COL_HOST : 0);
}

int clc_session_run(struct clc_session *s, const struct clc_case *const *cases, size_t n)
{
    /* every case's sizes first: a size no buffer can hold ends the run before anything runs */
    s->rows_total = 0;
    s->rows_done = 0;
    s->rows_in_cache = 0;
    clc_ahead_stop(s);
    int rc = each_row(s, cases, n, &s->rows_total);
    if (rc == CLC_OK && !s->ceilings)
        rc = measure_ceilings(s);
    if (rc != CLC_OK) {
        clc_ahead_stop(s);
        return CLC_ERR;
    }
    s->t0 = clc_now_ns();
    if (s->rep->n_results == 0)
        s->rep->table_cols = table_cols(s);
    size_t first = s->rep->n_results;
    if (s->table != NULL && s->rep->n_results == 0)
        clc_table_header(s->table, s->rep->table_cols);
    clc_ahead_start(s);
    rc = each_row(s, cases, n, NULL);
    clc_ahead_stop(s);
    clc_status(NULL);
    double total = (double)(clc_now_ns() - s->t0) * 1e-9;
    clc_note("%zu rows in %.1f s: %.1f s building kernels and filling buffers, %.1f s timing, "
             "%.1f s checking results, %.1f s tracing for the model (%.1f s of it waiting for "
             "the trace builds, %.1f s analysing the traces)", s->rows_done, total,
             s->phase_ns[CLC_PHASE_SETUP] * 1e-9, s->phase_ns[CLC_PHASE_TIMING] * 1e-9,
             s->phase_ns[CLC_PHASE_CHECK] * 1e-9, s->phase_ns[CLC_PHASE_MODEL] * 1e-9,
             s->trace_build_ns * 1e-9, s->analyse_ns * 1e-9);
    if (s->rows_in_cache > 0) {
        char l2[32];
        const struct clc_device_meta *m = &s->be[0]->dev.meta;
        clc_note("%zu rows (marked 'in cache') ran on buffers that fit in the last-level cache "
                 "(%s, %s): their GB/s is the cache's, not DRAM's; a larger --size measures "
                 "DRAM", s->rows_in_cache, clc_format_size(m->l2_bytes, l2, sizeof l2),
                 m->l2_source);
    }
    clc_report_note_noisy(s->rep, first);
    return rc;
}

/* ------------------------------------------------------------------ the session */

/* The API's vendor copy over `bytes`: the practical ceiling its rows are compared with. */
static int copy_ceiling(struct clc_session *s, int api, uint64_t bytes, double *gbps)
{
    struct clc_backend *be = s->be[api];
    struct clc_buf *src = NULL, *dst = NULL;
    struct clc_timing_opts to = s->timing;
    struct clc_timing t;
    int rc = CLC_ERR;
    to.cold = false; /* the steady-state reference for every row, warm even with --cold */
    to.host_check = false;
    if (clc_alloc(be, (size_t)bytes, "copy ceiling source", &src) != CLC_OK ||
        clc_alloc(be, (size_t)bytes, "copy ceiling destination", &dst) != CLC_OK ||
        be->ops->fill(be, src, (size_t)bytes, 0) != CLC_OK)
        goto done;
    struct clc_instance in = {.be = be, .op = {NULL, src, dst, (size_t)bytes}};
    struct api_timer at = {s, api, &in, NULL};
    struct clc_timer tm = {&at, timer_run, timer_time, timer_flush};
    clc_activity("the copy ceiling (%s)", be->ops->copy_name);
    if (clc_time_launches(&tm, 1, &to, &t) != CLC_OK)
        goto done;
    *gbps = clc_gbps(2 * bytes, t.ms_median);
    rc = CLC_OK;
done:
    clc_release(be, src);
    clc_release(be, dst);
    return rc;
}

/* The APIs of the mask, OpenCL first. */
static int apis_of(unsigned mask, enum clc_api *out)
{
    int n = 0;
    for (int a = 0; a < CLC_API_COUNT; a++)
        if (mask & (1u << a))
            out[n++] = (enum clc_api)a;
    return n;
}

/* Opens the device of each API: the primary by o->device, the others the same hardware. */
static int open_devices(struct clc_session *s)
{
    const struct clc_opts *o = s->o;
    enum clc_api apis[CLC_API_COUNT];
    int napi = apis_of(o->apis ? o->apis : 1u << CLC_API_OPENCL, apis);
    struct clc_device primary;
    for (int i = 0; i < napi; i++) {
        const struct clc_backend_ops *ops = clc_backend_ops(apis[i]);
        struct clc_device *list = NULL;
        int count = 0, di;
        if (ops->devices(&list, &count, false) != CLC_OK)
            return CLC_ERR;
        if (i == 0) {
            di = clc_select_device(list, count, o->device);
            if (di < 0) {
                free(list);
                return CLC_USAGE;
            }
            primary = list[di];
        } else {
            di = clc_match_device(list, count, &primary);
            if (di < 0) {
                clc_error("--api both: no %s device is the %s device '%s'%s%s", clc_api_name(apis[i]),
                          clc_api_name(apis[0]), primary.meta.name,
                          primary.meta.pci_bus_id[0] ? " at PCI " : "", primary.meta.pci_bus_id);
                free(list);
                return CLC_ERR;
            }
        }
        struct clc_device dev = list[di];
        free(list);
        if (ops->open(&dev, s->kernel_dir, &s->be[i]) != CLC_OK)
            return CLC_ERR;
        s->n_be = i + 1;
        clc_note("device: %s (%s, %s)", dev.meta.name, clc_api_name(dev.api), dev.meta.platform);
    }
    return CLC_OK;
}

int clc_session_open(struct clc_session *s, const struct clc_opts *o, struct clc_report *rep,
                     FILE *table)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->rep = rep;
    s->table = table;
    s->progress = o->progress > 0 || (o->progress < 0 && isatty(STDERR_FILENO) && !clc_quiet);
    if (clc_find_kernel_dir(o->kernel_dir, s->kernel_dir, sizeof s->kernel_dir) != CLC_OK)
        return CLC_ERR;
    int rc = open_devices(s);
    if (rc != CLC_OK)
        return rc;
    const struct clc_device *dev = &s->be[0]->dev;
    if ((o->types & CLC_DOUBLE) && !dev->fp64 && o->types_given && !(o->types & CLC_FLOAT)) {
        clc_error("--type double: device '%s' does not support fp64", dev->meta.name);
        return CLC_ERR;
    }
    clc_note("kernels: %s", s->kernel_dir);
    double res = 0;
    for (int i = 0; i < s->n_be; i++)
        res = fmax(res, s->be[i]->dev.meta.timer_res_ns);
    s->timing = clc_timing_defaults(o->warmup, o->reps, o->quick, res);
    s->timing.host_check = o->host_check;
    s->timing.cold = o->cold;
    if (o->cold && o->host_check)
        clc_note("--host-check is skipped with --cold: its batch of launches would run warm");

    rep->device = dev->meta;
    snprintf(rep->api, sizeof rep->api, "%s", s->n_be > 1 ? "both" : clc_api_name(dev->api));
    clc_report_options(rep, &o->run, &s->timing, NULL, 0);
    double nv = NAN;
    if (isnan(o->peak_gbps) && dev->nvidia && clc_nvml_peak_gbps(dev->meta.pci_bus_id, &nv) == CLC_OK) {
        rep->device.peak_gbps = nv;
        snprintf(rep->device.peak_source, sizeof rep->device.peak_source, "nvml");
    }
    if (dev->cpu && o->size == 0 && o->sweep_max == 0 && !o->quick &&
        2 * CLC_CPU_SIZE <= dev->meta.l2_bytes) {
        char a[32], b[32];
        clc_note("on a CPU device the default arrays (%s) fit in the %s last-level cache: the "
                 "figures measure the cache more than memory; --size sets larger arrays",
                 clc_format_size(CLC_CPU_SIZE, a, sizeof a),
                 clc_format_size(dev->meta.l2_bytes, b, sizeof b));
    }

    rep->n_apis = s->n_be;
    for (int i = 0; i < s->n_be; i++) {
        struct clc_api_meta *m = &rep->apis[i];
        struct clc_backend *be = s->be[i];
        snprintf(m->name, sizeof m->name, "%s", clc_api_name(be->dev.api));
        snprintf(m->version, sizeof m->version, "%.*s", (int)sizeof m->version - 1,
                 be->dev.meta.platform);
        snprintf(m->copy_source, sizeof m->copy_source, "%s", be->ops->copy_name);
    }
    snprintf(rep->device.copy_source, sizeof rep->device.copy_source, "%s",
             rep->apis[0].copy_source);
    return CLC_OK;
}

/* In a sweep: each API's copy ceiling at each of its sizes that a buffer can hold, into
 * s->sweep_size and s->sweep_ceiling, said in one note.  A single ceiling would make a
 * cache-sized row read as several times a copy measured in DRAM. */
static int measure_sweep_ceilings(struct clc_session *s)
{
    const struct clc_opts *o = s->o;
    char line[1024] = "", a[32];
    s->n_sweep = 0;
    for (uint64_t step = o->sweep_min; step <= o->sweep_max && s->n_sweep < MAX_SIZES;
         step *= 2) {
        uint64_t bytes = step & ~(uint64_t)3; /* whole floats, as the copy case uses */
        if (bytes == 0)
            continue;
        if (!clc_size_fits(&s->be[0]->dev.meta, 1, bytes))
            break;
        size_t k = s->n_sweep;
        for (int i = 0; i < s->n_be; i++)
            if (copy_ceiling(s, i, bytes, &s->sweep_ceiling[k][i]) != CLC_OK)
                return CLC_ERR;
        s->sweep_size[k] = bytes;
        s->n_sweep++;
        size_t len = strlen(line);
        snprintf(line + len, sizeof line - len, "%s%s %.1f", k ? ", " : "",
                 clc_format_size(bytes, a, sizeof a), s->sweep_ceiling[k][0]);
        if (step > UINT64_MAX / 4)
            break;
    }
    clc_note("copy ceiling at each size of the sweep, each row's %%copy against its own size "
             "(GB/s, %s): %s", s->rep->apis[0].copy_source, line);
    return CLC_OK;
}

/* Each API's copy ceiling, at the size the copy case would use (the default size in a
 * sweep), and in a sweep at each of its sizes too. */
static int measure_ceilings(struct clc_session *s)
{
    const struct clc_opts *o = s->o;
    struct clc_report *rep = s->rep;
    uint64_t size;
    struct clc_case copy_like = {.name = "copy", .alloc_factor = 1};
    if (case_size(s, &copy_like, o->sweep_max ? 0 : o->size, "--size", &size, true) != CLC_OK)
        return CLC_ERR;
    rep->run.size = size;
    for (int i = 0; i < s->n_be; i++) {
        struct clc_api_meta *m = &rep->apis[i];
        if (copy_ceiling(s, i, size, &m->copy_gbps) != CLC_OK)
            return CLC_ERR;
        char sz[32];
        clc_note("copy ceiling: %.1f GB/s (%s, %s)", m->copy_gbps, m->copy_source,
                 clc_format_size(size, sz, sizeof sz));
    }
    rep->device.copy_gbps = rep->apis[0].copy_gbps;
    s->ceilings = true;
    return o->sweep_max ? measure_sweep_ceilings(s) : CLC_OK;
}

void clc_session_close(struct clc_session *s)
{
    clc_ahead_stop(s);
    for (int i = 0; i < s->n_be; i++) {
        clc_release(s->be[i], s->flush[i]);
        s->be[i]->ops->close(s->be[i]);
        s->be[i] = NULL;
    }
    s->n_be = 0;
    for (int i = 0; i < CLC_MAX_APIS; i++) {
        free(s->profile[i]);
        s->profile[i] = NULL;
    }
}

/* On a CPU, rows above the copy ceiling: one note says why.  The ceiling is the driver's copy
 * between two buffers (copy_ceiling), which PoCL runs as one memcpy on one thread
 * (pocl_driver_copy), while a kernel's work-groups run on every core, and a kernel that
 * works in place touches half the memory; rows whose buffers fit in the caches measure
 * those. */
static void note_over_copy(const struct clc_session *s)
{
    const struct clc_report *rep = s->rep;
    size_t over = 0, cached = 0;
    double most = 0;
    if (s->n_be == 0 || !s->be[0]->dev.cpu)
        return;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_OK && r->pct_copy > 100) {
            over++;
            cached += r->cache_resident;
            most = fmax(most, r->pct_copy);
        }
    }
    if (over == 0)
        return;
    bool pocl = strstr(rep->device.platform, "Portable Computing Language") != NULL ||
                strstr(rep->device.platform, "PoCL") != NULL;
    char sz[32];
    clc_note("%zu rows measure more than the copy ceiling (up to %.0f %%): on a CPU that ceiling "
             "is the driver's %s between two buffers of %s, %s, while a kernel's work-groups run "
             "on every core and a kernel in place touches half the memory a copy does%s",
             over, most, rep->device.copy_source, clc_format_size(rep->run.size, sz, sizeof sz),
             pocl ? "which PoCL runs as one memcpy on one thread" : "not a kernel",
             cached == over  ? "; all of them ran on buffers that fit in the CPU's caches"
             : cached > 0    ? "; some of them ran on buffers that fit in the CPU's caches"
                             : "");
}

int clc_run_cases(const struct clc_opts *o, const struct clc_case *const *cases, size_t n,
                  struct clc_report *rep, FILE *table)
{
    int rc = clc_check_sizes(o, cases, n);
    if (rc != CLC_OK)
        return rc;
    struct clc_session s;
    rc = clc_session_open(&s, o, rep, table);
    if (rc == CLC_OK)
        rc = clc_session_load_profile(&s, cases, n);
    if (rc == CLC_OK)
        rc = clc_session_run(&s, cases, n);
    if (rc == CLC_OK) {
        clc_session_predict_end(&s);
        note_over_copy(&s);
        if (table != NULL)
            clc_lesson_print(rep, table);
    }
    struct clc_model_summary predicted;
    clc_model_summarize(rep, &predicted);
    if (rc == CLC_OK && predicted.rows > 0) /* after the table, where its bounds are read */
        clc_note("model: 'clcoalesce explain CASE --variant V' prints a row's prediction layer "
                 "by layer, with what its bound means and what would lift it");
    if (rc == CLC_OK && o->variant != NULL && rep->n_results == 0) {
        clc_error("no variant '%s' in the cases run; 'clcoalesce cases' lists the variants",
                  o->variant);
        rc = CLC_USAGE;
    }
    clc_session_close(&s);
    return rc;
}

/* Whether c is among the first n of cases. */
static bool case_listed(const struct clc_case *const *cases, size_t n, const struct clc_case *c)
{
    for (size_t i = 0; i < n; i++)
        if (cases[i] == c)
            return true;
    return false;
}

int clc_run(const struct clc_opts *o, const char *const *names, int n, struct clc_report *rep,
            FILE *table)
{
    const struct clc_case **cases = calloc(clc_n_cases + (size_t)n + 1, sizeof *cases);
    size_t count = 0;
    int rc = CLC_OK;
    if (cases == NULL)
        return CLC_ERR;
    for (size_t i = 0; n == 0 && i < clc_n_cases; i++)
        if (clc_case_runs_by_default(clc_cases[i]))
            cases[count++] = clc_cases[i];
    for (int i = 0; rc == CLC_OK && i < n; i++) {
        const struct clc_case *c = clc_find_case(names[i]);
        if (c == NULL) {
            clc_error("unknown case '%s'; 'clcoalesce cases' lists them", names[i]);
            rc = CLC_USAGE;
        } else if (o->variant != NULL && clc_find_variant(c, o->variant) == NULL) {
            /* an error, not a note: a case named and then silently dropped would read as
             * measured in a script that only checks the exit status */
            char list[256] = "";
            for (size_t v = 0; v < c->n_variants; v++) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%s%s", v ? ", " : "", c->variants[v].name);
            }
            clc_error("case '%s' has no variant '%s' (its variants: %s); name only cases that "
                      "have it, or none to run it in every case that has it", c->name,
                      o->variant, list);
            rc = CLC_USAGE;
        } else if (!case_listed(cases, count, c)) { /* `run copy copy` runs copy once */
            cases[count++] = c;
        }
    }
    if (rc == CLC_OK) {
        clc_report_options(rep, &o->run, NULL, names, n);
        rc = clc_run_cases(o, cases, count, rep, table);
    }
    free(cases);
    return rc;
}
