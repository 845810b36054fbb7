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
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 16];
static char dir[64];

static bool have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* A small report: stride and offset sweeps in both types, copy, and an unknown case. */
static const char *write_sample(const char *name, const char *api, double scale)
{
    struct clc_report rep;
    clc_report_init(&rep, api);
    snprintf(rep.device.name, sizeof rep.device.name, "Test GPU");
    rep.device.peak_gbps = 3350;
    rep.device.copy_gbps = 2900;
    for (unsigned t = CLC_FLOAT; t <= CLC_DOUBLE; t <<= 1) {
        for (long s = 1; s <= 32; s *= 2) {
            struct clc_result r =
                clc_test_row("stride", "inplace", s, (enum clc_type)t, scale * 2800.0 / s);
            ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
        }
        for (long o = 0; o <= 8; o++) {
            struct clc_result r = clc_test_row("offset", "inplace", o, (enum clc_type)t,
                                               scale * (o % 8 ? 2400.0 : 2800.0));
            ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
        }
    }
    struct clc_result extra[] = {
        clc_test_row("copy", "kernel", -1, CLC_FLOAT, scale * 2700),
        clc_test_row("copy", "enqueue", -1, CLC_FLOAT, scale * 2900),
        clc_test_row("mystery", "tiled", 16, CLC_FLOAT, scale * 1500),
        clc_test_row("mystery", "tiled", 32, CLC_FLOAT, scale * 1700),
        clc_test_row("mystery", "naive", -1, CLC_DOUBLE, scale * 300),
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        ck_assert_int_eq(clc_report_add(&rep, &extra[i]), CLC_OK);
    struct clc_result failed = clc_test_row("lonely", "kernel", -1, CLC_FLOAT, 1);
    failed.status = CLC_STATUS_ERROR;
    failed.gbps = NAN;
    ck_assert_int_eq(clc_report_add(&rep, &failed), CLC_OK);
    const char *path = clc_test_path(dir, name);
    clc_test_write_json(&rep, path);
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
        clc_test_make_dir(dir, "plot");
        const char *a = write_sample("a.json", "opencl", 1);
        char args[512];
        snprintf(args, sizeof args, "plot %s -o %s/charts", a, dir);
        ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
        clc_test_assert_has(err, "gnuplot not found: apt-get install gnuplot-nox");
        clc_test_remove_dir(dir);
        return;
    }
    clc_test_make_dir(dir, "plot");
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
            clc_test_assert_has(out, listed);
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
    clc_test_assert_has(gp, "'opencl Test GPU float'");
    clc_test_assert_has(gp, "'opencl Test GPU double'");
    clc_test_assert_has(gp, "'cuda Test GPU float'");
    clc_test_assert_has(gp, "'cuda Test GPU double'");
    clc_test_assert_has(gp, "index 3 using 1:2");
    clc_test_assert_lacks(gp, "index 4 ");
    clc_test_assert_has(gp, "peak 3350 GB/s");
    clc_test_assert_has(gp, "copy ceiling 2900 GB/s");
    clc_test_assert_has(gp, "set logscale x 2");
    head(charts, "offset", "gp", gp, sizeof gp);
    clc_test_assert_has(gp, "offset (elements)");
    clc_test_assert_lacks(gp, "logscale");
    /* the data is sorted by param, 6 strides per block */
    char dat[8192];
    head(charts, "stride", "dat", dat, sizeof dat);
    clc_test_assert_has(dat, "\n1\t2800\n2\t1400\n4\t700\n8\t350\n16\t175\n32\t87.5\n");
    /* bar chart of an unknown case: variant:param on x, one bar per file and type */
    head(charts, "mystery", "dat", dat, sizeof dat);
    clc_test_assert_has(dat, "\"tiled:16\"\t1500\tNaN\t1650\tNaN\n");
    clc_test_assert_has(dat, "\"naive\"\tNaN\t300\tNaN\t330\n");
    head(charts, "mystery", "gp", gp, sizeof gp);
    clc_test_assert_has(gp, "histogram");
    clc_test_assert_has(gp, "using 5 title 'cuda Test GPU double'");

    /* the kept script reruns on its own in its folder */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && rm copy.png && gnuplot copy.gp 2>/dev/null", charts);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(file_size(charts, "copy", "png") > 0);
    clc_test_remove_dir(dir);
}
END_TEST

/* Latency rows (ns per access, no GB/s) get a chart of their own on an ns axis: they were
 * left out without a word. */
START_TEST(latency_rows_plotted_in_ns)
{
    if (!have_gnuplot())
        return;
    clc_test_make_dir(dir, "plot");
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    snprintf(rep.device.name, sizeof rep.device.name, "Test GPU");
    static const long sizes[] = {16, 1024, 65536};
    static const double ns[] = {30, 250, 600};
    for (int i = 0; i < 3; i++) {
        struct clc_result r = clc_test_row("latency", "chase", sizes[i], CLC_FLOAT, 1);
        r.metric = CLC_METRIC_NS_PER_ACCESS;
        r.value = ns[i];
        r.gbps = NAN;
        ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    }
    struct clc_result copy = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 2700);
    ck_assert_int_eq(clc_report_add(&rep, &copy), CLC_OK);
    const char *a = clc_test_path(dir, "lat.json");
    clc_test_write_json(&rep, a);
    char charts[128], args[512];
    snprintf(charts, sizeof charts, "%s/charts", dir);
    snprintf(args, sizeof args, "plot %s -o %s", a, charts);
    ck_assert_msg(clc_test_cli(args, out, sizeof out, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(file_size(charts, "latency", "png") > 0, "no latency chart; stdout: %s", out);
    char buf[8192];
    head(charts, "latency", "dat", buf, sizeof buf);
    clc_test_assert_has(buf, "\"chase:16\"\t30\n\"chase:1024\"\t250\n\"chase:65536\"\t600\n");
    head(charts, "latency", "gp", buf, sizeof buf);
    clc_test_assert_has(buf, "set ylabel 'ns per access (lower is faster)'");
    clc_test_assert_lacks(buf, "GB/s");
    head(charts, "copy", "gp", buf, sizeof buf);
    clc_test_assert_has(buf, "set ylabel 'GB/s'");
    clc_test_remove_dir(dir);
}
END_TEST

/* Two runs of one device are told apart in the labels. */
START_TEST(same_device_labels)
{
    if (!have_gnuplot())
        return;
    clc_test_make_dir(dir, "plot");
    const char *a = write_sample("a.json", "opencl", 1);
    const char *b = write_sample("b.json", "opencl", 0.9);
    char args[1024];
    snprintf(args, sizeof args, "plot %s %s -o %s", a, b, dir);
    ck_assert_msg(clc_test_cli(args, out, sizeof out, err, sizeof err) == 0, "%s", err);
    char gp[8192];
    head(dir, "copy", "gp", gp, sizeof gp);
    clc_test_assert_has(gp, "'opencl Test GPU #1 float'");
    clc_test_assert_has(gp, "'opencl Test GPU #2 float'");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(no_gnuplot_on_path)
{
    clc_test_make_dir(dir, "plot");
    const char *a = write_sample("a.json", "opencl", 1);
    char args[512];
    snprintf(args, sizeof args, "plot %s -o %s/charts", a, dir);
    ck_assert_int_eq(clc_test_cli_env("PATH=/nonexistent", args, out, sizeof out, err, sizeof err),
                     1);
    clc_test_assert_has(err, "gnuplot not found: apt-get install gnuplot-nox");
    /* nothing was written */
    char charts[128];
    snprintf(charts, sizeof charts, "%s/charts", dir);
    ck_assert_int_ne(access(charts, F_OK), 0);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(refused)
{
    clc_test_make_dir(dir, "plot");
    const char *a = write_sample("a.json", "opencl", 1);
    char args[512];
    /* usage errors */
    snprintf(args, sizeof args, "plot %s", a);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 2);
    clc_test_assert_has(err, "-o DIR");
    snprintf(args, sizeof args, "plot -o %s", dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 2);
    snprintf(args, sizeof args, "plot %s -o %s --bogus", a, dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 2);
    ck_assert_int_eq(clc_test_cli("plot --help", out, sizeof out, err, sizeof err), 0);
    clc_test_assert_has(out, "usage: clcoalesce plot");
    if (!have_gnuplot()) {
        clc_test_remove_dir(dir);
        return; /* the rest needs gnuplot to get past the first check */
    }
    /* a file with only failed rows has nothing to plot */
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    struct clc_result r;
    clc_result_init(&r, "copy", "kernel", CLC_FLOAT);
    ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    const char *bad = clc_test_path(dir, "failed.json");
    clc_test_write_json(&rep, bad);
    snprintf(args, sizeof args, "plot %s -o %s/charts", bad, dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
    clc_test_assert_has(err, "no results to plot");
    /* unreadable input */
    snprintf(args, sizeof args, "plot %s %s/missing.json -o %s/charts", a, dir, dir);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
    clc_test_assert_has(err, "missing.json");
    /* an output path that is a file */
    snprintf(args, sizeof args, "plot %s -o %s", a, a);
    ck_assert_int_eq(clc_test_cli(args, out, sizeof out, err, sizeof err), 1);
    clc_test_assert_has(err, "cannot create folder");
    clc_test_remove_dir(dir);
}
END_TEST

/* Labels come from result files anyone may write: gnuplot must draw them as text, never run
 * them (it runs `...` inside double-quoted strings) or end a line at a line break in them. */
START_TEST(hostile_labels_stay_text)
{
    if (!have_gnuplot())
        return;
    clc_test_make_dir(dir, "plot");
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    char pwned[128];
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);
    snprintf(rep.device.name, sizeof rep.device.name, "GPU `touch %s` \"q\" 'a'\nprint 1", pwned);
    struct clc_result rows[] = {
        clc_test_row("evil\n!touch x", "v`touch y`", -1, CLC_FLOAT, 100),
        clc_test_row("stride", "in\x1bplace", 2, CLC_FLOAT, 50),
    };
    for (size_t i = 0; i < 2; i++)
        ck_assert_int_eq(clc_report_add(&rep, &rows[i]), CLC_OK);
    const char *a = clc_test_path(dir, "a.json");
    clc_test_write_json(&rep, a);
    char args[512];
    snprintf(args, sizeof args, "plot %s -o %s/charts", a, dir);
    ck_assert_msg(clc_test_cli(args, out, sizeof out, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(access(pwned, F_OK) != 0, "gnuplot ran a command from a device name");
    char charts[128], gp[8192];
    snprintf(charts, sizeof charts, "%s/charts", dir);
    head(charts, "stride", "gp", gp, sizeof gp);
    clc_test_assert_has(gp, "\"q\" ''a''\\x0aprint 1 float'");
    head(charts, "evil__touch_x", "gp", gp, sizeof gp);
    clc_test_assert_has(gp, "# evil__touch_x.gp - evil\\x0a!touch x,");
    clc_test_assert_lacks(gp, "\n!touch");
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {charts_rendered, same_device_labels, no_gnuplot_on_path, refused,
                            hostile_labels_stay_text, latency_rows_plotted_in_ns};
    return clc_test_main(clc_test_suite("plot", tests, sizeof tests / sizeof tests[0]));
}
