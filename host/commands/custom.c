/* custom.c - `clcoalesce custom --kernel-file F --kernel NAME --pattern P`: a kernel of the
 * user's own.  It is built like the built-in kernels, run once in its trace build at a small
 * size so that an access outside its buffers is named before the unchecked kernel ever runs,
 * then verified against the host reference of its pattern, timed and modelled like any
 * variant, and ranked against the built-in variants of the pattern's cases measured in the
 * same run at the same size.  On a CPU device the work runs in a child process, so a crash
 * the check did not foresee becomes a clear error, not a dead terminal.
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
 * (default 1), global = round_up(ceil(n / K), local).  transpose: local = --local XxY
 * (default 32x8), K = --items-per-thread rows per work-item (default 4), global =
 * (round_up(width, X), round_up(ceil(height / K), Y)).  Build options: the built-in ones plus
 * -DCLC_ITEMS=K -DCLC_LOCAL_X=X -DCLC_LOCAL_Y=Y (Y = 1 in 1-D). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/explain.h"
#include "clcoalesce/kernelfile.h"
#include "clcoalesce/outfile.h"

#define PROG "clcoalesce"
#define HELP "'clcoalesce custom --help'"
#define CHILD_ENV "CLCOALESCE_CUSTOM_WORKER" /* the parent's pid, in the child of a CPU run */
#define DEFAULT_TIMEOUT 60.0

const char *clc_self_exe;

enum kind { COPY, SCALE, GATHER, TRANSPOSE };

static const struct pattern {
    const char *name;
    enum kind kind;
    unsigned nargs;        /* kernel arguments before CLC_TRACE_ARGS */
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

static const char help_text[] =
    "usage: clcoalesce custom --kernel-file F --kernel NAME --pattern P\n"
    "                         [--local N | --local XxY] [--items-per-thread K]\n"
    "                         [--profile FILE] [run options]\n"
    "\n"
    "Builds __kernel NAME from your file F like the built-in kernels and first runs it once\n"
    "in its checked (trace) build at 1 MiB: an access outside its buffers stops the run with\n"
    "the work-item, the buffer and the index, before the unchecked kernel ever runs.  Then it\n"
    "checks the output against the host reference of pattern P, times it and models its\n"
    "accesses like any variant, runs the built-in variants of P's cases at the same size and\n"
    "prints a ranking: every verified row by GB/s, with its percentage of the best and, with\n"
    "a device profile (--profile FILE, else the one the device keeps from its last\n"
    "'clcoalesce profile'), the predicted GB/s and the limit that binds, and then your\n"
    "kernel's prediction layer by layer, as explain prints it.  All the rows go to the\n"
    "report.  Float only.  On a CPU device it runs in a child process, so a crash is\n"
    "reported, not suffered.  --timeout defaults to 60 s.\n"
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
    "build options: -DT=float -DCLC_ITEMS=K -DCLC_LOCAL_X=X -DCLC_LOCAL_Y=Y (Y = 1 in 1-D),\n"
    "  and -I <kernel dir>, so `#include \"clc.h\"` works.  For the checked run and the\n"
    "  access model (the model column), end the parameter list with CLC_TRACE_ARGS (no\n"
    "  comma before it), start the body with CLC_TRACE_BEGIN and do every global access\n"
    "  through LOAD(p, i) / STORE(p, i, v) (VLOAD / VSTORE for vloadN / vstoreN).  Without\n"
    "  them the kernel runs unchecked, and its row notes that the model is off.  With --api\n"
    "  cuda or both the same file is compiled as CUDA (see README: vector literals such as\n"
    "  (float4)(a, b, c, d) have no CUDA form; set the components instead).\n"
    "\n"
    "exit status: 1 when the file cannot be read, does not build (the compiler's messages\n"
    "  name your file and line), accesses memory outside its buffers, crashes, runs past\n"
    "  --timeout, or computes a wrong result; 2 for missing or bad options.\n"
    "\n"
    "examples (in the source tree's cl/examples/):\n"
    "  clcoalesce custom --kernel-file cl/examples/copy_float4.cl --kernel copy_float4 \\\n"
    "      --pattern copy --items-per-thread 4\n"
    "  clcoalesce custom --kernel-file cl/examples/scale_strided_bad.cl \\\n"
    "      --kernel scale_chunked --pattern scale --items-per-thread 8\n"
    "  clcoalesce custom --kernel-file cl/examples/transpose_tiled.cl \\\n"
    "      --kernel transpose_tiled --pattern transpose\n";

/* ------------------------------------------------------------------ options */

struct custom_args {
    struct clc_run_args run;
    const char *kernel_file;   /* --kernel-file */
    const char *kernel_name;   /* --kernel */
    const char *pattern;       /* --pattern */
    size_t local[2];           /* --local N or XxY; {0, 0}: the pattern's default */
    unsigned items;            /* --items-per-thread; 0: the pattern's default */
};

enum {
    OPT_KERNEL_FILE = CLC_RUN_OWN_OPT,
    OPT_KERNEL,
    OPT_PATTERN,
    OPT_LOCAL,
    OPT_ITEMS,
    OPT_NO_MODEL,
    OPT_API,
    OPT_TIMEOUT,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_PROFILE,
};

static const struct option own_options[] = {
    {"kernel-file", required_argument, NULL, OPT_KERNEL_FILE},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"pattern", required_argument, NULL, OPT_PATTERN},
    {"local", required_argument, NULL, OPT_LOCAL},
    {"items-per-thread", required_argument, NULL, OPT_ITEMS},
    {"kernel-dir", required_argument, NULL, 'k'},
    {"no-model", no_argument, NULL, OPT_NO_MODEL},
    {"api", required_argument, NULL, OPT_API},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {NULL, 0, NULL, 0},
};

/* --local: "N" (local[1] = 0) or "XxY", each 1 to 65536. */
static int parse_local(const char *s, size_t local[2])
{
    char buf[64];
    long v;
    if (strlen(s) >= sizeof buf)
        return CLC_USAGE;
    snprintf(buf, sizeof buf, "%s", s);
    char *x = strchr(buf, 'x');
    if (x != NULL)
        *x = '\0';
    if (clc_parse_count(buf, 1, 65536, &v) != CLC_OK)
        return CLC_USAGE;
    local[0] = (size_t)v;
    local[1] = 0;
    if (x != NULL) {
        if (clc_parse_count(x + 1, 1, 65536, &v) != CLC_OK)
            return CLC_USAGE;
        local[1] = (size_t)v;
    }
    return CLC_OK;
}

/* A value that is empty is refused: an empty name is never what was meant. */
static int nonempty(const char *opt, const char *value, const char **out)
{
    if (*value == '\0') {
        clc_usage_error(PROG, HELP, opt, "(empty)");
        return CLC_USAGE;
    }
    *out = value;
    return CLC_OK;
}

static int parse_own(const struct clc_run_cli *cli, int c, const char *value)
{
    struct custom_args *a = cli->own_arg;
    struct clc_opts *o = &a->run.opts;
    long v;
    switch (c) {
    case OPT_KERNEL_FILE: return nonempty("--kernel-file takes a file, not", value, &a->kernel_file);
    case OPT_KERNEL: return nonempty("--kernel takes a kernel name, not", value, &a->kernel_name);
    case OPT_PATTERN:
        if (find_pattern(value) == NULL) {
            clc_usage_error(PROG, HELP, "--pattern takes copy, scale, transpose or gather, not",
                            value);
            return CLC_USAGE;
        }
        a->pattern = value;
        break;
    case OPT_LOCAL:
        if (parse_local(value, a->local) != CLC_OK) {
            clc_usage_error(PROG, HELP, "--local takes N or XxY (1 to 65536 each), not", value);
            return CLC_USAGE;
        }
        break;
    case OPT_ITEMS:
        if (clc_run_count(cli, "--items-per-thread", value, 1, 1 << 20, &v) != CLC_OK)
            return CLC_USAGE;
        a->items = (unsigned)v;
        break;
    case 'k': return nonempty("--kernel-dir takes a folder, not", value, &o->kernel_dir);
    case OPT_NO_MODEL: o->model = false; break;
    case OPT_API:
        if (clc_parse_api(value, &o->apis) != CLC_OK) {
            clc_usage_error(PROG, HELP, "--api takes opencl, cuda or both, not", value);
            return CLC_USAGE;
        }
        break;
    case OPT_TIMEOUT: return clc_parse_timeout(PROG, HELP, value, &a->run.timeout);
    case OPT_PROGRESS: o->progress = 1; break;
    case OPT_NO_PROGRESS: o->progress = 0; break;
    case OPT_PROFILE:
        return nonempty("--profile takes a file written by 'clcoalesce profile -o', not", value,
                        &o->profile);
    }
    return CLC_OK;
}

static bool no_case(const char *name)
{
    (void)name;
    return false;
}

/* Parses `custom`'s arguments.  Returns CLC_OK or CLC_USAGE after a message. */
int clc_parse_custom_args(int argc, char **argv, struct custom_args *a)
{
    struct clc_run_line line;
    const struct clc_run_cli cli = {PROG, HELP, CLC_RUN_COLD, own_options, "k:", parse_own, a,
                                    no_case};
    memset(a, 0, sizeof *a);
    clc_opts_defaults(&a->run.opts);
    a->run.opts.compiler = clc_self_exe;
    a->run.timeout = DEFAULT_TIMEOUT;
    int rc = clc_parse_run(argc, argv, &cli, &a->run.opts.run, &line);
    a->run.format = line.format;
    a->run.output = line.output;
    a->run.quiet = line.quiet;
    a->run.help = line.help;
    if (a->run.quiet && a->run.opts.progress < 0)
        a->run.opts.progress = 0;
    if (rc != CLC_OK || a->run.help)
        return rc;
    if (!a->kernel_file || !a->kernel_name || !a->pattern) {
        char missing[64] = "";
        const char *names[] = {a->kernel_file ? NULL : "--kernel-file",
                               a->kernel_name ? NULL : "--kernel", a->pattern ? NULL : "--pattern"};
        for (int i = 0; i < 3; i++) {
            size_t len = strlen(missing);
            if (names[i] != NULL)
                snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "", names[i]);
        }
        clc_error("custom needs --kernel-file F, --kernel NAME and --pattern P (copy, scale, "
                  "transpose or gather); missing %s; see " HELP, missing);
        return CLC_USAGE;
    }
    bool two_d = find_pattern(a->pattern)->kind == TRANSPOSE;
    if (a->local[0] && two_d != (a->local[1] != 0)) {
        clc_error(two_d ? "--local: the %s pattern launches in 2-D: give XxY, e.g. 32x8"
                        : "--local: the %s pattern launches in 1-D: give one number, e.g. 256",
                  a->pattern);
        return CLC_USAGE;
    }
    if (a->run.opts.types_given && !(a->run.opts.types & CLC_FLOAT)) {
        clc_error("custom runs in float only (--type)");
        return CLC_USAGE;
    }
    a->run.opts.types = CLC_FLOAT;
    return CLC_OK;
}

/* ------------------------------------------------------------------ the plan */

/* What the user asked for, as the variant's data. */
struct setup {
    const struct pattern *p;
    size_t local[2];
    unsigned items;
    const char *path;    /* the kernel file, absolute */
    const char *missing; /* what the source lacks for the trace build, NULL when nothing */
};

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    const struct setup *su = v->data;
    const struct pattern *pt = su->p;
    unsigned es = clc_env_es(e);
    size_t n = e->n;
    p->kernel = v->kernel;
    p->file = su->path;
    clc_plan_define(p, "-DCLC_ITEMS=%u -DCLC_LOCAL_X=%zu -DCLC_LOCAL_Y=%zu", su->items,
                    su->local[0], su->local[1] ? su->local[1] : 1);
    switch (pt->kind) {
    case COPY:
    case SCALE:
        clc_plan_map(p, e, v->kernel, su->local[0], pt->kind == SCALE ? clc_ref_scale : clc_ref_copy);
        clc_plan_1d(p, (n + su->items - 1) / su->items, su->local[0]);
        break;
    case GATHER: {
        if (n > UINT32_MAX)
            n = UINT32_MAX; /* uint indices */
        uint32_t *idx = clc_plan_host(p, n * sizeof *idx);
        if (idx == NULL)
            return CLC_ERR;
        if (!e->dry) /* one block of n: the permutation of gather/random */
            clc_gather_indices(idx, n, n);
        unsigned in = clc_plan_buffer(p, "in", n, es, CLC_INIT_VALUES);
        unsigned ix = clc_plan_buffer(p, "idx", n, sizeof *idx, CLC_INIT_HOST);
        unsigned out = clc_plan_buffer(p, "out", n, es, CLC_INIT_POISON);
        p->bufs[ix].host = idx;
        p->bufs[out].read_back = true;
        clc_plan_arg_buf(p, in);
        clc_plan_arg_buf(p, ix);
        clc_plan_arg_buf(p, out);
        clc_plan_arg_u64(p, n);
        clc_plan_1d(p, (n + su->items - 1) / su->items, su->local[0]);
        p->bytes = (uint64_t)n * (es + sizeof *idx) + (uint64_t)n * es;
        p->check = clc_check_gather;
        break;
    }
    case TRANSPOSE: {
        uint64_t *wh = clc_plan_host(p, 2 * sizeof *wh);
        if (wh == NULL)
            return CLC_ERR;
        size_t width, height;
        clc_matrix_shape(n, &width, &height);
        wh[0] = width;
        wh[1] = height;
        unsigned in = clc_plan_buffer(p, "in", n, es, CLC_INIT_VALUES);
        unsigned out = clc_plan_buffer(p, "out", n, es, CLC_INIT_POISON);
        p->bufs[out].read_back = true;
        clc_plan_arg_buf(p, in);
        clc_plan_arg_buf(p, out);
        clc_plan_arg_u64(p, width);
        clc_plan_arg_u64(p, height);
        clc_plan_2d(p, width, (height + su->items - 1) / su->items, su->local[0], su->local[1]);
        p->bytes = 2 * (uint64_t)width * height * es;
        p->check = clc_check_transpose;
        p->ref_ctx = wh;
        p->has_param = true;
        p->param = (long)width;
        clc_plan_note(p, "transpose %zu x %zu, local %zux%zu, %u rows each", width, height,
                      su->local[0], su->local[1], su->items);
        break;
    }
    }
    if (pt->kind != TRANSPOSE)
        clc_plan_note(p, "%s, local %zu, %u per work-item", pt->name, su->local[0], su->items);
    if (su->missing != NULL)
        clc_plan_note(p, "; model: off (%s; see 'custom --help')", su->missing);
    return CLC_OK;
}

/* What the source lacks for the trace build, or NULL when it has it all.  A plain text
 * search: enough to say why the check and the model are off. */
static const char *trace_missing(const char *src)
{
    if (strstr(src, "CLC_TRACE_ARGS") == NULL)
        return "no CLC_TRACE_ARGS";
    if (strstr(src, "CLC_TRACE_BEGIN") == NULL)
        return "no CLC_TRACE_BEGIN";
    if (strstr(src, "LOAD(") == NULL && strstr(src, "STORE(") == NULL)
        return "no LOAD / STORE";
    return NULL;
}

/* ------------------------------------------------------------------ ranking */

/* Every verified row from `first` on, by GB/s, with its percentage of the best. */
static void print_ranking(FILE *f, const struct clc_report *rep, size_t first, const char *name,
                          const struct pattern *pt, uint64_t size)
{
    size_t n = 0, *order = malloc((rep->n_results - first + 1) * sizeof *order);
    if (order == NULL)
        return;
    for (size_t i = first; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status != CLC_STATUS_OK || !(r->gbps > 0))
            continue;
        size_t j = n++;
        for (; j > 0 && rep->results[order[j - 1]].gbps < r->gbps; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    char cases[64] = "", sz[32];
    for (int c = 0; c < 3 && pt->compare[c]; c++) {
        size_t len = strlen(cases);
        snprintf(cases + len, sizeof cases - len, "%s%s", c ? ", " : "", pt->compare[c]);
    }
    bool apis = rep->n_apis > 1;
    fprintf(f, "\nranking: %s (pattern %s) against the built-in %s; float, %s\n", name, pt->name,
            cases, clc_format_size(size, sz, sizeof sz));
    fprintf(f, "%4s  %-12s %-20s %6s %s%9s %10s %7s %9s %s\n", "rank", "case", "variant",
            "param", apis ? "api    " : "", "GB/s", "% of best", "model", "pred", "bound");
    double best = n ? rep->results[order[0]].gbps : NAN;
    for (size_t i = 0; i < n; i++) {
        const struct clc_result *r = &rep->results[order[i]];
        char param[24] = "-", model[24] = "-", api[16] = "", pred[24] = "-";
        if (r->has_param)
            snprintf(param, sizeof param, "%ld", r->param);
        if (!isnan(r->model_efficiency))
            snprintf(model, sizeof model, "%.0f%%", r->model_efficiency * 100.0);
        if (isfinite(r->model_gbps))
            snprintf(pred, sizeof pred, "%.1f", r->model_gbps);
        if (apis)
            snprintf(api, sizeof api, "%-6s ", r->api);
        const char *bound = isfinite(r->model_gbps) && r->model_bound[0] ? r->model_bound : "-";
        bool yours = strcmp(r->case_name, "custom") == 0;
        fprintf(f, "%4zu  %-12s %-20s %6s %s%9.1f %10.1f %7s %9s %-*s%s\n", i + 1, r->case_name,
                r->variant, param, api, r->gbps, 100.0 * r->gbps / best, model, pred,
                yours ? 9 : 0, bound, yours ? "<- yours" : "");
    }
    size_t left = rep->n_results - first - n;
    if (left)
        fprintf(f, "(%zu row%s not ranked: skipped or failed)\n", left, left == 1 ? "" : "s");
    fflush(f);
    free(order);
}

/* Why the user's kernel runs as it does: each of its rows from `first` on that the profile
 * predicted, as explain's waterfall, the measured GB/s beside it where the profile is of
 * this device. */
static void print_why(FILE *f, const struct clc_session *s, const struct clc_report *rep,
                      size_t first)
{
    for (size_t i = first; s->profile != NULL && i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        struct clc_prediction pr;
        if (strcmp(r->case_name, "custom") != 0 || r->status != CLC_STATUS_OK ||
            !clc_predict(s->profile, r, &pr))
            continue;
        char dev[4 * sizeof s->profile->device];
        fprintf(f, "\n%s%s%s, layer by layer on the profile of\n  %s\n('clcoalesce explain "
                "--help' lists the layers, the README says what each charges):\n", r->variant,
                rep->n_apis > 1 ? ", " : "", rep->n_apis > 1 ? r->api : "",
                clc_printable(s->profile->device, dev, sizeof dev));
        bool here = strcmp(s->profile->device, rep->device.name) == 0;
        clc_print_waterfall_wrapped(f, &pr, here && s->be[0]->dev.cpu, here ? r->gbps : NAN);
        if (!here)
            fprintf(f, "  (predicted for the profile's device, not this one: nothing "
                    "measured to set beside it)\n");
    }
    fflush(f);
}

/* ------------------------------------------------------------------ the work */

static const struct custom_args *the_args; /* for work(), which clc_run_command calls */

/* Builds the kernel once on the first API to report what does not fit the pattern: a missing
 * kernel, a parameter count, a declared shape other than --local, a work-group too large. */
static int check_kernel(struct clc_session *s, const struct setup *su, const char *name)
{
    struct clc_backend *be = s->be[0];
    struct clc_kernel *k = NULL;
    struct clc_kernel_info ki;
    char opts[256];
    int rc = CLC_ERR;
    snprintf(opts, sizeof opts, "-DT=float -DCLC_ITEMS=%u -DCLC_LOCAL_X=%zu -DCLC_LOCAL_Y=%zu",
             su->items, su->local[0], su->local[1] ? su->local[1] : 1);
    if (be->ops->build(be, su->path, opts, name, &k) != CLC_OK ||
        be->ops->kernel_info(be, k, &ki) != CLC_OK)
        goto done;
    if (ki.nargs >= 0 && ki.nargs != (int)su->p->nargs) {
        clc_error("kernel '%s' in %s takes %d parameters; the %s pattern passes %u: %s", name,
                  the_args->kernel_file, ki.nargs, su->p->name, su->p->nargs, su->p->signature);
        goto done;
    }
    size_t ly = su->local[1] ? su->local[1] : 1;
    if (ki.reqd[0] != 0 && (ki.reqd[0] != su->local[0] || ki.reqd[1] != ly || ki.reqd[2] != 1)) {
        clc_error("--local %zux%zu: kernel '%s' declares reqd_work_group_size(%zu, %zu, %zu)",
                  su->local[0], ly, name, ki.reqd[0], ki.reqd[1], ki.reqd[2]);
        goto done;
    }
    if (su->local[0] * ly > ki.max_group) {
        clc_error("--local: work-groups of %zu work-items; kernel '%s' allows %zu here",
                  su->local[0] * ly, name, ki.max_group);
        goto done;
    }
    rc = CLC_OK;
done:
    clc_release_kernel(be, k);
    return rc;
}

/* The kernel file as a path the run can read as often as it builds: file's own (made
 * absolute) when it is a regular file, else (a pipe, /dev/stdin, <(...)) a temporary copy of
 * what it holds, read once, whose path *copy says to remove.  CLC_OK, or CLC_ERR after a
 * message. */
static int kernel_source(const char *file, char *path, size_t len, bool *copy)
{
    struct stat st;
    *copy = false;
    if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
        char real[PATH_MAX];
        if (realpath(file, real) == NULL) {
            clc_error("cannot read kernel file '%s': %s", file, strerror(errno));
            return CLC_ERR;
        }
        snprintf(path, len, "%s", real);
        return CLC_OK;
    }
    size_t n = 0;
    char *src = clc_read_kernel_file(file, &n); /* says what is wrong */
    if (src == NULL)
        return CLC_ERR;
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "%s/clcoalesce-kernel-XXXXXX.cl", tmp != NULL && *tmp ? tmp : "/tmp");
    int fd = mkostemps(path, 3, O_CLOEXEC);
    bool ok = fd >= 0 && write(fd, src, n) == (ssize_t)n;
    int e = errno;
    free(src);
    if (fd >= 0 && close(fd) != 0 && ok)
        ok = false, e = errno;
    if (!ok) {
        clc_error("cannot copy kernel file '%s' to %s: %s", file, path, strerror(e));
        if (fd >= 0)
            unlink(path);
        return CLC_ERR;
    }
    *copy = true;
    return CLC_OK;
}

static int work_on(const struct clc_run_args *ra, struct clc_report *rep, const char *path);

/* clc_run_command's work: the kernel file made readable as a path (kernel_source), then
 * work_on; a temporary copy is removed afterwards. */
static int work(const struct clc_run_args *ra, struct clc_report *rep)
{
    char path[PATH_MAX];
    bool copy;
    if (kernel_source(the_args->kernel_file, path, sizeof path, &copy) != CLC_OK)
        return CLC_ERR;
    int rc = work_on(ra, rep, path);
    if (copy)
        unlink(path);
    return rc;
}

/* Checks, runs, ranks and explains the user's kernel read from `path`. */
static int work_on(const struct clc_run_args *ra, struct clc_report *rep, const char *path)
{
    const struct custom_args *a = the_args;
    const struct pattern *pt = find_pattern(a->pattern);
    struct setup su = {pt, {pt->local[0], pt->local[1]}, a->items ? a->items : pt->items, NULL,
                       NULL};
    if (a->local[0] != 0) {
        su.local[0] = a->local[0];
        su.local[1] = pt->kind == TRANSPOSE ? a->local[1] : 0;
    }
    if (pt->kind != TRANSPOSE)
        su.local[1] = 0;
    char *src = clc_read_kernel_file(path, NULL);
    if (src == NULL)
        return CLC_ERR;
    su.path = path;
    su.missing = trace_missing(src);
    free(src);

    struct clc_opts o = ra->opts;
    if (su.missing != NULL)
        o.model = false;
    struct clc_variant variant = {.name = a->kernel_name, .kernel = a->kernel_name, .plan = plan,
                                  .data = &su};
    struct clc_case mine = {.name = "custom", .cl_file = path, .types = CLC_FLOAT,
                            .alloc_factor = 1, .min_elems = 1, .variants = &variant,
                            .n_variants = 1};
    const struct clc_case *cases[4] = {&mine};
    size_t ncases = 1;
    for (int c = 0; c < 3 && pt->compare[c]; c++)
        cases[ncases++] = clc_find_case(pt->compare[c]);
    bool known = o.variant == NULL;
    for (size_t c = 1; c < ncases && !known; c++)
        known = clc_find_variant(cases[c], o.variant) != NULL;
    if (!known) {
        clc_error("no variant '%s' among the built-in variants the %s pattern is ranked with; "
                  "'clcoalesce cases' lists them", o.variant, pt->name);
        return CLC_USAGE;
    }
    int rc = clc_check_sizes(&o, cases, 1);
    if (rc != CLC_OK)
        return rc;

    struct clc_session s;
    rc = clc_session_open(&s, &o, rep, clc_run_table(ra->format, ra->output));
    if (rc != CLC_OK)
        goto done;
    rc = clc_session_load_profile(&s, cases, ncases);
    if (rc != CLC_OK)
        goto done;
    s.custom_kernel = a->kernel_name;
    rc = CLC_ERR;
    if (check_kernel(&s, &su, a->kernel_name) != CLC_OK)
        goto done;
    if (su.missing == NULL) {
        /* the checked run, at a small size, before any unchecked launch */
        struct clc_traced tr;
        uint64_t small = (uint64_t)1 << 20;
        int trc = clc_session_trace(&s, &mine, &variant, 0, CLC_FLOAT, small, &tr);
        if (trc == CLC_OK && tr.fault.count > 0) {
            char msg[320];
            clc_fault_message(&tr.plan, a->kernel_name, &tr.fault, msg, sizeof msg);
            clc_error("%s (found by the checked run at 1 MiB, before any unchecked launch)", msg);
        }
        bool bad = trc != CLC_OK || tr.fault.count > 0;
        clc_traced_free(&tr);
        if (bad)
            goto done;
    } else {
        clc_note("the checked run needs CLC_TRACE_ARGS, CLC_TRACE_BEGIN and LOAD / STORE (%s): "
                 "your kernel runs unchecked", su.missing);
    }
    size_t first = rep->n_results;
    /* a wrong or failed kernel is not ranked: the built-in ones run only after it verified;
     * --variant picks among the built-in variants, the user's kernel runs whatever it says */
    struct clc_opts all = o;
    all.variant = NULL;
    s.o = &all;
    rc = clc_session_run(&s, cases, 1);
    s.o = &o;
    if (rc != CLC_OK)
        goto done;
    s.custom_kernel = NULL;
    rc = clc_session_run(&s, cases + 1, ncases - 1);
    if (rc == CLC_OK)
        clc_session_predict_end(&s);
    FILE *f = s.table != NULL ? s.table : clc_quiet ? NULL : stderr;
    if (f != NULL) {
        uint64_t size = rep->n_results > first ? rep->results[first].size : 0;
        print_ranking(f, rep, first, a->kernel_name, pt, size);
        print_why(f, &s, rep, first);
    }
done:
    clc_session_close(&s);
    return rc;
}

/* ------------------------------------------------------------------ a child on a CPU */

/* True when the run's device is a CPU, so the work runs in a child process. */
static bool on_cpu(const struct clc_opts *o)
{
    if (o->apis != 0 && !(o->apis & (1u << CLC_API_OPENCL)))
        return false;
    struct clc_device *list;
    int n;
    if (clc_backend_ops(CLC_API_OPENCL)->devices(&list, &n, true) != CLC_OK)
        return false;
    bool cpu = false;
    bool q = clc_quiet;
    clc_quiet = true;
    int i = clc_select_device(list, n, o->device);
    clc_quiet = q;
    if (i >= 0)
        cpu = list[i].cpu;
    free(list);
    return cpu;
}

/* Runs this command again in a child process and waits for it: a crash of the user's kernel
 * takes the child down, and is reported here.  Returns the exit code. */
static int run_in_child(int argc, char **argv, const char *kernel)
{
    char **args = calloc((size_t)argc + 2, sizeof *args);
    char mark[64];
    snprintf(mark, sizeof mark, "%s=%ld", CHILD_ENV, (long)getpid());
    const char *const env_add[] = {mark, NULL};
    if (args == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    args[0] = (char *)clc_self_exe;
    args[1] = (char *)"custom";
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    pid_t pid;
    int err = clc_spawn_child(args, env_add, NULL, &pid);
    free(args);
    if (err != 0) {
        clc_error("cannot start '%s' for the run: %s", clc_self_exe, strerror(err));
        return CLC_ERR;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return CLC_ERR;
    clc_child_ended(pid);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    int sig = WTERMSIG(status);
    clc_end_like(sig);
    clc_error("your kernel '%s' crashed the process that ran it (signal %d, %s): it most likely "
              "accessed memory outside its buffers in a way the checked run did not see (an "
              "access not made through LOAD / STORE, or one that only happens at the full "
              "size); nothing was written", kernel, sig, strsignal(sig));
    return CLC_ERR;
}

int clc_cmd_custom(int argc, char **argv)
{
    struct custom_args a;
    int rc = clc_parse_custom_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.run.help) {
        fputs(help_text, stdout);
        return CLC_OK;
    }
    const char *child = getenv(CHILD_ENV);
    if (child != NULL && *child != '\0')
        clc_follow_parent(strtol(child, NULL, 10));
    else if (clc_self_exe != NULL && on_cpu(&a.run.opts)) {
        if (a.run.output != NULL && clc_output_check(a.run.output) != CLC_OK)
            return CLC_ERR;
        return run_in_child(argc, argv, a.kernel_name);
    }
    the_args = &a;
    rc = clc_run_command(&a.run, work);
    the_args = NULL;
    return rc;
}
