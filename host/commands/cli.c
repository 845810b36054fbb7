/* cli.c - the command line: subcommands, the options of `run`, time limits and signals, and
 * exit codes.  main.c only calls clc_main(), so the tests can drive the same code. */
#define _GNU_SOURCE
#include "clcoalesce/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "clcoalesce/compare.h"
#include "clcoalesce/compiler.h"
#include "clcoalesce/explain.h"
#include "clcoalesce/outfile.h"

static const char usage_text[] =
    "usage: clcoalesce <command> [options]\n"
    "\n"
    "commands:\n"
    "  list                      every OpenCL and CUDA device, with its index\n"
    "  cases                     every case: what it shows, its variants and bytes counted\n"
    "  run [CASE...] [options]   run cases (all when none is named) and report GB/s\n"
    "  custom --kernel-file F --kernel NAME --pattern P [options]\n"
    "                            your own kernel: checked, verified, timed, modelled and\n"
    "                            ranked against the built-in variants, and with a profile\n"
    "                            predicted layer by layer ('custom --help')\n"
    "  validate [--split dev|test|all] [--family F] [--manifest FILE] [options]\n"
    "                            the held-out kernels of bench/validation: measured\n"
    "                            against predicted GB/s, scored per split ('validate --help')\n"
    "  compare A.json B.json...  rows of result files side by side, with each file's ratio\n"
    "                            to the first (--format, --output, --metric gbps|ms,\n"
    "                            --tolerance PCT: exit 1 if a ratio is off by more)\n"
    "  plot RESULTS.json... -o DIR\n"
    "                            charts of result files, drawn by gnuplot: PNG and SVG,\n"
    "                            with the .gp scripts and .dat data kept to edit\n"
    "  explain CASE [--variant V] [--param P] [--type T] [--results FILE]\n"
    "  explain --kernel-file F --kernel NAME [custom's options]\n"
    "                            one variant's kernel, a warp's requests sector by sector,\n"
    "                            the predicted sectors per request, and with a profile\n"
    "                            (--profile, a result file's, or the device's kept one) the\n"
    "                            predicted GB/s layer by layer; with a result file, the\n"
    "                            measured figure beside it\n"
    "  profile [--device SEL] [--api A] [-o FILE]\n"
    "                            the device measured, and kept for explain, run and custom:\n"
    "                            L1 / L2 / DRAM latency, read, write, copy and triad\n"
    "                            ceilings, bytes in flight, local banks, line rates of\n"
    "                            scattered loads and stores, work-groups started per second\n"
    "                            and copies by work-group size\n"
    "  ptx CASE [--variant V] [--type T] [--api A] [--verbose | --raw]\n"
    "                            the PTX of a case's kernels (NVIDIA only), global loads and\n"
    "                            stores counted by width; --verbose: registers and spills\n"
    "\n"
    "run options (custom takes them too):\n"
    "  -d, --device SEL          device: flat index, P:D, or part of its name\n"
    "                            (default: the first GPU, else the first device)\n"
    "      --api A               opencl (default), cuda, or both: each row timed on both\n"
    "                            APIs side by side from the same kernel source\n"
    "  -s, --size BYTES          bytes of each case's main array, e.g. 256MiB, 4MB\n"
    "                            (default: at least 4 x the last-level cache, to measure DRAM,\n"
    "                            and large enough that a copy lasts 0.5 ms at the peak: 1 GiB\n"
    "                            on an H100, 2 GiB on an H200; at most 16 MiB on a CPU)\n"
    "      --sweep-size MIN:MAX  run each case at MIN, 2 x MIN, 4 x MIN ... up to MAX, e.g.\n"
    "                            1MiB:4GiB; every row carries its size (size_bytes); a case\n"
    "                            stops at the first size it cannot allocate (not with --size)\n"
    CLC_RUN_HELP_TIMING
    "      --cold                flush the last-level cache before each timed sample (one\n"
    "                            launch per sample), so each starts from DRAM\n"
    "      --no-model            skip the access model (the model column: useful bytes /\n"
    "                            bytes moved in 32-byte sectors, from traced addresses) and\n"
    "                            the predictions (pred, bound)\n"
    "      --profile FILE        the device profile the predictions read ('clcoalesce\n"
    "                            profile -o FILE'); without it, the run's own rows of the\n"
    "                            profile's cases, at the end of the run\n"
    "      --model-table         after the table, every predicted row against its\n"
    "                            measurement (the end of the run shows the furthest three)\n"
    "      --timeout SECONDS     end the run when it takes longer, naming the kernel that\n"
    "                            was running (default: none; custom: 60)\n"
    "      --progress, --no-progress\n"
    "                            a progress line on stderr (default: when it is a terminal)\n"
    "  -k, --kernel-dir DIR      folder of .cl files (else $CLCOALESCE_KERNEL_DIR, the source\n"
    "                            tree, or <prefix>/share/clcoalesce/cl)\n"
    CLC_RUN_HELP_OUTPUT
    "\n"
    CLC_HELP_END;

#define PROG "clcoalesce"
#define HELP "'clcoalesce --help'" /* where the usage text is, for "Try ..." */

static void usage_error(const char *msg, const char *arg)
{
    clc_usage_error(PROG, HELP, msg, arg);
}

/* ------------------------------------------------------------------ time limits, signals */

/* --timeout as given ("0.5", "1e-07"), written before the timer is armed and only read by
 * the handler, so the message names the limit the user set, not a rounded one. */
static char limit_text[32];

/* Writes s with write(2): all a signal handler may use. */
static void say(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(clc_stderr_fd(), s, n); /* not a build's held stderr */
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void on_alarm(int sig)
{
    (void)sig;
    clc_outfile_abandon();
    if (clc_status_active())
        say(clc_status_clear_text());
    say(PROG ": error: the run took longer than --timeout ");
    say(limit_text);
    say(" s; it was running ");
    say(clc_activity_text()[0] ? clc_activity_text() : "the set-up");
    say(": a kernel that never ends has a loop whose bound is never reached, or a barrier "
        "that some work-items of a group never reach (a barrier in divergent code)\n");
    _exit(CLC_ERR);
}

static void on_signal(int sig)
{
    clc_outfile_abandon();
    if (clc_status_active())
        say(clc_status_clear_text());
    say(PROG ": interrupted; nothing was written\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

void clc_guard_run(double timeout)
{
    clc_on_ending_signals(on_signal); /* SIGHUP too: the terminal closed */
    if (timeout > 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigemptyset(&sa.sa_mask);
        sa.sa_handler = on_alarm;
        sigaction(SIGALRM, &sa, NULL);
        snprintf(limit_text, sizeof limit_text, "%g", timeout);
        /* below a microsecond the timer's value would be zero, which disarms it: round a
         * positive limit up to the timer's resolution instead */
        struct itimerval it = {{0, 0}, {(time_t)timeout, (suseconds_t)(fmod(timeout, 1.0) * 1e6)}};
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
            it.it_value.tv_usec = 1;
        setitimer(ITIMER_REAL, &it, NULL);
    }
}

void clc_follow_parent(long parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    if (parent > 1 && getppid() != (pid_t)parent)
        _exit(CLC_ERR); /* the parent was gone before the line above */
}

/* ------------------------------------------------------------------ list */

static int cmd_list(FILE *f)
{
    int shown = 0;
    for (int a = 0; a < CLC_API_COUNT; a++) {
        struct clc_device *devs;
        int n;
        /* CUDA is optional: say nothing where it is absent */
        if (clc_backend_ops((enum clc_api)a)->devices(&devs, &n, a != CLC_API_OPENCL) != CLC_OK)
            continue;
        fprintf(f, "%s%s devices:\n", shown ? "\n" : "", a == CLC_API_OPENCL ? "OpenCL" : "CUDA");
        clc_print_devices(f, devs, n);
        free(devs);
        shown++;
    }
    return shown ? CLC_OK : CLC_ERR;
}

/* ------------------------------------------------------------------ run */

/* The options run, custom and profile share beyond clc_parse_run's, declared once: their
 * codes, their table and their parser (clc_parse_tool_option). */
enum {
    OPT_NO_MODEL = CLC_RUN_OWN_OPT,
    OPT_API,
    OPT_TIMEOUT,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_PROFILE,
    OPT_MODEL_TABLE,
};

const struct option clc_tool_options[] = {
    {"kernel-dir", required_argument, NULL, 'k'},
    {"no-model", no_argument, NULL, OPT_NO_MODEL},
    {"api", required_argument, NULL, OPT_API},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"model-table", no_argument, NULL, OPT_MODEL_TABLE},
    {NULL, 0, NULL, 0},
};

int clc_parse_timeout(const char *prog, const char *help, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno != 0 || !(v >= 0) || v > 86400.0 * 365) {
        clc_usage_error(prog, help, "--timeout takes a number of seconds (0: none), not", s);
        return CLC_USAGE;
    }
    *out = v;
    return CLC_OK;
}

int clc_parse_tool_option(const struct clc_run_cli *cli, struct clc_run_args *a, int c,
                          const char *value)
{
    struct clc_opts *o = &a->opts;
    switch (c) {
    case 'k':
        if (*value == '\0') {
            clc_usage_error(cli->prog, cli->help, "--kernel-dir takes a folder, not", value);
            return CLC_USAGE;
        }
        o->kernel_dir = value;
        return CLC_OK;
    case OPT_NO_MODEL: o->model = false; return CLC_OK;
    case OPT_MODEL_TABLE: o->model_table = true; return CLC_OK;
    case OPT_API:
        if (clc_parse_api(value, &o->apis) != CLC_OK) {
            clc_usage_error(cli->prog, cli->help, "--api takes opencl, cuda or both, not", value);
            return CLC_USAGE;
        }
        return CLC_OK;
    case OPT_TIMEOUT: return clc_parse_timeout(cli->prog, cli->help, value, &a->timeout);
    case OPT_PROGRESS: o->progress = 1; return CLC_OK;
    case OPT_NO_PROGRESS: o->progress = 0; return CLC_OK;
    case OPT_PROFILE:
        if (*value == '\0') {
            clc_usage_error(cli->prog, cli->help, "--profile takes a file written by "
                            "'clcoalesce profile -o', not", value);
            return CLC_USAGE;
        }
        o->profile = value;
        return CLC_OK;
    }
    return -1;
}

/* run has no options of its own: the shared ones into the struct clc_run_args at
 * cli->own_arg. */
static int parse_own(const struct clc_run_cli *cli, int c, const char *value)
{
    return clc_parse_tool_option(cli, cli->own_arg, c, value);
}

static bool case_known(const char *name)
{
    return clc_find_case(name) != NULL;
}

int clc_parse_tool_args(int argc, char **argv, const struct clc_run_cli *cli,
                        struct clc_run_args *a)
{
    struct clc_run_line line;
    int rc = clc_parse_run(argc, argv, cli, &a->opts.run, &line);
    a->format = line.format;
    a->output = line.output;
    a->quiet = line.quiet;
    a->help = line.help;
    a->cases = line.cases;
    a->n_cases = line.n_cases;
    if (a->quiet && a->opts.progress < 0)
        a->opts.progress = 0;
    return rc;
}

int clc_parse_run_args(int argc, char **argv, struct clc_run_args *a)
{
    const struct clc_run_cli cli = {PROG, HELP, CLC_RUN_SWEEP | CLC_RUN_COLD, clc_tool_options,
                                    NULL, "k:", parse_own, a, case_known};
    memset(a, 0, sizeof *a);
    clc_opts_defaults(&a->opts);
    a->opts.compiler = clc_self_exe;
    int rc = clc_parse_tool_args(argc, argv, &cli, a);
    if (rc == CLC_OK && !a->help) {
        const struct clc_input in[] = {{a->opts.profile, "--profile"}};
        rc = clc_output_refuse_inputs(PROG, HELP, "-o", a->output, in, 1);
    }
    return rc;
}

int clc_run_command(const struct clc_run_args *a, int (*work)(const struct clc_run_args *a,
                                                              struct clc_report *rep))
{
    if (a->output != NULL && clc_output_check(a->output) != CLC_OK)
        return CLC_ERR;
    clc_quiet = a->quiet;
    clc_guard_run(a->timeout);
    struct clc_report rep;
    clc_report_init(&rep, clc_api_name(CLC_API_OPENCL));
    int rc = work(a, &rep);
    rc = clc_run_write(PROG, &rep, a->format, a->output, rc);
    clc_report_free(&rep);
    return rc;
}

static int run_work(const struct clc_run_args *a, struct clc_report *rep)
{
    return clc_run(&a->opts, a->cases, a->n_cases, rep, clc_run_table(a->format, a->output));
}

static int cmd_run(int argc, char **argv)
{
    struct clc_run_args a;
    int rc = clc_parse_run_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(usage_text, stdout);
        return CLC_OK;
    }
    int worker = clc_device_worker(&a);
    if (worker < 0)
        return CLC_ERR;
    if (worker == 0 && clc_every_device_selector(a.opts.device))
        return clc_run_every_device(argc, argv, &a);
    return clc_run_command(&a, run_work);
}

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} commands[] = {
    {"run", cmd_run},
    {"custom", clc_cmd_custom},
    {"validate", clc_cmd_validate},
    {"compare", clc_cmd_compare},
    {"plot", clc_cmd_plot},
    {"explain", clc_cmd_explain},
    {"ptx", clc_cmd_ptx},
    {"profile", clc_cmd_profile},
};

/* ------------------------------------------------------------------ standard streams */

/* A standard stream closed when the process started (`>&-`) is opened on /dev/null, so that
 * no file the command opens takes its number and receives what was meant for it; stdout
 * read-only, so that every write to it fails (EBADF) and finish_stdout reports it. */
static void reopen_closed_streams(void)
{
    static const int mode[] = {O_RDONLY, O_RDONLY, O_WRONLY}; /* stdin, stdout, stderr */
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int n = open("/dev/null", mode[fd]);
        if (n >= 0 && n != fd) { /* a lower number was free: cannot happen, but be sure */
            dup2(n, fd);
            close(n);
        }
    }
}

/* The command's exit code rc, or CLC_ERR after a message when what it wrote to stdout did
 * not all arrive (stdout closed, a full disk, a pipe whose reader is gone while SIGPIPE is
 * ignored): output lost is never an exit 0. */
static int finish_stdout(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    int e = errno;
    if (e == 0 && write(STDOUT_FILENO, "", 0) < 0) /* the error of an earlier write */
        e = errno;
    clc_error("cannot write to standard output%s%s: the output is lost", e ? ": " : "",
              e ? strerror(e) : "");
    return rc == CLC_OK ? CLC_ERR : rc;
}

/* The command named by argv[1]. */
static int dispatch(int argc, char **argv)
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

int clc_main(int argc, char **argv)
{
    const char *compiler = getenv(CLC_COMPILER_ENV);
    if (compiler != NULL)
        return clc_opencl_compiler_main(compiler);
    reopen_closed_streams();
    return finish_stdout(dispatch(argc, argv));
}
