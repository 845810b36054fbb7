/* testutil.h - helpers shared by the Check suites: running cases on the default device
 * (PoCL in CI) through the library, and running the real binary. */
#ifndef CLC_TESTUTIL_H
#define CLC_TESTUTIL_H

#include <check.h>
#include <stdbool.h>

#include "clcoalesce/driver.h"

/* Per-test timeout in seconds: PoCL compiles kernels with LLVM on first use. */
#define CLC_TEST_TIMEOUT 600

/* Options for a small, fast run on the default device with the source tree's kernels. */
void clc_test_opts(struct clc_opts *o);

/* The device a run picks by default (the first GPU, else the first device); asserts that
 * there is one. */
struct clc_device clc_test_default_device(void);

/* Runs one case with o (NULL: clc_test_opts) and returns clc_run's code; rep is filled. */
int clc_test_run_case(const char *name, const struct clc_opts *o, struct clc_report *rep);

/* Asserts that rep holds at least `min_rows` rows, all verified with positive GB/s. */
void clc_test_assert_all_verified(const struct clc_report *rep, size_t min_rows);

/* Finds the row of case/variant/param/type (param < 0: any); NULL when absent. */
const struct clc_result *clc_test_find(const struct clc_report *rep, const char *variant,
                                       long param, enum clc_type t);

/* ------------------------------------------------------------------ runs of a case */

/* Copies the kernels (clc_test_copy_kernels), replaces `from` with `to` in `file` there
 * (clc_test_edit_kernel), and fills o with clc_test_opts reading the kernels from the copy.
 * Returns the copy's folder (static), for further edits. */
const char *clc_test_opts_edited(struct clc_opts *o, const char *file, const char *from,
                                 const char *to);

/* Runs one case with o (NULL: clc_test_opts) and asserts that clc_run returns `want`; the
 * message names both codes and the first failed row.  rep is filled either way. */
void clc_test_run_expect(const char *name, const struct clc_opts *o, int want,
                         struct clc_report *rep);

/* Runs one case with o (NULL: clc_test_opts) and asserts that it succeeds with at least
 * min_rows rows, all verified (clc_test_assert_all_verified). */
void clc_test_run_verified(const char *name, const struct clc_opts *o, size_t min_rows,
                           struct clc_report *rep);

/* clc_test_run_verified with clc_test_opts at `size` bytes. */
void clc_test_run_verified_at(const char *name, uint64_t size, size_t min_rows,
                              struct clc_report *rep);

/* ------------------------------------------------------------------ rows */

/* clc_test_find that asserts the row is there. */
const struct clc_result *clc_test_get(const struct clc_report *rep, const char *variant,
                                      long param, enum clc_type t);

/* Asserts that r verified (status ok), printing its status and note otherwise. */
void clc_test_assert_ok(const struct clc_result *r);

/* Asserts that r failed verification (status error) and that its note holds `note` (NULL:
 * any note). */
void clc_test_assert_caught(const struct clc_result *r, const char *note);

/* Asserts that rep holds exactly n rows, each caught with `note` (clc_test_assert_caught). */
void clc_test_assert_all_caught(const struct clc_report *rep, size_t n, const char *note);

/* Asserts that r's note holds the printf-formatted text, printing both. */
void clc_test_assert_note(const struct clc_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Asserts that r is a row of a w x h matrix: w as the param, 2 x w x h elements counted and
 * "w x h" in its note. */
void clc_test_assert_matrix(const struct clc_result *r, size_t w, size_t h);

/* ------------------------------------------------------------------ text */

/* Asserts that text holds needle, printing both otherwise. */
void clc_test_assert_has(const char *text, const char *needle);

/* Asserts that text does not hold needle, printing both otherwise. */
void clc_test_assert_lacks(const char *text, const char *needle);

/* Asserts that no line of text is longer than `cols` characters, printing the first that is. */
void clc_test_assert_width(const char *text, size_t cols);

/* ------------------------------------------------------------------ files */

/* Makes a fresh folder <root>/<tag>-XXXXXX under the process's temporary root
 * (clc_test_root) and writes its path to dir. */
void clc_test_make_dir(char dir[static 64], const char *tag);

/* Removes dir and everything in it, read-only folders included. */
void clc_test_remove_dir(const char *dir);

/* "dir/name" in one of 8 static buffers used in turn: valid for the next 7 calls. */
const char *clc_test_path(const char *dir, const char *name);

/* Writes text to path, replacing the file. */
void clc_test_write_file(const char *path, const char *text);

/* A verified row of 10^6 bytes at gbps GB/s (param < 0: none), as a run would give. */
struct clc_result clc_test_row(const char *case_name, const char *variant, long param,
                               enum clc_type t, double gbps);

/* Writes dir/p.json, a device profile of "Test GPU" enough for a prediction (the stream
 * case's read, write and copy ceilings, measured in the cache), and returns its path
 * (clc_test_path's buffer). */
const char *clc_test_write_profile(const char *dir);

/* Writes rep to path as JSON through the library's writer, and frees rep. */
void clc_test_write_json(struct clc_report *rep, const char *path);

/* ------------------------------------------------------------------ the binary, kernels */

/* Runs `clcoalesce <args>` through /bin/sh; captures stdout and stderr (each truncated to
 * len - 1 bytes) and returns the exit code, or -1 if it did not exit normally. */
int clc_test_cli(const char *args, char *out, size_t out_len, char *err, size_t err_len);

/* clc_test_cli with the binary run through `env VARS`, e.g. "PATH=/nonexistent". */
int clc_test_cli_env(const char *vars, const char *args, char *out, size_t out_len, char *err,
                     size_t err_len);

/* Runs `clcoalesce <args>` with stdout closed (`>&-`); captures stderr as clc_test_cli does
 * and returns the exit code. */
int clc_test_cli_no_stdout(const char *args, char *err, size_t err_len);

/* Runs `clcoalesce <args>` (clc_test_cli) with a pipe as its stdin, into which text (NULL:
 * nothing) is written; the pipe is closed then, or with keep_open only once the binary has
 * ended, so that it sees a stdin that never ends.  Returns the exit code. */
int clc_test_cli_stdin(const char *text, bool keep_open, const char *args, char *out,
                       size_t out_len, char *err, size_t err_len);

/* Runs `clcoalesce <args>` into out and err (clc_test_cli) and asserts that it exits with
 * `code` and, unless needle is NULL, that stderr holds needle; each message names the
 * arguments and shows stderr. */
void clc_test_expect(const char *args, int code, const char *needle, char *out, size_t out_len,
                     char *err, size_t err_len);

/* Copies the source tree's cl/ to a fresh temporary folder and returns its path (static). */
const char *clc_test_copy_kernels(void);

/* Replaces the first occurrence of `from` with `to` in file dir/name; asserts it was found. */
void clc_test_edit_kernel(const char *dir, const char *name, const char *from, const char *to);

/* ------------------------------------------------------------------ suites */

/* The exit code CTest reads as "skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt). */
#define CLC_TEST_SKIPPED 77

/* Builds a suite with one case holding the given tests, with the long timeout.  Also makes
 * the process's temporary root and asks (in a child process) whether the ICD loader finds
 * an OpenCL device; without one, the tests that tests/CMakeLists.txt lists as needing one in
 * an otherwise device-free suite are left out. */
Suite *clc_test_suite(const char *name, const TTest *const *tests, size_t n);

/* Runs the suite and returns the process exit code: 0, 1 when a test failed, or
 * CLC_TEST_SKIPPED when there is no OpenCL device and the suite needs one (nothing runs) or
 * some of its tests were left out (the rest ran and passed).  Removes the temporary root
 * afterwards, whatever the tests left in it. */
int clc_test_main(Suite *s);

/* Whether NVRTC can be loaded (the CUDA compile tests need it, not a GPU).  It stays loaded:
 * NVRTC allocates a block when it loads and keeps it, and a leak report after an unload
 * could not name the library that lsan.supp allows. */
bool clc_test_have_nvrtc(void);

/* ------------------------------------------------------------------ temporary files */

/* The process's temporary root, <$TMPDIR or /tmp>/clc-test-<suite>-XXXXXX, made on first
 * use; TMPDIR is set to it, so the forked tests and the binaries they run create their
 * temporary files there too.  clc_test_main removes it. */
const char *clc_test_root(void);

/* Sends file descriptor fd (1: stdout, 2: stderr) to a file under the root until
 * clc_test_captured, which restores it and returns what was written (a static buffer, cut
 * at 64 KiB).  One capture at a time. */
void clc_test_capture(int fd);
const char *clc_test_captured(void);

#endif
