/* test_hostile.c - what a user may type, tried: every case at every size from 1 byte to 1 MiB
 * (powers of two and odd sizes) either verifies or is a usage error naming the minimum, never
 * a crash (the sanitizer build runs this too) or an absurd figure; the defects first contact
 * found each stay fixed; a run interrupted by a signal leaves nothing behind; the progress
 * line goes to stderr only. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 18], err[1 << 16];

/* Case c at `size`, below its minimum: a usage error, no row. */
static void expect_too_small(const struct clc_case *c, uint64_t size)
{
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts(&o);
    o.size = size;
    clc_report_init(&rep, "opencl");
    ck_assert_msg(clc_run_cases(&o, &c, 1, &rep, NULL) == CLC_USAGE,
                  "%s at %llu bytes: not a usage error", c->name, (unsigned long long)size);
    ck_assert_uint_eq(rep.n_results, 0);
    clc_report_free(&rep);
}

/* Every case whose minimum fits `size` runs verified with sane figures; the others are usage
 * errors naming their minimum.  A case whose work does not depend on the size is left out
 * (the sweep ran it). */
static void run_all_at(uint64_t size)
{
    const struct clc_case *fit[64];
    size_t n = 0;
    for (size_t i = 0; i < clc_n_cases; i++) {
        const struct clc_case *c = clc_cases[i];
        bool too_small = false;
        for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1)
            if ((c->types & t) && size / clc_type_size((enum clc_type)t) < c->min_elems)
                too_small = true;
        if (too_small)
            expect_too_small(c, size);
        else if (!c->sizeless)
            fit[n++] = c;
    }
    if (n == 0)
        return;
    struct clc_opts o;
    struct clc_report rep;
    clc_test_opts(&o);
    o.size = size;
    o.reps = 1;
    o.warmup = 0;
    clc_report_init(&rep, "opencl");
    int rc = clc_run_cases(&o, fit, n, &rep, NULL);
    ck_assert_msg(rc == CLC_OK, "%llu bytes: run returned %d", (unsigned long long)size, rc);
    clc_test_assert_all_verified(&rep, n);
    for (size_t i = 0; i < rep.n_results; i++) {
        const struct clc_result *r = &rep.results[i];
        if (r->status != CLC_STATUS_OK)
            continue;
        /* no count that wrapped around (it once read 18446744073709.6 MB), no absurd figure */
        ck_assert_msg(r->bytes > 0 && r->bytes < ((uint64_t)1 << 40),
                      "%s/%s at %llu bytes counts %llu", r->case_name, r->variant,
                      (unsigned long long)size, (unsigned long long)r->bytes);
        ck_assert_msg(isfinite(r->value) && r->value > 0 && r->value < 1e6, "%s/%s: %g %s",
                      r->case_name, r->variant, r->value, clc_metric_unit(r->metric));
    }
    clc_report_free(&rep);
}

/* Each case in one session over the powers of two from its smallest size to 1 MiB (a sweep,
 * so its kernels build once), and every smaller power of two a usage error.  Without the
 * model: its trace builds would double the compiles, and the odd sizes below trace every
 * case at six sizes (the analysis of a cut-off block or a tail among them). */
START_TEST(every_case_at_every_size)
{
    for (size_t i = 0; i < clc_n_cases; i++) {
        const struct clc_case *c = clc_cases[i];
        uint64_t need = 0;
        for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1)
            if ((c->types & t) && c->min_elems * clc_type_size((enum clc_type)t) > need)
                need = c->min_elems * clc_type_size((enum clc_type)t);
        uint64_t first = 1;
        while (first < need)
            first *= 2;
        for (uint64_t size = 1; size < first; size *= 2)
            expect_too_small(c, size);
        struct clc_opts o;
        struct clc_report rep;
        clc_test_opts(&o);
        o.sweep_min = first;
        o.sweep_max = (uint64_t)1 << 20;
        o.reps = 1;
        o.warmup = 0;
        o.model = false;
        clc_report_init(&rep, "opencl");
        ck_assert_msg(clc_run_cases(&o, &c, 1, &rep, NULL) == CLC_OK, "%s from %llu bytes",
                      c->name, (unsigned long long)first);
        clc_test_assert_all_verified(&rep, 1);
        clc_report_free(&rep);
    }
}
END_TEST

START_TEST(every_case_at_odd_sizes)
{
    static const uint64_t odd[] = {3, 131, 4098, 12345, 100003, 1048573};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        run_all_at(odd[i]);
}
END_TEST

/* The defects of first contact, each through the binary. */
START_TEST(first_contact_defects)
{
    /* stride's check read a window larger than its buffers: heap corruption */
    clc_test_expect("run stride --size 128KiB --type float --quick -r 1", 0, NULL, out,
                    sizeof out, err, sizeof err);
    clc_test_expect("run stride --sweep-size 64KiB:256KiB --type float -r 1 -w 0", 0, NULL, out,
                    sizeof out, err, sizeof err);
    /* offset at 4 bytes printed 18446744073709.6 MB */
    clc_test_expect("run offset --size 4", 2, "needs at least 33 float elements", out,
                    sizeof out, err, sizeof err);
    /* a sweep of rows of zero elements */
    clc_test_expect("run copy --sweep-size 1:8 --variant kernel", 2, "needs at least 1 float",
                    out, sizeof out, err, sizeof err);
    /* a size that is no whole number of elements: rounded, and said */
    clc_test_expect("run copy --size 4098 -r 1", 0, "not a whole number of float elements", out,
                    sizeof out, err, sizeof err);
    /* explain with an unreadable result file printed "error:" and exited 0 */
    clc_test_expect("explain copy --results /nonexistent/r.json", 1, "/nonexistent/r.json", out,
                    sizeof out, err, sizeof err);
    /* empty names were silently ignored */
    clc_test_expect("run copy --kernel-dir ''", 2, "--kernel-dir takes a folder", out,
                    sizeof out, err, sizeof err);
    clc_test_expect("run copy --device ''", 2, "--device takes", out, sizeof out, err,
                    sizeof err);
    /* --help of the commands without options exited 2 */
    clc_test_expect("list --help", 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(out, "usage: clcoalesce list");
    clc_test_expect("cases --help", 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(out, "usage: clcoalesce cases");
    /* a kernel file that is a directory: "Cannot allocate memory" */
    char dir[64];
    clc_test_make_dir(dir, "kdir");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir %s/copy.cl && cp %s/clc*.h %s/clc_support.cl %s/",
             dir, CLC_TEST_KERNEL_DIR, CLC_TEST_KERNEL_DIR, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "run copy --quick --kernel-dir %s", dir);
    clc_test_expect(cmd, 1, "Is a directory", out, sizeof out, err, sizeof err);
    /* --kernel-dir naming a file said "does not exist" */
    snprintf(cmd, sizeof cmd, "run copy --quick --kernel-dir %s/clc.h", dir);
    clc_test_expect(cmd, 1, "is not a directory", out, sizeof out, err, sizeof err);
    clc_test_remove_dir(dir);
}
END_TEST

/* Each buffer was checked against the per-buffer limit, never a row's buffers together
 * against the memory there is: a run went on until the kernel's OOM killer ended it.  The
 * gather case holds three arrays of --size (in, idx, out): at the largest size one buffer
 * may have, on a device whose global memory is less than three of them, the run is refused
 * before anything is allocated, naming the limit.  On a device with more memory than that
 * there is nothing to refuse, and the test asserts nothing. */
START_TEST(memory_of_a_row_checked_first)
{
    struct clc_device dev = clc_test_default_device();
    uint64_t size = 4096;
    while (size * 2 <= dev.meta.max_alloc)
        size *= 2;
    if (dev.meta.global_mem == 0 || 3 * size <= dev.meta.global_mem)
        return;
    char args[256];
    snprintf(args, sizeof args, "run gather --variant random --type float -r 1 -w 0 "
             "--no-model --size %llu", (unsigned long long)size);
    clc_test_expect(args, 1, "not enough memory: gather/random (float)", out, sizeof out, err,
                    sizeof err);
    clc_test_assert_has(err, "of device memory for its buffers");
    clc_test_assert_has(err, "(CL_DEVICE_GLOBAL_MEM_SIZE)");
}
END_TEST

/* The progress line is on stderr when asked for, and stdout is the same table either way. */
START_TEST(progress_on_stderr_only)
{
    clc_test_expect("run copy --quick --progress", 0, "[1/2] copy enqueue float", out,
                    sizeof out, err, sizeof err);
    clc_test_assert_has(err, "[2/2] copy kernel float");
    clc_test_assert_lacks(out, "[1/2]");
    size_t lines = 0;
    for (const char *p = out; *p; p++)
        lines += *p == '\n';
    ck_assert_uint_eq(lines, 3); /* the header and two rows */
    clc_test_expect("run copy --quick --no-progress", 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_lacks(err, "[1/2]");
    /* not a terminal: off by default */
    clc_test_expect("run copy --quick", 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_lacks(err, "[1/2]");
}
END_TEST

/* Counts the entries of dir whose name starts with prefix. */
static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* SIGINT and SIGTERM in the middle of a run: the usual exit status, and nothing written.  One
 * case of buffers that every device allows (128 MiB per buffer at least), with reps enough to
 * outlast the signal: the whole suite at this size needs 2 GiB buffers, which some CPU devices
 * refuse at once. */
START_TEST(signals_leave_nothing)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < 2; i++) {
        char dir[64];
        clc_test_make_dir(dir, "signal");
        const char *file = clc_test_path(dir, "r.json");
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execl(CLC_TEST_BINARY, "clcoalesce", "run", "copy", "--size", "64MiB", "-r", "100000",
                  "-f", "json", "-o", file, (char *)NULL);
            _exit(127);
        }
        usleep(1500 * 1000);
        kill(pid, sigs[i]);
        int status;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i],
                      "signal %d: status %#x", sigs[i], status);
        ck_assert_int_eq(count_entries(dir, "r.json"), 0);
        clc_test_remove_dir(dir);
    }
}
END_TEST

/* custom on a CPU device works in a child process: a SIGTERM for the command alone must end
 * the child as well, before it writes anything.  The child shares the test's pipe as its
 * stdout, so the pipe's end of file says that no process of the run is left. */
START_TEST(custom_child_ends_with_its_parent)
{
    if (!clc_test_default_device().cpu)
        return; /* custom runs in-process on a GPU */
    char dir[64];
    clc_test_make_dir(dir, "signal-custom");
    const char *file = clc_test_path(dir, "r.json");
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(fds[1], 1);
        dup2(null, 2);
        close(fds[0]);
        execl(CLC_TEST_BINARY, "clcoalesce", "custom", "--kernel-file",
              CLC_TEST_SOURCE_DIR "/cl/examples/copy_float4.cl", "--kernel", "copy_float4",
              "--pattern", "copy", "--items-per-thread", "4", "--size", "64MiB", "-f", "json",
              "-o", file, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    usleep(2000 * 1000);
    kill(pid, SIGTERM);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %#x", status);
    struct pollfd p = {fds[0], POLLIN, 0};
    char buf[4096];
    bool ended = false;
    for (int waited = 0; !ended && waited < 60; waited++) /* the child has 60 s to end */
        if (poll(&p, 1, 1000) > 0)
            ended = read(fds[0], buf, sizeof buf) <= 0;
    close(fds[0]);
    ck_assert_msg(ended, "the child process still runs after its parent ended");
    ck_assert_int_eq(count_entries(dir, "r.json"), 0);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {every_case_at_every_size, every_case_at_odd_sizes,
                            first_contact_defects, memory_of_a_row_checked_first,
                            progress_on_stderr_only, signals_leave_nothing,
                            custom_child_ends_with_its_parent};
    return clc_test_main(clc_test_suite("hostile", tests, sizeof tests / sizeof tests[0]));
}
