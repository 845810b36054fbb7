/* test_custom_bytes.c - the bytes `custom` counts for a described kernel: the distinct bytes
 * its launch reads plus those it writes, counted by the checked run and carried over to the
 * row's size (host/commands/anykernel.c).  Each expected figure follows from the kernel's
 * definition (tests/data/bytes/bytes.cl): a kernel that reads every other element, a
 * stencil whose halo is read once however many work-items read it, an in-place kernel over
 * half its buffer, --bytes overriding, an untraced kernel keeping the buffers' sizes; then
 * --sweep-size, a row per size, and the sizes it refuses before anything runs. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/rewrite.h"
#include "testutil.h"

#define DATA CLC_TEST_SOURCE_DIR "/tests/data/bytes/"
#define FILE_ "--kernel-file " DATA "bytes.cl "
#define EVERY_OTHER                                                                           \
    FILE_ "--kernel every_other --reference every_other_ref --describe 'arg in in float 2*n; " \
          "arg out out float n; arg n scalar uint n'"
#define HALO                                                                                  \
    FILE_ "--kernel halo5 --reference halo5_ref --describe 'size W = sqrt(n) - 2; "           \
          "arg in in float (W+2)*(W+2); arg out out float W*W; arg w scalar int W; "          \
          "arg h scalar int W; grid W, W; group 16, 16; ref_grid W; ref_group 64'"
#define CHECKED_SIZE (1u << 20) /* the checked run's size, custom.h's CLC_CUSTOM_CHECK_SIZE */

static char out[1 << 16], err[1 << 16];

/* The kernels of bytes.cl are written without the trace macros: their trace, and so their
 * distinct bytes, need the rewriter.  Where it was not built they count their buffers' sizes
 * (an_untraced_kernel_counts_its_buffer_sizes holds that rule), and the tests of the count
 * end here. */
#define NEEDS_REWRITER()                                                                      \
    do {                                                                                      \
        if (!clc_rewrite_available())                                                         \
            return;                                                                           \
    } while (0)

/* Runs `custom ARGS -r 2 -f json -o dir/r.json` (ARGS give the size) with a profile of
 * another device, so that the model predicts DRAM bytes; asserts exit 0 and `n` rows, all
 * verified, and returns them (free with clc_report_free). */
static void run_rows(const char *args, size_t n, struct clc_report *rep)
{
    char dir[64], cmd[2048];
    clc_test_make_dir(dir, "custom-bytes");
    const char *prof = clc_test_write_profile(dir);
    const char *json = clc_test_path(dir, "r.json");
    snprintf(cmd, sizeof cmd, "custom %s -r 2 --profile %s -f json -o %s", args, prof, json);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    ck_assert_int_eq(clc_read_json(json, rep), CLC_OK);
    clc_test_remove_dir(dir);
    ck_assert_uint_eq(rep->n_results, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(rep->results[i].status == CLC_STATUS_OK && rep->results[i].verified,
                      "row %zu not verified: %s", i, rep->results[i].note);
}

/* The one row of `custom ARGS`. */
static struct clc_result one_row(const char *args)
{
    struct clc_report rep;
    run_rows(args, 1, &rep);
    struct clc_result r = rep.results[0];
    clc_report_free(&rep);
    return r;
}

/* The carry-over rule: `counted` of `checked` bytes touched at the checked run's size, as a
 * share of `bytes` at the row's, to the nearest byte. */
static uint64_t carried(uint64_t counted, uint64_t checked, uint64_t bytes)
{
    return (uint64_t)(((unsigned __int128)counted * bytes + checked / 2) / checked);
}

START_TEST(every_other_element_counts_half_its_input)
{
    NEEDS_REWRITER();
    struct clc_result r = one_row(EVERY_OTHER " --size 64K");
    uint64_t n = 64 * 1024 / 4;
    /* in: 2n floats, half of them read; out: n floats written */
    ck_assert_uint_eq(r.bytes, 2 * n * 4 / 2 + n * 4);
    ck_assert_str_eq(r.bytes_rule, "distinct from the trace");
    /* beside it, the model's DRAM bytes, in the report and in custom's output */
    ck_assert_msg(r.model.dram_bytes > 0, "no DRAM prediction: %g", r.model.dram_bytes);
    char line[160];
    snprintf(line, sizeof line, "every_other at 64 KiB: %llu bytes (distinct from the trace); "
             "the model's DRAM bytes %.0f\n", (unsigned long long)r.bytes, r.model.dram_bytes);
    clc_test_assert_has(out, line);
}
END_TEST

START_TEST(a_halo_read_by_five_work_items_counts_once)
{
    NEEDS_REWRITER();
    /* at the checked run's size the count is exact: W = sqrt(n) - 2, in (W + 2)^2 floats
     * all read but the four corners, out W^2 floats written once (five loads each) */
    struct clc_result r = one_row(HALO " --size 1M");
    uint64_t w = 512 - 2, in = (w + 2) * (w + 2) * 4, read = in - 4 * 4, written = w * w * 4;
    ck_assert_uint_eq(r.bytes, read + written);
    ck_assert_uint_lt(r.bytes, 5 * written + written);
    /* at another size each buffer's share carries over: the corners' share was that of
     * the checked size, so this is not the exact count there, (W + 2)^2 - 4 floats */
    r = one_row(HALO " --size 64K");
    uint64_t w2 = 128 - 2, in2 = (w2 + 2) * (w2 + 2) * 4;
    ck_assert_uint_eq(r.bytes, carried(read, in, in2) + w2 * w2 * 4);
    ck_assert_str_eq(r.bytes_rule, "distinct from the trace");
}
END_TEST

START_TEST(in_place_over_half_its_buffer_counts_that_half_twice)
{
    NEEDS_REWRITER();
    struct clc_result r = one_row(FILE_ "--kernel bump_front --reference bump_front_ref "
                                  "--describe 'arg a inout float 2*n; arg n scalar uint n' "
                                  "--size 64K");
    uint64_t n = 64 * 1024 / 4;
    /* the first n of 2n floats read and written; the buffer sizes would be 2 x 2n */
    ck_assert_uint_eq(r.bytes, n * 4 + n * 4);
    ck_assert_str_eq(r.bytes_rule, "distinct from the trace");
}
END_TEST

START_TEST(bytes_option_overrides_the_count)
{
    struct clc_result r = one_row(EVERY_OTHER " --size 64K --bytes '3 * n + 5'");
    ck_assert_uint_eq(r.bytes, 3 * (64 * 1024 / 4) + 5);
    ck_assert_str_eq(r.bytes_rule, "from --bytes");
    clc_test_assert_has(out, "(from --bytes)");
}
END_TEST

START_TEST(an_untraced_kernel_counts_its_buffer_sizes)
{
    struct clc_result r = one_row("--kernel-file " DATA "bytes_macro.cl --kernel "
                                  "every_other_macro --reference every_other_ref "
                                  "--reference-file " DATA "bytes.cl --describe 'arg in in "
                                  "float 2*n; arg out out float n; arg n scalar uint n' "
                                  "--size 64K");
    uint64_t n = 64 * 1024 / 4;
    ck_assert_uint_eq(r.bytes, 2 * n * 4 + n * 4);
    ck_assert_str_eq(r.bytes_rule, "buffer sizes");
    ck_assert_ptr_nonnull(strstr(r.note, "model: off"));
}
END_TEST

START_TEST(sweep_size_gives_a_checked_row_per_size)
{
    /* a pattern: its rows and the built-in ones at each size, ranked per size */
    clc_test_expect("custom --kernel-file " CLC_TEST_SOURCE_DIR "/cl/examples/copy_float4.cl "
                    "--kernel copy_float4 --pattern copy --items-per-thread 4 --sweep-size "
                    "16K:32K -r 2", 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(out, "ranking: copy_float4 (pattern copy) against the built-in copy, "
                             "vector, mlp; float, 16 KiB\n");
    clc_test_assert_has(out, "; float, 32 KiB\n");
    /* a described kernel, each row counted and predicted at its size */
    NEEDS_REWRITER();
    struct clc_report rep;
    run_rows(EVERY_OTHER " --sweep-size 64K:256K", 3, &rep);
    for (size_t i = 0; i < 3; i++) {
        const struct clc_result *r = &rep.results[i];
        uint64_t size = (uint64_t)(64 * 1024) << i, n = size / 4;
        ck_assert_uint_eq(r->size, size);
        ck_assert_uint_eq(r->bytes, n * 4 + n * 4);
        ck_assert_msg(isfinite(r->model.gbps), "row %zu not predicted", i);
    }
    clc_report_free(&rep);
}
END_TEST

START_TEST(sweep_sizes_that_do_not_fit_are_refused_before_anything_runs)
{
    /* a size whose expression overflows at the sweep's last step */
    clc_test_expect("custom " FILE_ "--kernel every_other --describe 'size BIG = n * n * n * "
                    "64; arg in in float 2*n; arg out out float n; arg n scalar uint n' "
                    "--sweep-size 1M:4M -r 2", 2, "at 4 MiB, a size of --sweep-size: size BIG: "
                    "a product overflows 64 bits", out, sizeof out, err, sizeof err);
    clc_test_assert_lacks(out, "every_other");
    /* a buffer larger than any device allows, at the sweep's larger steps (1024 x the
     * size: past any device's largest allocation while n still fits its uint) */
    clc_test_expect("custom " FILE_ "--kernel every_other --reference every_other_ref "
                    "--describe 'arg in in float 1024*n; arg out out float n; arg n scalar "
                    "uint n' --sweep-size 64K:4T -r 2", 1,
                    "a size of --sweep-size: arg in: ", out, sizeof out, err, sizeof err);
    clc_test_assert_has(err, "exceed the device's largest allocation");
    clc_test_assert_lacks(out, "every_other");
    /* a pattern's too */
    clc_test_expect("custom --kernel-file " CLC_TEST_SOURCE_DIR "/cl/examples/copy_float4.cl "
                    "--kernel copy_float4 --pattern copy --sweep-size 64K:16T -r 2", 1,
                    "a size of --sweep-size: the device allows ", out, sizeof out, err,
                    sizeof err);
    clc_test_assert_lacks(out, "copy_float4");
    /* and the syntax run takes */
    clc_test_expect("custom " EVERY_OTHER " --sweep-size 4M:1M", 2, "MIN is larger than MAX",
                    out, sizeof out, err, sizeof err);
    clc_test_expect("custom " EVERY_OTHER " --sweep-size 64K:1M --size 64K", 2,
                    "--sweep-size and --size exclude each other", out, sizeof out, err,
                    sizeof err);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {every_other_element_counts_half_its_input,
                            a_halo_read_by_five_work_items_counts_once,
                            in_place_over_half_its_buffer_counts_that_half_twice,
                            bytes_option_overrides_the_count,
                            an_untraced_kernel_counts_its_buffer_sizes,
                            sweep_size_gives_a_checked_row_per_size,
                            sweep_sizes_that_do_not_fit_are_refused_before_anything_runs};
    return clc_test_main(clc_test_suite("custom_bytes", tests, sizeof tests / sizeof tests[0]));
}
