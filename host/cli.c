/* cli.c - the command line: subcommands, option parsing, output routing and exit codes.
 * main.c only calls clc_main(), so the tests can drive the same code. */
#define _GNU_SOURCE
#include "clcoalesce/cli.h"

#include <getopt.h>
#include <math.h>
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
    "  -r, --reps N              timed samples per variant (default 20)\n"
    "  -w, --warmup N            untimed launches first (default 2)\n"
    "  -t, --type T              float, double or all (default all the case supports)\n"
    "      --variant V           run only variant V of each case\n"
    "  -q, --quick               tiny sizes and 5 reps: a smoke test, not a measurement\n"
    "      --peak GBPS           theoretical peak bandwidth, for the %peak column\n"
    "      --host-check          also time a batch with the host clock (ms_host)\n"
    "      --cold                flush the last-level cache before each timed sample (one\n"
    "                            launch per sample), so each starts from DRAM\n"
    "      --no-model            skip the access model (the model column: useful bytes /\n"
    "                            bytes moved in 32-byte sectors, from traced addresses)\n"
    "  -k, --kernel-dir DIR      folder of .cl files (else $CLCOALESCE_KERNEL_DIR, the source\n"
    "                            tree, or <prefix>/share/clcoalesce/cl)\n"
    "  -f, --format FMT          table, csv or json (default table)\n"
    "  -o, --output FILE         write the results there (atomically; not written on error)\n"
    "      --quiet               no notes on stderr\n"
    "\n"
    "your own kernel (run custom --help: the signatures and launch shapes):\n"
    "      --kernel-file F       the .cl file (with case custom only, as the four below)\n"
    "      --kernel NAME         the __kernel in it\n"
    "      --pattern P           what it computes: copy, scale, transpose or gather\n"
    "      --local N|XxY         work-group size (default 256; transpose 32x8)\n"
    "      --items-per-thread K  elements (transpose: rows) per work-item (default 1; 4)\n"
    "\n"
    "  -h, --help                this text\n"
    "  -V, --version             the version\n"
    "\n"
    "exit status: 0 all results verified, 1 run-time error or a wrong result, 2 usage error\n";

static void usage_error(const char *msg, const char *arg)
{
    if (arg != NULL)
        clc_error("%s '%s'", msg, arg);
    else
        clc_error("%s", msg);
    fputs("Try 'clcoalesce --help'.\n", stderr);
}

static int cmd_list(void)
{
    struct clc_device *devs;
    int n;
    if (clc_devices(&devs, &n) != CLC_OK)
        return CLC_ERR;
    clc_print_devices(stdout, devs, n);
    free(devs);
    return CLC_OK;
}

enum {
    OPT_PEAK = 256,
    OPT_VARIANT,
    OPT_HOST_CHECK,
    OPT_QUIET,
    OPT_NO_MODEL,
    OPT_KERNEL_FILE,
    OPT_KERNEL,
    OPT_PATTERN,
    OPT_LOCAL,
    OPT_ITEMS,
    OPT_SWEEP_SIZE,
    OPT_COLD,
};

static const struct option run_options[] = {
    {"device", required_argument, NULL, 'd'},
    {"size", required_argument, NULL, 's'},
    {"reps", required_argument, NULL, 'r'},
    {"warmup", required_argument, NULL, 'w'},
    {"type", required_argument, NULL, 't'},
    {"variant", required_argument, NULL, OPT_VARIANT},
    {"quick", no_argument, NULL, 'q'},
    {"peak", required_argument, NULL, OPT_PEAK},
    {"host-check", no_argument, NULL, OPT_HOST_CHECK},
    {"cold", no_argument, NULL, OPT_COLD},
    {"sweep-size", required_argument, NULL, OPT_SWEEP_SIZE},
    {"kernel-dir", required_argument, NULL, 'k'},
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"no-model", no_argument, NULL, OPT_NO_MODEL},
    {"kernel-file", required_argument, NULL, OPT_KERNEL_FILE},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"pattern", required_argument, NULL, OPT_PATTERN},
    {"local", required_argument, NULL, OPT_LOCAL},
    {"items-per-thread", required_argument, NULL, OPT_ITEMS},
    {"help", no_argument, NULL, 'h'},
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

/* --sweep-size MIN:MAX, each side a size as --size takes it, MIN <= MAX. */
static int parse_sweep(const char *s, uint64_t *min, uint64_t *max)
{
    char buf[128];
    const char *why;
    snprintf(buf, sizeof buf, "%s", s);
    char *colon = strchr(buf, ':');
    if (colon == NULL) {
        clc_error("bad --sweep-size '%s': expected MIN:MAX, e.g. 1MiB:4GiB", s);
        return CLC_USAGE;
    }
    *colon = '\0';
    if (clc_parse_size(buf, min, &why) != CLC_OK) {
        clc_error("bad --sweep-size '%s': MIN '%s': %s", s, buf, why);
        return CLC_USAGE;
    }
    if (clc_parse_size(colon + 1, max, &why) != CLC_OK) {
        clc_error("bad --sweep-size '%s': MAX '%s': %s", s, colon + 1, why);
        return CLC_USAGE;
    }
    if (*min > *max) {
        clc_error("bad --sweep-size '%s': MIN is larger than MAX", s);
        return CLC_USAGE;
    }
    return CLC_OK;
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
    memset(a, 0, sizeof *a);
    clc_opts_defaults(&a->opts);
    a->format = CLC_FMT_TABLE;
    optind = 1;
    opterr = 0;
    int c;
    long v;
    const char *why;
    while ((c = getopt_long(argc, argv, ":d:s:r:w:t:qk:f:o:h", run_options, NULL)) != -1) {
        switch (c) {
        case 'd': a->opts.device = optarg; break;
        case 's':
            if (clc_parse_size(optarg, &a->opts.size, &why) != CLC_OK) {
                clc_error("bad --size '%s': %s", optarg, why);
                return CLC_USAGE;
            }
            break;
        case 'r':
            if (clc_parse_count(optarg, 1, 100000, &v) != CLC_OK) {
                usage_error("--reps takes a whole number from 1 to 100000, not", optarg);
                return CLC_USAGE;
            }
            a->opts.reps = (int)v;
            break;
        case 'w':
            if (clc_parse_count(optarg, 0, 100000, &v) != CLC_OK) {
                usage_error("--warmup takes a whole number from 0 to 100000, not", optarg);
                return CLC_USAGE;
            }
            a->opts.warmup = (int)v;
            break;
        case 't':
            if (clc_parse_type(optarg, &a->opts.types) != CLC_OK) {
                usage_error("--type takes float, double or all, not", optarg);
                return CLC_USAGE;
            }
            a->opts.types_given = true;
            break;
        case OPT_VARIANT: a->opts.variant = optarg; break;
        case 'q': a->opts.quick = true; break;
        case OPT_PEAK: {
            char *end;
            double p = strtod(optarg, &end);
            if (*end != '\0' || !(p > 0) || !isfinite(p)) {
                usage_error("--peak takes a positive number of GB/s, not", optarg);
                return CLC_USAGE;
            }
            a->opts.peak_gbps = p;
            break;
        }
        case OPT_HOST_CHECK: a->opts.host_check = true; break;
        case OPT_COLD: a->opts.cold = true; break;
        case OPT_SWEEP_SIZE:
            if (parse_sweep(optarg, &a->opts.sweep_min, &a->opts.sweep_max) != CLC_OK)
                return CLC_USAGE;
            break;
        case 'k': a->opts.kernel_dir = optarg; break;
        case 'f':
            if (clc_parse_format(optarg, &a->format) != CLC_OK) {
                usage_error("--format takes table, csv or json, not", optarg);
                return CLC_USAGE;
            }
            break;
        case 'o': a->output = optarg; break;
        case OPT_QUIET: a->quiet = true; break;
        case OPT_NO_MODEL: a->opts.model = false; break;
        case OPT_KERNEL_FILE: a->opts.kernel_file = optarg; break;
        case OPT_KERNEL: a->opts.kernel_name = optarg; break;
        case OPT_PATTERN: a->opts.pattern = optarg; break;
        case OPT_LOCAL:
            if (parse_local(optarg, a->opts.local) != CLC_OK) {
                usage_error("--local takes N or XxY (1 to 65536 each), not", optarg);
                return CLC_USAGE;
            }
            break;
        case OPT_ITEMS:
            if (clc_parse_count(optarg, 1, 1 << 20, &v) != CLC_OK) {
                usage_error("--items-per-thread takes a whole number from 1 to 1048576, not",
                            optarg);
                return CLC_USAGE;
            }
            a->opts.items_per_thread = (unsigned)v;
            break;
        case 'h': a->help = true; return CLC_OK;
        case ':': usage_error("option needs a value:", argv[optind - 1]); return CLC_USAGE;
        default: usage_error("unknown option", argv[optind - 1]); return CLC_USAGE;
        }
    }
    if (a->opts.sweep_max && a->opts.size) {
        usage_error("--sweep-size and --size exclude each other: a sweep chooses the sizes", NULL);
        return CLC_USAGE;
    }
    a->cases = (const char *const *)argv + optind;
    a->n_cases = argc - optind;
    for (int i = 0; i < a->n_cases; i++) {
        if (clc_find_case(a->cases[i]) == NULL) {
            clc_error("unknown case '%s'; 'clcoalesce cases' lists them", a->cases[i]);
            return CLC_USAGE;
        }
    }
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
    /* stdout carries CSV or JSON when no file is named; otherwise the table streams there */
    bool stream = a.format == CLC_FMT_TABLE || a.output != NULL;
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    rc = clc_run(&a.opts, a.cases, a.n_cases, &rep, stream ? stdout : NULL);
    if (rc == CLC_OK) {
        if (a.output != NULL)
            rc = clc_write_report_file(&rep, a.format, a.output);
        else if (a.format == CLC_FMT_CSV)
            rc = clc_write_csv(&rep, stdout);
        else if (a.format == CLC_FMT_JSON)
            rc = clc_write_json(&rep, stdout);
    } else if (a.output != NULL) {
        clc_error("'%s' not written: the run had errors", a.output);
    }
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
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return CLC_OK;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("clcoalesce %s\n", CLC_VERSION);
        return CLC_OK;
    }
    if (strcmp(cmd, "list") == 0 || strcmp(cmd, "cases") == 0) {
        if (argc > 2) {
            usage_error("unexpected argument", argv[2]);
            return CLC_USAGE;
        }
        if (cmd[0] == 'c') {
            clc_print_cases(stdout);
            return CLC_OK;
        }
        return cmd_list();
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    usage_error("unknown command", cmd);
    return CLC_USAGE;
}
