/* test_explain.c - the `explain` and `ptx` commands through the real binary: the kernel
 * source, the picture of a warp's requests and the predicted figures; the measured fraction
 * of the ceiling from a result file; usage errors; and `ptx` on a device without PTX. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/explain.h"
#include "testutil.h"

#define OUT 65536
static char out[OUT], err[OUT];

static int cli(const char *args)
{
    char *full;
    ck_assert(asprintf(&full, "%s --kernel-dir %s", args, CLC_TEST_KERNEL_DIR) > 0);
    int rc = clc_test_cli(full, out, sizeof out, err, sizeof err);
    free(full);
    return rc;
}

/* The pictures and figures (from the first "warp " on; the kernel source is as written) fit
 * 80 columns. */
static void assert_fits_80(const char *text)
{
    const char *from = strstr(text, "\nwarp ");
    ck_assert_msg(from != NULL, "no warp picture in:\n%s", text);
    clc_test_assert_width(from, 80);
}

START_TEST(explain_coalesced)
{
    ck_assert_int_eq(cli("explain coalesced"), 0);
    clc_test_assert_has(out, "coalesced / kernel (float): kernel scale in coalesced.cl");
    clc_test_assert_has(out, "__kernel void scale(__global const T *in");
    clc_test_assert_has(out, "STORE(out, i, LOAD(in, i) * 2);");
    clc_test_assert_has(out, "first load request");
    clc_test_assert_has(out, "first store request");
    clc_test_assert_has(out, "|0-7            |8-15           |16-23          |24-31          |");
    clc_test_assert_has(out, "4 sectors in 1 line:");
    clc_test_assert_has(out, "loads      4.00 sectors/request");
    clc_test_assert_has(out, "overall    4.00 sectors/request, efficiency 100%");
    /* the source stops at the kernel's closing brace: the next file's text is absent */
    clc_test_assert_lacks(out, "clc_init");
    assert_fits_80(out);
}
END_TEST

START_TEST(explain_offset_and_stride_params)
{
    ck_assert_int_eq(cli("explain offset --param 1"), 0);
    clc_test_assert_has(out, "offset / inplace (float, param 1)");
    clc_test_assert_has(out, "+128 |31 ");
    clc_test_assert_has(out, "overall    5.00 sectors/request, efficiency 80%");
    assert_fits_80(out);

    ck_assert_int_eq(cli("explain stride --param 2 --type double"), 0);
    clc_test_assert_has(out, "stride / inplace (double, param 2)");
    clc_test_assert_has(out, "overall   16.00 sectors/request, efficiency 50%");
    assert_fits_80(out);

    /* a param the variant does not have is a usage error that lists the ones it has */
    ck_assert_int_eq(cli("explain stride --param 99"), 2);
    clc_test_assert_has(err, "no param 99; its params: 1, 2, 3");
}
END_TEST

/* --results: the measured row of a result file beside the prediction. */
START_TEST(explain_with_results)
{
    char path[] = "/tmp/clc-explain-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char *args;
    ck_assert(asprintf(&args, "run uncoalesced --quick --quiet -r 2 -f json -o %s", path) > 0);
    ck_assert_int_eq(cli(args), 0);
    free(args);
    ck_assert(asprintf(&args, "explain uncoalesced --results %s", path) > 0);
    ck_assert_int_eq(cli(args), 0);
    free(args);
    unlink(path);
    clc_test_assert_has(out, "loads     32.00 sectors/request");
    clc_test_assert_has(out, "stores     4.00 sectors/request");
    clc_test_assert_has(out, "+3968 |31 ");
    clc_test_assert_has(out, "measured (");
    clc_test_assert_has(out, "of the copy ceiling");
    clc_test_assert_has(out, "predicted: 22%");
    assert_fits_80(out);
}
END_TEST

START_TEST(explain_errors)
{
    ck_assert_int_eq(cli("explain"), 2);
    ck_assert_int_eq(cli("explain nosuchcase"), 2);
    clc_test_assert_has(err, "unknown case 'nosuchcase'");
    ck_assert_int_eq(cli("explain coalesced uncoalesced"), 2);
    ck_assert_int_eq(cli("explain coalesced --type double"), 2);
    clc_test_assert_has(err, "does not run in double");
    ck_assert_int_eq(cli("explain coalesced --param x"), 2);
    ck_assert_int_eq(cli("explain coalesced --bogus"), 2);
    /* the driver's copy launches no kernel of ours */
    ck_assert_int_eq(cli("explain copy --variant enqueue"), 1);
    clc_test_assert_has(err, "enqueue");
    ck_assert_int_eq(cli("explain --help"), 0);
    clc_test_assert_has(out, "usage: clcoalesce explain CASE");
    ck_assert_int_eq(cli("--help"), 0);
    clc_test_assert_has(out, "explain CASE");
    clc_test_assert_has(out, "ptx CASE");
    clc_test_assert_has(out, "--no-model");
}
END_TEST

/* `run --no-model` leaves the model fields empty. */
START_TEST(run_no_model)
{
    ck_assert_int_eq(cli("run coalesced --quick --quiet -r 2 -f json --no-model"), 0);
    clc_test_assert_has(out, "\"model_efficiency\": null");
    ck_assert_int_eq(cli("run coalesced --quick --quiet -r 2 -f json"), 0);
    clc_test_assert_has(out, "\"model_sectors_per_req\": 4");
}
END_TEST

/* PoCL returns no PTX: a clear message and exit 1.  On NVIDIA: the PTX, loads counted. */
START_TEST(ptx_command)
{
    bool nvidia = clc_test_default_device().nvidia;
    int rc = cli("ptx coalesced");
    if (nvidia) {
        ck_assert_int_eq(rc, 0);
        clc_test_assert_has(out, ".target");
        clc_test_assert_has(out, "ld.global");
        clc_test_assert_has(out, ">> ");
        ck_assert_int_eq(cli("ptx vector --variant float4"), 0);
        clc_test_assert_has(out, "v4.f32");
    } else {
        ck_assert_int_eq(rc, 1);
        clc_test_assert_has(err, "returned no PTX (only NVIDIA's OpenCL driver does)");
        clc_test_assert_lacks(out, ".target");
    }
    /* --raw: the module as the driver returned it, nothing added */
    rc = cli("ptx transpose --raw");
    if (nvidia) {
        ck_assert_int_eq(rc, 0);
        ck_assert_msg(strncmp(out, "//", 2) == 0 || strncmp(out, ".version", 8) == 0 ||
                      out[0] == '\n', "not raw PTX: %.80s", out);
        clc_test_assert_has(out, ".entry tiled_1elem");
        clc_test_assert_lacks(out, ">> ");
    } else {
        ck_assert_int_eq(rc, 1);
        clc_test_assert_has(err, "returned no PTX");
    }
    ck_assert_int_eq(cli("ptx transpose --raw --verbose"), 2);
    clc_test_assert_has(err, "--verbose and --raw do not go together");
    ck_assert_int_eq(cli("ptx nosuchcase"), 2);
    ck_assert_int_eq(cli("ptx coalesced --param 1"), 2); /* a param needs a variant */
    clc_test_assert_has(err, "--param goes with --variant");
    ck_assert_int_eq(cli("ptx --help"), 0);
    clc_test_assert_has(out, "usage: clcoalesce ptx CASE");
}
END_TEST

/* The source extractor: the named kernel with the comment above it, braces in comments
 * and nested blocks handled, a kernel whose name is a prefix of another not confused. */
START_TEST(kernel_source_extraction)
{
    static const char src[] =
        "#include \"clc.h\"\n"
        "/* first */\n"
        "__kernel void scale2(__global T *a) { a[0] = 1; }\n"
        "\n"
        "/* The one we want.\n"
        " * Two lines of comment. } */\n"
        "__kernel void scale(__global T *a CLC_TRACE_ARGS)\n"
        "{\n"
        "    if (1) { a[0] = 2; } // }\n"
        "}\n"
        "kernel void after(void) {}\n";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert(clc_print_kernel_source(f, src, "scale"));
    fclose(f);
    ck_assert_str_eq(buf, "  /* The one we want.\n"
                          "   * Two lines of comment. } */\n"
                          "  __kernel void scale(__global T *a CLC_TRACE_ARGS)\n"
                          "  {\n"
                          "      if (1) { a[0] = 2; } // }\n"
                          "  }\n");
    free(buf);
    f = open_memstream(&buf, &len);
    ck_assert(clc_print_kernel_source(f, src, "after"));
    ck_assert(!clc_print_kernel_source(f, src, "missing"));
    fclose(f);
    ck_assert_str_eq(buf, "  kernel void after(void) {}\n");
    free(buf);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {explain_coalesced, explain_offset_and_stride_params,
                            explain_with_results, explain_errors, run_no_model, ptx_command,
                            kernel_source_extraction};
    return clc_test_main(clc_test_suite("explain", tests, sizeof tests / sizeof tests[0]));
}
