/* test_cli.c - the real binary: help, version, listings, output files, and every kind of bad
 * input giving one clear line on stderr and the documented exit code. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/backend.h"
#include "clcoalesce/cli.h"
#include "clcoalesce/result.h"
#include "testutil.h"

static char out[1 << 16], err[1 << 16];

/* Runs the binary and asserts its exit code and that stderr (or stdout) holds `needle`. */
static void expect(const char *args, int code, const char *needle)
{
    clc_test_expect(args, code, NULL, out, sizeof out, err, sizeof err);
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
    clc_test_assert_has(out, "max allocation");
    expect("cases", 0, "stride");
    for (size_t i = 0; i < clc_n_cases; i++)
        clc_test_assert_has(out, clc_cases[i]->name);
    clc_test_assert_has(out, "bytes:");
}
END_TEST

START_TEST(usage_errors_exit_2)
{
    static const char *const usage[][2] = {
        {"frobnicate", "unknown command 'frobnicate'"},
        {"run no_such_case", "unknown case 'no_such_case'"},
        {"run --size 0", "bad --size '0'"},
        {"run --size -5", "size must be positive"},
        {"run --size lots", "bad --size 'lots'"},
        {"run --size 99999999999999999999999", "bad --size"},
        {"run --size 20000000TiB", "too large"},
        {"run --reps 0", "--reps"},
        {"run --type half", "--type"},
        {"run --format xml", "--format"},
        {"run --peak 1e-300", "--peak takes a number of GB/s from 0.01"},
        {"run --peak 1e300", "--peak takes a number of GB/s from 0.01"},
        {"run --bogus", "unknown option"},
        {"run --device 99 copy", "device index 99 is out of range"},
        {"run --device 7:3 copy", "no device 7:3"},
        {"run --device no-such-gpu copy", "no device name contains 'no-such-gpu'"},
        {"list extra", "unexpected argument"},
        {"run coalesced --quick --variant nope", "no variant 'nope'"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++)
        expect(usage[i][0], 2, usage[i][1]);
    /* one line, not a cascade */
    expect("run --size 0", 2, NULL);
    clc_test_assert_has(err, "error:");
    clc_test_assert_lacks(strchr(err, '\n') + 1, "error:");
}
END_TEST

/* A named case without --variant's variant was dropped in silence; a case named twice ran
 * twice. */
START_TEST(named_cases_and_variants)
{
    expect("run copy coalesced stride --variant inplace", 2,
           "case 'copy' has no variant 'inplace' (its variants: enqueue, kernel)");
    expect("run copy copy --variant kernel --size 64KiB -r 1 -w 0 --no-model -f csv", 0, NULL);
    size_t rows = 0;
    for (const char *p = out; (p = strstr(p, "\ncopy,kernel,")) != NULL; p++)
        rows++;
    ck_assert_uint_eq(rows, 1);
}
END_TEST

/* --timeout below a microsecond was never armed (the run went on, exit 0), and a fraction
 * of a second was named rounded up ("1 s" for 0.5). */
START_TEST(timeout_below_a_second)
{
    expect("run copy --size 64KiB -r 1 --timeout 1e-7", 1, "took longer than --timeout 1e-07 s");
    expect("run copy --size 64KiB -r 1 --timeout 0.001", 1, "took longer than --timeout 0.001 s");
}
END_TEST

/* The options run, custom and profile share are declared once (clc_tool_options): each
 * command takes every one of them and refuses a bad value with the same words (custom said
 * "--kernel-dir takes a folder, not '(empty)'" where run said "not ''"). */
START_TEST(shared_options_alike_everywhere)
{
    static const char *const commands[] = {
        "run copy", "profile",
        "custom --kernel-file x.cl --kernel k --pattern copy",
    };
    for (const struct option *opt = clc_tool_options; opt->name != NULL; opt++) {
        if (opt->has_arg != required_argument)
            continue;
        char first[512] = "", args[512];
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
            snprintf(args, sizeof args, "%s --%s ''", commands[i], opt->name);
            expect(args, 2, NULL);
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)strcspn(err, "\n"), err);
            clc_test_assert_has(line, opt->name);
            clc_test_assert_lacks(line, "unknown option");
            if (i == 0)
                snprintf(first, sizeof first, "%s", line);
            ck_assert_msg(strcmp(line, first) == 0, "'%s' says '%s', run says '%s'", args, line,
                          first);
        }
    }
}
END_TEST

START_TEST(allocation_too_large_exits_1)
{
    expect("run stride --size 1TiB", 1, "allocation too large");
    clc_test_assert_has(err, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
}
END_TEST

START_TEST(no_platform_exits_1)
{
    char dir[64], vars[512];
    clc_test_make_dir(dir, "novendors");
    /* The loader reads OCL_ICD_FILENAMES (libraries to load, which GPU machines set; the
     * Khronos loader honours it) before the OCL_ICD_VENDORS folder: with the first unset
     * and the second an empty folder there is no platform */
    /* ...and no CUDA device either (the CUDA driver honours an empty CUDA_VISIBLE_DEVICES),
     * so that `list` has nothing to list on a machine with NVIDIA's driver too */
    snprintf(vars, sizeof vars, "-u OCL_ICD_FILENAMES OCL_ICD_VENDORS=%s CUDA_VISIBLE_DEVICES=",
             dir);
    ck_assert_int_eq(clc_test_cli_env(vars, "run copy --quick", out, sizeof out, err, sizeof err),
                     1);
    clc_test_cli_env(vars, "list", out, sizeof out, err, sizeof err);
    clc_test_assert_has(err, "no OpenCL platform");
    /* NVIDIA's library present but not registered: the note names the fix */
    snprintf(vars, sizeof vars,
             "-u OCL_ICD_FILENAMES OCL_ICD_VENDORS=%s CUDA_VISIBLE_DEVICES= LD_LIBRARY_PATH=%s", dir,
             CLC_TEST_FAKE_NVIDIA_DIR);
    ck_assert_int_eq(clc_test_cli_env(vars, "list", out, sizeof out, err, sizeof err), 1);
    clc_test_assert_has(err, "not registered");
    clc_test_assert_has(err, "/etc/OpenCL/vendors/nvidia.icd");
    clc_test_remove_dir(dir);
}
END_TEST

/* XDG_CACHE_HOME a file: PoCL cannot make its kernel cache and offers no device, which was
 * said as "platforms found, but no devices" alone.  A driver without such a cache lists its
 * devices as before; one that fails must name the cache and POCL_CACHE_DIR. */
START_TEST(unusable_kernel_cache_named)
{
    char dir[64], vars[512];
    clc_test_make_dir(dir, "cache");
    const char *file = clc_test_path(dir, "afile");
    clc_test_write_file(file, "not a folder\n");
    snprintf(vars, sizeof vars, "-u POCL_CACHE_DIR XDG_CACHE_HOME=%s", file);
    if (clc_test_cli_env(vars, "list", out, sizeof out, err, sizeof err) != 0) {
        clc_test_assert_has(err, "POCL_CACHE_DIR");
        clc_test_assert_has(err, file);
    }
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(kernel_files_missing_or_broken)
{
    expect("run copy --quick --kernel-dir /nonexistent/cl", 1,
           "kernel directory '/nonexistent/cl'");
    const char *dir = clc_test_copy_kernels();
    char args[512], path[512];
    snprintf(path, sizeof path, "%s/coalesced.cl", dir);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(args, sizeof args, "run coalesced --quick --kernel-dir %s", dir);
    expect(args, 1, "cannot read kernel file");
    clc_test_assert_has(err, "coalesced.cl");

    dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "uncoalesced.cl", "STORE(out, i,", "STORE(out, i +,");
    snprintf(args, sizeof args, "run uncoalesced --quick --kernel-dir %s", dir);
    expect(args, 1, "building");
    clc_test_assert_has(err, "uncoalesced.cl");
    clc_test_assert_has(err, "build log");
    clc_test_assert_has(err, "-DT=float"); /* the options are shown */

    /* the environment variable is honoured too */
    ck_assert_int_eq(clc_test_cli_env("CLCOALESCE_KERNEL_DIR=/nonexistent/env", "run copy --quick",
                                      out, sizeof out, err, sizeof err),
                     1);
}
END_TEST

START_TEST(output_file_written_only_on_success)
{
    char path[64], args[512];
    clc_test_make_dir(path, "cli");
    const char *file = clc_test_path(path, "r.json");
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
    clc_test_assert_has(out, "case,variant,param");
    clc_test_assert_has(out, "coalesced,kernel,");
    expect("run coalesced --quick -f json --quiet", 0, NULL);
    clc_test_assert_has(out, "\"results\"");
    ck_assert_str_eq(err, ""); /* --quiet: nothing on stderr */
}
END_TEST

/* A row whose buffers fit in the last-level cache says so (JSON, table, one note), whatever
 * the device's cache: copy's two buffers of `size` against the l2_bytes the report gives;
 * --cold rows flushed the cache and are never marked. */
static void check_cache_marks(const char *extra, bool cold)
{
    char dir[64], args[512];
    clc_test_make_dir(dir, "cache");
    const char *json = clc_test_path(dir, "r.json");
    snprintf(args, sizeof args, "run copy %s -r 2 -f json -o %s", extra, json);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 0);
    struct clc_report rep;
    ck_assert_int_eq(clc_read_json(json, &rep), CLC_OK);
    ck_assert_uint_gt(rep.n_results, 0);
    size_t marked = 0;
    for (size_t i = 0; i < rep.n_results; i++) {
        const struct clc_result *r = &rep.results[i];
        bool fits = rep.device.l2_bytes > 0 && 2 * r->size <= rep.device.l2_bytes && !cold;
        ck_assert_msg(r->cache_resident == fits, "%s: size %llu, L2 %llu, marked %d",
                      r->variant, (unsigned long long)r->size,
                      (unsigned long long)rep.device.l2_bytes, r->cache_resident);
        marked += r->cache_resident;
    }
    if (marked > 0)
        clc_test_assert_has(err, "fit in the last-level cache");
    else
        ck_assert_ptr_null(strstr(err, "fit in the last-level cache"));
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}

START_TEST(cache_resident_rows_marked)
{
    check_cache_marks("--quick", false); /* 1 MiB: in cache on any device with a cache */
    check_cache_marks("--quick --cold", true);
    check_cache_marks("--size 64MiB", false);
}
END_TEST

/* --device all: one worker per OpenCL device the machine has (PoCL's CPU in CI), each
 * writing its own file FILE-<index>.json, all shown device by device; --device gpu finds
 * none where there is no GPU. */
START_TEST(every_device)
{
    struct clc_device *list = NULL;
    int n = 0, gpus = 0;
    ck_assert_int_eq(clc_backend_ops(CLC_API_OPENCL)->devices(&list, &n, true), CLC_OK);
    char dir[64], args[512], name[64];
    clc_test_make_dir(dir, "every");
    snprintf(args, sizeof args, "run copy --quick -t float --device all -f json -o %s",
             clc_test_path(dir, "r.json"));
    expect(args, 0, "running on");
    for (int i = 0; i < n; i++) {
        struct clc_report rep;
        snprintf(name, sizeof name, "r-%d.json", list[i].index);
        ck_assert_int_eq(clc_read_json(clc_test_path(dir, name), &rep), CLC_OK);
        ck_assert_str_eq(rep.device.name, list[i].meta.name);
        ck_assert_uint_eq(rep.n_results, 2);
        ck_assert(rep.results[0].verified && rep.results[1].verified);
        clc_report_free(&rep);
        snprintf(name, sizeof name, "== device %d: ", list[i].index);
        clc_test_assert_has(err, name);
        gpus += list[i].gpu;
    }
    /* a table on stdout, device by device */
    expect("run copy --quick -t float --device all", 0, "== device");
    clc_test_assert_has(out, "copy         kernel");
    expect("run copy --quick --device all -f json", 2, "give -o FILE");
    if (gpus == 0)
        expect("run copy --quick --device gpu", 1, "no GPU device");
    bool nvidia = false;
    for (int i = 0; i < n; i++)
        nvidia = nvidia || list[i].nvidia;
    if (!nvidia) /* --api both runs on NVIDIA GPUs only: every other device is left out */
        expect("run copy --quick --device all --api both", 1, "left out: --api both");
    free(list);
    clc_test_remove_dir(dir);
}
END_TEST

/* With stdout closed (`>&-`) every command that writes to it fails, naming the reason on
 * stderr, instead of losing its output with exit 0. */
START_TEST(closed_stdout_is_an_error)
{
    static const char *const writers[] = {"--help", "list", "cases", "explain copy",
                                          "run copy --quick --variant kernel", "custom --help",
                                          "compare --help"};
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        int rc = clc_test_cli_no_stdout(writers[i], err, sizeof err);
        ck_assert_msg(rc == 1, "'%s >&-' exited %d, expected 1; stderr: %s", writers[i], rc, err);
        clc_test_assert_has(err, "cannot write to standard output");
    }
    /* a usage error keeps its own code */
    ck_assert_int_eq(clc_test_cli_no_stdout("run --size 0", err, sizeof err), 2);
    clc_test_assert_has(err, "bad --size");
}
END_TEST

/* The progress line draws no cursor escape where TERM says the terminal takes none. */
START_TEST(dumb_terminal_gets_no_escapes)
{
    static const char *const dumb[] = {"TERM=dumb", "-u TERM", "TERM="};
    for (size_t i = 0; i < sizeof dumb / sizeof dumb[0]; i++) {
        int rc = clc_test_cli_env(dumb[i], "run copy --quick --progress", out, sizeof out, err,
                                  sizeof err);
        ck_assert_msg(rc == 0, "%s: exit %d; stderr: %s", dumb[i], rc, err);
        clc_test_assert_has(err, "[2/2] copy kernel float");
        clc_test_assert_lacks(err, "\033");
        clc_test_assert_lacks(out, "\033");
    }
    /* a terminal that takes them gets the line cleared to its end */
    ck_assert_int_eq(clc_test_cli_env("TERM=xterm", "run copy --quick --progress", out,
                                      sizeof out, err, sizeof err), 0);
    clc_test_assert_has(err, "\r\033[K");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {help_and_version,          list_and_cases,
                            usage_errors_exit_2,       allocation_too_large_exits_1,
                            no_platform_exits_1,       kernel_files_missing_or_broken,
                            output_file_written_only_on_success, csv_and_json_on_stdout,
                            cache_resident_rows_marked, every_device,
                            named_cases_and_variants,  timeout_below_a_second,
                            unusable_kernel_cache_named, shared_options_alike_everywhere,
                            closed_stdout_is_an_error, dumb_terminal_gets_no_escapes};
    return clc_test_main(clc_test_suite("cli", tests, sizeof tests / sizeof tests[0]));
}
