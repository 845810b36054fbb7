/* testutil.h - helpers shared by the Check suites: running cases on the default device
 * (PoCL in CI) through the library, and running the real binary. */
#ifndef CLC_TESTUTIL_H
#define CLC_TESTUTIL_H

#include <check.h>
#include <stdbool.h>

#include "clcoalesce/cases.h"

/* Per-test timeout in seconds: PoCL compiles kernels with LLVM on first use. */
#define CLC_TEST_TIMEOUT 600

/* Options for a small, fast run on the default device with the source tree's kernels. */
void clc_test_opts(struct clc_opts *o);

/* Runs one case with o (NULL: clc_test_opts) and returns clc_run's code; rep is filled. */
int clc_test_run_case(const char *name, const struct clc_opts *o, struct clc_report *rep);

/* Asserts that rep holds at least `min_rows` rows, all verified with positive GB/s. */
void clc_test_assert_all_verified(const struct clc_report *rep, size_t min_rows);

/* Finds the row of case/variant/param/type (param < 0: any); NULL when absent. */
const struct clc_result *clc_test_find(const struct clc_report *rep, const char *variant,
                                       long param, enum clc_type t);

/* Runs `clcoalesce <args>` through /bin/sh; captures stdout and stderr (each truncated to
 * len - 1 bytes) and returns the exit code, or -1 if it did not exit normally. */
int clc_test_cli(const char *args, char *out, size_t out_len, char *err, size_t err_len);

/* Copies the source tree's cl/ to a fresh temporary folder and returns its path (static). */
const char *clc_test_copy_kernels(void);

/* Replaces the first occurrence of `from` with `to` in file dir/name; asserts it was found. */
void clc_test_edit_kernel(const char *dir, const char *name, const char *from, const char *to);

/* Builds a suite with one case holding the given tests, with the long timeout. */
Suite *clc_test_suite(const char *name, const TTest *const *tests, size_t n);

/* Runs the suite and returns the process exit code. */
int clc_test_main(Suite *s);

#endif
