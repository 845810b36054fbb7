/* predict.c - the predictive model: a row's GB/s from its access features and the device
 * profile, layer by layer (predict.h says what each layer reads). */
#include "clcoalesce/predict.h"

#include <math.h>
#include <string.h>

/* A work-item that loads on and on without storing (a loop that sums) keeps as many loads in
 * flight as the compiler unrolls its loop by, which its trace cannot show: the model takes 4,
 * NVIDIA's compilers' usual unroll of such loops. */
#define CLC_MODEL_LOOP_LOADS 4.0

const char *clc_bound_name(enum clc_bound b)
{
    static const char *const names[] = {"",      "dram",  "sectors", "inflight", "banks", "launch",
                                        "lines", "groups", "split",  "l1",
                                        "compute", "l2", "refill", "work", "random"};
    return (unsigned)b < sizeof names / sizeof names[0] ? names[b] : "";
}

const char *clc_bound_remedy(enum clc_bound b)
{
    switch (b) {
    case CLC_BOUND_DRAM:
        return "DRAM streams the bytes the kernel needs at its measured ceiling: the pattern "
               "wastes nothing, and only moving fewer bytes makes it faster.";
    case CLC_BOUND_SECTORS:
        return "DRAM moves granules the kernel does not use, or scattered ones, which it "
               "moves slower. Let neighbouring work-items touch neighbouring addresses, or "
               "stage a tile in __local so that both sides are read and written in rows.";
    case CLC_BOUND_RANDOM:
        return "most of the granules DRAM reads, a gather's loads take at random: each a "
               "request of its own to the L2 and a granule of DRAM that the warp uses a few "
               "bytes of, at the rate the scatter case's random rows measured. Sort or block "
               "the indices so that a warp's lanes gather from the same lines, or lay the "
               "data out in the order it is gathered.";
    case CLC_BOUND_INFLIGHT:
        return "too few bytes in flight to cover DRAM's latency (Little's law). Give each "
               "work-item more independent loads (several elements, a vector type), or keep "
               "more work-items resident (fewer registers or less __local a work-group).";
    case CLC_BOUND_BANKS:
        return "local memory serves a request in as many passes as the most distinct words "
               "any of its banks holds. Pad a tile's rows (a pitch of 33 for 32) or walk it "
               "along its rows.";
    case CLC_BOUND_L1:
        return "the L1 returns a load a line at a time, so a warp whose lanes touch many "
               "lines takes as many passes. Let a warp's lanes load from the same lines.";
    case CLC_BOUND_LINES:
        return "the L2 serves a warp's load a sector at a time and its store a line at a "
               "time, and each sector a store writes in part apart. Let each warp use whole "
               "lines: neighbouring lanes on neighbouring elements, or a tile staged through "
               "__local (transpose tiled).";
    case CLC_BOUND_SPLIT:
        return "a lane wider than 16 bytes stores in pieces, each filling part of its "
               "sectors. Store at most 16 bytes a lane (float4, double2).";
    case CLC_BOUND_GROUPS:
        return "the device starts work-groups at a rate of its own, and these are many and "
               "short. Give each work-group more to do (a grid-stride loop) or make it larger.";
    case CLC_BOUND_COMPUTE:
        return "the arithmetic takes longer than the memory traffic at the device's measured "
               "FMA rate: memory is not the limit. Do fewer operations per element (hoist "
               "what does not change, use fused multiply-adds), or use float where double "
               "is not needed.";
    case CLC_BOUND_L2:
        return "the L2 writes what the kernel stores and what DRAM brings in at one rate of "
               "its own, and this kernel stores more than DRAM reads (a second pass over its "
               "output, zeroing before adding). Store each element once: fuse the passes and "
               "keep what is built up in registers or __local.";
    case CLC_BOUND_REFILL:
        return "each warp fills its lines over many steps, a load or more between, or "
               "leaves them to work-groups a grid row or more later, and while the device "
               "moves that much through the L2 it writes the lines back in part and reads "
               "them again from DRAM. Let each store write whole sectors and each work-group "
               "whole lines: stage a tile in __local and store it in rows, or fill a line in "
               "fewer steps.";
    case CLC_BOUND_WORK:
        return "the work-items' integer work (index arithmetic, loops, divisions) takes about "
               "as long as their memory traffic or longer. Compute indices with shifts and "
               "masks rather than divisions, hoist what a work-group shares out of loops, or "
               "give each work-item more elements for the same index work.";
    case CLC_BOUND_LAUNCH:
        return "the launch's fixed cost is much of the time. Move more bytes a launch.";
    case CLC_BOUND_NONE:
        break;
    }
    return "";
}

/* ------------------------------------------------------------------ the features */

/* Occupancy: the work-items a compute unit holds at once, from the work-groups each of its
 * limits allows, and no more than the launch has per compute unit; NAN when the device's
 * facts are unknown (a CPU). */
static double occupancy(const struct clc_model_features *f, int cus, int threads, int groups,
                        int regs, uint64_t local)
{
    if (threads <= 0 || cus <= 0 || !(f->group_items > 0))
        return NAN;
    double per_cu = floor(threads / f->group_items);
    if (groups > 0)
        per_cu = fmin(per_cu, groups);
    if (f->local_bytes > 0 && local > 0)
        per_cu = fmin(per_cu, floor((double)local / f->local_bytes));
    if (f->registers > 0 && regs > 0)
        per_cu = fmin(per_cu, floor(regs / (f->registers * f->group_items)));
    per_cu = fmin(per_cu, ceil(f->groups / cus));
    return fmax(per_cu, 1.0) * f->group_items;
}

void clc_model_features_make(struct clc_model_features *f, const struct clc_model *m,
                             size_t group_items, size_t groups, int registers,
                             size_t local_bytes, const struct clc_device_meta *d)
{
    clc_model_features_clear(f);
    double useful = (double)(m->load.useful + m->store.useful);
    if (!(useful > 0))
        return;
    f->valid = true;
    /* each direction's granules per byte of its sample, weighted by that direction's share
     * of the useful bytes in the traced warps */
    double share[2] = {(double)m->load.useful / useful, (double)m->store.useful / useful};
    for (unsigned dir = 0; dir < 2; dir++)
        for (unsigned g = 0; g < CLC_MODEL_GRANULES; g++)
            for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
                f->dram[dir][g][c] = m->granule_useful[dir]
                                         ? (double)m->granules[dir][g][c] *
                                               clc_model_granule_bytes(g) /
                                               (double)m->granule_useful[dir] * share[dir]
                                         : 0;
    for (unsigned g = 0; g < CLC_MODEL_GRANULES; g++) {
        f->dram_random[g] = m->granule_useful[0] ? (double)m->random[g] *
                                                       clc_model_granule_bytes(g) /
                                                       (double)m->granule_useful[0] * share[0]
                                                 : 0;
        f->dram_bunched[g] = m->granule_useful[1] ? (double)m->bunched[g] *
                                                        clc_model_granule_bytes(g) /
                                                        (double)m->granule_useful[1] * share[1]
                                                  : 0;
        f->dram_bunched_loads[g] = m->granule_useful[0]
                                       ? (double)m->bunched_loads[g] *
                                             clc_model_granule_bytes(g) /
                                             (double)m->granule_useful[0] * share[0]
                                       : 0;
    }
    f->l2_per_useful = (double)(m->load.sectors + m->store.sectors) * CLC_MODEL_SECTOR / useful;
    f->load_lines = (double)m->load.new_lines / useful;
    f->store_lines = (double)m->store.new_lines / useful;
    f->store_sectors = (double)m->store.sectors / useful;
    f->store_partial = (double)m->store.partial_sectors / useful;
    f->store_follow_partial = (double)m->store.follow_partial / useful;
    f->store_follow_lines = (double)m->store.follow_lines / useful;
    f->store_follow_lines_per_request =
        m->store.follow_requests
            ? (double)m->store.follow_lines / (double)m->store.follow_requests
            : NAN;
    f->load_sectors = (double)m->load.new_sectors / useful;
    f->load_reused_lines = (double)m->load.reused_lines / useful;
    f->load_reused_sectors = (double)m->load.reused_sectors / useful;
    f->load_group_lines = (double)m->load.group_lines / useful;
    f->store_shared_requests = (double)m->store.shared_requests / useful;
    f->store_shared_lines = (double)m->store.shared_lines / useful;
    f->store_shared_partial = (double)m->store.shared_partial / useful;
    f->store_shared_bytes = (double)m->store.shared_useful / useful;
    f->store_open_sectors = m->store.open_sectors / useful;
    f->store_open_bytes =
        m->store.open_sectors > 0 ? m->store.open_bytes / m->store.open_sectors : NAN;
    f->store_open_lane_bytes =
        m->store.open_sectors > 0 ? m->store.open_lane_bytes / m->store.open_sectors : NAN;
    f->store_spread = m->store_spread;
    f->store_far = m->store_far;
    f->reuse_footprint = m->load.reused_lines
                             ? (double)m->load.reuse_footprint / (double)m->load.reused_lines
                             : NAN;
    f->loads_in_flight = m->loads_in_flight;
    f->load_lane_bytes = m->load_lane_bytes;
    f->load_access_bytes = m->load_access_bytes;
    f->store_lane_bytes = m->store_lane_bytes;
    f->stored = (double)m->store.useful / useful;
    f->l1_requests = (double)m->load.requests / useful;
    f->l1_lines = (double)m->load.lines / useful;
    f->local_passes = (double)m->local.passes / useful;
    f->local_accesses = (double)m->local.accesses / useful;
    f->local_passes_per_access =
        m->local.accesses ? (double)m->local.passes / (double)m->local.accesses : NAN;
    f->local_load_passes = m->local.load_requests
                               ? (double)m->local.load_passes / (double)m->local.load_requests
                               : NAN;

    f->group_items = (double)group_items;
    f->groups = (double)groups;
    f->registers = registers > 0 ? registers : NAN;
    f->local_bytes = (double)local_bytes;
    f->resident_per_cu = occupancy(f, d->compute_units, d->threads_per_cu, d->groups_per_cu,
                                   d->regs_per_cu, d->local_per_cu);
}

void clc_model_features_count(struct clc_model_features *f, const struct clc_model *m,
                              uint64_t counted)
{
    /* the sample scaled to the launch counts the idle work-items of its padded groups too,
     * so only a clear difference (a second pass, a broadcast) is one */
    double accessed = counted > 0 ? m->bytes_useful / (double)counted : NAN;
    bool clear = accessed > 1.1 || accessed < 1 / 1.1;
    f->accessed = !m->truncated && clear ? accessed : NAN;
}

/* f's figures per byte the kernel's requests access, as figures per byte its rule counts
 * (f->accessed of those to each counted byte): the layers then charge what the kernel
 * really does for each byte its GB/s counts. */
static struct clc_model_features per_counted(const struct clc_model_features *f)
{
    struct clc_model_features g = *f;
    double a = f->accessed > 0 ? f->accessed : 1.0;
    for (unsigned d = 0; d < 2; d++)
        for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++)
            for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
                g.dram[d][gi][c] *= a;
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++) {
        g.dram_random[gi] *= a;
        g.dram_bunched[gi] *= a;
        g.dram_bunched_loads[gi] *= a;
    }
    double *per_byte[] = {&g.l2_per_useful, &g.load_lines,         &g.store_lines,
                          &g.store_sectors,
                          &g.store_partial, &g.store_follow_partial, &g.store_follow_lines,
                          &g.load_sectors,  &g.load_reused_lines,
                          &g.load_reused_sectors, &g.load_group_lines,
                          &g.store_shared_requests, &g.store_shared_lines,
                          &g.store_shared_partial, &g.store_shared_bytes,
                          &g.store_open_sectors, &g.stored,
                          &g.l1_requests,
                          &g.l1_lines,      &g.local_passes,       &g.local_accesses};
    for (size_t i = 0; i < sizeof per_byte / sizeof per_byte[0]; i++)
        *per_byte[i] *= a;
    return g;
}

/* ------------------------------------------------------------------ the layers */

bool clc_profile_store_costs(double store_lines_per_s, double fill_32_gbps, double *line_ps,
                             double *partial_ps)
{
    double both = 1e12 / store_lines_per_s;
    *line_ps = both;
    *partial_ps = 0;
    if (!(store_lines_per_s > 0) || !(fill_32_gbps > 0))
        return false;
    /* per byte the fill stores: 1 / 64 of a line request, 1 / 16 of a partial sector */
    const double lines = 1.0 / 64, sectors = 1.0 / 16;
    double part = (1e3 / fill_32_gbps - lines * both) / (sectors - lines);
    if (!(part > 0 && part < both))
        return false;
    *partial_ps = part;
    *line_ps = both - part;
    return true;
}

/* A profile's DRAM efficiency e where it measured one (a loss, or a gain its rows' spread
 * can make), else `otherwise`. */
static double measured_eff(double e, double otherwise)
{
    return e > 0 && e <= 1.5 ? e : otherwise;
}

/* The profile's efficiency of gap class c; 1 where it did not measure one. */
static double gap_eff(const struct clc_profile *p, unsigned c)
{
    return measured_eff(p->gap_eff[c], 1.0);
}

/* The profile's efficiency of gap class c for loads (dir 0) or stores (1), where it measured
 * them apart; else the class's for both. */
static double gap_eff_dir(const struct clc_profile *p, unsigned dir, unsigned c)
{
    return measured_eff(p->gap_eff_dir[dir][c], gap_eff(p, c));
}

static unsigned granule_index(const struct clc_profile *p)
{
    for (unsigned g = 0; g < CLC_MODEL_GRANULES; g++)
        if (p->granule == clc_model_granule_bytes(g))
            return g;
    return 0; /* unknown: the 32-byte sector, the least DRAM can move */
}

/* L1 capacity: a line a warp's last load touched is still in L1 at its next load only when
 * the lines every resident warp keeps meanwhile (each as many as its last load touched) fit
 * in the L1 the latency sweep measured; else each reuse is a new request to the L2.  A
 * chunk per work-item walked in steps keeps a line per lane: 64 warps of 32 lines is
 * 256 KiB, past a 128-KiB L1, where 16 such warps fit. */
static bool l1_evicts(const struct clc_profile *p, const struct clc_model_features *f,
                      double resident)
{
    double warps = resident / CLC_MODEL_WARP;
    return p->l1_bytes > 0 && f->load_reused_lines > 0 && f->reuse_footprint > 0 &&
           warps * f->reuse_footprint * CLC_MODEL_LINE > p->l1_bytes;
}

/* L2 capacity: the sectors a warp's load takes again from those its last load touched, and
 * the sectors a store writes in part, are merged in the L2 only while it holds what every
 * resident warp of the device keeps meanwhile (each as many lines as its last load touched,
 * and as many again for stores that write sectors in part).  Past the L2, each such sector is read
 * from DRAM again, a granule of its own: a chunk per work-item walked in 16-byte steps by
 * all 132 x 64 warps of an H100 keeps 132 x 64 x 64 lines, 69 MB, past its 50 MB.  Returns
 * those bytes per useful byte (0: the L2 holds them, or its size is unknown). */
static double l2_rereads(const struct clc_profile *p, const struct clc_model_features *f,
                         double resident, double rd, double wr)
{
    if (!(p->l2_bytes > 0) || !(p->compute_units > 0) || !(rd > 0) ||
        !(f->reuse_footprint > 0) || !(f->load_reused_sectors > 0))
        return 0;
    double partial = f->store_partial > 0 ? f->store_partial : 0;
    /* a store that writes its sectors in part keeps them in the L2 too, till the rest comes
     * (as many lines as its loads, as in a copy); whole sectors leave */
    double lines = f->reuse_footprint * (partial > 0 ? (rd + wr) / rd : 1.0);
    double kept = p->compute_units * resident / CLC_MODEL_WARP * lines * CLC_MODEL_LINE;
    if (!(kept > (double)p->l2_bytes))
        return 0;
    return (f->load_reused_sectors + partial) * (p->granule > 0 ? p->granule : CLC_MODEL_SECTOR);
}

/* What the layers read and write as the waterfall goes down: the row, the profile, the
 * DRAM bytes the trace moves and the time so far.  Filled by prepare(), then by each layer
 * in the table's order. */
struct clc_layer_state {
    const struct clc_profile *p;
    const struct clc_result *r;
    const struct clc_model_features *f;
    struct clc_prediction *pr;
    double useful;     /* the row's bytes counted */
    unsigned gi;       /* the profile's granule, as an index of model.h's sizes */
    double rd, rd_eff; /* DRAM bytes read per useful byte, and weighed by their gaps' */
    double wr, wr_eff; /* efficiencies; written likewise */
    double streamed;   /* the loads of the kernel's own pattern, which stores ride on */
    double random;     /* of rd, a gather's lone granules, which DRAM serves at random */
    double bunched;    /* of wr, a tile's rows stored a matrix row apart, at their own rate */
    double bunched_ld; /* of rd, a tile's rows loaded so */
    double resident;   /* work-items per compute unit */
    double reread;     /* of rd, what the L2 cannot hold and DRAM reads again (l2_rereads) */
    double ms;         /* the time so far: set before the first timed layer, from the
                        * bandwidth the layers above leave; NAN till then */
};

/* The first layer: the profile's stream ceiling for the row's mix of loads and stores, as a
 * factor on the peak (which it sets: the waterfall's top). */
static double layer_ceiling(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    double rd = s->rd, wr = s->wr;
    double ceiling = rd > 0 && wr > 0 ? p->copy_gbps : rd > 0 ? p->read_gbps : p->write_gbps;
    const char *which = rd > 0 && wr > 0 ? "copy" : rd > 0 ? "read" : "write";
    if (!(ceiling > 0))
        ceiling = p->copy_gbps;
    s->pr->peak_gbps = p->peak_gbps > 0 ? p->peak_gbps : ceiling;
    snprintf(l->why, sizeof l->why, "stream %s, measured", which);
    return ceiling / s->pr->peak_gbps;
}

/* The bound of the granules and scatter layers: `random` where most of the granules DRAM
 * reads are a gather's at random, whose limit is the L2's requests as much as DRAM's bytes
 * (Nsight Compute on the H100: the L2 72-85 % busy, DRAM 61-63 %, in all twelve random gathers
 * of the first and fifth validation sets); `sectors` otherwise. */
static enum clc_bound granule_bound(const struct clc_layer_state *s)
{
    return s->random > 0.5 * s->rd ? CLC_BOUND_RANDOM : CLC_BOUND_SECTORS;
}

/* Granules: useful bytes over the DRAM bytes the kernel moves. */
static double layer_granules(struct clc_layer_state *s, struct clc_model_layer *l)
{
    l->bound = granule_bound(s);
    snprintf(l->why, sizeof l->why, "%.2f B of %u-B granules per useful B", s->rd + s->wr,
             clc_model_granule_bytes(s->gi));
    /* a row that counts the distinct bytes its launch moves moves at least those: never
     * above its mix's ceiling, whatever the trace's sample saw reused */
    if (strcmp(s->r->bytes_rule, CLC_BYTES_DISTINCT) == 0 && s->rd + s->wr < 1) {
        snprintf(l->why, sizeof l->why, "%.2f B of %u-B granules per useful B, at least the "
                 "distinct bytes", s->rd + s->wr, clc_model_granule_bytes(s->gi));
        return 1.0;
    }
    return 1.0 / (s->rd + s->wr);
}

/* Scatter: the granules at their gap classes' efficiencies, a gather's at random. */
static double layer_scatter(struct clc_layer_state *s, struct clc_model_layer *l)
{
    l->bound = granule_bound(s);
    double ld = gap_eff_dir(s->p, 0, CLC_MODEL_GAPS - 1), st = gap_eff_dir(s->p, 1, CLC_MODEL_GAPS - 1);
    if (s->random > 0)
        snprintf(l->why, sizeof l->why, "%.0f %% of the loads' granules at random (%.0f %% of "
                 "streamed)", 100.0 * s->random / s->rd, 100.0 * s->p->random_eff);
    else if (ld != st)
        snprintf(l->why, sizeof l->why, "lone granules at %.0f %% of streamed (loads), %.0f %% "
                 "(stores)", 100.0 * ld, 100.0 * st);
    else
        snprintf(l->why, sizeof l->why, "lone granules at %.0f %% of streamed", 100.0 * ld);
    size_t n = strlen(l->why);
    if (s->bunched > 0 && n < sizeof l->why)
        n += (size_t)snprintf(l->why + n, sizeof l->why - n,
                              "; tile rows %.0f %% of stores, at %.0f %%",
                              100.0 * s->bunched / s->wr, 100.0 * s->p->bunched_eff);
    if (s->bunched_ld > 0 && n < sizeof l->why)
        snprintf(l->why + n, sizeof l->why - n, "; %.0f %% of loads, at %.0f %%",
                 100.0 * s->bunched_ld / s->rd, 100.0 * s->p->bunched_load_eff);
    return (s->rd + s->wr) / (s->rd_eff + s->wr_eff);
}

/* The elements a work-item loads, one after the other: the row's loaded bytes over its
 * work-items and the bytes a lane's load reads (its sector bytes in a row from before those
 * were traced); 1 where the launch is not known. */
static double elements_per_item(const struct clc_layer_state *s)
{
    const struct clc_model_features *f = s->f;
    double items = f->groups * f->group_items;
    double read = f->load_access_bytes > 0 ? f->load_access_bytes : f->load_lane_bytes;
    double k = s->useful * (1 - f->stored) / (items * read);
    return k > 1 && isfinite(k) ? k : 1;
}

/* The bytes a lane of a copy keeps in flight: its load's sector bytes, which the copies of
 * the profile (coalesced, aligned) also bring, except where they exceed what the lane reads
 * and DRAM sends fewer, whose sectors other warps ask for too: a misaligned warp's fifth
 * sector, which the next warp's load holds, DRAM sends once.  There the DRAM bytes the lane
 * reads (its access bytes x the row's DRAM reads per loaded useful byte), never fewer than
 * it reads; within COPY_EDGE of them, what it reads: the sample's first and last granules,
 * which work-groups outside it share, add a sliver (1.2e-4 of a misaligned copy's bytes),
 * and a double's lane would cross from the 8-byte copy to the wider lanes' rule by it.  A
 * row from before the access bytes were traced: its sector bytes. */
#define COPY_EDGE 0.01

static double copy_lane_bytes(const struct clc_layer_state *s)
{
    const struct clc_model_features *f = s->f;
    double sectors = f->load_lane_bytes, access = f->load_access_bytes;
    if (!(access > 0) || !(sectors > access) || !(f->stored < 1) || !(s->rd > 0))
        return sectors;
    double dram = access * s->rd / (1 - f->stored);
    return dram <= access * (1 + COPY_EDGE) ? access : fmin(sectors, dram);
}

/* A copy (each load's element stored before the next load) at full residency is read off
 * the profile's own copies of one element per work-item, by its lane bytes
 * (copy_lane_bytes, in log scale between 4 and 8; wider lanes reach at least the 8-byte
 * copy) and its work-group size: its work-items leave as they store and new ones load
 * meanwhile, which the inflight loops, loading only, do not show, but a larger group frees
 * its place only when its last work-item is done. One staged through __local (a tile of a
 * transpose) is read off the copies staged alike, whose barrier holds every store of a
 * group behind its slowest load: with one element a work-item, the staged copies' own
 * figure; with more loaded before the barrier, the group's life of a fixed part and a part
 * per element that the staged copies of one and of four elements give (clc_profile_staged),
 * where it is below the loops' (the loops have no barrier); with `held` elements a
 * work-item its code loads one at a time (loads as compiled: 1), the same life at what
 * waiting so costs the profile's held tile transpose (clc_profile_staged: on an H200 0.84 of
 * the same tile's rate with its loads together, in floats), or where the profile has no such
 * figure the straight copies' time per element.  A straight copy whose work-items copy several
 * elements one after the other spreads each work-item's start and end over them
 * (clc_profile_long_copy): on the H200 a grid-stride copy whose work-groups all stay
 * resident ran 9-10 % above the copy of one element a work-item, on the H100 no faster.
 * Returns the inflight factor u, or the copy's where that applies (with its why). */
static double inflight_copy(const struct clc_layer_state *s, double loads, double held,
                            double u, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    const struct clc_model_features *f = s->f;
    bool staged = f->local_accesses > 0;
    double lane = copy_lane_bytes(s), group = f->group_items;
    if (s->r->in_flight > 0 || !(s->rd > 0 && s->wr > 0) || !(p->threads_per_cu > 0) ||
        !(s->resident >= p->threads_per_cu))
        return u;
    double shown = group > 0 ? group : 32 << CLC_PROFILE_ONE_PASS_GROUP;
    double c = staged && loads <= 1 && held > 1 ? clc_profile_staged(p, lane, group, held, true)
                                                : NAN;
    if (c > 0) {
        snprintf(l->why, sizeof l->why,
                 "%.0f x %.1f x %.0f B one at a time before a barrier, groups of %.0f: a staged "
                 "copy (%.0f %%)", s->resident, held, lane, shown, 100 * c);
        return fmin(1.0, c);
    }
    if (loads <= 1) {
        c = clc_profile_one_pass(p, lane, group,
                                 staged ? CLC_ONE_PASS_STAGED : CLC_ONE_PASS_STRAIGHT);
        double k = staged ? 1 : elements_per_item(s);
        if (c > 0 && k > 1)
            c = clc_profile_long_copy(p, c, k);
        if (c > 0 && (lane <= 8 || c > u)) {
            u = fmin(1.0, c);
            snprintf(l->why, sizeof l->why,
                     "%.0f x %.0f B lanes, groups of %.0f, %.1f elements a work-item: a %scopy "
                     "(%.0f %%)", s->resident, lane, shown, k, staged ? "staged " : "", 100 * c);
        }
    } else if (staged) {
        c = clc_profile_staged(p, lane, group, loads, false);
        if (c > 0 && c < u) {
            u = c;
            snprintf(l->why, sizeof l->why,
                     "%.0f x %.1f x %.0f B before a barrier, groups of %.0f: a staged copy "
                     "(%.0f %%)", s->resident, loads, lane, shown, 100 * c);
        }
    }
    return u;
}

/* Little's law: the resident work-items per compute unit, each keeping its loads of
 * its lane bytes in flight, on the profile's grid of read bandwidth over those three (its
 * envelope over the bytes in flight alone where it has no grid), as a fraction of the
 * read ceiling: the kernel reaches that fraction of its own ceiling.  A case that
 * declares its bytes in flight (inflight) is taken at its word.  Only loads wait in
 * flight: stores leave at once, so a kernel that also stores keeps DRAM as busy as one
 * that only loads with (loads + stores) / loads times the work-items (`ride`), with a
 * barrier between its loads and its stores too (__local staging), which waits for the
 * stores to leave, not to land: a transpose walking 8 tiles a work-group at 5 groups a
 * compute unit ran as fast loading one element at a time (OpenCL) as four (CUDA), which
 * the loads alone cannot reach (bench/results/h100/validation/whole-tiles/).  A work-item
 * keeps the loads its trace shows in a row, or fewer where its code, as compiled, waits for
 * a load before it issues the next (a load stored into __local under a guard the compiler
 * branched around: clc_ptx_loads_in_flight).  At full residency, a copy's own rows
 * (inflight_copy). */
static double layer_inflight(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    const struct clc_model_features *f = s->f;
    double resident = s->resident, in_flight = s->r->in_flight;
    double u = 1.0;
    double loads = fmin(f->loads_in_flight, CLC_MODEL_LOOP_LOADS), traced = loads;
    bool compiled = f->compiled_loads >= 1 && f->compiled_loads < loads;
    if (compiled) /* the code waits for some before it issues the next (model.h) */
        loads = f->compiled_loads;
    if (in_flight > 0)
        loads = in_flight / (resident * f->load_lane_bytes);
    double x = in_flight > 0 ? in_flight : resident * loads * f->load_lane_bytes;
    double ride = s->streamed > 0 ? (s->streamed + s->wr) / s->streamed : 1;
    double at = clc_profile_inflight_at(p, resident * ride, loads, f->load_lane_bytes);
    if (!(at > 0))
        at = clc_profile_inflight_gbps(p, x * ride);
    if (s->rd > 0 && x > 0 && at > 0 && p->read_gbps > 0)
        u = fmin(1.0, at / p->read_gbps);
    if (isfinite(x) && ride > 1)
        snprintf(l->why, sizeof l->why, "%.0f x %.1f x %.0f B in flight, x%.1f for stores",
                 resident, loads, f->load_lane_bytes, ride);
    else if (isfinite(x))
        snprintf(l->why, sizeof l->why, "%.0f x %.1f x %.0f B in flight%s: %.1f KiB per CU",
                 resident, loads, f->load_lane_bytes, compiled ? " as compiled" : "",
                 x / 1024);
    else
        snprintf(l->why, sizeof l->why, "no occupancy known");
    return inflight_copy(s, loads, compiled ? traced : 0, u, l);
}

/* The L1's data pipe, which local memory shares on a GPU: each local request and its
 * passes, and each global load request with a pass per line it touches (the L1 returns
 * a load a line at a time: a warp whose lanes walk 32 rows takes 32), at the local
 * memory's rates, against the global traffic's time.  Result files from before the load
 * lines were recorded give local memory alone.  Named, and bound, after what keeps the
 * pipe busiest: a kernel without __local sees its loads' lines here (l1), not banks. */
static double layer_banks(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    const struct clc_model_features *f = s->f;
    double l1_requests = f->l1_requests > 0 ? f->l1_requests : 0;
    double l1_lines = f->l1_lines > 0 ? f->l1_lines : 0;
    double ms_local = 0, ms_mem = s->ms;
    if (p->local_pass_ps > 0 && (f->local_accesses > 0 || l1_lines > 0))
        ms_local = s->useful * ((f->local_accesses / CLC_MODEL_WARP + l1_requests) *
                                    p->local_request_ps +
                                (f->local_passes + l1_lines) * p->local_pass_ps) * 1e-9;
    s->ms = fmax(ms_mem, ms_local);
    if (l1_lines > f->local_passes) {
        l->name = "l1";
        l->bound = CLC_BOUND_L1;
    }
    double lines_per_load = l1_requests > 0 ? l1_lines / l1_requests : 0.0;
    if (f->local_accesses > 0)
        snprintf(l->why, sizeof l->why, "%.2f passes per local access, %.1f lines per load",
                 f->local_passes_per_access > 0 ? f->local_passes_per_access : 0.0,
                 lines_per_load);
    else
        snprintf(l->why, sizeof l->why, "%.1f lines per load request, a pass each; no __local",
                 lines_per_load);
    return ms_mem / s->ms;
}

/* The lines layer's why: useful bytes per load unit and per store line, the sectors a store
 * writes in part, the reuse that the L1 cannot keep, the runs' merging factor (merge, where
 * one applies) and what the bunched stores' write-back adds to the stores' time (back). */
static void lines_why(const struct clc_layer_state *s, double load_units, double partial,
                      bool evicted, double merge, double back, struct clc_model_layer *l)
{
    const struct clc_model_features *f = s->f;
    char *why = l->why;
    if (!(s->p->load_lines_per_s > 0 || s->p->store_lines_per_s > 0)) {
        snprintf(why, sizeof l->why, "no line rates measured");
        return;
    }
    int n = snprintf(why, sizeof l->why, "useful B per load %s: %.0f, per store line: %.0f",
                     f->load_sectors > 0 ? "sector" : "line",
                     load_units > 0 ? 1 / load_units : 0.0,
                     f->store_lines > 0 ? 1 / f->store_lines : 0.0);
    if (partial > 0 && f->store_lines > 0 && n > 0 && (size_t)n < sizeof l->why)
        n += snprintf(why + n, sizeof l->why - (size_t)n, " (%.1f sectors in part)",
                      partial / f->store_lines);
    if (evicted && n > 0 && (size_t)n < sizeof l->why)
        n += snprintf(why + n, sizeof l->why - (size_t)n, "; reuse past L1 (%.0f KiB)",
                      s->p->l1_bytes / 1024);
    if (merge >= 0 && merge < 1 && n > 0 && (size_t)n < sizeof l->why)
        n += snprintf(why + n, sizeof l->why - (size_t)n, "; runs merged to %.2f (%.0f lines%s)",
                      merge, f->store_follow_lines_per_request,
                      f->stores_combined == 0 ? ", stores apart" : "");
    if (back > 0 && n > 0 && (size_t)n < sizeof l->why)
        snprintf(why + n, sizeof l->why - (size_t)n, "; write-back +%.0f %%", 100 * back);
}

/* A run stored an element a request: the requests after its first, writing in part sectors
 * their warp's last store wrote, cost the profile's merging factor for their lines (the runs
 * case's stores), from __local's where the kernel stages through it, and from the rows whose
 * stores stay apart where its build does not issue a run's stores back to back
 * (stores_combined 0: each element tested first, a predicate each), which merge less:
 * `scale_local_chunk4_out` of the fourth set, four floats a lane from __local, each
 * tested, ran at 1416 GB/s on an H100, where the same runs stored together run at the copy
 * ceiling.  A profile without the apart rows lends the others'.  NAN where none does;
 * *together (may be NULL): the factor of the rows stored together, for the hint. */
static double runs_merge(const struct clc_layer_state *s, double *together)
{
    const struct clc_model_features *f = s->f;
    double both = NAN, apart = NAN;
    if (f->store_follow_partial > 0 && f->store_follow_lines > 0) {
        bool staged = f->local_accesses > 0;
        double lines = f->store_follow_lines_per_request;
        both = clc_profile_merge(s->p, lines, clc_profile_merge_table(staged, false));
        if (f->stores_combined == 0)
            apart = clc_profile_merge(s->p, lines, clc_profile_merge_table(staged, true));
    }
    if (together != NULL)
        *together = both;
    /* a profile from before the apart rows has none: the rows stored together, as then */
    return apart >= 0 ? apart : both;
}

/* What the loads ask the L2 for per useful byte: the sectors of their lines their warp's
 * last load did not touch (lines, in a file from before sectors were counted), and those it
 * touched too where the L1 cannot keep them (*evicted). */
static double loads_to_l2(const struct clc_layer_state *s, bool *evicted)
{
    const struct clc_model_features *f = s->f;
    double units = f->load_sectors > 0 ? f->load_sectors : f->load_lines;
    *evicted = l1_evicts(s->p, f, s->resident);
    if (*evicted)
        units += f->load_sectors > 0 ? f->load_reused_sectors : f->load_reused_lines;
    return units;
}

/* Store requests whose pieces other warps of the work-group write into the same sectors at
 * the same access, in a kernel that stages through __local, whose warps leave the barrier
 * and store together: the L1 merges many of those pieces before they reach the L2, which the
 * line and sector costs alone do not see (Nsight Compute on the H100: 1.3 line requests and
 * 4.8 sectors a store of `scale_local_square16`, a 16 x 16 tile stored transposed, for 8
 * lines and 16 sectors in part).  Such a request costs what the stores case's rows of as many
 * lines and sectors in part take, whose warps store together too (clc_profile_shared_store_ps;
 * on the H100 at most 76 ps for those 8 and 16, where the two costs give 191: that tile ran at
 * 1992 GB/s, predicted at 1340 by the two costs, at 2218 by the rows).  Warps that load
 * before they store arrive apart and merge little (`tr_vec4_ld_direct`: 15.3 line requests
 * of 16), so they keep the two costs.  ps a request; NAN where the kernel has none or the
 * profile no such rows. */
static double shared_stores_ps(const struct clc_layer_state *s)
{
    const struct clc_model_features *f = s->f;
    double req = f->store_shared_requests;
    if (!(req > 0) || !(f->store_shared_lines > 0) || !(f->store_shared_partial > 0) ||
        !(f->local_accesses > 0))
        return NAN;
    return clc_profile_shared_store_ps(s->p, f->store_lane_bytes, f->store_shared_lines / req,
                                       f->store_shared_partial / req);
}

/* Write-back: stores whose DRAM windows their work-group fills only in part, the rest left
 * to work-groups far later in the launch (the bunched stores: a transpose's rows of out),
 * written while loads share DRAM, take the lines' time and their own DRAM time one after the
 * other, not at once, at the rate the scatter case's tile rows measured (of the stream write
 * ceiling; the ceiling itself where the profile has no such rows).  The transposes without
 * __local, whose stores are such lines, ran 6-38 % below the L2's line rate on the H100
 * (the suite's naive fp32 and fp64, `tr_rows4`, `tr_naive256x1_xwalk`, `tr_vec4_ld_direct`),
 * where such lines stored alone ran at it (bench/results/h200/validation/stores/).  Returns
 * that time in ms (0: none such). */
static double ms_written_back(const struct clc_layer_state *s)
{
    const struct clc_profile *p = s->p;
    double bunched = s->f->dram_bunched[s->gi];
    if (!(bunched > 0) || !(s->rd > 0) || !(p->write_gbps > 0))
        return 0;
    double eff = fmin(measured_eff(p->bunched_eff, 1.0), 1.0);
    return s->useful * bunched / (p->write_gbps * eff) * 1e-6;
}

/* Lines: the L1 asks the L2 for each line a request touches that it does not hold (for a
 * load: that its warp's last load did not touch; every line of a store), and the L2 takes
 * those requests at the rates the scatter case measured, loads and stores each at its own,
 * whatever DRAM does meanwhile.  It serves a load sector by sector (a load of 20 lines and
 * 28 sectors takes 28), which the scatter case, one sector a line, measures alike; a
 * store, line by line, and each sector it writes only in part apart (clc_profile_store_costs).
 * The scatter case's load rows look their sectors up in L1 faster than the L2 could take
 * them all: 7 in 8 are there already, asked for by another warp of the work-group at the same
 * access.  A load's lines that no earlier warp of its work-group asked for at its access
 * reach the L2 each, at the rate its rows of teams of one warp measured.  Result files
 * written before the model counted sectors give lines, and those from before it counted
 * partial sectors, a store's line at the scatter rate whole. */
static double layer_lines(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    const struct clc_model_features *f = s->f;
    double ms_before = s->ms;
    bool evicted;
    double load_units = loads_to_l2(s, &evicted);
    double ms_looked_up =
        p->load_lines_per_s > 0 ? s->useful * load_units / p->load_lines_per_s * 1e3 : 0;
    double ms_missed = p->missed_lines_per_s > 0 && f->load_group_lines > 0
                           ? s->useful * f->load_group_lines / p->missed_lines_per_s * 1e3
                           : 0;
    double ms_loads = fmax(ms_looked_up, ms_missed);
    bool counted = f->store_partial >= 0; /* NAN: a file from before partial sectors */
    double partial = counted ? f->store_partial : 0, line_ps = 0, partial_ps = 0;
    if (p->store_lines_per_s > 0)
        clc_profile_store_costs(p->store_lines_per_s, counted ? p->split_gbps[0] : NAN,
                                &line_ps, &partial_ps);
    double together, merge = runs_merge(s, &together);
    /* the row's own remedy (a factor above the one together: its stores are apart), where
     * it was measured: staged runs, tested, ran at half the speed of untested ones
     * (stores-apart/); from registers alike both ways */
    if (merge > together && f->local_accesses > 0)
        snprintf(s->pr->hint, sizeof s->pr->hint,
                 "each store of a work-item's run has a test of its own (if (i < n)), which "
                 "keeps the stores apart: they merge less in the L1 (a factor of %.2f on a "
                 "request, %.2f back to back). Test the whole run once (if (first + K <= n)), "
                 "store it untested, and take the array's last run element by element.",
                 merge, together);
    double lines = f->store_lines, part = partial;
    if (merge >= 0 && merge < 1) {
        lines -= (1 - merge) * f->store_follow_lines;
        part -= (1 - merge) * f->store_follow_partial;
    }
    double shared_ps = counted ? shared_stores_ps(s) : NAN;
    if (shared_ps > 0) { /* those requests at their own cost, the rest as before */
        lines = fmax(0, lines - f->store_shared_lines);
        part = fmax(0, part - f->store_shared_partial);
    }
    double ms_stores = s->useful * (lines * line_ps + part * partial_ps) * 1e-9;
    if (shared_ps > 0)
        ms_stores += s->useful * f->store_shared_requests * shared_ps * 1e-9;
    double ms_back = ms_stores > 0 ? ms_written_back(s) : 0;
    ms_stores += ms_back;
    s->ms = fmax(s->ms, fmax(ms_loads, ms_stores));
    /* the loads' lookups bind: the L1 is the busy one (the scatter case's load rows keep it
     * 98-99 % busy by Nsight Compute, their L2 a third); the stores, the missed loads'
     * requests and reuse the L1 cannot keep are the L2's */
    if (!evicted && ms_looked_up > ms_before && ms_looked_up >= fmax(ms_missed, ms_stores))
        l->bound = CLC_BOUND_L1;
    lines_why(s, load_units, partial, evicted, merge,
              ms_back > 0 ? ms_back / (ms_stores - ms_back) : 0, l);
    size_t n = strlen(l->why);
    if (shared_ps > 0 && n < sizeof l->why)
        snprintf(l->why + n, sizeof l->why - n, "; pieces the work-group stores together: "
                 "%.0f ps a request of %.0f lines", shared_ps,
                 f->store_shared_lines / f->store_shared_requests);
    return ms_before / s->ms;
}

/* The L2's own throughput.  Its data arrays take what the stores write and what DRAM fills
 * (the sectors the kernel's DRAM reads bring in) at one rate, its store rate, and give the
 * loads their sectors at another: the l2 case measures both on a window it holds, where DRAM
 * fills nothing (16-byte lanes, whole lines; its read rows keep the L1 busier than the L2, so
 * the load rate is a floor).  A copy writes half a sector per 32 useful bytes each way and
 * stays below; a kernel that stores twice what DRAM reads (zeroes then adds, writes then
 * scales in place) fills the L2's writes before DRAM's ceiling.  A run stored an element a
 * request leaves the L1 merged, as the lines layer counts it. */
static double layer_l2(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    const struct clc_model_features *f = s->f;
    double ms_before = s->ms, ld = p->l2_sectors_per_s[0], st = p->l2_sectors_per_s[1];
    bool evicted;
    double loads = loads_to_l2(s, &evicted), stores = f->store_sectors,
           merge = runs_merge(s, NULL);
    if (!(ld > 0) || !(st > 0) || !(stores >= 0) || !(loads >= 0)) {
        snprintf(l->why, sizeof l->why, "%s",
                 !(ld > 0) || !(st > 0) ? "no L2 rates measured"
                                        : "a result file from before stores' sectors were counted");
        return 1.0;
    }
    if (merge >= 0 && merge < 1)
        stores -= f->store_follow_partial;
    if (shared_stores_ps(s) > 0) /* merged in the L1: whole sectors, as many as they fill */
        stores = fmax(0, stores - f->store_shared_partial +
                             f->store_shared_bytes / CLC_MODEL_SECTOR);
    double fills = s->rd / CLC_MODEL_SECTOR;
    double ms = s->useful * fmax(loads / ld, (stores + fills) / st) * 1e3;
    s->ms = fmax(s->ms, ms);
    snprintf(l->why, sizeof l->why, "%.3f sectors stored, %.3f filled, %.3f loaded per useful B",
             stores, fills, loads);
    return ms_before / s->ms;
}

/* Split stores: a GPU instruction stores at most 16 bytes a lane, so a wider lane's
 * store leaves in pieces, each filling part of every sector it touches, and the L2 takes
 * those more slowly than whole sectors.  The row's stored bytes take at least as long as
 * the profile's fill of lanes as wide took for as many. */
static double layer_split(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_model_features *f = s->f;
    double ms_lines = s->ms;
    double split = clc_profile_split_gbps(s->p, f->store_lane_bytes);
    double ms_pieces = split > 0 && f->stored > 0 ? s->useful * f->stored / (split * 1e6) : 0;
    s->ms = fmax(s->ms, ms_pieces);
    if (split > 0)
        snprintf(l->why, sizeof l->why, "%.0f-byte store lanes: a fill of them stores %.0f GB/s",
                 f->store_lane_bytes, split);
    else if (f->store_lane_bytes > CLC_MODEL_WIDEST)
        snprintf(l->why, sizeof l->why, "%.0f-byte store lanes: no fill of them measured",
                 f->store_lane_bytes);
    else
        snprintf(l->why, sizeof l->why, "stores of at most %u bytes a lane: whole",
                 CLC_MODEL_WIDEST);
    return ms_lines / s->ms;
}

/* Groups: the device starts work-groups at a rate of its own, which a launch of many
 * small groups of short work-items reaches before its memory is busy. */
static double layer_groups(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_profile *p = s->p;
    double ms_split = s->ms, groups = s->f->groups;
    double ms_groups = p->groups_per_s > 0 && groups > 0 ? groups / p->groups_per_s * 1e3 : 0;
    s->ms = fmax(s->ms, ms_groups);
    if (p->groups_per_s > 0)
        snprintf(l->why, sizeof l->why, "%.0f work-groups at %.2f G per s", groups,
                 p->groups_per_s * 1e-9);
    else
        snprintf(l->why, sizeof l->why, "no work-group rate measured");
    return ms_split / s->ms;
}

/* Compute: the kernel's arithmetic at the rate the profile's fma rows measured for the
 * row's type (two flops an FMA), which overlaps the memory traffic and so binds only when
 * it takes longer than everything above.  Without flops counted, or a profile from before
 * the fma case, the layer changes nothing and says why. */
static double layer_compute(struct clc_layer_state *s, struct clc_model_layer *l)
{
    double ms_above = s->ms, flops = s->r->flops;
    bool fp64 = s->r->type == CLC_DOUBLE;
    double fma_per_s = s->p->fma_per_s[fp64];
    if (!(flops > 0)) {
        snprintf(l->why, sizeof l->why, "no flops counted (a description's flops line, "
                 "--flops): left out");
        return 1.0;
    }
    if (!(fma_per_s > 0)) {
        snprintf(l->why, sizeof l->why, "the profile has no %s FMA rate (an older one: "
                 "'clcoalesce profile'): left out", fp64 ? "fp64" : "fp32");
        return 1.0;
    }
    double ms = flops / (2 * fma_per_s) * 1e3;
    s->ms = fmax(s->ms, ms);
    snprintf(l->why, sizeof l->why, "%.3g flops, %.2f a byte, at %.1f %s GFLOP/s", flops,
             flops / s->useful, 2 * fma_per_s * 1e-9, fp64 ? "fp64" : "fp32");
    return ms_above / s->ms;
}

/* How work and memory time add up for a row (layer_work): the profile's b for work-items
 * of one load after their work, and of four, between them in log scale by the loads a
 * work-item has in flight as compiled (as traced where the build gives no PTX): more loads
 * in flight after the work hide more of it (bench/results/h100/integer-work/). */
static double work_blend(const struct clc_profile *p, const struct clc_model_features *f)
{
    double loads = f->compiled_loads >= 1 ? f->compiled_loads : f->loads_in_flight;
    if (!(p->work_blend[1] >= 1) || !(loads > 1))
        return p->work_blend[0];
    double at = fmin(1, log2(loads) / 2);
    return p->work_blend[0] + at * (p->work_blend[1] - p->work_blend[0]);
}

/* Work: the integer work a work-item executes (its build's PTX run on the launch's values,
 * clc_ptx_work) at the profile's cost a unit and a division (the indexmath case), past the
 * units of a plain copy of a float a work-item, which the ceilings above already pay for;
 * that time and the memory's add up as the indexmath rows measured, t = (m^b + w^b)^(1/b):
 * work below the memory's time mostly hides (bench/results/h100/integer-work/: 1.9 ps of
 * work an element beside a copy of 3.1 adds 0.1 to 0.4 ps), work past it binds.  Work-items
 * that do the same work share it out over the bytes they move. */
static double layer_work(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_model_features *f = s->f;
    const struct clc_profile *p = s->p;
    double ms_above = s->ms, items = f->groups * f->group_items;
    if (!(f->work_units >= 0) || !(items > 0)) {
        snprintf(l->why, sizeof l->why, "no PTX to count the work in: left out");
        return 1.0;
    }
    if (!(p->work_unit_ps > 0) || !(p->work_blend[0] >= 1)) {
        snprintf(l->why, sizeof l->why, "the profile has no integer work figures (no "
                 "indexmath rows, or too few): left out");
        return 1.0;
    }
    double per_byte = items / s->useful; /* work-items a useful byte */
    double units = fmax(0, f->work_units * per_byte - CLC_WORK_BASE_UNITS / 8);
    double ps = units * p->work_unit_ps; /* a division the profile has no cost for adds none */
    for (int k = 0; k < 2; k++) {
        double divs = k ? f->work_div64 : f->work_div32;
        if (divs > 0 && p->work_div_ps[k] > 0)
            ps += per_byte * divs * p->work_div_ps[k];
    }
    double w = ps * s->useful * 1e-9, b = work_blend(p, f);
    s->ms = w > 0 ? pow(pow(s->ms, b) + pow(w, b), 1 / b) : s->ms;
    snprintf(l->why, sizeof l->why, "%.0f units, %.0f + %.0f divisions a work-item: %.2f ps a "
             "byte, b %.2f", f->work_units, f->work_div32, f->work_div64, ps, b);
    return ms_above / s->ms;
}

/* What a stored sector costs more where work-groups a grid row or more apart complete its
 * line: the scatter case's store_steps_wide row of one step over the narrow one (each lane's
 * line gets an element from each of four work-groups, consecutive in the narrow layout, a
 * block apart in the wide: 512 work-groups at the profile's size), in ps per 64 useful bytes
 * (a stored sector's): the wide rows' figure of no window.  0 where the profile has no wide
 * rows (the narrow row of one step, against itself) or no rows. */
static double far_sector_ps(const struct clc_profile *p, double elem)
{
    double ps = clc_profile_refill_ps(p, elem, 0, true);
    return ps > 0 ? ps : 0;
}

/* Refill: a warp that fills its lines over many of its steps (a lane an element a step, a
 * load between) keeps them open in the L2 while every lane of the device waits for its loads
 * and moves as much; past what the L2 holds, it writes them back in part and DRAM reads them
 * again (the scatter case's store_steps rows on the H100: DRAM moves up to twice the bytes,
 * the L2 at most half busy).  A line stays in the L2 while the bytes the device's lanes load
 * over its window, and the lines they hold open, fit there: per lane, the window's bytes and
 * the share of a line it keeps open.  The store_steps rows give each lane a line of its own;
 * lanes that share their lines hold less (a 64-byte chunk a lane in float4 steps: half a
 * line, and no refill where a window of 48 bytes would cost 40 ps a sector with lines of
 * their own, bench/results/h100/validation/third/), a launch that keeps fewer work-items
 * resident than the device holds fewer.  Each sector's worth of bytes such lines get costs
 * what those rows cost more per stored sector with lines open over the window that fills
 * the L2 as much, added to the time above.  Where the lines the resident warps keep are past
 * the L2 altogether, DRAM's rereads of the sectors stores write in part are counted already
 * (l2_rereads), and this layer adds nothing: `scale_chunk128_float2` of the third set (a line
 * a lane, in float2 steps) ran at 247 GB/s on the H100, predicted 191 with the rereads, 160
 * with this layer's refills on top. */
static double layer_refill(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_model_features *f = s->f;
    double ms_above = s->ms, open = f->store_open_sectors, window = f->store_open_bytes;
    if (!(open > 0) || !(window > 0)) {
        snprintf(l->why, sizeof l->why, "%s",
                 open == 0 ? "no line left open over a load"
                           : "a result file from before open lines were counted");
        return 1.0;
    }
    if (s->reread > 0 && f->store_partial > 0) {
        snprintf(l->why, sizeof l->why, "lines past the L2: read again from DRAM (granules)");
        return 1.0;
    }
    double threads = s->p->threads_per_cu;
    double full = threads > 0 && s->resident > 0 ? fmin(1, s->resident / threads) : 1;
    double held = f->store_open_lane_bytes > 0 ? f->store_open_lane_bytes : CLC_MODEL_LINE;
    double as_rows = fmax(0, (window + held) * full - CLC_MODEL_LINE);
    double elem = (double)clc_type_size(s->r->type);
    double ps = clc_profile_refill_ps(s->p, elem, as_rows, false);
    if (!(ps >= 0)) {
        snprintf(l->why, sizeof l->why, "no store_steps rows measured");
        return 1.0;
    }
    /* stores whose DRAM windows work-groups later in the launch than those running with
     * them complete (a transpose's rows of out, a row of work-groups on) keep lines open all
     * over the buffer at once: the wide rows' cost, for their share (the fifth set's
     * `tr_direct_float2_cols`, half a line a work-group, a float2 load between its two
     * stores into it: 583 GB/s on the H100, 870 predicted at the narrow rows', 759 so) */
    double spread = f->store_spread > 0 ? fmin(1, f->store_spread) : 0;
    double wide = clc_profile_refill_ps(s->p, elem, as_rows, true);
    /* ...less their row of one step's, for the share of the lines the apart layer charges
     * that for (the wide rows themselves: every line) */
    double far = f->store_far > 0 ? fmin(1, f->store_far) : 0;
    if (spread > 0 && wide >= 0)
        ps += spread * (fmax(ps, wide - far * far_sector_ps(s->p, elem)) - ps);
    s->ms += s->useful * open * ps * 1e-9;
    int n = snprintf(l->why, sizeof l->why, "%.4f sectors a useful B into lines open over "
                     "%.0f B loaded, %.0f B a lane: %.1f ps more each", open, window, held, ps);
    if (spread > 0 && n > 0 && (size_t)n < sizeof l->why)
        snprintf(l->why + n, sizeof l->why - (size_t)n, " (%.0f %% of them completed a row "
                 "of work-groups later)", 100 * spread);
    return ms_above / s->ms;
}

/* Apart: a line that the work-groups running together leave in part to work-groups a grid
 * row or more later (store_far: a naive transpose's lines of out, 32 rows of a column, a
 * quarter from each of four work-groups of 8 rows, a row of work-groups apart) stays open
 * in the L2 that long, and each store request into it costs more than one into a line the
 * next work-groups complete.  On the H100, naive transposes of one element a work-item
 * whose four work-groups of a line ran D apart in launch order: 462-474 GB/s for D of 1 to
 * 128, 426 for 512 (a grid row of 16384 floats), 361 for 2048, 341 for 16384; the profile
 * takes the store_steps_wide row of one step (a block apart) for it (far_sector_ps), each
 * element a request, added to the time above. */
static double layer_apart(struct clc_layer_state *s, struct clc_model_layer *l)
{
    const struct clc_model_features *f = s->f;
    double far = f->store_far, ms_above = s->ms;
    double elem = (double)clc_type_size(s->r->type), ps = far_sector_ps(s->p, elem);
    if (!(far > 0) || !(ps > 0)) {
        /* a wide row of one step no slower than the narrow one is a figure too: none more */
        if (far > 0 && clc_profile_has_wide_refills(s->p, elem))
            snprintf(l->why, sizeof l->why, "%.0f %% of store requests into lines left to "
                     "work-groups a row or more on: none more each here", 100 * fmin(1, far));
        else
            snprintf(l->why, sizeof l->why, "%s",
                     isnan(far)   ? "the trace keeps too few stores to tell (or a file from before)"
                     : !(far > 0) ? "every line completed by work-groups that run together"
                                  : "no store_steps_wide rows measured");
        return 1.0;
    }
    double request_ps = ps * elem / CLC_MODEL_SECTOR; /* a sector's bytes: 32 / elem requests */
    s->ms += s->useful * f->store_lines * fmin(1, far) * request_ps * 1e-9;
    snprintf(l->why, sizeof l->why, "%.0f %% of store requests into lines left to "
             "work-groups a row or more on: %.2f ps more each", 100 * fmin(1, far), request_ps);
    return ms_above / s->ms;
}

/* Launch: a fixed cost per launch, added to the time. */
static double layer_launch(struct clc_layer_state *s, struct clc_model_layer *l)
{
    double launch_ms = s->p->launch_us > 0 ? s->p->launch_us * 1e-3 : 0;
    snprintf(l->why, sizeof l->why, "%.1f us per launch", launch_ms * 1e3);
    double factor = s->ms / (s->ms + launch_ms);
    s->ms += launch_ms;
    return factor;
}

/* The layers, from the peak down: a new mechanism is a row here and its function above.
 * A layer that is not timed is a factor on the bandwidth above it; a timed one sets a
 * time of its own when it binds, whatever the layers above left.  The DRAM layer is the
 * ceiling the others are factors on. */
static const struct clc_layer_def layer_table[] = {
    {"ceiling", CLC_BOUND_DRAM, false, layer_ceiling},
    {"granules", CLC_BOUND_SECTORS, false, layer_granules},
    {"scatter", CLC_BOUND_SECTORS, false, layer_scatter},
    {"inflight", CLC_BOUND_INFLIGHT, false, layer_inflight},
    {"banks", CLC_BOUND_BANKS, true, layer_banks},
    {"lines", CLC_BOUND_LINES, true, layer_lines},
    {"l2", CLC_BOUND_L2, true, layer_l2},
    {"split", CLC_BOUND_SPLIT, true, layer_split},
    {"groups", CLC_BOUND_GROUPS, true, layer_groups},
    {"compute", CLC_BOUND_COMPUTE, true, layer_compute},
    {"work", CLC_BOUND_WORK, true, layer_work},
    {"refill", CLC_BOUND_REFILL, false, layer_refill},
    {"apart", CLC_BOUND_REFILL, false, layer_apart},
    {"launch", CLC_BOUND_LAUNCH, false, layer_launch},
};
_Static_assert(sizeof layer_table / sizeof layer_table[0] <= CLC_MODEL_LAYERS,
               "struct clc_prediction holds CLC_MODEL_LAYERS layers");

const struct clc_layer_def *clc_model_layers(size_t *n)
{
    *n = sizeof layer_table / sizeof layer_table[0];
    return layer_table;
}

static bool no_prediction(struct clc_prediction *pr, const char *why)
{
    pr->gbps = NAN;
    snprintf(pr->note, sizeof pr->note, "%s", why);
    return false;
}

/* Local rows count the local bytes they load: their time is the banks' alone, one layer. */
static bool predict_local(const struct clc_profile *p, const struct clc_model_features *f,
                          double useful, struct clc_prediction *pr)
{
    if (!(p->local_pass_ps > 0) || !(f->local_load_passes > 0) || f->elem_bytes == 0)
        return no_prediction(pr, "the profile has no local memory costs");
    double requests = useful / f->elem_bytes / CLC_MODEL_WARP;
    double ms = requests * (p->local_request_ps + f->local_load_passes * p->local_pass_ps) *
                1e-9;
    pr->peak_gbps = p->local_gbps > 0 ? p->local_gbps : useful / (ms * 1e6);
    pr->gbps = useful / (ms * 1e6);
    struct clc_model_layer *l = &pr->layer[pr->n_layers++];
    l->name = "banks";
    l->bound = CLC_BOUND_BANKS;
    l->factor = pr->gbps / pr->peak_gbps;
    l->gbps = pr->peak_gbps * l->factor;
    snprintf(l->why, sizeof l->why, "%.1f passes per request (%d banks)", f->local_load_passes,
             p->banks);
    pr->bound = CLC_BOUND_BANKS;
    pr->dram_read_bytes = pr->dram_write_bytes = 0;
    return true;
}

/* x DRAM bytes a useful byte (none where NAN) that move at efficiency e, added to the bytes
 * of their direction (*bytes) and to those weighed by their efficiencies (*weighed); returns
 * x where e is a loss (the share the scatter layer's why names), else 0. */
static double moved_at(double x, double e, double *bytes, double *weighed)
{
    x = x > 0 ? x : 0;
    *bytes += x;
    *weighed += x / e;
    return e < 1 ? x : 0;
}

/* DRAM bytes: loads move whole granules of the profile's size, stores the 32-byte
 * sectors they write (what Nsight Compute counts), but a store that writes part of a
 * granule takes the time of the whole one, as the stride rows measure; each class of
 * gap at its efficiency.  Fills s and the prediction's DRAM bytes; false (with the note)
 * where the trace moves no global bytes. */
static bool prepare(struct clc_layer_state *s)
{
    const struct clc_profile *p = s->p;
    const struct clc_model_features *f = s->f;
    double wr_sectors = 0;
    s->gi = granule_index(p);
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        wr_sectors += f->dram[1][0][c];
    if (f->dram_bunched[0] > 0)
        wr_sectors += f->dram_bunched[0];
    /* the stores' gaps cost what the stride rows' do only for sectors a store leaves in
     * part (DRAM then merges what the store leaves with what it holds); whole sectors far
     * apart (a tile's rows, the neighbouring tiles' written by other work-groups) cost
     * what loads as far apart do.  The share of the stores' sectors written in part; all of
     * them for a file from before partial sectors were counted. */
    double part = f->store_partial >= 0 && wr_sectors > 0
                      ? fmin(1.0, f->store_partial * CLC_MODEL_SECTOR / wr_sectors)
                      : 1.0;
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++) {
        s->rd += f->dram[0][s->gi][c];
        s->rd_eff += f->dram[0][s->gi][c] / gap_eff_dir(p, 0, c);
        s->wr += f->dram[1][s->gi][c];
        s->wr_eff += f->dram[1][s->gi][c] *
                     (part / gap_eff_dir(p, 1, c) + (1 - part) / gap_eff_dir(p, 0, c));
    }
    /* a tile's rows stored a matrix row apart, whose windows later work-groups fill, at the
     * rate the scatter case's tile_blocks measured, and loaded so at its tile_loads'; a
     * profile without them takes them dense */
    s->bunched = moved_at(f->dram_bunched[s->gi], measured_eff(p->bunched_eff, 1.0), &s->wr,
                          &s->wr_eff);
    s->bunched_ld = moved_at(f->dram_bunched_loads[s->gi], measured_eff(p->bunched_load_eff, 1.0),
                             &s->rd, &s->rd_eff);
    /* a gather's granules at the rate DRAM serves granules at random, not a stride's
     * (which keeps to a few of its channels and banks); a profile without that rate takes
     * them as the farthest stride's */
    double random = f->dram_random[s->gi] > 0 ? f->dram_random[s->gi] : 0;
    double rate = measured_eff(p->random_eff, NAN);
    s->rd += random;
    s->rd_eff += random / (rate > 0 ? rate : gap_eff_dir(p, 0, CLC_MODEL_GAPS - 1));
    s->random = rate > 0 ? random : 0;
    s->resident = f->resident_per_cu;
    if (!(s->resident > 0))
        s->resident = occupancy(f, p->compute_units, p->threads_per_cu, p->groups_per_cu,
                                p->regs_per_cu, p->local_per_cu);
    s->streamed = s->rd;
    /* what the L2 cannot hold, read again as lone granules, each as far from the next as the
     * sample's sparsest */
    s->reread = l2_rereads(p, f, s->resident, s->rd, s->wr);
    moved_at(s->reread, gap_eff_dir(p, 0, CLC_MODEL_GAPS - 1), &s->rd, &s->rd_eff);
    s->pr->dram_read_bytes = s->rd * s->useful;
    s->pr->dram_write_bytes = wr_sectors * s->useful;
    if (!(s->rd + s->wr > 0))
        return no_prediction(s->pr, "the trace moves no global bytes");
    return true;
}

/* The bound: the layer that costs the most, where one costs much.  Layers of one bound in
 * a row weigh as one (granules and scatter: sectors); a timed layer is weighed by all the
 * factors down to it (the bandwidth it alone allows), any other by its own.  DRAM binds
 * where nothing else costs much. */
static enum clc_bound pick_bound(const struct clc_prediction *pr)
{
    double worst = 1.0, upto = 1.0;
    enum clc_bound b = CLC_BOUND_DRAM;
    for (size_t i = 0; i < pr->n_layers; i++) {
        const struct clc_model_layer *l = &pr->layer[i];
        if (l->bound == CLC_BOUND_DRAM)
            continue; /* the ceiling: the others are factors on it */
        double factor = l->factor;
        while (i + 1 < pr->n_layers && pr->layer[i + 1].bound == l->bound)
            factor *= pr->layer[++i].factor;
        upto *= factor;
        double weight = l->timed ? upto : factor;
        if (factor < 0.9 && weight < worst) {
            worst = weight;
            b = l->bound;
        }
    }
    return b;
}

bool clc_predict(const struct clc_profile *p, const struct clc_result *r,
                 struct clc_prediction *pr)
{
    const struct clc_model_features per = per_counted(&r->model.features), *f = &per;
    memset(pr, 0, sizeof *pr);
    pr->dram_read_bytes = pr->dram_write_bytes = NAN;
    if (r->metric != CLC_METRIC_GBPS)
        return no_prediction(pr, "not a bandwidth row");
    if (!f->valid)
        return no_prediction(pr, "no trace");
    if (r->cache_resident && !p->in_cache)
        return no_prediction(pr, "its data sits in the cache, the profile's ceilings are DRAM's");
    if (!(p->copy_gbps > 0))
        return no_prediction(pr, "the profile has no stream ceilings");
    if (f->local_row)
        return predict_local(p, f, (double)r->bytes, pr);
    struct clc_layer_state s = {.p = p, .r = r, .f = f, .pr = pr, .useful = (double)r->bytes,
                                .ms = NAN};
    if (!prepare(&s))
        return false;
    for (size_t i = 0; i < sizeof layer_table / sizeof layer_table[0]; i++) {
        const struct clc_layer_def *d = &layer_table[i];
        struct clc_model_layer *l = &pr->layer[pr->n_layers];
        double above = pr->n_layers ? pr->layer[pr->n_layers - 1].gbps : 0;
        /* a timed layer starts from the time the layers above leave */
        if (d->timed && isnan(s.ms))
            s.ms = s.useful / (above * 1e6);
        l->name = d->name;
        l->bound = d->bound;
        l->timed = d->timed;
        l->factor = d->fn(&s, l);
        l->gbps = (pr->n_layers ? above : pr->peak_gbps) * l->factor;
        pr->n_layers++;
    }
    pr->gbps = s.useful / (s.ms * 1e6);
    pr->bound = pick_bound(pr);
    return true;
}

bool clc_predict_row(const struct clc_profile *p, struct clc_result *r, struct clc_prediction *pr)
{
    struct clc_prediction own;
    if (pr == NULL)
        pr = &own;
    bool ok = clc_predict(p, r, pr);
    r->model.gbps = ok ? pr->gbps : NAN;
    snprintf(r->model.bound, sizeof r->model.bound, "%s", ok ? clc_bound_name(pr->bound) : "");
    r->model.dram_read_bytes = ok ? pr->dram_read_bytes : NAN;
    r->model.dram_write_bytes = ok ? pr->dram_write_bytes : NAN;
    r->model.dram_bytes = ok ? pr->dram_read_bytes + pr->dram_write_bytes : NAN;
    return ok;
}

void clc_print_waterfall(FILE *f, const struct clc_prediction *pr, double measured)
{
    fprintf(f, "  %-9s %7s %9.1f GB/s  %s\n", "peak", "", pr->peak_gbps, "the top");
    for (size_t i = 0; i < pr->n_layers; i++) {
        const struct clc_model_layer *l = &pr->layer[i];
        fprintf(f, "  %-9s x %5.3f %9.1f GB/s  %s\n", l->name, l->factor, l->gbps, l->why);
    }
    fprintf(f, "  %-9s %7s %9.1f GB/s  bound: %s\n", "predicted", "", pr->gbps,
            clc_bound_name(pr->bound));
    if (isfinite(measured))
        fprintf(f, "  %-9s %7s %9.1f GB/s  (%+.0f %% against the prediction)\n", "measured", "",
                measured, 100.0 * (measured / pr->gbps - 1.0));
    const char *remedy = clc_bound_remedy(pr->bound);
    if (*remedy != '\0')
        fprintf(f, "  %s binds: %s\n", clc_bound_name(pr->bound), remedy);
    if (pr->hint[0] != '\0' && pr->bound == CLC_BOUND_LINES)
        fprintf(f, "  this kernel: %s\n", pr->hint);
}

/* ------------------------------------------------------------------ measured and predicted */

void clc_model_summarize(const struct clc_report *rep, struct clc_model_summary *sum)
{
    clc_model_summarize_bound(rep, NULL, sum);
}

void clc_model_summarize_bound(const struct clc_report *rep, const char *bound,
                               struct clc_model_summary *sum)
{
    double log_sum = 0;
    sum->rows = sum->within = 0;
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (!clc_model_compared(r) || (bound != NULL && strcmp(r->model.bound, bound) != 0))
            continue;
        double ratio = r->value / r->model.gbps;
        sum->rows++;
        sum->within += fabs(ratio - 1.0) <= CLC_MODEL_WITHIN;
        log_sum += log(ratio);
    }
    sum->geomean = sum->rows ? exp(log_sum / (double)sum->rows) : NAN;
}

void clc_write_model_table(const struct clc_report *rep, FILE *f)
{
    bool apis = rep->n_apis > 1;
    fprintf(f, "%-12s %-20s %6s %-6s %s%10s %10s %7s %s\n", "case", "variant", "param", "type",
            apis ? "api    " : "", "GB/s", "pred", "resid", "bound");
    for (size_t i = 0; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (!clc_model_compared(r))
            continue;
        char name[4 * sizeof r->case_name], variant[4 * sizeof r->variant], param[24] = "-";
        clc_printable(r->case_name, name, sizeof name);
        clc_printable(r->variant, variant, sizeof variant);
        if (r->has_param)
            snprintf(param, sizeof param, "%ld", r->param);
        double ratio = r->value / r->model.gbps;
        fprintf(f, "%-12s %-20s %6s %-6s ", name, variant, param, clc_type_name(r->type));
        if (apis)
            fprintf(f, "%-6s ", r->api);
        fprintf(f, "%10.1f %10.1f %+6.0f%% %-8s%s\n", r->value, r->model.gbps,
                100.0 * (ratio - 1.0), r->model.bound,
                fabs(ratio - 1.0) > CLC_MODEL_WITHIN ? " outside" : "");
    }
    struct clc_model_summary sum;
    clc_model_summarize(rep, &sum);
    if (sum.rows == 0) {
        fprintf(f, "no row has both a measurement and a prediction\n");
        return;
    }
    fprintf(f, "%zu of %zu predicted rows within %.0f %% of the measurement; measured / "
            "predicted: geometric mean %.3f\n", sum.within, sum.rows, 100 * CLC_MODEL_WITHIN,
            sum.geomean);
    /* where the model holds and where it does not, by the limit it named */
    fprintf(f, "by bound:  rows  within  measured / predicted\n");
    for (int b = CLC_BOUND_NONE + 1; b <= CLC_BOUND_LAST; b++) {
        clc_model_summarize_bound(rep, clc_bound_name(b), &sum);
        if (sum.rows > 0)
            fprintf(f, "  %-8s %5zu  %6zu  %.3f\n", clc_bound_name(b), sum.rows, sum.within,
                    sum.geomean);
    }
}
