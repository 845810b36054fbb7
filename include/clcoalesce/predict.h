/* predict.h - the predictive model: a row's GB/s from the kernel's own access trace (the
 * features model.h reads off it, struct clc_model_features) and the device profile that
 * `clcoalesce profile` measures (struct clc_profile), one layer at a time, with the limit
 * that binds.  Every device figure comes from the profile's microbenchmarks; nothing is
 * fitted per case or per row, and no figure of a particular GPU is written here.
 *
 * The layers, from the theoretical peak down (each a factor <= 1 on the bandwidth), each a row
 * of predict.c's table of layers (clc_model_layers) and a function of its own:
 *   ceiling   the DRAM ceiling the profile measured for the row's mix: stream read for a
 *             kernel that only loads, write for one that only stores, copy otherwise
 *   granules  useful bytes / DRAM bytes: every distinct granule the kernel touches moves
 *             once (reuse inside L2 is free), at the granule size the profile measured; a
 *             store that writes part of a granule takes the whole granule's time
 *   scatter   granules far from other touched granules move slower (fewer per DRAM page):
 *             the profile's efficiency by gap class
 *   inflight  Little's law: the bytes the resident work-items keep in flight per compute unit
 *             against the profile's curve of read bandwidth over bytes in flight
 *   banks     the L1's data pipe, which local memory shares: the passes local requests need
 *             and a pass per line of each global load request, at the profile's local
 *             memory rates, when they take longer than the global traffic (bound `banks`, or
 *             `l1` where the loads' lines are most of the passes)
 *   lines     the line requests the L1 sends the L2 (every line a store touches, a load's
 *             lines its warp's last load did not touch) at the rates the profile measured
 *             for loads and for stores, and each sector a store writes only in part,
 *             when they take longer than the layers above
 *   l2        the sectors those requests move, loads' and stores' together, at the L2's own
 *             rates for each (the l2 case), when they take longer than the layers above:
 *             a kernel that passes over data the L2 holds again and again
 *   split     stores of lanes wider than 16 bytes (which leave in pieces) at the rate the
 *             profile's fills of such lanes stored, when that takes longer than the above
 *   groups    the work-groups of the launch at the rate the device starts them, when that
 *             takes longer than the layers above (many small groups of short work-items)
 *   compute   the kernel's flops per launch (a description's `flops`, --flops) at the FMA
 *             rate the profile measured for the row's type, when that takes longer than
 *             the layers above: a kernel with more arithmetic per byte than the device's
 *             rate keeps memory-bound
 *   launch    a fixed cost per launch, from the profile
 * Pure host code: tested on synthetic features and profiles. */
#ifndef CLCOALESCE_PREDICT_H
#define CLCOALESCE_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clcoalesce/model.h"
#include "clcoalesce/result.h"

#define CLC_PROFILE_FORMAT 2
#define CLC_PROFILE_CURVE 64
#define CLC_PROFILE_GRID 128
#define CLC_PROFILE_MERGE 5 /* store merging classes: requests of 2 .. 32 lines */
#define CLC_PROFILE_MERGE_TABLES 4 /* runs stored: from registers or __local, together or apart */
#define CLC_PROFILE_STEPS 5 /* lines filled over 1, 2, 4, 8, 16 steps: the refill classes */
#define CLC_PROFILE_SHARED 3 /* shared stores' sectors in part a request: 8, 16, 32 */
#define CLC_PROFILE_GROUPS 6 /* work-group sizes of the one-pass copies: 32 << 0 .. 32 << 5 */
#define CLC_PROFILE_ONE_PASS_GROUP 3 /* 256: where a profile without sizes measured them */

/* The device figures the model reads, each measured by `clcoalesce profile` (or taken from
 * the rows of the same cases in a run).  NAN / 0: not measured; its layer is then left out. */
struct clc_profile {
    char source[256];      /* where the figures come from: "this run" or the profile's path */
    char device[256];
    char api[8];
    double peak_gbps;      /* the theoretical peak (NVML, driver): the waterfall's top */
    double read_gbps;      /* stream read, write, copy, triad (fp32) */
    double write_gbps;
    double copy_gbps;
    double triad_gbps;
    double latency_ns[3];  /* L1, L2, DRAM load-to-use */
    double l1_bytes;       /* the largest working set the latency sweep reads at L1's
                            * latency (within 1.5 x its smallest set's), where a larger set
                            * leaves it: what one compute unit's L1 holds; NAN unknown */
    double inflight_50;    /* bytes in flight per compute unit for 50 % / 90 % of read */
    double inflight_90;
    size_t n_curve;        /* the inflight rows' envelope: the most read bandwidth reached */
    double curve_bytes[CLC_PROFILE_CURVE]; /* with at most curve_bytes in flight per CU, */
    double curve_gbps[CLC_PROFILE_CURVE];  /* rising in both */
    size_t n_grid;         /* the inflight rows themselves: read bandwidth by work-items */
    struct clc_inflight_point { /* per compute unit, loads each keeps in flight and bytes */
        double items, loads, width, gbps; /* per load (the grid Little's law runs on) */
    } grid[CLC_PROFILE_GRID];
    double one_pass[2][CLC_PROFILE_GROUPS]; /* a copy of one element per work-item in place
                            * (the groups case) with 4- and 8-byte lanes, in work-groups of
                            * 32 << g work-items: its fraction of the copy ceiling */
    double one_pass_staged[2][CLC_PROFILE_GROUPS]; /* the same through __local (the groups
                            * case's staged rows): every work-item of a group loads, then all
                            * wait at a barrier before any stores */
    double one_pass_staged4[2][CLC_PROFILE_GROUPS]; /* the same with 4 elements a work-item,
                            * all loaded before the barrier (the staged4 rows) */
    double load_lines_per_s;  /* line requests the L2 takes per second when every lane of a
                               * warp loads from its own 128-byte line (scatter load) */
    double store_lines_per_s; /* and stores into its own line (scatter store) */
    double missed_lines_per_s; /* load line requests the L2 takes per second when no other
                               * warp of the work-group asks for the same sectors at once, so
                               * that every one reaches it (scatter load_shared, teams of 1);
                               * the L1 serves a scatter load row's other requests, 7 in 8 */
    double l2_sectors_per_s[2]; /* sectors the L2 serves per second to loads [0] and to
                               * stores [1] of whole lines it holds (the l2 case's read and
                               * write rows, the fastest of each): its own throughput, which
                               * a kernel's loads and stores share; NAN not measured */
    double groups_per_s;   /* work-groups the device starts per second at most: the fastest
                            * the groups case's rows started theirs (its smallest groups) */
    double long_copy;      /* a copy whose work-items each copy element after element, all
                            * resident from the start (the gridstride case's grid-stride
                            * rows, the fastest): its fraction of the copy ceiling */
    double held_tile[2];   /* a tile transpose whose work-items load their 4 elements one
                            * at a time where the compiler waits for each (the transpose
                            * case's tiled_held, groups of 256, floats [0] and doubles [1])
                            * over the same tile with the 4 loads issued together
                            * (tiled_padded): what waiting costs a tile, whose own ceiling
                            * (the DRAM traffic of its rows) both share */
    double split_gbps[2];  /* stores alone with 32- and 64-byte lanes (the vector case's
                            * fill_float8 and fill_float16): a GPU instruction stores at most
                            * 16 bytes a lane, so these leave in pieces */
    double store_merge[CLC_PROFILE_MERGE_TABLES][CLC_PROFILE_MERGE]; /* what a store
                            * request costs the L2 that writes in part sectors its warp's last
                            * store wrote too (a run stored an element at a time), as a factor
                            * on its cost alone, by its lines: 2, 4, 8, 16, 32
                            * (clc_profile_merge_lines); by clc_profile_merge_table: [0] from
                            * the runs case's store and fill rows, [1] from its local rows (a
                            * run stored from __local after a barrier), [2] and [3] from its
                            * store_apart and local_apart rows (a test before each store of the
                            * run, where the others' come back to back).  The L1
                            * merges such pieces the more, the fewer lines the request
                            * touches; NAN not measured */
    double shared_ps[2][CLC_PROFILE_MERGE][CLC_PROFILE_SHARED]; /* what a store request
                            * costs, in ps over the whole device, whose sectors written in part
                            * other warps of its work-group write in part at the same access
                            * (the L1 merges some of their pieces), by its lines (2 .. 32, the
                            * merge classes) and its sectors in part (8, 16, 32): the stores
                            * case's rows of float [0] and double [1] laid out so, the median
                            * of those alike; NAN not measured */
    double refill_ps[2][CLC_PROFILE_STEPS]; /* what a stored sector costs more, in ps over the
                            * whole device, where its lane fills its line over 2^c steps, a
                            * coalesced load before each (the scatter case's store_steps rows
                            * of float [0] and double [1], against their row of one step): a
                            * line open for a window (clc_profile_refill_window) the L2 writes
                            * back in part and DRAM reads again; NAN not measured */
    double refill_wide_ps[2][CLC_PROFILE_STEPS]; /* the same where the lines open spread
                            * over the whole buffer (the store_steps_wide rows: consecutive
                            * work-groups in blocks 2 MiB apart, as a naive transpose's);
                            * NAN not measured */
    double fma_per_s[2];   /* fused multiply-adds per second, float and double (the fma
                            * case): the compute layer's rate; NAN not measured */
    double work_unit_ps;   /* integer work (the indexmath case): ps over the whole device
                            * for a unit of the 32-bit instructions a work-item executes
                            * (clc_ptx_work), from its shift and mad rounds once they bind; */
    double work_div_ps[2]; /* a division or remainder in 32 [0] and 64 [1] bits besides its
                            * units; and how work and memory time add up, t = (m^b + w^b)^(1/b)
                            * for memory time m and work w (b 1: the sum, large: the larger),
                            * for work-items of one load [0] and four [1] after the work, */
    double work_blend[2];  /* from its rows whose rounds take about the copy's time; NAN not
                            * measured */
    int banks;             /* local memory banks and their width (0: no conflicts measured) */
    int bank_width;
    double local_gbps;     /* local bandwidth without conflicts (banks stride 1) */
    double local_request_ps; /* the local memory's time, over the whole device, per warp */
    double local_pass_ps;    /* request and per pass of its banks: from banks stride 1 (one
                              * pass) and stride `banks` (all in one bank) */
    unsigned granule;      /* DRAM granule in bytes (32, 64, 128), from the stride rows */
    double gap_eff[CLC_MODEL_GAPS]; /* DRAM efficiency by gap class (model.h), class 0 = 1 */
    double gap_eff_dir[2][CLC_MODEL_GAPS]; /* gap_eff for loads [0] and stores [1] apart,
                              * from the stride case's load rows beside its inplace ones;
                              * NAN where they did not run (gap_eff serves both) */
    double random_eff;       /* DRAM's efficiency for granules at random addresses, as
                              * gap_eff's (the scatter case's random load) */
    double bunched_eff;      /* and for stores' dense bunches in windows the work-groups a
                              * row of tiles later fill (model.h's bunched): the scatter
                              * case's tile_blocks beside its tiles; NAN not measured */
    double bunched_load_eff; /* and for loads' (model.h's bunched_loads): its tile_loads */
    double launch_us;      /* fixed cost of one launch, microseconds */
    double spread;         /* how much its rows' samples vary: the median coefficient of
                            * variation of the rows it reads (0.3: 30 %); a difference
                            * within it is not told apart from none (NAN: unknown) */
    bool in_cache;         /* the stream rows' buffers fit in the last-level cache (a CPU's
                            * default sizes): the ceilings are the cache's */
    uint64_t l2_bytes;     /* the device facts: L2 (for the latency levels), and what the */
    int compute_units;     /* occupancy needs (result.h) */
    int threads_per_cu;
    int groups_per_cu;
    int regs_per_cu;
    uint64_t local_per_cu;
};

/* The figures from the rows of a report that holds the profile's cases (latency, stream,
 * inflight, banks, stride); those it lacks stay unknown.  source names where they came from.
 * Returns the number of figures found (0: none). */
int clc_profile_from_report(const struct clc_report *rep, const char *source,
                            struct clc_profile *p);

/* The profile as JSON (format CLC_PROFILE_FORMAT, a new reference), and back: reads a file
 * that `clcoalesce profile -o` wrote (format 1 or 2).  CLC_OK, or CLC_ERR after a message
 * naming the file and what is wrong. */
struct json_t *clc_profile_to_json(const struct clc_profile *p);
int clc_profile_load(const char *path, struct clc_profile *p);

/* The figures from an object clc_profile_to_json wrote (as a run's JSON keeps the profiles
 * its predictions used, "model_profile").  CLC_OK, or CLC_ERR when it has no ceilings. */
int clc_profile_from_json(struct json_t *o, struct clc_profile *p);

/* Read bandwidth the profile's curve gives with `bytes` in flight per compute unit
 * (interpolated in log scale, the last point beyond it); NAN without a curve. */
double clc_profile_inflight_gbps(const struct clc_profile *p, double bytes);

/* Read bandwidth the profile's grid gives with `items` work-items per compute unit, each
 * keeping `loads` loads of `width` bytes in flight: in log scale between the grid's loads
 * and widths (the nearest where outside them), along its work-items (outside those it
 * measured: in proportion, Little's law, up to the most it reached).  NAN without a grid or
 * where it lacks a corner. */
double clc_profile_inflight_at(const struct clc_profile *p, double items, double loads,
                               double width);

/* The profile's one-pass copies (the groups case): straight, one element a work-item;
 * staged through __local, one element a work-item; staged, CLC_PROFILE_STAGED_ITEMS a
 * work-item, all loaded before the barrier. */
enum clc_one_pass_form {
    CLC_ONE_PASS_STRAIGHT,
    CLC_ONE_PASS_STAGED,
    CLC_ONE_PASS_STAGED4,
    CLC_ONE_PASS_FORMS
};
#define CLC_PROFILE_STAGED_ITEMS 4

/* The form of a point of a profile file's inflight.one_pass: `staged` false, straight; true,
 * staged, with CLC_PROFILE_STAGED_ITEMS elements a work-item where its `items` says so. */
enum clc_one_pass_form clc_profile_one_pass_form(struct json_t *point);

/* The fraction of the copy ceiling the profile's copies of one form give lanes of `lane`
 * bytes in work-groups of `group` work-items: in log scale between the group sizes measured
 * (the nearest outside them), and between the 4- and 8-byte copies (the nearer one outside
 * them); an unknown group size as 256.  NAN where a lane size has no group size measured. */
double clc_profile_one_pass(const struct clc_profile *p, double lane, double group,
                            enum clc_one_pass_form form);

/* The fraction of the copy ceiling a copy of `elements` elements a work-item, each loaded
 * and stored before the next, reaches where the copy of one element a work-item reaches
 * `one`: a work-item's life takes a fixed time (its group's start and end) and a time per
 * element, so it reaches k / (a + b k), with a + b = 1 / one and a the fixed time the
 * profile's copies of one element (groups of 256, 4-byte lanes) spend over its long-lived
 * copy (long_copy).  `one` itself where the profile has no long-lived copy, where it is no
 * faster, or for one element or fewer. */
double clc_profile_long_copy(const struct clc_profile *p, double one, double elements);

/* A copy staged through __local whose work-items each load `loads` elements before the
 * barrier: a work-group's life takes a fixed time (its start, the barrier, its slowest load)
 * and a time per element a work-item loads, so it reaches k / (a + b k) of the copy ceiling
 * at k loads; the staged copies of one element and of CLC_PROFILE_STAGED_ITEMS at this lane
 * and group size give a and b.  `held`: its code waits for each load before the next, so
 * its k loads reach the staged copy of k's rate times what waiting costs the held tile
 * transpose (held_tile, in its groups of 256), which gives b with the staged copy of one
 * element in such groups; in a profile without it, an element takes what the straight
 * copies of one element a work-item spend on one (holding one load at a time, no barrier;
 * at least the staged copy's time less its barrier's).  The fixed part is what the staged
 * copies of one element spend more.  NAN without the copies needed (or where they give no
 * time per element). */
double clc_profile_staged(const struct clc_profile *p, double lane, double group, double loads,
                          bool held);

/* What the L2 takes for a store, in ps over the whole device: each line request (line_ps)
 * and each sector the request writes only in part (partial_ps), which the L2 merges into its
 * sector apart.  The scatter case's stores (store_lines_per_s: one line a request, one
 * sector of it in part) cost the two together; the 32-byte fill splits them: each of its
 * 16-byte pieces (a warp's 32 lanes x 16 bytes) asks for 8 lines and writes 32 sectors in
 * half, so a byte it stores costs 1 / 64 of a line request and 1 / 16 of a partial sector.
 * Returns true with both; false, a line request at the scatter rate whole and partial_ps 0,
 * without the fill (NAN) or where the two do not split (a cost at or below 0). */
bool clc_profile_store_costs(double store_lines_per_s, double fill_32_gbps, double *line_ps,
                             double *partial_ps);

/* What a store request of `lines` lines and `sectors` sectors written in part, which other
 * warps of its work-group write in part at the same access, costs, in ps over the whole
 * device: the profile's shared_ps of float's rows (elem, a lane's bytes, at most 4) or
 * double's, linear in the sectors within a class of lines (the nearest where outside), then
 * in log scale between the classes of lines; NAN where the profile has none of them. */
double clc_profile_shared_store_ps(const struct clc_profile *p, double elem, double lines,
                                   double sectors);

/* The lines of store merging class c (0 .. CLC_PROFILE_MERGE - 1): 2, 4, 8, 16, 32. */
static inline double clc_profile_merge_lines(unsigned c)
{
    return (double)(2u << c);
}

/* The table of store merging factors for runs stored from __local (staged) or not, whose
 * stores the compiler keeps apart or not (clc_ptx_stores_combined). */
static inline unsigned clc_profile_merge_table(bool staged, bool apart)
{
    return (staged ? 1u : 0u) + (apart ? 2u : 0u);
}

/* The JSON key of a table of the profile's store merging factors (store_merging). */
static inline const char *clc_profile_merge_key(unsigned table)
{
    static const char *const keys[CLC_PROFILE_MERGE_TABLES] = {
        "factor", "factor_staged", "factor_apart", "factor_staged_apart"};
    return keys[table % CLC_PROFILE_MERGE_TABLES];
}

/* The JSON key of the profile's refill figures (refill): of the narrow store_steps rows or
 * the wide ones, float's (t 0) or double's (t 1). */
static inline const char *clc_profile_refill_key(bool wide, unsigned t)
{
    static const char *const keys[2][2] = {{"fp32_ps", "fp64_ps"},
                                           {"wide_fp32_ps", "wide_fp64_ps"}};
    return keys[wide][t % 2];
}

/* The profile's store merging factor for requests of `lines` lines from merging table
 * `table` (clc_profile_merge_table): in log scale between the classes measured, the nearest
 * outside them; NAN where none was measured. */
double clc_profile_merge(const struct clc_profile *p, double lines, unsigned table);

/* The window of refill class c for lanes of `elem` bytes (4: the float rows, 8: the double
 * ones): what a lane of the store_steps rows loads from its first store into its line to its
 * last, the 2^c - 1 loads between its 2^c stores (model.h's open_bytes). */
static inline double clc_profile_refill_window(unsigned c, double elem)
{
    return (double)((1u << c) - 1) * elem;
}

/* What a stored sector costs more, in ps, where its line stays open while a lane loads
 * `window` bytes, the device full of work-items: the profile's rows of the element size
 * nearer to `elem` (the wide layout's, `wide`, where it has them), linear between their
 * windows, the nearest outside them; NAN where none was measured. */
double clc_profile_refill_ps(const struct clc_profile *p, double elem, double window, bool wide);

/* Whether the profile has the wide layout's refill rows for the element size nearer to
 * `elem` (store_steps_wide), which clc_profile_refill_ps then reads for `wide`. */
bool clc_profile_has_wide_refills(const struct clc_profile *p, double elem);

/* The rate, in GB/s stored, at which the profile's fills of 32- and 64-byte lanes stored:
 * the 32-byte one for lanes of 17 to 32 bytes, the 64-byte one for wider lanes.  NAN for
 * lanes of at most 16 bytes (one instruction stores them whole) or where it has no such fill. */
double clc_profile_split_gbps(const struct clc_profile *p, double lane);

/* ------------------------------------------------------------------ the prediction */

enum clc_bound {
    CLC_BOUND_NONE,
    CLC_BOUND_DRAM,     /* streams at the DRAM ceiling: nothing wasted */
    CLC_BOUND_SECTORS,  /* DRAM-bound, but moves granules it does not use, or scattered ones */
    CLC_BOUND_INFLIGHT, /* too few bytes in flight to cover the latency */
    CLC_BOUND_BANKS,    /* local memory: bank conflicts (or its bandwidth) */
    CLC_BOUND_LAUNCH,   /* the launch's fixed cost */
    CLC_BOUND_LINES,    /* the L2's rate for the line requests the L1 sends it */
    CLC_BOUND_GROUPS,   /* the rate at which the device starts work-groups */
    CLC_BOUND_SPLIT,    /* stores of lanes wider than 16 bytes, which leave in pieces */
    CLC_BOUND_L1,       /* the L1's data pipe, busy with the lines of global loads */
    CLC_BOUND_COMPUTE,  /* the arithmetic: its flops at the device's measured FMA rate */
    CLC_BOUND_L2,       /* the L2's own throughput for the sectors loaded and stored */
    CLC_BOUND_REFILL,   /* lines a warp's stores leave open over many steps, or leave to
                         * work-groups a grid row or more later, written back in part and
                         * read again */
    CLC_BOUND_WORK,     /* the integer work of its work-items (index arithmetic, divisions) */
    CLC_BOUND_RANDOM,   /* a gather's loads at random: a request to the L2 and a granule from
                         * DRAM each, the L2 the busier */
    CLC_BOUND_LAST = CLC_BOUND_RANDOM
};
const char *clc_bound_name(enum clc_bound b); /* "dram", "sectors", ...; "" for NONE */

/* What bound b means for a kernel, and what would lift it: a sentence or two ("" for NONE). */
const char *clc_bound_remedy(enum clc_bound b);

#define CLC_MODEL_LAYERS 16 /* the most layers a waterfall holds */

/* The indexmath case's kernels as NVIDIA's compilers build them, in units of work on the
 * path to a load's address (clc_ptx_work, counted on their PTX in
 * bench/results/h100/indexmath/ptx/): with no rounds (a plain copy of a float a work-item,
 * whose 8 bytes the profile's ceilings already pay for: the work layer counts the units past
 * these, per 8 useful bytes); a round of `shift` or `mad` (three 64-bit operations, or a
 * 64-bit multiply and add: 6, and a quarter of the loop's count, test and branch, unrolled 4
 * times, on the path since the trips decide the address); a round of `div32` besides its
 * division. */
#define CLC_WORK_BASE_UNITS 12.0
#define CLC_WORK_ROUND_UNITS 6.75
#define CLC_WORK_DIV32_ROUND_UNITS 5.75

/* One line of the waterfall: the bandwidth after this layer. */
struct clc_model_layer {
    const char *name;   /* its row's name in the table of layers ("l1" for the banks layer
                         * where global loads' lines keep the L1's pipe busiest) */
    enum clc_bound bound; /* what binds where this layer costs the most */
    bool timed;         /* sets a time of its own when it binds (clc_layer_def) */
    double factor;      /* on the line above, 0..1 */
    double gbps;        /* after it */
    char why[96];       /* its figures, e.g. "8.0 KiB in flight per CU" */
};

/* What a layer function reads and writes: the row, the profile, the DRAM bytes and the time
 * so far (predict.c). */
struct clc_layer_state;

/* A row of the table of layers: the model's waterfall runs them in the table's order.  A
 * layer that is not timed is a factor on the bandwidth above it (weighed by itself when the
 * bound is picked); a timed one sets a time of its own when it binds, whatever the layers
 * above left (weighed by all the factors down to it).  fn returns the layer's factor and
 * fills its why (it may rename the layer and change its bound); it reads and updates the
 * state, the time so far included. */
struct clc_layer_def {
    const char *name;   /* "ceiling", "granules", "scatter", "inflight", "banks", "lines",
                         * "split", "groups", "compute", "work", "refill", "apart",
                         * "launch" */
    enum clc_bound bound;
    bool timed;
    double (*fn)(struct clc_layer_state *s, struct clc_model_layer *l);
};

/* The table of layers, from the peak down, and its length in *n. */
const struct clc_layer_def *clc_model_layers(size_t *n);

struct clc_prediction {
    double gbps;                  /* predicted, in the row's bytes counted; NAN: none */
    enum clc_bound bound;
    double dram_read_bytes;       /* per launch */
    double dram_write_bytes;
    double peak_gbps;             /* the waterfall's top */
    size_t n_layers;
    struct clc_model_layer layer[CLC_MODEL_LAYERS];
    char note[96];                /* why there is no prediction */
    char hint[320];               /* a remedy the row's own figures point at, where the layer
                                   * that binds found one; "" none */
};

/* Predicts row r (its bytes counted, type, metric and model.features) on profile p.  Returns
 * true with out filled, or false with out->note saying why not (no trace, not a bandwidth
 * row, a cache-resident row on a profile of DRAM ceilings, no ceiling in the profile). */
bool clc_predict(const struct clc_profile *p, const struct clc_result *r,
                 struct clc_prediction *out);

/* Sets r->model's gbps, bound and dram_* from a prediction on p (NAN and "" when
 * there is none).  Returns what clc_predict returns; pr (may be NULL) gets the prediction. */
bool clc_predict_row(const struct clc_profile *p, struct clc_result *r, struct clc_prediction *pr);

/* The features of a traced row: m (the trace's analysis), the launch's work-items per group
 * and groups, the kernel's registers (-1 unknown) and local bytes, the device meta. */
void clc_model_features_make(struct clc_model_features *f, const struct clc_model *m,
                             size_t group_items, size_t groups, int registers,
                             size_t local_bytes, const struct clc_device_meta *d);

/* Sets f->accessed: the bytes the traced requests access per byte the row counts, from the
 * analysis m (scaled to the launch) and the launch's counted bytes; unknown (NAN) when the
 * trace was cut short or counted is 0. */
void clc_model_features_count(struct clc_model_features *f, const struct clc_model *m,
                              uint64_t counted);

/* The model's target: the measurement within 20 % of the prediction. */
#define CLC_MODEL_WITHIN 0.20

/* Whether row r has both a measurement and a prediction to hold against each other. */
static inline bool clc_model_compared(const struct clc_result *r)
{
    return r->status == CLC_STATUS_OK && r->value > 0 && r->model.gbps > 0;
}

/* A report's compared rows: how many, how many within CLC_MODEL_WITHIN, and the geometric
 * mean of measured / predicted (NAN for none). */
struct clc_model_summary {
    size_t rows;
    size_t within;
    double geomean;
};
void clc_model_summarize(const struct clc_report *rep, struct clc_model_summary *sum);
/* The same over the rows whose model.bound is `bound` (NULL: every row). */
void clc_model_summarize_bound(const struct clc_report *rep, const char *bound,
                               struct clc_model_summary *sum);

/* The rows a report predicted, measured against predicted: one line each (GB/s, predicted,
 * residual, bound) and a summary (rows within 20 %, the geometric mean of measured /
 * predicted). */
void clc_write_model_table(const struct clc_report *rep, FILE *f);

/* Prints the waterfall, one line per layer, and `measured` beside the prediction when it is
 * a number. */
void clc_print_waterfall(FILE *f, const struct clc_prediction *pr, double measured);

#endif
