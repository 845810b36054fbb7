/* options.h - the command line that the OpenCL tool and the CUDA twins share: the options
 * of `run` (their values, one parser with one set of messages, where the report goes) and
 * the commands both have besides it.  Each tool plugs its own options into the parser (the
 * OpenCL tool's --kernel-dir and custom kernel, the twins' --max-block), so both command
 * lines take and refuse the shared ones alike. */
#ifndef CLCOALESCE_OPTIONS_H
#define CLCOALESCE_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clcoalesce/core.h"
#include "clcoalesce/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The values of the shared options, listed once: struct clc_run_opts holds them, and a
 * tool's options struct in C takes them with CLC_RUN_OPTS_GROUP (as Linux's struct_group
 * does), so they read by name (o->reps) and pass as one struct clc_run_opts to
 * clc_parse_run.  C++ derives from struct clc_run_opts instead. */
#define CLC_RUN_OPTS_MEMBERS                                                                \
    uint64_t size;       /* --size: bytes of each case's main array; 0 = from the device */ \
    uint64_t sweep_min;  /* --sweep-size MIN:MAX: run at MIN, 2 x MIN, ... <= MAX; */       \
    uint64_t sweep_max;  /* 0 and 0 for no sweep */                                         \
    bool cold;           /* --cold: flush the last-level cache before each timed sample */  \
    int reps;            /* --reps: timed samples; 0 = chosen at run time */                \
    int warmup;          /* --warmup: untimed launches; -1 = chosen at run time */          \
    unsigned types;      /* --type: enum clc_type mask */                                   \
    bool types_given;    /* --type was given: fp64 missing is then an error, not a skip */  \
    bool quick;          /* --quick: tiny sizes and few reps, for smoke tests */            \
    bool host_check;     /* --host-check: also time a batch with the host clock */          \
    double peak_gbps;    /* --peak, NAN when not given */                                   \
    const char *device;  /* --device selector, NULL for the tool's default */               \
    const char *variant; /* --variant: run only this variant, NULL for all */

struct clc_run_opts {
    CLC_RUN_OPTS_MEMBERS
};

/* The members of struct clc_run_opts inside another struct, both by name and as the
 * struct clc_run_opts `name`. */
#define CLC_RUN_OPTS_GROUP(name)                                                            \
    union {                                                                                 \
        struct {                                                                            \
            CLC_RUN_OPTS_MEMBERS                                                            \
        };                                                                                  \
        struct clc_run_opts name;                                                           \
    }

/* The usage text of the shared options, for each tool's --help: the timing and selection
 * options, the output options, and the closing lines. */
#define CLC_RUN_HELP_TIMING                                                                    \
    "  -r, --reps N              timed samples per variant (default 20)\n"                     \
    "  -w, --warmup N            untimed launches first (default 2)\n"                         \
    "  -t, --type T              float, double or all (default all the case supports)\n"       \
    "      --variant V           run only variant V of each case\n"                            \
    "  -q, --quick               tiny sizes and 5 reps: a smoke test, not a measurement\n"     \
    "      --peak GBPS           theoretical peak bandwidth, for the %peak column\n"           \
    "      --host-check          also time a batch with the host clock (ms_host)\n"
#define CLC_RUN_HELP_OUTPUT                                                                    \
    "  -f, --format FMT          table, csv or json (default table)\n"                         \
    "  -o, --output FILE         write the results there (atomically; not written on error)\n" \
    "      --quiet               no notes on stderr\n"
#define CLC_HELP_END                                                                           \
    "  -h, --help                this text\n"                                                  \
    "  -V, --version             the version\n"                                                \
    "\n"                                                                                       \
    "exit status: 0 all results verified, 1 run-time error or a wrong result, 2 usage error\n"

/* Fills o with the defaults: float and double, everything else chosen at run time. */
void clc_run_opts_defaults(struct clc_run_opts *o);

/* Shared options that a tool takes only when it says so; every other one every tool takes. */
enum {
    CLC_RUN_SWEEP = 1u << 0, /* --sweep-size (and its exclusion of --size) */
    CLC_RUN_COLD = 1u << 1,  /* --cold */
};

/* Option codes from here up are free for a tool's long-only options; its short options must
 * not be one of the shared d, s, r, w, t, q, f, o, h.  A command's own codes start at
 * CLC_RUN_CMD_OPT, above those its tool's commands share. */
#define CLC_RUN_OWN_OPT 0x1000
#define CLC_RUN_CMD_OPT 0x1100

/* A tool, as the parser sees it. */
struct clc_run_cli {
    const char *prog;         /* the messages' prefix, and "'<prog> cases' lists them" */
    const char *help;         /* where its usage text is, for "Try ...": "'clcoalesce --help'" */
    unsigned optional;        /* the CLC_RUN_* options it takes */
    /* options that several of the tool's commands share (run, custom and profile of the
     * OpenCL tool), declared once; then the command's own.  Each list ends in a zero entry;
     * either may be NULL.  Both go to parse_own. */
    const struct option *common;
    const struct option *own;
    const char *own_short;    /* its own short options, in getopt's syntax; may be NULL */
    /* Parses one of its own options (code c, value NULL when it takes none) into
     * cli->own_arg.  Returns CLC_OK, or CLC_USAGE after printing why. */
    int (*parse_own)(const struct clc_run_cli *cli, int c, const char *value);
    void *own_arg;
    bool (*case_known)(const char *name); /* whether a case of that name exists */
};

/* The rest of a parsed `run` command line. */
struct clc_run_line {
    enum clc_format format;   /* --format */
    const char *output;       /* --output FILE, NULL for stdout */
    bool quiet;               /* --quiet */
    bool help;                /* --help: nothing after it was read */
    const char *const *cases; /* the cases named, pointing into argv */
    int n_cases;
};

/* Parses `run`'s arguments (argv[0] is "run" or the program) into o (from its defaults) and
 * l; cli's own options go to cli->parse_own.  Refuses an unknown option or case, a bad value,
 * and --size with --sweep-size.  Returns CLC_OK or CLC_USAGE after printing why. */
int clc_parse_run(int argc, char **argv, const struct clc_run_cli *cli, struct clc_run_opts *o,
                  struct clc_run_line *l);

/* Parses the value of option `name` as a whole number in [min, max] into *out; otherwise
 * prints "<name> takes a whole number from MIN to MAX, not 'ARG'" as cli's usage error and
 * returns CLC_USAGE.  For a tool's own options too. */
int clc_run_count(const struct clc_run_cli *cli, const char *name, const char *arg, long min,
                  long max, long *out);

/* Where the table streams during a run: stdout, unless stdout is to carry the CSV or JSON
 * (no --output, or --output -); NULL then. */
FILE *clc_run_table(enum clc_format format, const char *output);

/* After a run that returned rc: writes the report to `output` by clc_output_write's rules
 * (outfile.h), or as CSV or JSON to stdout when output is NULL or "-" (a table has streamed
 * already); after a failed run writes nothing and, with `output`, says so as prog.  Returns
 * rc, or CLC_ERR when writing failed.  A run command checks `output` with clc_output_check
 * before it starts, so that a path that cannot be written fails at once, not after an hour. */
int clc_run_write(const char *prog, const struct clc_report *rep, enum clc_format format,
                  const char *output, int rc);

/* The commands a tool has beside `run`, answered alike by both. */
struct clc_tool_commands {
    const char *prog;             /* for --version and messages */
    const char *help;             /* where its usage text is, for "Try ..." */
    const char *usage;            /* the text of --help */
    void (*print_cases)(FILE *f); /* `cases` */
    int (*list)(FILE *f);         /* `list`: prints the devices, returns the exit code */
};

/* Prints the part of a case's entry in the `cases` listing that both tools share: its name,
 * what it shows, its variants, types, the bytes counted and which variant should win.  Each
 * tool adds where the case's code is. */
void clc_print_case_head(FILE *f, const char *name, const char *summary, const char *variants,
                         unsigned types, const char *bytes_rule, const char *expect);

/* When argv[1] is -h, --help, help, -V, --version, cases or list: runs it and returns the
 * exit code (`cases` and `list` take no argument).  Otherwise returns -1. */
int clc_tool_command(const struct clc_tool_commands *t, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
