/* test_sweep_cold.c - `run --sweep-size MIN:MAX` runs a case at MIN, 2 x MIN ... MAX with the
 * size on every row (read back from JSON and CSV); bad sweeps are usage errors; `run --cold`
 * verifies, times one launch per sample and says so in the row and the JSON config. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 16];

/* Runs `clcoalesce <args> -f json -o FILE` with FILE in a fresh folder, asserts that it exits
 * 0, reads FILE back into rep and its text into `out`, and removes FILE and the folder,
 * asserting that nothing else was left in it. */
static void run_json(const char *args, struct clc_report *rep)
{
    char dir[64], full[512];
    clc_test_make_dir(dir, "sweep");
    const char *file = clc_test_path(dir, "r.json");
    snprintf(full, sizeof full, "%s -f json -o %s", args, file);
    clc_test_expect(full, 0, NULL, out, sizeof out, err, sizeof err);
    ck_assert_int_eq(clc_read_json(file, rep), CLC_OK);
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    ck_assert_int_eq(unlink(file), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}

START_TEST(sweep_doubles_the_size)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.sweep_min = 64 << 10;
    o.sweep_max = 1 << 20;
    struct clc_report rep;
    clc_test_run_verified("coalesced", &o, 5, &rep);
    ck_assert_uint_eq(rep.n_results, 5);
    for (size_t i = 0; i < 5; i++) {
        const struct clc_result *r = &rep.results[i];
        ck_assert_uint_eq(r->size, (uint64_t)(64 << 10) << i);
        ck_assert_uint_eq(r->bytes, 2 * r->size); /* coalesced reads and writes the array once */
    }
    clc_report_free(&rep);
}
END_TEST

/* Each size of a sweep has its own copy ceiling: one measured at a single size made a
 * cache-sized row read as 449.7 % of a copy measured in DRAM.  The ceiling a row was compared
 * with is gbps / pct_copy: the rows of one size share it, and each size has another (ceilings
 * measured apart never come out bit for bit equal). */
START_TEST(sweep_ceiling_at_each_size)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.sweep_min = 64 << 10;
    o.sweep_max = 256 << 10;
    o.variant = NULL;
    o.types = CLC_FLOAT;
    struct clc_report rep;
    clc_test_run_verified("copy", &o, 6, &rep);
    double ceiling[3] = {0};
    for (size_t i = 0; i < rep.n_results; i++) {
        const struct clc_result *r = &rep.results[i];
        size_t k = r->size == 64 << 10 ? 0 : r->size == 128 << 10 ? 1 : 2;
        ck_assert_uint_eq(r->size, (uint64_t)(64 << 10) << k);
        double c = r->gbps / (r->pct_copy / 100);
        if (ceiling[k] == 0)
            ceiling[k] = c;
        ck_assert_msg(fabs(c / ceiling[k] - 1) < 1e-9, "rows of %llu bytes compared with %g "
                      "and %g GB/s", (unsigned long long)r->size, ceiling[k], c);
    }
    ck_assert_msg(ceiling[0] != ceiling[1] && ceiling[1] != ceiling[2] &&
                      ceiling[0] != ceiling[2],
                  "one ceiling for several sizes: %g, %g, %g GB/s", ceiling[0], ceiling[1],
                  ceiling[2]);
    clc_report_free(&rep);
}
END_TEST

/* The size survives the JSON file and heads its own CSV column. */
START_TEST(sweep_size_in_json_and_csv)
{
    struct clc_report rep;
    run_json("run coalesced --quick --sweep-size 64KiB:128KiB", &rep);
    ck_assert_uint_eq(rep.n_results, 2);
    ck_assert_uint_eq(rep.results[0].size, 64 << 10);
    ck_assert_uint_eq(rep.results[1].size, 128 << 10);
    clc_report_free(&rep);

    clc_test_expect("run coalesced --quick --size 64KiB -f csv", 0, NULL, out, sizeof out, err,
                    sizeof err);
    /* size_bytes after the note, then the columns of format 2 */
    clc_test_assert_has(out, ",device,note,size_bytes,api,metric,unit,value,cache_resident,"
                             "model_gbps,model_bound,model_dram_bytes,noisy\n");
    clc_test_assert_has(out, "coalesced,kernel,,float,131072,");
    clc_test_assert_has(out, "\",65536,opencl,gbps,GB/s,"); /* after the quoted note */
}
END_TEST

START_TEST(bad_sweeps_are_usage_errors)
{
    static const char *const usage[][2] = {
        {"run --sweep-size 1MiB", "expected MIN:MAX"},
        {"run --sweep-size 4MiB:1MiB", "MIN is larger than MAX"},
        {"run --sweep-size x:y", "bad --sweep-size 'x:y'"},
        {"run --sweep-size 1MiB:", "MAX"},
        {"run --sweep-size 1MiB:2MiB --size 1MiB", "exclude each other"},
        {"run --size 1MiB --sweep-size 1MiB:2MiB", "exclude each other"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++)
        clc_test_expect(usage[i][0], 2, usage[i][1], out, sizeof out, err, sizeof err);
    /* a MIN no buffer can hold is a run-time error, named */
    clc_test_expect("run coalesced --sweep-size 1TiB:2TiB", 1, "allocation too large", out,
                    sizeof out, err, sizeof err);
    clc_test_assert_has(err, "--sweep-size MIN");
}
END_TEST

START_TEST(cold_run_is_one_launch_per_sample)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.cold = true;
    o.size = 4096; /* a launch far below the timer's resolution: warm, it would be batched */
    struct clc_report rep;
    clc_test_run_verified("coalesced", &o, 1, &rep);
    ck_assert_int_eq(rep.results[0].batch, 1);
    ck_assert(rep.run.cold);
    clc_test_assert_note(&rep.results[0], "cold: L2 flushed before each launch");
    clc_report_free(&rep);

    o.cold = false; /* without it: no cold note, and the config says so */
    clc_test_run_expect("coalesced", &o, CLC_OK, &rep);
    ck_assert(!rep.run.cold);
    clc_test_assert_lacks(rep.results[0].note, "cold");
    clc_report_free(&rep);
}
END_TEST

START_TEST(cold_recorded_in_json_config)
{
    struct clc_report rep;
    run_json("run coalesced --quick --cold", &rep);
    ck_assert_uint_eq(rep.n_results, 1);
    ck_assert(rep.results[0].verified && rep.results[0].gbps > 0);
    ck_assert_int_eq(rep.results[0].batch, 1);
    ck_assert_uint_eq(rep.results[0].size, 1 << 20); /* --quick's size */
    clc_report_free(&rep);
    clc_test_assert_has(out, "\"cold\": true");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {sweep_doubles_the_size, sweep_ceiling_at_each_size,
                            sweep_size_in_json_and_csv,
                            bad_sweeps_are_usage_errors, cold_run_is_one_launch_per_sample,
                            cold_recorded_in_json_config};
    return clc_test_main(clc_test_suite("sweep_cold", tests, sizeof tests / sizeof tests[0]));
}
