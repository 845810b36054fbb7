/* explain.h - the `explain` and `ptx` commands: what one variant's kernel does to memory,
 * predicted from its traced addresses, and what the NVIDIA compiler made of it. */
#ifndef CLCOALESCE_EXPLAIN_H
#define CLCOALESCE_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

/* `clcoalesce explain CASE ...` (argv[0] is "explain").  Returns an exit code. */
int clc_cmd_explain(int argc, char **argv);

/* `clcoalesce ptx CASE ...` (argv[0] is "ptx").  Returns an exit code; 1 when the device
 * returns no PTX. */
int clc_cmd_ptx(int argc, char **argv);

/* Prints the __kernel function `name` of OpenCL C source `src`, with the comment right
 * above it, each line indented by two spaces.  Returns false when it is not found. */
bool clc_print_kernel_source(FILE *f, const char *src, const char *name);

struct clc_prediction;

/* Prints a prediction's waterfall (clc_print_waterfall, with the measured GB/s beside it
 * unless NAN) wrapped to 80 columns, each layer's reason continued under itself, and a word
 * on what the layers mean when the profile is a CPU's. */
void clc_print_waterfall_wrapped(FILE *out, const struct clc_prediction *pr, bool cpu,
                                 double measured);

#endif
