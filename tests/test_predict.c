/* test_predict.c - the predictive model: each layer on synthetic features and profiles (no
 * device), the profile's figures from synthetic rows and back through its JSON, and one row
 * of a real run per layer on the default device, predicted from a synthetic profile file
 * written so that the layer under test is the one that binds. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clcoalesce/driver.h"
#include "clcoalesce/predict.h"
#include "clcoalesce/profcache.h"
#include "testutil.h"

/* ------------------------------------------------------------------ synthetic profiles */

/* A profile whose ceilings are all 100 GB/s on a peak of 125: a kernel that moves what it uses
 * and keeps enough in flight is predicted at 100. */
static struct clc_profile flat_profile(void)
{
    struct clc_profile p;
    memset(&p, 0, sizeof p);
    p.peak_gbps = 125;
    p.read_gbps = p.write_gbps = p.copy_gbps = p.triad_gbps = 100;
    p.granule = 64;
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        p.gap_eff[c] = 1.0;
    p.n_curve = 2; /* 10 GB/s with 1 KiB in flight per CU, the whole read ceiling from 64 KiB */
    p.curve_bytes[0] = 1024;
    p.curve_gbps[0] = 10;
    p.curve_bytes[1] = 65536;
    p.curve_gbps[1] = 100;
    p.banks = 32;
    p.bank_width = 4;
    p.local_gbps = 1000;
    p.local_request_ps = 0;
    p.local_pass_ps = 128.0 / 1000 * 1e3; /* one pass per request at 1000 GB/s */
    p.launch_us = NAN;
    p.compute_units = 10;
    p.threads_per_cu = 2048;
    p.groups_per_cu = 32;
    return p;
}

/* A row of 10^8 bytes whose loads and stores each move one 64-byte granule per 64 useful
 * bytes, adjacent ones, with 128 KiB of loads in flight per compute unit (2048 work-items,
 * 4 loads of 16 bytes each, as many as the model counts): 100 GB/s on the flat profile. */
static struct clc_result streaming_row(void)
{
    struct clc_result r = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 50);
    r.bytes = 100000000;
    struct clc_model_features *f = &r.model.features;
    clc_model_features_clear(f);
    f->valid = true;
    f->elem_bytes = 4;
    f->dram[0][1][0] = f->dram[1][1][0] = 0.5;
    f->dram[0][0][0] = f->dram[1][0][0] = 0.5;
    f->loads_in_flight = 4;
    f->load_lane_bytes = 16;
    f->resident_per_cu = 2048;
    f->local_passes = f->local_accesses = 0;
    return r;
}

/* streaming_row with loads only: a 64-byte granule per 64 useful bytes, at the read ceiling. */
static struct clc_result reading_row(void)
{
    struct clc_result r = streaming_row();
    struct clc_model_features *f = &r.model.features;
    f->dram[0][1][0] = f->dram[0][0][0] = 1;
    f->dram[1][1][0] = f->dram[1][0][0] = 0;
    return r;
}

static double predict(const struct clc_profile *p, const struct clc_result *r,
                      enum clc_bound *bound)
{
    struct clc_prediction pr;
    ck_assert_msg(clc_predict(p, r, &pr), "no prediction: %s", pr.note);
    *bound = pr.bound;
    /* the waterfall ends where the prediction does */
    ck_assert_double_eq_tol(pr.layer[pr.n_layers - 1].gbps, pr.gbps, 1e-9 * pr.gbps);
    return pr.gbps;
}

/* What layer `name` of r's prediction on p says (until the next call). */
static const char *layer_why(const struct clc_profile *p, const struct clc_result *r,
                             const char *name)
{
    static struct clc_prediction pr;
    ck_assert(clc_predict(p, r, &pr));
    for (size_t i = 0; i < pr.n_layers; i++)
        if (strcmp(pr.layer[i].name, name) == 0)
            return pr.layer[i].why;
    ck_abort_msg("no %s layer", name);
    return NULL;
}

START_TEST(dram_layer_streams_at_the_ceiling)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    /* loads only: the read ceiling; stores only: the write ceiling */
    p.read_gbps = 80;
    p.write_gbps = 120;
    r.model.features.dram[1][1][0] = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 80 / 0.5, 1e-6); /* half the bytes move */
    r.model.features.dram[1][1][0] = 0.5;
    r.model.features.dram[0][1][0] = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 120 / 0.5, 1e-6);
}
END_TEST

START_TEST(granules_layer_charges_what_is_not_used)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    /* every lane its own 64-byte granule for 4 useful bytes: 16 x the bytes each way */
    r.model.features.dram[0][1][0] = r.model.features.dram[1][1][0] = 8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / 16, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SECTORS);
    /* the same trace on a device of 32-byte granules moves half as much */
    p.granule = 32;
    r.model.features.dram[0][0][0] = r.model.features.dram[1][0][0] = 4;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / 8, 1e-6);
}
END_TEST

START_TEST(distinct_bytes_never_above_the_ceiling)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    /* the sample saw half the bytes reach DRAM (reuse): twice the ceiling, unless the row
     * counts the distinct bytes its launch moves, which DRAM moves at least once */
    r.model.features.dram[0][1][0] = r.model.features.dram[1][1][0] = 0.25;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 200, 1e-6);
    snprintf(r.bytes_rule, sizeof r.bytes_rule, "%s", CLC_BYTES_DISTINCT);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

START_TEST(scatter_layer_slows_far_granules)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    p.gap_eff[3] = 0.5;
    /* half the loads' granules far from any other: they take twice as long */
    r.model.features.dram[0][1][0] = r.model.features.dram[0][1][3] = 0.25;
    double want = 100.0 / (0.25 + 0.25 / 0.5 + 0.5);
    ck_assert_double_eq_tol(predict(&p, &r, &b), want, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SECTORS);
}
END_TEST

START_TEST(scatter_layer_takes_loads_and_stores_apart)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    /* loads and stores each a granule far from any other: each at its direction's
     * efficiency where the profile has them, else both at the class's */
    r.model.features.dram[0][1][0] = r.model.features.dram[1][1][0] = 0;
    r.model.features.dram[0][1][3] = r.model.features.dram[1][1][3] = 0.5;
    p.gap_eff[3] = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.5 / 0.5 + 0.5 / 0.5), 1e-6);
    p.gap_eff_dir[0][3] = 0.8;
    p.gap_eff_dir[1][3] = 0.4;
    /* stores whose every sector is written in part (as the stride rows' are) */
    r.model.features.dram[1][0][0] = 0;
    r.model.features.dram[1][0][3] = 1.0; /* 32-byte sectors per useful byte */
    r.model.features.store_partial = 1.0 / 32;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.5 / 0.8 + 0.5 / 0.4), 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SECTORS);
    /* whole sectors far apart: as far as loads; a quarter of them in part, a quarter at
     * the stores' */
    r.model.features.store_partial = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.5 / 0.8 + 0.5 / 0.8), 1e-6);
    r.model.features.store_partial = 0.25 / 32;
    ck_assert_double_eq_tol(predict(&p, &r, &b),
                            100.0 / (0.5 / 0.8 + 0.5 * (0.25 / 0.4 + 0.75 / 0.8)), 1e-6);
}
END_TEST

START_TEST(scatter_layer_takes_gathers_at_random)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    p.gap_eff[CLC_MODEL_GAPS - 1] = 0.5;
    /* half the loads' bytes gathered at random: at the farthest stride's efficiency where
     * the profile has no random rate, at that rate where it has */
    r.model.features.dram[0][1][0] = 0.25;
    r.model.features.dram_random[1] = 0.25;
    p.random_eff = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.25 + 0.25 / 0.5 + 0.5), 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SECTORS);
    p.random_eff = 0.8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.25 + 0.25 / 0.8 + 0.5), 1e-6);
    struct clc_prediction said;
    ck_assert(clc_predict(&p, &r, &said));
    ck_assert_int_eq(said.layer[1].bound, CLC_BOUND_SECTORS); /* half of the loads: not most */
    /* a device of 32-byte granules reads the 32-byte figure; two thirds of its loads'
     * granules at random: the bound a gather's, `random` */
    p.granule = 32;
    r.model.features.dram[0][0][0] = 0.25;
    r.model.features.dram[1][0][0] = 0.5;
    r.model.features.dram_random[0] = 0.5;
    p.random_eff = 0.1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.25 + 0.5 / 0.1 + 0.5), 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_RANDOM);
    ck_assert(clc_predict(&p, &r, &said));
    ck_assert_str_eq(clc_bound_name(said.bound), "random");
    ck_assert_ptr_nonnull(strstr(clc_bound_remedy(said.bound), "indices"));
}
END_TEST

/* Stores bunched in windows later work-groups fill (a tiled transpose's tile rows): dense
 * where the profile did not measure them, at its tile rows' efficiency where it did. */
START_TEST(scatter_layer_takes_tile_rows_at_their_rate)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    r.model.features.dram[1][1][0] = 0.25;
    r.model.features.dram_bunched[1] = 0.25;
    p.bunched_eff = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    p.bunched_eff = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.5 + 0.25 + 0.25 / 0.5), 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SECTORS);
    struct clc_prediction said;
    ck_assert(clc_predict(&p, &r, &said));
    clc_test_assert_has(said.layer[2].why, "tile rows 50 % of stores, at 50 %");
    /* DRAM writes them all the same: the bytes written count both */
    r.model.features.dram[1][0][0] = 0.25;
    r.model.features.dram_bunched[0] = 0.25;
    struct clc_prediction pr;
    ck_assert(clc_predict(&p, &r, &pr));
    ck_assert_double_eq_tol(pr.dram_write_bytes, 0.5 * (double)r.bytes, 1e-3);
    /* a file from before they were counted (NAN) has them in dram's dense class */
    r.model.features.dram[1][1][0] = 0.5;
    r.model.features.dram_bunched[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    /* loaded so, half the loads, at the tile_loads rate of 0.8; the DRAM bytes read count
     * them; a profile without it takes them dense, a file without them has none */
    r = streaming_row();
    r.model.features.dram[0][1][0] = 0.25;
    r.model.features.dram_bunched_loads[1] = 0.25;
    p.bunched_load_eff = 0.8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / (0.25 + 0.25 / 0.8 + 0.5), 1e-6);
    ck_assert(clc_predict(&p, &r, &said));
    clc_test_assert_has(said.layer[2].why, "; 50 % of loads, at 80 %");
    ck_assert_double_eq_tol(said.dram_read_bytes, 0.5 * (double)r.bytes, 1e-3);
    p.bunched_load_eff = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    r.model.features.dram[0][1][0] = 0.5;
    r.model.features.dram_bunched_loads[1] = NAN;
    p.bunched_load_eff = 0.8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* Sets what r's work-items keep in flight: items per compute unit, loads each, their bytes. */
static void keeps_in_flight(struct clc_result *r, double items, double loads, double lane)
{
    r->model.features.resident_per_cu = items;
    r->model.features.loads_in_flight = loads;
    r->model.features.load_lane_bytes = lane;
}

START_TEST(inflight_layer_follows_the_curve)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = reading_row();
    enum clc_bound b;
    /* 256 work-items x 1 load x 4 bytes = 1 KiB in flight: 10 % of the read ceiling */
    keeps_in_flight(&r, 256, 1, 4);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 10, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    /* halfway up the curve in log scale (8 KiB): halfway in bandwidth */
    keeps_in_flight(&r, 256, 4, 8);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 55, 1e-6);
    /* a loop that sums keeps no more than the model's unroll in flight, whatever its trace */
    r.model.features.loads_in_flight = 64;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 55, 1e-6);
    /* the occupancy from the profile's facts when the run's device had none: 10 groups of
     * 128 on 10 compute units hold 128 work-items each, 512 bytes in flight */
    keeps_in_flight(&r, NAN, 1, 4);
    r.model.features.group_items = 128;
    r.model.features.groups = 10;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 5, 1e-6);
    /* a case that declares its bytes in flight is taken at its word */
    r.in_flight = 65536;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* Little's law holds a work-item's loads in flight, not its stores, which leave at once: a
 * kernel that also stores keeps DRAM as busy as one that only loads, with (loads + stores) /
 * loads times its loads' bytes in flight.  Not through __local, where a barrier holds a
 * work-group's next loads behind its stores. */
START_TEST(stores_ride_along_the_loads)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = reading_row();
    enum clc_bound b;
    keeps_in_flight(&r, 256, 1, 4); /* 1 KiB of loads in flight: 10 % */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 10, 1e-6);
    r = streaming_row(); /* a copy: as 2 KiB, a sixth of the way up the curve in log scale */
    keeps_in_flight(&r, 256, 1, 4);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 10 + 90.0 / 6, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    /* twice the bytes stored as loaded: DRAM as busy as with 3 KiB of loads, for 1.5 DRAM
     * bytes per useful byte */
    r.model.features.dram[1][1][0] = r.model.features.dram[1][0][0] = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), (10 + 90 * log(3) / log(64)) / 1.5, 1e-6);
    /* staged through __local, a barrier between its loads and its stores: they ride all
     * the same (the barrier waits for the stores to leave, not to land) */
    r = streaming_row();
    keeps_in_flight(&r, 256, 1, 4);
    r.model.features.local_accesses = r.model.features.local_passes = 1e-6;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 10 + 90.0 / 6, 1e-6);
}
END_TEST

/* The grid: 256 work-items per CU keeping K = 1, 4, 16 loads of 4 bytes at 10, 40, 100
 * GB/s and K = 1, 4 of 16 bytes at 30, 80. */
START_TEST(inflight_grid_by_items_loads_width)
{
    struct clc_profile p = flat_profile();
    static const struct clc_inflight_point grid[] = {
        {256, 1, 4, 10}, {256, 4, 4, 40}, {256, 16, 4, 100}, {256, 1, 16, 30}, {256, 4, 16, 80},
        {1024, 1, 4, 35}};
    p.n_grid = sizeof grid / sizeof grid[0];
    memcpy(p.grid, grid, sizeof grid);
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 256, 4, 4), 40, 1e-9); /* a point */
    /* between loads 1 and 4 in log scale: 2 is halfway */
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 256, 2, 4), 25, 1e-9);
    /* between widths 4 and 16: 8 is halfway, at 2 loads halfway again */
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 256, 1, 8), 20, 1e-9);
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 256, 2, 8), (25 + 55) / 2.0, 1e-9);
    /* fewer work-items than measured: in proportion; between 256 and 1024: in log scale;
     * more than measured: in proportion up to the most the grid reached */
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 128, 1, 4), 5, 1e-9);
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 512, 1, 4), 22.5, 1e-9);
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 2048, 1, 4), 70, 1e-9);
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 4096, 1, 4), 100, 1e-9);
    /* beyond the loads and widths measured: the nearest */
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 256, 64, 4), 100, 1e-9);
    ck_assert_double_eq_tol(clc_profile_inflight_at(&p, 256, 4, 32), 80, 1e-9);
    /* a corner it did not measure (16 loads of 16 bytes): no figure */
    ck_assert(isnan(clc_profile_inflight_at(&p, 256, 8, 16)));

    /* the prediction reads it: 256 work-items with one load of 4 bytes, 10 % of the read
     * ceiling; 1024 of them, 35 % */
    struct clc_result r = reading_row();
    enum clc_bound b;
    keeps_in_flight(&r, 256, 1, 4);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 10, 1e-6);
    r.model.features.resident_per_cu = 1024;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 35, 1e-6);
    /* the grid's own row, declaring its bytes in flight: its loads are the bytes over the
     * work-items and their lane bytes */
    r.model.features.resident_per_cu = 256;
    r.model.features.load_lane_bytes = 16;
    r.in_flight = 256 * 4 * 16;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 80, 1e-6);
    /* no grid: the envelope over the bytes in flight alone, 16 KiB two thirds up its curve
     * in log scale */
    p.n_grid = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 70, 1e-6);
}
END_TEST

/* A copy whose work-items each copy k elements one after the other spreads a work-item's
 * fixed time over them: the copy of one element at 65 % and the long-lived copy at 70 % give
 * a = 1 / 0.65 - 1 / 0.7 and b = 1 / 0.7, so 4 elements a work-item reach 4 / (a + 4 b); one
 * element a work-item, a long-lived copy no faster than one, or a profile without it: the
 * copy of one element. */
START_TEST(long_lived_copies_spread_their_start)
{
    const int g = CLC_PROFILE_ONE_PASS_GROUP;
    struct clc_profile p = flat_profile();
    p.one_pass[0][g] = p.one_pass[1][g] = 0.65;
    p.long_copy = 0.7;
    double a = 1 / 0.65 - 1 / 0.7, b = 1 / 0.7, four = 4 / (a + 4 * b);
    ck_assert_double_eq_tol(clc_profile_long_copy(&p, 0.65, 4), four, 1e-9);
    ck_assert_double_eq_tol(clc_profile_long_copy(&p, 0.65, 1), 0.65, 1e-9);
    /* 10^8 bytes, half of them stored, 4-byte lanes: 1.25 x 10^7 loads over 3.125 x 10^6
     * work-items in groups of 256, 4 each */
    struct clc_result r = streaming_row();
    enum clc_bound bound;
    keeps_in_flight(&r, 2048, 1, 4);
    r.model.features.stored = 0.5;
    r.model.features.group_items = 256;
    r.model.features.groups = 3.125e6 / 256;
    ck_assert_double_eq_tol(predict(&p, &r, &bound), 100 * four, 1e-6);
    ck_assert_int_eq(bound, CLC_BOUND_INFLIGHT);
    r.model.features.groups = 1.25e7 / 256; /* one element a work-item */
    ck_assert_double_eq_tol(predict(&p, &r, &bound), 65, 1e-6);
    r.model.features.groups = 3.125e6 / 256;
    p.long_copy = 0.6;
    ck_assert_double_eq_tol(predict(&p, &r, &bound), 65, 1e-6);
    p.long_copy = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &bound), 65, 1e-6);
}
END_TEST

/* A copy at full residency (a load, its store, and no more before the next) is read off the
 * profile's copies of one element per work-item, by its lane bytes; anything else off the
 * inflight curve. */
START_TEST(copies_read_off_the_one_pass_rows)
{
    struct clc_profile p = flat_profile();
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.8;  /* 4-byte lanes in groups of 256: 80 % of the copy ceiling */
    p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.95; /* 8-byte lanes: 95 % */
    struct clc_result r = streaming_row();
    enum clc_bound b;
    keeps_in_flight(&r, 2048, 1, 4);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 80, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    keeps_in_flight(&r, 2048, 1, 8); /* costs 5 %: bound by DRAM */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 95, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    keeps_in_flight(&r, 2048, 1, 4 * sqrt(2.0)); /* halfway between in log scale */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 87.5, 1e-6);
    /* wider lanes: the curve where it gives more than the 8-byte copy; on a curve that
     * reaches the ceiling at 256 KiB, 32 KiB of loads in flight and as much stored give 77.5 */
    keeps_in_flight(&r, 2048, 1, 16);
    p.curve_bytes[1] = 4 * 65536;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 95, 1e-6);
    p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.6;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 77.5, 1e-6);
    p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.95;
    p.curve_bytes[1] = 65536;

    /* not such a copy: the curve (2048 x 4 B = 8 KiB of loads in flight: 55) */
    keeps_in_flight(&r, 2048, 1, 4);
    r.model.features.resident_per_cu = 1024; /* not full residency: 4 KiB, and as much stored */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 55, 1e-6);
    r.model.features.resident_per_cu = 2048;
    r.model.features.local_accesses = 1e-6; /* staged through __local, at no cost there: */
    r.model.features.local_passes = 1e-6;    /* the curve without staged copies measured, */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 70, 1e-6); /* 8 KiB (+ 8) */
    p.one_pass_staged[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.6; /* and the staged copies' 60 */
    p.one_pass_staged[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.7;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 60, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    r.model.features.local_passes = r.model.features.local_accesses = 0;
    r.model.features.loads_in_flight = 2; /* two loads before a store: 16 KiB (+ 16): 85 */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 85, 1e-6);
    r.model.features.loads_in_flight = 1;
    r.model.features.dram[1][0][0] = r.model.features.dram[1][1][0] = 0; /* loads only */
    r.model.features.dram[0][0][0] = r.model.features.dram[0][1][0] = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 55, 1e-6);
    /* a profile without the copies (an older one): the curve, 16 KiB loaded (+ 16): 85 */
    r = streaming_row();
    keeps_in_flight(&r, 2048, 1, 8);
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP] = p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 85, 1e-6);
}
END_TEST

/* A misaligned copy's warps each ask for a sector more than they read, which the next warp
 * asks for too and DRAM sends once: its lanes keep in flight the bytes DRAM sends for them
 * (4 a lane for 4 read, as an aligned copy's), not their 5 bytes of sectors; where DRAM
 * sends each sector for one warp alone (every other element: 8 bytes of sectors for 4 read,
 * 2 bytes read from DRAM a loaded byte), all 8.  A row traced before the access bytes: its
 * sectors.  The copy of several elements a work-item counts them by the bytes a lane reads. */
START_TEST(misaligned_copies_keep_what_dram_sends)
{
    const int g = CLC_PROFILE_ONE_PASS_GROUP;
    struct clc_profile p = flat_profile();
    p.one_pass[0][g] = 0.4; /* 4-byte lanes: 40 % of the copy ceiling, 8-byte: 60 % */
    p.one_pass[1][g] = 0.6;
    struct clc_result r = streaming_row();
    enum clc_bound b;
    keeps_in_flight(&r, 2048, 1, 5);
    r.model.features.stored = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 * (0.4 + 0.2 * log(1.25) / log(2)), 1e-6);
    r.model.features.load_access_bytes = 4;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 40, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    keeps_in_flight(&r, 2048, 1, 8); /* 60 % of the ceiling in DRAM bytes, 1.5 a useful byte */
    r.model.features.dram[0][0][0] = r.model.features.dram[0][1][0] = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 60 / 1.5, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    /* a double off its alignment: 9 bytes of sectors for 8 read, the sample's edges a
     * sliver more from DRAM: the 8-byte copy, not the rule of wider lanes (the curve) */
    keeps_in_flight(&r, 2048, 1, 9);
    r.model.features.load_access_bytes = 8;
    r.model.features.dram[0][0][0] = r.model.features.dram[0][1][0] = 0.50006;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 60 / 1.00006, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    r.model.features.load_access_bytes = 4;
    /* 10^8 bytes, half of them stored, 5 bytes of sectors for 4 read: 1.25 x 10^7 loads over
     * 3.125 x 10^6 work-items, 4 each (3.2 by their sectors) */
    keeps_in_flight(&r, 2048, 1, 5);
    r.model.features.dram[0][0][0] = r.model.features.dram[0][1][0] = 0.5;
    r.model.features.group_items = 256;
    r.model.features.groups = 3.125e6 / 256;
    p.long_copy = 0.5;
    double a = 1 / 0.4 - 1 / 0.5, four = 4 / (a + 4 / 0.5);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 * four, 1e-6);
}
END_TEST

/* A staged copy of k elements a work-item reaches k / (a + b k) of the copy ceiling, a and b
 * from the staged copies of 1 and 4 elements: staged at 50 % and staged4 at 80 % give
 * a + b = 2 and a + 4 b = 5 (a = 1, b = 1): 2 / 3 at k = 2, 8 / 9 at k = 8.  A kernel that
 * stages 2 loads a work-item is read there where the loops without a barrier reach more;
 * without the staged4 rows, or a kernel that does not stage, as before. */
START_TEST(staged_copies_by_loads)
{
    struct clc_profile p = flat_profile();
    for (int i = 0; i < 2; i++) {
        p.one_pass_staged[i][CLC_PROFILE_ONE_PASS_GROUP] = 0.5;
        p.one_pass_staged4[i][CLC_PROFILE_ONE_PASS_GROUP] = 0.8;
    }
    ck_assert_double_eq_tol(clc_profile_staged(&p, 4, 256, 1, false), 0.5, 1e-9);
    ck_assert_double_eq_tol(clc_profile_staged(&p, 4, 256, 2, false), 2.0 / 3, 1e-9);
    ck_assert_double_eq_tol(clc_profile_staged(&p, 4, 256, 4, false), 0.8, 1e-9);
    ck_assert_double_eq_tol(clc_profile_staged(&p, 8, 256, 8, false), 8.0 / 9, 1e-9);
    /* 4 elements more than 4 times as fast as 1: no time per element (b < 0), none */
    p.one_pass_staged[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.2;
    p.one_pass_staged4[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.9;
    ck_assert(isnan(clc_profile_staged(&p, 4, 256, 4, false)));
    p.one_pass_staged[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.5;
    p.one_pass_staged4[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.8;

    struct clc_result r = streaming_row();
    enum clc_bound b;
    keeps_in_flight(&r, 2048, 2, 8); /* 32 KiB of loads in flight, as much stored: 100 */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    /* staged: the staged copy's 2 / 3, below the curve's 100 */
    r.model.features.local_accesses = r.model.features.local_passes = 1e-6;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 200.0 / 3, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    /* its code, as compiled, waits for each load before the next: a work-item keeps one in
     * flight, the staged copy of one element where the profile has no straight copies;
     * with them (0.8: 1 / b = 0.8, a + b = 2), its 2 loads one at a time, 2 / (a + 2 b);
     * as many as the trace shows or more, as before */
    r.model.features.compiled_loads = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP] = p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.8;
    ck_assert_double_eq_tol(clc_profile_staged(&p, 8, 256, 2, true), 2 / 3.25, 1e-9);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 200 / 3.25, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    /* the held tile transpose (4 loads one at a time, groups of 256) at 0.75 of the same
     * tile loaded together: the staged copy of 4 elements' 0.8 becomes 0.6, a + 4 b = 4 / 0.6
     * with a + b = 2 (b = 14 / 9, a = 4 / 9), and 2 loads one at a time reach 2 / (a + 2 b) =
     * 9 / 16, where the straight copies gave 2 / 3.25; not for loads issued together, nor for
     * 8-byte lanes where only the float tile ran (the straight copies' rule again) */
    p.held_tile[0] = p.held_tile[1] = 0.75;
    ck_assert_double_eq_tol(clc_profile_staged(&p, 8, 256, 2, true), 9.0 / 16, 1e-9);
    ck_assert_double_eq_tol(clc_profile_staged(&p, 8, 256, 2, false), 2.0 / 3, 1e-9);
    ck_assert_double_eq_tol(predict(&p, &r, &b), 900.0 / 16, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    p.held_tile[1] = NAN;
    ck_assert_double_eq_tol(clc_profile_staged(&p, 4, 256, 2, true), 9.0 / 16, 1e-9);
    ck_assert_double_eq_tol(clc_profile_staged(&p, 8, 256, 2, true), 2 / 3.25, 1e-9);
    p.held_tile[0] = NAN;
    p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.4; /* slower than the staged: no such form */
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.4;
    ck_assert(isnan(clc_profile_staged(&p, 8, 256, 2, true)));
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP] = p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = NAN;
    r.model.features.compiled_loads = 4;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 200.0 / 3, 1e-6);
    r.model.features.compiled_loads = 0; /* no load found in the code: the trace's */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 200.0 / 3, 1e-6);
    r.model.features.compiled_loads = NAN;
    for (int i = 0; i < 2; i++)
        p.one_pass_staged4[i][CLC_PROFILE_ONE_PASS_GROUP] = NAN; /* a profile from before */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6); /* the curve: 32 KiB (+ 32) */
}
END_TEST

/* The copies of one element per work-item by work-group size: a row in groups of 1024
 * reads the profile's copies in groups of 1024, one in groups of 512 the log midpoint. */
START_TEST(copies_read_by_group_size)
{
    struct clc_profile p = flat_profile();
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP] = 0.8;
    p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP + 2] = 0.6; /* 1024 */
    p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP] = 0.95;
    struct clc_result r = streaming_row();
    enum clc_bound b;
    keeps_in_flight(&r, 2048, 1, 4);
    r.model.features.group_items = 1024;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 60, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    r.model.features.group_items = 512;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 70, 1e-6);
    r.model.features.group_items = 128; /* below the sizes measured: the nearest */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 80, 1e-6);
    /* 8-byte lanes have groups of 256 only: that one for every size */
    keeps_in_flight(&r, 2048, 1, 8);
    r.model.features.group_items = 1024;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 95, 1e-6);
}
END_TEST

START_TEST(banks_layer_counts_passes)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    /* a local load and store per element (8 useful bytes): 2 requests of 32 lanes per 256
     * useful bytes; the load conflicts 32-way: 33 passes, 128 bytes each at 1000 GB/s */
    r.model.features.local_accesses = 2.0 / 8;
    r.model.features.local_passes = 33.0 / 256;
    double ms_local = 1e8 * (33.0 / 256) * 128 * 1e-9; /* 128 ps per pass */
    double want = 1e8 / (ms_local * 1e6);
    ck_assert_double_eq_tol(predict(&p, &r, &b), want, 1e-6 * want);
    ck_assert(want < 100);
    ck_assert_int_eq(b, CLC_BOUND_BANKS);
    /* padded: 2 passes per 256 bytes, faster than the DRAM traffic */
    r.model.features.local_passes = 2.0 / 256;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    /* a row that counts local bytes (banks): its passes per load request alone */
    struct clc_result l = streaming_row();
    l.model.features.local_row = true;
    l.model.features.local_load_passes = 4;
    ck_assert_double_eq_tol(predict(&p, &l, &b), 1000.0 / 4, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_BANKS);
}
END_TEST

/* Global loads share the pipe: a pass per line each load request touches. */
START_TEST(banks_layer_counts_load_lines)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    /* lanes walking 32 rows: a load request per 128 useful bytes, 32 lines each, at 128 ps a
     * pass: 31.25 GB/s; on a row whose sectors already cost half the DRAM ceiling, the pipe
     * sets the time and names the bound */
    r.model.features.l1_requests = 1.0 / 128;
    r.model.features.l1_lines = 32.0 / 128;
    r.model.features.dram[0][1][0] = r.model.features.dram[1][1][0] = 1.0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 31.25, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_L1);
    /* with local passes as many as the lines, the banks */
    r.model.features.local_accesses = 1.0 / 128;
    r.model.features.local_passes = 32.0 / 128;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 31.25 / 2, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_BANKS);
    /* coalesced loads, a line per request: nothing, and a result file without the lines
     * (NAN) neither */
    r = streaming_row();
    r.model.features.l1_requests = 1.0 / 256;
    r.model.features.l1_lines = 1.0 / 256;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    r.model.features.l1_lines = 32.0 / 128;
    r.model.features.l1_requests = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 31.25, 1e-6);
    r.model.features.l1_lines = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* The waterfall names the pipe's layer for what fills it, as the bound is named, and says
 * after the prediction what the bound means. */
START_TEST(waterfall_says_what_binds)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    r.model.features.l1_requests = 1.0 / 128;
    r.model.features.l1_lines = 32.0 / 128;
    r.model.features.dram[0][1][0] = r.model.features.dram[1][1][0] = 1.0;
    const char *names[2] = {"l1", "banks"}, *binds[2] = {"  l1 binds: ", "  banks binds: "};
    for (int local = 0; local < 2; local++) {
        r.model.features.local_accesses = local ? 1.0 / 128 : 0;
        r.model.features.local_passes = local ? 33.0 / 128 : 0;
        struct clc_prediction pr;
        ck_assert(clc_predict(&p, &r, &pr));
        ck_assert_str_eq(pr.layer[4].name, names[local]);
        ck_assert_str_eq(clc_bound_name(pr.bound), names[local]);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(f);
        clc_print_waterfall(f, &pr, NAN);
        fclose(f);
        clc_test_assert_has(text, binds[local]);
        clc_test_assert_has(text, clc_bound_remedy(pr.bound));
        free(text);
    }
    /* every bound has its own sentence; NONE has none */
    ck_assert_str_eq(clc_bound_remedy(CLC_BOUND_NONE), "");
    for (int a = CLC_BOUND_NONE + 1; a <= CLC_BOUND_LAST; a++) {
        ck_assert_msg(strlen(clc_bound_remedy(a)) > 40, "%s", clc_bound_name(a));
        for (int c = a + 1; c <= CLC_BOUND_LAST; c++)
            ck_assert_str_ne(clc_bound_remedy(a), clc_bound_remedy(c));
    }
}
END_TEST

/* The table of layers: every row names its layer, the limit it stands for and the function
 * that computes it, no two rows share a name, and a waterfall has room for them all. */
START_TEST(layer_table_rows_are_whole)
{
    size_t n = 0;
    const struct clc_layer_def *t = clc_model_layers(&n);
    ck_assert_uint_gt(n, 1);
    ck_assert_uint_le(n, CLC_MODEL_LAYERS);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(t[i].name != NULL && t[i].name[0] != '\0', "row %zu has no name", i);
        ck_assert_msg(t[i].bound > CLC_BOUND_NONE && t[i].bound <= CLC_BOUND_LAST,
                      "%s has no bound", t[i].name);
        ck_assert_msg(t[i].fn != NULL, "%s has no function", t[i].name);
        for (size_t j = i + 1; j < n; j++)
            ck_assert_str_ne(t[i].name, t[j].name);
    }
}
END_TEST

/* clc_predict runs the table: one waterfall line per row, in its order, with its name (the
 * banks row may call itself l1) and bound, each line the one above times its factor, and
 * the bound picked one of the lines'. */
START_TEST(waterfall_runs_the_table)
{
    size_t n = 0;
    const struct clc_layer_def *t = clc_model_layers(&n);
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    r.model.features.resident_per_cu = 128; /* 8 KiB in flight: the inflight layer binds */
    struct clc_prediction pr;
    ck_assert_msg(clc_predict(&p, &r, &pr), "no prediction: %s", pr.note);
    ck_assert_uint_eq(pr.n_layers, n);
    bool bound_seen = false;
    for (size_t i = 0; i < n; i++) {
        const struct clc_model_layer *l = &pr.layer[i];
        if (strcmp(t[i].name, "banks") != 0 || strcmp(l->name, "l1") != 0)
            ck_assert_str_eq(l->name, t[i].name);
        ck_assert_int_eq(l->timed, t[i].timed);
        double above = i ? pr.layer[i - 1].gbps : pr.peak_gbps;
        ck_assert_double_eq_tol(l->gbps, above * l->factor, 1e-9 * above);
        bound_seen |= l->bound == pr.bound;
    }
    ck_assert_msg(bound_seen, "bound %s is no layer's", clc_bound_name(pr.bound));
    ck_assert_str_eq(clc_bound_name(pr.bound), "inflight");
}
END_TEST

/* A timed layer is weighed by the factors down to it: lines that take 1.2 x the time the
 * inflight layer leaves (a factor of 0.83 alone) bind over an inflight layer of 0.32,
 * since the bandwidth they alone allow is lower still. */
START_TEST(timed_layer_weighed_by_the_layers_above)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = reading_row();
    struct clc_model_features *f = &r.model.features;
    f->resident_per_cu = 128; /* 8 KiB in flight per CU: about 32 GB/s on the curve */
    f->load_sectors = 0;
    f->load_lines = 1.0 / 128;
    struct clc_prediction pr;
    ck_assert(clc_predict(&p, &r, &pr));
    ck_assert_str_eq(clc_bound_name(pr.bound), "inflight");
    double inflight_gbps = pr.gbps;
    /* the L2's line rate that takes 1.2 x that time for the row's lines */
    p.load_lines_per_s = f->load_lines * inflight_gbps * 1e9 / 1.2;
    ck_assert(clc_predict(&p, &r, &pr));
    ck_assert_double_eq_tol(pr.gbps, inflight_gbps / 1.2, 1e-6 * inflight_gbps);
    for (size_t i = 0; i < pr.n_layers; i++)
        if (strcmp(pr.layer[i].name, "lines") == 0) {
            ck_assert(pr.layer[i].timed);
            ck_assert_double_eq_tol(pr.layer[i].factor, 1 / 1.2, 1e-9);
        }
    /* the loads' lookups, which the L1 takes */
    ck_assert_str_eq(clc_bound_name(pr.bound), "l1");
}
END_TEST

/* A transpose that stores down columns: a line per 4 bytes stored, 8 useful bytes per
 * element, its loads a line per 256; p's L2 takes 1 G store lines/s (8 GB/s, below the DRAM
 * traffic's 100) and 4 G load lines. */
static struct clc_result column_stores(struct clc_profile *p)
{
    struct clc_result r = streaming_row();
    r.model.features.store_lines = 1.0 / 8;
    r.model.features.load_lines = 1.0 / 256;
    p->store_lines_per_s = 1e9;
    p->load_lines_per_s = 4e9;
    return r;
}

START_TEST(lines_layer_charges_the_line_requests)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = column_stores(&p);
    enum clc_bound b;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 8, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    /* loads and stores at their own rates, not summed: loads of a line per 8 useful bytes
     * at 4 G/s take 32 GB/s, the stores still 8; the loads' lookups bind the L1 */
    r.model.features.load_lines = 1.0 / 8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 8, 1e-6);
    r.model.features.store_lines = 1.0 / 256;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 32, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_L1);
    /* where the trace counted the loads' sectors, the L1 looks those up: two per line, 16
     * GB/s (a result file without them keeps its lines) */
    r.model.features.load_sectors = 2.0 / 8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 16, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_L1);
    r.model.features.load_sectors = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 32, 1e-6);
    /* the lines no other warp of the work-group asked for at the same access reach the L2,
     * which takes them at 2 G/s: all of them, 16 GB/s; an eighth (a work-group's 8 warps on
     * the same sectors, as the scatter case's loads), the L1's 4 G lines/s bind again */
    p.missed_lines_per_s = 2e9;
    r.model.features.load_group_lines = 1.0 / 8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 16, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    r.model.features.load_group_lines = 1.0 / 64;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 32, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_L1);
    r.model.features.load_group_lines = NAN; /* a file from before they were counted */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 32, 1e-6);
    /* a coalesced copy's line per 256 useful bytes: 1 TB/s of loads, DRAM binds */
    r.model.features.load_lines = r.model.features.store_lines = 1.0 / 256;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    /* a profile without the rates (older, or the scatter case not run): no layer */
    p.store_lines_per_s = p.load_lines_per_s = NAN;
    r.model.features.store_lines = 1.0 / 8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
}
END_TEST

/* Stores whose DRAM windows their work-group fills only in part (bunched: a transpose's rows)
 * are written back after the lines that bring them, while loads share DRAM: column_stores,
 * all of them bunched, 0.5 B a useful B at the write ceiling of 100 GB/s, 0.005 ns a useful
 * B more than the lines' 0.125 (4 %); at the tile rows' rate of 50 %, 0.01. */
START_TEST(lines_layer_adds_the_write_back_of_tile_rows)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = column_stores(&p);
    enum clc_bound b;
    r.model.features.dram[1][1][0] = 0;
    r.model.features.dram_bunched[1] = 0.5;
    p.bunched_eff = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1 / 0.130, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    struct clc_prediction pr;
    ck_assert(clc_predict(&p, &r, &pr));
    for (size_t i = 0; i < pr.n_layers; i++)
        if (strcmp(pr.layer[i].name, "lines") == 0)
            clc_test_assert_has(pr.layer[i].why, "; write-back +4 %");
    p.bunched_eff = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1 / 0.135, 1e-6);
    /* stored alone, nothing loaded beside them: the lines' time alone */
    r.model.features.dram[0][1][0] = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 8, 1e-6);
    /* a file from before bunched stores were counted (NAN): none */
    r = column_stores(&p);
    r.model.features.dram_bunched[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 8, 1e-6);
}
END_TEST

/* The L2's own throughput: what the stores write and what DRAM fills share the L2's store
 * rate; the loads take theirs apart.  At 16 G sectors/s loaded and 4 G stored, a copy (half
 * a sector stored per 32 useful bytes, and as much filled from DRAM) takes 128 GB/s and
 * DRAM's 100 bind; storing four times as much takes 51.2; loads of a sector per 4 useful
 * bytes take 64, whatever the stores take. */
START_TEST(l2_layer_shares_writes_with_fills)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    p.l2_sectors_per_s[0] = 16e9;
    p.l2_sectors_per_s[1] = 4e9;
    f->load_sectors = f->store_sectors = 1.0 / 64;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    f->store_sectors = 4.0 / 64;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 51.2, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_L2);
    ck_assert_str_eq(clc_bound_name(b), "l2");
    f->store_sectors = 1.0 / 64;
    f->load_sectors = 8.0 / 32;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 64, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_L2);
    /* a run stored an element a request, which the L1 merges (its class's factor below 1):
     * the L2 takes each sector once */
    f->load_sectors = 1.0 / 64;
    f->store_sectors = 4.0 / 64;
    f->store_follow_partial = 3.0 / 64;
    f->store_follow_lines = 3.0 / 512;
    f->store_follow_lines_per_request = 4;
    for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
        p.store_merge[0][c] = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    /* a result file from before the stores' sectors were counted, or a profile without the
     * l2 rows: no layer */
    f->store_follow_partial = f->store_follow_lines = 0;
    f->store_sectors = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_sectors = 4.0 / 64;
    p.l2_sectors_per_s[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
}
END_TEST

/* L1 capacity: a warp reusing the 32 lines its last load touched (a row or chunk per
 * work-item walked in steps) hits while the resident warps' lines fit in the profile's L1;
 * 64 warps of 32 lines (256 KiB) do not fit in 128 KiB, and each reuse is an L2 request
 * again, 16 warps' (64 KiB) do. */
START_TEST(reuse_past_l1_asks_the_l2_again)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    p.load_lines_per_s = 1e9;
    p.l1_bytes = 128 << 10;
    /* a new sector per 64 useful bytes and 3 reused: 64 GB/s while they hit, 16 when not */
    f->load_sectors = 1.0 / 64;
    f->load_reused_sectors = 3.0 / 64;
    f->load_reused_lines = 3.0 / 64;
    f->reuse_footprint = 32;
    f->resident_per_cu = 512;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 64, 1e-6);
    f->resident_per_cu = 2048;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 16, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    /* an L1 not measured (an older profile, a sweep that never left it): reuse hits */
    p.l1_bytes = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 64, 1e-6);
}
END_TEST

/* A kernel whose requests access twice the bytes its rule counts (a second pass over its
 * output) is charged for both passes: half the GB/s; where the trace's figure is about the
 * count (a launch's idle padding) or the trace was cut short, nothing changes. */
START_TEST(accessed_bytes_over_counted_ones)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    r.model.features.accessed = 2;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    struct clc_model m;
    memset(&m, 0, sizeof m);
    m.bytes_useful = 2e6;
    clc_model_features_count(&r.model.features, &m, 1000000);
    ck_assert_double_eq_tol(r.model.features.accessed, 2, 1e-12);
    clc_model_features_count(&r.model.features, &m, 1950000);
    ck_assert(isnan(r.model.features.accessed));
    m.truncated = true;
    clc_model_features_count(&r.model.features, &m, 1000000);
    ck_assert(isnan(r.model.features.accessed));
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* L2 capacity: past the L2, the sectors a warp takes again and those a store writes in part
 * are read from DRAM again, a granule each.  10 compute units of 64 warps keeping 32 lines
 * for loads and as many for stores hold 5 MiB: past a 4-MiB L2, inside an 8-MiB one. */
START_TEST(reuse_past_l2_reads_dram_again)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    struct clc_prediction pr;
    f->load_reused_sectors = f->load_reused_lines = 1.0 / 64;
    f->store_partial = 1.0 / 32;
    f->reuse_footprint = 32;
    p.l2_bytes = 8 << 20;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    p.l2_bytes = 4 << 20;
    /* (1/64 + 1/32) x 64 = 3 more bytes read per useful byte, 4 in all: 25 GB/s */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 25, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SECTORS);
    ck_assert(clc_predict(&p, &r, &pr));
    ck_assert_double_eq_tol(pr.dram_read_bytes, 3.5 * (double)r.bytes, 1e-6 * r.bytes);
    /* far apart, at the lone granules' efficiency: 3 bytes at half speed, 7 in all */
    p.gap_eff[CLC_MODEL_GAPS - 1] = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100.0 / 7, 1e-6);
    /* fewer warps resident: it fits again */
    f->resident_per_cu = 1024;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    /* lines left open over loads, a line a lane (1 / 32 of a sector a useful byte, at 1000
     * ps each: 3.125 ms more where the L2 holds the rest) cost no refill on top of the
     * rereads past the L2 */
    f->resident_per_cu = 2048;
    p.gap_eff[CLC_MODEL_GAPS - 1] = 1;
    f->store_open_sectors = 1.0 / 32;
    f->store_open_bytes = 60;
    f->store_open_lane_bytes = 128;
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p.refill_ps[0][c] = c > 0 ? 1000 : 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 25, 1e-6);
    p.l2_bytes = 8 << 20;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / 4.125, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_REFILL);
    p.l2_bytes = 4 << 20;
    f->store_open_sectors = 0;
    /* stores of whole sectors leave the L2: the loads' 32 lines a warp alone (2.6 MiB) fit */
    f->resident_per_cu = 2048;
    f->store_partial = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* A store's line requests and the sectors it writes in part, each at its own cost: the
 * scatter case's rate (1 G lines/s, a sector in part each: 1000 ps) and the 32-byte fill's
 * 25 GB/s (a line per 64 bytes, a sector in part per 16: 40 ps a byte) give 480 ps a line
 * and 520 a partial sector.  Both rows come back at their own rate; a store of a line per
 * 128 useful bytes with 4 of its sectors in part (stride 2) takes 20 ps a byte, 50 GB/s;
 * with its sectors whole, 3.75 ps, and DRAM binds. */
START_TEST(lines_layer_charges_partial_sectors)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    p.store_lines_per_s = 1e9;
    p.split_gbps[0] = 25;
    struct clc_model_features *f = &r.model.features;
    f->store_lines = f->store_partial = 1.0 / 4; /* the scatter case: 4 useful bytes a line */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 4, 1e-6);
    f->store_lines = 1.0 / 64; /* the fill */
    f->store_partial = 1.0 / 16;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 25, 1e-6);
    f->store_lines = 1.0 / 128;
    f->store_partial = 4.0 / 128;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    f->store_partial = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    /* a result file from before partial sectors, or a profile without the fill: a line at
     * the scatter rate whole, 7.8 ps a byte: 128 GB/s, DRAM binds; with 4 lines, 32 */
    f->store_partial = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_lines = 4.0 / 128;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 32, 1e-6);
    f->store_partial = 4.0 / 128;
    p.split_gbps[0] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 32, 1e-6);
}
END_TEST

/* flat_profile with stores at 480 ps a line and 520 a partial sector (1 G store lines a
 * second and a 25 GB/s fill of 32-byte lanes), no merging of runs and no shared stores
 * measured. */
static struct clc_profile store_cost_profile(void)
{
    struct clc_profile p = flat_profile();
    p.store_lines_per_s = 1e9;
    p.split_gbps[0] = 25;
    for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++) {
        for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++)
            p.store_merge[t][c] = NAN;
        for (unsigned k = 0; k < CLC_PROFILE_SHARED; k++)
            p.shared_ps[0][c][k] = p.shared_ps[1][c][k] = NAN;
    }
    return p;
}

/* A run of 8 floats stored an element a request (lanes 32 bytes apart): a request of 8
 * lines and 32 partial sectors per 128 useful bytes, 160 ps a byte at 480 ps a line and 520
 * a partial sector (6.25 GB/s).  The 7 requests of 8 that follow the one before cost the
 * profile's factor for 8 lines: at 0.5, 90 ps a byte; from __local (a kernel that stages
 * through it), its own factor: at 0.25, 55 ps.  Where the build keeps each store apart
 * (stores_combined 0), the factors of the rows stored so: 0.75 (125 ps) staged, and
 * unstaged, none measured there (a profile from before them), the others' 0.5; where it
 * combines them (1) or gives no code (NAN), the first two.  No factor measured: nothing
 * merges. */
START_TEST(lines_layer_merges_runs)
{
    struct clc_profile p = store_cost_profile();
    struct clc_result r = streaming_row();
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    f->store_lines = 8.0 / 128;
    f->store_partial = 32.0 / 128;
    f->store_follow_lines = 7.0 / 128;
    f->store_follow_partial = 28.0 / 128;
    f->store_follow_lines_per_request = 8;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 160, 1e-6);
    p.store_merge[0][2] = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 90, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    p.store_merge[1][2] = 0.25;
    f->local_accesses = 1e-9; /* too few to cost the banks anything */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 55, 1e-3);
    p.store_merge[clc_profile_merge_table(true, true)][2] = 0.75;
    f->stores_combined = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 125, 1e-3);
    /* and the waterfall says what to change: test the run once, at its own figures */
    struct clc_prediction pr;
    ck_assert(clc_predict(&p, &r, &pr));
    ck_assert_ptr_nonnull(strstr(pr.hint, "a factor of 0.75 on a request, 0.25 back to back"));
    f->stores_combined = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 55, 1e-3);
    ck_assert(clc_predict(&p, &r, &pr));
    ck_assert_str_eq(pr.hint, "");
    f->stores_combined = 0;
    f->local_accesses = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 90, 1e-3);
    p.store_merge[clc_profile_merge_table(false, true)][2] = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 160, 1e-3);
    f->stores_combined = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 90, 1e-3);
    /* a file from before runs were counted: as before */
    f->store_follow_partial = f->store_follow_lines = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000.0 / 160, 1e-3);
}
END_TEST

/* Store requests whose pieces other warps of the work-group write into the same sectors at
 * the same access, in a kernel that stages through __local (its warps store together after
 * the barrier): 8 lines and 16 sectors in part a request of 256 useful bytes cost 47.5 ps a
 * byte at 480 ps a line and 520 a partial sector (21 GB/s), and what the profile's rows of as
 * many lines and sectors take, 5120 ps a request, 20 ps a byte (50 GB/s).  Without __local,
 * or without those rows, the two costs.  The rest of the stores at the two costs beside. */
START_TEST(lines_layer_takes_shared_pieces_at_their_rows)
{
    struct clc_profile p = store_cost_profile();
    struct clc_result r = streaming_row();
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    p.shared_ps[0][2][1] = 5120;
    f->store_lane_bytes = 4;
    f->store_lines = f->store_shared_lines = 8.0 / 256;
    f->store_sectors = f->store_partial = f->store_shared_partial = 16.0 / 256;
    f->store_shared_requests = 1.0 / 256;
    f->store_shared_bytes = 128.0 / 256;
    f->local_accesses = 1e-9; /* staged, too few to cost the banks anything */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    f->local_accesses = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000 / 47.5, 1e-6);
    f->local_accesses = 1e-9;
    p.shared_ps[0][2][1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000 / 47.5, 1e-6);
    /* a file from before they were counted */
    p.shared_ps[0][2][1] = 5120;
    f->store_shared_requests = f->store_shared_lines = f->store_shared_partial = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000 / 47.5, 1e-6);
    /* half the requests so (4 lines and 8 sectors in part a useful 256 bytes beside): 10 ps
     * a byte theirs, 23.75 the rest's, 30 GB/s */
    f->store_shared_requests = 0.5 / 256;
    f->store_shared_lines = 4.0 / 256;
    f->store_shared_partial = 8.0 / 256;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1000 / 33.75, 1e-6);
}
END_TEST

/* A shared store's cost between the profile's classes: linear in the sectors in part within
 * a class of lines, linear in log2 of the lines between classes, the nearest measured where
 * outside; double's table for lanes over 4 bytes; NAN where nothing is measured. */
START_TEST(shared_store_costs_between_classes)
{
    struct clc_profile p = store_cost_profile();
    ck_assert(isnan(clc_profile_shared_store_ps(&p, 4, 8, 16)));
    p.shared_ps[0][2][0] = 100; /* 8 lines, 8 sectors */
    p.shared_ps[0][2][2] = 400; /* 8 lines, 32 sectors */
    p.shared_ps[0][3][2] = 800; /* 16 lines, 32 sectors */
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 8, 8), 100, 1e-9);
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 8, 16), 200, 1e-9);
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 8, 64), 400, 1e-9);
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 8, 2), 100, 1e-9);
    /* between 8 and 16 lines at 32 sectors: 400 and 800, halfway in log scale */
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 8 * sqrt(2), 32), 600, 1e-9);
    /* 16 lines at 8 sectors: its class has only 32, the nearest */
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 16, 8), 800, 1e-9);
    /* 2 lines: the class nearest measured, 8; past 32 lines: 32's, none here: 16's */
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 2, 8), 100, 1e-9);
    ck_assert_double_eq_tol(clc_profile_shared_store_ps(&p, 4, 64, 32), 800, 1e-9);
    ck_assert(isnan(clc_profile_shared_store_ps(&p, 8, 8, 16)));
}
END_TEST

/* The runs rows give each class of lines the least factor of its rows: 1 G store lines a
 * second and a 25 GB/s fill of 32-byte lanes cost 480 ps a line and 520 a partial sector,
 * so a float run of 8 (8 lines, 32 partial sectors a request, 8 requests a sector) costs
 * 160 ps a byte stored alone; the copy at 2000 / 90 GB/s leaves 0.5 to each request after
 * the first, the fill at 1000 / 76 leaves 0.4, the staged copy at 2000 / 55 0.25; stored
 * apart, at 2000 / 160 (as alone) 1, from __local at 2000 / 125 0.75.  A double run of 16
 * (32 lines) slower than alone: 1. */
START_TEST(merge_factors_from_runs_rows)
{
    struct clc_report rep;
    struct clc_profile p;
    clc_report_init(&rep, "opencl");
    static const struct {
        const char *c, *v;
        long param;
        enum clc_type t;
        double gbps;
    } rows[] = {{"stream", "copy", -1, CLC_FLOAT, 100},
                {"scatter", "store", -1, CLC_FLOAT, 4},
                {"scatter", "store", -1, CLC_DOUBLE, 8},
                {"vector", "fill_float8", -1, CLC_FLOAT, 25},
                {"runs", "store", 8, CLC_FLOAT, 2000.0 / 90},
                {"runs", "fill", 8, CLC_FLOAT, 1000.0 / 76},
                {"runs", "local", 8, CLC_FLOAT, 2000.0 / 55},
                {"runs", "store_apart", 8, CLC_FLOAT, 2000.0 / 160},
                {"runs", "local_apart", 8, CLC_FLOAT, 2000.0 / 125},
                {"runs", "store", 16, CLC_DOUBLE, 1}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct clc_result r = clc_test_row(rows[i].c, rows[i].v, rows[i].param, rows[i].t,
                                           rows[i].gbps);
        clc_report_add(&rep, &r);
    }
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_double_eq_tol(p.store_merge[0][2], 0.4, 1e-9);
    ck_assert_double_eq_tol(p.store_merge[1][2], 0.25, 1e-9);
    ck_assert_double_eq_tol(p.store_merge[0][4], 1.0, 1e-9);
    ck_assert(isnan(p.store_merge[0][0]) && isnan(p.store_merge[1][4]));
    ck_assert_double_eq_tol(p.store_merge[clc_profile_merge_table(false, true)][2], 1.0, 1e-9);
    ck_assert_double_eq_tol(p.store_merge[clc_profile_merge_table(true, true)][2], 0.75, 1e-9);
    ck_assert(isnan(p.store_merge[clc_profile_merge_table(true, true)][4]));
    /* kept in the JSON, as the profile the device keeps */
    json_t *j = clc_profile_to_json(&p);
    struct clc_profile q;
    ck_assert_int_eq(clc_profile_from_json(j, &q), CLC_OK);
    json_decref(j);
    ck_assert_double_eq_tol(q.store_merge[0][2], 0.4, 1e-9);
    ck_assert_double_eq_tol(q.store_merge[1][2], 0.25, 1e-9);
    ck_assert(isnan(q.store_merge[0][0]));
    ck_assert_double_eq_tol(q.store_merge[clc_profile_merge_table(true, true)][2], 0.75, 1e-9);
    clc_report_free(&rep);
}
END_TEST

/* Between the classes measured in log scale, the nearest outside them. */
START_TEST(merge_factor_between_classes)
{
    struct clc_profile p = flat_profile();
    for (unsigned t = 0; t < CLC_PROFILE_MERGE_TABLES; t++)
        for (unsigned c = 0; c < CLC_PROFILE_MERGE; c++)
            p.store_merge[t][c] = NAN;
    ck_assert(isnan(clc_profile_merge(&p, 8, false)));
    p.store_merge[0][2] = 0.5; /* 8 lines */
    p.store_merge[0][3] = 1.0; /* 16 */
    ck_assert_double_eq_tol(clc_profile_merge(&p, 8, false), 0.5, 1e-12);
    ck_assert_double_eq_tol(clc_profile_merge(&p, 8 * M_SQRT2, false), 0.75, 1e-12);
    ck_assert_double_eq_tol(clc_profile_merge(&p, 2, false), 0.5, 1e-12);
    ck_assert_double_eq_tol(clc_profile_merge(&p, 32, false), 1.0, 1e-12);
    ck_assert(isnan(clc_profile_merge(&p, 8, true)));
    ck_assert(isnan(clc_profile_merge(&p, 0, false)));
}
END_TEST

START_TEST(split_layer_charges_wide_stores)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    /* a copy of 64-byte lanes: half its useful bytes stored, and a fill of such lanes stores
     * 40 GB/s: 80 GB/s counted, below the DRAM traffic's 100 */
    r.model.features.stored = 0.5;
    r.model.features.store_lane_bytes = 64;
    p.split_gbps[0] = 60;
    p.split_gbps[1] = 40;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 80, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SPLIT);
    /* 32-byte lanes at the 32-byte fill's 60: 120, DRAM binds */
    r.model.features.store_lane_bytes = 32;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    p.split_gbps[0] = 30;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 60, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_SPLIT);
    /* 16-byte lanes leave whole; 128-byte ones at the widest fill measured */
    r.model.features.store_lane_bytes = 16;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    r.model.features.store_lane_bytes = 128;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 80, 1e-6);
    /* a result file from before the feature, or a profile without the fills: no layer */
    r.model.features.store_lane_bytes = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    r.model.features.store_lane_bytes = 64;
    p.split_gbps[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
}
END_TEST

/* The refill layer: the sectors' worth of bytes stored into lines left open add what the
 * profile's store_steps rows cost more per stored sector with lines open as long. */
START_TEST(refill_layer_adds_what_open_lines_cost)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row(); /* 10^8 bytes at 100 GB/s: 1 ms */
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    static const double refill[] = {0, 0, 2, 6, 10}; /* ps a sector, by 1 .. 16 steps */
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        p.refill_ps[0][c] = refill[c];
        p.refill_ps[1][c] = NAN;
    }
    /* 1 / 64 of a sector a useful byte (a copy whose stores all fill lines over steps),
     * open over 28 bytes loaded a lane, a line each: 6 ps each, 10^8 / 64 of them, 9.375 us
     * more */
    f->store_open_sectors = 1.0 / 64;
    f->store_open_bytes = 28;
    f->store_open_lane_bytes = 128;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1e8 / (1e-3 + 1e8 / 64 * 6e-12) * 1e-9, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM); /* 1 % slower: not what binds */
    /* 100 ps a sector (a line open past what the L2 holds): 1 + 0.15625 ms */
    p.refill_ps[0][4] = 100;
    f->store_open_bytes = 60;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / 1.15625, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_REFILL);
    /* what a lane holds of the L2 over a window: the bytes it loads and its share of the
     * lines open.  Half the device's work-items resident: a line each open over 184 bytes
     * loaded cost what the device full costs them over 28 ((184 + 128) / 2 = 28 + 128) */
    const double over_28 = 1e8 / (1e-3 + 1e8 / 64 * 6e-12) * 1e-9;
    f->resident_per_cu = 1024;
    f->store_open_bytes = 184;
    ck_assert_double_eq_tol(predict(&p, &r, &b), over_28, 1e-6);
    f->resident_per_cu = 2048;
    /* lanes two a line (64 bytes each held): over 92 bytes as a line each over 28; over 48
     * (a 64-byte chunk a lane in float4 steps) they fit: nothing added */
    f->store_open_lane_bytes = 64;
    f->store_open_bytes = 92;
    ck_assert_double_eq_tol(predict(&p, &r, &b), over_28, 1e-6);
    f->store_open_bytes = 48;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_open_lane_bytes = NAN; /* a file from before: a line each, as the rows */
    f->store_open_bytes = 28;
    ck_assert_double_eq_tol(predict(&p, &r, &b), over_28, 1e-6);
    /* no lines open, a result file from before they were counted, a profile without the
     * rows of the row's element size: nothing added */
    f->store_open_sectors = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_open_sectors = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_open_sectors = 1.0 / 64;
    r.type = CLC_DOUBLE;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* Lines open that work-groups a row of them later complete (a naive transpose's rows of
 * out) cost what the wide rows cost, in the share of the stores so spread. */
START_TEST(refill_layer_takes_the_wide_rows_for_spread_stores)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row(); /* 10^8 bytes at 100 GB/s: 1 ms */
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    static const double narrow[] = {0, 0, 2, 6, 10}, wide[] = {0, 64, 128, 192, 256};
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        p.refill_ps[0][c] = narrow[c];
        p.refill_wide_ps[0][c] = wide[c];
    }
    f->store_open_sectors = 1.0 / 64; /* lines open over 28 bytes loaded, a line a lane */
    f->store_open_bytes = 28;
    f->store_open_lane_bytes = 128;
    /* none of the stores spread: the narrow rows' 6 ps */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1e8 / (1e-3 + 1e8 / 64 * 6e-12) * 1e-9, 1e-6);
    /* all of them: 192 ps each, 10^8 / 64 of them, 0.3 ms more */
    f->store_spread = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / 1.3, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_REFILL);
    /* half of them: halfway between, 99 ps */
    f->store_spread = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1e8 / (1e-3 + 1e8 / 64 * 99e-12) * 1e-9, 1e-6);
    /* a sample that could not tell (NAN), or a file from before: the narrow rows */
    f->store_spread = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1e8 / (1e-3 + 1e8 / 64 * 6e-12) * 1e-9, 1e-6);
    f->store_spread = 0.5;
    /* a profile from before the wide rows: the narrow ones for all */
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p.refill_wide_ps[0][c] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1e8 / (1e-3 + 1e8 / 64 * 6e-12) * 1e-9, 1e-6);
}
END_TEST

/* Store requests into lines that work-groups a grid row or more later complete cost what the
 * wide rows of one step cost over the narrow one: per stored sector (64 useful bytes) 64 ps,
 * for floats 8 requests of an element each, 8 ps a request; where the refill layer also
 * charges the wide rows, it takes them less that part. */
START_TEST(apart_layer_charges_lines_left_to_later_work_groups)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row(); /* 10^8 bytes at 100 GB/s: 1 ms */
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    static const double wide[] = {640, 1280, 1920, 2560, 3200};
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        p.refill_ps[0][c] = 0;
        p.refill_wide_ps[0][c] = wide[c];
    }
    f->store_lines = 1.0 / 8; /* a line request an element, 8 useful bytes */
    /* every request's lines left: 10^8 / 8 of them at 80 ps, 1 ms more */
    f->store_far = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / 2.0, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_REFILL);
    f->store_far = 0.5;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / 1.5, 1e-6);
    /* none left, a sample that could not tell, a profile without the wide rows: nothing */
    f->store_far = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_far = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    f->store_far = 1;
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p.refill_wide_ps[0][c] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    clc_test_assert_has(layer_why(&p, &r, "apart"), "no store_steps_wide rows measured");
    /* wide rows measured no slower than the narrow ones: nothing, and the why says so */
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p.refill_wide_ps[0][c] = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    clc_test_assert_has(layer_why(&p, &r, "apart"), "100 % of store requests into lines left "
                                                    "to work-groups a row or more on: none more "
                                                    "each here");
    /* a double's rows: 4 requests a stored sector, 160 ps each at 640 ps a sector */
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p.refill_wide_ps[1][c] = wide[c];
    r.type = CLC_DOUBLE;
    f->store_lines = 1.0 / 16;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / 2.0, 1e-6);
    /* lines open over loads too (28 bytes, a line a lane: the wide rows' 8 steps, 2560 ps a
     * sector) and spread: the refill layer charges 2560 - 640 of it, this layer the 640 */
    r.type = CLC_FLOAT;
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        p.refill_wide_ps[0][c] = wide[c];
    f->store_lines = 1.0 / 8;
    f->store_open_sectors = 1.0 / 64;
    f->store_open_bytes = 28;
    f->store_open_lane_bytes = 128;
    f->store_spread = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 1e8 / (1e-3 + 1e8 / 64 * 2560e-12) * 1e-9, 1e-6);
}
END_TEST

/* End to end, the apart layer's figure: a copy whose work-item i takes element j = (i mod
 * 4096) x (n / 4096) + i / 4096 (16 MiB of floats) fills each line of out with the elements of
 * work-items 4096 apart, 127 K work-items from its first to its last, past any wide sample
 * (64 K work-items at most, consecutive work-groups in a launch of one row): every store
 * request's lines are left, 1; the plain copy, j = i, fills its lines within a warp: 0.  On a
 * profile whose wide row of one step costs 640 ps a stored sector more than the narrow one,
 * each of the far copy's store requests costs 80 ps more. */
START_TEST(apart_layer_end_to_end)
{
    static char out[1 << 14], err[1 << 14];
    char dir[64], cmd[1024];
    clc_test_make_dir(dir, "apart");
    const char *kernel = clc_test_path(dir, "far.cl"), *json = clc_test_path(dir, "r.json");
    const char *manifest = clc_test_path(dir, "kernels.tsv");
    clc_test_write_file(manifest, "file\tkernel\tpattern\tlocal\titems\tfamily\tsplit\n"
                                  "far.cl\tfar_lines\tcopy\t256\t1\tfar\tdev\n"
                                  "far.cl\tnear_lines\tcopy\t256\t1\tnear\tdev\n");
    clc_test_write_file(
        kernel, "#include \"clc.h\"\n"
                "__kernel void far_lines(__global const T *in, __global T *out, ulong n "
                "CLC_TRACE_ARGS)\n"
                "{\n"
                "    CLC_TRACE_BEGIN\n"
                "    size_t i = get_global_id(0), k = 4096;\n"
                "    size_t j = n % k == 0 ? (i % k) * (n / k) + i / k : i;\n"
                "    if (i < n)\n"
                "        STORE(out, j, LOAD(in, j));\n"
                "}\n"
                "__kernel void near_lines(__global const T *in, __global T *out, ulong n "
                "CLC_TRACE_ARGS)\n"
                "{\n"
                "    CLC_TRACE_BEGIN\n"
                "    size_t i = get_global_id(0);\n"
                "    if (i < n)\n"
                "        STORE(out, i, LOAD(in, i));\n"
                "}\n");
    static const struct {
        const char *kernel;
        double far;
    } copies[] = {{"far_lines", 1}, {"near_lines", 0}};
    snprintf(cmd, sizeof cmd, "validate --manifest %s --size 16MiB -r 1 -f json -o %s",
             manifest, json);
    clc_test_expect(cmd, 0, NULL, out, sizeof out, err, sizeof err);
    /* validate's file: its rows under "results", as a result file's */
    json_t *root = json_load_file(json, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *rows = json_pack("{s:O}", "results", json_object_get(root, "results"));
    char *text = json_dumps(rows, 0);
    struct clc_report rep;
    ck_assert_int_eq(clc_read_json_text(text, strlen(text), json, &rep), CLC_OK);
    free(text);
    json_decref(rows);
    json_decref(root);
    for (size_t c = 0; c < 2; c++) {
        const struct clc_result *r = clc_test_get(&rep, copies[c].kernel, -1, CLC_FLOAT);
        ck_assert_double_eq_tol(r->model.features.store_far, copies[c].far, 1e-9);
        if (c == 0) {
            struct clc_profile p = flat_profile();
            for (unsigned k = 0; k < CLC_PROFILE_STEPS; k++)
                p.refill_wide_ps[0][k] = 640 * (k + 1);
            struct clc_result far = *r, near = *r; /* as if their data were DRAM's */
            far.cache_resident = near.cache_resident = false;
            near.model.features.store_far = 0;
            enum clc_bound b;
            double ps_a_byte = 1e3 / predict(&p, &far, &b) - 1e3 / predict(&p, &near, &b);
            ck_assert_double_eq_tol(ps_a_byte, r->model.features.store_lines * 80, 1e-6);
        }
    }
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(launch_layer_adds_a_fixed_cost)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row();
    enum clc_bound b;
    p.launch_us = 1000; /* 1 ms per launch on a 1 ms transfer: half the bandwidth */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LAUNCH);
}
END_TEST

/* The compute layer: the row's flops at the profile's FMA rate for its type bind when they
 * take longer than the memory traffic, and change nothing when they do not. */
START_TEST(compute_layer_binds_on_arithmetic)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row(); /* 10^8 bytes at 100 GB/s: 1 ms */
    enum clc_bound b;
    struct clc_prediction pr;
    p.fma_per_s[0] = 1e12; /* 2000 GFLOP/s in float */
    p.fma_per_s[1] = 1e11; /* 200 in double */
    r.flops = 1e8;         /* 1 flop a byte: 0.05 ms, under the memory's 1 ms */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    r.flops = 4e9; /* 40 flops a byte: 2 ms, half the bandwidth */
    ck_assert_double_eq_tol(predict(&p, &r, &b), 50, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_COMPUTE);
    ck_assert_str_eq(clc_bound_name(b), "compute");
    ck_assert(*clc_bound_remedy(b) != '\0');
    /* the same flops in double, at a tenth of the rate: 20 ms */
    r.type = CLC_DOUBLE;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 5, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_COMPUTE);
    /* a profile without the rate (older than the fma case): the layer is left out, said */
    p.fma_per_s[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    ck_assert(clc_predict(&p, &r, &pr));
    bool said = false;
    for (size_t i = 0; i < pr.n_layers; i++)
        if (strcmp(pr.layer[i].name, "compute") == 0) {
            ck_assert_double_eq(pr.layer[i].factor, 1.0);
            clc_test_assert_has(pr.layer[i].why, "no fp64 FMA rate");
            said = true;
        }
    ck_assert(said);
    /* no flops counted: left out too */
    r.type = CLC_FLOAT;
    r.flops = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
}
END_TEST

/* The work layer: a row's units past a plain copy's and its divisions, at the profile's
 * costs, blended with the memory's time as the profile's b says for its loads in flight. */
static const char *work_why(const struct clc_profile *p, const struct clc_result *r)
{
    return layer_why(p, r, "work");
}

START_TEST(work_layer_blends_work_with_memory)
{
    struct clc_profile p = flat_profile();
    struct clc_result r = streaming_row(); /* 10^8 bytes at 100 GB/s: 1 ms; 4 loads */
    struct clc_model_features *f = &r.model.features;
    enum clc_bound b;
    p.work_unit_ps = 0.04;
    p.work_div_ps[0] = 0.25;
    p.work_div_ps[1] = 2.0;
    p.work_blend[0] = 2;
    p.work_blend[1] = 4;
    f->groups = 12500000 / 256.0; /* a work-item a float copied: 8 useful bytes */
    f->group_items = 256;
    /* a plain copy's units: nothing the ceilings do not pay for already */
    f->work_units = CLC_WORK_BASE_UNITS;
    f->work_div32 = f->work_div64 = 0;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_DRAM);
    /* 250 units a byte more: 10 ps a byte, 1 ms of work beside 1 ms of memory; four loads
     * in flight: b = 4, (1 + 1)^(1/4) ms */
    f->work_units = CLC_WORK_BASE_UNITS + 8 * 250;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / pow(2, 0.25), 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_WORK);
    ck_assert_str_eq(clc_bound_name(b), "work");
    ck_assert(*clc_bound_remedy(b) != '\0');
    /* one load in flight as compiled: b = 2; two: halfway in log scale, b = 3 */
    f->compiled_loads = 1;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / sqrt(2), 1e-6);
    f->compiled_loads = 2;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / cbrt(2), 1e-6);
    /* a profile of one b: that one */
    p.work_blend[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / sqrt(2), 1e-6);
    /* 40 divisions in 64 bits a work-item, no more units: 10 ps a byte again */
    f->work_units = CLC_WORK_BASE_UNITS;
    f->work_div64 = 40;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100 / sqrt(2), 1e-6);
    clc_test_assert_has(work_why(&p, &r), "40 divisions");
    /* a division the profile has no cost for adds none */
    p.work_div_ps[1] = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    /* no PTX (a CPU), or a profile from before the indexmath rows: left out, said */
    f->work_units = NAN;
    clc_test_assert_has(work_why(&p, &r), "no PTX");
    f->work_units = CLC_WORK_BASE_UNITS + 8 * 250;
    p.work_unit_ps = NAN;
    ck_assert_double_eq_tol(predict(&p, &r, &b), 100, 1e-6);
    clc_test_assert_has(work_why(&p, &r), "no integer work figures");
}
END_TEST

START_TEST(no_prediction_without_grounds)
{
    struct clc_profile p = flat_profile();
    struct clc_prediction pr;
    struct clc_result r = streaming_row();
    r.model.features.valid = false;
    ck_assert(!clc_predict(&p, &r, &pr));
    clc_test_assert_has(pr.note, "no trace");
    r = streaming_row();
    r.metric = CLC_METRIC_NS_PER_ACCESS;
    ck_assert(!clc_predict(&p, &r, &pr));
    r = streaming_row();
    r.cache_resident = true; /* cache bandwidth against DRAM ceilings */
    ck_assert(!clc_predict(&p, &r, &pr));
    p.in_cache = true;
    ck_assert(clc_predict(&p, &r, &pr));
    p.copy_gbps = NAN;
    ck_assert(!clc_predict(&p, &r, &pr));
    ck_assert(!clc_predict_row(&p, &r, NULL));
    ck_assert(isnan(r.model.gbps));
    ck_assert_str_eq(r.model.bound, "");
}
END_TEST

/* ------------------------------------------------------------------ profiles from rows */

/* A report with the rows of the profile's cases on a device of 2 compute units of 2048
 * work-items: stream read 100, write 120, copy 90; inflight rows of 1, 4 and 16 KiB per CU
 * at 10, 50 and 100 GB/s (floats) plus one below the envelope (float4s); banks stride s at
 * 1000 / s GB/s (one request costs its passes alone); stride rows timed as a device of
 * 64-byte granules whose granules 2 apart move at 70 % and 4 apart at 50 %; scatter rows of
 * 2 and 4 G stored lines a second, 5 G loaded. */
/* A row of a case to add: variant, param, type, GB/s. */
struct row_spec {
    const char *variant;
    long param;
    enum clc_type type;
    double gbps;
};

static void add_rows(struct clc_report *rep, const char *case_name, const struct row_spec *rows,
                     size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct clc_result r =
            clc_test_row(case_name, rows[i].variant, rows[i].param, rows[i].type, rows[i].gbps);
        clc_report_add(rep, &r);
    }
}

static void profile_rows(struct clc_report *rep)
{
    clc_report_init(rep, "opencl");
    snprintf(rep->device.name, sizeof rep->device.name, "Test GPU");
    rep->device.peak_gbps = 125;
    rep->device.compute_units = 2;
    rep->device.threads_per_cu = 2048;
    static const char *const streams[] = {"read", "write", "copy", "triad"};
    static const double sg[] = {100, 120, 90, 95};
    for (int i = 0; i < 4; i++) {
        struct clc_result r = clc_test_row("stream", streams[i], -1, CLC_FLOAT, sg[i]);
        clc_report_add(rep, &r);
    }
    /* 256 work-items per CU keeping K loads of a float (1, 4, 16) or a float4 (4) */
    static const long ks[] = {1, 4, 16, 4};
    static const double gs[] = {10, 50, 100, 60};
    for (int i = 0; i < 4; i++) {
        struct clc_result r = clc_test_row("inflight", i < 3 ? "scalar_g1" : "float4_g1", ks[i],
                                           CLC_FLOAT, gs[i]);
        r.in_flight = 256.0 * ks[i] * (i < 3 ? 4 : 16);
        clc_report_add(rep, &r);
    }
    for (long s = 1; s <= 32; s *= 2) {
        struct clc_result r = clc_test_row("banks", "stride", s, CLC_FLOAT, 1000.0 / s);
        clc_report_add(rep, &r);
    }
    /* stride s elements of es bytes: 2 x min(s es, 64) DRAM bytes per element at the copy
     * ceiling, over the gap's efficiency */
    for (unsigned es = 4; es <= 8; es *= 2)
        for (long s = 8; s <= 32; s *= 2) {
            double sb = (double)s * es, bytes = 2 * fmin(sb, 64);
            double eff = sb <= 64 ? 1.0 : sb == 128 ? 0.7 : 0.5;
            double per_elem = bytes / (90e9 * eff);          /* seconds */
            struct clc_result r = clc_test_row("stride", "inplace", s,
                                               es == 4 ? CLC_FLOAT : CLC_DOUBLE, 1);
            r.bytes = 2 * es * 1000000;                       /* 10^6 elements */
            r.ms_median = per_elem * 1e6 * 1e3;
            r.value = r.gbps = (double)r.bytes / (r.ms_median * 1e6);
            clc_report_add(rep, &r);
        }
    /* strided loads, coalesced stores: min(sb, 64) read at the loads' efficiency (1, 0.9
     * and 0.8 at 64, 128 and 256 bytes) and an element stored, streamed */
    for (unsigned es = 4; es <= 8; es *= 2)
        for (long s = 8; s <= 32; s *= 2) {
            double sb = (double)s * es, m = fmin(sb, 64);
            double eff = sb <= 64 ? 1.0 : sb == 128 ? 0.9 : 0.8;
            struct clc_result r = clc_test_row("stride", "load", s,
                                               es == 4 ? CLC_FLOAT : CLC_DOUBLE, 1);
            r.bytes = 2 * es * 1000000;
            r.ms_median = (m / eff + es) / 90e9 * 1e6 * 1e3;
            r.value = r.gbps = (double)r.bytes / (r.ms_median * 1e6);
            clc_report_add(rep, &r);
        }
    /* the copies of one element per work-item: a float at 80 % of the copy ceiling, a
     * double at 95 % */
    for (int i = 0; i < 2; i++) {
        struct clc_result r = clc_test_row("stride", "inplace", 1, i ? CLC_DOUBLE : CLC_FLOAT,
                                           i ? 85.5 : 72);
        clc_report_add(rep, &r);
    }
    /* one line per lane: stores at 2 and 4 G lines/s (a float's and a double's rows, 8 and
     * 32 GB/s), loads at 5 G lines/s (each element read and written: 40 GB/s of floats),
     * loads in teams of one warp at 4.5 and 2 G lines/s (36 and 32 GB/s) */
    static const double store_gbps[] = {8, 32}, load_gbps[] = {40, 80}, missed_gbps[] = {36, 32};
    for (int i = 0; i < 2; i++) {
        enum clc_type t = i ? CLC_DOUBLE : CLC_FLOAT;
        struct clc_result st = clc_test_row("scatter", "store", -1, t, store_gbps[i]);
        struct clc_result ld = clc_test_row("scatter", "load", -1, t, load_gbps[i]);
        struct clc_result missed = clc_test_row("scatter", "load_shared", 1, t, missed_gbps[i]);
        clc_report_add(rep, &st);
        clc_report_add(rep, &ld);
        clc_report_add(rep, &missed);
    }
    /* loads at random: a 64-byte granule at 60 % of the copy ceiling and an element stored
     * per element, (64 / 0.6 + es) / 90 GB/s each */
    for (unsigned es = 4; es <= 8; es *= 2) {
        struct clc_result r = clc_test_row("scatter", "random", -1,
                                           es == 4 ? CLC_FLOAT : CLC_DOUBLE, 1);
        r.bytes = 2 * es * 1000000;
        r.ms_median = (64 / 0.6 + es) / 90e9 * 1e6 * 1e3;
        r.value = r.gbps = (double)r.bytes / (r.ms_median * 1e6);
        clc_report_add(rep, &r);
    }
    /* the latency sweep: 20 ns up to 128 KiB (L1), 100 at 256 KiB, 150 past */
    for (long set = 16; set <= 1024; set *= 2) {
        struct clc_result r = clc_test_row("latency", "chase", set, CLC_FLOAT, 0);
        r.metric = CLC_METRIC_NS_PER_ACCESS;
        r.value = set <= 128 ? 20 + set / 64.0 : set == 256 ? 100 : 150;
        clc_report_add(rep, &r);
    }
    /* lines filled over 1 .. 16 steps: floats at 64, 64, 32, 16 and 16 GB/s (64 useful
     * bytes a stored sector: 1, 1, 2, 4, 4 ns), doubles at 128 for one step, none for more */
    static const double steps_gbps[] = {64, 64, 32, 16, 16};
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        struct clc_result r = clc_test_row("scatter", "store_steps", 1L << c, CLC_FLOAT,
                                           steps_gbps[c]);
        clc_report_add(rep, &r);
    }
    struct clc_result steps_fp64 = clc_test_row("scatter", "store_steps", 1, CLC_DOUBLE, 128);
    clc_report_add(rep, &steps_fp64);
    /* the same over the whole buffer (wide): floats at 64, 32, 16, 16, 8 GB/s */
    static const double wide_gbps[] = {64, 32, 16, 16, 8};
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        struct clc_result r = clc_test_row("scatter", "store_steps_wide", 1L << c, CLC_FLOAT,
                                           wide_gbps[c]);
        clc_report_add(rep, &r);
    }
    /* tiles copied in place and stored at the transposed tile's place: the copy 0.75 as fast
     * in float (its stores at 1 / (2 / 0.75 - 1) = 0.6), as fast in double (1); loaded from
     * there, 0.8 as fast in float (its loads at 1 / (2 / 0.8 - 1) = 2 / 3) and in double (the
     * same) */
    struct clc_result tiles[6] = {
        clc_test_row("scatter", "tiles", -1, CLC_FLOAT, 80),
        clc_test_row("scatter", "tile_blocks", -1, CLC_FLOAT, 60),
        clc_test_row("scatter", "tiles", -1, CLC_DOUBLE, 90),
        clc_test_row("scatter", "tile_blocks", -1, CLC_DOUBLE, 90),
        clc_test_row("scatter", "tile_loads", -1, CLC_FLOAT, 64),
        clc_test_row("scatter", "tile_loads", -1, CLC_DOUBLE, 72),
    };
    for (int i = 0; i < 6; i++)
        clc_report_add(rep, &tiles[i]);
    /* stores in pieces a pitch apart (the stores case): float's pieces of 2 elements 16 apart
     * (8 lines, 16 sectors in part a request) at 16 GB/s (8000 ps a request of 128 bytes),
     * of one element 64 and 128 apart (32 and 32) at 4 and 2 (the median, 48000 ps), of 8
     * (whole sectors: none of them); double's of one 4 apart (8 and 32) at 64 */
    static const struct row_spec pieces[] = {{"lanes2", 16, CLC_FLOAT, 16},
                                             {"lanes1", 64, CLC_FLOAT, 4},
                                             {"lanes1", 128, CLC_FLOAT, 2},
                                             {"lanes8", 16, CLC_FLOAT, 100},
                                             {"lanes1", 4, CLC_DOUBLE, 64}};
    add_rows(rep, "stores", pieces, sizeof pieces / sizeof pieces[0]);
    /* stores alone with 32- and 64-byte lanes: 60 and 6 GB/s */
    struct clc_result f8 = clc_test_row("vector", "fill_float8", 8, CLC_FLOAT, 60);
    struct clc_result f16 = clc_test_row("vector", "fill_float16", 16, CLC_FLOAT, 6);
    clc_report_add(rep, &f8);
    clc_report_add(rep, &f16);
}

START_TEST(profile_figures_from_rows)
{
    struct clc_report rep;
    struct clc_profile p;
    profile_rows(&rep);
    ck_assert_int_gt(clc_profile_from_report(&rep, "test", &p), 5);
    ck_assert_double_eq_tol(p.read_gbps, 100, 1e-9);
    ck_assert_double_eq_tol(p.copy_gbps, 90, 1e-9);
    ck_assert_uint_eq(p.n_curve, 3); /* the row below the envelope left out */
    ck_assert_double_eq_tol(clc_profile_inflight_gbps(&p, 16384), 100, 1e-9);
    ck_assert_double_eq_tol(clc_profile_inflight_gbps(&p, 2048), 30, 1e-9); /* log midpoint */
    ck_assert_double_eq_tol(clc_profile_inflight_gbps(&p, 512), 5, 1e-9);   /* Little's law */
    ck_assert_int_eq(p.banks, 32);
    ck_assert_double_eq_tol(p.local_pass_ps, 128.0, 1e-6);
    ck_assert_double_eq_tol(p.local_request_ps, 0, 1e-6);
    ck_assert_uint_eq(p.granule, 64);
    /* the latency sweep's L1: 128 KiB still at its latency, 256 KiB past it */
    ck_assert_double_eq_tol(p.l1_bytes, 128 << 10, 1e-9);
    /* gaps 1, 2, 4 measured; 1.5 and 3 between them in log scale; 8, farther than measured,
     * as 4 */
    ck_assert_double_eq_tol(p.random_eff, 0.6, 1e-9);
    ck_assert_double_eq_tol(p.bunched_eff, (0.6 + 1) / 2, 1e-9); /* the mean of both types */
    ck_assert_double_eq_tol(p.bunched_load_eff, 2.0 / 3, 1e-9);
    /* the loads apart: 0.9 and 0.8 two and four granules apart; the stores, what the
     * inplace rows leave: 1 / (2 / 0.7 - 1 / 0.9) and 1 / (2 / 0.5 - 1 / 0.8) */
    ck_assert_double_eq_tol(p.gap_eff_dir[0][0], 1.0, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff_dir[0][2], 0.9, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff_dir[0][4], 0.8, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff_dir[1][0], 1.0, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff_dir[1][2], 1 / (2 / 0.7 - 1 / 0.9), 1e-9);
    ck_assert_double_eq_tol(p.gap_eff_dir[1][4], 1 / (2 / 0.5 - 1 / 0.8), 1e-9);
    ck_assert_double_eq_tol(p.gap_eff[0], 1.0, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff[1], 1.0 - log2(1.5) * 0.3, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff[2], 0.7, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff[3], 0.7 - (log2(3) - 1) * 0.2, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff[4], 0.5, 1e-9);
    ck_assert_double_eq_tol(p.gap_eff[5], 0.5, 1e-9);
    ck_assert_int_eq(p.threads_per_cu, 2048);
    /* the stride case's stride 1 stands for groups of 256 where the groups case did not run */
    ck_assert_double_eq_tol(p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP], 0.8, 1e-9);
    ck_assert_double_eq_tol(p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP], 0.95, 1e-9);
    ck_assert(isnan(p.one_pass[0][0]));
    /* the faster of a float's and a double's rows: the other is slowed by something else */
    ck_assert_double_eq_tol(p.store_lines_per_s, 4e9, 1e-3);
    ck_assert_double_eq_tol(p.load_lines_per_s, 5e9, 1e-3);
    ck_assert_double_eq_tol(p.missed_lines_per_s, 4.5e9, 1e-3);
    ck_assert_double_eq_tol(p.split_gbps[0], 60, 1e-9);
    ck_assert_double_eq_tol(clc_profile_split_gbps(&p, 64), 6, 1e-9);
    ck_assert(isnan(clc_profile_split_gbps(&p, 16)));
    /* a stored sector 0, 0, 1000, 3000 and 3000 ps more than in one step; the windows of
     * floats 0, 4, 12, 28 and 60 bytes: 2000 ps halfway from 12 to 28, the last beyond */
    static const double refill[] = {0, 0, 1000, 3000, 3000};
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        ck_assert_double_eq_tol(p.refill_ps[0][c], refill[c], 1e-6);
    /* the stores rows by lines and sectors in part: (8, 16), (32, 32) in float, (8, 32) in
     * double, nothing else (whole sectors none) */
    ck_assert_double_eq_tol(p.shared_ps[0][2][1], 8000, 1e-6);
    ck_assert_double_eq_tol(p.shared_ps[0][4][2], 48000, 1e-6);
    ck_assert_double_eq_tol(p.shared_ps[1][2][2], 4000, 1e-6);
    ck_assert(isnan(p.shared_ps[0][0][0]) && isnan(p.shared_ps[0][2][2]));
    ck_assert_double_eq_tol(p.refill_ps[1][0], 0, 1e-9);
    ck_assert(isnan(p.refill_ps[1][1]));
    ck_assert_double_eq_tol(clc_profile_refill_ps(&p, 4, 20, false), 2000, 1e-6);
    ck_assert_double_eq_tol(clc_profile_refill_ps(&p, 4, 1000, false), 3000, 1e-6);
    ck_assert_double_eq_tol(clc_profile_refill_ps(&p, 4, 2, false), 0, 1e-9);
    ck_assert_double_eq_tol(clc_profile_refill_ps(&p, 8, 1000, false), 0, 1e-9); /* one step only */
    /* the wide rows against the narrow row of one step: 0, 1000, 3000, 3000, 7000 ps; a
     * double has none wide, and takes its narrow rows */
    static const double refill_wide[] = {0, 1000, 3000, 3000, 7000};
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++)
        ck_assert_double_eq_tol(p.refill_wide_ps[0][c], refill_wide[c], 1e-6);
    ck_assert_double_eq_tol(clc_profile_refill_ps(&p, 4, 8, true), 2000, 1e-6);
    ck_assert_double_eq_tol(clc_profile_refill_ps(&p, 8, 1000, true), 0, 1e-9);

    /* the JSON a run keeps gives the same figures back */
    json_t *j = clc_profile_to_json(&p);
    struct clc_profile q;
    ck_assert_int_eq(clc_profile_from_json(j, &q), CLC_OK);
    json_decref(j);
    ck_assert_double_eq_tol(q.copy_gbps, p.copy_gbps, 1e-9);
    ck_assert_double_eq_tol(q.l1_bytes, p.l1_bytes, 1e-9);
    ck_assert_uint_eq(q.n_curve, p.n_curve);
    ck_assert_uint_eq(q.granule, p.granule);
    ck_assert_double_eq_tol(q.gap_eff[1], p.gap_eff[1], 1e-9);
    ck_assert_double_eq_tol(q.bunched_eff, p.bunched_eff, 1e-9);
    ck_assert_double_eq_tol(q.bunched_load_eff, p.bunched_load_eff, 1e-9);
    ck_assert_double_eq_tol(q.local_pass_ps, p.local_pass_ps, 1e-9);
    ck_assert_int_eq(q.threads_per_cu, p.threads_per_cu);
    ck_assert_double_eq_tol(q.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP], p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP], 1e-9);
    ck_assert_double_eq_tol(q.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP], p.one_pass[1][CLC_PROFILE_ONE_PASS_GROUP], 1e-9);
    ck_assert(isnan(q.one_pass[0][0]));
    ck_assert_double_eq_tol(q.store_lines_per_s, p.store_lines_per_s, 1e-3);
    ck_assert_double_eq_tol(q.load_lines_per_s, p.load_lines_per_s, 1e-3);
    ck_assert_double_eq_tol(q.missed_lines_per_s, p.missed_lines_per_s, 1e-3);
    ck_assert_double_eq_tol(q.split_gbps[0], p.split_gbps[0], 1e-9);
    ck_assert_double_eq_tol(q.split_gbps[1], p.split_gbps[1], 1e-9);
    for (unsigned c = 0; c < CLC_PROFILE_STEPS; c++) {
        ck_assert_double_eq_tol(q.refill_ps[0][c], p.refill_ps[0][c], 1e-6);
        ck_assert_double_eq_tol(q.refill_wide_ps[0][c], p.refill_wide_ps[0][c], 1e-6);
    }
    ck_assert(isnan(q.refill_ps[1][1]));
    ck_assert(isnan(q.refill_wide_ps[1][0]));
    clc_report_free(&rep);

    /* a device of 32-byte granules: stride 64 bytes reads no more per element than 32 */
    clc_report_init(&rep, "opencl");
    for (unsigned s = 8; s <= 16; s *= 2) {
        struct clc_result r = clc_test_row("stride", "inplace", s, CLC_FLOAT, 1);
        r.ms_median = 1.0;
        clc_report_add(&rep, &r);
    }
    struct clc_result c = clc_test_row("stream", "copy", -1, CLC_FLOAT, 90);
    clc_report_add(&rep, &c);
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_uint_eq(p.granule, 32);
    clc_report_free(&rep);
}
END_TEST

/* Writes the profile rows (and the device, and launch_us when finite) as a profile file. */
static void write_profile(const char *path, void (*edit)(struct clc_report *), double launch_us)
{
    struct clc_report rep;
    profile_rows(&rep);
    if (edit != NULL)
        edit(&rep);
    json_t *rows = json_array();
    for (size_t i = 0; i < rep.n_results; i++)
        json_array_append_new(rows, clc_result_json(&rep.results[i]));
    json_t *root = json_pack("{s:s, s:{s:s, s:s, s:f, s:i, s:i, s:i}, s:o}", "tool",
                             "clcoalesce", "device", "name", rep.device.name, "api", "opencl",
                             "peak_gbps", 125.0, "compute_units", 2, "threads_per_cu", 2048,
                             "groups_per_cu", 32, "rows", rows);
    if (isfinite(launch_us))
        json_object_set_new(root, "launch_us", json_real(launch_us));
    ck_assert_int_eq(json_dump_file(root, path, 0), 0);
    json_decref(root);
    clc_report_free(&rep);
}

/* The groups case's rows give the copies by group size (over the stride case's stride 1);
 * a profile file from before group sizes gives its copies as groups of 256. */
START_TEST(one_pass_rows_by_group_size)
{
    const enum clc_one_pass_form straight = CLC_ONE_PASS_STRAIGHT, staged = CLC_ONE_PASS_STAGED;
    struct clc_report rep;
    struct clc_profile p;
    profile_rows(&rep);
    /* floats in groups of 256 at 70 % of the copy ceiling (90), of 1024 at 50 %; doubles
     * in groups of 256 at 90 %; floats in groups of 32 and 64 both start 78.125 M groups
     * per s (2.5 G elements of 8 bytes counted, 5 G): the device's rate, not a copy's */
    static const struct {
        long group;
        enum clc_type type;
        double gbps;
    } rows[] = {{256, CLC_FLOAT, 63}, {1024, CLC_FLOAT, 45}, {256, CLC_DOUBLE, 81},
                {32, CLC_FLOAT, 20},  {64, CLC_FLOAT, 40}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct clc_result r = clc_test_row("groups", "inplace", rows[i].group, rows[i].type,
                                           rows[i].gbps);
        clc_report_add(&rep, &r);
    }
    /* staged through __local: floats in groups of 256 at 50 %, doubles at 60 % */
    struct clc_result st4 = clc_test_row("groups", "staged", 256, CLC_FLOAT, 45);
    struct clc_result st8 = clc_test_row("groups", "staged", 256, CLC_DOUBLE, 54);
    clc_report_add(&rep, &st4);
    clc_report_add(&rep, &st8);
    /* and with 4 elements a work-item: floats in groups of 256 at 80 %, doubles at 90 %
     * (a groups of 32 row starting 20 M groups a second, a quarter of its 80 M work-items',
     * is a copy's, not the device's rate) */
    struct clc_result st16 = clc_test_row("groups", "staged4", 256, CLC_FLOAT, 72);
    struct clc_result st32 = clc_test_row("groups", "staged4", 256, CLC_DOUBLE, 81);
    struct clc_result st_small = clc_test_row("groups", "staged4", 32, CLC_FLOAT, 20.48);
    clc_report_add(&rep, &st16);
    clc_report_add(&rep, &st32);
    clc_report_add(&rep, &st_small);
    /* the gridstride case's grid-stride rows: the fastest, 72, is the long-lived copy (80 %) */
    struct clc_result gs[] = {clc_test_row("gridstride", "gridstride", 1024, CLC_FLOAT, 72),
                              clc_test_row("gridstride", "gridstride", 132, CLC_FLOAT, 20),
                              clc_test_row("gridstride", "monolithic", -1, CLC_FLOAT, 81)};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++)
        clc_report_add(&rep, &gs[i]);
    /* the held tile transpose: floats at 0.6 of the same tile loaded together (the fastest
     * rows of each whose build waits for each load: the 80 issued its 4 loads together), no
     * double held */
    struct clc_result held[] = {clc_test_row("transpose", "tiled_held", 4096, CLC_FLOAT, 54),
                                clc_test_row("transpose", "tiled_held", 2048, CLC_FLOAT, 27),
                                clc_test_row("transpose", "tiled_held", 1024, CLC_FLOAT, 80),
                                clc_test_row("transpose", "tiled_padded", 4096, CLC_FLOAT, 90),
                                clc_test_row("transpose", "tiled_held", 4096, CLC_DOUBLE, 70),
                                clc_test_row("transpose", "tiled_padded", 4096, CLC_DOUBLE, 81)};
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++) {
        held[i].model.features.loads_in_flight = 4;
        held[i].model.features.compiled_loads = held[i].value == 80 || held[i].value == 70 ? 4 : 1;
        clc_report_add(&rep, &held[i]);
    }
    clc_profile_from_report(&rep, "test", &p);
    clc_report_free(&rep);
    ck_assert_double_eq_tol(p.held_tile[0], 0.6, 1e-9);
    ck_assert(isnan(p.held_tile[1]));
    ck_assert_double_eq_tol(p.one_pass_staged4[0][CLC_PROFILE_ONE_PASS_GROUP], 0.8, 1e-9);
    ck_assert_double_eq_tol(p.one_pass_staged4[1][CLC_PROFILE_ONE_PASS_GROUP], 0.9, 1e-9);
    ck_assert_double_eq_tol(p.one_pass_staged4[0][0], 20.48 / 90, 1e-9);
    ck_assert_double_eq_tol(p.groups_per_s, 78.125e6, 1);
    ck_assert_double_eq_tol(p.long_copy, 0.8, 1e-9);
    ck_assert(isnan(p.one_pass[0][0]) && isnan(p.one_pass[0][1]));
    ck_assert_double_eq_tol(p.one_pass[0][CLC_PROFILE_ONE_PASS_GROUP], 0.7, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&p, 4, 1024, straight), 0.5, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&p, 4, 512, straight), 0.6, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&p, 4, 4096, straight), 0.5, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&p, 8, 1024, straight), 0.9, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&p, 4, 1024, staged), 0.5, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&p, 8, 256, staged), 0.6, 1e-9);

    json_t *j = clc_profile_to_json(&p);
    struct clc_profile q;
    ck_assert_int_eq(clc_profile_from_json(j, &q), CLC_OK);
    ck_assert_double_eq_tol(clc_profile_one_pass(&q, 4, 512, straight), 0.6, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&q, 6, 256, staged), 0.5 + 0.1 * log2(1.5), 1e-9);
    ck_assert_double_eq_tol(q.one_pass_staged[0][CLC_PROFILE_ONE_PASS_GROUP], 0.5, 1e-9);
    ck_assert(isnan(q.one_pass_staged[0][0]));
    ck_assert_double_eq_tol(clc_profile_one_pass(&q, 4, 256, CLC_ONE_PASS_STAGED4), 0.8, 1e-9);
    ck_assert_double_eq_tol(q.one_pass_staged4[0][0], 20.48 / 90, 1e-9);
    ck_assert(isnan(q.one_pass_staged4[0][1]));
    ck_assert_double_eq_tol(q.groups_per_s, p.groups_per_s, 1);
    ck_assert_double_eq_tol(q.long_copy, 0.8, 1e-9);
    ck_assert_double_eq_tol(q.held_tile[0], 0.6, 1e-9);
    ck_assert(isnan(q.held_tile[1]));
    /* the older form: one point per lane size, no group size; a size not measured is none */
    json_t *old = json_pack("[{s:i, s:f}, {s:i, s:f}, {s:i, s:i, s:f}]", "lane_bytes", 4,
                            "of_copy", 0.8, "lane_bytes", 8, "of_copy", 0.95, "lane_bytes", 4,
                            "group_items", 300, "of_copy", 0.1);
    json_object_set_new(json_object_get(j, "inflight"), "one_pass", old);
    ck_assert_int_eq(clc_profile_from_json(j, &q), CLC_OK);
    json_decref(j);
    ck_assert_double_eq_tol(clc_profile_one_pass(&q, 4, 1024, straight), 0.8, 1e-9);
    ck_assert_double_eq_tol(clc_profile_one_pass(&q, 8, 256, straight), 0.95, 1e-9);
}
END_TEST

/* The FMA rates from the fma case's rows (flops over the median time, two flops an FMA),
 * through the profile's JSON and back; a profile without them reads, with none. */
START_TEST(compute_rate_from_rows_and_back)
{
    struct clc_report rep;
    profile_rows(&rep);
    struct clc_profile p;
    clc_profile_from_report(&rep, "test", &p);
    ck_assert(isnan(p.fma_per_s[0]) && isnan(p.fma_per_s[1]));
    static const double ms[] = {2, 8}; /* 4e9 flops: 1e12 and 2.5e11 FMAs a second */
    for (int i = 0; i < 2; i++) {
        struct clc_result r = clc_test_row("fma", "chains", -1, i ? CLC_DOUBLE : CLC_FLOAT, 1);
        r.flops = 4e9;
        r.ms_median = ms[i];
        clc_report_add(&rep, &r);
    }
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_double_eq_tol(p.fma_per_s[0], 1e12, 1);
    ck_assert_double_eq_tol(p.fma_per_s[1], 2.5e11, 1);
    json_t *o = clc_profile_to_json(&p);
    struct clc_profile back;
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert_double_eq_tol(back.fma_per_s[0], 1e12, 1);
    ck_assert_double_eq_tol(back.fma_per_s[1], 2.5e11, 1);
    json_object_del(o, "compute"); /* a profile from before the fma case */
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert(isnan(back.fma_per_s[0]) && isnan(back.fma_per_s[1]));
    json_decref(o);
    clc_report_free(&rep);
}
END_TEST

/* The indexmath rows of a device whose unit costs 0.04 ps, a 32-bit division 0.25 ps and a
 * 64-bit one 2 ps, whose copy takes 3 ps an element, and where work and memory add up with
 * b = 2 at one load a work-item and 3 at four. */
static void add_indexmath(struct clc_report *rep, const char *variant, double round_ps, double b)
{
    bool costly = strncmp(variant, "div", 3) == 0;
    static const long cheap[] = {0, 8, 32, 128, 512}, dear[] = {0, 1, 4, 16, 64};
    for (int i = 0; i < 5; i++) {
        long rounds = costly ? dear[i] : cheap[i];
        double w = rounds * round_ps, t = pow(pow(3, b) + pow(w, b), 1 / b);
        struct clc_result r = clc_test_row("indexmath", variant, rounds, CLC_FLOAT, 1);
        r.ms_median = t * (r.bytes / 8.0) * 1e-9; /* t ps an element of 8 bytes */
        clc_report_add(rep, &r);
    }
}

START_TEST(integer_work_from_rows_and_back)
{
    struct clc_report rep;
    profile_rows(&rep);
    struct clc_profile p;
    clc_profile_from_report(&rep, "test", &p);
    ck_assert(isnan(p.work_unit_ps) && isnan(p.work_blend[0]) && isnan(p.work_blend[1]));
    double unit = 0.04, round = CLC_WORK_ROUND_UNITS * unit;
    add_indexmath(&rep, "shift", round, 2);
    add_indexmath(&rep, "mad", round, 2);
    add_indexmath(&rep, "shift_group", round, 2);
    add_indexmath(&rep, "shift4", round / 4, 3); /* the round shared by four elements */
    add_indexmath(&rep, "div32", CLC_WORK_DIV32_ROUND_UNITS * unit + 0.25, 2);
    add_indexmath(&rep, "div64", 10 * unit + 0.25, 2); /* the 32-bit path of its division */
    add_indexmath(&rep, "div64_wide", 10 * unit + 2, 2);
    clc_profile_from_report(&rep, "test", &p);
    /* between the two largest round counts the work all but binds: within a percent */
    ck_assert_double_eq_tol(p.work_unit_ps, unit, 0.01 * unit);
    ck_assert_double_eq_tol(p.work_div_ps[0], 0.25, 0.01);
    ck_assert_double_eq_tol(p.work_div_ps[1], 2, 0.02);
    /* b is read with the rounds' cost so taken, a little low: a b of 3 near 2.9 */
    ck_assert_double_eq_tol(p.work_blend[0], 2, 0.05);
    ck_assert_double_eq_tol(p.work_blend[1], 3, 0.15);
    json_t *o = clc_profile_to_json(&p);
    struct clc_profile back;
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert_double_eq_tol(back.work_unit_ps, p.work_unit_ps, 1e-9);
    ck_assert_double_eq_tol(back.work_div_ps[1], p.work_div_ps[1], 1e-9);
    ck_assert_double_eq_tol(back.work_blend[1], p.work_blend[1], 1e-9);
    json_object_del(o, "integer_work"); /* a profile from before the indexmath rows */
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert(isnan(back.work_unit_ps) && isnan(back.work_blend[0]));
    json_decref(o);
    clc_report_free(&rep);
}
END_TEST

/* The L2's rates: the fastest of the l2 case's read rows and of its write rows, their bytes
 * as 32-byte sectors; kept in the profile's JSON, unknown in one from before. */
START_TEST(l2_rates_from_rows_and_back)
{
    struct clc_report rep;
    profile_rows(&rep);
    struct clc_profile p;
    clc_profile_from_report(&rep, "test", &p);
    ck_assert(isnan(p.l2_sectors_per_s[0]) && isnan(p.l2_sectors_per_s[1]));
    static const struct row_spec rows[] = {
        {"read", 1024, CLC_FLOAT, 3200},  {"read", 4096, CLC_DOUBLE, 4800},
        {"read", 16384, CLC_FLOAT, 4000}, {"write", 1024, CLC_FLOAT, 1600},
        {"write", 4096, CLC_FLOAT, 2400}, {"copy", 4096, CLC_FLOAT, 9999}};
    add_rows(&rep, "l2", rows, sizeof rows / sizeof rows[0]);
    clc_profile_from_report(&rep, "test", &p);
    ck_assert_double_eq_tol(p.l2_sectors_per_s[0], 4800e9 / 32, 1);
    ck_assert_double_eq_tol(p.l2_sectors_per_s[1], 2400e9 / 32, 1);
    json_t *o = clc_profile_to_json(&p);
    struct clc_profile back;
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert_double_eq_tol(back.l2_sectors_per_s[0], 4800e9 / 32, 1);
    ck_assert_double_eq_tol(back.l2_sectors_per_s[1], 2400e9 / 32, 1);
    json_object_del(o, "l2"); /* a profile from before the l2 case */
    ck_assert_int_eq(clc_profile_from_json(o, &back), CLC_OK);
    ck_assert(isnan(back.l2_sectors_per_s[0]) && isnan(back.l2_sectors_per_s[1]));
    json_decref(o);
    clc_report_free(&rep);
}
END_TEST

START_TEST(profile_file_loads)
{
    char dir[64];
    clc_test_make_dir(dir, "prof");
    const char *path = clc_test_path(dir, "p.json");
    write_profile(path, NULL, 3.5);
    struct clc_profile p;
    ck_assert_int_eq(clc_profile_load(path, &p), CLC_OK);
    ck_assert_double_eq_tol(p.write_gbps, 120, 1e-9);
    ck_assert_uint_eq(p.granule, 64);
    ck_assert_double_eq_tol(p.random_eff, 0.6, 1e-9); /* the random loads, read back */
    ck_assert_double_eq_tol(p.gap_eff_dir[1][4], 1 / (2 / 0.5 - 1 / 0.8), 1e-9);
    ck_assert_double_eq_tol(p.launch_us, 3.5, 1e-9);
    ck_assert_str_eq(p.device, "Test GPU");
    ck_assert_int_eq(p.compute_units, 2);
    ck_assert(isnan(p.fma_per_s[0])); /* no fma rows: read all the same, without the rate */
    /* not a profile: said, not loaded */
    const char *bad = clc_test_path(dir, "bad.json");
    clc_test_write_file(bad, "{\"tool\": \"clcoalesce\", \"results\": []}");
    ck_assert_int_eq(clc_profile_load(bad, &p), CLC_ERR);
    ck_assert_int_eq(clc_profile_load(clc_test_path(dir, "missing.json"), &p), CLC_ERR);
    clc_test_remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------ the kept profile */

static struct clc_device_meta kept_device(const char *name, const char *driver)
{
    struct clc_device_meta d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.driver, sizeof d.driver, "%s", driver);
    return d;
}

/* The path of d's kept profile on api, asserted to be there. */
static const char *kept_path(const struct clc_device_meta *d, const char *api)
{
    static char path[4096];
    ck_assert(clc_profcache_path(d, api, path, sizeof path));
    return path;
}

/* The file a device keeps its profile in: named after the API, the device and the driver,
 * inside the folder the environment names, whatever characters the names hold. */
START_TEST(kept_profile_path)
{
    struct clc_device_meta d = kept_device("NVIDIA H100 80GB HBM3", "580.159.04");
    setenv("CLCOALESCE_CACHE_DIR", "/kept", 1);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/student", 1);
    ck_assert_str_eq(kept_path(&d, "cuda"),
                     "/kept/profile-cuda-NVIDIA-H100-80GB-HBM3-580.159.04.json");
    struct clc_device_meta odd = kept_device("../../etc/x  y", "");
    ck_assert_str_eq(kept_path(&odd, "opencl"), "/kept/profile-opencl-..-..-etc-x-y-unknown.json");
    unsetenv("CLCOALESCE_CACHE_DIR");
    ck_assert_str_eq(kept_path(&d, "opencl"),
                     "/xdg/clcoalesce/profile-opencl-NVIDIA-H100-80GB-HBM3-580.159.04.json");
    setenv("XDG_CACHE_HOME", "relative", 1); /* ignored, as the XDG rule says */
    ck_assert_str_eq(kept_path(&d, "opencl"), "/home/student/.cache/clcoalesce/"
                     "profile-opencl-NVIDIA-H100-80GB-HBM3-580.159.04.json");
    unsetenv("HOME");
    char path[4096];
    ck_assert(!clc_profcache_path(&d, "opencl", path, sizeof path));
}
END_TEST

/* fill for clc_profcache_store: the text of the file at ctx. */
static int copy_text(FILE *f, void *ctx)
{
    size_t len = 0;
    char *text = clc_read_text(ctx, &len);
    ck_assert_ptr_nonnull(text);
    int rc = fwrite(text, 1, len, f) == len ? CLC_OK : CLC_ERR;
    free(text);
    return rc;
}

/* A profile kept (its folders made, private to the user) reads back as the device's; none is
 * found where none was kept or where the file is another device's, and a folder that cannot
 * be made keeps nothing. */
START_TEST(kept_profile_round_trip)
{
    char dir[64], path[4096], when[32];
    clc_test_make_dir(dir, "kept");
    const char *src = clc_test_path(dir, "p.json");
    write_profile(src, NULL, 3.5);
    char folder[4096];
    snprintf(folder, sizeof folder, "%s/cache/clc", dir);
    setenv("CLCOALESCE_CACHE_DIR", folder, 1);
    struct clc_device_meta d = kept_device("Test GPU", "1.0");
    struct clc_profile p;
    ck_assert(!clc_profcache_load(&d, "opencl", &p, path, sizeof path, when, sizeof when));

    ck_assert_int_eq(clc_profcache_store(&d, "opencl", copy_text, (void *)src, path, sizeof path),
                     CLC_OK);
    ck_assert_str_eq(path, kept_path(&d, "opencl"));
    struct stat st;
    ck_assert_int_eq(stat(folder, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);
    memset(&p, 0, sizeof p);
    ck_assert(clc_profcache_load(&d, "opencl", &p, path, sizeof path, when, sizeof when));
    ck_assert_double_eq_tol(p.write_gbps, 120, 1e-9);
    ck_assert_double_eq_tol(p.launch_us, 3.5, 1e-9);
    ck_assert_uint_eq(strlen(when), strlen("2026-01-01 00:00"));
    /* another API, another driver: nothing kept for them */
    ck_assert(!clc_profcache_load(&d, "cuda", &p, path, sizeof path, when, sizeof when));
    struct clc_device_meta newer = kept_device("Test GPU", "2.0");
    ck_assert(!clc_profcache_load(&newer, "opencl", &p, path, sizeof path, when, sizeof when));
    /* a file at another device's place that holds this one's profile is left aside */
    struct clc_device_meta other = kept_device("Other GPU", "1.0");
    ck_assert_int_eq(clc_profcache_store(&other, "opencl", copy_text, (void *)src, path,
                                         sizeof path), CLC_OK);
    ck_assert(!clc_profcache_load(&other, "opencl", &p, path, sizeof path, when, sizeof when));
    /* nor is a file that is no profile at all read as one */
    clc_test_write_file(kept_path(&d, "opencl"), "garbage");
    ck_assert(!clc_profcache_load(&d, "opencl", &p, path, sizeof path, when, sizeof when));

    /* a folder under a regular file cannot be made: nothing kept, the caller told so */
    snprintf(folder, sizeof folder, "%s/sub", src);
    setenv("CLCOALESCE_CACHE_DIR", folder, 1);
    ck_assert_int_eq(clc_profcache_store(&d, "opencl", copy_text, (void *)src, path, sizeof path),
                     CLC_ERR);
    ck_assert_int_ne(access(path, F_OK), 0);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(features_round_trip_through_json)
{
    char dir[64];
    clc_test_make_dir(dir, "feat");
    const char *path = clc_test_path(dir, "r.json");
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    struct clc_result r = streaming_row();
    r.model.features.dram[0][2][3] = 1.25;
    r.model.features.local_load_passes = 32;
    r.model.features.store_open_bytes = 60;
    r.model.features.work_units = 413;
    r.model.features.work_div64 = 2;
    r.model.gbps = 42;
    snprintf(r.model.bound, sizeof r.model.bound, "banks");
    clc_report_add(&rep, &r);
    clc_test_write_json(&rep, path);
    ck_assert_int_eq(clc_read_json(path, &rep), CLC_OK);
    const struct clc_model_features *f = &rep.results[0].model.features;
    ck_assert(f->valid);
    ck_assert_double_eq_tol(f->dram[0][2][3], 1.25, 1e-9);
    ck_assert_double_eq_tol(f->dram[1][1][0], 0.5, 1e-9);
    ck_assert_double_eq_tol(f->local_load_passes, 32, 1e-9);
    ck_assert_double_eq_tol(f->store_open_bytes, 60, 1e-9);
    ck_assert_double_eq_tol(f->work_units, 413, 1e-9);
    ck_assert_double_eq_tol(f->work_div64, 2, 1e-9);
    ck_assert(isnan(f->registers) && isnan(f->work_div32));
    ck_assert_double_eq_tol(rep.results[0].model.gbps, 42, 1e-9);
    ck_assert_str_eq(rep.results[0].model.bound, "banks");
    clc_report_free(&rep);
    /* a malformed one is an error naming the field */
    clc_test_write_file(path, "{\"tool\":\"clcoalesce\",\"format\":2,\"results\":[{\"case\":\"a\","
                              "\"variant\":\"b\",\"type\":\"float\",\"status\":\"skipped\","
                              "\"bytes\":0,\"reps\":0,\"batch\":1,\"verified\":false,"
                              "\"model_features\":{\"dram_per_useful\":[1,2]}}]}");
    clc_test_capture(2);
    ck_assert_int_eq(clc_read_json(path, &rep), CLC_ERR);
    clc_test_assert_has(clc_test_captured(), "model_features");
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------ real rows, per layer */

/* The run's rows of one case predicted on the profile at path. */
static void run_predicted(const char *name, const char *variant, const char *path,
                          struct clc_report *rep)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.types = CLC_FLOAT;
    o.variant = variant;
    o.profile = path;
    ck_assert_int_eq(clc_test_run_case(name, &o, rep), CLC_OK);
}

static const struct clc_result *predicted(const struct clc_report *rep, long param,
                                          const char *bound)
{
    const struct clc_result *r = NULL;
    for (size_t i = 0; i < rep->n_results && r == NULL; i++)
        if (param < 0 || (rep->results[i].has_param && rep->results[i].param == param))
            r = &rep->results[i];
    ck_assert_msg(r != NULL, "no row of param %ld among %zu (the first: %s)", param,
                  rep->n_results, rep->n_results > 0 ? rep->results[0].note : "none");
    ck_assert_msg(r->model.gbps > 0, "%s/%s: no prediction (%s)", r->case_name, r->variant,
                  r->note);
    ck_assert_msg(strcmp(r->model.bound, bound) == 0, "%s/%s param %ld: bound %s, not %s",
                  r->case_name, r->variant, r->param, r->model.bound, bound);
    return r;
}

/* Row r of a real run predicted on the profile file at path with as many work-items
 * resident as the profile's device holds: what the test device's small launch keeps
 * resident is its own (a GPU's many compute units get a few work-groups each). */
static double predicted_full(const char *path, const struct clc_result *r, enum clc_bound *b)
{
    struct clc_profile p;
    ck_assert_int_eq(clc_profile_load(path, &p), CLC_OK);
    struct clc_result full = *r;
    full.model.features.resident_per_cu = p.threads_per_cu;
    return predict(&p, &full, b);
}

/* Ceilings of the profile rows as a cache's (the test device's rows at its quick size are). */
static void in_cache(struct clc_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++)
        rep->results[i].cache_resident = true;
}

/* in_cache, with local memory ten times slower: 1280 ps a pass */
static void in_cache_slow_banks(struct clc_report *rep)
{
    in_cache(rep);
    for (size_t i = 0; i < rep->n_results; i++)
        if (strcmp(rep->results[i].case_name, "banks") == 0)
            rep->results[i].value = rep->results[i].gbps /= 10;
}

/* in_cache, with the groups case's copies in groups of 256: floats at 70 % of the copy
 * ceiling straight, 50 % staged through __local; doubles at 90 and 60 % */
static void in_cache_staged_copies(struct clc_report *rep)
{
    in_cache(rep);
    static const double gbps[2][2] = {{63, 45}, {81, 54}}; /* [type][staged] */
    for (int t = 0; t < 2; t++)
        for (int staged = 0; staged < 2; staged++) {
            struct clc_result r = clc_test_row("groups", staged ? "staged" : "inplace", 256,
                                               t ? CLC_DOUBLE : CLC_FLOAT, gbps[t][staged]);
            r.cache_resident = true;
            clc_report_add(rep, &r);
        }
}

/* in_cache_staged_copies, with groups of 32 started 2.5 times as fast as those of 256
 * (20 GB/s), so that a copy in groups of 256 is bound by its bytes in flight, not by them */
static void in_cache_copies_started_fast(struct clc_report *rep)
{
    in_cache_staged_copies(rep);
    struct clc_result r = clc_test_row("groups", "inplace", 32, CLC_FLOAT, 20);
    r.cache_resident = true;
    clc_report_add(rep, &r);
}

START_TEST(end_to_end_layers)
{
    char dir[64];
    clc_test_make_dir(dir, "layers");
    const char *path = clc_test_path(dir, "p.json");
    write_profile(path, in_cache, NAN);
    struct clc_report rep;

    /* 16 bytes a load, 2048 work-items: 32 KiB in flight, the copy ceiling */
    run_predicted("vector", "float4", path, &rep);
    const struct clc_result *r = predicted(&rep, -1, "dram");
    ck_assert_double_eq_tol(r->model.gbps, 90, 1e-6);
    ck_assert_double_eq_tol(r->model.dram_bytes, (double)r->bytes, 1e-6 * r->bytes);
    clc_report_free(&rep);

    /* 32 bytes apart: a 64-byte granule loaded and stored for 4 useful bytes each way */
    run_predicted("stride", "inplace", path, &rep);
    ck_assert_double_eq_tol(predicted(&rep, 8, "sectors")->model.gbps, 90.0 / 8, 1e-6);
    clc_report_free(&rep);

    /* the smallest grid launches one group of 256 per compute unit (of the profile's 2, or
     * of the device's own where it knows them): 256 work-items keep 1 KiB of loads in flight
     * per compute unit and store as much: 2 KiB, twice the grid's 256 work-items with one
     * load each, 20 % of the read ceiling */
    run_predicted("gridstride", "gridstride", path, &rep);
    long least = -1;
    for (size_t i = 0; i < rep.n_results; i++)
        if (rep.results[i].has_param && (least < 0 || rep.results[i].param < least))
            least = rep.results[i].param;
    r = predicted(&rep, least, "inflight");
    ck_assert_double_eq_tol(r->model.gbps, 90 * 0.2, 1e-6);
    clc_report_free(&rep);

    run_predicted("transpose", "tiled", path, &rep); /* column reads in one bank */
    predicted(&rep, -1, "banks");
    clc_report_free(&rep);
    run_predicted("transpose", "tiled_padded", path, &rep);
    predicted(&rep, -1, "dram");
    clc_report_free(&rep);

    /* a column per warp: a line loaded and one stored per 8 useful bytes; the profile's 4 G
     * store lines/s take 32 GB/s, its 5 G load lines/s 40 (4.5 G where every load missed:
     * 36); the stores whose DRAM windows the trace saw left to other work-groups (bunched:
     * on PoCL nearly all, the half of the bytes that are stored; how many, the device's
     * sample says), written back after them at the write ceiling of 96 GB/s */
    run_predicted("matrix", "colmajor", path, &rep);
    r = predicted(&rep, -1, "lines");
    double bunched = r->model.features.dram_bunched[1];
    ck_assert(bunched >= 0 && bunched <= 0.5);
    ck_assert_double_eq_tol(r->model.gbps, 1 / (1.0 / 32 + bunched / 96), 1e-6);
    clc_report_free(&rep);

    /* float16s: half the useful bytes stored in 64-byte lanes, whose fill stores 6 GB/s */
    run_predicted("vector", "float16", path, &rep);
    ck_assert_double_eq_tol(predicted(&rep, -1, "split")->model.gbps, 12, 1e-6);
    clc_report_free(&rep);

    /* a row per lane: a pass per lane's line, 4 useful bytes each, at 1280 ps (the sums it
     * stores add a little) */
    write_profile(path, in_cache_slow_banks, NAN);
    run_predicted("rowsum", "thread_per_row", path, &rep);
    r = predicted(&rep, -1, "l1");
    ck_assert_double_eq_tol(r->model.gbps, 4 / 1.28, 0.01 * 4 / 1.28);
    clc_report_free(&rep);

    /* a lane's line filled over 16 loads (60 bytes of them a lane): a stored sector, 64
     * useful bytes, costs 3000 ps more than its line request (the profile's 4 G store lines
     * a second, 32 GB/s, with the write-back of the bunched stores at 96 GB/s): the lines
     * still costing most */
    enum clc_bound b;
    run_predicted("scatter", "store_steps", path, &rep);
    const struct clc_result *steps = clc_test_get(&rep, "store_steps", 16, CLC_FLOAT);
    double gbps = predicted_full(path, steps, &b);
    bunched = steps->model.features.dram_bunched[1];
    ck_assert(bunched >= 0 && bunched <= 0.5);
    ck_assert_double_eq_tol(gbps, 1 / (1 / 32.0 + bunched / 96 + 3000 / 64e3), 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_LINES);
    clc_report_free(&rep);

    /* the share of the stores whose lines later work-groups complete: read off the wide
     * sample where it holds every store of its work-items (a lane's line in 1 to 4 steps,
     * one store a step: a share), not where they make more (8 and 16: NAN); how large a
     * share, the sample's size against the buffer's blocks says */
    run_predicted("scatter", "store_steps_wide", path, &rep);
    for (long k = 1; k <= 16; k *= 2) {
        double spread = clc_test_get(&rep, "store_steps_wide", k, CLC_FLOAT)
                            ->model.features.store_spread;
        ck_assert_msg(k <= 4 ? spread >= 0 && spread <= 1 : isnan(spread),
                      "%ld steps: store_spread %g", k, spread);
    }
    clc_report_free(&rep);


    /* an element a work-item staged through __local in groups of 256: the staged copies */
    write_profile(path, in_cache_staged_copies, NAN);
    run_predicted("groups", "staged", path, &rep);
    gbps = predicted_full(path, clc_test_get(&rep, "staged", 256, CLC_FLOAT), &b);
    ck_assert_double_eq_tol(gbps, 45, 1e-6);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    clc_report_free(&rep);

    /* a copy a float off its alignment: 5 bytes of sectors a lane for the 4 it reads, each
     * warp's fifth sector the next warp's first, which DRAM sends once: the copy of 4-byte
     * lanes, as an aligned one (70 % of 90 GB/s; its 5 bytes would read 74 %) */
    write_profile(path, in_cache_copies_started_fast, NAN);
    run_predicted("offset", "inplace", path, &rep);
    const struct clc_result *off = clc_test_get(&rep, "inplace", 1, CLC_FLOAT);
    ck_assert_double_eq(off->model.features.load_access_bytes, 4);
    ck_assert(off->model.features.load_lane_bytes > 4.5);
    gbps = predicted_full(path, off, &b);
    ck_assert_double_eq_tol(gbps, 63, 0.5);
    ck_assert_int_eq(b, CLC_BOUND_INFLIGHT);
    clc_report_free(&rep);

    write_profile(path, in_cache, 1e6); /* a second per launch */
    run_predicted("vector", "float4", path, &rep);
    predicted(&rep, -1, "launch");
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        dram_layer_streams_at_the_ceiling, work_layer_blends_work_with_memory,
        integer_work_from_rows_and_back,
        granules_layer_charges_what_is_not_used,
        distinct_bytes_never_above_the_ceiling, scatter_layer_slows_far_granules,
        scatter_layer_takes_gathers_at_random, scatter_layer_takes_tile_rows_at_their_rate,
        scatter_layer_takes_loads_and_stores_apart,
        inflight_layer_follows_the_curve,
        stores_ride_along_the_loads,
        inflight_grid_by_items_loads_width,
        long_lived_copies_spread_their_start,
        copies_read_off_the_one_pass_rows, misaligned_copies_keep_what_dram_sends,
        staged_copies_by_loads,
        copies_read_by_group_size,
        one_pass_rows_by_group_size,
        banks_layer_counts_passes,
        banks_layer_counts_load_lines,
        waterfall_says_what_binds,
        layer_table_rows_are_whole,
        waterfall_runs_the_table,
        timed_layer_weighed_by_the_layers_above,
        lines_layer_charges_the_line_requests, lines_layer_adds_the_write_back_of_tile_rows,
        l2_layer_shares_writes_with_fills,
        reuse_past_l1_asks_the_l2_again,
                            reuse_past_l2_reads_dram_again, accessed_bytes_over_counted_ones,
        lines_layer_charges_partial_sectors, lines_layer_merges_runs,
        lines_layer_takes_shared_pieces_at_their_rows, shared_store_costs_between_classes,
        merge_factor_between_classes,
        merge_factors_from_runs_rows,
        split_layer_charges_wide_stores,
        launch_layer_adds_a_fixed_cost,
        compute_layer_binds_on_arithmetic,
        compute_rate_from_rows_and_back, l2_rates_from_rows_and_back,
        no_prediction_without_grounds,
        refill_layer_adds_what_open_lines_cost, refill_layer_takes_the_wide_rows_for_spread_stores,
                            apart_layer_charges_lines_left_to_later_work_groups,
                            apart_layer_end_to_end,
        profile_figures_from_rows,
        profile_file_loads,
        kept_profile_path,
        kept_profile_round_trip,
        features_round_trip_through_json,
        end_to_end_layers,
    };
    return clc_test_main(clc_test_suite("predict", tests, sizeof tests / sizeof tests[0]));
}
