/* options.c - the command line both tools share: one getopt loop over the shared options of
 * `run` and the tool's own, one set of messages, the routing of the report, and the
 * commands beside `run`. */
#define _GNU_SOURCE
#include "clcoalesce/options.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/outfile.h"

void clc_run_opts_defaults(struct clc_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 0;    /* 0 and -1: chosen at run time (fewer with --quick) */
    o->warmup = -1;
    o->types = CLC_FLOAT | CLC_DOUBLE;
    o->peak_gbps = NAN;
}

enum {
    OPT_PEAK = 256,
    OPT_VARIANT,
    OPT_HOST_CHECK,
    OPT_QUIET,
    OPT_SWEEP_SIZE,
    OPT_COLD,
};

#define SHARED_SHORT "d:s:r:w:t:qf:o:h"

static const struct {
    struct option opt;
    unsigned needs; /* the CLC_RUN_* flag a tool must set to take it, 0 for none */
} shared_options[] = {
    {{"device", required_argument, NULL, 'd'}, 0},
    {{"size", required_argument, NULL, 's'}, 0},
    {{"reps", required_argument, NULL, 'r'}, 0},
    {{"warmup", required_argument, NULL, 'w'}, 0},
    {{"type", required_argument, NULL, 't'}, 0},
    {{"variant", required_argument, NULL, OPT_VARIANT}, 0},
    {{"quick", no_argument, NULL, 'q'}, 0},
    {{"peak", required_argument, NULL, OPT_PEAK}, 0},
    {{"host-check", no_argument, NULL, OPT_HOST_CHECK}, 0},
    {{"cold", no_argument, NULL, OPT_COLD}, CLC_RUN_COLD},
    {{"sweep-size", required_argument, NULL, OPT_SWEEP_SIZE}, CLC_RUN_SWEEP},
    {{"format", required_argument, NULL, 'f'}, 0},
    {{"output", required_argument, NULL, 'o'}, 0},
    {{"quiet", no_argument, NULL, OPT_QUIET}, 0},
    {{"help", no_argument, NULL, 'h'}, 0},
};
#define N_SHARED (sizeof shared_options / sizeof shared_options[0])
#define MAX_OWN 24 /* a command's common and own long options, at most */

int clc_run_count(const struct clc_run_cli *cli, const char *name, const char *arg, long min,
                  long max, long *out)
{
    if (clc_parse_count(arg, min, max, out) == CLC_OK)
        return CLC_OK;
    char msg[96];
    snprintf(msg, sizeof msg, "%s takes a whole number from %ld to %ld, not", name, min, max);
    clc_usage_error(cli->prog, cli->help, msg, arg);
    return CLC_USAGE;
}

/* --sweep-size MIN:MAX, each side a size as --size takes it, MIN <= MAX. */
static int parse_sweep(const char *prog, const char *s, uint64_t *min, uint64_t *max)
{
    char buf[128];
    const char *why;
    snprintf(buf, sizeof buf, "%s", s);
    char *colon = strchr(buf, ':');
    if (colon == NULL) {
        clc_error_as(prog, "bad --sweep-size '%s': expected MIN:MAX, e.g. 1MiB:4GiB", s);
        return CLC_USAGE;
    }
    *colon = '\0';
    if (clc_parse_size(buf, min, &why) != CLC_OK) {
        clc_error_as(prog, "bad --sweep-size '%s': MIN '%s': %s", s, buf, why);
        return CLC_USAGE;
    }
    if (clc_parse_size(colon + 1, max, &why) != CLC_OK) {
        clc_error_as(prog, "bad --sweep-size '%s': MAX '%s': %s", s, colon + 1, why);
        return CLC_USAGE;
    }
    if (*min > *max) {
        clc_error_as(prog, "bad --sweep-size '%s': MIN is larger than MAX", s);
        return CLC_USAGE;
    }
    return CLC_OK;
}

/* Parses the value of shared option c into o or l.  CLC_OK or CLC_USAGE after saying why. */
static int parse_shared(const struct clc_run_cli *cli, int c, const char *arg,
                        struct clc_run_opts *o, struct clc_run_line *l)
{
    long v;
    const char *why;
    switch (c) {
    case 'd':
        if (*arg == '\0') {
            clc_usage_error(cli->prog, cli->help, "--device takes an index, P:D or part of a "
                            "name, not", arg);
            return CLC_USAGE;
        }
        o->device = arg;
        break;
    case 's':
        if (clc_parse_size(arg, &o->size, &why) != CLC_OK) {
            clc_error_as(cli->prog, "bad --size '%s': %s", arg, why);
            return CLC_USAGE;
        }
        break;
    case 'r':
        if (clc_run_count(cli, "--reps", arg, 1, 100000, &v) != CLC_OK)
            return CLC_USAGE;
        o->reps = (int)v;
        break;
    case 'w':
        if (clc_run_count(cli, "--warmup", arg, 0, 100000, &v) != CLC_OK)
            return CLC_USAGE;
        o->warmup = (int)v;
        break;
    case 't':
        if (clc_parse_type(arg, &o->types) != CLC_OK) {
            clc_usage_error(cli->prog, cli->help, "--type takes float, double or all, not", arg);
            return CLC_USAGE;
        }
        o->types_given = true;
        break;
    case OPT_VARIANT: o->variant = arg; break;
    case 'q': o->quick = true; break;
    case OPT_PEAK: {
        char *end;
        double p = strtod(arg, &end);
        /* a peak below any real device's or above CLC_MAX_GBPS would make every %peak
         * figure a typing error's, not a measurement's */
        if (*arg == '\0' || *end != '\0' || !(p >= CLC_MIN_PEAK_GBPS && p <= CLC_MAX_GBPS)) {
            clc_usage_error(cli->prog, cli->help, "--peak takes a number of GB/s from 0.01 to "
                            "10000000, not", arg);
            return CLC_USAGE;
        }
        o->peak_gbps = p;
        break;
    }
    case OPT_HOST_CHECK: o->host_check = true; break;
    case OPT_COLD: o->cold = true; break;
    case OPT_SWEEP_SIZE: return parse_sweep(cli->prog, arg, &o->sweep_min, &o->sweep_max);
    case 'f':
        if (clc_parse_format(arg, &l->format) != CLC_OK) {
            clc_usage_error(cli->prog, cli->help, "--format takes table, csv or json, not", arg);
            return CLC_USAGE;
        }
        break;
    case 'o': l->output = arg; break;
    case OPT_QUIET: l->quiet = true; break;
    default: return cli->parse_own(cli, c, arg);
    }
    return CLC_OK;
}

int clc_parse_run(int argc, char **argv, const struct clc_run_cli *cli, struct clc_run_opts *o,
                  struct clc_run_line *l)
{
    /* the shared options this tool takes, then its own */
    struct option longopts[N_SHARED + MAX_OWN + 1];
    char shortopts[64];
    size_t n = 0;
    for (size_t i = 0; i < N_SHARED; i++)
        if ((shared_options[i].needs & ~cli->optional) == 0)
            longopts[n++] = shared_options[i].opt;
    const struct option *lists[] = {cli->common, cli->own};
    for (size_t k = 0; k < 2; k++) {
        for (const struct option *p = lists[k]; p != NULL && p->name != NULL; p++) {
            if (n == N_SHARED + MAX_OWN)
                abort(); /* a tool with more options than MAX_OWN: raise it */
            longopts[n++] = *p;
        }
    }
    memset(&longopts[n], 0, sizeof longopts[n]);
    /* the leading ':' makes a missing value ':' rather than '?' */
    snprintf(shortopts, sizeof shortopts, ":" SHARED_SHORT "%s",
             cli->own_short ? cli->own_short : "");

    clc_run_opts_defaults(o);
    memset(l, 0, sizeof *l);
    l->format = CLC_FMT_TABLE;
    /* 0, not 1: glibc then also forgets a cluster of short options an earlier parse
     * stopped inside ("-hq" stops at h), which it would go on reading from that argv */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (c) {
        case 'h': l->help = true; return CLC_OK;
        case ':':
            clc_usage_error(cli->prog, cli->help, "option needs a value:", argv[optind - 1]);
            return CLC_USAGE;
        case '?':
            clc_usage_error(cli->prog, cli->help, "unknown option", argv[optind - 1]);
            return CLC_USAGE;
        default:
            if (parse_shared(cli, c, optarg, o, l) != CLC_OK)
                return CLC_USAGE;
        }
    }
    if (o->sweep_max && o->size) {
        clc_usage_error(cli->prog, cli->help,
                        "--sweep-size and --size exclude each other: a sweep chooses the sizes",
                        NULL);
        return CLC_USAGE;
    }
    l->cases = (const char *const *)argv + optind;
    l->n_cases = argc - optind;
    for (int i = 0; i < l->n_cases; i++) {
        if (!cli->case_known(l->cases[i])) {
            clc_error_as(cli->prog, "unknown case '%s'; '%s cases' lists them", l->cases[i],
                         cli->prog);
            return CLC_USAGE;
        }
    }
    return CLC_OK;
}

FILE *clc_run_table(enum clc_format format, const char *output)
{
    return format == CLC_FMT_TABLE || !clc_output_is_stdout(output) ? stdout : NULL;
}

int clc_run_write(const char *prog, const struct clc_report *rep, enum clc_format format,
                  const char *output, int rc)
{
    bool to_stdout = clc_output_is_stdout(output);
    if (rc != CLC_OK) {
        if (!to_stdout)
            clc_error_as(prog, "'%s' not written: the run had errors", output);
        return rc;
    }
    if (to_stdout && format == CLC_FMT_TABLE)
        return CLC_OK; /* it streamed there row by row */
    /* stdout too goes through the output rules, so a full disk or a closed pipe is an
     * error rather than a silently cut report */
    return clc_write_report_file(rep, format, to_stdout ? "-" : output);
}

void clc_print_case_head(FILE *f, const char *name, const char *summary, const char *variants,
                         unsigned types, const char *bytes_rule, const char *expect)
{
    fprintf(f, "%s\n", name);
    fprintf(f, "    %s\n", summary);
    fprintf(f, "    variants: %s\n", variants);
    fprintf(f, "    types:    %s%s%s\n", types & CLC_FLOAT ? "float" : "",
            (types & CLC_FLOAT) && (types & CLC_DOUBLE) ? ", " : "",
            types & CLC_DOUBLE ? "double" : "");
    fprintf(f, "    bytes:    %s\n", bytes_rule);
    fprintf(f, "    expect:   %s\n", expect);
}

int clc_tool_command(const struct clc_tool_commands *t, int argc, char **argv)
{
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(t->usage, stdout);
        return CLC_OK;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("%s %s\n", t->prog, CLC_VERSION);
        return CLC_OK;
    }
    if (strcmp(cmd, "list") == 0 || strcmp(cmd, "cases") == 0) {
        if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
            printf("usage: %s %s\n%s\n", t->prog, cmd,
                   cmd[0] == 'c' ? "Every case: what it shows, its variants, the bytes it "
                                   "counts, which variant should win."
                                 : "Every device of every API, with the index --device takes.");
            return CLC_OK;
        }
        if (argc > 2) {
            clc_usage_error(t->prog, t->help, "unexpected argument", argv[2]);
            return CLC_USAGE;
        }
        if (cmd[0] == 'c') {
            t->print_cases(stdout);
            return CLC_OK;
        }
        return t->list(stdout);
    }
    return -1;
}
