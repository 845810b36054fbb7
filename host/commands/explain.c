/* explain.c - `explain`: one variant of a case, planned at the size a run gives it on this
 * device and launched once in its trace build (nothing is timed), shown as its kernel
 * source, a picture of one warp's first load and store requests, the predicted sectors per
 * request and, given a device profile, the predictive model's GB/s layer by layer for a run
 * on the profile's device; given a result file, the measured figures beside the
 * predictions.  Lines fit 80 columns: names that would not are shortened, longer lines
 * wrapped. */
#define _GNU_SOURCE
#include "clcoalesce/explain.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/custom.h"
#include "clcoalesce/kernelfile.h"
#include "clcoalesce/profcache.h"
#include "inspect.h"

static const char explain_usage[] =
    "usage: clcoalesce explain CASE [--variant V] [--param P] [--type T] [--results FILE]\n"
    "                          [--profile FILE] [--device SEL] [--api opencl|cuda]\n"
    "                          [--kernel-dir DIR]\n"
    "       clcoalesce explain --kernel-file F --kernel NAME [--describe TEXT]\n"
    "                          [--pattern P] [--size BYTES] [--flops EXPR] [--profile FILE]\n"
    "                          [the other options of custom]\n"
    "Plans CASE's variant as a run on this device does, launches it once in its trace build\n"
    "and shows its kernel, one warp's first load and store requests sector by sector, the\n"
    "predicted sectors per request and the predictive model's GB/s layer by layer (ceiling,\n"
    "granules, scatter, inflight, banks or l1, lines, l2, split, groups, compute, refill,\n"
    "apart, launch) with the limit that binds and what would lift it, for a run on the\n"
    "profile's device at the size it gets there.  Nothing is timed.\n"
    "  --profile FILE   the device profile to predict on ('clcoalesce profile -o FILE');\n"
    "                   without it, the one the --results file's run predicted with (and\n"
    "                   at the size of that run's row), else the one this device keeps\n"
    "                   from its last 'clcoalesce profile'\n"
    "  --results FILE   a result file ('run -f json'): the measured GB/s of the same row\n"
    "                   beside the prediction, what that run predicted, and the fraction\n"
    "                   of its copy ceiling\n"
    "Default: the first variant with a kernel of its own, its first param, float when the\n"
    "case has it.\n"
    "With --kernel-file, your own kernel, taken with custom's options ('clcoalesce custom\n"
    "--help': its description, --pattern, --size, --flops) and built as custom builds it,\n"
    "is traced once at the size a run gets here and explained the same way: predicted, not\n"
    "measured.  The trace must see its accesses (written with the macros, or rewritten:\n"
    "docs/custom-as-written.md); a kernel it cannot see is an error that says why.\n";

#define WIDTH 80

/* s shortened to at most max characters, with "..." where it was cut, into out. */
static const char *fit(const char *s, size_t max, char *out, size_t len)
{
    size_t n = strlen(s);
    if (n <= max || max < 4)
        snprintf(out, len, "%.*s", (int)(max < n ? max : n), s);
    else
        snprintf(out, len, "%.*s...", (int)(max - 3), s);
    return out;
}

static void print_side(const char *what, double spr, const struct clc_model_side *s)
{
    if (s->requests == 0) {
        printf("  %-8s none\n", what);
        return;
    }
    printf("  %-8s %6.2f sectors/request  %5.2f lines/request  %3.0f%% used  %" PRIu64
           " requests\n", what, spr, (double)s->lines / (double)s->requests,
           100.0 * (double)s->useful / ((double)s->sectors * CLC_MODEL_SECTOR), s->requests);
}

/* Prints text, wrapping each line longer than WIDTH at a space, its continuation indented
 * under the text that follows "GB/s  " (a waterfall's figures), else by four. */
static void print_wrapped(FILE *out, const char *text)
{
    while (*text != '\0') {
        const char *end = strchr(text, '\n');
        size_t len = end != NULL ? (size_t)(end - text) : strlen(text);
        const char *unit = strstr(text, "GB/s  ");
        size_t indent = unit != NULL && unit < text + len ? (size_t)(unit - text) + 6 : 4;
        if (indent > WIDTH / 2)
            indent = 4; /* room for the text after it */
        size_t col = 0;
        while (len - col > WIDTH - (col ? indent : 0)) {
            size_t room = WIDTH - (col ? indent : 0), cut = room;
            while (cut > 0 && text[col + cut] != ' ')
                cut--;
            if (cut == 0)
                break; /* one word wider than the line: left whole */
            fprintf(out, "%*s%.*s\n", col ? (int)indent : 0, "", (int)cut, text + col);
            col += cut + 1;
        }
        fprintf(out, "%*s%.*s\n", col ? (int)indent : 0, "", (int)(len - col), text + col);
        text += len + (end != NULL);
    }
}

void clc_print_waterfall_wrapped(FILE *out, const struct clc_prediction *pr, bool cpu,
                                 double measured)
{
    /* the layers' reasons run past 80 columns: captured, then wrapped */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len), *to = f != NULL ? f : out;
    clc_print_waterfall(to, pr, measured);
    if (cpu) /* docs/model.md, 'On a CPU' */
        fprintf(to, "  (a CPU's profile: these are a GPU's layers, read with the CPU's own "
                    "figures, its caches for DRAM: to learn the layers with, not to trust)\n");
    if (f != NULL) {
        fclose(f);
        print_wrapped(out, text);
    }
    free(text);
}

/* The row of the result file with mine's case, variant, type and param, or NULL. */
static const struct clc_result *file_row(const struct clc_report *file,
                                         const struct clc_result *mine)
{
    for (size_t i = 0; i < file->n_results; i++) {
        const struct clc_result *r = &file->results[i];
        if (strcmp(r->case_name, mine->case_name) == 0 && strcmp(r->variant, mine->variant) == 0 &&
            r->type == mine->type && r->has_param == mine->has_param &&
            (!r->has_param || r->param == mine->param))
            return r;
    }
    return NULL;
}

/* A measured figure: the row's GB/s when it verified, else NAN. */
static double measured_gbps(const struct clc_result *m)
{
    return m != NULL && m->status == CLC_STATUS_OK && m->gbps > 0 ? m->gbps : NAN;
}

/* The measured row m of the result file (NULL: none) beside the access model's prediction. */
static void print_measured(const struct clc_report *file, const struct clc_result *m,
                           const struct clc_result *mine)
{
    char shown[WIDTH];
    printf("\nmeasured (the --results file):\n");
    char name[4 * sizeof file->device.name]; /* a file anyone wrote: no raw control bytes */
    clc_printable(file->device.name[0] ? file->device.name : "?", name, sizeof name);
    printf("  device: %s\n", fit(name, WIDTH - 10, shown, sizeof shown));
    if (isnan(measured_gbps(m))) {
        printf("  no verified row of this variant in the file\n");
        return;
    }
    double ceil = clc_report_copy_gbps(file, m);
    if (isnan(ceil) || ceil <= 0)
        printf("  %.1f GB/s (the file has no copy ceiling)\n", m->gbps);
    else
        printf("  %.1f GB/s = %.0f%% of the copy ceiling (%.1f GB/s)\n", m->gbps,
               100.0 * m->gbps / ceil, ceil);
    double eff = !isnan(m->model.efficiency) ? m->model.efficiency : mine->model.efficiency;
    printf("  predicted: %.0f%% (useful bytes / bytes moved in sectors%s)\n"
           "  a kernel bound by the DRAM sectors it moves reaches about that fraction\n",
           100.0 * eff, !isnan(m->model.efficiency) ? ", that run's model" : "");
}

/* The profile a run predicted with, from its report's model_profile (an array of profiles,
 * one per API): the one of `api`, else the first.  False when it holds none with ceilings. */
static bool run_profile(const struct clc_report *file, const char *api, struct clc_profile *p)
{
    json_t *all = file->model_profile[0] ? json_loads(file->model_profile, 0, NULL) : NULL;
    json_t *pick = json_array_get(all, 0);
    for (size_t i = 0; i < json_array_size(all); i++) {
        json_t *dev = json_object_get(json_array_get(all, i), "device");
        const char *name = json_string_value(json_object_get(dev, "api"));
        if (name != NULL && strcmp(name, api) == 0) {
            pick = json_array_get(all, i);
            break;
        }
    }
    bool ok = pick != NULL && clc_profile_from_json(pick, p) == CLC_OK;
    json_decref(all);
    return ok;
}

/* The device a prediction is of: the profile's, where it was measured on another device than
 * the one explain traces on and knows that device's cache (the labs explain on a laptop with
 * an H100's profile), with the facts a profile keeps: the cache, the peak, the compute units
 * and what bounds their residency (a device that knows none of those is taken as a CPU where
 * explain runs on one).  A profile keeps no memory size, so nothing caps a run's size there.
 * Else the device explain runs on. */
static struct clc_device predicted_device(const struct clc_device *here,
                                          const struct clc_profile *p)
{
    struct clc_device d = *here;
    if (p == NULL || p->l2_bytes == 0 || strcmp(p->device, here->meta.name) == 0)
        return d;
    snprintf(d.meta.name, sizeof d.meta.name, "%.*s", (int)sizeof d.meta.name - 1, p->device);
    d.meta.l2_bytes = p->l2_bytes;
    d.meta.peak_gbps = p->peak_gbps > 0 ? p->peak_gbps : NAN;
    d.meta.compute_units = p->compute_units;
    d.meta.threads_per_cu = p->threads_per_cu;
    d.meta.groups_per_cu = p->groups_per_cu;
    d.meta.regs_per_cu = p->regs_per_cu;
    d.meta.local_per_cu = p->local_per_cu;
    d.meta.global_mem = 0;
    d.meta.max_alloc = UINT64_MAX;
    d.cpu = p->threads_per_cu > 0 ? false : here->cpu;
    return d;
}

/* What the prediction is of: the traced variant as a run plans it, at the size of the
 * --results run's row of it, else at `there`, the size a run gives it on dev.  explain
 * traces at the size a run gets on the device it runs on (the access pattern of some cases
 * depends on it: how far an uncoalesced or random index reaches), which on a CPU is far
 * smaller than on a GPU: fewer groups, and a launch whose fixed cost would weigh more. */
struct run_plan {
    uint64_t size;   /* 0: the run's plan could not be made; the traced launch's figures */
    size_t groups;
    uint64_t bytes;
    double flops;    /* flops per launch (a user's kernel that counts them), else 0 */
    long param;      /* a param the size gives (a matrix's side), else the one traced */
    bool from_file;  /* the size is the --results run's */
};

static struct run_plan plan_run(const struct clc_device *dev, uint64_t there,
                                const struct clc_case *c, const struct clc_variant *v,
                                long param, enum clc_type t, const struct clc_traced *tr,
                                const struct clc_report *file)
{
    struct run_plan rp = {there, clc_plan_groups(&tr->plan, NULL), tr->plan.bytes,
                          tr->plan.flops, tr->plan.param, false};
    for (size_t i = 0; i < file->n_results && !rp.from_file; i++) {
        const struct clc_result *r = &file->results[i];
        if (strcmp(r->case_name, c->name) == 0 && strcmp(r->variant, v->name) == 0 &&
            r->type == t && r->size > 0)
            rp.size = r->size, rp.from_file = true;
    }
    struct clc_env e = clc_env_make(dev, t, rp.size);
    e.dry = true; /* the groups and bytes alone: no host data as large as the arrays */
    struct clc_plan p;
    if (clc_variant_plan(&e, v, param, &p) != CLC_OK) {
        rp.size = 0;
        return rp;
    }
    if (p.dims > 0) {
        rp.groups = clc_plan_groups(&p, NULL);
        rp.bytes = p.bytes;
        rp.flops = p.flops;
        if (p.has_param)
            rp.param = p.param;
    } else {
        rp.size = 0;
    }
    clc_plan_free(&p);
    return rp;
}

/* The predictive model's waterfall for the traced row r on profile p, from names where p
 * came from; p NULL: a line saying how to get one (results: a --results file was given and
 * kept none).  r's features come from the trace's analysis `model` as a run computes them
 * (trace.c), but with the trace build's registers and local memory, for a run on dev as rp
 * plans it (here: the device traced on); m is the --results file's row (NULL: none), whose
 * measurement and own prediction go beside. */
static void print_waterfall(const char *here, const struct clc_device *dev,
                            const struct run_plan *rp, const struct clc_traced *tr,
                            const struct clc_model *model, struct clc_result *r,
                            const struct clc_profile *p, const char *from, bool results,
                            const struct clc_result *m)
{
    char shown[WIDTH], line[4 * sizeof p->device];
    printf("\npredicted GB/s, layer by layer:\n");
    if (p == NULL) {
        printf(results ? "  the --results run kept no profile: 'clcoalesce profile -o FILE',\n"
                         "  then --profile FILE\n"
                       : "  no profile of this device yet: 'clcoalesce profile' measures it\n"
                         "  once and keeps it for explain and run; or --profile FILE, or\n"
                         "  --results RUN\n");
        return;
    }
    size_t wg;
    clc_plan_groups(&tr->plan, &wg);
    clc_model_features_make(&r->model.features, model, wg, rp->groups, tr->info.registers,
                            tr->info.local_bytes, &dev->meta);
    clc_model_features_count(&r->model.features, model, tr->plan.bytes);
    r->model.features.local_row = tr->plan.local_bytes;
    r->model.features.elem_bytes = (unsigned)clc_type_size(r->type);
    clc_printable(p->device[0] ? p->device : "?", line, sizeof line);
    printf("  profile: %s\n", fit(line, WIDTH - 11, shown, sizeof shown));
    printf("  from:    %s\n", fit(from, WIDTH - 11, shown, sizeof shown));
    if (rp->size > 0) {
        char size[32], name[4 * sizeof dev->meta.name];
        clc_format_size(rp->size, size, sizeof size);
        if (rp->from_file)
            snprintf(line, sizeof line, "  at:      %s, the size of the --results run", size);
        else
            snprintf(line, sizeof line, "  at:      %s, the size a run gets on %s", size,
                     clc_printable(dev->meta.name, name, sizeof name));
        printf("%s\n", fit(line, WIDTH, shown, sizeof shown));
    }
    if (strcmp(p->device, here) != 0)
        printf("  (measured on another device: the figures below are that device's)\n");

    struct clc_prediction pr;
    const char *outside = clc_outside_model(r->case_name, r->variant);
    if (outside != NULL) {
        snprintf(line, sizeof line, "  bound: none: outside the model: %s", outside);
        print_wrapped(stdout, line);
        return;
    }
    if (!clc_predict(p, r, &pr)) {
        snprintf(line, sizeof line, "  no prediction: %s", pr.note);
        print_wrapped(stdout, line);
        return;
    }
    clc_print_waterfall_wrapped(stdout, &pr, dev->cpu, measured_gbps(m));
    if (m != NULL && m->model.gbps > 0) {
        char size[32];
        printf("  the run predicted %.1f GB/s, bound: %s (at its size, %s)\n", m->model.gbps,
               m->model.bound[0] ? m->model.bound : "-",
               clc_format_size(m->size ? m->size : m->bytes, size, sizeof size));
    }
}

/* Prints the kernel's source, from its file in the kernel directory. */
static void print_source(const struct clc_session *s, const struct clc_traced *tr)
{
    char path[8192];
    clc_kernel_path(s->kernel_dir, tr->file, path, sizeof path);
    bool q = clc_quiet;
    clc_quiet = true;
    char *src = clc_read_text(path, NULL);
    clc_quiet = q;
    printf("\nsource:\n");
    if (src == NULL || !clc_print_kernel_source(stdout, src, tr->plan.kernel))
        printf("  (kernel %s not found in %s)\n", tr->plan.kernel, tr->file);
    free(src);
}

/* A lane wider than one instruction: what the picture (one access per lane) does not show. */
static void print_split(const struct clc_model_request *rq)
{
    uint32_t widest = 0;
    for (unsigned l = 0; l < rq->lanes; l++)
        if (rq->lane[l].active && rq->lane[l].size > widest)
            widest = rq->lane[l].size;
    if (widest <= CLC_MODEL_WIDEST)
        return;
    printf("  each lane %s %u bytes, which an NVIDIA GPU splits into %u instructions\n"
           "  of %u bytes, each a request of its own that fills part of every sector it\n"
           "  touches%s\n",
           rq->store ? "stores" : "loads", widest, widest / CLC_MODEL_WIDEST,
           CLC_MODEL_WIDEST,
           rq->store ? ": L2 takes each sector more than once (the split layer's cost)" : "");
}

/* A request whose active lanes (more than one) all access the same bytes: a broadcast, what
 * the picture shows as one sector but not as the one value every lane gets. */
static void print_broadcast(const struct clc_model_request *rq)
{
    const struct clc_model_lane *first = NULL;
    for (unsigned l = 0; l < rq->lanes; l++) {
        const struct clc_model_lane *ln = &rq->lane[l];
        if (!ln->active)
            continue;
        if (first == NULL)
            first = ln;
        else if (ln->addr != first->addr || ln->size != first->size)
            return;
    }
    if (first == NULL || rq->active < 2)
        return;
    printf("  a broadcast: all %u lanes %s the same %u bytes, so the request needs one\n"
           "  sector: 1 sector per request, for %u lanes' worth of counted bytes\n",
           rq->active, rq->store ? "store" : "load", first->size, rq->active);
}

/* One warp's first load and first store, each as a picture of its sectors. */
static int print_requests(const struct clc_trace *t)
{
    struct clc_model_request *rq = malloc(sizeof *rq);
    size_t warps = clc_model_warps(t);
    if (rq == NULL)
        return CLC_ERR;
    for (int dir = 0; dir < 2; dir++) {
        bool store = dir == 1;
        /* the first warp that makes such a request: warp 0 may be idle past a guard */
        size_t w = 0;
        while (w < warps && !clc_model_first_request(t, w, store, rq))
            w++;
        if (w == warps) {
            printf("\nno %s request in the traced warps\n", store ? "store" : "load");
            continue;
        }
        printf("\nwarp %zu, first %s request (access %u of each work-item):\n", w,
               store ? "store" : "load", rq->k + 1);
        clc_model_picture(stdout, rq);
        print_split(rq);
        print_broadcast(rq);
    }
    free(rq);
    return CLC_OK;
}

/* The access model's figures of the trace, analysed into m for the waterfall. */
static void print_prediction(const struct clc_traced *tr, struct clc_model *m)
{
    clc_model_analyse(&tr->trace, m);
    printf("\nprediction (%zu warps of %u lanes traced):\n", m->warps, tr->trace.warp);
    print_side("loads", m->sectors_per_req_load, &m->load);
    print_side("stores", m->sectors_per_req_store, &m->store);
    char moved[32], useful[32];
    printf("  overall  %6.2f sectors/request, efficiency %.0f%% (useful / moved)\n",
           m->sectors_per_req, 100.0 * m->efficiency);
    printf("  per launch: %s moved for %s useful%s\n",
           clc_format_size((uint64_t)m->bytes_moved, moved, sizeof moved),
           clc_format_size((uint64_t)m->bytes_useful, useful, sizeof useful),
           m->truncated ? " (first 64 accesses of each work-item only)" : "");
    printf("  (a request: one access index of the 32 lanes of a warp; a sector: 32 bytes,\n"
           "   the unit L2 and DRAM move; a line: 128 bytes, four sectors)\n");
}

/* The profile explain predicts with where no --profile was given, after the session opened
 * on its device: the --results run's (file, when results), else the one this device keeps.
 * True with it in *prof and where it came from in from. */
static bool found_profile(const struct clc_session *s, const struct clc_report *file,
                          const char *results, struct clc_profile *prof, char *from, size_t len)
{
    char path[256];
    if (results != NULL) {
        if (!run_profile(file, clc_api_name(s->be[0]->dev.api), prof))
            return false;
        snprintf(from, len, "the run in %s", clc_printable(results, path, sizeof path));
        return true;
    }
    char kept[4096], when[32];
    if (!clc_profcache_load(&s->be[0]->dev.meta, clc_api_name(s->be[0]->dev.api), prof, kept,
                            sizeof kept, when, sizeof when))
        return false;
    snprintf(from, len, "this device's kept profile, measured %s", when);
    clc_note("predicting with this device's profile kept in %s; 'clcoalesce profile' "
             "measures it again", kept);
    return true;
}

/* The profile of --profile PATH into *prof, and where it came from.  CLC_OK or CLC_ERR
 * after the loader's message. */
static int given_profile(const char *path, struct clc_profile *prof, char *from, size_t len)
{
    if (clc_profile_load(path, prof) != CLC_OK)
        return CLC_ERR;
    char shown[256];
    snprintf(from, len, "--profile %s", clc_printable(path, shown, sizeof shown));
    return CLC_OK;
}

/* What explain knows beside the traced row: the device it predicts for, at what size a run
 * there has, the profile (NULL: none) and where it came from, and the --results file. */
struct explain_ctx {
    struct clc_device dev;      /* the profile's device, else the one traced on */
    uint64_t there;             /* the size a run gets on dev */
    const struct clc_profile *prof;
    const char *from;
    const struct clc_report *file; /* the --results file (empty without one) */
    bool results;               /* a --results file was given */
};

/* Everything explain prints of variant v of case c, traced as tr at param (type t): its
 * kernel and source, a warp's first requests, the access model's figures and, for a run on
 * x->dev, the waterfall (beside the --results file's row).  CLC_OK, or CLC_ERR after a
 * message (an access outside the buffers). */
static int explain_traced(const struct clc_session *s, const struct clc_case *c,
                          const struct clc_variant *v, long param, enum clc_type t,
                          const struct clc_traced *tr, const struct explain_ctx *x)
{
    char shown[WIDTH];
    struct clc_result r;
    clc_result_init(&r, c->name, v->name, t);
    if (tr->plan.has_param)
        clc_result_set_param(&r, tr->plan.param);
    r.metric = tr->plan.metric;
    r.bytes = tr->plan.bytes;
    if (tr->plan.in_flight > 0) /* the inflight case's own bytes in flight, as a run has them */
        r.in_flight = tr->plan.in_flight;
    r.cache_resident = false;
    char param_text[32] = "";
    if (tr->plan.has_param)
        snprintf(param_text, sizeof param_text, ", param %ld", tr->plan.param);
    printf("%s / %s (%s%s): kernel %s in %s\n", r.case_name, r.variant, clc_type_name(t),
           param_text, tr->plan.kernel, tr->file);
    printf("device:  %s (%s)\n", fit(s->be[0]->dev.meta.name, WIDTH - 20, shown, sizeof shown),
           clc_api_name(s->be[0]->dev.api));
    printf("options: %s\n", fit(tr->options, WIDTH - 9, shown, sizeof shown));
    print_source(s, tr);
    if (tr->fault.count > 0) {
        char msg[320];
        clc_fault_message(&tr->plan, tr->plan.kernel, &tr->fault, msg, sizeof msg);
        clc_error("%s", msg);
        return CLC_ERR;
    }
    if (print_requests(&tr->trace) != CLC_OK)
        return CLC_ERR;
    struct clc_model m;
    print_prediction(tr, &m);
    if (v->explain != NULL) {
        char text[512];
        snprintf(text, sizeof text, "  %s", v->explain);
        print_wrapped(stdout, text);
    }
    r.model.efficiency = m.efficiency;
    /* the row as a run has it: its bytes and flops, and the param its size gives (a file's
     * row) */
    struct run_plan rp = plan_run(&x->dev, x->there, c, v, param, t, tr, x->file);
    r.bytes = rp.bytes;
    if (rp.flops > 0)
        r.flops = rp.flops;
    if (r.has_param)
        clc_result_set_param(&r, rp.param);
    const struct clc_result *measured = x->results ? file_row(x->file, &r) : NULL;
    print_waterfall(s->be[0]->dev.meta.name, &x->dev, &rp, tr, &m, &r, x->prof, x->from,
                    x->results, measured);
    if (x->results)
        print_measured(x->file, measured, &r);
    return CLC_OK;
}

/* ------------------------------------------------------------------ a user's kernel */

static const struct explain_ctx *the_ctx; /* for explain_kernel_then, which custom calls */

/* clc_custom_measure's last step for explain: the user's case `mine`, built as custom
 * builds it, traced once at the size a run gets here and explained like any variant.  A
 * kernel the trace cannot see (`missing`) is an error that says why. */
static int explain_kernel_then(struct clc_session *s, const struct clc_custom_kernel *k,
                               const struct clc_case *mine, const struct clc_variant *variant,
                               const char *missing, const char *opts, int nargs,
                               const char *expect, const size_t local[3],
                               struct clc_custom_counts *counts)
{
    (void)counts; /* explain counts no bytes: it times nothing */
    if (missing != NULL) {
        clc_error("kernel '%s': the trace cannot see its accesses (%s), so there is nothing "
                  "to explain; 'clcoalesce custom --help' says what it needs", k->name,
                  missing);
        return CLC_ERR;
    }
    if (clc_custom_check_kernel(s, k, mine->cl_file, opts, nargs, expect, local) != CLC_OK)
        return CLC_ERR;
    struct explain_ctx x = *the_ctx;
    uint64_t size;
    char why[256];
    const struct clc_device *here = &s->be[0]->dev;
    if (clc_case_size(&here->meta, here->cpu, mine->alloc_factor, !mine->no_plateau,
                      s->o->size, false, &size, why, sizeof why) != CLC_OK ||
        clc_case_size(&x.dev.meta, x.dev.cpu, mine->alloc_factor, !mine->no_plateau,
                      s->o->size, false, &x.there, why, sizeof why) != CLC_OK) {
        clc_error("kernel '%s': %s", k->name, why);
        return CLC_USAGE;
    }
    struct clc_traced tr;
    int rc = clc_session_trace(s, mine, variant, 0, CLC_FLOAT, size, &tr);
    if (rc == CLC_SKIP) {
        clc_error("kernel '%s': nothing to trace: %s", k->name, tr.plan.note);
        rc = CLC_ERR;
    }
    if (rc == CLC_OK)
        rc = explain_traced(s, mine, variant, 0, CLC_FLOAT, &tr, &x);
    if (rc == CLC_OK)
        printf("\npredicted, not measured: nothing was timed ('clcoalesce custom' with the "
               "same\noptions measures it and sets the measurement beside the prediction)\n");
    clc_traced_free(&tr);
    return rc;
}

/* True when the arguments name a kernel file: explain of a user's kernel. */
static bool names_kernel_file(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--kernel-file") == 0 || strncmp(argv[i], "--kernel-file=", 14) == 0)
            return true;
    }
    return false;
}

/* `explain --kernel-file F --kernel K ...`: the user's kernel, taken with custom's options
 * (clc_custom_parse) and built as custom builds it, then traced and explained. */
static int explain_kernel(int argc, char **argv)
{
    struct clc_run_args a;
    struct clc_custom_kernel k;
    int rc = clc_custom_parse(argc, argv, &a, &k);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(explain_usage, stdout);
        return CLC_OK;
    }
    if (a.output != NULL) {
        clc_error("explain prints what it finds: no -o (custom writes a report)");
        return CLC_USAGE;
    }
    if (__builtin_popcount(a.opts.apis) > 1) {
        clc_error("explain traces on one API: --api opencl or cuda, not both");
        return CLC_USAGE;
    }
    clc_quiet = a.quiet;
    clc_guard_run(a.timeout);
    struct clc_profile prof;
    char from[320] = "";
    bool have_prof = false;
    if (a.opts.profile != NULL) {
        if (given_profile(a.opts.profile, &prof, from, sizeof from) != CLC_OK)
            return CLC_ERR;
        have_prof = true;
    }
    struct clc_opts o = a.opts;
    o.quick = true;
    o.progress = 0;
    o.model = true;
    struct clc_report rep, none;
    struct clc_session s;
    clc_report_init(&rep, clc_api_name(CLC_API_OPENCL));
    clc_report_init(&none, "");
    bool quiet = clc_quiet;
    clc_quiet = true; /* the device notes would only clutter the output */
    rc = clc_session_open(&s, &o, &rep, NULL);
    clc_quiet = quiet;
    if (rc == CLC_OK) {
        if (!have_prof)
            have_prof = found_profile(&s, &none, NULL, &prof, from, sizeof from);
        struct explain_ctx x = {predicted_device(&s.be[0]->dev, have_prof ? &prof : NULL), 0,
                                have_prof ? &prof : NULL, from, &none, false};
        the_ctx = &x;
        k.then = explain_kernel_then;
        rc = clc_custom_measure(&s, &k);
        the_ctx = NULL;
    }
    clc_session_close(&s);
    clc_report_free(&rep);
    clc_report_free(&none);
    return rc;
}

/* ------------------------------------------------------------------ a case */

int clc_cmd_explain(int argc, char **argv)
{
    if (names_kernel_file(argc, argv))
        return explain_kernel(argc, argv);
    struct insp_args a;
    int rc = clc_inspect_args(argc, argv, false, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(explain_usage, stdout);
        return CLC_OK;
    }
    /* the files first: a bad one is said before a device is opened */
    struct clc_report file;
    struct clc_profile prof;
    bool have_prof = false;
    char from[320] = "";
    clc_report_init(&file, "");
    if (a.results != NULL && clc_read_json(a.results, &file) != CLC_OK) {
        clc_report_free(&file);
        return CLC_ERR; /* the reader said why */
    }
    if (a.profile != NULL) {
        if (given_profile(a.profile, &prof, from, sizeof from) != CLC_OK) {
            clc_report_free(&file);
            return CLC_ERR;
        }
        have_prof = true;
    }

    struct clc_opts o;
    struct clc_session s;
    struct clc_report rep;
    struct clc_traced tr;
    const struct clc_variant *v;
    long param;
    memset(&tr, 0, sizeof tr);
    rc = clc_inspect_open(&a, &o, &s, &rep);
    if (rc != CLC_OK)
        goto done;
    if (!have_prof)
        have_prof = found_profile(&s, &file, a.results, &prof, from, sizeof from);
    /* traced as a run here, predicted for a run on the profile's device, with a param a run
     * there has (a grid's work-groups are counted per compute unit) */
    struct explain_ctx x = {predicted_device(&s.be[0]->dev, have_prof ? &prof : NULL), 0,
                            have_prof ? &prof : NULL, from, &file, a.results != NULL};
    uint64_t size;
    char why[256];
    clc_case_size(&s.be[0]->dev.meta, s.be[0]->dev.cpu, a.c->alloc_factor, !a.c->no_plateau, 0,
                  false, &size, why, sizeof why);
    clc_case_size(&x.dev.meta, x.dev.cpu, a.c->alloc_factor, !a.c->no_plateau, 0, false,
                  &x.there, why, sizeof why);
    rc = clc_inspect_pick(&a, &x.dev, x.there, &v, &param);
    if (rc != CLC_OK)
        goto done;
    rc = clc_session_trace(&s, a.c, v, param, a.type, size, &tr);
    if (rc == CLC_SKIP && clc_plan_has_image(&tr.plan) && v->outside_model != NULL) {
        /* an image's reads leave no addresses to show: the row's kernel, and why the model
         * leaves it out, as for any row outside it */
        char line[512];
        printf("%s / %s (%s): kernel %s\n", a.c->name, v->name, clc_type_name(a.type),
               tr.plan.kernel);
        snprintf(line, sizeof line, "  bound: none: outside the model: %s", v->outside_model);
        print_wrapped(stdout, line);
        rc = CLC_OK;
        goto done;
    }
    if (rc == CLC_SKIP) {
        clc_error("%s/%s: nothing to trace: %s", a.c->name, v->name, tr.plan.note);
        rc = CLC_ERR;
    }
    if (rc == CLC_OK)
        rc = explain_traced(&s, a.c, v, param, a.type, &tr, &x);
done:
    clc_traced_free(&tr);
    clc_session_close(&s);
    clc_report_free(&rep);
    clc_report_free(&file);
    return rc;
}
