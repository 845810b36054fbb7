/* custom.c - a kernel of the user's own: `run custom --kernel-file F --kernel NAME
 * --pattern P`.  The kernel is built like the built-in ones, verified against the host
 * reference of its pattern, timed and modelled like any variant, and then ranked against the
 * built-in variants of the pattern's cases, measured in the same run at the same size.
 *
 * Patterns (float only; the build defines T = float) and the calls the host makes:
 *
 *   copy       __kernel void NAME(__global const T *in, __global T *out, ulong n
 *                                 CLC_TRACE_ARGS)
 *              out[i] = in[i] for i < n.                 Ranked with: copy, vector, mlp.
 *   scale      the same signature; out[i] = 2 * in[i].   Ranked with: coalesced, uncoalesced.
 *   gather     __kernel void NAME(__global const T *in, __global const uint *idx,
 *                                 __global T *out, ulong n CLC_TRACE_ARGS)
 *              out[i] = in[idx[i]], idx a random permutation of 0 .. n-1 (the one the
 *              gather case's `random` variant uses).     Ranked with: gather.
 *   transpose  __kernel void NAME(__global const T *in, __global T *out, ulong width,
 *                                 ulong height CLC_TRACE_ARGS)
 *              in is height rows of width elements (row-major); out[x * height + y] =
 *              in[y * width + x].  The shape is the transpose case's: width =
 *              floor(sqrt(n)), height = n / width.       Ranked with: transpose.
 *
 * Launch shape.  1-D patterns: local = --local N (default 256), K = --items-per-thread
 * (default 1), global = round_up(ceil(n / K), local): a kernel that does K elements per
 * work-item gets ceil(n / K) work-items, rounded up to whole work-groups, and must guard.
 * transpose: local = --local XxY (default 32x8), K = --items-per-thread rows per work-item
 * (default 4), global = (round_up(width, X), round_up(ceil(height / K), Y)).
 *
 * Build options: -cl-std=CL1.2 -I <kernel dir> -DT=float, as for the built-in kernels, plus
 * -DCLC_ITEMS=K -DCLC_LOCAL_X=X -DCLC_LOCAL_Y=Y (Y = 1 in 1-D) so a kernel can size its
 * loops and __local tiles.  With `#include "clc.h"`, CLC_TRACE_ARGS, CLC_TRACE_BEGIN and
 * LOAD / STORE, the access model traces the kernel; without them it runs and is ranked all
 * the same, and its row says why the model is off. */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/cases.h"


enum kind { COPY, SCALE, GATHER, TRANSPOSE };

static const struct pattern {
    const char *name;
    enum kind kind;
    cl_uint nargs;         /* kernel arguments before CLC_TRACE_ARGS */
    const char *signature; /* for messages */
    const char *compare[3];
    size_t local[2];       /* default --local */
    unsigned items;        /* default --items-per-thread */
} patterns[] = {
    {"copy", COPY, 3, "__kernel void NAME(__global const T *in, __global T *out, ulong n "
     "CLC_TRACE_ARGS)", {"copy", "vector", "mlp"}, {256, 1}, 1},
    {"scale", SCALE, 3, "__kernel void NAME(__global const T *in, __global T *out, ulong n "
     "CLC_TRACE_ARGS)", {"coalesced", "uncoalesced", NULL}, {256, 1}, 1},
    {"gather", GATHER, 4, "__kernel void NAME(__global const T *in, __global const uint *idx, "
     "__global T *out, ulong n CLC_TRACE_ARGS)", {"gather", NULL, NULL}, {256, 1}, 1},
    {"transpose", TRANSPOSE, 4, "__kernel void NAME(__global const T *in, __global T *out, "
     "ulong width, ulong height CLC_TRACE_ARGS)", {"transpose", NULL, NULL}, {32, 8}, 4},
};

static const struct pattern *find_pattern(const char *name)
{
    for (size_t i = 0; name != NULL && i < sizeof patterns / sizeof patterns[0]; i++)
        if (strcmp(patterns[i].name, name) == 0)
            return &patterns[i];
    return NULL;
}

bool clc_custom_pattern_known(const char *pattern)
{
    return find_pattern(pattern) != NULL;
}

bool clc_custom_pattern_2d(const char *pattern)
{
    const struct pattern *p = find_pattern(pattern);
    return p != NULL && p->kind == TRANSPOSE;
}

void clc_custom_help(FILE *f)
{
    fputs(
        "usage: clcoalesce run custom --kernel-file F --kernel NAME --pattern P\n"
        "                      [--local N | --local XxY] [--items-per-thread K] [run options]\n"
        "\n"
        "Builds __kernel NAME from your file F (a path relative to the current folder) like\n"
        "the built-in kernels, checks its output against the host reference of pattern P,\n"
        "times it and models its accesses like any variant, then runs the built-in variants\n"
        "of P's cases at the same size and prints a ranking: every verified row by GB/s,\n"
        "with its percentage of the best.  All the rows go to the report.  Float only.\n"
        "\n"
        "patterns, the signature your kernel must have, and what it must compute:\n"
        "  copy       __kernel void NAME(__global const T *in, __global T *out,\n"
        "                                ulong n CLC_TRACE_ARGS)\n"
        "             out[i] = in[i] for i < n                  ranked with: copy, vector, mlp\n"
        "  scale      the same signature; out[i] = 2 * in[i]    ranked with: coalesced,\n"
        "                                                                    uncoalesced\n"
        "  gather     __kernel void NAME(__global const T *in, __global const uint *idx,\n"
        "                                __global T *out, ulong n CLC_TRACE_ARGS)\n"
        "             out[i] = in[idx[i]], idx a random permutation of 0..n-1\n"
        "                                                       ranked with: gather\n"
        "  transpose  __kernel void NAME(__global const T *in, __global T *out,\n"
        "                                ulong width, ulong height CLC_TRACE_ARGS)\n"
        "             in: height rows of width elements; out[x * height + y] =\n"
        "             in[y * width + x]; width = floor(sqrt(n)), height = n / width\n"
        "                                                       ranked with: transpose\n"
        "  n = --size / 4.  Pointer parameters may also be declared as float4 * and the like.\n"
        "\n"
        "launch:\n"
        "  copy, scale, gather: 1-D, local = --local N (default 256), K = --items-per-thread\n"
        "    (default 1), global = round_up(ceil(n / K), local): with K > 1 each work-item\n"
        "    is meant to do K elements.  Guard: global may exceed what you need.\n"
        "  transpose: 2-D, local = --local XxY (default 32x8), K = --items-per-thread rows\n"
        "    per work-item (default 4), global = (round_up(width, X),\n"
        "    round_up(ceil(height / K), Y)).  Guard both dimensions.\n"
        "  Work-groups above 256 work-items: NVIDIA launches them only for a kernel that\n"
        "    declares its shape: __attribute__((reqd_work_group_size(CLC_LOCAL_X,\n"
        "    CLC_LOCAL_Y, 1))) before __kernel.\n"
        "\n"
        "build options: -cl-std=CL1.2 -I <kernel dir> -DT=float -DCLC_ITEMS=K\n"
        "  -DCLC_LOCAL_X=X -DCLC_LOCAL_Y=Y (Y = 1 in 1-D), so `#include \"clc.h\"` works.\n"
        "  For the access model (the model column), end the parameter list with\n"
        "  CLC_TRACE_ARGS (no comma before it), start the body with CLC_TRACE_BEGIN and do\n"
        "  every global access through LOAD(p, i) / STORE(p, i, v) (VLOAD / VSTORE for\n"
        "  vloadN / vstoreN).  Without them the kernel runs and ranks all the same and its\n"
        "  row notes that the model is off.\n"
        "\n"
        "exit status: 1 when the file cannot be read, does not build (the compiler's messages\n"
        "  name your file and line), or the result is wrong; 2 for missing or bad options.\n"
        "\n"
        "examples (in the source tree's cl/examples/):\n"
        "  clcoalesce run custom --kernel-file cl/examples/copy_float4.cl --kernel copy_float4 \\\n"
        "      --pattern copy --items-per-thread 4\n"
        "  clcoalesce run custom --kernel-file cl/examples/scale_strided_bad.cl \\\n"
        "      --kernel scale_chunked --pattern scale --items-per-thread 8\n"
        "  clcoalesce run custom --kernel-file cl/examples/transpose_tiled.cl \\\n"
        "      --kernel transpose_tiled --pattern transpose\n",
        f);
}

/* ------------------------------------------------------------------ building */

/* True when the file at `name` holds exactly `src`. */
static bool same_text(const char *name, const char *src)
{
    char *text = clc_read_text(name, NULL);
    bool same = text != NULL && strcmp(text, src) == 0;
    free(text);
    return same;
}

/* The compiler is handed the source as a string, so its messages name a stand-in: a
 * temporary copy of the source (PoCL) or "<kernel>" (NVIDIA).  Every "NAME:LINE" whose NAME
 * is no file on disk, or a file holding exactly the user's source, is that stand-in and is
 * written as `shown`, the user's file name, so an editor can jump to the line.  An included
 * header (clc.h) keeps its own path. */
static char *name_user_file(const char *log, const char *src, const char *shown)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (m == NULL)
        return NULL;
    const char *done = log;
    for (const char *c = log; *c; c++) {
        if (*c != ':' || !isdigit((unsigned char)c[1]))
            continue;
        const char *d = c + 1;
        while (isdigit((unsigned char)*d))
            d++;
        if (*d != ':')
            continue;
        const char *s = c;
        while (s > done && !isspace((unsigned char)s[-1]) && s[-1] != '\'' && s[-1] != '"')
            s--;
        if (s == c || c - s >= PATH_MAX)
            continue;
        char name[PATH_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(c - s), s);
        if (access(name, F_OK) != 0 || same_text(name, src)) {
            fwrite(done, 1, (size_t)(s - done), m);
            fputs(shown, m);
            fwrite(c, 1, (size_t)(d - c), m);
        } else {
            fwrite(done, 1, (size_t)(d - done), m);
        }
        /* past "NAME:LINE": the column that may follow is no name */
        done = d;
        c = d - 1;
    }
    fputs(done, m);
    fclose(m);
    return out;
}

/* Prints a failed build: first the compiler's first message about the user's file, as one
 * error line beginning "FILE:LINE:", then the whole log. */
static void print_build_failure(struct clc_bench *b, cl_program prog, const char *src,
                                const char *shown, const char *opts)
{
    size_t n = 0;
    clGetProgramBuildInfo(prog, b->ctx->dev.id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1), *mapped = NULL;
    if (log != NULL &&
        clGetProgramBuildInfo(prog, b->ctx->dev.id, CL_PROGRAM_BUILD_LOG, n, log, NULL) ==
            CL_SUCCESS)
        mapped = name_user_file(log, src, shown);
    const char *text = mapped ? mapped : log ? log : "";
    const char *first = NULL;
    size_t sl = strlen(shown);
    for (const char *p = strstr(text, shown); p != NULL && first == NULL;
         p = strstr(p + 1, shown))
        if (p[sl] == ':' && isdigit((unsigned char)p[sl + 1]))
            first = p;
    if (first != NULL)
        clc_error("%.*s", (int)strcspn(first, "\n"), first);
    else
        clc_error("building '%s' failed", shown);
    fprintf(stderr, "  file:    %s\n  options: %s\n  device:  %s\n  build log:\n%s\n", shown,
            opts, b->ctx->dev.meta.name, *text ? text : "  (empty)");
    free(log);
    free(mapped);
}

/* Builds the user's source once on its own, to report compile errors against the user's
 * file, a missing kernel, or a parameter count that does not fit the pattern.  The timed
 * kernel then comes from clc_build (its cache is what the access model rebuilds from). */
static int check_kernel(struct clc_bench *b, const struct pattern *p, const char *shown,
                        const char *src, const char *extra, const char *name)
{
    struct clc_ctx *ctx = b->ctx;
    char opts[8192];
    const char *q = strchr(ctx->kernel_dir, ' ') ? "\"" : ""; /* as clc_build quotes it */
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -I %s%s%s -DT=float %s", q, ctx->kernel_dir, q,
             extra);
    size_t len = strlen(src);
    cl_int err;
    cl_kernel k = NULL;
    int rc = CLC_ERR;
    cl_program prog = clCreateProgramWithSource(ctx->context, 1, &src, &len, &err);
    CLC_CHECK(err);
    if (clBuildProgram(prog, 1, &ctx->dev.id, opts, NULL, NULL) != CL_SUCCESS) {
        print_build_failure(b, prog, src, shown, opts);
        goto cleanup;
    }
    k = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS) {
        char names[1024] = "";
        clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
        names[sizeof names - 1] = '\0';
        clc_error("no __kernel '%s' in %s (its kernels: %s)", name, shown,
                  *names ? names : "none");
        goto cleanup;
    }
    cl_uint nargs = 0;
    CLC_CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    if (nargs != p->nargs) {
        clc_error("kernel '%s' in %s takes %u parameters; the %s pattern passes %u: %s", name,
                  shown, nargs, p->name, p->nargs, p->signature);
        goto cleanup;
    }
    rc = CLC_OK;
cleanup:
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    return rc;
}

/* What the source lacks for the access model, or NULL when it has it all.  A plain text
 * search: enough to say why the model is off. */
static const char *model_missing(const char *src)
{
    if (strstr(src, "CLC_TRACE_ARGS") == NULL)
        return "no CLC_TRACE_ARGS";
    if (strstr(src, "CLC_TRACE_BEGIN") == NULL)
        return "no CLC_TRACE_BEGIN";
    if (strstr(src, "LOAD(") == NULL && strstr(src, "STORE(") == NULL)
        return "no LOAD / STORE";
    return NULL;
}

/* ------------------------------------------------------------------ running the kernel */

struct setup {
    const struct pattern *p;
    const char *name;    /* the kernel */
    size_t local[2];
    unsigned items;
    const char *missing; /* model_missing(), NULL when the model can run */
};

/* The pattern's row: upload inputs, poison the output, time, verify, finish. */
static int run_kernel(struct clc_bench *b, const struct setup *su, cl_kernel k)
{
    const enum clc_type t = CLC_FLOAT;
    const struct pattern *p = su->p;
    const size_t es = sizeof(cl_float);
    size_t n = clc_bench_elems(b, t), width = 0, height = 0, used = n;
    if (p->kind == GATHER && n > UINT32_MAX)
        n = used = UINT32_MAX; /* uint indices */
    if (p->kind == TRANSPOSE) {
        /* transpose.c's shape: width = floor(sqrt(n)), height = n / width */
        width = (size_t)sqrt((double)n);
        while (width > 1 && width * width > n)
            width--;
        while ((width + 1) * (width + 1) <= n)
            width++;
        width = width ? width : 1;
        height = n / width;
        used = width * height;
    }
    int rc = CLC_ERR;
    float *h_in = clc_host_alloc(n, t), *got = clc_host_alloc(n, t), *want = clc_host_alloc(n, t);
    cl_uint *h_idx = p->kind == GATHER ? malloc(n * sizeof *h_idx + 1) : NULL;
    cl_mem in = NULL, out = NULL, idx = NULL;
    struct clc_result r;
    struct clc_timing tm;
    struct clc_launch l = {k, 1, {0}, {su->local[0]}};
    cl_ulong count = n, w64 = width, h64 = height;

    clc_result_init(&r, b->c->name, su->name, t);
    r.bytes = (uint64_t)used * es * 2 + (p->kind == GATHER ? (uint64_t)n * sizeof(cl_uint) : 0);
    if (p->kind == TRANSPOSE) {
        clc_result_set_param(&r, (long)width);
        l.dims = 2;
        l.local[1] = su->local[1];
        l.global[0] = clc_round_up(width, su->local[0]);
        l.global[1] = clc_round_up((height + su->items - 1) / su->items, su->local[1]);
        snprintf(r.note, sizeof r.note, "transpose %zu x %zu, local %zux%zu, %u rows each",
                 width, height, su->local[0], su->local[1], su->items);
    } else {
        l.global[0] = clc_round_up((n + su->items - 1) / su->items, su->local[0]);
        snprintf(r.note, sizeof r.note, "%s, local %zu, %u per work-item", p->name,
                 su->local[0], su->items);
    }
    if (su->missing != NULL)
        clc_note_append(&r, "; model: off (%s; see 'run custom --help')", su->missing);
    if (h_in == NULL || got == NULL || want == NULL)
        goto cleanup;
    if (p->kind == GATHER && h_idx == NULL) {
        clc_error("out of host memory for %zu indices", n);
        goto cleanup;
    }
    if (clc_buffer(b->ctx, n * es, "input", &in) || clc_buffer(b->ctx, n * es, "output", &out) ||
        (h_idx && clc_buffer(b->ctx, n * sizeof *h_idx, "indices", &idx)))
        goto cleanup;
    clc_fill_values(h_in, n, t, 0);
    if (clc_write(b->ctx, in, 0, n * es, h_in) || clc_bench_poison(b, out, n * es))
        goto cleanup;

    /* the reference, and the pattern's extra inputs */
    switch (p->kind) {
    case COPY:
    case SCALE:
        for (size_t i = 0; i < n; i++)
            want[i] = p->kind == SCALE ? 2 * h_in[i] : h_in[i];
        break;
    case GATHER: {
        /* one block of n: the permutation of gather/random */
        clc_gather_indices(h_idx, n, n);
        for (size_t i = 0; i < n; i++)
            want[i] = h_in[h_idx[i]];
        if (clc_write(b->ctx, idx, 0, n * sizeof *h_idx, h_idx))
            goto cleanup;
        break;
    }
    case TRANSPOSE:
        for (size_t y = 0; y < height; y++)
            for (size_t x = 0; x < width; x++)
                want[x * height + y] = h_in[y * width + x];
        break;
    }

    int bad = 0;
    if (p->kind == GATHER)
        bad = clc_arg(k, 0, sizeof in, &in) || clc_arg(k, 1, sizeof idx, &idx) ||
              clc_arg(k, 2, sizeof out, &out) || clc_arg(k, 3, sizeof count, &count);
    else if (p->kind == TRANSPOSE)
        bad = clc_arg(k, 0, sizeof in, &in) || clc_arg(k, 1, sizeof out, &out) ||
              clc_arg(k, 2, sizeof w64, &w64) || clc_arg(k, 3, sizeof h64, &h64);
    else
        bad = clc_arg(k, 0, sizeof in, &in) || clc_arg(k, 1, sizeof out, &out) ||
              clc_arg(k, 2, sizeof count, &count);
    if (bad) {
        clc_error("the %s pattern calls: %s", p->name, p->signature);
        goto cleanup;
    }
    if (clc_bench_time(b, &r, clc_enqueue_kernel, &l, &tm) ||
        clc_read(b->ctx, out, 0, n * es, got))
        goto cleanup;
    if (tm.batch > 1)
        clc_note_append(&r, "; %d launches per timed sample", tm.batch);
    bool ok = clc_check_values(&r, got, want, used, t, 0) &&
              clc_check_poison_tail(&r, got, used, n, es);
    rc = clc_bench_finish(b, &r, ok);
cleanup:
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    if (idx)
        clReleaseMemObject(idx);
    free(h_in);
    free(got);
    free(want);
    free(h_idx);
    return rc;
}

/* ------------------------------------------------------------------ ranking */

/* Every verified float row from `first` on, by GB/s, with its percentage of the best. */
static void print_ranking(FILE *f, const struct clc_bench *b, size_t first, size_t mine,
                          const struct setup *su)
{
    const struct clc_report *rep = b->report;
    size_t n = 0, *order = malloc((rep->n_results - first + 1) * sizeof *order);
    if (order == NULL)
        return;
    for (size_t i = first; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || r->type != CLC_FLOAT || !(r->gbps > 0))
            continue;
        size_t j = n++;
        for (; j > 0 && rep->results[order[j - 1]].gbps < r->gbps; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    char cases[64] = "", size[32];
    for (int c = 0; c < 3 && su->p->compare[c]; c++) {
        size_t len = strlen(cases);
        snprintf(cases + len, sizeof cases - len, "%s%s", c ? ", " : "", su->p->compare[c]);
    }
    fprintf(f, "\nranking: %s (pattern %s) against the built-in %s; float, %s\n", su->name,
            su->p->name, cases, clc_format_size(b->size, size, sizeof size));
    fprintf(f, "%4s  %-12s %-20s %6s %9s %10s %7s\n", "rank", "case", "variant", "param",
            "GB/s", "% of best", "model");
    double best = n ? rep->results[order[0]].gbps : NAN;
    for (size_t i = 0; i < n; i++) {
        const struct clc_result *r = &rep->results[order[i]];
        char param[24] = "-", model[24] = "-";
        if (r->has_param)
            snprintf(param, sizeof param, "%ld", r->param);
        if (!isnan(r->model_efficiency))
            snprintf(model, sizeof model, "%.0f%%", r->model_efficiency * 100.0);
        fprintf(f, "%4zu  %-12s %-20s %6s %9.1f %10.1f %7s%s\n", i + 1, r->case_name,
                r->variant, param, r->gbps, 100.0 * r->gbps / best, model,
                order[i] == mine ? "  <- yours" : "");
    }
    size_t left = rep->n_results - first - n;
    if (left)
        fprintf(f, "(%zu row%s not ranked: skipped or failed)\n", left, left == 1 ? "" : "s");
    fflush(f);
    free(order);
}

/* ------------------------------------------------------------------ the case */

static int run(struct clc_bench *b, enum clc_type t)
{
    const struct clc_opts *o = b->opts;
    const struct pattern *p = find_pattern(o->pattern);
    if (o->kernel_file == NULL || o->kernel_name == NULL || p == NULL) {
        clc_error("the custom case needs a kernel file, a kernel name and a known pattern "
                  "(copy, scale, transpose, gather); see 'clcoalesce run custom --help'");
        return CLC_ERR;
    }
    if (t != CLC_FLOAT)
        return CLC_OK; /* float only: the registry says so */
    struct setup su = {p, o->kernel_name, {p->local[0], p->local[1]}, p->items, NULL};
    if (o->local[0] != 0) {
        su.local[0] = o->local[0];
        su.local[1] = p->kind == TRANSPOSE ? (o->local[1] ? o->local[1] : 1) : 1;
    }
    if (o->items_per_thread != 0)
        su.items = o->items_per_thread;

    /* clc_build takes a relative name as one inside the kernel directory */
    char path[PATH_MAX];
    char *src = NULL;
    errno = 0;
    if (realpath(o->kernel_file, path) == NULL || (src = clc_read_text(path, NULL)) == NULL) {
        clc_error("cannot read kernel file '%s': %s", o->kernel_file,
                  strerror(errno ? errno : EIO));
        return CLC_ERR;
    }
    char extra[96];
    snprintf(extra, sizeof extra, "-DCLC_ITEMS=%u -DCLC_LOCAL_X=%zu -DCLC_LOCAL_Y=%zu", su.items,
             su.local[0], su.local[1]);
    struct clc_opts co = *o;
    struct clc_case cc = *b->c;
    struct clc_bench cb = *b;
    cl_kernel k = NULL;
    int rc = CLC_ERR;
    size_t first = b->report->n_results;

    su.missing = model_missing(src);
    if (su.missing != NULL)
        co.model = false;
    cc.cl_file = path;
    cb.c = &cc;
    cb.opts = &co;
    if (check_kernel(b, p, o->kernel_file, src, extra, su.name) != CLC_OK ||
        clc_bench_kernel(&cb, t, extra, su.name, &k) != CLC_OK)
        goto cleanup;
    size_t max = 0, group = su.local[0] * su.local[1], req[3] = {0, 0, 0};
    if (clGetKernelWorkGroupInfo(k, b->ctx->dev.id, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max,
                                 NULL) != CL_SUCCESS)
        max = b->ctx->dev.max_wg_size;
    clGetKernelWorkGroupInfo(k, b->ctx->dev.id, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof req, req,
                             NULL);
    if (req[0] != 0 && (req[0] != su.local[0] || req[1] != su.local[1] || req[2] != 1)) {
        clc_error("--local %zux%zu: kernel '%s' declares reqd_work_group_size(%zu, %zu, %zu)",
                  su.local[0], su.local[1], su.name, req[0], req[1], req[2]);
        goto cleanup;
    }
    /* NVIDIA reports 256 here even for a kernel that declares a larger shape, and launches
     * it at that shape */
    if (req[0] != 0 && max < b->ctx->dev.max_wg_size)
        max = b->ctx->dev.max_wg_size;
    if (group > max) {
        clc_error("--local: work-groups of %zu work-items; kernel '%s' allows %zu here", group,
                  su.name, max);
        goto cleanup;
    }
    if (run_kernel(&cb, &su, k) != CLC_OK)
        goto cleanup; /* a wrong or failed kernel is not ranked */

    /* the built-in variants, at the same size, into the same report */
    rc = CLC_OK;
    for (int c = 0; c < 3 && p->compare[c]; c++) {
        const struct clc_case *bc = clc_find_case(p->compare[c]);
        if (bc == NULL || !(bc->types & t))
            continue;
        struct clc_bench bb = *b;
        bb.c = bc;
        bb.have_launch = false;
        if (!clc_size_fits(&b->ctx->dev.meta, bc->alloc_factor, b->size)) {
            clc_note("ranking: %s needs %u x the size in one buffer; not run", bc->name,
                     bc->alloc_factor ? bc->alloc_factor : 1);
            continue;
        }
        if (bc->run(&bb, t) != CLC_OK)
            rc = CLC_ERR;
    }
    if (b->table != NULL)
        print_ranking(b->table, b, first, first, &su);
    else if (!clc_quiet)
        print_ranking(stderr, b, first, first, &su);
cleanup:
    if (k)
        clReleaseKernel(k);
    free(src);
    return rc;
}

const struct clc_case clc_case_custom = {
    .name = "custom",
    .cl_file = "examples/copy_float4.cl",
    .kernels = "copy_float4, one of the examples; yours comes with --kernel-file",
    .summary = "your own kernel for a pattern (copy, scale, transpose, gather): verified, "
               "timed, modelled, and ranked against the built-in variants of that pattern",
    .variants = "one: the --kernel NAME from --kernel-file, for --pattern P",
    .bytes_rule = "the pattern's case's rule: copy, scale, transpose 2 x n x 4; gather "
                  "n x (4 + 4) read + n x 4 written",
    .expect = "whatever you designed it for; the ranking shows where it lands",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .explicit_only = true,
    .run = run,
};
