/* test_units.c - pieces that need no device: size and count parsing, device selectors,
 * statistics, bandwidth arithmetic, writers and the JSON reader, the element check, the
 * timing policy (against a fake API) and the cache of built code, raced from threads. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/run.h"
#include "clcoalesce/stats.h"
#include "clcoalesce/timing.h"
#include "clcoalesce/verify.h"
#include "testutil.h"

START_TEST(sizes_parse)
{
    uint64_t b;
    const char *why;
    ck_assert_int_eq(clc_parse_size("4096", &b, &why), CLC_OK);
    ck_assert_uint_eq(b, 4096);
    ck_assert_int_eq(clc_parse_size("64MiB", &b, &why), CLC_OK);
    ck_assert_uint_eq(b, 64u << 20);
    ck_assert_int_eq(clc_parse_size("1.5GiB", &b, &why), CLC_OK);
    ck_assert_uint_eq(b, 3ull << 29);
    ck_assert_int_eq(clc_parse_size("4MB", &b, &why), CLC_OK);
    ck_assert_uint_eq(b, 4000000);
    ck_assert_int_eq(clc_parse_size("2k", &b, &why), CLC_OK);
    ck_assert_uint_eq(b, 2048);
    ck_assert_int_eq(clc_parse_size("1TiB", &b, &why), CLC_OK);
    ck_assert_uint_eq(b, 1ull << 40);
}
END_TEST

START_TEST(bad_sizes_rejected)
{
    uint64_t b = 7;
    const char *why = NULL;
    const char *bad[] = {"", "0", "-5", "abc", "12xyz", "1e3", "0x10", "0.5", "1.3B",
                         "99999999999999999999999", "20000000TiB", "MiB", " "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(clc_parse_size(bad[i], &b, &why) == CLC_USAGE, "accepted '%s'", bad[i]);
        ck_assert_ptr_nonnull(why);
    }
    ck_assert_int_eq(clc_parse_size("-5", &b, &why), CLC_USAGE);
    ck_assert_str_eq(why, "size must be positive");
    ck_assert_uint_eq(b, 7); /* untouched on failure */
}
END_TEST

START_TEST(counts_parse)
{
    long v;
    ck_assert_int_eq(clc_parse_count("20", 1, 100, &v), CLC_OK);
    ck_assert_int_eq(v, 20);
    ck_assert_int_eq(clc_parse_count("0", 1, 100, &v), CLC_USAGE);
    ck_assert_int_eq(clc_parse_count("101", 1, 100, &v), CLC_USAGE);
    ck_assert_int_eq(clc_parse_count("5x", 1, 100, &v), CLC_USAGE);
    ck_assert_int_eq(clc_parse_count("", 1, 100, &v), CLC_USAGE);
}
END_TEST

static struct clc_device fake[3];

static void make_fake_devices(void)
{
    memset(fake, 0, sizeof fake);
    const char *names[] = {"pthread-cpu", "NVIDIA H200", "NVIDIA H100 80GB HBM3"};
    int plat[] = {0, 1, 1}, dev[] = {0, 0, 1};
    for (int i = 0; i < 3; i++) {
        fake[i].index = i;
        snprintf(fake[i].label, sizeof fake[i].label, "%d:%d", plat[i], dev[i]);
        fake[i].cpu = i == 0;
        fake[i].gpu = i != 0;
        snprintf(fake[i].meta.name, sizeof fake[i].meta.name, "%s", names[i]);
    }
}

START_TEST(device_selectors)
{
    make_fake_devices();
    clc_quiet = true;
    ck_assert_int_eq(clc_select_device(fake, 3, NULL), 1); /* first GPU */
    ck_assert_int_eq(clc_select_device(fake, 3, ""), 1);
    ck_assert_int_eq(clc_select_device(fake, 1, NULL), 0); /* no GPU: first device */
    ck_assert_int_eq(clc_select_device(fake, 3, "2"), 2);
    ck_assert_int_eq(clc_select_device(fake, 3, "0"), 0);
    ck_assert_int_eq(clc_select_device(fake, 3, "1:1"), 2);
    ck_assert_int_eq(clc_select_device(fake, 3, "0:0"), 0);
    ck_assert_int_eq(clc_select_device(fake, 3, "h100"), 2); /* case-insensitive substring */
    ck_assert_int_eq(clc_select_device(fake, 3, "NVIDIA"), 1);
    ck_assert_int_eq(clc_select_device(fake, 3, "3"), -1);
    ck_assert_int_eq(clc_select_device(fake, 3, "2:0"), -1);
    ck_assert_int_eq(clc_select_device(fake, 3, "radeon"), -1);
}
END_TEST

START_TEST(known_devices)
{
    struct clc_device_meta m;
    memset(&m, 0, sizeof m);
    m.peak_gbps = NAN;
    snprintf(m.name, sizeof m.name, "NVIDIA H200");
    snprintf(m.vendor, sizeof m.vendor, "NVIDIA Corporation");
    /* the reported 4 MiB is the L1 total: the table wins */
    clc_known_facts(&m, 4325376, "reported");
    ck_assert_uint_eq(m.l2_bytes, 60ull << 20);
    ck_assert_str_eq(m.l2_source, "table");
    ck_assert(fabs(m.peak_gbps - 4814.0) < 1e-9);
    ck_assert_str_eq(m.peak_source, "table");
    /* what the driver said stays */
    snprintf(m.l2_source, sizeof m.l2_source, "CUDA driver");
    m.l2_bytes = 72u << 20;
    m.peak_gbps = 1000;
    clc_known_facts(&m, 4325376, "reported");
    ck_assert_uint_eq(m.l2_bytes, 72u << 20);
    ck_assert(fabs(m.peak_gbps - 1000) < 1e-9);
    memset(&m, 0, sizeof m);
    m.peak_gbps = NAN;
    snprintf(m.vendor, sizeof m.vendor, "NVIDIA Corporation");
    snprintf(m.name, sizeof m.name, "Some Future NVIDIA GPU");
    clc_known_facts(&m, 4325376, "reported");
    ck_assert_uint_eq(m.l2_bytes, 64ull << 20);
    ck_assert_str_eq(m.l2_source, "assumed");
    ck_assert(isnan(m.peak_gbps));
    memset(&m, 0, sizeof m);
    m.peak_gbps = NAN;
    snprintf(m.vendor, sizeof m.vendor, "GenuineIntel");
    snprintf(m.name, sizeof m.name, "pthread-cpu");
    clc_known_facts(&m, 32u << 20, "reported");
    ck_assert_uint_eq(m.l2_bytes, 32u << 20);
    ck_assert_str_eq(m.l2_source, "reported");
    ck_assert(isnan(m.peak_gbps));
}
END_TEST

/* The automatic sizes: 4 x the L2 rounded up, doubled to the plateau where the peak is
 * known (a copy lasts CLC_PLATEAU_MS) while a buffer stays within an eighth of the memory,
 * not for a case that opts out, a CPU capped, --quick small. */
START_TEST(automatic_sizes)
{
    struct clc_device_meta m;
    memset(&m, 0, sizeof m);
    m.l2_bytes = 50ull << 20, m.global_mem = 80ull << 30, m.max_alloc = 20ull << 30;
    m.peak_gbps = NAN;
    uint64_t size;
    char why[256];
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 256ull << 20);
    /* 2 x 1 GiB at 3352 GB/s lasts 0.64 ms, 2 x 512 MiB 0.32 ms */
    m.peak_gbps = 3352;
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 1ull << 30);
    ck_assert(2.0 * (double)size / (m.peak_gbps * 1e6) >= CLC_PLATEAU_MS);
    ck_assert(2.0 * (double)(size / 2) / (m.peak_gbps * 1e6) < CLC_PLATEAU_MS);
    ck_assert_int_eq(clc_case_size(&m, false, 1, false, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 256ull << 20);
    m.global_mem = 4ull << 30, m.max_alloc = 1ull << 30;
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 512ull << 20);
    ck_assert_int_eq(clc_case_size(&m, true, 1, true, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, CLC_CPU_SIZE);
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 0, true, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 1ull << 20);
    /* a given size is kept, or refused when a buffer would not fit */
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 4096, false, &size, why, sizeof why),
                     CLC_OK);
    ck_assert_uint_eq(size, 4096);
    ck_assert_int_eq(clc_case_size(&m, false, 4, true, 1ull << 30, false, &size, why, sizeof why),
                     CLC_ERR);
    /* a cache or a peak beyond any device's (a profile anyone wrote) ends at 1 PiB */
    m.global_mem = 0, m.max_alloc = UINT64_MAX, m.l2_bytes = 1ull << 62, m.peak_gbps = 1e300;
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 1ull << 50);
    m.l2_bytes = 50ull << 20;
    ck_assert_int_eq(clc_case_size(&m, false, 1, true, 0, false, &size, why, sizeof why), CLC_OK);
    ck_assert_uint_eq(size, 1ull << 50);
}
END_TEST

/* The inputs every check starts from, made once (a larger array serves a smaller n), and
 * the parallel byte comparison that holds one API's output against another's. */
START_TEST(kept_values_and_same_bytes)
{
    const float *f = clc_values(5000000, CLC_FLOAT);
    ck_assert_ptr_nonnull(f);
    ck_assert(f[0] == (float)clc_value(0) && f[4999999] == (float)clc_value(4999999));
    ck_assert_ptr_eq(clc_values(1000, CLC_FLOAT), f);
    const double *d = clc_values(10, CLC_DOUBLE);
    ck_assert(d[9] == clc_value(9));
    size_t n = 5000000 * sizeof(float);
    char *copy = malloc(n);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, f, n);
    ck_assert(clc_same_bytes(f, copy, n));
    copy[n - 1] ^= 1; /* the last byte of the last chunk */
    ck_assert(!clc_same_bytes(f, copy, n));
    ck_assert(clc_same_bytes(f, copy, n - 1));
    free(copy);
    clc_give_back_memory();
}
END_TEST

/* The gather indices: a permutation of each block (the last one short), the same every time,
 * the identity for blocks of 1, and not the identity otherwise. */
START_TEST(gather_permutations)
{
    const size_t n = 100000, blocks[] = {1, 32, 1000, n, 3 * n};
    uint32_t *idx = malloc(n * sizeof *idx), *again = malloc(n * sizeof *again);
    unsigned char *seen = calloc(n, 1);
    ck_assert(idx != NULL && again != NULL && seen != NULL);
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        clc_gather_indices(idx, n, blocks[b]);
        clc_gather_indices(again, n, blocks[b]);
        ck_assert_int_eq(memcmp(idx, again, n * sizeof *idx), 0);
        memset(seen, 0, n);
        size_t moved = 0, bad = n;
        /* one assertion after the loop: Check records every ck_assert it passes, and half a
         * million of them cost minutes under the sanitizers */
        for (size_t i = 0; i < n && bad == n; i++) {
            size_t lo = i / blocks[b] * blocks[b];
            if (idx[i] < lo || idx[i] >= lo + blocks[b] || idx[i] >= n || seen[idx[i]])
                bad = i;
            else
                seen[idx[i]] = 1;
            moved += idx[i] != i;
        }
        ck_assert_msg(bad == n, "block %zu: idx[%zu] = %u leaves its block or comes twice",
                      blocks[b], bad, bad < n ? idx[bad] : 0);
        if (blocks[b] == 1)
            ck_assert_uint_eq(moved, 0);
        else
            ck_assert_uint_gt(moved, n / 2);
    }
    free(idx);
    free(again);
    free(seen);
}
END_TEST

START_TEST(statistics)
{
    double odd[] = {5, 1, 3};
    double even[] = {4, 1, 3, 2};
    struct clc_stats s;
    ck_assert_int_eq(clc_stats_compute(odd, 3, &s), 0);
    ck_assert(s.median == 3 && s.min == 1 && s.max == 5 && s.mean == 3);
    ck_assert(fabs(s.cv - 2.0 / 3.0) < 1e-12); /* sample sd 2, mean 3 */
    ck_assert_int_eq(clc_stats_compute(even, 4, &s), 0);
    ck_assert(s.median == 2.5);
    ck_assert(odd[0] == 5); /* input untouched */
    double one = 7;
    ck_assert_int_eq(clc_stats_compute(&one, 1, &s), 0);
    ck_assert(s.median == 7 && s.cv == 0);
    ck_assert_int_eq(clc_stats_compute(odd, 0, &s), -1);
}
END_TEST

START_TEST(bandwidth_arithmetic)
{
    /* 1 GB (1e9 bytes) in 1 ms is 1000 GB/s */
    ck_assert(fabs(clc_gbps(1000000000ull, 1.0) - 1000.0) < 1e-9);
    ck_assert(fabs(clc_gbps(2 * 268435456ull, 0.2257) - 2378.69) < 0.01);
    ck_assert(clc_gbps(100, 0) == 0);
    ck_assert(clc_gbps(100, -1) == 0);
    ck_assert(fabs(clc_percent(50, 200) - 25) < 1e-12);
    ck_assert(isnan(clc_percent(50, NAN)));
    ck_assert(isnan(clc_percent(50, 0)));
}
END_TEST

static void sample_report(struct clc_report *rep)
{
    clc_report_init(rep, "opencl");
    snprintf(rep->device.name, sizeof rep->device.name, "Test GPU");
    rep->device.cc_major = 9;
    rep->device.cc_minor = 0;
    rep->device.copy_gbps = 3000;
    struct clc_result r;
    clc_result_init(&r, "stride", "inplace", CLC_DOUBLE);
    clc_result_set_param(&r, 4);
    r.bytes = 1000;
    r.reps = 20;
    r.ms_median = 0.5;
    r.ms_min = 0.4;
    r.ms_max = 0.6;
    r.gbps = 2.0;
    r.verified = true;
    r.status = CLC_STATUS_OK;
    snprintf(r.note, sizeof r.note, "a \"quoted\", note");
    clc_report_add(rep, &r);
    clc_result_init(&r, "copy", "enqueue", CLC_FLOAT);
    r.status = CLC_STATUS_SKIPPED;
    clc_report_add(rep, &r);
}

START_TEST(json_round_trip)
{
    struct clc_report rep, back;
    sample_report(&rep);
    rep.results[0].cache_resident = true;
    char path[] = "/tmp/clc-unit-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    ck_assert_int_eq(clc_write_report_file(&rep, CLC_FMT_JSON, path), CLC_OK);
    ck_assert_int_eq(clc_read_json(path, &back), CLC_OK);
    ck_assert_uint_eq(back.n_results, 2);
    ck_assert_str_eq(back.api, "opencl");
    ck_assert_str_eq(back.device.name, "Test GPU");
    ck_assert_int_eq(back.device.cc_major, 9);
    ck_assert(back.device.copy_gbps == 3000);
    const struct clc_result *r = &back.results[0];
    ck_assert_str_eq(r->case_name, "stride");
    ck_assert(r->has_param && r->param == 4 && r->type == CLC_DOUBLE);
    ck_assert(r->bytes == 1000 && r->ms_median == 0.5 && r->gbps == 2.0 && r->verified);
    ck_assert_str_eq(r->note, "a \"quoted\", note");
    ck_assert(isnan(r->pct_peak)); /* NAN -> null -> NAN */
    ck_assert(r->cache_resident && !back.results[1].cache_resident);
    ck_assert(!back.results[1].has_param);
    ck_assert_int_eq(back.results[1].status, CLC_STATUS_SKIPPED);
    clc_report_free(&back);
    clc_report_free(&rep);
    unlink(path);
}
END_TEST

START_TEST(csv_quotes_notes)
{
    struct clc_report rep;
    sample_report(&rep);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(clc_write_csv(&rep, f), CLC_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "case,variant,param,type,bytes"));
    ck_assert_ptr_nonnull(strstr(buf, "stride,inplace,4,double,1000,20,"));
    ck_assert_ptr_nonnull(strstr(buf, "\"a \"\"quoted\"\", note\""));
    ck_assert_ptr_nonnull(strstr(buf, "copy,enqueue,,float,"));
    free(buf);
    clc_report_free(&rep);
}
END_TEST

START_TEST(reader_rejects_bad_files)
{
    struct clc_report rep;
    clc_quiet = true;
    ck_assert_int_eq(clc_read_json("/nonexistent/x.json", &rep), CLC_ERR);
    char path[] = "/tmp/clc-unit-XXXXXX";
    int fd = mkstemp(path);
    const char *bad[] = {"{not json", "{\"results\": 3}", "[1,2]",
                         "{\"results\": [{\"case\": \"x\"}]}",
                         "{\"results\": [{\"case\":\"x\",\"variant\":\"v\",\"type\":\"int\",\"status\":\"ok\"}]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ftruncate(fd, 0), 0);
        ck_assert_int_eq(pwrite(fd, bad[i], strlen(bad[i]), 0), (ssize_t)strlen(bad[i]));
        ck_assert_msg(clc_read_json(path, &rep) == CLC_ERR, "accepted %s", bad[i]);
    }
    close(fd);
    unlink(path);
}
END_TEST

START_TEST(failed_write_leaves_no_file)
{
    struct clc_report rep;
    sample_report(&rep);
    clc_quiet = true;
    ck_assert_int_eq(clc_write_report_file(&rep, CLC_FMT_JSON, "/nonexistent-dir/out.json"), CLC_ERR);
    ck_assert_int_ne(access("/nonexistent-dir/out.json", F_OK), 0);
    clc_report_free(&rep);
}
END_TEST

START_TEST(registry_is_consistent)
{
    ck_assert_uint_ge(clc_n_cases, 5);
    for (size_t i = 0; i < clc_n_cases; i++) {
        const struct clc_case *c = clc_cases[i];
        ck_assert_ptr_eq(clc_find_case(c->name), c);
        ck_assert(c->cl_file && c->summary && c->variants_text && c->bytes_rule && c->expect);
        ck_assert(c->types != 0 && c->min_elems >= 1 && c->n_variants >= 1);
        for (size_t v = 0; v < c->n_variants; v++) {
            ck_assert_ptr_nonnull(c->variants[v].plan);
            ck_assert_ptr_eq(clc_find_variant(c, c->variants[v].name), &c->variants[v]);
        }
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CLC_TEST_KERNEL_DIR, c->cl_file);
        ck_assert_msg(access(path, R_OK) == 0, "missing %s", path);
    }
    ck_assert_ptr_null(clc_find_case("no-such-case"));
}
END_TEST

/* What `cases` says a case should show holds on any GPU: a percentage, which one GPU
 * measures and another does not (stride 2 was "near 70 %" of stride 1; the H100 gives 61 %),
 * comes with the GPU that gave it. */
START_TEST(expectations_name_their_gpu)
{
    for (size_t i = 0; i < clc_n_cases; i++) {
        const char *e = clc_cases[i]->expect;
        if (e == NULL || strchr(e, '%') == NULL)
            continue;
        ck_assert_msg(strstr(e, "H100") != NULL || strstr(e, "H200") != NULL,
                      "case %s: a percentage without the GPU that measured it: %s",
                      clc_cases[i]->name, e);
    }
}
END_TEST

/* What profile prints of the profile p (taken: freed here); free the text. */
static char *summary_of(json_t *p)
{
    ck_assert_ptr_nonnull(p);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    clc_print_profile_summary(f, p);
    fclose(f);
    json_decref(p);
    return buf;
}

/* profile's summary of a profile without some figures: each is said to be not measured,
 * none printed as nan (it printed "nan / nan KiB"). */
START_TEST(profile_summary_without_figures)
{
    json_t *p = json_pack("{s:{s:s, s:s}, s:{s:f}, s:{s:f, s:f}, s:{}}", "device", "name",
                          "Test GPU", "api", "opencl", "latency_ns", "l1", 30.0, "stream_gbps",
                          "read", 100.0, "copy", 90.0, "inflight");
    char *buf = summary_of(p);
    clc_test_assert_lacks(buf, "nan");
    clc_test_assert_has(buf, "stream  read     100.0 GB/s");
    clc_test_assert_has(buf, "stream  triad        - (not measured)");
    clc_test_assert_has(buf, "in flight per compute unit: not measured");
    ck_assert_ptr_null(strstr(strstr(buf, "in flight") + 1, "in flight"));
    free(buf);
}
END_TEST

/* profile's summary of the held tile: its ratio in floats and doubles ("-" for a double not
 * measured), "none here" where the held tile's build did not wait (null), nothing at all in a
 * profile from before it. */
START_TEST(profile_summary_of_held_tile)
{
    static const char *const line = "a tile transpose whose work-items wait for each load";
    json_t *held[] = {json_pack("[f, f]", 0.84, 1.0), json_pack("[f, n]", 0.5),
                      json_pack("[n, n]"), NULL};
    static const char *const want[] = {"floats / doubles: 84 / 100 %", "floats / doubles: 50 / - %",
                                       "none here", NULL};
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++) {
        json_t *inflight = json_object();
        if (held[i] != NULL)
            json_object_set_new(inflight, "held_tile_ratio", held[i]);
        json_t *p = json_pack("{s:{s:s, s:s}, s:o}", "device", "name", "Test GPU", "api",
                              "opencl", "inflight", inflight);
        char *buf = summary_of(p);
        if (want[i] != NULL) {
            clc_test_assert_has(buf, line);
            clc_test_assert_has(buf, want[i]);
        } else {
            clc_test_assert_lacks(buf, line);
        }
        clc_test_assert_lacks(buf, "nan");
        free(buf);
    }
}
END_TEST

/* profile's summary of the refill figures: the narrow rows', then the wide rows' on lines of
 * their own, of at most 100 columns; a type without its figures left out. */
START_TEST(profile_summary_of_refill_figures)
{
    json_t *p = json_pack("{s:{s:[i,i,i,i,i], s:[f,f,f,f,f], s:[f,f,f,f,f]}}", "refill", "steps",
                          1, 2, 4, 8, 16, "fp32_ps", 0.0, 1.0, 2.0, 3.0, 4.0, "wide_fp32_ps",
                          10.0, 15.0, 13.0, 34.0, 69.0);
    char *buf = summary_of(p);
    const char *narrow = strstr(buf, "a float's line filled over 2 .. 16 steps");
    const char *wide = strstr(buf, "the same with floats' lines open all over the buffer");
    ck_assert_msg(narrow != NULL && wide != NULL && narrow < wide, "%s", buf);
    clc_test_assert_has(narrow, "costs more by 2: 1.0 4: 2.0 8: 3.0 16: 4.0 ps");
    clc_test_assert_has(wide, "costs more by 2: 15.0 4: 13.0 8: 34.0 16: 69.0 ps");
    clc_test_assert_lacks(buf, "double");
    for (const char *l = buf; *l != '\0';) {
        const char *e = strchr(l, '\n');
        size_t n = e != NULL ? (size_t)(e - l) : strlen(l);
        ck_assert_msg(n <= 100, "a line of %zu columns: %.*s", n, (int)n, l);
        l += n + (e != NULL);
    }
    free(buf);
}
END_TEST

/* A build's output less the compiler's count lines: nothing when only those are left (PoCL
 * printed "1 warning generated." twice, alone, through the progress line).  Synthetic text:
 * no test depends on a compiler's wording. */
START_TEST(build_messages_filtered)
{
    static const char *const nothing[] = {
        "", "\n", "1 warning generated.\n", "1 warning generated.\n1 warning generated.\n",
        "2 warnings and 1 error generated.\n", "  3 errors generated.  \n\n",
        "1 warning generated."};
    for (size_t i = 0; i < sizeof nothing / sizeof nothing[0]; i++) {
        char *got = clc_build_messages(nothing[i]);
        ck_assert_msg(got == NULL, "'%s' left '%s'", nothing[i], got ? got : "");
    }
    char *got = clc_build_messages("k.cl:7:5: warning: array index 5 is past the end\n"
                                   "    a[5] = 1;\n"
                                   "1 warning generated.\n");
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, "k.cl:7:5: warning: array index 5 is past the end\n    a[5] = 1;");
    free(got);
    /* a line that only looks like a count stays */
    got = clc_build_messages("1 warning generated. see above\nwarnings generated: 2\n");
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, "1 warning generated. see above\nwarnings generated: 2");
    free(got);
}
END_TEST

START_TEST(run_args_parse)
{
    struct clc_run_args a;
    char *ok[] = {"run", "stride", "--size", "8MiB", "-r", "7", "--type", "double", "-q",
                  "--peak", "3352", "-f", "json", "-o", "x.json", "offset", NULL};
    clc_quiet = true;
    ck_assert_int_eq(clc_parse_run_args(16, ok, &a), CLC_OK);
    ck_assert_uint_eq(a.opts.size, 8u << 20);
    ck_assert_int_eq(a.opts.reps, 7);
    ck_assert_uint_eq(a.opts.types, CLC_DOUBLE);
    ck_assert(a.opts.types_given && a.opts.quick);
    ck_assert(a.opts.peak_gbps == 3352);
    ck_assert_int_eq(a.format, CLC_FMT_JSON);
    ck_assert_str_eq(a.output, "x.json");
    ck_assert_int_eq(a.n_cases, 2);
    char *bad_type[] = {"run", "--type", "half", NULL};
    ck_assert_int_eq(clc_parse_run_args(3, bad_type, &a), CLC_USAGE);
    char *bad_case[] = {"run", "strides", NULL};
    ck_assert_int_eq(clc_parse_run_args(2, bad_case, &a), CLC_USAGE);
    char *bad_reps[] = {"run", "--reps", "0", NULL};
    ck_assert_int_eq(clc_parse_run_args(3, bad_reps, &a), CLC_USAGE);
    char *missing[] = {"run", "--size", NULL};
    ck_assert_int_eq(clc_parse_run_args(2, missing, &a), CLC_USAGE);
}
END_TEST

/* Regression (found by tests/fuzz/fuzz_options): a parse that stopped inside a cluster of
 * short options ("-hq" stops at h) left glibc's getopt pointing into that argv, and the next
 * parse with optind = 1 went on reading it: here a stray -q; in the fuzzer, freed memory. */
START_TEST(run_args_parse_starts_afresh)
{
    struct clc_run_args a;
    char cluster[] = "-hq";
    char *first[] = {"run", cluster, NULL};
    ck_assert_int_eq(clc_parse_run_args(2, first, &a), CLC_OK);
    char *second[] = {"run", "-r", "5", NULL};
    ck_assert_int_eq(clc_parse_run_args(3, second, &a), CLC_OK);
    ck_assert_int_eq(a.opts.reps, 5);
    ck_assert_msg(!a.opts.quick, "the second parse took -q from the first one's argv");
}
END_TEST

/* The check (parallel with OpenMP) counts every bad element and names the first one, wherever
 * the bad elements fall among the threads' chunks; NaN never passes. */
START_TEST(check_counts_and_names_first)
{
    enum { N = 100003 };
    float *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(got);
    clc_fill_values(want, N, CLC_FLOAT, 7);
    for (size_t i = 0; i < N; i += 9973)
        ck_assert(want[i] == (float)clc_value(7 + i));
    memcpy(got, want, N * sizeof *got);
    struct clc_result r;
    clc_result_init(&r, "c", "v", CLC_FLOAT);
    ck_assert(clc_check_values(&r, got, want, N, CLC_FLOAT, 0));
    ck_assert_str_eq(r.note, "");
    got[N - 1] += 1;
    got[77777] = NAN;
    got[31] -= 2;
    ck_assert(!clc_check_values(&r, got, want, N, CLC_FLOAT, 0));
    char expect[160];
    snprintf(expect, sizeof expect, "wrong result: 3 of %d elements differ, first at 31: got %g, "
             "expected %g", N, (double)got[31], (double)want[31]);
    ck_assert_str_eq(r.note, expect);
    /* within a relative tolerance the off-by-one elements pass, NaN does not */
    got[31] = want[31] * (1 + 1e-7f);
    got[N - 1] = want[N - 1];
    ck_assert(!clc_check_values(&r, got, want, N, CLC_FLOAT, 1e-6));
    ck_assert_ptr_nonnull(strstr(r.note, "1 of 100003 elements differ, first at 77777: got nan"));
    free(want);
    free(got);
}
END_TEST

/* A fake API for the timing policy: every launch "takes" ms_per_launch of device time. */
struct fake_api {
    double ms_per_launch;
    long runs, timed, leads, flushes, flushes_before_probe;
    bool probe_seen, probe_twice;
};

static int fake_run(void *api, int count)
{
    ((struct fake_api *)api)->runs += count;
    return CLC_OK;
}

static int fake_time(void *api, int lead, int count, bool probe, double *ms)
{
    struct fake_api *f = api;
    f->leads += lead;
    if (probe) {
        f->probe_twice = f->probe_seen;
        f->probe_seen = true;
        f->flushes_before_probe = f->flushes;
    }
    f->timed += count;
    *ms = count * f->ms_per_launch;
    return CLC_OK;
}

static int fake_flush(void *api)
{
    ((struct fake_api *)api)->flushes++;
    return CLC_OK;
}

START_TEST(timing_policy)
{
    struct clc_timing_opts o = clc_timing_defaults(-1, 0, false, 1000.0);
    ck_assert_int_eq(o.warmup, 2);
    ck_assert_int_eq(o.reps, 20);
    ck_assert(o.warmup_ms == CLC_WARMUP_MS);
    ck_assert(fabs(o.min_ms - 0.2) < 1e-12); /* 200 x a 1 us timer */
    struct clc_timing_opts q = clc_timing_defaults(-1, 0, true, 1.0);
    ck_assert_int_eq(q.warmup, 1);
    ck_assert_int_eq(q.reps, 5);
    ck_assert(q.warmup_ms == 0);
    ck_assert(fabs(q.min_ms - 0.02) < 1e-12); /* never below 0.02 ms */

    /* long launches (CLC_LEAD_MS or more): one per sample, no lead launch but the probe's;
     * every launch counted */
    struct fake_api f = {.ms_per_launch = 1.0};
    struct clc_timer tm = {&f, fake_run, fake_time, fake_flush};
    struct clc_timing t;
    o.warmup_ms = 0;
    o.host_check = true;
    ck_assert_int_eq(clc_time_launches(&tm, 1, &o, &t), CLC_OK);
    ck_assert(f.probe_seen && !f.probe_twice);
    ck_assert_int_eq(t.batch, 1);
    ck_assert_int_eq(t.reps, 20);
    ck_assert(t.ms_median == 1.0 && t.ms_min == 1.0 && t.ms_max == 1.0 && t.cv == 0);
    ck_assert_int_eq(f.timed, 1 + 20);
    long host_batch = 20; /* >= 20 ms of 1 ms launches */
    ck_assert_int_eq(f.runs, 2 + host_batch);
    ck_assert_int_eq(f.leads, 1);
    ck_assert_int_eq(t.launches, f.runs + f.timed + f.leads);
    ck_assert(!isnan(t.ms_host));
    ck_assert_int_eq(f.flushes, 0);

    /* shorter than CLC_LEAD_MS but not batched: each sample behind one lead launch */
    struct fake_api h = {.ms_per_launch = 0.25};
    tm.api = &h;
    o.host_check = false;
    ck_assert_int_eq(clc_time_launches(&tm, 1, &o, &t), CLC_OK);
    ck_assert_int_eq(t.batch, 1);
    ck_assert_int_eq(h.leads, 1 + 20);
    ck_assert_int_eq(t.launches, h.runs + h.timed + h.leads);

    /* short launches: batched to last min_ms */
    struct fake_api s = {.ms_per_launch = 0.01};
    tm.api = &s;
    o.host_check = false;
    ck_assert_int_eq(clc_time_launches(&tm, 1, &o, &t), CLC_OK);
    ck_assert_int_eq(t.batch, 20); /* 0.2 ms / 0.01 ms */
    ck_assert(fabs(t.ms_median - 0.01) < 1e-12);
    ck_assert(isnan(t.ms_host));
    ck_assert_int_eq(s.leads, 1 + 20); /* one per sample, not one per launch */
    ck_assert_int_eq(t.launches, s.runs + s.timed + s.leads);

    /* warm-up continues until warmup_ms have passed on the host clock */
    struct fake_api w = {.ms_per_launch = 1.0};
    tm.api = &w;
    o.warmup_ms = 5;
    uint64_t t0 = clc_now_ns();
    ck_assert_int_eq(clc_time_launches(&tm, 1, &o, &t), CLC_OK);
    ck_assert((double)(clc_now_ns() - t0) * 1e-6 >= 5);
    ck_assert_int_gt(w.runs, 2);
    o.warmup = 0; /* no warm-up at all, whatever warmup_ms says */
    struct fake_api z = {.ms_per_launch = 1.0};
    tm.api = &z;
    ck_assert_int_eq(clc_time_launches(&tm, 1, &o, &t), CLC_OK);
    ck_assert_int_eq(z.runs, 0);

    /* cold: a flush before the probe and before each sample, no batching, coarse when short */
    struct fake_api c = {.ms_per_launch = 0.01};
    tm.api = &c;
    o.cold = true;
    o.host_check = true;
    ck_assert_int_eq(clc_time_launches(&tm, 1, &o, &t), CLC_OK);
    ck_assert_int_eq(c.flushes_before_probe, 1);
    ck_assert_int_eq(c.flushes, 1 + 20);
    ck_assert_int_eq(t.batch, 1);
    ck_assert_int_eq(c.leads, 0); /* a lead launch would bring the data back */
    ck_assert(t.coarse);
    ck_assert(isnan(t.ms_host)); /* the host batch would run warm */
}
END_TEST

/* Items of the built-code cache in the test below: a count of references. */
static void count_ref(void *p)
{
    (*(int *)p)++;
}

static void count_unref(void *p)
{
    (*(int *)p)--;
}

/* The built-code cache (struct clc_built): one item per file and options, a reference for
 * every caller; of two builds of the same that raced, the one kept first stays and the other
 * is dropped; a full cache drops its oldest item, whose users keep their references. */
START_TEST(built_code_kept_once)
{
    struct clc_built c;
    int a = 1, b = 1, more[CLC_BUILT_KEEP];
    clc_built_init(&c, count_ref, count_unref);
    ck_assert_ptr_null(clc_built_get(&c, "k.cl", "-DT=float", NULL));
    ck_assert_ptr_eq(clc_built_get(&c, "k.cl", "-DT=float", &a), &a);
    ck_assert_int_eq(a, 2); /* the caller's and the cache's */
    ck_assert_ptr_eq(clc_built_get(&c, "k.cl", "-DT=float", &b), &a);
    ck_assert_int_eq(b, 0);
    ck_assert_int_eq(a, 3);
    ck_assert_ptr_null(clc_built_get(&c, "k.cl", "-DT=double", NULL));
    ck_assert_ptr_null(clc_built_get(&c, "k.cl", NULL, NULL));
    for (int i = 0; i < CLC_BUILT_KEEP; i++) {
        char opts[16];
        snprintf(opts, sizeof opts, "-DW=%d", i);
        more[i] = 1;
        ck_assert_ptr_eq(clc_built_get(&c, "k.cl", opts, &more[i]), &more[i]);
    }
    ck_assert_int_eq(a, 2);
    ck_assert_ptr_null(clc_built_get(&c, "k.cl", "-DT=float", NULL));
    clc_built_close(&c);
    for (int i = 0; i < CLC_BUILT_KEEP; i++)
        ck_assert_int_eq(more[i], 1);
}
END_TEST

#define RACERS 8

/* One of RACERS threads that build the same item at once: the cache's, then its own build. */
struct racer {
    struct clc_built *cache;
    pthread_barrier_t *start;
    int item;     /* its build's references */
    void *got;    /* what the cache handed it */
};

static void *race(void *arg)
{
    struct racer *r = arg;
    pthread_barrier_wait(r->start);
    r->got = clc_built_get(r->cache, "k.cl", "-DT=float", NULL);
    if (r->got == NULL) {
        r->item = 1;
        r->got = clc_built_get(r->cache, "k.cl", "-DT=float", &r->item);
    }
    return NULL;
}

/* Builds of the same item racing on threads of their own: one is kept and handed to all,
 * every other build dropped. */
START_TEST(built_code_raced_once)
{
    struct clc_built c;
    struct racer r[RACERS];
    pthread_t t[RACERS];
    pthread_barrier_t start;
    clc_built_init(&c, count_ref, count_unref);
    pthread_barrier_init(&start, NULL, RACERS);
    for (int i = 0; i < RACERS; i++) {
        r[i] = (struct racer){&c, &start, 0, NULL};
        ck_assert_int_eq(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (int i = 0; i < RACERS; i++)
        pthread_join(t[i], NULL);
    int *kept = r[0].got;
    for (int i = 0; i < RACERS; i++) {
        ck_assert_ptr_eq(r[i].got, kept);
        if (&r[i].item != kept)
            ck_assert_int_eq(r[i].item, 0);
    }
    ck_assert_int_eq(*kept, RACERS + 1); /* every racer's and the cache's */
    clc_built_close(&c);
    ck_assert_int_eq(*kept, RACERS);
    pthread_barrier_destroy(&start);
}
END_TEST

/* Muted diagnostics are dropped until the outermost unmute; errors go to stderr again after
 * it.  An unmute without a mute changes nothing. */
START_TEST(muted_messages_nest)
{
    clc_test_capture(2);
    clc_unmute_messages();
    clc_error("before");
    ck_assert(clc_mute_messages());
    ck_assert(clc_mute_messages());
    clc_error("inner");
    clc_unmute_messages();
    clc_error("outer");
    clc_unmute_messages();
    clc_error("after");
    const char *err = clc_test_captured();
    clc_test_assert_has(err, "before");
    clc_test_assert_lacks(err, "inner");
    clc_test_assert_lacks(err, "outer");
    clc_test_assert_has(err, "after");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {sizes_parse,        bad_sizes_rejected, counts_parse,
                            device_selectors,   known_devices,      automatic_sizes,    statistics,
                            bandwidth_arithmetic, json_round_trip,  csv_quotes_notes,
                            reader_rejects_bad_files, failed_write_leaves_no_file,
                            registry_is_consistent, run_args_parse, run_args_parse_starts_afresh,
                            check_counts_and_names_first, timing_policy,
                            kept_values_and_same_bytes, gather_permutations,
                            built_code_kept_once, built_code_raced_once,
                            muted_messages_nest, expectations_name_their_gpu,
                            profile_summary_without_figures, profile_summary_of_refill_figures,
                            profile_summary_of_held_tile, build_messages_filtered};
    return clc_test_main(clc_test_suite("units", tests, sizeof tests / sizeof tests[0]));
}
