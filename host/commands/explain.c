/* explain.c - `explain`: one variant of a case, planned at the quick size and launched once in
 * its trace build (nothing is timed), shown as its kernel source, a picture of one warp's
 * first load and store requests, and the predicted sectors per request; given a result file,
 * the measured fraction of the copy ceiling beside the prediction.  Lines fit 80 columns:
 * names that would not are shortened. */
#define _GNU_SOURCE
#include "clcoalesce/explain.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/kernelfile.h"
#include "inspect.h"

static const char explain_usage[] =
    "usage: clcoalesce explain CASE [--variant V] [--param P] [--type T] [--results FILE]\n"
    "                          [--device SEL] [--api opencl|cuda] [--kernel-dir DIR]\n"
    "Plans CASE's variant at the quick size, launches it once in its trace build and shows\n"
    "its kernel, one warp's first load and store requests sector by sector, and the\n"
    "predicted sectors per request.  Nothing is timed.  --results FILE (from 'run -f json')\n"
    "adds the measured GB/s of the same row as a fraction of that file's copy ceiling.\n"
    "Default: the first variant with a kernel of its own, its first param, float when the\n"
    "case has it.\n";

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

/* The measured row of the result file beside the prediction.  CLC_ERR when the file cannot be
 * read (the reader says why). */
static int print_measured(const char *path, const struct clc_result *mine)
{
    struct clc_report file;
    char shown[WIDTH];
    if (clc_read_json(path, &file) != CLC_OK)
        return CLC_ERR;
    const struct clc_result *m = NULL;
    for (size_t i = 0; i < file.n_results && m == NULL; i++) {
        const struct clc_result *r = &file.results[i];
        if (strcmp(r->case_name, mine->case_name) == 0 && strcmp(r->variant, mine->variant) == 0 &&
            r->type == mine->type && r->has_param == mine->has_param &&
            (!r->has_param || r->param == mine->param))
            m = r;
    }
    printf("\nmeasured (the --results file):\n");
    char name[4 * sizeof file.device.name]; /* a file anyone wrote: no raw control bytes */
    clc_printable(file.device.name[0] ? file.device.name : "?", name, sizeof name);
    printf("  device: %s\n", fit(name, WIDTH - 10, shown, sizeof shown));
    if (m == NULL || m->status != CLC_STATUS_OK || !(m->gbps > 0)) {
        printf("  no verified row of this variant in the file\n");
    } else {
        double ceil = clc_report_copy_gbps(&file, m);
        if (isnan(ceil) || ceil <= 0)
            printf("  %.1f GB/s (the file has no copy ceiling)\n", m->gbps);
        else
            printf("  %.1f GB/s = %.0f%% of the copy ceiling (%.1f GB/s)\n", m->gbps,
                   100.0 * m->gbps / ceil, ceil);
        double eff = !isnan(m->model_efficiency) ? m->model_efficiency : mine->model_efficiency;
        printf("  predicted: %.0f%% (useful bytes / bytes moved in sectors%s)\n"
               "  a kernel bound by the DRAM sectors it moves reaches about that fraction\n",
               100.0 * eff, !isnan(m->model_efficiency) ? ", that run's model" : "");
    }
    clc_report_free(&file);
    return CLC_OK;
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
    }
    free(rq);
    return CLC_OK;
}

static void print_prediction(const struct clc_traced *tr)
{
    struct clc_model m;
    clc_model_analyse(&tr->trace, &m);
    printf("\nprediction (%zu warps of %u lanes traced):\n", m.warps, tr->trace.warp);
    print_side("loads", m.sectors_per_req_load, &m.load);
    print_side("stores", m.sectors_per_req_store, &m.store);
    char moved[32], useful[32];
    printf("  overall  %6.2f sectors/request, efficiency %.0f%% (useful / moved)\n",
           m.sectors_per_req, 100.0 * m.efficiency);
    printf("  per launch: %s moved for %s useful%s\n",
           clc_format_size((uint64_t)m.bytes_moved, moved, sizeof moved),
           clc_format_size((uint64_t)m.bytes_useful, useful, sizeof useful),
           m.truncated ? " (first 64 accesses of each work-item only)" : "");
    printf("  (a request: one access index of the 32 lanes of a warp; a sector: 32 bytes,\n"
           "   the unit L2 and DRAM move; a line: 128 bytes, four sectors)\n");
}

int clc_cmd_explain(int argc, char **argv)
{
    struct insp_args a;
    int rc = clc_inspect_args(argc, argv, false, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(explain_usage, stdout);
        return CLC_OK;
    }
    struct clc_opts o;
    struct clc_session s;
    struct clc_report rep;
    struct clc_traced tr;
    const struct clc_variant *v;
    long param;
    memset(&tr, 0, sizeof tr);
    rc = clc_inspect_open(&a, &o, &s, &rep);
    if (rc == CLC_OK)
        rc = clc_inspect_pick(&a, &s, &v, &param);
    if (rc != CLC_OK)
        goto done;
    uint64_t size;
    char why[256], shown[WIDTH];
    clc_case_size(&s.be[0]->dev.meta, s.be[0]->dev.cpu, a.c->alloc_factor, !a.c->no_plateau, 0, true, &size, why,
                  sizeof why);
    rc = clc_session_trace(&s, a.c, v, param, a.type, size, &tr);
    if (rc == CLC_SKIP) {
        clc_error("%s/%s: nothing to trace: %s", a.c->name, v->name, tr.plan.note);
        rc = CLC_ERR;
    }
    if (rc != CLC_OK)
        goto done;

    struct clc_result r;
    clc_result_init(&r, a.c->name, v->name, a.type);
    if (tr.plan.has_param)
        clc_result_set_param(&r, tr.plan.param);
    char param_text[32] = "";
    if (tr.plan.has_param)
        snprintf(param_text, sizeof param_text, ", param %ld", tr.plan.param);
    printf("%s / %s (%s%s): kernel %s in %s\n", r.case_name, r.variant, clc_type_name(a.type),
           param_text, tr.plan.kernel, tr.file);
    printf("device:  %s (%s)\n", fit(s.be[0]->dev.meta.name, WIDTH - 20, shown, sizeof shown),
           clc_api_name(s.be[0]->dev.api));
    printf("options: %s\n", fit(tr.options, WIDTH - 9, shown, sizeof shown));
    print_source(&s, &tr);
    if (tr.fault.count > 0) {
        char msg[320];
        clc_fault_message(&tr.plan, tr.plan.kernel, &tr.fault, msg, sizeof msg);
        clc_error("%s", msg);
        rc = CLC_ERR;
        goto done;
    }
    if (print_requests(&tr.trace) != CLC_OK) {
        rc = CLC_ERR;
        goto done;
    }
    print_prediction(&tr);
    if (a.results != NULL) {
        struct clc_model m;
        clc_model_analyse(&tr.trace, &m);
        r.model_efficiency = m.efficiency;
        rc = print_measured(a.results, &r);
    }
done:
    clc_traced_free(&tr);
    clc_session_close(&s);
    clc_report_free(&rep);
    return rc;
}
