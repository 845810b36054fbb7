/* compare.h - working on result files after the fact: `compare` puts two or more runs side
 * by side (OpenCL vs CUDA, two GPUs, two runs) and `plot` draws them with gnuplot.
 * Neither needs OpenCL. */
#ifndef CLCOALESCE_COMPARE_H
#define CLCOALESCE_COMPARE_H

#include <stdio.h>

/* `clcoalesce compare A.json B.json [...] [options]`, or `compare --model [--profile PROF]
 * FILE.json [...]` (each file's rows against the predictive model); argv[0] is "compare".
 * Returns 0, 1 (unreadable file or profile, nothing joins, a ratio outside --tolerance) or
 * 2 (usage). */
int clc_cmd_compare(int argc, char **argv);

/* `clcoalesce plot RESULTS.json [...] -o DIR`; argv[0] is "plot".
 * Returns 0, 1 (no gnuplot, unreadable file, nothing to plot, gnuplot failed) or 2 (usage). */
int clc_cmd_plot(int argc, char **argv);

#endif
