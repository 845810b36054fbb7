/* cli.h - the command-line front end, in the library so tests can call it. */
#ifndef CLCOALESCE_CLI_H
#define CLCOALESCE_CLI_H

#include "clcoalesce/cases.h"

/* Parsed `run` arguments.  cases point into argv. */
struct clc_run_args {
    struct clc_opts opts;
    enum clc_format format;
    const char *output;
    bool quiet;
    bool help;
    const char *const *cases;
    int n_cases;
};

/* Parses `run`'s arguments (argv[0] is "run").  Returns CLC_OK or CLC_USAGE with a message. */
int clc_parse_run_args(int argc, char **argv, struct clc_run_args *a);

/* The whole program: returns the process exit code (0, 1 or 2). */
int clc_main(int argc, char **argv);

#endif
