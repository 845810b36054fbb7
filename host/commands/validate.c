/* validate.c - `clcoalesce validate`: every kernel of a manifest (by default the held-out set
 * in bench/validation/kernels.tsv) checked, verified, timed and predicted through the path
 * `custom` takes for one kernel (clc_custom_measure), then measured against predicted GB/s
 * kernel by kernel and scored per split (dev, test) and overall.
 *
 * The manifest: tab-separated, lines starting with '#' ignored, a header line naming the
 * columns file, kernel, pattern, local, items, family and split (in any order, others
 * ignored); file is relative to the manifest's folder.  A kernel that fails (file, build,
 * checked run, wrong result) is a row with status failed and makes the exit status 1; the
 * others still run and the score counts it among the kernels of its split. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/custom.h"
#include "clcoalesce/outfile.h"

#define PROG "clcoalesce"
#define HELP "'clcoalesce validate --help'"
#define DEFAULT_MANIFEST "bench/validation/kernels.tsv"
#define MAX_ROWS 1024

static const char help_text[] =
    "usage: clcoalesce validate [--manifest FILE] [--split dev|test|all] [--family F]\n"
    "                           [--profile FILE] [run options]\n"
    "\n"
    "Runs every kernel of the manifest (default " DEFAULT_MANIFEST ", from the\n"
    "source tree's root) as 'clcoalesce custom' runs one: built, checked in its trace build,\n"
    "verified against its pattern's reference, timed, modelled and predicted from the device\n"
    "profile (--profile FILE, else the one the device keeps from 'clcoalesce profile'),\n"
    "without custom's ranking against the built-in variants.  It prints one line per\n"
    "kernel and API: kernel, family, split, measured GB/s, predicted GB/s, residual\n"
    "(measured / predicted - 1), the bound that binds and the status; then per split and\n"
    "overall: the kernels predicted within +-10 % and +-20 %, the mean absolute residual\n"
    "and the geometric mean of measured / predicted.  Without a profile it still measures,\n"
    "and says that predictions need 'clcoalesce profile'.\n"
    "\n"
    "options:\n"
    "  --manifest FILE   the kernels: tab-separated columns file, kernel, pattern, local,\n"
    "                    items, family, split (a header line names them; '#' lines are\n"
    "                    comments; file is relative to the manifest's folder)\n"
    "  --split S         dev, test or all (default all)\n"
    "  --family F        only the kernels of family F\n"
    "  --profile FILE    the device profile the predictions read\n"
    "  run options: --device, --api opencl|cuda|both, --size, --reps, --warmup, --quick,\n"
    "  --timeout, --no-model, --quiet, -f table|json, -o FILE ('clcoalesce --help')\n"
    "\n"
    "exit status: 0 every kernel verified; 1 a kernel failed (its row says so; the report\n"
    "  is still written, with the failure counted), or the manifest cannot be read; 2 for\n"
    "  bad options.\n";

/* ------------------------------------------------------------------ options */

struct validate_args {
    struct clc_run_args run;
    const char *manifest; /* --manifest */
    const char *split;    /* --split: "dev", "test" or NULL for all */
    const char *family;   /* --family, NULL for all */
};

/* validate's own options; the run options it shares with run, custom and profile
 * (--api, --timeout, --profile, --no-model, --progress ...) come from clc_tool_options, after
 * whose codes these start. */
enum {
    OPT_MANIFEST = CLC_RUN_CMD_OPT,
    OPT_SPLIT,
    OPT_FAMILY,
};

static const struct option own_options[] = {
    {"manifest", required_argument, NULL, OPT_MANIFEST},
    {"split", required_argument, NULL, OPT_SPLIT},
    {"family", required_argument, NULL, OPT_FAMILY},
    {NULL, 0, NULL, 0},
};

/* value, or a usage error naming opt when it is empty. */
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
    struct validate_args *a = cli->own_arg;
    switch (c) {
    case OPT_MANIFEST: return nonempty("--manifest takes a file, not", value, &a->manifest);
    case OPT_SPLIT:
        if (strcmp(value, "dev") != 0 && strcmp(value, "test") != 0 &&
            strcmp(value, "all") != 0) {
            clc_usage_error(PROG, HELP, "--split takes dev, test or all, not", value);
            return CLC_USAGE;
        }
        a->split = strcmp(value, "all") == 0 ? NULL : value;
        break;
    case OPT_FAMILY: return nonempty("--family takes a family name, not", value, &a->family);
    default: return clc_parse_tool_option(cli, &a->run, c, value);
    }
    return CLC_OK;
}

static bool no_case(const char *name)
{
    (void)name;
    return false;
}

/* Parses `validate`'s arguments.  Returns CLC_OK or CLC_USAGE after a message. */
static int parse_args(int argc, char **argv, struct validate_args *a)
{
    const struct clc_run_cli cli = {PROG,        HELP, CLC_RUN_COLD, clc_tool_options,
                                    own_options, NULL, parse_own,    a,
                                    no_case};
    memset(a, 0, sizeof *a);
    clc_opts_defaults(&a->run.opts);
    a->run.opts.compiler = clc_self_exe;
    a->manifest = DEFAULT_MANIFEST;
    int rc = clc_parse_tool_args(argc, argv, &cli, &a->run);
    if (rc != CLC_OK || a->run.help)
        return rc;
    if (a->run.format == CLC_FMT_CSV) {
        clc_error("validate writes a table or JSON (-f table|json), not CSV");
        return CLC_USAGE;
    }
    if (a->run.opts.types_given && !(a->run.opts.types & CLC_FLOAT)) {
        clc_error("validate runs in float only (--type)");
        return CLC_USAGE;
    }
    if (a->run.opts.variant != NULL) {
        clc_error("validate runs the manifest's kernels: --variant has nothing to pick");
        return CLC_USAGE;
    }
    a->run.opts.types = CLC_FLOAT;
    return CLC_OK;
}

/* ------------------------------------------------------------------ the manifest */

enum { COL_FILE, COL_KERNEL, COL_PATTERN, COL_LOCAL, COL_ITEMS, COL_FAMILY, COL_SPLIT, NCOLS };
static const char *const col_names[NCOLS] = {"file", "kernel", "pattern", "local",
                                             "items", "family", "split"};

/* One kernel of the manifest. */
struct entry {
    char *field[NCOLS];         /* the manifest's text, owned */
    char path[PATH_MAX];        /* file, relative to the manifest's folder */
    struct clc_custom_kernel k; /* what clc_custom_measure takes */
};

/* Splits line (changed in place) at tabs into at most max fields.  Returns the count. */
static int split_tabs(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max; p++) {
        f[n++] = p;
        p = strchr(p, '\t');
        if (p == NULL)
            break;
        *p = '\0';
    }
    return n;
}

/* --local's text: "N" or "XxY", each 1 to 65536.  Returns CLC_OK or CLC_ERR. */
static int parse_local(const char *s, size_t local[2])
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10), y = 0;
    if (end == s || errno || x < 1 || x > 65536)
        return CLC_ERR;
    if (*end == 'x') {
        const char *t = end + 1;
        y = strtoul(t, &end, 10);
        if (end == t || errno || y < 1 || y > 65536)
            return CLC_ERR;
    }
    if (*end != '\0')
        return CLC_ERR;
    local[0] = x;
    local[1] = y;
    return CLC_OK;
}

/* Fills e's kernel from its fields; path is made from dir.  Returns CLC_OK or CLC_ERR after
 * a message naming the manifest's line. */
static int make_entry(struct entry *e, const char *dir, const char *manifest, int line)
{
    char *end;
    errno = 0;
    unsigned long items = strtoul(e->field[COL_ITEMS], &end, 10);
    const char *bad = NULL;
    if (end == e->field[COL_ITEMS] || *end || errno || items < 1 || items > (1u << 20))
        bad = "items (1 to 1048576)";
    else if (parse_local(e->field[COL_LOCAL], e->k.local) != CLC_OK)
        bad = "local (N or XxY)";
    else if (strcmp(e->field[COL_SPLIT], "dev") != 0 && strcmp(e->field[COL_SPLIT], "test") != 0)
        bad = "split (dev or test)";
    else if (!*e->field[COL_FILE] || !*e->field[COL_KERNEL] || !*e->field[COL_FAMILY])
        bad = "file, kernel and family (empty)";
    if (bad != NULL) {
        clc_error("%s:%d: bad %s", manifest, line, bad);
        return CLC_ERR;
    }
    if (e->field[COL_FILE][0] == '/')
        snprintf(e->path, sizeof e->path, "%s", e->field[COL_FILE]);
    else
        snprintf(e->path, sizeof e->path, "%s/%s", dir, e->field[COL_FILE]);
    e->k.file = e->path;
    e->k.name = e->field[COL_KERNEL];
    e->k.pattern = e->field[COL_PATTERN];
    e->k.items = (unsigned)items;
    return CLC_OK;
}

/* Reads the manifest's kernels that split and family (NULL: any) select into *out (*n of
 * them; free with free_entries).  Returns CLC_OK or CLC_ERR after a message. */
static int read_manifest(const char *path, const char *split, const char *family,
                         struct entry **out, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        clc_error("cannot read manifest '%s': %s", path, strerror(errno));
        return CLC_ERR;
    }
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    const char *dir = dirname(copy);
    struct entry *es = calloc(MAX_ROWS, sizeof *es);
    int col[NCOLS], lineno = 0, rc = CLC_ERR;
    bool header = false;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    *n = 0;
    if (es == NULL)
        goto done;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        char *fld[32];
        int nf = split_tabs(line, fld, 32);
        if (!header) {
            for (int c = 0; c < NCOLS; c++) {
                col[c] = -1;
                for (int i = 0; i < nf; i++)
                    if (strcmp(fld[i], col_names[c]) == 0)
                        col[c] = i;
                if (col[c] < 0) {
                    clc_error("%s:%d: the header line lacks the column '%s' (it needs file, "
                              "kernel, pattern, local, items, family, split)", path, lineno,
                              col_names[c]);
                    goto done;
                }
            }
            header = true;
            continue;
        }
        struct entry e = {0};
        for (int c = 0; c < NCOLS; c++) {
            if (col[c] >= nf) {
                clc_error("%s:%d: %d columns, the header names more", path, lineno, nf);
                goto done;
            }
            e.field[c] = fld[col[c]];
        }
        if ((split != NULL && strcmp(e.field[COL_SPLIT], split) != 0) ||
            (family != NULL && strcmp(e.field[COL_FAMILY], family) != 0)) {
            if (make_entry(&e, dir, path, lineno) != CLC_OK) /* still checked */
                goto done;
            continue;
        }
        if (*n == MAX_ROWS) {
            clc_error("%s: more than %d kernels", path, MAX_ROWS);
            goto done;
        }
        for (int c = 0; c < NCOLS; c++)
            if ((es[*n].field[c] = strdup(e.field[c])) == NULL)
                goto done;
        if (make_entry(&es[(*n)++], dir, path, lineno) != CLC_OK)
            goto done;
    }
    if (!header) {
        clc_error("%s: no header line (file, kernel, pattern, local, items, family, split)",
                  path);
        goto done;
    }
    if (*n == 0) {
        clc_error("%s: no kernel%s%s%s%s", path, split ? " of split " : "", split ? split : "",
                  family ? " in family " : "", family ? family : "");
        goto done;
    }
    rc = CLC_OK;
done:
    free(line);
    fclose(f);
    *out = es;
    return rc;
}

static void free_entries(struct entry *es, size_t n)
{
    for (size_t i = 0; es != NULL && i < MAX_ROWS && (i < n || es[i].field[0]); i++)
        for (int c = 0; c < NCOLS; c++)
            free(es[i].field[c]);
    free(es);
}

/* ------------------------------------------------------------------ rows and the score */

/* One kernel on one API: measured against predicted. */
struct vrow {
    const struct entry *e;
    char api[8];
    double gbps;      /* measured, NAN unless verified */
    double pred;      /* predicted, NAN when not predicted */
    double residual;  /* gbps / pred - 1, NAN unless both */
    char bound[12];
    char status[16];  /* the row's status, or "failed" when it never got one */
};

/* The score of some rows. */
struct score {
    size_t kernels, failed, predicted, within10, within20;
    double mae;       /* mean |residual| over the predicted rows */
    double geomean;   /* geometric mean of measured / predicted over them */
};

/* Scores the rows of split (NULL: all). */
static struct score score_rows(const struct vrow *r, size_t n, const char *split)
{
    struct score s = {0};
    double abs_sum = 0, log_sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (split != NULL && strcmp(r[i].e->field[COL_SPLIT], split) != 0)
            continue;
        s.kernels++;
        s.failed += strcmp(r[i].status, "ok") != 0;
        if (isnan(r[i].residual))
            continue;
        s.predicted++;
        double a = fabs(r[i].residual);
        s.within10 += a <= 0.10;
        s.within20 += a <= 0.20;
        abs_sum += a;
        log_sum += log1p(r[i].residual);
    }
    s.mae = s.predicted ? abs_sum / (double)s.predicted : NAN;
    s.geomean = s.predicted ? exp(log_sum / (double)s.predicted) : NAN;
    return s;
}

/* The rows the report gained from index first on for entry e, or one failed row when it
 * gained none.  Returns how many were added to out. */
static size_t take_rows(const struct clc_report *rep, size_t first, const struct entry *e,
                        struct vrow *out)
{
    size_t n = 0;
    for (size_t i = first; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (strcmp(r->case_name, "custom") != 0)
            continue;
        struct vrow *v = &out[n++];
        v->e = e;
        snprintf(v->api, sizeof v->api, "%s", r->api);
        v->gbps = r->status == CLC_STATUS_OK ? r->gbps : NAN;
        v->pred = isfinite(r->model.gbps) && r->model.gbps > 0 ? r->model.gbps : NAN;
        v->residual = isfinite(v->gbps) && isfinite(v->pred) ? v->gbps / v->pred - 1 : NAN;
        snprintf(v->bound, sizeof v->bound, "%s", isfinite(v->pred) ? r->model.bound : "");
        snprintf(v->status, sizeof v->status, "%s", clc_status_name(r->status));
    }
    if (n == 0) {
        out[0] = (struct vrow){e, "", NAN, NAN, NAN, "", "failed"};
        n = 1;
    }
    return n;
}

/* A figure, or "-" when it is not a number. */
static const char *fig(char *buf, size_t len, const char *fmt, double v)
{
    if (isfinite(v))
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
    return buf;
}

static void print_score(FILE *f, const char *name, const struct score *s)
{
    char mae[16], gm[16];
    fprintf(f, "%-6s %7zu %6zu %9zu %11zu %11zu %8s %9s\n", name, s->kernels, s->failed,
            s->predicted, s->within10, s->within20, fig(mae, sizeof mae, "%.1f%%", 100 * s->mae),
            fig(gm, sizeof gm, "%.3f", s->geomean));
}

static const char *const splits[3] = {"dev", "test", NULL};

static int write_table(FILE *f, const struct vrow *r, size_t n, bool apis)
{
    fprintf(f, "%-26s %-18s %-5s %s%9s %9s %9s %-10s %s\n", "kernel", "family", "split",
            apis ? "api    " : "", "GB/s", "pred", "residual", "bound", "status");
    for (size_t i = 0; i < n; i++) {
        char g[24], p[24], res[24], api[16] = "";
        if (apis)
            snprintf(api, sizeof api, "%-6s ", r[i].api[0] ? r[i].api : "-");
        fprintf(f, "%-26s %-18s %-5s %s%9s %9s %9s %-10s %s\n", r[i].e->k.name,
                r[i].e->field[COL_FAMILY], r[i].e->field[COL_SPLIT], api,
                fig(g, sizeof g, "%.1f", r[i].gbps), fig(p, sizeof p, "%.1f", r[i].pred),
                fig(res, sizeof res, "%+.1f%%", 100 * r[i].residual),
                r[i].bound[0] ? r[i].bound : "-", r[i].status);
    }
    fprintf(f, "\n%-6s %7s %6s %9s %11s %11s %8s %9s\n", "score", "kernels", "failed",
            "predicted", "within 10%", "within 20%", "MAE", "geomean");
    for (int k = 0; k < 3; k++) {
        struct score s = score_rows(r, n, splits[k]);
        print_score(f, splits[k] ? splits[k] : "all", &s);
    }
    return ferror(f) ? CLC_ERR : CLC_OK;
}

/* A number, or null when it is not one. */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

struct output {
    const struct clc_report *rep;
    const struct vrow *rows;
    size_t n;
    const char *manifest;
    enum clc_format format;
};

static int fill_json(FILE *f, const struct output *o)
{
    json_t *root = json_object(), *kernels = json_array(), *score = json_object();
    json_object_set_new(root, "tool", json_string("clcoalesce validate"));
    json_object_set_new(root, "manifest", json_string(o->manifest));
    json_object_set_new(root, "device", json_string(o->rep->device.name));
    for (size_t i = 0; i < o->n; i++) {
        const struct vrow *r = &o->rows[i];
        json_t *k = json_object();
        json_object_set_new(k, "kernel", json_string(r->e->k.name));
        for (int c = 0; c < NCOLS; c++)
            if (c != COL_KERNEL)
                json_object_set_new(k, col_names[c], json_string(r->e->field[c]));
        json_object_set_new(k, "api", r->api[0] ? json_string(r->api) : json_null());
        json_object_set_new(k, "gbps", num(r->gbps));
        json_object_set_new(k, "predicted_gbps", num(r->pred));
        json_object_set_new(k, "residual", num(r->residual));
        json_object_set_new(k, "bound", r->bound[0] ? json_string(r->bound) : json_null());
        json_object_set_new(k, "status", json_string(r->status));
        json_array_append_new(kernels, k);
    }
    for (int s = 0; s < 3; s++) {
        struct score sc = score_rows(o->rows, o->n, splits[s]);
        json_t *j = json_object();
        json_object_set_new(j, "kernels", json_integer((json_int_t)sc.kernels));
        json_object_set_new(j, "failed", json_integer((json_int_t)sc.failed));
        json_object_set_new(j, "predicted", json_integer((json_int_t)sc.predicted));
        json_object_set_new(j, "within_10pct", json_integer((json_int_t)sc.within10));
        json_object_set_new(j, "within_20pct", json_integer((json_int_t)sc.within20));
        json_object_set_new(j, "mean_abs_residual", num(sc.mae));
        json_object_set_new(j, "geomean_measured_over_predicted", num(sc.geomean));
        json_object_set_new(score, splits[s] ? splits[s] : "all", j);
    }
    json_object_set_new(root, "kernels", kernels);
    json_object_set_new(root, "score", score);
    json_t *results = json_array();
    for (size_t i = 0; i < o->rep->n_results; i++)
        json_array_append_new(results, clc_result_json(&o->rep->results[i]));
    json_object_set_new(root, "results", results);
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    fputc('\n', f);
    json_decref(root);
    return rc == 0 && !ferror(f) ? CLC_OK : CLC_ERR;
}

static int fill(FILE *f, void *ctx)
{
    const struct output *o = ctx;
    if (o->format == CLC_FMT_JSON)
        return fill_json(f, o);
    return write_table(f, o->rows, o->n, o->rep->n_apis > 1);
}

/* ------------------------------------------------------------------ the work */

/* Runs every entry in one session; fills rows (at least one per entry, at most one per API).
 * Returns CLC_OK when every kernel verified, CLC_ERR when one failed (the others still ran),
 * CLC_USAGE or CLC_ERR when the session could not run at all (*n_rows then 0). */
static int run_all(const struct validate_args *a, const struct entry *es, size_t n,
                   struct clc_report *rep, struct vrow *rows, size_t *n_rows)
{
    struct clc_session s;
    const struct clc_case *none[1];
    *n_rows = 0;
    int rc = clc_session_open(&s, &a->run.opts, rep, NULL);
    if (rc == CLC_OK)
        rc = clc_session_load_profile(&s, none, 0);
    if (rc != CLC_OK) {
        clc_session_close(&s);
        return rc;
    }
    bool profiled = false;
    for (int i = 0; i < s.n_be; i++)
        profiled = profiled || s.profile[i] != NULL;
    if (!profiled && a->run.opts.model)
        clc_note("no device profile: measuring only; the predictions need 'clcoalesce profile' "
                 "(once per device) or --profile FILE");
    bool failed = false;
    for (size_t i = 0; i < n; i++) {
        size_t first = rep->n_results;
        int krc = clc_custom_measure(&s, &es[i].k);
        size_t got = take_rows(rep, first, &es[i], rows + *n_rows);
        if (krc != CLC_OK) {
            failed = true;
            for (size_t j = 0; j < got; j++)
                if (strcmp(rows[*n_rows + j].status, "ok") == 0)
                    snprintf(rows[*n_rows + j].status, sizeof rows->status, "failed");
            clc_error("validate: kernel '%s' (%s) failed; the others go on", es[i].k.name,
                      es[i].field[COL_FILE]);
        }
        *n_rows += got;
    }
    clc_session_close(&s);
    return failed ? CLC_ERR : CLC_OK;
}

int clc_cmd_validate(int argc, char **argv)
{
    struct validate_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.run.help) {
        fputs(help_text, stdout);
        return CLC_OK;
    }
    /* an output that is the manifest or the profile would replace it */
    const struct clc_input in[] = {{a.manifest, "--manifest"}, {a.run.opts.profile, "--profile"}};
    if (clc_output_refuse_inputs(PROG, HELP, "-o", a.run.output, in,
                                 a.run.opts.profile != NULL ? 2 : 1) != CLC_OK)
        return CLC_USAGE;
    if (a.run.output != NULL && clc_output_check(a.run.output) != CLC_OK)
        return CLC_ERR;
    struct entry *es = NULL;
    size_t n = 0;
    if (read_manifest(a.manifest, a.split, a.family, &es, &n) != CLC_OK) {
        free_entries(es, n);
        return CLC_ERR;
    }
    clc_quiet = a.run.quiet;
    clc_guard_run(a.run.timeout);
    struct clc_report rep;
    clc_report_init(&rep, clc_api_name(CLC_API_OPENCL));
    struct vrow *rows = calloc(n * CLC_MAX_APIS, sizeof *rows);
    size_t n_rows = 0;
    rc = rows == NULL ? CLC_ERR : run_all(&a, es, n, &rep, rows, &n_rows);
    if (n_rows > 0) {
        struct output o = {&rep, rows, n_rows, a.manifest, a.run.format};
        /* the table on the terminal too, as `run` streams its rows, when the report goes to
         * a file */
        bool to_file = a.run.output != NULL && strcmp(a.run.output, "-") != 0;
        if (to_file && !a.run.quiet)
            write_table(stdout, rows, n_rows, rep.n_apis > 1);
        int wrc = clc_output_write(a.run.output ? a.run.output : "-", fill, &o);
        if (wrc != CLC_OK)
            rc = CLC_ERR;
    }
    free(rows);
    clc_report_free(&rep);
    free_entries(es, n);
    return rc;
}
