/* test_cli.c - the real binary: help, version, listings, output files, and every kind of bad
 * input giving one clear line on stderr and the documented exit code. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 16];

/* Runs the binary and asserts its exit code and that stderr (or stdout) holds `needle`. */
static void expect(const char *args, int code, const char *needle)
{
    int rc = clc_test_cli(args, out, sizeof out, err, sizeof err);
    ck_assert_msg(rc == code, "'%s' exited %d, expected %d; stderr: %s", args, rc, code, err);
    if (needle != NULL)
        ck_assert_msg(strstr(err, needle) != NULL || strstr(out, needle) != NULL,
                      "'%s': '%s' not in output; stderr: %s", args, needle, err);
}

START_TEST(help_and_version)
{
    expect("--help", 0, "usage: clcoalesce");
    expect("--version", 0, CLC_VERSION);
    expect("run --help", 0, "--kernel-dir");
    expect("", 2, "usage");
}
END_TEST

START_TEST(list_and_cases)
{
    expect("list", 0, "[0]");
    ck_assert_ptr_nonnull(strstr(out, "max allocation"));
    expect("cases", 0, "stride");
    for (size_t i = 0; i < clc_n_cases; i++)
        ck_assert_msg(strstr(out, clc_cases[i]->name) != NULL, "%s missing", clc_cases[i]->name);
    ck_assert_ptr_nonnull(strstr(out, "bytes:"));
}
END_TEST

START_TEST(usage_errors_exit_2)
{
    expect("frobnicate", 2, "unknown command 'frobnicate'");
    expect("run no_such_case", 2, "unknown case 'no_such_case'");
    expect("run --size 0", 2, "bad --size '0'");
    expect("run --size -5", 2, "size must be positive");
    expect("run --size lots", 2, "bad --size 'lots'");
    expect("run --size 99999999999999999999999", 2, "bad --size");
    expect("run --size 20000000TiB", 2, "too large");
    expect("run --reps 0", 2, "--reps");
    expect("run --type half", 2, "--type");
    expect("run --format xml", 2, "--format");
    expect("run --bogus", 2, "unknown option");
    expect("run --device 99 copy", 2, "device index 99 is out of range");
    expect("run --device 7:3 copy", 2, "no device 7:3");
    expect("run --device no-such-gpu copy", 2, "no device name contains 'no-such-gpu'");
    expect("list extra", 2, "unexpected argument");
    expect("run coalesced --quick --variant nope", 2, "no variant 'nope'");
    /* one line, not a cascade */
    expect("run --size 0", 2, NULL);
    ck_assert_ptr_nonnull(strstr(err, "error:"));
    ck_assert_ptr_null(strchr(strchr(err, '\n') + 1, ':') ? strstr(strchr(err, '\n') + 1, "error:") : NULL);
}
END_TEST

START_TEST(allocation_too_large_exits_1)
{
    expect("run stride --size 1TiB", 1, "allocation too large");
    ck_assert_ptr_nonnull(strstr(err, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
}
END_TEST

START_TEST(no_platform_exits_1)
{
    char dir[] = "/tmp/clc-novendors-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[256];
    /* ocl-icd reads vendors from OCL_ICD_VENDORS: an empty folder means no platform */
    snprintf(cmd, sizeof cmd, "env OCL_ICD_VENDORS=%s %s run copy --quick", dir, CLC_TEST_BINARY);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    while (fgets(out, sizeof out, p) != NULL) {
    }
    int st = pclose(p);
    ck_assert_int_eq(WEXITSTATUS(st), 1);
    snprintf(cmd, sizeof cmd, "env OCL_ICD_VENDORS=%s %s list 2>&1", dir, CLC_TEST_BINARY);
    p = popen(cmd, "r");
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    ck_assert_msg(strstr(out, "no OpenCL platform") != NULL, "got: %s", out);
    rmdir(dir);
}
END_TEST

START_TEST(kernel_files_missing_or_broken)
{
    expect("run copy --quick --kernel-dir /nonexistent/cl", 1, "kernel directory '/nonexistent/cl'");
    const char *dir = clc_test_copy_kernels();
    char args[512], path[512];
    snprintf(path, sizeof path, "%s/coalesced.cl", dir);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(args, sizeof args, "run coalesced --quick --kernel-dir %s", dir);
    expect(args, 1, "cannot read kernel file");
    ck_assert_ptr_nonnull(strstr(err, "coalesced.cl"));

    dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "uncoalesced.cl", "STORE(out, i,", "STORE(out, i +,");
    snprintf(args, sizeof args, "run uncoalesced --quick --kernel-dir %s", dir);
    expect(args, 1, "building");
    ck_assert_ptr_nonnull(strstr(err, "uncoalesced.cl"));
    ck_assert_ptr_nonnull(strstr(err, "build log"));
    ck_assert_ptr_nonnull(strstr(err, "-DT=float")); /* the options are shown */

    /* the environment variable is honoured too */
    snprintf(args, sizeof args, "env CLCOALESCE_KERNEL_DIR=/nonexistent/env %s run copy --quick", CLC_TEST_BINARY);
    FILE *p = popen(args, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(WEXITSTATUS(pclose(p)), 1);
}
END_TEST

START_TEST(output_file_written_only_on_success)
{
    char path[] = "/tmp/clc-cli-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(path));
    char args[512], file[600];
    snprintf(file, sizeof file, "%s/r.json", path);
    snprintf(args, sizeof args, "run coalesced --quick --format json --output %s", file);
    expect(args, 0, NULL);
    struct clc_report rep;
    ck_assert_int_eq(clc_read_json(file, &rep), CLC_OK);
    ck_assert_uint_eq(rep.n_results, 1);
    ck_assert_str_eq(rep.results[0].case_name, "coalesced");
    ck_assert(rep.results[0].verified && rep.results[0].gbps > 0);
    clc_report_free(&rep);
    ck_assert_int_eq(unlink(file), 0);

    /* a wrong result: non-zero exit, no file, no partial temporary left behind */
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "coalesced.cl", "LOAD(in, i) * 2", "LOAD(in, i) * 3");
    snprintf(args, sizeof args, "run coalesced --quick -f json -o %s --kernel-dir %s", file, dir);
    expect(args, 1, "wrong result");
    ck_assert_int_ne(access(file, F_OK), 0);
    snprintf(args, sizeof args, "ls %s | wc -l", path);
    FILE *p = popen(args, "r");
    ck_assert_ptr_nonnull(fgets(out, sizeof out, p));
    pclose(p);
    ck_assert_int_eq(atoi(out), 0);
    rmdir(path);
}
END_TEST

START_TEST(csv_and_json_on_stdout)
{
    expect("run coalesced --quick -f csv", 0, NULL);
    ck_assert_ptr_nonnull(strstr(out, "case,variant,param"));
    ck_assert_ptr_nonnull(strstr(out, "coalesced,kernel,"));
    expect("run coalesced --quick -f json --quiet", 0, NULL);
    ck_assert_ptr_nonnull(strstr(out, "\"results\""));
    ck_assert_str_eq(err, ""); /* --quiet: nothing on stderr */
}
END_TEST

int main(void)
{
    const TTest *tests[] = {help_and_version,          list_and_cases,
                            usage_errors_exit_2,       allocation_too_large_exits_1,
                            no_platform_exits_1,       kernel_files_missing_or_broken,
                            output_file_written_only_on_success, csv_and_json_on_stdout};
    return clc_test_main(clc_test_suite("cli", tests, sizeof tests / sizeof tests[0]));
}
