/* cli.c - the command line: subcommands, option parsing, output routing and exit codes.
 * main.c only calls clc_main(), so the tests can drive the same code. */
#define _GNU_SOURCE
#include "clcoalesce/cli.h"

#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cases.h"
#include "clcoalesce/compare.h"
#include "clcoalesce/explain.h"

static const char usage_text[] =
    "usage: clcoalesce <command> [options]\n"
    "\n"
    "commands:\n"
    "  list                      every OpenCL platform and device, with its index\n"
    "  cases                     every case: what it shows, its variants and bytes counted\n"
    "  run [CASE...] [options]   run cases (all when none is named) and report GB/s\n"
    "  compare A.json B.json...  rows of result files side by side, with each file's ratio\n"
    "                            to the first (--format, --output, --metric gbps|ms,\n"
    "                            --tolerance PCT: exit 1 if a ratio is off by more)\n"
    "  plot RESULTS.json... -o DIR\n"
    "                            charts of result files, drawn by gnuplot: PNG and SVG,\n"
    "                            with the .gp scripts and .dat data kept to edit\n"
    "  explain CASE [--variant V] [--param P] [--type T] [--results FILE]\n"
    "                            one variant's kernel, a warp's requests sector by sector,\n"
    "                            the predicted sectors per request; with a result file,\n"
    "                            the measured fraction of the copy ceiling beside it\n"
    "  ptx CASE [--variant V] [--type T] [--verbose]\n"
    "                            the PTX of a case's kernels (NVIDIA only), global loads and\n"
    "                            stores counted by width; --verbose: registers and spills\n"
    "\n"
    "run options:\n"
    "  -d, --device SEL          device: flat index, P:D, or part of its name\n"
    "                            (default: the first GPU, else the first device)\n"
    "  -s, --size BYTES          bytes of each case's main array, e.g. 256MiB, 4MB\n"
    "                            (default: at least 4 x the last-level cache, to measure DRAM)\n"
    "      --sweep-size MIN:MAX  run each case at MIN, 2 x MIN, 4 x MIN ... up to MAX, e.g.\n"
    "                            1MiB:4GiB; every row carries its size (size_bytes); a case\n"
    "                            stops at the first size it cannot allocate (not with --size)\n"
    CLC_RUN_HELP_TIMING
    "      --cold                flush the last-level cache before each timed sample (one\n"
    "                            launch per sample), so each starts from DRAM\n"
    "      --no-model            skip the access model (the model column: useful bytes /\n"
    "                            bytes moved in 32-byte sectors, from traced addresses)\n"
    "  -k, --kernel-dir DIR      folder of .cl files (else $CLCOALESCE_KERNEL_DIR, the source\n"
    "                            tree, or <prefix>/share/clcoalesce/cl)\n"
    CLC_RUN_HELP_OUTPUT
    "\n"
    "your own kernel (run custom --help: the signatures and launch shapes):\n"
    "      --kernel-file F       the .cl file (with case custom only, as the four below)\n"
    "      --kernel NAME         the __kernel in it\n"
    "      --pattern P           what it computes: copy, scale, transpose or gather\n"
    "      --local N|XxY         work-group size (default 256; transpose 32x8)\n"
    "      --items-per-thread K  elements (transpose: rows) per work-item (default 1; 4)\n"
    "\n"
    CLC_HELP_END;

#define PROG "clcoalesce"
#define HELP "'clcoalesce --help'" /* where the usage text is, for "Try ..." */

static void usage_error(const char *msg, const char *arg)
{
    clc_usage_error(PROG, HELP, msg, arg);
}

static int cmd_list(FILE *f)
{
    struct clc_device *devs;
    int n;
    if (clc_devices(&devs, &n) != CLC_OK)
        return CLC_ERR;
    clc_print_devices(f, devs, n);
    free(devs);
    return CLC_OK;
}

/* The OpenCL tool's own `run` options; the rest are shared with the CUDA twins
 * (include/clcoalesce/options.h). */
enum {
    OPT_NO_MODEL = CLC_RUN_OWN_OPT,
    OPT_KERNEL_FILE,
    OPT_KERNEL,
    OPT_PATTERN,
    OPT_LOCAL,
    OPT_ITEMS,
};

static const struct option own_options[] = {
    {"kernel-dir", required_argument, NULL, 'k'},
    {"no-model", no_argument, NULL, OPT_NO_MODEL},
    {"kernel-file", required_argument, NULL, OPT_KERNEL_FILE},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"pattern", required_argument, NULL, OPT_PATTERN},
    {"local", required_argument, NULL, OPT_LOCAL},
    {"items-per-thread", required_argument, NULL, OPT_ITEMS},
    {NULL, 0, NULL, 0},
};

/* --local: "N" (local[1] = 0) or "XxY", each 1 to 65536. */
static int parse_local(const char *s, size_t local[2])
{
    char buf[64];
    long v;
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

/* Parses one of own_options into the struct clc_opts at cli->own_arg (clc_parse_run's hook). */
static int parse_own(const struct clc_run_cli *cli, int c, const char *value)
{
    struct clc_opts *o = cli->own_arg;
    long v;
    switch (c) {
    case 'k': o->kernel_dir = value; break;
    case OPT_NO_MODEL: o->model = false; break;
    case OPT_KERNEL_FILE: o->kernel_file = value; break;
    case OPT_KERNEL: o->kernel_name = value; break;
    case OPT_PATTERN: o->pattern = value; break;
    case OPT_LOCAL:
        if (parse_local(value, o->local) != CLC_OK) {
            usage_error("--local takes N or XxY (1 to 65536 each), not", value);
            return CLC_USAGE;
        }
        break;
    case OPT_ITEMS:
        if (clc_run_count(cli, "--items-per-thread", value, 1, 1 << 20, &v) != CLC_OK)
            return CLC_USAGE;
        o->items_per_thread = (unsigned)v;
        break;
    }
    return CLC_OK;
}

static bool case_known(const char *name)
{
    return clc_find_case(name) != NULL;
}

/* The custom case's options: all or none, and only with that case. */
static int check_custom_args(const struct clc_run_args *a)
{
    const struct clc_opts *o = &a->opts;
    bool named = false;
    for (int i = 0; i < a->n_cases; i++)
        named = named || strcmp(a->cases[i], "custom") == 0;
    bool any = o->kernel_file || o->kernel_name || o->pattern || o->local[0] ||
               o->items_per_thread;
    if (!named) {
        if (any) {
            clc_error("--kernel-file, --kernel, --pattern, --local and --items-per-thread go "
                      "with the custom case only: 'clcoalesce run custom --help'");
            return CLC_USAGE;
        }
        return CLC_OK;
    }
    if (!o->kernel_file || !o->kernel_name || !o->pattern) {
        char missing[64] = "";
        const char *names[] = {o->kernel_file ? NULL : "--kernel-file",
                               o->kernel_name ? NULL : "--kernel", o->pattern ? NULL : "--pattern"};
        for (int i = 0; i < 3; i++) {
            size_t len = strlen(missing);
            if (names[i] != NULL)
                snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "", names[i]);
        }
        clc_error("run custom needs --kernel-file F, --kernel NAME and --pattern P (copy, "
                  "scale, transpose or gather); missing %s; see 'clcoalesce run custom --help'",
                  missing);
        return CLC_USAGE;
    }
    if (!clc_custom_pattern_known(o->pattern)) {
        usage_error("--pattern takes copy, scale, transpose or gather, not", o->pattern);
        return CLC_USAGE;
    }
    bool two_d = clc_custom_pattern_2d(o->pattern);
    if (o->local[0] && two_d != (o->local[1] != 0)) {
        clc_error(two_d ? "--local: the %s pattern launches in 2-D: give XxY, e.g. 32x8"
                        : "--local: the %s pattern launches in 1-D: give one number, e.g. 256",
                  o->pattern);
        return CLC_USAGE;
    }
    if (o->types_given && !(o->types & CLC_FLOAT)) {
        clc_error("the custom case runs in float only (--type)");
        return CLC_USAGE;
    }
    return CLC_OK;
}

int clc_parse_run_args(int argc, char **argv, struct clc_run_args *a)
{
    struct clc_run_line line;
    const struct clc_run_cli cli = {PROG,        HELP, CLC_RUN_SWEEP | CLC_RUN_COLD,
                                    own_options, "k:", parse_own, &a->opts, case_known};
    memset(a, 0, sizeof *a);
    clc_opts_defaults(&a->opts);
    int rc = clc_parse_run(argc, argv, &cli, &a->opts.run, &line);
    a->format = line.format;
    a->output = line.output;
    a->quiet = line.quiet;
    a->help = line.help;
    a->cases = line.cases;
    a->n_cases = line.n_cases;
    if (rc != CLC_OK || a->help)
        return rc;
    return check_custom_args(a);
}

static int cmd_run(int argc, char **argv)
{
    struct clc_run_args a;
    int rc = clc_parse_run_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        /* `run custom --help`: getopt stopped at --help, so look at every argument */
        for (int i = 1; i < argc; i++) {
            if (strcmp(argv[i], "custom") == 0) {
                clc_custom_help(stdout);
                return CLC_OK;
            }
        }
        fputs(usage_text, stdout);
        return CLC_OK;
    }
    clc_quiet = a.quiet;
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    rc = clc_run(&a.opts, a.cases, a.n_cases, &rep, clc_run_table(a.format, a.output));
    rc = clc_run_write(PROG, &rep, a.format, a.output, rc);
    clc_report_free(&rep);
    return rc;
}

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} commands[] = {
    {"run", cmd_run},
    {"compare", clc_cmd_compare},
    {"plot", clc_cmd_plot},
    {"explain", clc_cmd_explain},
    {"ptx", clc_cmd_ptx},
};

int clc_main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return CLC_USAGE;
    }
    static const struct clc_tool_commands tool = {PROG, HELP, usage_text, clc_print_cases,
                                                  cmd_list};
    int rc = clc_tool_command(&tool, argc, argv);
    if (rc >= 0)
        return rc;
    const char *cmd = argv[1];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    usage_error("unknown command", cmd);
    return CLC_USAGE;
}
