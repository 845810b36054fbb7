/* bench.c - the run driver (device, sizes, copy ceiling, every case in every type) and the
 * helpers that case host files use to time, verify and report. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/cases.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/model.h"
#include "clcoalesce/nvml.h"
#include "clcoalesce/stats.h"

void clc_opts_defaults(struct clc_opts *o)
{
    memset(o, 0, sizeof *o);
    clc_run_opts_defaults(&o->run);
    o->model = true;
}

/* ------------------------------------------------------------------ helpers for cases */

size_t clc_bench_elems(const struct clc_bench *b, enum clc_type t)
{
    return (size_t)(b->size / clc_type_size(t));
}

int clc_bench_kernel(struct clc_bench *b, enum clc_type t, const char *extra, const char *name,
                     cl_kernel *out)
{
    char opts[512];
    snprintf(opts, sizeof opts, "%s %s",
             t == CLC_DOUBLE ? "-DT=double -DCLC_FP64=1" : "-DT=float", extra ? extra : "");
    return clc_kernel(b->ctx, b->c->cl_file, opts, name, out);
}

bool clc_bench_wants(const struct clc_bench *b, const char *variant)
{
    return b->opts->variant == NULL || strcmp(b->opts->variant, variant) == 0;
}

int clc_bench_poison(struct clc_bench *b, cl_mem buf, size_t bytes)
{
    const cl_uint poison = 0xffffffffu;
    return clc_fill(b->ctx, buf, bytes, &poison, sizeof poison);
}

int clc_bench_time(struct clc_bench *b, struct clc_result *r, clc_enqueue_fn fn, void *arg,
                   struct clc_timing *t)
{
    /* the model relaunches a kernel launch; it cannot relaunch anything else */
    b->have_launch = fn == clc_enqueue_kernel;
    if (b->have_launch)
        b->last_launch = *(const struct clc_launch *)arg;
    if (clc_time(b->ctx, &b->timing, fn, arg, t) != CLC_OK)
        return CLC_ERR;
    b->coarse = t->coarse;
    clc_timing_to_result(t, r);
    return CLC_OK;
}

/* ------------------------------------------------------------------ the access model */

/* Arguments given through clc_arg, per kernel, so the trace build of a timed kernel can be
 * launched with the same ones.  A handle seen again with another function name is a new
 * kernel that reuses a released handle. */
#define ARG_KERNELS 32
#define ARG_MAX 32
#define ARG_BYTES 128 /* the largest OpenCL scalar or vector argument (double16) */
#define TRACE_SLOTS 64 /* accesses recorded per work-item */
#define TRACE_WARPS 8  /* warps traced per launch, at least */

struct arg_value {
    bool set;
    bool fits;  /* the value fitted in v (or is a __local size, v unused) */
    bool local; /* a __local allocation: clSetKernelArg(k, i, size, NULL) */
    size_t size;
    unsigned char v[ARG_BYTES];
};

static struct arg_entry {
    cl_kernel kernel;
    char name[128];
    struct arg_value a[ARG_MAX];
} arg_table[ARG_KERNELS];
static unsigned arg_next;

static void kernel_name(cl_kernel k, char *name, size_t len)
{
    name[0] = '\0';
    if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, len, name, NULL) != CL_SUCCESS)
        name[0] = '\0';
    name[len - 1] = '\0';
}

static struct arg_entry *arg_entry(cl_kernel k, bool create)
{
    char name[128];
    kernel_name(k, name, sizeof name);
    for (unsigned i = 0; i < ARG_KERNELS; i++) {
        struct arg_entry *e = &arg_table[i];
        if (e->kernel != k)
            continue;
        if (strcmp(e->name, name) == 0)
            return e;
        memset(e, 0, sizeof *e); /* a reused handle */
        if (!create)
            return NULL;
        e->kernel = k;
        snprintf(e->name, sizeof e->name, "%s", name);
        return e;
    }
    if (!create)
        return NULL;
    struct arg_entry *e = &arg_table[arg_next++ % ARG_KERNELS];
    memset(e, 0, sizeof *e);
    e->kernel = k;
    snprintf(e->name, sizeof e->name, "%s", name);
    return e;
}

static void remember_arg(cl_kernel k, cl_uint idx, size_t size, const void *value)
{
    struct arg_entry *e = arg_entry(k, true);
    if (idx >= ARG_MAX)
        return; /* the model then finds the argument missing and says so */
    struct arg_value *a = &e->a[idx];
    a->set = true;
    a->size = size;
    a->local = value == NULL;
    a->fits = value == NULL || size <= ARG_BYTES;
    if (value != NULL && a->fits)
        memcpy(a->v, value, size);
}

/* Appends "model: ..." to the row's note. */
static void model_note(struct clc_result *r, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t len = strlen(r->note);
    snprintf(r->note + len, sizeof r->note - len, "%smodel: %s", len ? "; " : "", msg);
}

/* Finds the file and build options of the program that kernel k came from. */
static bool program_source(struct clc_ctx *ctx, cl_kernel k, char *file, size_t flen,
                           char *options, size_t olen)
{
    cl_program prog = NULL;
    if (clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL) != CL_SUCCESS)
        return false;
    for (int i = 0; i < ctx->n_programs; i++) {
        if (ctx->programs[i].program != prog)
            continue;
        const char *key = ctx->programs[i].key, *bar = strchr(key, '|');
        if (bar == NULL)
            return false;
        snprintf(file, flen, "%.*s", (int)(bar - key), key);
        snprintf(options, olen, "%s", bar + 1);
        return true;
    }
    return false;
}

/* Rebuilds the row's timed kernel with -DCLC_TRACE, launches it once over the same range
 * with the same arguments, and fills the model fields of r from the addresses recorded by
 * the first work-groups.  Any failure leaves the fields NAN and says why in the note: the
 * measurement itself stands. */
static void model_row(struct clc_bench *b, struct clc_result *r)
{
    struct clc_ctx *ctx = b->ctx;
    const struct clc_launch *l = &b->last_launch;
    char file[256], options[512], topts[600], name[128];
    cl_kernel tk = NULL;
    cl_mem buf = NULL;
    cl_event ev = NULL;
    uint64_t *words = NULL;
    cl_int err;
    const char *what = NULL;

    if (l->local[0] == 0 || l->dims < 1 || l->dims > 3)
        return; /* the runtime picks the work-group: warps are unknown */
    kernel_name(l->kernel, name, sizeof name);
    if (!program_source(ctx, l->kernel, file, sizeof file, options, sizeof options)) {
        model_note(r, "kernel %s not built by clc_build", name);
        return;
    }
    cl_uint nargs = 0;
    if (clGetKernelInfo(l->kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) != CL_SUCCESS)
        return;
    struct arg_entry *e = arg_entry(l->kernel, false);
    for (cl_uint i = 0; i < nargs; i++) {
        if (e == NULL || i >= ARG_MAX || !e->a[i].set || !e->a[i].fits) {
            model_note(r, "argument %u of %s not set through clc_arg", i, name);
            return;
        }
    }
    snprintf(topts, sizeof topts, "%s -DCLC_TRACE", options);
    if (clc_kernel(ctx, file, topts, name, &tk) != CLC_OK) {
        clc_note("%s/%s: the access model's trace build failed (above); the measurement "
                 "stands, the model columns stay empty", r->case_name, r->variant);
        model_note(r, "trace build failed");
        return;
    }
    cl_uint tnargs = 0;
    clGetKernelInfo(tk, CL_KERNEL_NUM_ARGS, sizeof tnargs, &tnargs, NULL);
    if (tnargs != nargs + 3) {
        model_note(r, "%s does not end its parameters with CLC_TRACE_ARGS", name);
        goto cleanup;
    }

    size_t wg = 1, groups = 1, items_all = 1;
    for (cl_uint d = 0; d < l->dims; d++) {
        if (l->local[d] == 0 || l->global[d] % l->local[d] != 0)
            goto cleanup;
        wg *= l->local[d];
        groups *= l->global[d] / l->local[d];
        items_all *= l->global[d];
    }
    int ws = ctx->dev.meta.warp_size;
    unsigned warp = ws > 0 && ws <= (int)CLC_MODEL_MAX_WARP ? (unsigned)ws : CLC_MODEL_WARP;
    size_t tgroups = (TRACE_WARPS * warp + wg - 1) / wg;
    if (tgroups > groups)
        tgroups = groups;
    size_t items = tgroups * wg, nwords = items * 2 * TRACE_SLOTS;
    cl_uint slots = TRACE_SLOTS, tg = (cl_uint)tgroups;
    words = malloc(nwords * sizeof *words);
    if (words == NULL)
        goto cleanup;
    const cl_uint zero = 0;
    if (clc_buffer(ctx, nwords * sizeof *words, "trace", &buf) != CLC_OK ||
        clc_fill(ctx, buf, nwords * sizeof *words, &zero, sizeof zero) != CLC_OK) {
        model_note(r, "no trace buffer");
        goto cleanup;
    }
    for (cl_uint i = 0; i < nargs && what == NULL; i++) {
        const struct arg_value *a = &e->a[i];
        if (clSetKernelArg(tk, i, a->size, a->local ? NULL : a->v) != CL_SUCCESS)
            what = "clSetKernelArg";
    }
    if (what == NULL && (clSetKernelArg(tk, nargs, sizeof buf, &buf) != CL_SUCCESS ||
                         clSetKernelArg(tk, nargs + 1, sizeof slots, &slots) != CL_SUCCESS ||
                         clSetKernelArg(tk, nargs + 2, sizeof tg, &tg) != CL_SUCCESS))
        what = "clSetKernelArg";
    if (what == NULL) {
        err = clEnqueueNDRangeKernel(ctx->queue, tk, l->dims, NULL, l->global, l->local, 0,
                                     NULL, &ev);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &ev);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, nwords * sizeof *words, words,
                                      0, NULL, NULL);
        if (err != CL_SUCCESS) {
            model_note(r, "trace launch failed: %s", clc_cl_errname(err));
            goto cleanup;
        }
    } else {
        model_note(r, "%s failed on the trace kernel", what);
        goto cleanup;
    }

    struct clc_trace tr = {words, items, wg, TRACE_SLOTS, warp, items_all};
    struct clc_model m;
    if (clc_model_analyse(&tr, &m) != 0)
        goto cleanup;
    r->model_sectors_per_req = m.sectors_per_req;
    r->model_ld_sectors_per_req = m.sectors_per_req_load;
    r->model_st_sectors_per_req = m.sectors_per_req_store;
    r->model_efficiency = m.efficiency;
    r->model_bytes_moved = m.bytes_moved;
    if (m.truncated)
        model_note(r, "first %d accesses of each work-item", TRACE_SLOTS);
    if (b->opts->model_hook != NULL)
        b->opts->model_hook(b->opts->model_hook_arg, r, file, options, name, &tr);
cleanup:
    if (ev)
        clReleaseEvent(ev);
    if (buf)
        clReleaseMemObject(buf);
    if (tk)
        clReleaseKernel(tk);
    free(words);
}

int clc_bench_finish(struct clc_bench *b, struct clc_result *r, bool verified)
{
    r->size = b->size;
    clc_result_complete(r, verified, b->report->device.copy_gbps, b->report->device.peak_gbps,
                        b->timing.min_ms);
    if (verified) {
        if (b->timing.cold) {
            size_t len = strlen(r->note);
            if (b->coarse)
                snprintf(r->note + len, sizeof r->note - len, "%scold: L2 flushed before each "
                         "launch; one launch is < %.3g ms, near the timer's resolution: a coarse "
                         "figure", len ? "; " : "", b->timing.min_ms);
            else
                snprintf(r->note + len, sizeof r->note - len,
                         "%scold: L2 flushed before each launch", len ? "; " : "");
        }
        if (b->opts->model && b->have_launch)
            model_row(b, r);
    } else {
        clc_error("%s/%s (%s): %s", r->case_name, r->variant, clc_type_name(r->type), r->note);
    }
    b->have_launch = false;
    b->coarse = false;
    if (clc_report_row(b->report, b->table, r) != CLC_OK)
        return CLC_ERR;
    return verified ? CLC_OK : CLC_ERR;
}

int clc_bench_skip(struct clc_bench *b, enum clc_type t, const char *variant, const char *why)
{
    return clc_report_skip(b->report, b->table, b->c->name, variant, t, 0, why);
}

void *clc_host_alloc(size_t n, enum clc_type t)
{
    void *p = malloc(n * clc_type_size(t) + 1);
    if (p == NULL)
        clc_error("out of host memory for %zu elements", n);
    return p;
}

int clc_arg(cl_kernel k, cl_uint idx, size_t size, const void *value)
{
    cl_int err = clSetKernelArg(k, idx, size, value);
    if (err == CL_SUCCESS) {
        remember_arg(k, idx, size, value);
        return CLC_OK;
    }
    char name[128] = "?";
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = '\0';
    clc_error("clSetKernelArg(%s, %u) failed: %s", name, idx, clc_cl_errname(err));
    return CLC_ERR;
}

int clc_bench_init_values(struct clc_bench *b, enum clc_type t, cl_mem buf, size_t n)
{
    int rc = CLC_ERR;
    cl_kernel k = NULL;
    cl_ulong count = n;
    struct clc_launch l = {NULL, 1, {clc_round_up(n, 256)}, {256}};
    cl_event ev = NULL;
    if (clc_bench_kernel(b, t, NULL, "clc_init", &k) != CLC_OK || clc_arg(k, 0, sizeof buf, &buf) ||
        clc_arg(k, 1, sizeof count, &count))
        goto cleanup;
    l.kernel = k;
    CLC_CHECK(clc_enqueue_kernel(&l, b->ctx->queue, &ev));
    CLC_CHECK(clWaitForEvents(1, &ev));
    rc = CLC_OK;
cleanup:
    if (ev)
        clReleaseEvent(ev);
    if (k)
        clReleaseKernel(k);
    return rc;
}

int clc_bench_map(struct clc_bench *b, enum clc_type t, const struct clc_map_spec *s)
{
    if (!clc_bench_wants(b, s->variant))
        return CLC_OK;
    int rc = CLC_ERR;
    size_t es = clc_type_size(t);
    cl_kernel k = NULL;
    cl_mem in = NULL, out = NULL;
    void *h_in = clc_host_alloc(s->n_in, t), *got = clc_host_alloc(s->n_out, t),
         *want = clc_host_alloc(s->n_out, t);
    struct clc_result r;
    struct clc_timing tm;
    struct clc_launch launch = {NULL, 1, {s->global}, {s->local}};
    cl_ulong n_out = s->n_out;
    cl_uint param = (cl_uint)s->param;

    clc_result_init(&r, b->c->name, s->variant, t);
    if (s->has_param)
        clc_result_set_param(&r, s->param);
    r.bytes = s->bytes;
    if (h_in == NULL || got == NULL || want == NULL)
        goto cleanup;
    if (clc_bench_kernel(b, t, s->options, s->kernel, &k) != CLC_OK ||
        clc_buffer(b->ctx, s->n_in * es, "input", &in) != CLC_OK ||
        clc_buffer(b->ctx, s->n_out * es, "output", &out) != CLC_OK)
        goto cleanup;
    clc_fill_values(h_in, s->n_in, t, 0);
    if (clc_write(b->ctx, in, 0, s->n_in * es, h_in) != CLC_OK ||
        clc_bench_poison(b, out, s->n_out * es) != CLC_OK)
        goto cleanup;
    if (clc_arg(k, 0, sizeof in, &in) || clc_arg(k, 1, sizeof out, &out) ||
        clc_arg(k, 2, sizeof n_out, &n_out) ||
        (s->has_param && clc_arg(k, 3, sizeof param, &param)))
        goto cleanup;
    launch.kernel = k;
    if (clc_bench_time(b, &r, clc_enqueue_kernel, &launch, &tm) != CLC_OK ||
        clc_read(b->ctx, out, 0, s->n_out * es, got) != CLC_OK)
        goto cleanup;
    const struct clc_ref_args ref = {h_in, want, s->n_in, s->n_out, t, s->ref_ctx};
    s->reference(&ref);
    rc = clc_bench_finish(b, &r, clc_check_values(&r, got, want, s->n_out, t, 0));
cleanup:
    if (k)
        clReleaseKernel(k);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    free(h_in);
    free(got);
    free(want);
    return rc;
}

struct clc_map_spec clc_map_elementwise(size_t n, enum clc_type t, size_t local,
                                        const char *variant, const char *kernel,
                                        clc_reference_fn reference)
{
    struct clc_map_spec s = {
        .variant = variant,
        .kernel = kernel,
        .n_in = n,
        .n_out = n,
        .global = clc_round_up(n, local),
        .local = local,
        .bytes = 2 * (uint64_t)n * clc_type_size(t),
        .reference = reference,
    };
    return s;
}

/* ------------------------------------------------------------------ the run */

/* The vendor copy over `bytes`: the practical ceiling every result is compared with. */
static int measure_copy_ceiling(struct clc_ctx *ctx, const struct clc_timing_opts *to,
                                uint64_t bytes, double *gbps)
{
    struct clc_copy c = {NULL, NULL, (size_t)bytes};
    struct clc_timing t;
    int rc = CLC_ERR;
    if (clc_buffer(ctx, c.bytes, "copy ceiling source", &c.src) != CLC_OK ||
        clc_buffer(ctx, c.bytes, "copy ceiling destination", &c.dst) != CLC_OK)
        goto cleanup;
    const cl_uint zero = 0;
    if (clc_fill(ctx, c.src, c.bytes, &zero, sizeof zero) != CLC_OK)
        goto cleanup;
    if (clc_time(ctx, to, clc_enqueue_copy, &c, &t) != CLC_OK)
        goto cleanup;
    *gbps = clc_gbps(2 * bytes, t.ms_median);
    rc = CLC_OK;
cleanup:
    if (c.src)
        clReleaseMemObject(c.src);
    if (c.dst)
        clReleaseMemObject(c.dst);
    return rc;
}

/* The size a case runs at (clc_case_size), saying why when `given` (--size or a sweep step,
 * named by `what`) does not fit the device's allocation limit. */
static int case_size(const struct clc_opts *o, const struct clc_device_meta *m,
                     const struct clc_case *c, uint64_t given, const char *what, uint64_t *size)
{
    char a[32], b[32];
    unsigned factor = c->alloc_factor ? c->alloc_factor : 1;
    if (clc_case_size(m, c->alloc_factor, given, o->quick, size) == CLC_OK)
        return CLC_OK;
    clc_error("allocation too large: case '%s' allocates %u x %s = %s, the device allows %s per "
              "buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)", c->name, factor, what,
              clc_format_size(given * factor, a, sizeof a),
              clc_format_size(m->max_alloc, b, sizeof b));
    return CLC_ERR;
}

static int resolve_cases(const char *const *names, int n, const struct clc_case **out, int *count)
{
    if (n == 0) {
        int k = 0;
        for (size_t i = 0; i < clc_n_cases; i++)
            if (clc_case_runs_by_default(clc_cases[i]))
                out[k++] = clc_cases[i];
        *count = k;
        return CLC_OK;
    }
    for (int i = 0; i < n; i++) {
        out[i] = clc_find_case(names[i]);
        if (out[i] == NULL) {
            clc_error("unknown case '%s'; 'clcoalesce cases' lists them", names[i]);
            return CLC_USAGE;
        }
    }
    *count = n;
    return CLC_OK;
}

int clc_run(const struct clc_opts *o, const char *const *names, int n, struct clc_report *rep,
            FILE *table)
{
    const struct clc_case **cases = calloc(clc_n_cases + (size_t)n + 1, sizeof *cases);
    struct clc_device *devs = NULL;
    struct clc_ctx ctx;
    bool ctx_open = false;
    int ndev = 0, ncases = 0, rc;
    char kdir[4096];

    memset(&ctx, 0, sizeof ctx);
    if (cases == NULL)
        return CLC_ERR;
    rc = resolve_cases(names, n, cases, &ncases);
    if (rc != CLC_OK)
        goto done;
    rc = CLC_ERR;
    if (clc_devices(&devs, &ndev) != CLC_OK)
        goto done;
    int di = clc_select_device(devs, ndev, o->device);
    if (di < 0) {
        rc = CLC_USAGE;
        goto done;
    }
    const struct clc_device *dev = &devs[di];
    if ((o->types & CLC_DOUBLE) && !dev->fp64 && o->types_given && !(o->types & CLC_FLOAT)) {
        clc_error("--type double: device '%s' does not support fp64 (no cl_khr_fp64)",
                  dev->meta.name);
        goto done;
    }
    /* A sweep must fit at least its first size; later it stops, with a note, at the first
     * size that does not. */
    bool sweep = o->sweep_max != 0;
    for (int i = 0; i < ncases; i++) {
        uint64_t s;
        if (case_size(o, &dev->meta, cases[i], sweep ? o->sweep_min : o->size,
                      sweep ? "the --sweep-size MIN" : "--size", &s) != CLC_OK)
            goto done;
    }
    if (clc_find_kernel_dir(o->kernel_dir, kdir, sizeof kdir) != CLC_OK)
        goto done;
    if (clc_ctx_open(&ctx, dev, kdir) != CLC_OK)
        goto done;
    ctx_open = true;
    clc_note("device: %s (%s)", dev->meta.name, dev->meta.platform);
    clc_note("kernels: %s", kdir);

    struct clc_timing_opts to =
        clc_timing_defaults(o->warmup, o->reps, o->quick, dev->meta.timer_res_ns);
    to.host_check = o->host_check;
    to.cold = o->cold;
    if (o->cold && o->host_check)
        clc_note("--host-check is skipped with --cold: its batch of launches would run warm");
    rep->device = dev->meta;
    clc_report_options(rep, &o->run, &to, names, n);
    double nv = NAN;
    if (isnan(o->peak_gbps) && dev->is_nvidia &&
        clc_nvml_peak_gbps(dev->meta.pci_bus_id, &nv) == CLC_OK) {
        rep->device.peak_gbps = nv;
        snprintf(rep->device.peak_source, sizeof rep->device.peak_source, "nvml");
    }

    /* The ceiling is measured at the size the copy case would use (the default size in a
     * sweep), and warm even with --cold: it is the steady-state reference for every row. */
    uint64_t ceiling_size;
    struct clc_timing_opts ceiling_to = to;
    ceiling_to.cold = false;
    case_size(o, &dev->meta, clc_find_case("copy") ? clc_find_case("copy") : cases[0], o->size,
              "--size", &ceiling_size);
    if (measure_copy_ceiling(&ctx, &ceiling_to, ceiling_size, &rep->device.copy_gbps) != CLC_OK)
        goto done;
    snprintf(rep->device.copy_source, sizeof rep->device.copy_source, "clEnqueueCopyBuffer");
    rep->run.size = ceiling_size; /* with size_auto, the size chosen before per-case clamping */
    char sz[32];
    clc_note("copy ceiling: %.1f GB/s (clEnqueueCopyBuffer, %s)", rep->device.copy_gbps,
             clc_format_size(ceiling_size, sz, sizeof sz));

    if (table != NULL)
        clc_table_header(table);
    rc = CLC_OK;
    for (int i = 0; i < ncases; i++) {
        struct clc_bench b = {&ctx, o, cases[i], 0, rep, table, to, {0}, false, false};
        /* without a sweep this runs once, at --size or the default */
        uint64_t step = sweep ? o->sweep_min : o->size;
        for (;;) {
            case_size(o, &dev->meta, cases[i], step, "--size", &b.size);
            static const enum clc_type types[] = {CLC_FLOAT, CLC_DOUBLE};
            for (int k = 0; k < 2; k++) {
                enum clc_type t = types[k];
                if (!(cases[i]->types & t) || !(o->types & t))
                    continue;
                if (t == CLC_DOUBLE && !dev->fp64) {
                    clc_report_skip(rep, table, cases[i]->name, "*", t, b.size,
                                    "device has no cl_khr_fp64");
                    continue;
                }
                if (cases[i]->run(&b, t) != CLC_OK)
                    rc = CLC_ERR;
            }
            if (!sweep || step > o->sweep_max / 2)
                break;
            step *= 2;
            if (!clc_size_fits(&dev->meta, cases[i]->alloc_factor, step)) {
                char a[32], all[32], lim[32];
                unsigned factor = cases[i]->alloc_factor ? cases[i]->alloc_factor : 1;
                clc_note("%s: the sweep stops before %s: the case would allocate %u x %s = %s, "
                         "the device allows %s per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                         cases[i]->name, clc_format_size(step, a, sizeof a), factor, a,
                         clc_format_size(step * factor, all, sizeof all),
                         clc_format_size(dev->meta.max_alloc, lim, sizeof lim));
                break;
            }
        }
    }
    if (rc == CLC_OK && o->variant != NULL && rep->n_results == 0) {
        clc_error("no variant '%s' in the cases run; 'clcoalesce cases' lists the variants",
                  o->variant);
        rc = CLC_USAGE;
    }
done:
    if (ctx_open)
        clc_ctx_close(&ctx);
    free(devs);
    free(cases);
    return rc;
}
