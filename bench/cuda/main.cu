/* main.cu - clcoalesce-cuda: the command line of the CUDA twins.  Options, output formats and
 * exit codes are those of `clcoalesce run`, and the report is written by the same library, so
 * `clcoalesce compare` reads both tools' results. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.cuh"

static const char usage_text[] =
    "usage: clcoalesce-cuda [run] [CASE...] [options]\n"
    "       clcoalesce-cuda cases | list\n"
    "\n"
    "The CUDA twins of the clcoalesce OpenCL cases: the same kernels, sizes, launch shapes,\n"
    "bytes counted, verification and timing method, reported in the same schema.\n"
    "\n"
    "commands:\n"
    "  list                      every CUDA device, with its index\n"
    "  cases                     every case: what it shows, its variants and bytes counted\n"
    "  run [CASE...] [options]   run cases (all when none is named) and report GB/s;\n"
    "                            `run` may be left out\n"
    "\n"
    "run options:\n"
    "  -d, --device SEL          device: CUDA index or part of its name (default 0)\n"
    "  -s, --size BYTES          bytes of each case's main array, e.g. 256MiB, 4MB\n"
    "                            (default: at least 4 x L2, to measure DRAM)\n"
    "  -r, --reps N              timed samples per variant (default 20)\n"
    "  -w, --warmup N            untimed launches first (default 2)\n"
    "  -t, --type T              float, double or all (default all the case supports)\n"
    "      --variant V           run only variant V of each case\n"
    "  -q, --quick               tiny sizes and 5 reps: a smoke test, not a measurement\n"
    "      --peak GBPS           theoretical peak bandwidth, for the %peak column\n"
    "      --host-check          also time a batch with the host clock (ms_host)\n"
    "      --max-block N         cap the threads per block of the kernels that size their\n"
    "                            blocks by the kernel's limit (matrix, transpose, rowsum);\n"
    "                            256 gives the shapes NVIDIA's OpenCL driver allows\n"
    "  -f, --format FMT          table, csv or json (default table)\n"
    "  -o, --output FILE         write the results there (atomically; not written on error)\n"
    "      --quiet               no notes on stderr\n"
    "\n"
    "  -h, --help                this text\n"
    "  -V, --version             the version\n"
    "\n"
    "exit status: 0 all results verified, 1 run-time error or a wrong result, 2 usage error\n";

static void usage_error(const char *msg, const char *arg)
{
    if (arg != NULL)
        cu_error("%s '%s'", msg, arg);
    else
        cu_error("%s", msg);
    fputs("Try 'clcoalesce-cuda --help'.\n", stderr);
}

enum {
    OPT_PEAK = 256,
    OPT_VARIANT,
    OPT_HOST_CHECK,
    OPT_QUIET,
    OPT_MAX_BLOCK,
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
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"max-block", required_argument, NULL, OPT_MAX_BLOCK},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

struct run_args {
    struct cu_opts opts;
    enum clc_format format;
    const char *output;
    bool quiet, help;
    const char *const *cases;
    int n_cases;
};

/* Parses `run`'s arguments (argv[0] is "run" or the program).  CLC_OK or CLC_USAGE. */
static int parse_run_args(int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof *a);
    cu_opts_defaults(&a->opts);
    a->format = CLC_FMT_TABLE;
    optind = 1;
    opterr = 0;
    int c;
    long v;
    const char *why;
    while ((c = getopt_long(argc, argv, ":d:s:r:w:t:qf:o:h", run_options, NULL)) != -1) {
        switch (c) {
        case 'd': a->opts.device = optarg; break;
        case 's':
            if (clc_parse_size(optarg, &a->opts.size, &why) != CLC_OK) {
                cu_error("bad --size '%s': %s", optarg, why);
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
        case OPT_MAX_BLOCK:
            if (clc_parse_count(optarg, 32, 1024, &v) != CLC_OK) {
                usage_error("--max-block takes a whole number from 32 to 1024, not", optarg);
                return CLC_USAGE;
            }
            a->opts.max_block = (unsigned)v;
            break;
        case 'f': {
            enum clc_format f;
            if (clc_parse_format(optarg, &f) != CLC_OK) {
                usage_error("--format takes table, csv or json, not", optarg);
                return CLC_USAGE;
            }
            a->format = f;
            break;
        }
        case 'o': a->output = optarg; break;
        case OPT_QUIET: a->quiet = true; break;
        case 'h': a->help = true; return CLC_OK;
        case ':': usage_error("option needs a value:", argv[optind - 1]); return CLC_USAGE;
        default: usage_error("unknown option", argv[optind - 1]); return CLC_USAGE;
        }
    }
    a->cases = (const char *const *)argv + optind;
    a->n_cases = argc - optind;
    for (int i = 0; i < a->n_cases; i++) {
        if (cu_find_case(a->cases[i]) == NULL) {
            cu_error("unknown case '%s'; 'clcoalesce-cuda cases' lists them", a->cases[i]);
            return CLC_USAGE;
        }
    }
    return CLC_OK;
}

static int cmd_run(int argc, char **argv)
{
    struct run_args a;
    int rc = parse_run_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(usage_text, stdout);
        return CLC_OK;
    }
    clc_quiet = a.quiet;
    /* stdout carries CSV or JSON when no file is named; otherwise the table streams there */
    bool stream = a.format == CLC_FMT_TABLE || a.output != NULL;
    struct clc_report rep;
    clc_report_init(&rep, "cuda");
    rc = cu_run(&a.opts, a.cases, a.n_cases, &rep, stream ? stdout : NULL);
    if (rc == CLC_OK) {
        if (a.output != NULL)
            rc = clc_write_report_file(&rep, a.format, a.output);
        else if (a.format == CLC_FMT_CSV)
            rc = clc_write_csv(&rep, stdout);
        else if (a.format == CLC_FMT_JSON)
            rc = clc_write_json(&rep, stdout);
    } else if (a.output != NULL) {
        cu_error("'%s' not written: the run had errors", a.output);
    }
    clc_report_free(&rep);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cmd_run(argc, argv);
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return CLC_OK;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("clcoalesce-cuda %s\n", CLC_VERSION);
        return CLC_OK;
    }
    if (strcmp(cmd, "list") == 0 || strcmp(cmd, "cases") == 0) {
        if (argc > 2) {
            usage_error("unexpected argument", argv[2]);
            return CLC_USAGE;
        }
        if (cmd[0] == 'c') {
            cu_print_cases(stdout);
            return CLC_OK;
        }
        return cu_print_devices(stdout);
    }
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    return cmd_run(argc, argv);
}
