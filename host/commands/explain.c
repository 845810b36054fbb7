/* explain.c - `explain`: runs one variant of a case at the quick size with the access model,
 * then shows its kernel source, a picture of one warp's first load and store requests, the
 * predicted sectors per request and, given a result file, the measured fraction of the copy
 * ceiling beside the prediction.  `ptx`: the PTX the NVIDIA driver made of a case's kernels,
 * with the global loads and stores picked out. */
#define _GNU_SOURCE
#include "clcoalesce/explain.h"

#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cases.h"
#include "clcoalesce/model.h"

static const char explain_usage[] =
    "usage: clcoalesce explain CASE [--variant V] [--param P] [--type T] [--results FILE]\n"
    "                          [--device SEL] [--kernel-dir DIR]\n"
    "Runs CASE at the quick size with the access model and shows the variant's kernel, one\n"
    "warp's first load and store requests sector by sector, and the predicted sectors per\n"
    "request.  --results FILE (from 'run -f json') adds the measured GB/s of the same row as\n"
    "a fraction of that file's copy ceiling.  Default: the first modelled variant, the first\n"
    "param, float when the case has it.\n";

static const char ptx_usage[] =
    "usage: clcoalesce ptx CASE [--variant V] [--type T] [--verbose | --raw] [--device SEL]\n"
    "                      [--kernel-dir DIR]\n"
    "Builds CASE's kernel file for the device and prints the PTX (NVIDIA's OpenCL driver\n"
    "only), counting the global loads and stores by width and marking them '>>'.  With\n"
    "--variant, only the kernel that variant launches, built with its options.  --verbose\n"
    "adds -cl-nv-verbose and prints the register and spill lines of the build log.  --raw\n"
    "prints the whole module as the driver returned it, nothing added, for NVIDIA's own\n"
    "tools: clcoalesce ptx CASE --raw > k.ptx; ptxas -arch=sm_90 -v k.ptx -o k.cubin;\n"
    "cuobjdump -sass k.cubin.\n";

static void usage_error(const char *msg, const char *arg)
{
    clc_usage_error("clcoalesce", "'clcoalesce explain --help' or 'clcoalesce ptx --help'",
                    msg, arg);
}

/* ------------------------------------------------------------------ kernel source */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* True when the identifier ending just before `end` is `word`; *start gets its start. */
static bool word_before(const char *src, const char *end, const char *word, const char **start)
{
    const char *p = end;
    while (p > src && isspace((unsigned char)p[-1]))
        p--;
    size_t n = strlen(word);
    if ((size_t)(p - src) < n || strncmp(p - n, word, n) != 0)
        return false;
    if (p - n > src && ident_char(p[-n - 1]))
        return false;
    *start = p - n;
    return true;
}

/* Skips a comment or string literal starting at p; returns p unchanged if none starts there. */
static const char *skip_literal(const char *p)
{
    if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        return e ? e + 2 : p + strlen(p);
    }
    if (p[0] == '/' && p[1] == '/') {
        const char *e = strchr(p, '\n');
        return e ? e : p + strlen(p);
    }
    if (p[0] == '"' || p[0] == '\'') {
        char q = p[0];
        for (p++; *p && *p != q; p++)
            if (*p == '\\' && p[1])
                p++;
        return *p ? p + 1 : p;
    }
    return p;
}

static const char *line_start(const char *src, const char *p)
{
    while (p > src && p[-1] != '\n')
        p--;
    return p;
}

/* Extends `start` (a line start) upwards over the comment block right above it. */
static const char *comment_above(const char *src, const char *start)
{
    for (;;) {
        if (start == src)
            return start;
        const char *prev = line_start(src, start - 1);
        const char *s = prev, *e = start - 1;
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (e - s >= 2 && s[0] == '/' && s[1] == '/') {
            start = prev;
            continue;
        }
        if (e - s >= 2 && e[-2] == '*' && e[-1] == '/') {
            /* walk up to the line that opens this comment */
            const char *open = prev;
            while (open > src) {
                const char *q = open;
                while (*q == ' ' || *q == '\t')
                    q++;
                if (strncmp(q, "/*", 2) == 0)
                    break;
                open = line_start(src, open - 1);
            }
            return open;
        }
        return start;
    }
}

bool clc_print_kernel_source(FILE *f, const char *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(src, name); p != NULL; p = strstr(p + 1, name)) {
        if ((p > src && ident_char(p[-1])) || ident_char(p[n]))
            continue;
        const char *q = p + n;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(')
            continue;
        const char *v, *k;
        if (!word_before(src, p, "void", &v) ||
            !(word_before(src, v, "__kernel", &k) || word_before(src, v, "kernel", &k)))
            continue;
        /* the body: the first '{' after the parameters, to its matching '}' */
        const char *b = q;
        int depth = 0;
        bool opened = false;
        while (*b) {
            const char *s = skip_literal(b);
            if (s != b) {
                b = s;
                continue;
            }
            if (*b == '{') {
                depth++;
                opened = true;
            } else if (*b == '}' && --depth == 0 && opened) {
                b++;
                break;
            }
            b++;
        }
        const char *start = comment_above(src, line_start(src, k));
        const char *end = strchr(b, '\n');
        end = end ? end : b + strlen(b);
        for (const char *l = start; l < end;) {
            const char *nl = memchr(l, '\n', (size_t)(end - l));
            const char *le = nl ? nl : end;
            fprintf(f, "  %.*s\n", (int)(le - l), l);
            l = nl ? nl + 1 : end;
        }
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------ shared options */

struct insp_args {
    const char *case_name;
    const char *variant;
    bool has_param;
    long param;
    enum clc_type type;
    bool type_given;
    const char *results;
    const char *device;
    const char *kernel_dir;
    bool verbose;
    bool raw;
    bool help;
};

enum { OPT_VARIANT = 300, OPT_PARAM, OPT_RESULTS, OPT_VERBOSE, OPT_RAW, OPT_TYPE };

/* Parses explain's (ptx false) or ptx's (ptx true) arguments. */
static int parse_args(int argc, char **argv, bool ptx, struct insp_args *a)
{
    static const struct option explain_opts[] = {
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"param", required_argument, NULL, OPT_PARAM},
        {"type", required_argument, NULL, 't'},
        {"results", required_argument, NULL, OPT_RESULTS},
        {"device", required_argument, NULL, 'd'},
        {"kernel-dir", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static const struct option ptx_opts[] = {
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"type", required_argument, NULL, 't'},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"raw", no_argument, NULL, OPT_RAW},
        {"device", required_argument, NULL, 'd'},
        {"kernel-dir", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(a, 0, sizeof *a);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":t:d:k:h", ptx ? ptx_opts : explain_opts, NULL)) != -1) {
        switch (c) {
        case OPT_VARIANT: a->variant = optarg; break;
        case OPT_PARAM: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0') {
                usage_error("--param takes a whole number, not", optarg);
                return CLC_USAGE;
            }
            a->has_param = true;
            a->param = v;
            break;
        }
        case 't': {
            unsigned mask;
            if (clc_parse_type(optarg, &mask) != CLC_OK || (mask != CLC_FLOAT && mask != CLC_DOUBLE)) {
                usage_error("--type takes float or double, not", optarg);
                return CLC_USAGE;
            }
            a->type = (enum clc_type)mask;
            a->type_given = true;
            break;
        }
        case OPT_RESULTS: a->results = optarg; break;
        case OPT_VERBOSE: a->verbose = true; break;
        case OPT_RAW: a->raw = true; break;
        case 'd': a->device = optarg; break;
        case 'k': a->kernel_dir = optarg; break;
        case 'h': a->help = true; return CLC_OK;
        case ':': usage_error("option needs a value:", argv[optind - 1]); return CLC_USAGE;
        default: usage_error("unknown option", argv[optind - 1]); return CLC_USAGE;
        }
    }
    if (a->verbose && a->raw) {
        usage_error("--verbose and --raw do not go together", NULL);
        return CLC_USAGE;
    }
    if (optind >= argc) {
        usage_error("name a case; 'clcoalesce cases' lists them", NULL);
        return CLC_USAGE;
    }
    if (optind + 1 < argc) {
        usage_error("one case at a time; unexpected argument", argv[optind + 1]);
        return CLC_USAGE;
    }
    a->case_name = argv[optind];
    const struct clc_case *cs = clc_find_case(a->case_name);
    if (cs == NULL) {
        clc_error("unknown case '%s'; 'clcoalesce cases' lists them", a->case_name);
        return CLC_USAGE;
    }
    if (!a->type_given)
        a->type = cs->types & CLC_FLOAT ? CLC_FLOAT : CLC_DOUBLE;
    else if (!(cs->types & a->type)) {
        clc_error("case '%s' does not run in %s", a->case_name, clc_type_name(a->type));
        return CLC_USAGE;
    }
    return CLC_OK;
}

/* ------------------------------------------------------------------ capturing a row */

/* The first modelled row that matches the request, kept with its trace. */
struct capture {
    const struct insp_args *want;
    bool got;
    struct clc_result r;
    char file[256], options[512], kernel[128];
    struct clc_trace tr;
    uint64_t *words;
};

static void capture_hook(void *arg, const struct clc_result *r, const char *cl_file,
                         const char *options, const char *kernel, const struct clc_trace *tr)
{
    struct capture *c = arg;
    if (c->got || (c->want->has_param && !(r->has_param && r->param == c->want->param)))
        return;
    size_t n = tr->n_items * 2 * (size_t)tr->slots;
    c->words = malloc(n * sizeof *c->words);
    if (c->words == NULL)
        return;
    memcpy(c->words, tr->words, n * sizeof *c->words);
    c->tr = *tr;
    c->tr.words = c->words;
    c->r = *r;
    snprintf(c->file, sizeof c->file, "%s", cl_file);
    snprintf(c->options, sizeof c->options, "%s", options);
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel);
    c->got = true;
}

/* Runs the case at the quick size, one rep, model on, capturing the wanted row. */
static int run_captured(const struct insp_args *a, struct capture *c, struct clc_report *rep)
{
    struct clc_opts o;
    clc_opts_defaults(&o);
    o.quick = true;
    o.reps = 1;
    o.warmup = 0;
    o.types = a->type;
    o.types_given = true;
    o.variant = a->variant;
    o.device = a->device;
    o.kernel_dir = a->kernel_dir;
    o.model = true;
    o.model_hook = capture_hook;
    o.model_hook_arg = c;
    memset(c, 0, sizeof *c);
    c->want = a;
    const char *names[] = {a->case_name};
    clc_report_init(rep, "opencl");
    bool quiet = clc_quiet;
    clc_quiet = true; /* the device and ceiling notes would only clutter the explanation */
    int rc = clc_run(&o, names, 1, rep, NULL);
    clc_quiet = quiet;
    return rc;
}

/* Says why no row was captured. */
static void explain_nothing(const struct insp_args *a, const struct clc_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (a->has_param && !(r->has_param && r->param == a->param))
            continue;
        if (r->status == CLC_STATUS_OK && strstr(r->note, "model:") != NULL) {
            clc_error("%s/%s: no model: %s", r->case_name, r->variant, strstr(r->note, "model:") + 7);
            return;
        }
    }
    if (a->has_param)
        clc_error("no modelled row of '%s'%s%s with param %ld", a->case_name,
                  a->variant ? " variant " : "", a->variant ? a->variant : "", a->param);
    else if (a->variant)
        clc_error("variant '%s' of '%s' gave no modelled row (unknown variant, or it launches "
                  "no kernel of its own with a fixed work-group size)", a->variant, a->case_name);
    else
        clc_error("no variant of '%s' launches a kernel the model can trace", a->case_name);
}

/* ------------------------------------------------------------------ explain */

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

static void print_measured(const struct insp_args *a, const struct clc_result *mine)
{
    struct clc_report file;
    if (clc_read_json(a->results, &file) != CLC_OK)
        return;
    const struct clc_result *m = NULL;
    for (size_t i = 0; i < file.n_results && m == NULL; i++) {
        const struct clc_result *r = &file.results[i];
        if (strcmp(r->case_name, mine->case_name) == 0 && strcmp(r->variant, mine->variant) == 0 &&
            r->type == mine->type && r->has_param == mine->has_param &&
            (!r->has_param || r->param == mine->param))
            m = r;
    }
    printf("\nmeasured (%s, %s):\n", a->results, file.device.name[0] ? file.device.name : "?");
    if (m == NULL || m->status != CLC_STATUS_OK || isnan(m->gbps)) {
        printf("  no verified row of this variant in the file\n");
    } else {
        double ceil = file.device.copy_gbps;
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
}

int clc_cmd_explain(int argc, char **argv)
{
    struct insp_args a;
    int rc = parse_args(argc, argv, false, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(explain_usage, stdout);
        return CLC_OK;
    }
    struct capture c;
    struct clc_report rep;
    rc = run_captured(&a, &c, &rep);
    if (rc != CLC_OK)
        goto done;
    if (!c.got) {
        explain_nothing(&a, &rep);
        rc = CLC_ERR;
        goto done;
    }
    const struct clc_result *r = &c.r;
    char param[32] = "";
    if (r->has_param)
        snprintf(param, sizeof param, ", param %ld", r->param);
    printf("%s / %s (%s%s): kernel %s in %s\n", r->case_name, r->variant,
           clc_type_name(r->type), param, c.kernel, c.file);
    printf("device: %s; options: %s\n", rep.device.name, c.options);

    char dir[4096], path[8192];
    char *src = NULL;
    if (clc_find_kernel_dir(a.kernel_dir, dir, sizeof dir) == CLC_OK) {
        snprintf(path, sizeof path, "%s/%s", dir, c.file);
        src = clc_read_text(path, NULL);
    }
    printf("\nsource:\n");
    if (src == NULL || !clc_print_kernel_source(stdout, src, c.kernel))
        printf("  (kernel %s not found in %s)\n", c.kernel, c.file);
    free(src);

    struct clc_model m;
    clc_model_analyse(&c.tr, &m);
    size_t warps = clc_model_warps(&c.tr);
    struct clc_model_request *rq = malloc(sizeof *rq);
    if (rq == NULL) {
        rc = CLC_ERR;
        goto done;
    }
    for (int dir_ = 0; dir_ < 2; dir_++) {
        bool store = dir_ == 1;
        /* the first warp that makes such a request: warp 0 may be idle past a guard */
        size_t w = 0;
        while (w < warps && !clc_model_first_request(&c.tr, w, store, rq))
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

    printf("\nprediction (%zu warps of %u lanes traced):\n", m.warps, c.tr.warp);
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
    if (a.results != NULL)
        print_measured(&a, r);
done:
    free(c.words);
    clc_report_free(&rep);
    return rc;
}

/* ------------------------------------------------------------------ ptx */

/* The instruction of a PTX line, past an optional predicate: "ld.global.nc.f32" etc. */
static bool global_op(const char *line, size_t len, char *op, size_t oplen)
{
    const char *p = line, *end = line + len;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p < end && *p == '@') {
        while (p < end && !isspace((unsigned char)*p))
            p++;
        while (p < end && isspace((unsigned char)*p))
            p++;
    }
    static const char *const prefixes[] = {"ld.global", "st.global", "atom.global", "red.global"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if ((size_t)(end - p) >= n && strncmp(p, prefixes[i], n) == 0) {
            const char *e = p;
            while (e < end && !isspace((unsigned char)*e))
                e++;
            snprintf(op, oplen, "%.*s", (int)(e - p), p);
            return true;
        }
    }
    return false;
}

/* The entry a line declares (".entry name("), copied into name; false if none. */
static bool entry_name(const char *line, size_t len, char *name, size_t nlen)
{
    const char *e = memmem(line, len, ".entry ", 7);
    if (e == NULL)
        return false;
    const char *p = e + 7, *end = line + len, *q = p;
    while (q < end && (ident_char(*q) || *q == '$'))
        q++;
    snprintf(name, nlen, "%.*s", (int)(q - p), p);
    return true;
}

struct op_count {
    char entry[128];
    char op[48];
    int n;
};

/* Prints the PTX: the count of global loads and stores per entry and instruction, then the
 * text with those lines marked.  only: print just that entry (NULL: all). */
static void print_ptx(const char *ptx, const char *only)
{
    struct op_count counts[256];
    int nc = 0;
    char entry[128] = "", op[48];
    for (const char *l = ptx; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (entry_name(l, len, entry, sizeof entry)) {
        } else if (global_op(l, len, op, sizeof op) && (only == NULL || strcmp(entry, only) == 0)) {
            int i = 0;
            while (i < nc && !(strcmp(counts[i].entry, entry) == 0 && strcmp(counts[i].op, op) == 0))
                i++;
            if (i == nc && nc < (int)(sizeof counts / sizeof counts[0])) {
                snprintf(counts[nc].entry, sizeof counts[nc].entry, "%s", entry);
                snprintf(counts[nc].op, sizeof counts[nc].op, "%s", op);
                counts[nc++].n = 0;
            }
            if (i < nc)
                counts[i].n++;
        }
        l = nl ? nl + 1 : l + len;
    }
    printf("global memory instructions (static count in the PTX; '>>' marks them below):\n");
    if (nc == 0)
        printf("  none\n");
    for (int i = 0; i < nc; i++) {
        if (i == 0 || strcmp(counts[i].entry, counts[i - 1].entry) != 0)
            printf("  %s:\n", counts[i].entry);
        printf("    %-28s %d\n", counts[i].op, counts[i].n);
    }
    printf("\n");
    bool in = only == NULL;
    entry[0] = '\0';
    for (const char *l = ptx; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (only != NULL && entry_name(l, len, entry, sizeof entry))
            in = strcmp(entry, only) == 0;
        if (in)
            printf("%s%.*s\n", global_op(l, len, op, sizeof op) ? ">> " : "   ", (int)len, l);
        /* an entry's body ends with a "}" in the first column */
        if (only != NULL && in && len >= 1 && l[0] == '}')
            in = false;
        l = nl ? nl + 1 : l + len;
    }
}

/* Prints the build log lines about registers, spills and stack. */
static void print_verbose_log(struct clc_ctx *ctx, cl_program prog)
{
    size_t n = 0;
    clGetProgramBuildInfo(prog, ctx->dev.id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(n + 1, 1);
    if (log != NULL)
        clGetProgramBuildInfo(prog, ctx->dev.id, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    printf("\nbuild log (-cl-nv-verbose): registers, spills, stack:\n");
    int shown = 0;
    for (const char *l = log ? log : ""; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (memmem(l, len, "register", 8) || memmem(l, len, "spill", 5) ||
            memmem(l, len, "stack", 5) || memmem(l, len, "Compiling", 9) ||
            memmem(l, len, "Function properties", 19)) {
            printf("  %.*s\n", (int)len, l);
            shown++;
        }
        l = nl ? nl + 1 : l + len;
    }
    if (shown == 0)
        printf("  (nothing: a build served from the driver's compile cache logs nothing; "
               "run again with CUDA_CACHE_DISABLE=1)\n");
    free(log);
}

/* Builds `file` with `options` (and -cl-nv-verbose when verbose) and returns its binary as
 * text in *out (free it) and the program in *prog (the context's cache owns it). */
static int build_binary(struct clc_ctx *ctx, const char *file, const char *options, bool verbose,
                        char **out, cl_program *prog_out)
{
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%s", options, verbose ? " -cl-nv-verbose" : "");
    cl_program prog;
    if (clc_build(ctx, file, opts, &prog) != CLC_OK)
        return CLC_ERR;
    size_t size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS)
        size = 0;
    char *bin = calloc(size + 1, 1);
    if (bin == NULL)
        return CLC_ERR;
    unsigned char *bins[] = {(unsigned char *)bin};
    if (size > 0 && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS)
        size = 0;
    /* only the text up to the first NUL counts: an ELF has one early */
    bin[size] = '\0';
    *out = bin;
    *prog_out = prog;
    return CLC_OK;
}

int clc_cmd_ptx(int argc, char **argv)
{
    struct insp_args a;
    int rc = parse_args(argc, argv, true, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(ptx_usage, stdout);
        return CLC_OK;
    }
    const struct clc_case *cs = clc_find_case(a.case_name);
    struct clc_device *devs = NULL;
    struct clc_ctx ctx;
    bool open = false;
    char dir[4096], *bin = NULL;
    struct capture cap = {0};
    struct clc_report rep;
    bool have_rep = false;
    memset(&ctx, 0, sizeof ctx);
    int ndev;
    rc = CLC_ERR;
    if (clc_devices(&devs, &ndev) != CLC_OK)
        goto done;
    int di = clc_select_device(devs, ndev, a.device);
    if (di < 0) {
        rc = CLC_USAGE;
        goto done;
    }
    if (a.type == CLC_DOUBLE && !devs[di].fp64) {
        clc_error("device '%s' has no cl_khr_fp64", devs[di].meta.name);
        goto done;
    }
    if (clc_find_kernel_dir(a.kernel_dir, dir, sizeof dir) != CLC_OK ||
        clc_ctx_open(&ctx, &devs[di], dir) != CLC_OK)
        goto done;
    open = true;
    const char *tdef = a.type == CLC_DOUBLE ? "-DT=double -DCLC_FP64=1" : "-DT=float";
    /* First: does this driver give PTX at all? */
    cl_program prog;
    if (build_binary(&ctx, cs->cl_file, tdef, false, &bin, &prog) != CLC_OK)
        goto done;
    if (strstr(bin, ".target") == NULL) {
        clc_error("device %s returned no PTX (only NVIDIA's OpenCL driver does)",
                  devs[di].meta.name);
        goto done;
    }
    const char *file = cs->cl_file, *options = tdef, *only = NULL;
    if (a.variant != NULL) {
        /* the variant's kernel and build options are known only once it has launched */
        have_rep = true;
        if (run_captured(&a, &cap, &rep) != CLC_OK)
            goto done;
        if (!cap.got) {
            explain_nothing(&a, &rep);
            goto done;
        }
        file = cap.file;
        options = cap.options;
        only = cap.kernel;
    }
    if (a.variant != NULL || a.verbose) {
        free(bin);
        bin = NULL;
        if (build_binary(&ctx, file, options, a.verbose, &bin, &prog) != CLC_OK)
            goto done;
    }
    if (a.raw) {
        fputs(bin, stdout);
        rc = CLC_OK;
        goto done;
    }
    printf("\n%s (%s) on %s, options: %s%s%s\n\n", file, clc_type_name(a.type), devs[di].meta.name,
           options, only ? "; kernel " : "", only ? only : "");
    print_ptx(bin, only);
    if (a.verbose)
        print_verbose_log(&ctx, prog);
    rc = CLC_OK;
done:
    free(bin);
    free(cap.words);
    if (have_rep)
        clc_report_free(&rep);
    if (open)
        clc_ctx_close(&ctx);
    free(devs);
    return rc;
}
