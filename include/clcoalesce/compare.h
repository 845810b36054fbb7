/* compare.h - working on result files after the fact: `compare` puts two or more runs side
 * by side (OpenCL vs CUDA, two GPUs, two runs) and `plot` draws them with gnuplot.
 * Neither needs OpenCL. */
#ifndef CLCOALESCE_COMPARE_H
#define CLCOALESCE_COMPARE_H

#include <stdio.h>

#include "clcoalesce/result.h"

/* `clcoalesce compare A.json B.json [...] [options]`, or `compare --model [--profile PROF]
 * FILE.json [...]` (each file's rows against the predictive model); argv[0] is "compare".
 * Returns 0, 1 (unreadable file or profile, nothing joins, a ratio outside --tolerance) or
 * 2 (usage). */
int clc_cmd_compare(int argc, char **argv);

/* compare --model: each of the n_files reports (read from paths) against the predictive
 * model, predicted again on the profile at profile_path first unless it is NULL; a table or
 * JSON (format) to output, NULL: stdout.  Returns 0, or 1 (the profile cannot be read, a file
 * has no row with a prediction, the output fails) after a message. */
int clc_compare_model(int n_files, const char *const *paths, struct clc_report *reps,
                      const char *profile_path, enum clc_format format, const char *output);

/* `clcoalesce plot RESULTS.json [...] -o DIR`; argv[0] is "plot".
 * Returns 0, 1 (no gnuplot, unreadable file, nothing to plot, gnuplot failed) or 2 (usage). */
int clc_cmd_plot(int argc, char **argv);

#endif
