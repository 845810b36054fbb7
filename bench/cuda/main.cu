/* main.cu - clcoalesce-cuda: the command line of the CUDA twins.  Options, output formats and
 * exit codes are those of `clcoalesce run`, and the report is written by the same library, so
 * `clcoalesce compare` reads both tools' results. */
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
    CLC_RUN_HELP_TIMING
    "      --max-block N         cap the threads per block of the kernels that size their\n"
    "                            blocks by the kernel's limit (matrix, transpose, rowsum);\n"
    "                            256 gives the shapes NVIDIA's OpenCL driver allows\n"
    CLC_RUN_HELP_OUTPUT
    "\n"
    CLC_HELP_END;

/* Where the usage text is, for "Try ..." after a usage error. */
#define HELP "'" CU_PROG " --help'"

/* The twins' own `run` options; the rest are the OpenCL tool's (include/clcoalesce/options.h). */
enum {
    OPT_MAX_BLOCK = CLC_RUN_OWN_OPT,
};

static const struct option own_options[] = {
    {"max-block", required_argument, NULL, OPT_MAX_BLOCK},
    {NULL, 0, NULL, 0},
};

/* Parses one of own_options into the struct cu_opts at cli->own_arg (clc_parse_run's hook). */
static int parse_own(const struct clc_run_cli *cli, int c, const char *value)
{
    struct cu_opts *o = static_cast<struct cu_opts *>(cli->own_arg);
    long v;
    if (c == OPT_MAX_BLOCK) {
        if (clc_run_count(cli, "--max-block", value, 32, 1024, &v) != CLC_OK)
            return CLC_USAGE;
        o->max_block = (unsigned)v;
    }
    return CLC_OK;
}

static bool case_known(const char *name)
{
    return cu_find_case(name) != NULL;
}

static int cmd_run(int argc, char **argv)
{
    struct cu_opts opts;
    struct clc_run_line a;
    const struct clc_run_cli cli = {CU_PROG, HELP, 0, own_options, NULL, parse_own, &opts,
                                    case_known};
    cu_opts_defaults(&opts);
    int rc = clc_parse_run(argc, argv, &cli, &opts, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(usage_text, stdout);
        return CLC_OK;
    }
    clc_quiet = a.quiet;
    struct clc_report rep;
    clc_report_init(&rep, "cuda");
    rc = cu_run(&opts, a.cases, a.n_cases, &rep, clc_run_table(a.format, a.output));
    rc = clc_run_write(CU_PROG, &rep, a.format, a.output, rc);
    clc_report_free(&rep);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cmd_run(argc, argv);
    static const struct clc_tool_commands tool = {CU_PROG, HELP, usage_text, cu_print_cases,
                                                  cu_print_devices};
    int rc = clc_tool_command(&tool, argc, argv);
    if (rc >= 0)
        return rc;
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    return cmd_run(argc, argv);
}
