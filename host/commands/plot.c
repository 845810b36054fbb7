/* plot.c - `clcoalesce plot`: charts from result files, drawn by gnuplot.  Cases "stride"
 * and "offset" become GB/s-vs-param line charts (one line per file and type, with the first
 * file's peak and copy ceiling as reference lines); every other case a clustered bar chart
 * (variants on x, one bar per file and type), in GB/s or, for a case of latency rows, in ns
 * per access.  The .dat and .gp files stay beside the PNG and
 * SVG so a chart can be restyled by editing its script and running gnuplot on it again. */
#define _GNU_SOURCE
#include "clcoalesce/compare.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clcoalesce/outfile.h"
#include "clcoalesce/result.h"

static const char plot_usage[] =
    "usage: clcoalesce plot RESULTS.json [MORE.json...] -o DIR\n"
    "\n"
    "Writes a gnuplot script (.gp), its data (.dat) and the rendered PNG and SVG per chart\n"
    "into DIR: GB/s vs stride and GB/s vs offset as lines (one per file and type), every\n"
    "other case as bars (variants on x, one bar per file and type; latency rows in ns per\n"
    "access).  Needs gnuplot.\n"
    "\n"
    "  -o, --output DIR          folder for the charts (created if missing; files in it\n"
    "                            are replaced atomically, links followed)\n"
    "  -h, --help                this text\n"
    "\n"
    "exit status: 0 charts written, 1 no gnuplot, unreadable file, nothing to plot or a\n"
    "chart failed, 2 usage error\n";

/* Chart size in pixels, PNG and SVG alike. */
#define CHART_W 1100
#define CHART_H 650

struct input {
    const char *path;
    struct clc_report rep;
    char label[320]; /* "api device", with " #k" when two files would read the same */
};

struct plot {
    const char *dir;
    struct input *in;
    int n;
    char **written;
    size_t n_written, cap_written;
};

static void usage_error(const char *msg, const char *arg)
{
    clc_usage_error("clcoalesce", "'clcoalesce plot --help'", msg, arg);
}

/* True when an executable `name` lies in a folder of $PATH. */
static bool on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/bin:/bin";
    while (true) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        char buf[4096];
        /* an empty entry means the current folder */
        snprintf(buf, sizeof buf, "%.*s/%s", len ? (int)len : 1, len ? path : ".", name);
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return true;
        if (end == NULL)
            return false;
        path = end + 1;
    }
}

/* A verified row with its figure (GB/s, or ns per access for a latency row: value). */
static bool plottable(const struct clc_result *r)
{
    return r->status == CLC_STATUS_OK && isfinite(r->value) && r->value > 0;
}

/* The metric of case `name`'s charts: that of its first plottable row.  A row of the case
 * in another metric has no place on that axis (none is written so today). */
static enum clc_metric case_metric(const struct plot *p, const char *name)
{
    for (int f = 0; f < p->n; f++)
        for (size_t i = 0; i < p->in[f].rep.n_results; i++) {
            const struct clc_result *r = &p->in[f].rep.results[i];
            if (plottable(r) && strcmp(r->case_name, name) == 0)
                return r->metric;
        }
    return CLC_METRIC_GBPS;
}

/* A chart's axis: "GB/s", or "ns per access (lower is faster)". */
static const char *axis_name(enum clc_metric m)
{
    return m == CLC_METRIC_GBPS ? "GB/s" : "ns per access (lower is faster)";
}

/* Whether r is drawn on the chart of case `name` in metric m. */
static bool on_chart(const struct clc_result *r, const char *name, enum clc_metric m)
{
    return plottable(r) && r->metric == m && strcmp(r->case_name, name) == 0;
}

static bool is_line_case(const char *name)
{
    return strcmp(name, "stride") == 0 || strcmp(name, "offset") == 0;
}

/* A case name as a file name: anything but [A-Za-z0-9_-] becomes '_'. */
static void file_stem(const char *name, char *buf, size_t len)
{
    size_t i = 0;
    for (; name[i] && i + 1 < len; i++) {
        char ch = name[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                  ch == '_' || ch == '-';
        buf[i] = ok ? ch : '_';
    }
    buf[i] = '\0';
    if (i == 0)
        snprintf(buf, len, "case");
}

/* Labels come from result files anyone may write, and gnuplot runs the shell on `...`
 * inside double-quoted strings: every string in a script is single-quoted (no escapes, no
 * substitution; a quote is written twice), its control bytes shown as \xNN (clc_printable)
 * so that no line break ends it early. */
static void gp_str(FILE *f, const char *s)
{
    char buf[2048];
    clc_printable(s, buf, sizeof buf);
    fputc('\'', f);
    for (const char *p = buf; *p; p++) {
        if (*p == '\'')
            fputc('\'', f);
        fputc(*p, f);
    }
    fputc('\'', f);
}

/* A quoted label column in a .dat file: data files have no escapes, so '"' becomes '\'' and
 * control bytes \xNN. */
static void dat_str(FILE *f, const char *s)
{
    char buf[2048];
    clc_printable(s, buf, sizeof buf);
    fputc('"', f);
    for (const char *p = buf; *p; p++)
        fputc(*p == '"' ? '\'' : *p, f);
    fputc('"', f);
}

/* Text for a comment line of a script or data file: control bytes \xNN, so a line break in
 * a name cannot end the comment and start a command.  In one of 2 static buffers. */
static const char *comment_text(const char *s)
{
    static char bufs[2][2048];
    static int next;
    char *buf = bufs[next++ % 2];
    return clc_printable(s, buf, sizeof bufs[0]);
}

static int remember(struct plot *p, const char *path)
{
    if (p->n_written == p->cap_written) {
        size_t cap = p->cap_written ? 2 * p->cap_written : 32;
        char **q = realloc(p->written, cap * sizeof *q);
        if (q == NULL)
            return CLC_ERR;
        p->written = q;
        p->cap_written = cap;
    }
    p->written[p->n_written] = strdup(path);
    if (p->written[p->n_written] == NULL)
        return CLC_ERR;
    p->n_written++;
    return CLC_OK;
}

/* ------------------------------------------------------------------ files */

struct membuf {
    char *data;
    size_t len;
};

/* Writes DIR/stem.ext from a memory stream's contents, atomically, and closes the stream. */
static int write_part(struct plot *p, const char *stem, const char *ext, FILE *mem,
                      struct membuf *m)
{
    bool bad = ferror(mem) != 0;
    if (fclose(mem) != 0 || bad) {
        free(m->data);
        clc_error("out of memory writing %s.%s", stem, ext);
        return CLC_ERR;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", p->dir, stem, ext);
    int rc = clc_output_write_data(path, m->data, m->len);
    free(m->data);
    if (rc == CLC_OK)
        rc = remember(p, path);
    return rc;
}

/* Runs `gnuplot stem.gp` inside DIR (the script names its files relative to it) and checks
 * that the PNG and SVG came out non-empty. */
static int render(struct plot *p, const char *stem)
{
    char script[512];
    snprintf(script, sizeof script, "%s.gp", stem);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        clc_error("cannot start gnuplot: %s", strerror(errno));
        return CLC_ERR;
    }
    if (pid == 0) {
        if (chdir(p->dir) != 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            clc_error("waiting for gnuplot: %s", strerror(errno));
            return CLC_ERR;
        }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        clc_error("gnuplot failed on %s/%s (exit %d)", p->dir, script,
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return CLC_ERR;
    }
    static const char *const exts[] = {"png", "svg"};
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s", p->dir, stem, exts[i]);
        struct stat sb;
        if (stat(path, &sb) != 0 || sb.st_size == 0) {
            clc_error("gnuplot did not write %s", path);
            return CLC_ERR;
        }
        if (remember(p, path) != CLC_OK)
            return CLC_ERR;
    }
    return CLC_OK;
}

/* The script's head: what it is, how to rerun it, and the look shared by all charts. */
static void script_head(FILE *g, const char *stem, const char *what, const char *title,
                        const char *xlabel, enum clc_metric m)
{
    fprintf(g, "# %s.gp - %s, written by clcoalesce plot.\n", stem, comment_text(what));
    fprintf(g, "# Data in %s.dat.  Edit and rerun here with: gnuplot %s.gp\n", stem, stem);
    fputs("set title ", g);
    gp_str(g, title);
    fputs("\nset xlabel ", g);
    gp_str(g, xlabel);
    fputs("\nset ylabel ", g);
    gp_str(g, axis_name(m));
    fputc('\n', g);
    fputs("set yrange [0:*]\nset grid\nset key below\n", g);
}

/* The PNG terminal: the plot command follows it. */
static void script_png(FILE *g, const char *stem)
{
    fprintf(g, "set terminal pngcairo noenhanced size %d,%d\n", CHART_W, CHART_H);
    fprintf(g, "set output \"%s.png\"\n", stem);
}

/* The same chart again as SVG. */
static void script_svg(FILE *g, const char *stem)
{
    fprintf(g, "\nset terminal svg noenhanced size %d,%d\n", CHART_W, CHART_H);
    fprintf(g, "set output \"%s.svg\"\nreplot\nunset output\n", stem);
}

/* Two memory streams, the .dat and the .gp of one chart. */
struct chart {
    char stem[64];
    struct membuf dat, gp;
    FILE *d, *g;
};

static int chart_open(struct chart *ch, const char *name)
{
    memset(ch, 0, sizeof *ch);
    file_stem(name, ch->stem, sizeof ch->stem);
    ch->d = open_memstream(&ch->dat.data, &ch->dat.len);
    ch->g = open_memstream(&ch->gp.data, &ch->gp.len);
    if (ch->d != NULL && ch->g != NULL)
        return CLC_OK;
    if (ch->d != NULL)
        fclose(ch->d);
    if (ch->g != NULL)
        fclose(ch->g);
    free(ch->dat.data);
    free(ch->gp.data);
    clc_error("out of memory");
    return CLC_ERR;
}

/* Writes both files and renders the chart. */
static int chart_finish(struct plot *p, struct chart *ch)
{
    int rc = write_part(p, ch->stem, "dat", ch->d, &ch->dat);
    int rc2 = write_part(p, ch->stem, "gp", ch->g, &ch->gp);
    if (rc != CLC_OK || rc2 != CLC_OK)
        return CLC_ERR;
    return render(p, ch->stem);
}

/* ------------------------------------------------------------------ line charts */

static int by_param(const void *a, const void *b)
{
    const struct clc_result *x = *(const struct clc_result *const *)a;
    const struct clc_result *y = *(const struct clc_result *const *)b;
    return (x->param > y->param) - (x->param < y->param);
}

/* Distinct variants of a case among its plottable rows (with a param when need_param), in
 * the order first met.  Returns how many; *out is malloc'd (NULL on no memory). */
static size_t case_variants(const struct plot *p, const char *name, bool need_param,
                            const char ***out)
{
    size_t n = 0, cap = 0;
    const char **v = NULL;
    for (int f = 0; f < p->n; f++) {
        for (size_t i = 0; i < p->in[f].rep.n_results; i++) {
            const struct clc_result *r = &p->in[f].rep.results[i];
            if (!on_chart(r, name, CLC_METRIC_GBPS) || (need_param && !r->has_param))
                continue;
            size_t k = 0;
            while (k < n && strcmp(v[k], r->variant) != 0)
                k++;
            if (k < n)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 8;
                const char **q = realloc(v, cap * sizeof *q);
                if (q == NULL) {
                    free(v);
                    *out = NULL;
                    return 0;
                }
                v = q;
            }
            v[n++] = r->variant;
        }
    }
    *out = v;
    return n;
}

/* A dashed horizontal reference line at y (skipped when unknown). */
static void ref_line(FILE *g, double y, const char *what, const char *who, const char *style)
{
    if (!isfinite(y) || y <= 0)
        return;
    char label[512];
    snprintf(label, sizeof label, "%s %.0f GB/s, %s", what, y, who);
    fprintf(g, ", \\\n     %.6g with lines %s title ", y, style);
    gp_str(g, label);
}

/* GB/s against the case's param: one line per file, type (and variant when it has several). */
static int line_chart(struct plot *p, const char *name)
{
    const char **variants;
    size_t n_var = case_variants(p, name, true, &variants);
    if (n_var == 0)
        return CLC_OK; /* no row with a param: nothing to draw */
    size_t cap = 0;
    for (int f = 0; f < p->n; f++)
        cap += p->in[f].rep.n_results;
    const struct clc_result **rows = malloc(cap * sizeof *rows);
    struct chart ch;
    if (rows == NULL || chart_open(&ch, name) != CLC_OK) {
        free(rows);
        free(variants);
        return CLC_ERR;
    }
    char title[128], xlabel[64], what[128];
    snprintf(title, sizeof title, "%s: GB/s vs %s", name, name);
    snprintf(xlabel, sizeof xlabel, "%s (elements)", name);
    snprintf(what, sizeof what, "GB/s vs %s, one line per file and type", name);
    script_head(ch.g, ch.stem, what, title, xlabel, CLC_METRIC_GBPS);
    fprintf(ch.d, "# %s: one block (gnuplot index) per line; columns: %s, GB/s\n",
            comment_text(name), comment_text(name));

    /* the data first, so the script knows whether a log2 axis fits before it plots */
    char *cmd = NULL;
    size_t cmd_len = 0;
    FILE *c = open_memstream(&cmd, &cmd_len);
    bool all_positive = true;
    int blocks = 0;
    for (int f = 0; f < p->n && c != NULL; f++) {
        const struct clc_report *rep = &p->in[f].rep;
        for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
            for (size_t v = 0; v < n_var; v++) {
                size_t n = 0;
                for (size_t i = 0; i < rep->n_results; i++) {
                    const struct clc_result *r = &rep->results[i];
                    if (on_chart(r, name, CLC_METRIC_GBPS) && r->has_param &&
                        r->type == (enum clc_type)t && strcmp(r->variant, variants[v]) == 0)
                        rows[n++] = r;
                }
                if (n == 0)
                    continue;
                qsort(rows, n, sizeof *rows, by_param);
                char label[512];
                snprintf(label, sizeof label, "%s %s%s%s", p->in[f].label,
                         clc_type_name((enum clc_type)t), n_var > 1 ? " " : "",
                         n_var > 1 ? variants[v] : "");
                fprintf(ch.d, "# index %d: %s\n", blocks, comment_text(label));
                for (size_t i = 0; i < n; i++) {
                    fprintf(ch.d, "%ld\t%.6g\n", rows[i]->param, rows[i]->gbps);
                    all_positive = all_positive && rows[i]->param > 0;
                }
                fputs("\n\n", ch.d);
                fprintf(c, "%s\"%s.dat\" index %d using 1:2 with linespoints title ",
                        blocks ? ", \\\n     " : "", ch.stem, blocks);
                gp_str(c, label);
                blocks++;
            }
        }
    }
    free(rows);
    free(variants);
    if (c == NULL || fclose(c) != 0) {
        free(cmd);
        clc_error("out of memory");
        fclose(ch.d), fclose(ch.g), free(ch.dat.data), free(ch.gp.data);
        return CLC_ERR;
    }
    if (all_positive && strcmp(name, "stride") == 0)
        fputs("set logscale x 2\n", ch.g);
    script_png(ch.g, ch.stem);
    fprintf(ch.g, "plot %s", cmd);
    free(cmd);
    const struct clc_device_meta *dev = &p->in[0].rep.device;
    ref_line(ch.g, dev->peak_gbps, "peak", p->in[0].label,
             "dashtype 2 linewidth 2 linecolor rgb \"black\"");
    ref_line(ch.g, dev->copy_gbps, "copy ceiling", p->in[0].label,
             "dashtype 3 linewidth 2 linecolor rgb \"gray40\"");
    fputc('\n', ch.g);
    script_svg(ch.g, ch.stem);
    return chart_finish(p, &ch);
}

/* ------------------------------------------------------------------ bar charts */

/* One x position of a bar chart: a variant (and param). */
struct category {
    const char *variant;
    bool has_param;
    long param;
};

/* Bars for any case: variant (or variant:param) on x, one bar per file and type; GB/s, or
 * ns per access for a case of latency rows. */
static int bar_chart(struct plot *p, const char *name)
{
    enum clc_metric m = case_metric(p, name);
    size_t cap = 0;
    for (int f = 0; f < p->n; f++)
        cap += p->in[f].rep.n_results;
    struct category *cat = malloc(cap * sizeof *cat);
    struct chart ch;
    if (cat == NULL || chart_open(&ch, name) != CLC_OK) {
        free(cat);
        return CLC_ERR;
    }
    /* categories in the order first met; series = (file, type) pairs holding a row */
    size_t n_cat = 0;
    bool any_param = false;
    unsigned types_of[p->n > 0 ? p->n : 1];
    for (int f = 0; f < p->n; f++) {
        types_of[f] = 0;
        const struct clc_report *rep = &p->in[f].rep;
        for (size_t i = 0; i < rep->n_results; i++) {
            const struct clc_result *r = &rep->results[i];
            if (!on_chart(r, name, m))
                continue;
            types_of[f] |= r->type;
            size_t k = 0;
            while (k < n_cat && !(strcmp(cat[k].variant, r->variant) == 0 &&
                                  cat[k].has_param == r->has_param &&
                                  (!r->has_param || cat[k].param == r->param)))
                k++;
            if (k == n_cat)
                cat[n_cat++] = (struct category){r->variant, r->has_param, r->param};
            any_param = any_param || r->has_param;
        }
    }
    char title[128], what[128];
    snprintf(title, sizeof title, "%s: %s by variant", name, axis_name(m));
    snprintf(what, sizeof what, "%s, one bar per file and type", name);
    script_head(ch.g, ch.stem, what, title, any_param ? "variant:param" : "variant", m);
    fputs("set style data histograms\n"
          "set style histogram clustered gap 1\n"
          "set style fill solid 0.8 border -1\n"
          "set grid noxtics\n",
          ch.g);
    /* slanted labels once they would run into each other */
    size_t label_chars = 0;
    for (size_t k = 0; k < n_cat; k++)
        label_chars += strlen(cat[k].variant) + (cat[k].has_param ? 7 : 1);
    if (label_chars > 80)
        fputs("set xtics rotate by -40 left\n", ch.g);
    script_png(ch.g, ch.stem);

    fprintf(ch.d, "# %s: %s, NaN where a file has no verified row\n# x", comment_text(name),
            axis_name(m));
    fputs("plot ", ch.g);
    int col = 2;
    for (int f = 0; f < p->n; f++) {
        for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
            if (!(types_of[f] & t))
                continue;
            char label[512];
            snprintf(label, sizeof label, "%s %s", p->in[f].label, clc_type_name((enum clc_type)t));
            fputc('\t', ch.d);
            dat_str(ch.d, label);
            if (col == 2)
                fprintf(ch.g, "\"%s.dat\" using 2:xtic(1) title ", ch.stem);
            else
                fprintf(ch.g, ", \\\n     \"\" using %d title ", col);
            gp_str(ch.g, label);
            col++;
        }
    }
    fputc('\n', ch.g);
    fputc('\n', ch.d);
    for (size_t k = 0; k < n_cat; k++) {
        char x[96];
        if (cat[k].has_param)
            snprintf(x, sizeof x, "%s:%ld", cat[k].variant, cat[k].param);
        else
            snprintf(x, sizeof x, "%s", cat[k].variant);
        dat_str(ch.d, x);
        for (int f = 0; f < p->n; f++) {
            for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
                if (!(types_of[f] & t))
                    continue;
                const struct clc_report *rep = &p->in[f].rep;
                double v = NAN;
                for (size_t i = 0; i < rep->n_results && isnan(v); i++) {
                    const struct clc_result *r = &rep->results[i];
                    if (on_chart(r, name, m) && r->type == (enum clc_type)t &&
                        strcmp(r->variant, cat[k].variant) == 0 &&
                        r->has_param == cat[k].has_param &&
                        (!r->has_param || r->param == cat[k].param))
                        v = r->value;
                }
                if (isnan(v))
                    fputs("\tNaN", ch.d);
                else
                    fprintf(ch.d, "\t%.6g", v);
            }
        }
        fputc('\n', ch.d);
    }
    free(cat);
    script_svg(ch.g, ch.stem);
    return chart_finish(p, &ch);
}

/* ------------------------------------------------------------------ the command */

/* Labels each file "api device"; files that would read the same get " #k" (k from 1). */
static void label_inputs(struct plot *p)
{
    for (int f = 0; f < p->n; f++) {
        const struct clc_report *r = &p->in[f].rep;
        snprintf(p->in[f].label, sizeof p->in[f].label, "%s %s", r->api[0] ? r->api : "?",
                 r->device.name[0] ? r->device.name : "unknown device");
    }
    bool clash[p->n > 0 ? p->n : 1];
    for (int f = 0; f < p->n; f++) {
        clash[f] = false;
        for (int g = 0; g < p->n; g++)
            if (g != f && strcmp(p->in[f].label, p->in[g].label) == 0)
                clash[f] = true;
    }
    for (int f = 0; f < p->n; f++) {
        if (clash[f]) {
            size_t len = strlen(p->in[f].label);
            snprintf(p->in[f].label + len, sizeof p->in[f].label - len, " #%d", f + 1);
        }
    }
}

/* mkdir -p */
static int make_dir(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
        clc_error("folder name too long: %s", dir);
        return CLC_ERR;
    }
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            clc_error("cannot create folder '%s': %s", buf, strerror(errno));
            return CLC_ERR;
        }
        *s = '/';
    }
    struct stat st;
    if (mkdir(buf, 0777) != 0 && (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))) {
        clc_error("cannot create folder '%s': %s", buf, errno == EEXIST ? "not a folder" : strerror(errno));
        return CLC_ERR;
    }
    return CLC_OK;
}

static const struct option plot_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Refuses an input that is a file of the kind plot writes into p->dir (a chart, a script or
 * its data): a chart of the same name would replace it.  CLC_OK or CLC_USAGE after saying
 * which. */
static int refuse_inputs_in_dir(const struct plot *p, char *const *inputs)
{
    static const char *const written[] = {".png", ".svg", ".gp", ".dat"};
    for (int i = 0; i < p->n; i++) {
        const char *base = strrchr(inputs[i], '/');
        base = base ? base + 1 : inputs[i];
        const char *ext = strrchr(base, '.');
        bool chart = false;
        for (size_t k = 0; ext != NULL && k < sizeof written / sizeof written[0]; k++)
            chart = chart || strcmp(ext, written[k]) == 0;
        char there[4096];
        if (!chart || snprintf(there, sizeof there, "%s/%s", p->dir, base) >= (int)sizeof there)
            continue;
        const struct clc_input in = {inputs[i], NULL};
        if (clc_output_refuse_inputs("clcoalesce", "'clcoalesce plot --help'", "-o", there, &in,
                                     1) != CLC_OK)
            return CLC_USAGE;
    }
    return CLC_OK;
}

int clc_cmd_plot(int argc, char **argv)
{
    struct plot p;
    memset(&p, 0, sizeof p);
    /* 0, not 1: glibc then also forgets a cluster of short options an earlier parse
     * stopped inside ("-hq" stops at h), which it would go on reading from that argv */
    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":o:h", plot_options, NULL)) != -1) {
        switch (opt) {
        case 'o': p.dir = optarg; break;
        case 'h': fputs(plot_usage, stdout); return CLC_OK;
        case ':': usage_error("option needs a value:", argv[optind - 1]); return CLC_USAGE;
        default: usage_error("unknown option", argv[optind - 1]); return CLC_USAGE;
        }
    }
    p.n = argc - optind;
    if (p.n < 1) {
        usage_error("plot needs at least one result file", NULL);
        return CLC_USAGE;
    }
    if (p.dir == NULL || p.dir[0] == '\0') {
        usage_error("plot needs the output folder: -o DIR", NULL);
        return CLC_USAGE;
    }
    if (clc_output_check_dir(p.dir) != CLC_OK)
        return CLC_ERR; /* before anything is read or drawn: it said why */
    if (refuse_inputs_in_dir(&p, argv + optind) != CLC_OK)
        return CLC_USAGE;
    if (!on_path("gnuplot")) {
        clc_error("gnuplot not found: apt-get install gnuplot-nox");
        return CLC_ERR;
    }
    int rc = CLC_ERR;
    p.in = calloc((size_t)p.n, sizeof *p.in);
    if (p.in == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    size_t n_plottable = 0;
    for (int f = 0; f < p.n; f++) {
        p.in[f].path = argv[optind + f];
        if (clc_read_json(p.in[f].path, &p.in[f].rep) != CLC_OK)
            goto done; /* it said what is wrong with the file */
        for (size_t i = 0; i < p.in[f].rep.n_results; i++)
            n_plottable += plottable(&p.in[f].rep.results[i]);
    }
    if (n_plottable == 0) {
        clc_error("no results to plot: no verified row with a figure (GB/s or ns) in %s%s",
                  p.n == 1 ? "" : "any of ", p.n == 1 ? p.in[0].path : "the files");
        goto done;
    }
    label_inputs(&p);
    if (make_dir(p.dir) != CLC_OK)
        goto done;
    /* one chart per case, cases in the order first met */
    rc = CLC_OK;
    for (int f = 0; f < p.n; f++) {
        const struct clc_report *rep = &p.in[f].rep;
        for (size_t i = 0; i < rep->n_results; i++) {
            const struct clc_result *r = &rep->results[i];
            if (!plottable(r))
                continue;
            bool seen = false;
            for (int g = 0; g <= f && !seen; g++) {
                const struct clc_report *q = &p.in[g].rep;
                size_t end = g == f ? i : q->n_results;
                for (size_t k = 0; k < end && !seen; k++)
                    seen = plottable(&q->results[k]) &&
                           strcmp(q->results[k].case_name, r->case_name) == 0;
            }
            if (seen)
                continue;
            int crc = is_line_case(r->case_name) ? line_chart(&p, r->case_name)
                                                 : bar_chart(&p, r->case_name);
            if (crc != CLC_OK)
                rc = CLC_ERR;
        }
    }
    for (size_t k = 0; k < p.n_written; k++)
        printf("%s\n", p.written[k]);
done:
    for (size_t k = 0; k < p.n_written; k++)
        free(p.written[k]);
    free(p.written);
    for (int f = 0; f < p.n; f++)
        clc_report_free(&p.in[f].rep);
    free(p.in);
    return rc;
}
