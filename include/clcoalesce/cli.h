/* cli.h - the command-line front end, in the library so tests can call it. */
#ifndef CLCOALESCE_CLI_H
#define CLCOALESCE_CLI_H

#include <spawn.h>

#include "clcoalesce/driver.h"

/* Parsed `run` (or `custom`) arguments.  cases point into argv. */
struct clc_run_args {
    struct clc_opts opts;
    enum clc_format format;
    const char *output;
    bool quiet;
    bool help;
    double timeout;           /* --timeout in seconds, 0 for none */
    const char *const *cases;
    int n_cases;
};

/* Parses a command's run options with cli (its own options through cli->own) into a:
 * clc_parse_run, then the line's format, output, quiet, help and cases; --quiet turns a
 * default progress line off.  Returns CLC_OK or CLC_USAGE with a message. */
int clc_parse_tool_args(int argc, char **argv, const struct clc_run_cli *cli,
                        struct clc_run_args *a);

/* Parses `run`'s arguments (argv[0] is "run").  Returns CLC_OK or CLC_USAGE with a message. */
int clc_parse_run_args(int argc, char **argv, struct clc_run_args *a);

/* The options that run, custom and profile share beyond those of clc_parse_run (options.h):
 * --kernel-dir (-k), --no-model, --api, --timeout, --progress, --no-progress, --profile.
 * Declared once: each command passes clc_tool_options as its cli's `common` list, and its
 * parse_own hands their codes to clc_parse_tool_option, which parses one into a (messages
 * as cli->prog, "Try cli->help") and returns CLC_OK or CLC_USAGE, or -1 when c is none of
 * them.  A command's own codes start at CLC_RUN_CMD_OPT. */
extern const struct option clc_tool_options[];
int clc_parse_tool_option(const struct clc_run_cli *cli, struct clc_run_args *a, int c,
                          const char *value);

/* Parses --timeout's value: seconds, 0 for none.  CLC_USAGE after a message. */
int clc_parse_timeout(const char *prog, const char *help, const char *s, double *out);

/* What `run` and `custom` share around their work: the output path checked before anything
 * runs, the time limit and the signals guarded (clc_guard_run), then work(a, rep), then the
 * report written (nothing is written after an error).  Returns the exit code. */
int clc_run_command(const struct clc_run_args *a,
                    int (*work)(const struct clc_run_args *a, struct clc_report *rep));

/* From here on, Ctrl-C, SIGTERM and SIGQUIT end the process cleanly (no temporary file is
 * left, the usual exit status of the signal), and after `timeout` seconds (0: never) the run
 * ends with exit 1, naming what was running (clc_activity). */
void clc_guard_run(double timeout);

/* This binary, set by main(): the children below, and the compiler process of the builds
 * made ahead (compiler.h), are started from it.  NULL in a program that only links the
 * library (the tests): there is then nothing to start. */
extern const char *clc_self_exe;

/* Child processes of this binary (host/commands/children.c).  clc_spawn_child starts
 * args[0] with args, the environment plus env_add ("NAME=value" entries, NULL-ended, each
 * replacing the variable of that name) and the file actions fa (NULL: none); from then on a
 * signal that ends clcoalesce (INT, TERM, QUIT, HUP) is passed on to every child not yet
 * ended.  Returns posix_spawn's error code, 0 when started.  clc_child_ended forgets a child
 * that was waited for; clc_end_like(sig) ends this process by sig when sig is one of those
 * four (a child ended by it), and returns otherwise.  clc_on_ending_signals installs handler
 * for the four. */
int clc_spawn_child(char *const *args, const char *const *env_add,
                    const posix_spawn_file_actions_t *fa, pid_t *pid);
void clc_child_ended(pid_t pid);
void clc_end_like(int sig);
void clc_on_ending_signals(void (*handler)(int));

/* In a child process: end with the parent (pid `parent`), killed however it was, so that no
 * orphan goes on to write output after the command has ended. */
void clc_follow_parent(long parent);

/* --device all or gpu: the run on every (GPU) device at once (host/commands/every.c). */
bool clc_every_device_selector(const char *selector);
/* Runs `run`'s argv (argv[0] is "run") once per selected device, at the same time, each
 * worker writing FILE-<index>.<ext> for -o FILE; shows their output device by device.
 * Returns the first failing worker's exit code, else 0. */
int clc_run_every_device(int argc, char **argv, const struct clc_run_args *a);
/* In such a worker, points a at its device and output file and returns 1; 0 in any other
 * process; -1 after a message when the worker's mark is malformed. */
int clc_device_worker(struct clc_run_args *a);

/* `clcoalesce profile ...` (argv[0] is "profile"): the device's profile as JSON. */
int clc_cmd_profile(int argc, char **argv);

/* The summary `profile` prints of profile p (the JSON it writes), one figure a line; a figure
 * p lacks is said to be not measured, once, never printed as a number. */
struct json_t;
void clc_print_profile_summary(FILE *f, struct json_t *p);

/* `clcoalesce custom ...` (argv[0] is "custom"): a kernel of the user's own. */
int clc_cmd_custom(int argc, char **argv);

/* `clcoalesce validate ...` (argv[0] is "validate"): a manifest's kernels, measured against
 * predicted (host/commands/validate.c). */
int clc_cmd_validate(int argc, char **argv);

/* The whole program: returns the process exit code (0, 1 or 2). */
int clc_main(int argc, char **argv);

#endif
