/* testutil.c - see testutil.h. */
#define _GNU_SOURCE
#include "testutil.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Set per test executable by tests/CMakeLists.txt: whether its suite needs an OpenCL device,
 * and which of its tests do when the suite as a whole does not. */
#ifndef CLC_TEST_NEEDS_DEVICE
#define CLC_TEST_NEEDS_DEVICE 1
#endif
#ifndef CLC_TEST_DEVICE_TESTS
#define CLC_TEST_DEVICE_TESTS ""
#endif

/* The process's temporary root: every file and folder a test makes lies under it (TMPDIR
 * points there too, for the children and the binaries they run), and the parent removes it
 * after the suite, whatever the forked tests left. */
static char test_root[PATH_MAX];
static char suite_name[64];
static bool have_device = true;
static size_t n_left_out; /* tests not run for want of a device */

static int remove_tree(const char *dir);

void clc_test_opts(struct clc_opts *o)
{
    clc_opts_defaults(o);
    o->quick = true;
    o->reps = 3;
    o->warmup = 1;
    o->kernel_dir = CLC_TEST_KERNEL_DIR;
    o->progress = 0;
    clc_quiet = true;
}

struct clc_device clc_test_default_device(void)
{
    struct clc_device *devs;
    int n;
    ck_assert_int_eq(clc_backend_ops(CLC_API_OPENCL)->devices(&devs, &n, false), CLC_OK);
    int di = clc_select_device(devs, n, NULL);
    ck_assert_int_ge(di, 0);
    struct clc_device d = devs[di];
    free(devs);
    return d;
}

int clc_test_run_case(const char *name, const struct clc_opts *o, struct clc_report *rep)
{
    struct clc_opts def;
    if (o == NULL) {
        clc_test_opts(&def);
        o = &def;
    }
    clc_report_init(rep, "opencl");
    const char *names[] = {name};
    return clc_run(o, names, 1, rep, NULL);
}

void clc_test_assert_all_verified(const struct clc_report *rep, size_t min_rows)
{
    ck_assert_uint_ge(rep->n_results, min_rows);
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->status == CLC_STATUS_SKIPPED)
            continue;
        ck_assert_msg(r->status == CLC_STATUS_OK && r->verified, "%s/%s param %ld %s: %s",
                      r->case_name, r->variant, r->param, clc_type_name(r->type), r->note);
        ck_assert_msg(r->value > 0 && (r->metric != CLC_METRIC_GBPS || r->gbps == r->value),
                      "%s/%s: %s %g (GB/s %g)", r->case_name, r->variant,
                      clc_metric_unit(r->metric), r->value, r->gbps);
        ck_assert_msg(r->ms_median > 0 && r->ms_min <= r->ms_median && r->ms_median <= r->ms_max,
                      "%s/%s: min %g median %g max %g", r->case_name, r->variant, r->ms_min,
                      r->ms_median, r->ms_max);
        ck_assert_uint_gt(r->bytes, 0);
    }
}

const struct clc_result *clc_test_find(const struct clc_report *rep, const char *variant,
                                       long param, enum clc_type t)
{
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (strcmp(r->variant, variant) == 0 && r->type == t && (param < 0 || r->param == param))
            return r;
    }
    return NULL;
}

const char *clc_test_opts_edited(struct clc_opts *o, const char *file, const char *from,
                                 const char *to)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, file, from, to);
    clc_test_opts(o);
    o->kernel_dir = dir;
    return dir;
}

/* The first row with status error, or NULL. */
static const struct clc_result *first_failed(const struct clc_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++)
        if (rep->results[i].status == CLC_STATUS_ERROR)
            return &rep->results[i];
    return NULL;
}

void clc_test_run_expect(const char *name, const struct clc_opts *o, int want,
                         struct clc_report *rep)
{
    int rc = clc_test_run_case(name, o, rep);
    const struct clc_result *f = first_failed(rep);
    ck_assert_msg(rc == want,
                  "%s: clc_run returned %d, expected %d; %zu rows, first failed: %s%s%s", name, rc,
                  want, rep->n_results, f ? f->variant : "none", f ? ": " : "",
                  f ? f->note : "");
}

void clc_test_run_verified(const char *name, const struct clc_opts *o, size_t min_rows,
                           struct clc_report *rep)
{
    clc_test_run_expect(name, o, CLC_OK, rep);
    clc_test_assert_all_verified(rep, min_rows);
}

void clc_test_run_verified_at(const char *name, uint64_t size, size_t min_rows,
                              struct clc_report *rep)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = size;
    clc_test_run_verified(name, &o, min_rows, rep);
}

const struct clc_result *clc_test_get(const struct clc_report *rep, const char *variant,
                                      long param, enum clc_type t)
{
    const struct clc_result *r = clc_test_find(rep, variant, param, t);
    ck_assert_msg(r != NULL, "no row %s param %ld %s among %zu", variant, param,
                  clc_type_name(t), rep->n_results);
    return r;
}

void clc_test_assert_ok(const struct clc_result *r)
{
    ck_assert_msg(r->verified && r->status == CLC_STATUS_OK,
                  "%s/%s param %ld %s: verified %d, status %s, expected ok: %s", r->case_name,
                  r->variant, r->param, clc_type_name(r->type), r->verified,
                  clc_status_name(r->status), r->note);
}

void clc_test_assert_caught(const struct clc_result *r, const char *note)
{
    ck_assert_msg(!r->verified && r->status == CLC_STATUS_ERROR,
                  "%s/%s param %ld %s: verified %d, status %s, expected a wrong result",
                  r->case_name, r->variant, r->param, clc_type_name(r->type), r->verified,
                  clc_status_name(r->status));
    if (note != NULL)
        ck_assert_msg(strstr(r->note, note) != NULL, "%s/%s param %ld: '%s' not in note '%s'",
                      r->case_name, r->variant, r->param, note, r->note);
}

void clc_test_assert_all_caught(const struct clc_report *rep, size_t n, const char *note)
{
    ck_assert_uint_eq(rep->n_results, n);
    for (size_t i = 0; i < rep->n_results; i++)
        clc_test_assert_caught(&rep->results[i], note);
}

void clc_test_assert_note(const struct clc_result *r, const char *fmt, ...)
{
    char want[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    ck_assert_msg(strstr(r->note, want) != NULL, "%s/%s param %ld %s: '%s' not in note '%s'",
                  r->case_name, r->variant, r->param, clc_type_name(r->type), want, r->note);
}

void clc_test_assert_matrix(const struct clc_result *r, size_t w, size_t h)
{
    ck_assert_msg(r->has_param && r->param == (long)w, "%s/%s %s: param %ld, expected width %zu",
                  r->case_name, r->variant, clc_type_name(r->type), r->param, w);
    uint64_t bytes = 2 * w * h * clc_type_size(r->type);
    ck_assert_msg(r->bytes == bytes, "%s/%s %s: %llu bytes counted, expected %llu", r->case_name,
                  r->variant, clc_type_name(r->type), (unsigned long long)r->bytes,
                  (unsigned long long)bytes);
    clc_test_assert_note(r, "%zu x %zu", w, h);
}

void clc_test_assert_has(const char *text, const char *needle)
{
    ck_assert_msg(strstr(text, needle) != NULL, "'%s' not in:\n%s", needle, text);
}

void clc_test_assert_lacks(const char *text, const char *needle)
{
    ck_assert_msg(strstr(text, needle) == NULL, "'%s' unexpected in:\n%s", needle, text);
}

void clc_test_assert_width(const char *text, size_t cols)
{
    for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        ck_assert_msg(n <= cols, "line of %zu characters, more than %zu: %.*s", n, cols, (int)n, l);
        l = nl ? nl + 1 : l + n;
    }
}

void clc_test_make_dir(char dir[static 64], const char *tag)
{
    int n = snprintf(dir, 64, "%s/%s-XXXXXX", clc_test_root(), tag);
    ck_assert_msg(n > 0 && n < 64, "folder name too long: %s/%s-XXXXXX", clc_test_root(), tag);
    ck_assert_msg(mkdtemp(dir) != NULL, "cannot make %s", dir);
}

void clc_test_remove_dir(const char *dir)
{
    ck_assert_msg(remove_tree(dir) == 0, "cannot remove %s", dir);
}

const char *clc_test_path(const char *dir, const char *name)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "%s/%s", dir, name);
    return path;
}

void clc_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

struct clc_result clc_test_row(const char *case_name, const char *variant, long param,
                               enum clc_type t, double gbps)
{
    struct clc_result r;
    clc_result_init(&r, case_name, variant, t);
    if (param >= 0)
        clc_result_set_param(&r, param);
    r.bytes = 1000000;
    r.reps = 3;
    r.ms_median = r.ms_min = r.ms_max = (double)r.bytes / (gbps * 1e6);
    r.cv = 0;
    r.gbps = r.value = gbps;
    r.verified = true;
    r.status = CLC_STATUS_OK;
    return r;
}

void clc_test_write_json(struct clc_report *rep, const char *path)
{
    ck_assert_int_eq(clc_write_report_file(rep, CLC_FMT_JSON, path), CLC_OK);
    clc_report_free(rep);
}

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f != NULL) {
        n = fread(buf, 1, len - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    unlink(path);
}

int clc_test_cli(const char *args, char *out, size_t out_len, char *err, size_t err_len)
{
    return clc_test_cli_env(NULL, args, out, out_len, err, err_len);
}

int clc_test_cli_env(const char *vars, const char *args, char *out, size_t out_len, char *err,
                     size_t err_len)
{
    char o[PATH_MAX], e[PATH_MAX];
    snprintf(o, sizeof o, "%s/out-XXXXXX", clc_test_root());
    snprintf(e, sizeof e, "%s/err-XXXXXX", clc_test_root());
    int fo = mkstemp(o), fe = mkstemp(e);
    ck_assert(fo >= 0 && fe >= 0);
    close(fo);
    close(fe);
    char *cmd;
    ck_assert(asprintf(&cmd, "%s%s %s %s >%s 2>%s </dev/null", vars ? "env " : "",
                       vars ? vars : "", CLC_TEST_BINARY, args, o, e) > 0);
    int st = system(cmd);
    free(cmd);
    slurp(o, out, out_len);
    slurp(e, err, err_len);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int clc_test_cli_no_stdout(const char *args, char *err, size_t err_len)
{
    char e[PATH_MAX];
    snprintf(e, sizeof e, "%s/err-XXXXXX", clc_test_root());
    int fe = mkstemp(e);
    ck_assert(fe >= 0);
    close(fe);
    char *cmd;
    ck_assert(asprintf(&cmd, "%s %s >&- 2>%s </dev/null", CLC_TEST_BINARY, args, e) > 0);
    int st = system(cmd);
    free(cmd);
    slurp(e, err, err_len);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int clc_test_cli_stdin(const char *text, bool keep_open, const char *args, char *out,
                       size_t out_len, char *err, size_t err_len)
{
    char o[PATH_MAX], e[PATH_MAX];
    snprintf(o, sizeof o, "%s/out-XXXXXX", clc_test_root());
    snprintf(e, sizeof e, "%s/err-XXXXXX", clc_test_root());
    int fo = mkstemp(o), fe = mkstemp(e), p[2];
    ck_assert(fo >= 0 && fe >= 0 && pipe(p) == 0);
    close(fo);
    close(fe);
    char *cmd;
    ck_assert(asprintf(&cmd, "exec %s %s >%s 2>%s", CLC_TEST_BINARY, args, o, e) > 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(p[0], STDIN_FILENO);
        close(p[0]);
        close(p[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    free(cmd);
    close(p[0]);
    signal(SIGPIPE, SIG_IGN); /* the binary may end without reading it all */
    size_t n = text != NULL ? strlen(text) : 0;
    for (size_t done = 0; done < n;) {
        ssize_t w = write(p[1], text + done, n - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    if (!keep_open)
        close(p[1]);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    if (keep_open)
        close(p[1]);
    slurp(o, out, out_len);
    slurp(e, err, err_len);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void clc_test_expect(const char *args, int code, const char *needle, char *out, size_t out_len,
                     char *err, size_t err_len)
{
    int rc = clc_test_cli(args, out, out_len, err, err_len);
    ck_assert_msg(rc == code, "'%s' exited %d, expected %d; stderr: %s", args, rc, code, err);
    if (needle != NULL)
        ck_assert_msg(strstr(err, needle) != NULL, "'%s': '%s' not in stderr: %s", args, needle,
                      err);
}

const char *clc_test_copy_kernels(void)
{
    static char dir[64];
    clc_test_make_dir(dir, "cl");
    char *cmd;
    ck_assert(asprintf(&cmd, "cp %s/*.cl %s/*.h %s/", CLC_TEST_KERNEL_DIR, CLC_TEST_KERNEL_DIR,
                       dir) > 0);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    return dir;
}

void clc_test_edit_kernel(const char *dir, const char *name, const char *from, const char *to)
{
    char path[512], buf[65536];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *at = strstr(buf, from);
    ck_assert_msg(at != NULL, "'%s' not found in %s", from, path);
    f = fopen(path, "wb");
    ck_assert(f != NULL);
    fwrite(buf, 1, (size_t)(at - buf), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
}

/* True when name is a word of the space-separated list. */
static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

/* Whether the ICD loader finds a platform with a device.  Asked in a child process: an
 * OpenCL runtime started in the parent (PoCL's threads) would not survive Check's forks. */
static bool device_present(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return true; /* cannot tell: run, and let a missing device fail loudly */
    if (pid == 0) {
        cl_uint n_plat = 0, n_dev = 0;
        cl_platform_id plat[16];
        if (clGetPlatformIDs(16, plat, &n_plat) != CL_SUCCESS)
            n_plat = 0;
        for (cl_uint i = 0; i < n_plat && i < 16 && n_dev == 0; i++) {
            cl_uint n = 0;
            if (clGetDeviceIDs(plat[i], CL_DEVICE_TYPE_ALL, 0, NULL, &n) == CL_SUCCESS)
                n_dev += n;
        }
        _exit(n_dev > 0 ? 0 : 1); /* _exit: no exit handlers (LeakSanitizer's) in the probe */
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

Suite *clc_test_suite(const char *name, const TTest *const *tests, size_t n)
{
    snprintf(suite_name, sizeof suite_name, "%s", name);
    clc_test_root(); /* made first, so the probe's runtime and everything after write there */
    have_device = device_present();
    Suite *s = suite_create(name);
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, CLC_TEST_TIMEOUT);
    for (size_t i = 0; i < n; i++) {
        if (!have_device && listed(CLC_TEST_DEVICE_TESTS, tests[i]->name)) {
            printf("%s: %s left out: no OpenCL device\n", name, tests[i]->name);
            n_left_out++;
            continue;
        }
        tcase_add_test(tc, tests[i]);
    }
    suite_add_tcase(s, tc);
    return s;
}

int clc_test_main(Suite *s)
{
    int rc;
    if (!have_device && CLC_TEST_NEEDS_DEVICE) {
        printf("%s: skipped: the OpenCL ICD loader finds no platform or device (install "
               "pocl-opencl-icd, or check OCL_ICD_VENDORS and OCL_ICD_FILENAMES)\n",
               suite_name);
        srunner_free(srunner_create(s)); /* frees the suite: Check has no suite_free */
        rc = CLC_TEST_SKIPPED;
    } else {
        /* room for the assertions that print a command's whole output (Check's default: 4 KiB) */
        check_set_max_msg_size(1 << 18);
        SRunner *sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        int failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        rc = failed != 0 ? EXIT_FAILURE : n_left_out > 0 ? CLC_TEST_SKIPPED : EXIT_SUCCESS;
        if (rc == CLC_TEST_SKIPPED)
            printf("%s: reported skipped: %zu test%s left out for want of a device\n",
                   suite_name, n_left_out, n_left_out == 1 ? "" : "s");
    }
    if (test_root[0] != '\0' && remove_tree(test_root) != 0)
        fprintf(stderr, "%s: cannot remove %s\n", suite_name, test_root);
    return rc;
}

/* ------------------------------------------------------------------ the temporary root */

/* nftw callbacks: make each folder writable and searchable first (a test may have made one
 * read-only), then remove everything bottom-up. */
static int open_up(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type == FTW_D || type == FTW_DNR)
        chmod(path, (st->st_mode & 07777) | S_IRWXU);
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path) == 0 ? 0 : -1;
}

static int remove_tree(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return 0; /* already gone */
    chmod(dir, (st.st_mode & 07777) | S_IRWXU);
    nftw(dir, open_up, 16, FTW_PHYS);
    return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *clc_test_root(void)
{
    if (test_root[0] != '\0')
        return test_root;
    /* under $TMPDIR when short enough for clc_test_make_dir's 64 bytes, else /tmp */
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0' || strlen(base) > 16)
        base = "/tmp";
    snprintf(test_root, sizeof test_root, "%s/clc-test-%.12s-XXXXXX", base,
             suite_name[0] ? suite_name : "suite");
    if (mkdtemp(test_root) == NULL) {
        perror(test_root);
        abort();
    }
    setenv("TMPDIR", test_root, 1);
    /* the profile a device keeps (profcache.h): the suite's own, never the user's */
    char kept[sizeof test_root + 16];
    snprintf(kept, sizeof kept, "%s/kept", test_root);
    setenv("CLCOALESCE_CACHE_DIR", kept, 1);
    return test_root;
}

/* ------------------------------------------------------------------ captured output */

static int capture_saved = -1, capture_fd;
static char capture_path[PATH_MAX];

void clc_test_capture(int fd)
{
    ck_assert_msg(capture_saved < 0, "a capture is already running");
    fflush(NULL);
    snprintf(capture_path, sizeof capture_path, "%s/captured-XXXXXX", clc_test_root());
    int f = mkstemp(capture_path);
    ck_assert_msg(f >= 0, "cannot make %s", capture_path);
    capture_saved = dup(fd);
    capture_fd = fd;
    dup2(f, fd);
    close(f);
}

const char *clc_test_captured(void)
{
    static char buf[1 << 16];
    ck_assert_msg(capture_saved >= 0, "no capture is running");
    fflush(NULL);
    dup2(capture_saved, capture_fd);
    close(capture_saved);
    capture_saved = -1;
    FILE *f = fopen(capture_path, "rb");
    size_t n = 0;
    if (f != NULL) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    unlink(capture_path);
    return buf;
}

/* Writes dir/p.json: a profile of "Test GPU" with the stream case's read, write and copy
 * rows (120, 90, 100 GB/s), enough for a prediction, measured in the cache as the test's
 * rows run (so they are predicted, not left out as cache rows on a DRAM profile). */
const char *clc_test_write_profile(const char *dir)
{
    static const char *const streams[] = {"read", "write", "copy"};
    static const double gbps[] = {120, 90, 100};
    json_t *rows = json_array();
    for (int i = 0; i < 3; i++) {
        struct clc_result r = clc_test_row("stream", streams[i], -1, CLC_FLOAT, gbps[i]);
        r.cache_resident = true;
        json_array_append_new(rows, clc_result_json(&r));
    }
    json_t *root = json_pack("{s:s, s:{s:s, s:s, s:f}, s:o}", "tool", "clcoalesce", "device",
                             "name", "Test GPU", "api", "opencl", "peak_gbps", 200.0, "rows",
                             rows);
    const char *path = clc_test_path(dir, "p.json");
    ck_assert_int_eq(json_dump_file(root, path, 0), 0);
    json_decref(root);
    return path;
}

bool clc_test_have_nvrtc(void)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                        "libnvrtc.so"};
    void *nvrtc = NULL;
    for (size_t i = 0; nvrtc == NULL && i < sizeof names / sizeof names[0]; i++)
        nvrtc = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    return nvrtc != NULL;
}
