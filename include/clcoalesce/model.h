/* model.h - the access model: from the byte addresses a kernel's work-items touched (a trace
 * written by the -DCLC_TRACE build of the kernel, see cl/clc_trace.h), the 32-byte sectors
 * and 128-byte lines each warp-level request touches, and what that costs per launch.
 *
 * Pure host code: it needs no device, so it is tested on synthetic traces. */
#ifndef CLCOALESCE_MODEL_H
#define CLCOALESCE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLC_MODEL_SECTOR 32u   /* bytes: the unit DRAM and L2 move */
#define CLC_MODEL_LINE 128u    /* bytes: four sectors under one cache tag */
#define CLC_MODEL_MAX_WARP 64u /* largest warp (wavefront) the model handles */
#define CLC_MODEL_WARP 32u     /* the warp size assumed when the device does not say */
#define CLC_MODEL_WIDEST 16u   /* bytes: the widest access one GPU instruction makes per lane */

/* A trace: for traced work-item w (= work-group * wg_size + local linear id), words
 * [w * 2 * slots, (w + 1) * 2 * slots) hold its accesses in program order, two words each:
 * the byte address, then (size << 1) | is_store, with CLC_TRACE_DEPENDENT set on a load
 * whose index the previous load returned, or 0 for an unused slot. */
#define CLC_TRACE_DEPENDENT (UINT64_C(1) << 32) /* as cl/clc_trace.h */
static inline uint32_t clc_trace_size(uint64_t kind)
{
    return (uint32_t)(kind >> 1) & 0x7fffffffu;
}

struct clc_trace {
    const uint64_t *words;
    size_t n_items;        /* traced work-items: traced work-groups x wg_size */
    size_t wg_size;        /* work-items per work-group */
    unsigned slots;        /* slots per work-item */
    unsigned warp;         /* warp size, 1..CLC_MODEL_MAX_WARP */
    uint64_t launch_items; /* work-items in the whole launch (scales bytes); 0: n_items */
    /* The work-items' __local accesses, in the layout of `words` (their own slots), or NULL
     * when the kernel makes none that are traced (LLOAD / LSTORE in cl/clc.h). */
    const uint64_t *local_words;
    /* The wide sample: the first global loads and stores (wide_slots / 2 each, loads first,
     * unused slots zero) of each of the first wide_items work-items, in the layout of
     * `words` with wide_slots slots: what reaches DRAM is read off it too, since L2 reuses
     * what work-groups far apart touch.  NULL: none. */
    const uint64_t *wide_words;
    size_t wide_items;
    unsigned wide_slots;
    unsigned banks;        /* local memory banks and their width in bytes, for the passes */
    unsigned bank_width;   /* per request; 0: CLC_MODEL_BANKS of CLC_MODEL_BANK_WIDTH */
};

#define CLC_MODEL_BANKS 32u
#define CLC_MODEL_BANK_WIDTH 4u

/* DRAM moves whole granules: the model counts them at three sizes (32, 64 and 128 bytes; the
 * profile measures which one the device uses) and sorts each granule by how densely the
 * kernel touches its neighbourhood: the gap its aligned window of CLC_MODEL_WINDOW granules
 * (about a DRAM page) leaves between touched granules (model.c's window_gap), taken to the
 * nearest of the classes' gaps (in log scale): 1 (every granule), 1.5, 2, 3, 4, 8 (a granule
 * alone in its window, or two loaded ones).  Sparse granules cost more than streamed ones
 * (fewer per DRAM page); the profile measures by how much. */
#define CLC_MODEL_GRANULES 3u
#define CLC_MODEL_GAPS 6u
#define CLC_MODEL_WINDOW 16u
static inline double clc_model_gap(unsigned c)
{
    static const double gaps[CLC_MODEL_GAPS] = {1, 1.5, 2, 3, 4, 8};
    return gaps[c < CLC_MODEL_GAPS ? c : CLC_MODEL_GAPS - 1];
}
static inline unsigned clc_model_granule_bytes(unsigned gi)
{
    return 32u << gi;
}

/* __local accesses: warp-level requests and the passes the banks need to serve them. */
struct clc_model_local {
    uint64_t requests; /* (warp, local access index) pairs with an active lane */
    uint64_t passes;   /* summed over requests: a request whose lanes hit n distinct words
                        * of one bank takes n passes (lanes on the same word share one);
                        * accesses wider than the bank width split the warp in phases of
                        * banks x width bytes, each phase counted apart */
    uint64_t accesses; /* lane accesses */
    uint64_t load_requests; /* the loads' share of each: a kernel that fills a tile once and */
    uint64_t load_passes;   /* reads it over and over is its reads, which a trace of its */
    uint64_t load_accesses; /* first accesses under-counts */
};

/* Totals of one direction (loads or stores) over the traced warps. */
struct clc_model_side {
    uint64_t requests; /* (warp, access index) pairs with at least one active lane */
    uint64_t sectors;  /* distinct 32-byte sectors, summed over requests */
    uint64_t lines;    /* distinct 128-byte lines, summed over requests */
    uint64_t new_lines; /* of those, the lines the L1 asks the L2 for: a load's lines that the
                         * same warp's last load did not touch, every line of a store */
    uint64_t new_sectors; /* a load's sectors that the same warp's last load did not touch
                           * (loads only: the L2 serves a load sector by sector) */
    uint64_t partial_sectors; /* a store's sectors it writes only in part (stores only: the
                               * L2 merges each such piece into its sector apart) */
    uint64_t follow_partial;  /* stores only: of those, the sectors the warp's last store
                               * wrote too (a run stored an element at a time), whose pieces
                               * the L1 can merge before they reach the L2 */
    uint64_t follow_lines;    /* the lines of the store requests with such sectors, and */
    uint64_t follow_requests; /* those requests */
    uint64_t reused_lines;    /* loads only: the lines, and the sectors, a load touched that */
    uint64_t reused_sectors;  /* its warp's last load touched too (not among new_*), a store
                               * or more between them (right after it, the L1 has them) */
    uint64_t reuse_footprint; /* the lines that last load touched, summed over reused_lines:
                               * what a warp keeps in L1 for the reuse to hit */
    uint64_t group_lines;     /* loads only: the lines of each request with a sector no
                               * earlier warp of its work-group asked for at the same access
                               * index: the requests that reach the L2, the rest hit in L1 */
    uint64_t shared_requests; /* stores only: the requests with a sector written in part that
                               * another warp of the work-group writes in part at the same
                               * access index, their lines, their sectors written in part and
                               * their useful bytes */
    uint64_t shared_lines;
    uint64_t shared_partial;
    uint64_t shared_useful;
    double open_sectors;      /* stores only: the bytes, in sectors (/ 32), that a warp writes
                               * into lines it writes before a load of its own and again after
                               * (none whole at one request), and those lines' windows weighed
                               * by the same bytes: what a lane loads from its warp's first */
    double open_bytes;        /* write into the line to its last.  A line left open that
                               * long, the L2 writes back in part and reads again */
    double open_lane_bytes;   /* stores only: a line's bytes over the lanes that write into
                               * it, weighed by the same bytes: how much of the L2 each lane
                               * keeps open (a line each: 128) */
    uint64_t useful;   /* distinct bytes the active lanes access (a byte read by several
                        * lanes of one request counts once), summed over requests */
    uint64_t lanes;    /* active lanes, summed over requests, and the bytes of their */
    uint64_t lane_bytes; /* accesses (each lane's whole access, shared bytes or not) */
};

struct clc_model {
    struct clc_model_side load, store;
    size_t warps;                 /* warps traced */
    bool truncated;               /* a work-item filled every slot: later accesses unseen */
    /* Derived figures; NAN where there is nothing to divide by. */
    double sectors_per_req_load;
    double sectors_per_req_store;
    double sectors_per_req;       /* loads and stores together */
    double efficiency;            /* useful bytes / bytes moved in whole sectors, 0..1 */
    double bytes_moved;           /* per launch: traced sectors x 32, scaled to launch_items */
    double bytes_useful;          /* per launch, scaled the same way */

    /* What reaches DRAM, from all the accesses of a sample together (per direction the
     * sample, traced warps or wide, with fewer granules per useful byte): each distinct
     * granule once, so that what several requests touch (reuse in L2) counts once.  [0] loads, [1] stores;
     * [gi] granule size clc_model_granule_bytes(gi); [c] gap class (see above). */
    uint64_t granules[2][CLC_MODEL_GRANULES][CLC_MODEL_GAPS];
    uint64_t granule_useful[2];   /* per direction, the bytes the accesses those granules
                                   * were counted from access */
    /* The loads' granules, in no gap class, that an irregular request (lanes that no one
     * stride relates: a gather) touched where their window is not dense, by granule size:
     * DRAM serves them at random, at a rate of its own. */
    uint64_t random[CLC_MODEL_GRANULES];
    /* The stores' granules, in no gap class, dense in a window they fill only in part where
     * the sample leaves the rest to other work-groups (a tile's rows stored a matrix row
     * apart, as a tiled transpose stores them), by granule size: DRAM takes them at a rate
     * of its own. */
    uint64_t bunched[CLC_MODEL_GRANULES];
    /* The loads' granules bunched alike: a tile's rows loaded a matrix row apart, the rest
     * of their windows loaded by other work-groups (the tiles taken in another order than
     * row by row: along diagonals, down columns). */
    uint64_t bunched_loads[CLC_MODEL_GRANULES];
    /* Of the stores' 32-byte granules in the wide sample (consecutive work-groups, as many
     * as run at once), the share bunched so: lines left to work-groups later in the launch
     * than those (a naive transpose's rows of out, a row of work-groups on), not to the next
     * ones.  Only a sample that holds every store of its work-items can tell: where they
     * make more than it keeps, the rest of a window may be their own later stores; NAN then
     * (and where there is no wide sample). */
    double store_spread;
    /* Of the wide sample's store requests (a warp's lanes at one store; each line a request
     * writes counted once), the share into lines the sample leaves to work-groups past it:
     * part of the line unwritten by its stores and untouched by its loads.  Where the sample
     * is the work-groups that run at once, a block of whole rows of the grid where they run a
     * row or more apart, work-groups that run later complete those lines (a naive
     * transpose's lines of out, a quarter from each of four work-groups a row apart).  NAN
     * as store_spread. */
    double store_far;
    /* Loads in flight per work-item: the longest run of global loads with no store between
     * them in a work-item's sequence, averaged over the traced work-items (a loop that
     * stores each element it loads: 1; K loads summed then stored: K; a gather's index load
     * and the load it indexes: 1, the second waits for the first). */
    double loads_in_flight;
    /* Bytes of sectors one lane's load brings: load sectors x 32 / active load lanes
     * (4 for coalesced fp32, 32 when every lane needs its own sector). */
    double load_lane_bytes;
    /* Bytes one lane's load reads, on average (a float: 4, a float4: 16), whatever sectors
     * it needs: a misaligned warp reads 128 bytes from 5 sectors, 5 bytes of sectors a
     * lane for 4 read. */
    double load_access_bytes;
    /* Bytes one lane's store writes, on average (a float4 store: 16; a GPU instruction
     * stores at most 16 bytes a lane, so a wider store leaves in pieces). */
    double store_lane_bytes;
    struct clc_model_local local;
};

/* Analyses a trace.  Warps are wg_size-local: warp j of a work-group holds local linear ids
 * [j * warp, (j + 1) * warp); the k-th access of its lanes forms one request per direction.
 * Returns 0, or -1 when the trace's shape is invalid (warp out of range, no work-items). */
int clc_model_analyse(const struct clc_trace *t, struct clc_model *m);

/* The most global loads a work-item of `kernel` has in flight at once as compiled, read off
 * its PTX (compiled.c): the loads issued before an instruction that reads what one of them
 * loaded, and those after it that the assembler may move ahead of it (the rest of a straight
 * stretch of code: a short forward branch around a few instructions is predicated, any other
 * branch, its label and a barrier end one; a load after a global store stays after it, one
 * through the read-only path does not).  NAN where ptx holds no entry `kernel`. */
double clc_ptx_loads_in_flight(const char *ptx, const char *kernel);

/* Whether `kernel` stores runs back to back, read off its PTX (compiled.c): 1 where it
 * stores vectors or two scalar global stores of one straight stretch of code (no branch,
 * label or barrier between) share a guard and an address register with offsets an element
 * apart (the assembler keeps them together: four STG.E in a row for four floats), 0 where
 * every scalar store stands alone (each element tested against n first: a branch or a
 * predicate of its own each, instructions between).  NAN where ptx holds no entry
 * `kernel`, or it has no global store. */
double clc_ptx_stores_combined(const char *ptx, const char *kernel);

/* A launch as the PTX of its kernel sees it: the sizes, and each parameter's value in the
 * order the kernel declares them (a buffer's: any address; a scalar's: its bits). */
struct clc_ptx_launch {
    unsigned dims;
    size_t global[3], local[3];
    unsigned nargs;
    uint64_t args[16];
};

/* The integer work a work-item executes on the path to its global loads' addresses
 * (executed.c): units of issued 32-bit instructions (a 64-bit add, logic operation, shift or
 * comparison two, a 64-bit multiply four; register copies and parameter reads none), and
 * apart the integer divisions and remainders it executes by width.  NAN where not known. */
struct clc_ptx_work {
    double units;
    double div32, div64;
};

/* Counts the work of the busiest lane of warp 0 of the launch's middle work-group, running
 * the PTX of entry `kernel` on the launch's values (executed.c).  False, and every figure
 * NAN, where ptx has no such entry or a lane runs on past a bound (a loop on values it
 * could not follow). */
bool clc_ptx_work(const char *ptx, const char *kernel, const struct clc_ptx_launch *l,
                  struct clc_ptx_work *out);

/* The instruction of a PTX line (`len` bytes), past its guard ("@%p1 "): where its opcode
 * ("ld.global.nc.f32") starts, its length in *oplen (0 on a blank line); *guard_end (may be
 * NULL) where the guard ends (where the line's text starts, without one). */
const char *clc_ptx_opcode(const char *line, size_t len, size_t *oplen, const char **guard_end);

/* One warp-level request, lane by lane. */
struct clc_model_lane {
    bool active;
    uint64_t addr;
    uint32_t size;
};
struct clc_model_request {
    bool store;
    size_t warp;       /* traced warp index (work-group major) */
    unsigned k;        /* access index within each lane's sequence */
    unsigned lanes;    /* lanes in this warp (the last warp of a work-group may be short) */
    unsigned active;   /* lanes taking part */
    struct clc_model_lane lane[CLC_MODEL_MAX_WARP];
    unsigned sectors, lines;
    unsigned partial;    /* a store's sectors of which it writes fewer than 32 bytes */
    uint64_t useful;
    uint64_t lane_bytes; /* the active lanes' access sizes, summed */
};

/* Number of warps in the trace. */
size_t clc_model_warps(const struct clc_trace *t);

/* Fills rq with the first load (store false) or store request of traced warp `warp`.
 * Returns false when that warp makes none. */
bool clc_model_first_request(const struct clc_trace *t, size_t warp, bool store,
                             struct clc_model_request *rq);

/* Draws a request for an 80-column terminal: one row per 128-byte line touched (offset
 * from the first), four boxes for its 32-byte sectors listing the lanes that land there. */
void clc_model_picture(FILE *f, const struct clc_model_request *rq);

#endif
