/* test_plot.c - `clcoalesce plot`: a small result file becomes line charts for stride and
 * offset and bar charts for the other cases (a case the plotter has never heard of included),
 * as non-empty PNG and SVG with their .gp and .dat; without gnuplot the command says how to
 * get it; usage errors and files with nothing to plot are refused. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 16];
static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/clc-test-plot-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void remove_dir(void)
{
    char *cmd;
    ck_assert(asprintf(&cmd, "rm -rf %s", dir) > 0);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

static bool have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* Like clc_test_cli, but runs the binary through `env VARS`, e.g. "PATH=/nonexistent". */
static int cli_env(const char *vars, const char *args)
{
    char o[] = "/tmp/clc-test-out-XXXXXX", e[] = "/tmp/clc-test-err-XXXXXX";
    int fo = mkstemp(o), fe = mkstemp(e);
    ck_assert(fo >= 0 && fe >= 0);
    char *cmd;
    ck_assert(asprintf(&cmd, "env %s %s %s >%s 2>%s </dev/null", vars, CLC_TEST_BINARY, args, o,
                       e) > 0);
    int st = system(cmd);
    free(cmd);
    ssize_t n = read(fo, out, sizeof out - 1);
    out[n > 0 ? n : 0] = '\0';
    n = read(fe, err, sizeof err - 1);
    err[n > 0 ? n : 0] = '\0';
    close(fo);
    close(fe);
    unlink(o);
    unlink(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static struct clc_result row(const char *c, const char *v, long param, enum clc_type t,
                             double gbps)
{
    struct clc_result r;
    clc_result_init(&r, c, v, t);
    if (param >= 0)
        clc_result_set_param(&r, param);
    r.bytes = 1 << 20;
    r.reps = 3;
    r.ms_median = r.ms_min = r.ms_max = (double)r.bytes / (gbps * 1e6);
    r.gbps = gbps;
    r.verified = true;
    r.status = CLC_STATUS_OK;
    return r;
}

/* A small report: stride and offset sweeps in both types, copy, and an unknown case. */
static const char *write_sample(const char *name, const char *api, double scale)
{
    static char paths[4][256];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, 256, "%s/%s", dir, name);
    struct clc_report rep;
    clc_report_init(&rep, api);
    snprintf(rep.device.name, sizeof rep.device.name, "Test GPU");
    rep.device.peak_gbps = 3350;
    rep.device.copy_gbps = 2900;
    for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
        for (long s = 1; s <= 32; s *= 2) {
            struct clc_result r = row("stride", "inplace", s, (enum clc_type)t, scale * 2800.0 / s);
            ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
        }
        for (long o = 0; o <= 8; o++) {
            struct clc_result r = row("offset", "inplace", o, (enum clc_type)t,
                                      scale * (o % 8 ? 2400.0 : 2800.0));
            ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
        }
    }
    struct clc_result extra[] = {
        row("copy", "kernel", -1, CLC_FLOAT, scale * 2700),
        row("copy", "enqueue", -1, CLC_FLOAT, scale * 2900),
        row("mystery", "tiled", 16, CLC_FLOAT, scale * 1500),
        row("mystery", "tiled", 32, CLC_FLOAT, scale * 1700),
        row("mystery", "naive", -1, CLC_DOUBLE, scale * 300),
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        ck_assert_int_eq(clc_report_add(&rep, &extra[i]), CLC_OK);
    struct clc_result failed = row("lonely", "kernel", -1, CLC_FLOAT, 1);
    failed.status = CLC_STATUS_ERROR;
    failed.gbps = NAN;
    ck_assert_int_eq(clc_report_add(&rep, &failed), CLC_OK);
    ck_assert_int_eq(clc_write_report_file(&rep, CLC_FMT_JSON, path), CLC_OK);
    clc_report_free(&rep);
    return path;
}

static long file_size(const char *d, const char *stem, const char *ext)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.%s", d, stem, ext);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The first bytes of d/stem.ext (NUL-terminated); asserts it opens. */
static void head(const char *d, const char *stem, const char *ext, char *buf, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.%s", d, stem, ext);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
}

START_TEST(charts_rendered)
{
    if (!have_gnuplot()) {
        /* without gnuplot the same command must say how to get it */
        make_dir();
        const char *a = write_sample("a.json", "opencl", 1);
        char args[512];
        snprintf(args, sizeof args, "plot %s -o %s/charts", a, dir);
        ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
        ck_assert_msg(strstr(err, "gnuplot not found: apt-get install gnuplot-nox"), "%s", err);
        remove_dir();
        return;
    }
    make_dir();
    const char *a = write_sample("a.json", "opencl", 1);
    const char *b = write_sample("b.json", "cuda", 1.1);
    char charts[128], args[1024];
    snprintf(charts, sizeof charts, "%s/out/charts", dir); /* parents are created too */
    snprintf(args, sizeof args, "plot %s %s -o %s", a, b, charts);
    ck_assert_msg(clc_test_cli(args, out, sizeof out, err, sizeof err) == 0, "%s", err);

    static const char *const stems[] = {"stride", "offset", "copy", "mystery"};
    static const char *const exts[] = {"png", "svg", "gp", "dat"};
    for (size_t i = 0; i < 4; i++) {
        for (size_t k = 0; k < 4; k++) {
            ck_assert_msg(file_size(charts, stems[i], exts[k]) > 0, "%s.%s empty or missing",
                          stems[i], exts[k]);
            char listed[256];
            snprintf(listed, sizeof listed, "%s/%s.%s\n", charts, stems[i], exts[k]);
            ck_assert_msg(strstr(out, listed) != NULL, "%s not listed in:\n%s", listed, out);
        }
        char buf[4096];
        head(charts, stems[i], "png", buf, 9);
        ck_assert_msg(memcmp(buf, "\x89PNG\r\n\x1a\n", 8) == 0, "%s.png is not a PNG", stems[i]);
        head(charts, stems[i], "svg", buf, sizeof buf);
        ck_assert_msg(strstr(buf, "<svg") != NULL, "%s.svg is not an SVG", stems[i]);
    }
    /* a case with no verified row gets no chart */
    ck_assert_int_eq(file_size(charts, "lonely", "png"), -1);

    char gp[8192];
    /* line chart: one line per file and type, labelled api + device + type, reference lines */
    head(charts, "stride", "gp", gp, sizeof gp);
    ck_assert_msg(strstr(gp, "\"opencl Test GPU float\"") && strstr(gp, "\"opencl Test GPU double\"") &&
                      strstr(gp, "\"cuda Test GPU float\"") && strstr(gp, "\"cuda Test GPU double\""),
                  "%s", gp);
    ck_assert_msg(strstr(gp, "index 3 using 1:2") && !strstr(gp, "index 4 "), "%s", gp);
    ck_assert_msg(strstr(gp, "peak 3350 GB/s") && strstr(gp, "copy ceiling 2900 GB/s"), "%s", gp);
    ck_assert_msg(strstr(gp, "set logscale x 2") != NULL, "%s", gp);
    head(charts, "offset", "gp", gp, sizeof gp);
    ck_assert_msg(strstr(gp, "offset (elements)") && !strstr(gp, "logscale"), "%s", gp);
    /* the data is sorted by param, 6 strides per block */
    char dat[8192];
    head(charts, "stride", "dat", dat, sizeof dat);
    ck_assert_msg(strstr(dat, "\n1\t2800\n2\t1400\n4\t700\n8\t350\n16\t175\n32\t87.5\n") != NULL,
                  "%s", dat);
    /* bar chart of an unknown case: variant:param on x, one bar per file and type */
    head(charts, "mystery", "dat", dat, sizeof dat);
    ck_assert_msg(strstr(dat, "\"tiled:16\"\t1500\tNaN\t1650\tNaN\n") != NULL, "%s", dat);
    ck_assert_msg(strstr(dat, "\"naive\"\tNaN\t300\tNaN\t330\n") != NULL, "%s", dat);
    head(charts, "mystery", "gp", gp, sizeof gp);
    ck_assert_msg(strstr(gp, "histogram") && strstr(gp, "using 5 title \"cuda Test GPU double\""),
                  "%s", gp);

    /* the kept script reruns on its own in its folder */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && rm copy.png && gnuplot copy.gp 2>/dev/null", charts);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(file_size(charts, "copy", "png") > 0);
    remove_dir();
}
END_TEST

/* Two runs of one device are told apart in the labels. */
START_TEST(same_device_labels)
{
    if (!have_gnuplot())
        return;
    make_dir();
    const char *a = write_sample("a.json", "opencl", 1);
    const char *b = write_sample("b.json", "opencl", 0.9);
    char args[1024];
    snprintf(args, sizeof args, "plot %s %s -o %s", a, b, dir);
    ck_assert_msg(clc_test_cli(args, out, sizeof out, err, sizeof err) == 0, "%s", err);
    char gp[8192];
    head(dir, "copy", "gp", gp, sizeof gp);
    ck_assert_msg(strstr(gp, "\"opencl Test GPU #1 float\"") &&
                      strstr(gp, "\"opencl Test GPU #2 float\""),
                  "%s", gp);
    remove_dir();
}
END_TEST

START_TEST(no_gnuplot_on_path)
{
    make_dir();
    const char *a = write_sample("a.json", "opencl", 1);
    char args[512];
    snprintf(args, sizeof args, "plot %s -o %s/charts", a, dir);
    ck_assert_int_eq(cli_env("PATH=/nonexistent", args), 1);
    ck_assert_msg(strstr(err, "gnuplot not found: apt-get install gnuplot-nox") != NULL, "%s", err);
    /* nothing was written */
    char charts[128];
    snprintf(charts, sizeof charts, "%s/charts", dir);
    ck_assert_int_ne(access(charts, F_OK), 0);
    remove_dir();
}
END_TEST

START_TEST(refused)
{
    make_dir();
    const char *a = write_sample("a.json", "opencl", 1);
    char args[512];
    /* usage errors */
    snprintf(args, sizeof args, "plot %s", a);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "-o DIR") != NULL, "%s", err);
    snprintf(args, sizeof args, "plot -o %s", dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 2);
    snprintf(args, sizeof args, "plot %s -o %s --bogus", a, dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 2);
    ck_assert_int_eq(clc_test_cli("plot --help", out, sizeof out, err, sizeof err), 0);
    ck_assert_msg(strstr(out, "usage: clcoalesce plot") != NULL, "%s", out);
    if (!have_gnuplot()) {
        remove_dir();
        return; /* the rest needs gnuplot to get past the first check */
    }
    /* a file with only failed rows has nothing to plot */
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    struct clc_result r;
    clc_result_init(&r, "copy", "kernel", CLC_FLOAT);
    ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    char bad[256];
    snprintf(bad, sizeof bad, "%s/failed.json", dir);
    ck_assert_int_eq(clc_write_report_file(&rep, CLC_FMT_JSON, bad), CLC_OK);
    clc_report_free(&rep);
    snprintf(args, sizeof args, "plot %s -o %s/charts", bad, dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "no results to plot") != NULL, "%s", err);
    /* unreadable input */
    snprintf(args, sizeof args, "plot %s %s/missing.json -o %s/charts", a, dir, dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "missing.json") != NULL, "%s", err);
    /* an output path that is a file */
    snprintf(args, sizeof args, "plot %s -o %s", a, a);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "cannot create folder") != NULL, "%s", err);
    remove_dir();
}
END_TEST

int main(void)
{
    const TTest *tests[] = {charts_rendered, same_device_labels, no_gnuplot_on_path, refused};
    return clc_test_main(clc_test_suite("plot", tests, sizeof tests / sizeof tests[0]));
}
