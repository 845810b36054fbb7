/* model.c - the access model: sectors and lines per warp-level request, read off a trace of
 * the addresses each work-item touched (see model.h and cl/clc_trace.h). */
#include "clcoalesce/model.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An access of up to 128 bytes at any alignment touches at most 5 sectors. */
#define MAX_UNITS_PER_LANE 8
#define MAX_UNITS (CLC_MODEL_MAX_WARP * MAX_UNITS_PER_LANE)

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts ids[0 .. n) with tmp (room for n) as scratch: a radix sort of each id's distance from
 * the least, 11 bits a pass, as many passes as the largest distance needs (a trace's granules
 * span a few buffers: two or three passes, where a comparison sort of the wide sample cost
 * most of the analysis); nothing to do when they already are in order. */
static void sort_ids(uint64_t *ids, size_t n, uint64_t *tmp)
{
    enum { BITS = 11, BINS = 1 << BITS };
    uint64_t least = UINT64_MAX, most = 0;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
        least = ids[i] < least ? ids[i] : least;
        most = ids[i] > most ? ids[i] : most;
        sorted = sorted && (i == 0 || ids[i - 1] <= ids[i]);
    }
    if (sorted)
        return;
    size_t count[BINS];
    uint64_t *from = ids, *to = tmp;
    for (unsigned shift = 0; shift < 64 && (most - least) >> shift; shift += BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(from[i] - least) >> shift & (BINS - 1)]++;
        for (size_t b = 0, at = 0; b < BINS; b++) {
            size_t c = count[b];
            count[b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[(from[i] - least) >> shift & (BINS - 1)]++] = from[i];
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != ids)
        memcpy(ids, from, n * sizeof *ids);
}

/* The distinct ids of sorted ids[0 .. n), moved to its front; returns how many. */
static size_t distinct(uint64_t *ids, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        if (d == 0 || ids[i] != ids[d - 1])
            ids[d++] = ids[i];
    return d;
}

/* Distinct units (sectors or lines of `unit` bytes) that the active lanes touch, their ids
 * sorted into ids[0 .. the count). */
static unsigned unit_ids(const struct clc_model_request *rq, uint64_t unit, uint64_t *ids)
{
    size_t n = 0;
    for (unsigned l = 0; l < rq->lanes; l++) {
        const struct clc_model_lane *ln = &rq->lane[l];
        if (!ln->active || ln->size == 0)
            continue;
        uint64_t first = ln->addr / unit, last = (ln->addr + ln->size - 1) / unit;
        for (uint64_t u = first; u <= last && n < MAX_UNITS; u++)
            ids[n++] = u;
    }
    qsort(ids, n, sizeof ids[0], cmp_u64);
    return (unsigned)distinct(ids, n);
}

/* How many of the sorted ids a[0 .. na) are not among the sorted b[0 .. nb). */
static unsigned not_in(const uint64_t *a, unsigned na, const uint64_t *b, unsigned nb)
{
    unsigned fresh = 0, j = 0;
    for (unsigned i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        fresh += j == nb || b[j] != a[i];
    }
    return fresh;
}

struct span {
    uint64_t lo, hi;
};

static int cmp_span(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The bytes the active lanes access as sorted, disjoint spans in sp (room for a span per
 * lane): lanes that touch the same element share it.  Returns how many. */
static size_t merged_spans(const struct clc_model_request *rq, struct span *sp)
{
    size_t n = 0;
    for (unsigned l = 0; l < rq->lanes; l++)
        if (rq->lane[l].active && rq->lane[l].size)
            sp[n++] = (struct span){rq->lane[l].addr, rq->lane[l].addr + rq->lane[l].size};
    qsort(sp, n, sizeof sp[0], cmp_span);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && sp[i].lo <= sp[m - 1].hi) {
            if (sp[i].hi > sp[m - 1].hi)
                sp[m - 1].hi = sp[i].hi;
        } else {
            sp[m++] = sp[i];
        }
    }
    return m;
}

/* Distinct bytes the active lanes access: lanes reading the same element use it once. */
static uint64_t union_bytes(const struct clc_model_request *rq)
{
    struct span sp[CLC_MODEL_MAX_WARP];
    size_t n = merged_spans(rq, sp);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += sp[i].hi - sp[i].lo;
    return total;
}

/* Whether sector (UINT64_MAX: none yet) of which `covered` bytes are written is written in
 * part; if so, noted at ids[n] (ids NULL: counted only). */
static unsigned note_partial(uint64_t sector, uint64_t covered, uint64_t *ids, unsigned n)
{
    if (sector == UINT64_MAX || covered >= CLC_MODEL_SECTOR)
        return 0;
    if (ids != NULL && n < MAX_UNITS)
        ids[n] = sector;
    return 1;
}

/* The sectors of which the active lanes access some bytes but not all 32: a store writes
 * those in part, and the L2 merges each such piece into its sector apart.  ids, where not
 * NULL, gets them in order (room for MAX_UNITS). */
static unsigned partial_sectors(const struct clc_model_request *rq, uint64_t *ids)
{
    struct span sp[CLC_MODEL_MAX_WARP];
    size_t n = merged_spans(rq, sp);
    unsigned partial = 0;
    uint64_t sector = UINT64_MAX, covered = 0;
    for (size_t i = 0; i < n; i++) {
        for (uint64_t lo = sp[i].lo; lo < sp[i].hi;) {
            uint64_t s = lo / CLC_MODEL_SECTOR, end = (s + 1) * CLC_MODEL_SECTOR;
            uint64_t hi = sp[i].hi < end ? sp[i].hi : end;
            if (s != sector) {
                partial += note_partial(sector, covered, ids, partial);
                sector = s;
                covered = 0;
            }
            covered += hi - lo;
            lo = hi;
        }
    }
    return partial + note_partial(sector, covered, ids, partial);
}

static size_t warps_per_group(const struct clc_trace *t)
{
    return (t->wg_size + t->warp - 1) / t->warp;
}

size_t clc_model_warps(const struct clc_trace *t)
{
    if (t->wg_size == 0 || t->warp == 0)
        return 0;
    return t->n_items / t->wg_size * warps_per_group(t);
}

/* Work-item index of lane 0 of traced warp w, and the lanes the warp has. */
static size_t warp_base(const struct clc_trace *t, size_t w, unsigned *lanes)
{
    size_t wpg = warps_per_group(t), g = w / wpg, j = w % wpg;
    size_t first = j * t->warp, end = first + t->warp;
    if (end > t->wg_size)
        end = t->wg_size;
    *lanes = (unsigned)(end - first);
    return g * t->wg_size + first;
}

/* Work-item i's record k in words (t->words or t->local_words); a second word of 0: none. */
static const uint64_t *record(const struct clc_trace *t, const uint64_t *words, size_t i,
                              unsigned k)
{
    return words + (i * 2 * (size_t)t->slots + 2 * (size_t)k);
}

/* Whether two records access the same bytes, and whether they lie in the same aligned 16
 * bytes (the elements of one vector). */
static bool same_bytes(const uint64_t *a, const uint64_t *b)
{
    return a[0] == b[0] && clc_trace_size(a[1]) == clc_trace_size(b[1]);
}

static bool one_vector(const uint64_t *a, const uint64_t *b)
{
    return a[0] / CLC_MODEL_WIDEST == b[0] / CLC_MODEL_WIDEST;
}

/* Whether record k of a work-item (its records at rec, `slots` of them) never reaches memory
 * as compiled.  A compiler keeps what a work-item stored in a register and drops what nothing
 * can read: a load of the bytes the work-item stored last is the stored value (forwarded),
 * and a store that the work-item stores over before anything could read it is dead.  Any
 * access between could be such a read, or a store to the same bytes by another name, unless
 * it lies in the same aligned 16 bytes (a vector's elements, which the compiler tells apart
 * by their offsets) and is itself a store or a forwarded load.  So a float4 stored, loaded
 * back and stored again leaves once, while a copy that stores out[i], then loads in[i] again
 * before adding it to out[i], keeps both stores (in might be out). */
static bool elided(const uint64_t *rec, unsigned slots, unsigned k)
{
    const uint64_t *a = rec + 2 * (size_t)k;
    if (a[1] == 0)
        return false;
    if ((a[1] & 1) == 0) {
        for (unsigned j = k; j-- > 0;) {
            const uint64_t *b = rec + 2 * (size_t)j;
            if (!one_vector(a, b))
                return false;
            if ((b[1] & 1) && same_bytes(a, b))
                return true;
        }
        return false;
    }
    for (unsigned j = k + 1; j < slots; j++) {
        const uint64_t *b = rec + 2 * (size_t)j;
        if (b[1] == 0 || !one_vector(a, b))
            return false;
        if (b[1] & 1) {
            if (same_bytes(a, b))
                return true;
        } else if (!elided(rec, slots, j)) {
            return false;
        }
    }
    return false;
}

/* Gathers the request of warp w at access index k in one direction from records `words`
 * (t->words or t->local_words).  Returns the number of lanes that have any access at k
 * (either direction), so callers know when to stop.  Sectors, lines and useful bytes are
 * filled for global records only, the lines' and sectors' sorted ids into line_ids and
 * sector_ids (MAX_UNITS room each). */
static unsigned gather(const struct clc_trace *t, const uint64_t *words, size_t w, unsigned k,
                       bool store, struct clc_model_request *rq, uint64_t *line_ids,
                       uint64_t *sector_ids)
{
    unsigned lanes, any = 0;
    size_t base = warp_base(t, w, &lanes);
    memset(rq, 0, sizeof *rq);
    rq->store = store;
    rq->warp = w;
    rq->k = k;
    rq->lanes = lanes;
    for (unsigned l = 0; l < lanes; l++) {
        const uint64_t *slot = record(t, words, base + l, k);
        if (slot[1] == 0)
            continue;
        any++;
        if (((slot[1] & 1) != 0) != store ||
            (words == t->words && elided(record(t, words, base + l, 0), t->slots, k)))
            continue;
        rq->lane[l].active = true;
        rq->lane[l].addr = slot[0];
        rq->lane[l].size = clc_trace_size(slot[1]);
        rq->lane_bytes += rq->lane[l].size;
        rq->active++;
    }
    if (rq->active && words == t->words) {
        rq->useful = union_bytes(rq);
        rq->sectors = unit_ids(rq, CLC_MODEL_SECTOR, sector_ids);
        rq->lines = unit_ids(rq, CLC_MODEL_LINE, line_ids);
        rq->partial = store ? partial_sectors(rq, NULL) : 0;
    }
    return any;
}

static double ratio(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

/* ------------------------------------------------------------------ granules, loads in flight */

/* Granules of `bytes` an access of `size` bytes at addr overlaps, at most MAX_UNITS_PER_LANE
 * (an access of up to 128 bytes, the widest vector, needs no more at 32 bytes). */
static unsigned granule_span(uint64_t addr, uint64_t size, uint64_t bytes, uint64_t *first)
{
    *first = addr / bytes;
    uint64_t n = size ? (addr + size - 1) / bytes - *first + 1 : 0;
    return n < MAX_UNITS_PER_LANE ? (unsigned)n : MAX_UNITS_PER_LANE;
}

/* The gap class (model.h) whose gap is nearest, in log scale, to `gap` granules: past the
 * geometric mean of two neighbouring classes' gaps, the larger is nearer. */
static unsigned gap_class(double gap)
{
    unsigned c = 0;
    while (c + 1 < CLC_MODEL_GAPS && gap * gap > clc_model_gap(c) * clc_model_gap(c + 1))
        c++;
    return c;
}

/* The gap between the touched granules ids[0 .. n) of one window, sorted, of which `room`
 * lie in the sample: their mean distance, or the room each has when that is larger.  A few
 * granules bunched in a window otherwise untouched count by their mean distance, and *bunch
 * tells so: a tiled transpose's 128-byte tile rows, a matrix row apart, whose rooms the
 * work-groups a row of tiles later write (stores: L2 writes lines back only when it evicts
 * them, by when the others have written the room) or read (loads: a transpose that takes its
 * tiles along diagonals or down columns); DRAM takes them at a rate of its own, the
 * profile's; only where `may_bunch`: stores, and loads in a window none of whose granules a
 * gather touched (a gather's, far apart, are DRAM's at random).  A granule alone in its
 * window is as far apart as the classes go. */
static double window_gap(const uint64_t *ids, size_t n, uint64_t room, bool may_bunch,
                         bool *bunch)
{
    *bunch = false;
    if (n < 2)
        return clc_model_gap(CLC_MODEL_GAPS - 1);
    double mean = (double)(ids[n - 1] - ids[0]) / (double)(n - 1);
    /* a stride leaves at most about two of its gaps untouched at a window's ends */
    bool bunched = (double)room - (double)(ids[n - 1] - ids[0] + 1) >= 4 * mean;
    *bunch = bunched && may_bunch;
    return *bunch ? mean : fmax((double)room / (double)n, mean);
}

/* A set of accesses what reaches DRAM is read off: the fully traced warps, or the wide
 * sample (the first few loads and stores of many work-items).  Empty slots are skipped. */
struct sample {
    const uint64_t *words;
    size_t items;
    unsigned slots;
    size_t wg; /* its work-groups' size where the slots are in program order (the traced
                * warps), for the loads that stores before them feed; 0: not in order */
    unsigned keep; /* the accesses of each direction read per work-item, its first; 0: all */
};

/* Granules of one direction in a sample: by size and gap class, and the bytes they hold. */
struct sampled {
    uint64_t granules[CLC_MODEL_GRANULES][CLC_MODEL_GAPS];
    uint64_t random[CLC_MODEL_GRANULES]; /* loads' granules of irregular requests, sparse */
    uint64_t bunched[CLC_MODEL_GRANULES]; /* dense bunches in windows others fill */
    uint64_t useful;
};

static const uint64_t *slot_of(const struct sample *sm, size_t i, unsigned k)
{
    return sm->words + (i * 2 * (size_t)sm->slots + 2 * (size_t)k);
}

/* The 32-byte granule ids of a sample's accesses in each direction (0 loads, 1 stores), and
 * the bytes those accesses access; read in one pass, since the records are most of the
 * analysis's memory traffic. */
struct sample_ids {
    uint64_t *ids[2];
    size_t n[2], cap[2];
    uint64_t useful[2];
};

static void sample_ids_free(struct sample_ids *si)
{
    free(si->ids[0]);
    free(si->ids[1]);
}

/* A 32-byte granule some work-item of a work-group stores, and the earliest slot it does. */
struct stored_at {
    uint64_t id;
    unsigned k;
};

static int cmp_stored(const void *a, const void *b)
{
    const struct stored_at *x = a, *y = b;
    return x->id != y->id ? (x->id < y->id ? -1 : 1) : (x->k > y->k) - (x->k < y->k);
}

/* p (room for *cap elements of `size` bytes) with room for `need`, twice as much and 1024
 * more, or NULL out of memory (p then still the caller's to free). */
static void *room_for(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t grown_cap = 2 * *cap + 1024 > need ? 2 * *cap + 1024 : need;
    void *grown = realloc(p, grown_cap * size);
    if (grown != NULL)
        *cap = grown_cap;
    return grown;
}

/* The granules the work-items [from, from + n) of sm store, sorted by id then slot, into
 * *out (grown as needed, *cap its room); returns how many, or SIZE_MAX out of memory. */
static size_t group_stores(const struct sample *sm, size_t from, size_t n,
                           struct stored_at **out, size_t *cap)
{
    size_t m = 0;
    for (size_t i = from; i < from + n; i++)
        for (unsigned k = 0; k < sm->slots; k++) {
            const uint64_t *r = slot_of(sm, i, k);
            if (r[1] == 0 || (r[1] & 1) == 0)
                continue;
            uint64_t first;
            unsigned span = granule_span(r[0], clc_trace_size(r[1]),
                                         clc_model_granule_bytes(0), &first);
            struct stored_at *grown = room_for(*out, cap, m + span, sizeof *grown);
            if (grown == NULL)
                return SIZE_MAX;
            *out = grown;
            for (unsigned u = 0; u < span; u++)
                (*out)[m++] = (struct stored_at){first + u, k};
        }
    if (m > 1)
        qsort(*out, m, sizeof **out, cmp_stored);
    return m;
}

/* Whether the work-group stored granule id (st[0 .. n), sorted) before slot k: a load of it
 * then finds it in the L2 the store left it in, not in DRAM. */
static bool stored_before(const struct stored_at *st, size_t n, uint64_t id, unsigned k)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && st[lo].id == id && st[lo].k < k;
}

/* Whether the loads of slot k of the warp whose lanes are work-items [from, from + n) of sm
 * land at addresses with no structure: sorted, more than an eighth of their steps differ
 * from every other (a gather through random indices or a hash, whose granules DRAM serves
 * at random).  A stride's, a column's or a permutation's like i * k mod n keep one step;
 * a tile's rows, two (along a row, and to the next row); blocks of lanes, a few. */
static bool irregular(const struct sample *sm, size_t from, size_t n, unsigned k)
{
    uint64_t a[CLC_MODEL_MAX_WARP];
    unsigned m = 0;
    for (size_t i = from; i < from + n && m < CLC_MODEL_MAX_WARP; i++) {
        const uint64_t *r = slot_of(sm, i, k);
        if (r[1] != 0 && (r[1] & 1) == 0)
            a[m++] = r[0];
    }
    if (m < 8)
        return false;
    qsort(a, m, sizeof a[0], cmp_u64);
    for (unsigned l = 0; l + 1 < m; l++)
        a[l] = a[l + 1] - a[l];
    qsort(a, m - 1, sizeof a[0], cmp_u64);
    unsigned steps = 1;
    for (unsigned l = 1; l + 1 < m; l++)
        steps += a[l] != a[l - 1];
    return 8 * steps > m;
}

/* Fills si from sm; false when out of memory.  In a sample in program order, a load of a
 * granule its work-group stored at an earlier slot (a second pass over the output, the
 * read-back of a read-modify-write) is not read from DRAM: it counts its useful bytes only. */
static bool collect_ids(const struct sample *sm, struct sample_ids *si)
{
    memset(si, 0, sizeof *si);
    struct stored_at *st = NULL;
    size_t st_cap = 0, n_st = 0;
    bool *irr = calloc(sm->slots ? sm->slots : 1, sizeof *irr);
    if (irr == NULL)
        return false;
    for (size_t i = 0; i < sm->items; i++) {
        unsigned kept[2] = {0, 0};
        if (sm->wg > 0 && i % sm->wg == 0) {
            size_t n = sm->items - i < sm->wg ? sm->items - i : sm->wg;
            n_st = group_stores(sm, i, n, &st, &st_cap);
            if (n_st == SIZE_MAX) {
                free(st);
                free(irr);
                sample_ids_free(si);
                return false;
            }
        }
        /* warps start at each work-group's first work-item (the sample's first without
         * groups) */
        size_t lane = (sm->wg > 0 ? i % sm->wg : i) % CLC_MODEL_WARP;
        if (lane == 0) {
            size_t n = sm->items - i < CLC_MODEL_WARP ? sm->items - i : CLC_MODEL_WARP;
            if (sm->wg > 0 && sm->wg - i % sm->wg < n)
                n = sm->wg - i % sm->wg;
            for (unsigned k = 0; k < sm->slots; k++)
                irr[k] = irregular(sm, i, n, k);
        }
        for (unsigned k = 0; k < sm->slots; k++) {
            const uint64_t *r = slot_of(sm, i, k);
            if (r[1] == 0 || elided(slot_of(sm, i, 0), sm->slots, k))
                continue;
            unsigned dir = r[1] & 1;
            if (sm->keep > 0 && kept[dir]++ >= sm->keep)
                continue;
            uint64_t first;
            unsigned span = granule_span(r[0], clc_trace_size(r[1]),
                                         clc_model_granule_bytes(0), &first);
            uint64_t *grown = room_for(si->ids[dir], &si->cap[dir], si->n[dir] + span,
                                       sizeof *grown);
            if (grown == NULL) {
                free(st);
                free(irr);
                sample_ids_free(si);
                return false;
            }
            si->ids[dir] = grown;
            si->useful[dir] += clc_trace_size(r[1]);
            /* each id tagged in its lowest bit: a load of an irregular request */
            for (unsigned u = 0; u < span; u++)
                if (dir == 1 || sm->wg == 0 || !stored_before(st, n_st, first + u, k))
                    si->ids[dir][si->n[dir]++] = (first + u) << 1 | (dir == 0 && irr[k]);
        }
    }
    free(st);
    free(irr);
    return true;
}

/* Counts the distinct granules among ids[0 .. n) (32-byte ids of direction dir, tagged as
 * collect_ids tags them; sorted and overwritten here, tmp room for n, irr for n flags)
 * into out's counts, each by the density of its window (gap_class), but those of irregular
 * loads in a sparse window apart: DRAM serves them at random.  Sorted once: the larger granules' ids are the same ids shifted,
 * still in order; a granule is irregular where any access to it is. */
static void count_granules(uint64_t *ids, size_t n, unsigned dir, uint64_t *tmp, bool *irr,
                           struct sampled *out)
{
    memset(out->granules, 0, sizeof out->granules);
    memset(out->random, 0, sizeof out->random);
    memset(out->bunched, 0, sizeof out->bunched);
    sort_ids(ids, n, tmp);
    for (unsigned gi = 0; gi < CLC_MODEL_GRANULES; gi++) {
        /* ids[0 .. n): the distinct ids of the size before (tagged 32-byte ones at first);
         * halved, still in order, they are this size's ids, deduplicated in place */
        size_t d = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t id = ids[i] >> 1;
            bool tag = gi ? irr[i] : (ids[i] & 1) != 0;
            if (d == 0 || id != ids[d - 1]) {
                irr[d] = tag;
                ids[d++] = id;
            } else {
                irr[d - 1] = irr[d - 1] || tag;
            }
        }
        n = d;
        /* the ids of one window are consecutive in the sorted list; the windows at the
         * sample's ends hold only what lies inside it */
        for (size_t i = 0, j; i < n; i = j) {
            uint64_t lo = ids[i] / CLC_MODEL_WINDOW * CLC_MODEL_WINDOW,
                     hi = lo + CLC_MODEL_WINDOW - 1;
            for (j = i + 1; j < n && ids[j] <= hi; j++)
                ;
            lo = lo > ids[0] ? lo : ids[0];
            hi = hi < ids[n - 1] ? hi : ids[n - 1];
            bool bunch, regular = true;
            for (size_t k = i; k < j; k++)
                regular = regular && !irr[k];
            unsigned c = gap_class(
                window_gap(ids + i, j - i, hi - lo + 1, dir == 1 || regular, &bunch));
            for (size_t k = i; k < j; k++) {
                if (c > 0 && irr[k])
                    out->random[gi]++;
                else if (c == 0 && bunch)
                    out->bunched[gi]++;
                else
                    out->granules[gi][c]++;
            }
        }
    }
}

/* The granules of both directions of sm into out[2]; false when out of memory. */
static bool sample_granules(const struct sample *sm, struct sampled out[2])
{
    struct sample_ids si;
    if (!collect_ids(sm, &si))
        return false;
    size_t most = si.n[0] > si.n[1] ? si.n[0] : si.n[1];
    uint64_t *tmp = malloc((most ? most : 1) * sizeof *tmp);
    bool *irr = malloc((most ? most : 1) * sizeof *irr);
    bool ok = tmp != NULL && irr != NULL;
    for (unsigned dir = 0; ok && dir < 2; dir++) {
        count_granules(si.ids[dir], si.n[dir], dir, tmp, irr, &out[dir]);
        out[dir].useful = si.useful[dir];
    }
    free(tmp);
    free(irr);
    sample_ids_free(&si);
    return ok;
}

/* The most accesses of direction dir (0 loads, 1 stores) any work-item of sm makes. */
static unsigned most_accesses(const struct sample *sm, unsigned dir)
{
    unsigned most = 0;
    for (size_t i = 0; i < sm->items; i++) {
        unsigned n = 0;
        for (unsigned k = 0; k < sm->slots; k++) {
            const uint64_t *r = slot_of(sm, i, k);
            n += r[1] != 0 && (r[1] & 1) == dir;
        }
        most = n > most ? n : most;
    }
    return most;
}

/* The granules of size class g a sample's accesses of one direction touch, whatever their
 * kind: in each gap class, at random, bunched. */
static uint64_t granules_of(const struct sampled *s, unsigned g)
{
    uint64_t n = s->random[g] + s->bunched[g];
    for (unsigned c = 0; c < CLC_MODEL_GAPS; c++)
        n += s->granules[g][c];
    return n;
}

/* A piece of a 128-byte line that a store writes: the line, and its bytes a bit each. */
struct line_piece {
    uint64_t line, bytes[2];
};

static int cmp_piece(const void *a, const void *b)
{
    uint64_t x = ((const struct line_piece *)a)->line, y = ((const struct line_piece *)b)->line;
    return x < y ? -1 : x > y;
}

/* Sets bits lo .. hi - 1 (lo < hi <= 128) of a 128-bit mask held in two words. */
static void set_bits(uint64_t m[2], unsigned lo, unsigned hi)
{
    for (unsigned w = 0; w < 2; w++) {
        if (hi <= 64 * w || lo >= 64 * (w + 1))
            continue;
        unsigned a = lo > 64 * w ? lo - 64 * w : 0, b = hi < 64 * (w + 1) ? hi - 64 * w : 64;
        m[w] |= b - a == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << (b - a)) - 1) << a;
    }
}

/* A stored piece as one sortable word: its line, then its first byte and the byte past its
 * last within the line (0 .. 127, 1 .. 128), so that a radix sort of the words puts each
 * line's pieces together.  Lines past 2^47 (addresses past 2^54) do not fit: false. */
static bool piece_key(uint64_t line, unsigned lo, unsigned hi, uint64_t *key)
{
    *key = line << 16 | (uint64_t)lo << 8 | hi;
    return line >> 47 == 0;
}

/* The lines sm's loads touch (sorted, distinct, into *ld) and the pieces its stores write
 * (sorted by line and merged, one a line, into *pc); false out of memory or where an
 * address does not fit a piece's key. */
static bool sample_lines(const struct sample *sm, uint64_t **ld, size_t *n_ld,
                         struct line_piece **pc, size_t *n_pc)
{
    uint64_t *st = NULL, *tmp = NULL;
    size_t ld_cap = 0, st_cap = 0, n_st = 0;
    bool ok = true;
    *n_ld = *n_pc = 0;
    for (size_t i = 0; ok && i < sm->items; i++)
        for (unsigned k = 0; ok && k < sm->slots; k++) {
            const uint64_t *r = slot_of(sm, i, k);
            uint64_t size = clc_trace_size(r[1]), a = r[0];
            if (r[1] == 0 || size == 0)
                continue;
            bool load = (r[1] & 1) == 0;
            for (uint64_t end; ok && a < r[0] + size; a = end) {
                uint64_t line = a / CLC_MODEL_LINE, key = line;
                end = (line + 1) * CLC_MODEL_LINE;
                unsigned hi = r[0] + size < end ? (unsigned)(r[0] + size - line * CLC_MODEL_LINE)
                                                : CLC_MODEL_LINE;
                ok = load || piece_key(line, (unsigned)(a % CLC_MODEL_LINE), hi, &key);
                uint64_t **to = load ? ld : &st;
                size_t *n = load ? n_ld : &n_st;
                uint64_t *more = ok ? room_for(*to, load ? &ld_cap : &st_cap, *n + 1, sizeof key)
                                    : NULL;
                ok = more != NULL;
                if (ok) {
                    *to = more;
                    (*to)[(*n)++] = key;
                }
            }
        }
    size_t most = *n_ld > n_st ? *n_ld : n_st;
    tmp = ok ? malloc((most ? most : 1) * sizeof *tmp) : NULL;
    *pc = tmp != NULL ? malloc((n_st ? n_st : 1) * sizeof **pc) : NULL;
    ok = *pc != NULL;
    if (ok) {
        sort_ids(*ld, *n_ld, tmp);
        sort_ids(st, n_st, tmp);
        *n_ld = distinct(*ld, *n_ld);
        size_t d = 0;
        for (size_t i = 0; i < n_st; i++) {
            uint64_t line = st[i] >> 16;
            if (d == 0 || (*pc)[d - 1].line != line)
                (*pc)[d++] = (struct line_piece){line, {0, 0}};
            set_bits((*pc)[d - 1].bytes, (unsigned)(st[i] >> 8 & 0xff), (unsigned)(st[i] & 0xff));
        }
        *n_pc = d;
    }
    free(st);
    free(tmp);
    return ok;
}

/* Whether a store into `line` leaves it to work-groups past the sample: the sample's stores
 * leave part of it unwritten and none of its loads brings it whole into the L2. */
static bool line_left(uint64_t line, const uint64_t *ld, size_t n_ld,
                      const struct line_piece *pc, size_t n_pc)
{
    struct line_piece key = {line, {0, 0}};
    const struct line_piece *p = n_pc ? bsearch(&key, pc, n_pc, sizeof *pc, cmp_piece) : NULL;
    if (p == NULL || (p->bytes[0] == ~UINT64_C(0) && p->bytes[1] == ~UINT64_C(0)))
        return false;
    return n_ld == 0 || bsearch(&line, ld, n_ld, sizeof *ld, cmp_u64) == NULL;
}

/* Of the store requests of sm (a warp's lanes at one slot; each line a request writes
 * counted once), the share into lines the sample leaves to work-groups past it (line_left):
 * where the sample is the work-groups that run at once, a block of whole rows of the grid
 * where they run a row or more apart, those lines are completed by work-groups that run
 * later (a naive transpose's line of out, 32 rows of a column, a quarter of it from each
 * work-group of 8 rows: the work-groups a row, two and three rows on).  A line no one
 * completes (strided stores) counts alike unless the kernel loads it too, as the stride
 * case's do.  0 where the sample stores nothing; NAN out of memory. */
static double far_share(const struct sample *sm, unsigned warp)
{
    uint64_t *ld = NULL, lines[2 * CLC_MODEL_MAX_WARP];
    struct line_piece *pc = NULL;
    size_t n_ld, n_pc;
    uint64_t far = 0, all = 0;
    bool ok = sample_lines(sm, &ld, &n_ld, &pc, &n_pc);
    for (size_t w = 0; ok && w < sm->items; w += warp)
        for (unsigned k = 0; k < sm->slots; k++) {
            size_t n = 0;
            for (size_t i = w; i < w + warp && i < sm->items; i++) {
                const uint64_t *r = slot_of(sm, i, k);
                uint64_t size = clc_trace_size(r[1]);
                if ((r[1] & 1) == 0 || size == 0)
                    continue;
                uint64_t first;
                unsigned span = granule_span(r[0], size, CLC_MODEL_LINE, &first);
                for (unsigned u = 0; u < span && n < 2 * CLC_MODEL_MAX_WARP; u++)
                    lines[n++] = first + u;
            }
            qsort(lines, n, sizeof lines[0], cmp_u64);
            n = distinct(lines, n);
            all += n;
            for (size_t j = 0; j < n; j++)
                far += line_left(lines[j], ld, n_ld, pc, n_pc);
        }
    free(ld);
    free(pc);
    return !ok ? NAN : all > 0 ? (double)far / (double)all : 0;
}

/* A sample's granule bytes of one direction per useful byte, summed over every granule
 * size (a sample that cuts work-items' runs short can tie at 32 bytes and still lose at 64);
 * NAN where it has no useful bytes. */
static double per_useful(const struct sampled *s)
{
    uint64_t n = 0;
    for (unsigned g = 0; g < CLC_MODEL_GRANULES; g++)
        n += granules_of(s, g) << g;
    return s->useful > 0 ? (double)n / (double)s->useful : NAN;
}

/* Where a work-item's first few accesses show more than this share more or fewer granule
 * bytes per useful byte than its whole run, they are another mix than the run. */
#define MIX_DIFFERS 0.1

/* Fills m->granules and m->granule_useful, per direction.  Each sample can only miss reuse
 * (the traced warps see what a work-item reuses over its whole run, the wide sample what
 * work-items far apart share, in windows the traced warps alone rarely fill), never invent
 * it: the wide sample counts where it shows no more granule bytes per useful byte.  But
 * where it holds only the work-items' first few accesses (cut) and those are another mix
 * than the whole run (the traced warps' first few against all of theirs: a gather's index
 * loads, not the gathered ones, or one gathered load of four), the traced warps' granules
 * count, each for fewer useful bytes by what the wide sample shares over the traced warps'
 * same first accesses.  False when out of memory. */
static bool dram_granules(const struct clc_trace *t, struct clc_model *m)
{
    struct sample narrow = {t->words, t->n_items, t->slots, t->wg_size, 0};
    struct sample wide = {t->wide_words, t->wide_items, t->wide_slots, 0, 0};
    struct sample first = narrow;
    first.keep = t->wide_slots / 2;
    bool has_wide = t->wide_words != NULL && t->wide_items > 0 && t->wide_slots > 0;
    struct sampled a[2], b[2], c[2];
    if (!sample_granules(&narrow, a) || (has_wide && !sample_granules(&wide, b)))
        return false;
    /* per direction: the wide sample holds fewer accesses than the work-items make */
    bool cut[2] = {true, true};
    for (unsigned dir = 0; has_wide && dir < 2; dir++)
        cut[dir] = most_accesses(&narrow, dir) > first.keep;
    if (has_wide && (cut[0] || cut[1]) && !sample_granules(&first, c))
        return false;
    if (!cut[1]) {
        uint64_t all = granules_of(&b[1], 0);
        m->store_spread = all > 0 ? (double)b[1].bunched[0] / (double)all : 0;
        m->store_far = far_share(&wide, t->warp);
    }
    for (unsigned dir = 0; dir < 2; dir++) {
        const struct sampled *best = &a[dir];
        double useful = (double)a[dir].useful;
        if (has_wide && b[dir].useful > 0) {
            double pa = per_useful(&a[dir]), pb = per_useful(&b[dir]);
            double pc = cut[dir] ? per_useful(&c[dir]) : pa;
            if (!(fabs(pc - pa) > MIX_DIFFERS * pa)) {
                if (!(pb > pa)) {
                    best = &b[dir];
                    useful = (double)b[dir].useful;
                }
            } else if (pb > 0 && pb < pc) {
                useful *= pc / pb;
            }
        }
        memcpy(m->granules[dir], best->granules, sizeof best->granules);
        m->granule_useful[dir] = (uint64_t)llround(useful);
        if (dir == 0) {
            memcpy(m->random, best->random, sizeof best->random);
            memcpy(m->bunched_loads, best->bunched, sizeof best->bunched);
        } else {
            memcpy(m->bunched, best->bunched, sizeof best->bunched);
        }
    }
    return true;
}

/* The mean over work-items that load of the longest run of loads with no store between;
 * a load that waits for the one before it (its index is that load's value) adds none. */
static double loads_in_flight(const struct clc_trace *t)
{
    double sum = 0;
    size_t loaders = 0;
    for (size_t i = 0; i < t->n_items; i++) {
        unsigned run = 0, longest = 0;
        for (unsigned k = 0; k < t->slots; k++) {
            const uint64_t *r = record(t, t->words, i, k);
            if (r[1] == 0)
                break;
            if (elided(record(t, t->words, i, 0), t->slots, k))
                continue; /* never issued */
            run = r[1] & 1 ? 0 : r[1] & CLC_TRACE_DEPENDENT ? run : run + 1;
            if (run > longest)
                longest = run;
        }
        if (longest > 0) {
            sum += longest;
            loaders++;
        }
    }
    return ratio(sum, (double)loaders);
}

/* Whether sorted ids[0 .. n) hold id, *at (a cursor that only moves on) past the lesser. */
static bool holds(const uint64_t *ids, size_t n, size_t *at, uint64_t id)
{
    while (*at < n && ids[*at] < id)
        ++*at;
    return *at < n && ids[*at] == id;
}

/* Loads' line requests that reach the L2: a warp's load asks the L2 for each line it needs a
 * sector of that no earlier warp of its work-group asked for at the same access index, nor
 * its own last load; the lines those warps asked for are on their way into the L1, where the
 * later warps' requests find them (a work-group's warps walking down the same columns, as
 * the scatter case's load rows do, send the L2 one warp's requests in 8).  rq and ids:
 * scratch (a request; 2 MAX_UNITS ids).  False where memory runs out. */
static bool count_group_lines(const struct clc_trace *t, struct clc_model *m,
                              struct clc_model_request *rq, uint64_t *ids)
{
    size_t wpg = warps_per_group(t), per_warp = (size_t)t->warp * MAX_UNITS_PER_LANE;
    size_t room = wpg * per_warp;
    /* the sectors asked for at this access, a merge's scratch, each warp's last load's */
    uint64_t *seen = malloc(3 * room * sizeof *seen);
    uint64_t *merged = seen + room, *last = seen + 2 * room;
    size_t *n_last = calloc(wpg, sizeof *n_last);
    uint64_t *line_ids = ids, *sector_ids = ids + MAX_UNITS;
    bool ok = seen != NULL && n_last != NULL;
    for (size_t g = 0; ok && g < m->warps / wpg; g++) {
        memset(n_last, 0, wpg * sizeof *n_last);
        for (unsigned k = 0; k < t->slots; k++) {
            size_t n_seen = 0;
            unsigned any = 0;
            for (size_t j = 0; j < wpg; j++) {
                any += gather(t, t->words, g * wpg + j, k, false, rq, line_ids, sector_ids);
                if (rq->active == 0)
                    continue;
                uint64_t *mine = last + j * per_warp, line_of_last = UINT64_MAX;
                size_t at = 0, at_mine = 0;
                for (unsigned i = 0; i < rq->sectors; i++) {
                    uint64_t id = sector_ids[i], line = id * CLC_MODEL_SECTOR / CLC_MODEL_LINE;
                    /* both cursors move on, so both are asked before either answer counts */
                    bool in_seen = holds(seen, n_seen, &at, id);
                    bool in_mine = holds(mine, n_last[j], &at_mine, id);
                    bool asked = in_seen || in_mine;
                    if (!asked && line != line_of_last) {
                        m->load.group_lines++;
                        line_of_last = line;
                    }
                }
                size_t a = 0, b = 0, n = 0;
                while ((a < n_seen || b < rq->sectors) && n < room)
                    merged[n++] = b == rq->sectors || (a < n_seen && seen[a] <= sector_ids[b])
                                      ? seen[a++]
                                      : sector_ids[b++];
                memcpy(seen, merged, n * sizeof *seen);
                n_seen = n;
                n_last[j] = rq->sectors < per_warp ? rq->sectors : per_warp;
                memcpy(mine, sector_ids, n_last[j] * sizeof *mine);
            }
            if (any == 0)
                break;
        }
    }
    free(seen);
    free(n_last);
    return ok;
}

/* Whether sector id is among the sorted partial sectors of a warp of the work-group other
 * than j (part: wpg lists of MAX_UNITS, n their lengths). */
static bool held_by_another(const uint64_t *part, const unsigned *n, size_t wpg, size_t j,
                            uint64_t id)
{
    for (size_t o = 0; o < wpg; o++) {
        if (o == j)
            continue;
        const uint64_t *v = part + o * MAX_UNITS;
        size_t lo = 0, hi = n[o];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (v[mid] < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < n[o] && v[lo] == id)
            return true;
    }
    return false;
}

/* Stores that other warps of the work-group write into at the same access: a store request
 * half of whose sectors or more, written in part, another warp of its work-group also writes
 * in part at the same access index (a tile staged through __local and stored back in
 * pieces, four warps to a sector; not a coalesced request whose end sectors its neighbours
 * share).  Warps that store together (after a barrier) have the L1 merge such pieces before
 * the L2, the more the fewer lines a request touches: Nsight Compute on the H100 counted 1.3
 * line requests and 4.8 sectors a store of `scale_local_square16` (8 lines, 16 sectors in
 * part), in the stores case 2 to 6 for 8 lines, 15 for 16, none merged for 32.  Counts those
 * requests, their lines, their sectors written in part and their useful bytes.  rq, ids:
 * scratch (a request; 2 MAX_UNITS ids).  False where memory runs out. */
static bool count_shared_stores(const struct clc_trace *t, struct clc_model *m,
                                struct clc_model_request *rq, uint64_t *ids)
{
    size_t wpg = warps_per_group(t);
    uint64_t *part = malloc(wpg * MAX_UNITS * sizeof *part);
    unsigned *n_part = calloc(3 * wpg, sizeof *n_part), *lines = n_part + wpg,
             *sectors = n_part + 2 * wpg;
    uint64_t *useful = calloc(wpg, sizeof *useful);
    bool ok = part != NULL && n_part != NULL && useful != NULL;
    for (size_t g = 0; ok && g < m->warps / wpg; g++)
        for (unsigned k = 0; k < t->slots; k++) {
            unsigned any = 0;
            for (size_t j = 0; j < wpg; j++) {
                any += gather(t, t->words, g * wpg + j, k, true, rq, ids, ids + MAX_UNITS);
                n_part[j] = rq->active ? partial_sectors(rq, part + j * MAX_UNITS) : 0;
                lines[j] = rq->active ? rq->lines : 0;
                sectors[j] = rq->active ? rq->sectors : 0;
                useful[j] = rq->active ? rq->useful : 0;
            }
            for (size_t j = 0; j < wpg; j++) {
                unsigned shared = 0;
                for (unsigned i = 0; i < n_part[j]; i++)
                    shared += held_by_another(part, n_part, wpg, j, part[j * MAX_UNITS + i]);
                /* pieces, not a coalesced request whose ends its neighbours share */
                if (shared > 0 && 2 * shared >= sectors[j]) {
                    m->store.shared_requests++;
                    m->store.shared_lines += lines[j];
                    m->store.shared_partial += n_part[j];
                    m->store.shared_useful += useful[j];
                }
            }
            if (any == 0)
                break;
        }
    free(part);
    free(n_part);
    free(useful);
    return ok;
}

/* ------------------------------------------------------------------ local memory */

/* Words (of `width` bytes) one lane's access may cover before the rest are dropped: a
 * 128-byte access at width 4 covers 32, or 33 unaligned. */
#define MAX_WORDS_PER_LANE 64

/* Passes the banks need to serve the lanes of rq in phase [from, to) of its active lanes:
 * the most distinct words any one bank holds.  words has room for MAX_WORDS_PER_LANE per
 * lane. */
static unsigned phase_passes(const struct clc_model_request *rq, unsigned from, unsigned to,
                             unsigned banks, unsigned width, uint64_t *words)
{
    size_t n = 0;
    unsigned seen = 0;
    for (unsigned l = 0; l < rq->lanes && seen < to; l++) {
        const struct clc_model_lane *ln = &rq->lane[l];
        if (!ln->active)
            continue;
        if (seen++ < from || ln->size == 0)
            continue;
        uint64_t first = ln->addr / width, last = (ln->addr + ln->size - 1) / width;
        for (uint64_t w = first; w <= last && w - first < MAX_WORDS_PER_LANE; w++)
            words[n++] = w;
    }
    if (n == 0)
        return 0;
    qsort(words, n, sizeof words[0], cmp_u64);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        if (d == 0 || words[i] != words[d - 1])
            words[d++] = words[i];
    /* distinct words by bank: the longest run of one bank once sorted by it */
    for (size_t i = 0; i < d; i++)
        words[i] %= banks;
    qsort(words, d, sizeof words[0], cmp_u64);
    unsigned most = 0, run = 0;
    for (size_t i = 0; i < d; i++) {
        run = i > 0 && words[i] == words[i - 1] ? run + 1 : 1;
        if (run > most)
            most = run;
    }
    return most;
}

/* Passes for a __local request: its active lanes in lane order, in phases of
 * banks * width / size lanes when the accesses are wider than a bank (the whole warp
 * otherwise), each phase served apart. */
static uint64_t request_passes(const struct clc_model_request *rq, unsigned banks,
                               unsigned width, uint64_t *words)
{
    uint32_t size = 0;
    for (unsigned l = 0; l < rq->lanes; l++)
        if (rq->lane[l].active && rq->lane[l].size > size)
            size = rq->lane[l].size;
    unsigned per = rq->active;
    if (size > width) {
        per = (unsigned)((uint64_t)banks * width / size);
        if (per == 0)
            per = 1;
    }
    uint64_t passes = 0;
    for (unsigned from = 0; from < rq->active; from += per)
        passes += phase_passes(rq, from, from + per, banks, width, words);
    return passes;
}

/* Fills m->local from t->local_words, requests formed as the global ones are. */
static void count_local(const struct clc_trace *t, struct clc_model_request *rq,
                        uint64_t *words, struct clc_model *m)
{
    unsigned banks = t->banks ? t->banks : CLC_MODEL_BANKS;
    unsigned width = t->bank_width ? t->bank_width : CLC_MODEL_BANK_WIDTH;
    for (size_t w = 0; w < m->warps; w++) {
        for (unsigned k = 0; k < t->slots; k++) {
            unsigned any = 0;
            for (int dir = 0; dir < 2; dir++) {
                any = gather(t, t->local_words, w, k, dir == 1, rq, NULL, NULL);
                if (rq->active == 0)
                    continue;
                uint64_t passes = request_passes(rq, banks, width, words);
                m->local.requests++;
                m->local.accesses += rq->active;
                m->local.passes += passes;
                if (dir == 0) {
                    m->local.load_requests++;
                    m->local.load_accesses += rq->active;
                    m->local.load_passes += passes;
                }
            }
            if (any == 0)
                break;
        }
    }
}

/* ------------------------------------------------------------------ lines left open */

/* A line a warp's stores write into and have not yet written whole: the warp's clock (the
 * bytes a lane has loaded) at its first write into it and at its last, and the bytes
 * written.  Stores back to back (a run) leave a line in moments, and the L1 merges them; a
 * load between is a wait for memory, while the device moves as much for every lane. */
struct open_line {
    uint64_t id, mask[2], lanes;
    double first, last;
    bool used, closed;
};

/* A warp's open lines: a table of `cap` (a power of two, addressed by the line's id) and
 * the places in use, so that clearing it for the next warp costs what the last one used. */
struct open_lines {
    struct open_line *at;
    size_t cap, *used, n_used;
    double clock;
};

static bool open_lines_init(struct open_lines *o, unsigned slots)
{
    memset(o, 0, sizeof *o);
    o->cap = 1024;
    while (o->cap < 2 * (size_t)slots * CLC_MODEL_MAX_WARP && o->cap < ((size_t)1 << 16))
        o->cap *= 2;
    o->at = calloc(o->cap, sizeof *o->at);
    o->used = malloc(o->cap * sizeof *o->used);
    return o->at != NULL && o->used != NULL;
}

static void open_lines_free(struct open_lines *o)
{
    free(o->at);
    free(o->used);
}

/* Line id's entry, a new one where it has none; NULL where the table is half full (a warp
 * that writes into that many lines: the rest go uncounted). */
static struct open_line *open_line_of(struct open_lines *o, uint64_t id)
{
    size_t i = (size_t)(id * 0x9E3779B97F4A7C15u >> 20) & (o->cap - 1);
    while (o->at[i].used && o->at[i].id != id)
        i = (i + 1) & (o->cap - 1);
    if (!o->at[i].used) {
        if (2 * o->n_used >= o->cap)
            return NULL;
        o->at[i] = (struct open_line){.id = id, .used = true, .closed = true};
        o->used[o->n_used++] = i;
    }
    return &o->at[i];
}

/* A line written before a load and again after weighs the bytes written into it, and its
 * window. */
static void open_line_count(struct clc_model_side *s, const struct open_line *e)
{
    if (!(e->last > e->first))
        return;
    double sectors = (double)(__builtin_popcountll(e->mask[0]) +
                              __builtin_popcountll(e->mask[1])) / CLC_MODEL_SECTOR;
    s->open_sectors += sectors;
    s->open_bytes += sectors * (e->last - e->first);
    s->open_lane_bytes += sectors * CLC_MODEL_LINE / __builtin_popcountll(e->lanes);
}

/* A request of the warp's: a load moves its clock on, a store marks the bytes it writes
 * into each line (a line it writes whole, at last, is closed and counted). */
static void open_lines_request(struct open_lines *o, const struct clc_model_request *rq,
                               struct clc_model_side *s)
{
    if (!rq->store) {
        o->clock += (double)rq->lane_bytes / rq->active;
        return;
    }
    for (unsigned l = 0; l < rq->lanes; l++) {
        const struct clc_model_lane *ln = &rq->lane[l];
        uint64_t end = ln->addr + ln->size;
        for (uint64_t lo = ln->addr; ln->active && lo < end;) {
            uint64_t line = lo / CLC_MODEL_LINE, hi = (line + 1) * CLC_MODEL_LINE;
            hi = hi < end ? hi : end;
            struct open_line *e = open_line_of(o, line);
            if (e == NULL)
                return;
            if (e->closed)
                *e = (struct open_line){.id = line, .used = true, .first = o->clock};
            for (uint64_t b = lo % CLC_MODEL_LINE; b < lo % CLC_MODEL_LINE + (hi - lo); b++)
                e->mask[b / 64] |= (uint64_t)1 << (b % 64);
            e->last = o->clock;
            e->lanes |= (uint64_t)1 << (l % 64);
            if (e->mask[0] == UINT64_MAX && e->mask[1] == UINT64_MAX) {
                open_line_count(s, e);
                e->closed = true;
            }
            lo = hi;
        }
    }
}

/* The warp is done: its lines still open count as they are; the table is cleared. */
static void open_lines_done(struct open_lines *o, struct clc_model_side *s)
{
    for (size_t i = 0; i < o->n_used; i++) {
        struct open_line *e = &o->at[o->used[i]];
        if (!e->closed)
            open_line_count(s, e);
        e->used = false;
    }
    o->n_used = 0;
    o->clock = 0;
}

/* ------------------------------------------------------------------ the analysis */

/* The sorted ids (lines or sectors) of a warp's last load request, and room for the request
 * at hand's: two buffers of MAX_UNITS that take turns. */
struct last_load {
    uint64_t *last, *now;
    unsigned n_last;
};

/* How many of the n ids in l->now the last load did not touch; they become the last load's. */
static unsigned new_since_last(struct last_load *l, unsigned n)
{
    unsigned fresh = not_in(l->now, n, l->last, l->n_last);
    uint64_t *swap = l->last;
    l->last = l->now;
    l->now = swap;
    l->n_last = n;
    return fresh;
}

/* A store request right after its warp's last store (no load between them to wait for)
 * that writes in part sectors that store wrote too (shared of its sectors): a run stored an
 * element at a time, whose pieces the L1 merges while they come back to back.  A store
 * that waits for a load of its own between (a loop that loads and stores an element a
 * step) comes too late for that. */
static void count_follow(struct clc_model_side *s, const struct clc_model_request *rq,
                         unsigned shared)
{
    unsigned follow = shared < rq->partial ? shared : rq->partial;
    if (follow == 0)
        return;
    s->follow_partial += follow;
    s->follow_lines += rq->lines;
    s->follow_requests++;
}

int clc_model_analyse(const struct clc_trace *t, struct clc_model *m)
{
    memset(m, 0, sizeof *m);
    m->store_spread = m->store_far = NAN;
    m->sectors_per_req_load = m->sectors_per_req_store = m->sectors_per_req = NAN;
    m->efficiency = m->bytes_moved = m->bytes_useful = NAN;
    m->loads_in_flight = m->load_lane_bytes = m->load_access_bytes = m->store_lane_bytes = NAN;
    if (t->warp == 0 || t->warp > CLC_MODEL_MAX_WARP || t->wg_size == 0 || t->n_items == 0 ||
        t->n_items % t->wg_size != 0 || t->slots == 0 || t->words == NULL)
        return -1;
    /* scratch, allocated once: a request, a phase's words, the lines and sectors of a warp's
     * last load request and of the request at hand */
    struct clc_model_request *rq = malloc(sizeof *rq);
    uint64_t *words = malloc(CLC_MODEL_MAX_WARP * MAX_WORDS_PER_LANE * sizeof *words);
    uint64_t *ids = malloc(6 * MAX_UNITS * sizeof *ids);
    struct open_lines open;
    bool opened = open_lines_init(&open, t->slots);
    if (rq == NULL || words == NULL || ids == NULL || !opened || !dram_granules(t, m)) {
        free(rq);
        free(words);
        free(ids);
        open_lines_free(&open);
        return -1;
    }
    m->warps = clc_model_warps(t);
    for (size_t w = 0; w < m->warps; w++) {
        struct last_load lines = {ids, ids + MAX_UNITS, 0};
        struct last_load sectors = {ids + 2 * MAX_UNITS, ids + 3 * MAX_UNITS, 0};
        struct last_load stored = {ids + 4 * MAX_UNITS, ids + 5 * MAX_UNITS, 0};
        bool after_store = false; /* the warp's last request stored, and loaded nothing */
        bool after_load = false;  /* it loaded, and stored nothing */
        for (unsigned k = 0; k < t->slots; k++) {
            unsigned any = 0;
            bool loaded = false, wrote = false;
            for (int dir = 0; dir < 2; dir++) {
                any = gather(t, t->words, w, k, dir == 1, rq, lines.now,
                             dir ? stored.now : sectors.now);
                if (rq->active == 0)
                    continue;
                struct clc_model_side *s = dir ? &m->store : &m->load;
                open_lines_request(&open, rq, &m->store);
                s->requests++;
                s->sectors += rq->sectors;
                s->lines += rq->lines;
                s->useful += rq->useful;
                s->lanes += rq->active;
                s->lane_bytes += rq->lane_bytes;
                if (dir == 0) {
                    /* a line this warp's last load touched may still be in L1: no new
                     * request while L1 holds what every resident warp keeps (predict.c).
                     * Right after that load (no store between: loads issued back to back)
                     * it is: the line is still on its way, or just in, when asked again */
                    unsigned kept = lines.n_last;
                    unsigned fresh_lines = new_since_last(&lines, rq->lines);
                    unsigned fresh_sectors = new_since_last(&sectors, rq->sectors);
                    s->new_lines += fresh_lines;
                    s->new_sectors += fresh_sectors;
                    if (!after_load) {
                        s->reused_lines += rq->lines - fresh_lines;
                        s->reused_sectors += rq->sectors - fresh_sectors;
                        s->reuse_footprint += (uint64_t)(rq->lines - fresh_lines) * kept;
                    }
                } else {
                    s->new_lines += rq->lines; /* L1 passes every store on */
                    s->partial_sectors += rq->partial;
                    unsigned shared = rq->sectors - new_since_last(&stored, rq->sectors);
                    if (after_store)
                        count_follow(s, rq, shared);
                }
                loaded |= dir == 0;
                wrote |= dir == 1;
            }
            if (loaded || wrote) {
                after_store = wrote && !loaded;
                after_load = loaded && !wrote;
            }
            if (any == 0)
                break; /* slots fill in order: no lane has a later access either */
            if (k == t->slots - 1)
                m->truncated = true;
        }
        open_lines_done(&open, &m->store);
    }
    open_lines_free(&open);
    bool grouped = count_group_lines(t, m, rq, ids) && count_shared_stores(t, m, rq, ids);
    if (grouped && t->local_words != NULL)
        count_local(t, rq, words, m);
    free(rq);
    free(words);
    free(ids);
    if (!grouped)
        return -1;
    m->loads_in_flight = loads_in_flight(t);
    m->load_lane_bytes = ratio((double)m->load.sectors * CLC_MODEL_SECTOR, (double)m->load.lanes);
    m->load_access_bytes = ratio((double)m->load.lane_bytes, (double)m->load.lanes);
    m->store_lane_bytes = ratio((double)m->store.lane_bytes, (double)m->store.lanes);
    uint64_t req = m->load.requests + m->store.requests;
    uint64_t sec = m->load.sectors + m->store.sectors;
    uint64_t useful = m->load.useful + m->store.useful;
    m->sectors_per_req_load = ratio((double)m->load.sectors, (double)m->load.requests);
    m->sectors_per_req_store = ratio((double)m->store.sectors, (double)m->store.requests);
    m->sectors_per_req = ratio((double)sec, (double)req);
    m->efficiency = ratio((double)useful, (double)sec * CLC_MODEL_SECTOR);
    double scale = (double)(t->launch_items ? t->launch_items : t->n_items) / (double)t->n_items;
    m->bytes_moved = (double)sec * CLC_MODEL_SECTOR * scale;
    m->bytes_useful = (double)useful * scale;
    return 0;
}

bool clc_model_first_request(const struct clc_trace *t, size_t warp, bool store,
                             struct clc_model_request *rq)
{
    if (t->warp == 0 || t->warp > CLC_MODEL_MAX_WARP || t->words == NULL ||
        warp >= clc_model_warps(t))
        return false;
    for (unsigned k = 0; k < t->slots; k++) {
        uint64_t lines[MAX_UNITS], sectors[MAX_UNITS];
        unsigned any = gather(t, t->words, warp, k, store, rq, lines, sectors);
        if (rq->active)
            return true;
        if (any == 0)
            break;
    }
    return false;
}

/* ------------------------------------------------------------------ picture */

#define BOX 15 /* characters inside a sector box: 4 boxes + the offset fit 80 columns */

/* Appends the lanes as ranges ("0-7", "0,4,8") to out (BOX characters at most); when they
 * do not fit, ends with "+N" for the N lanes left out. */
static void lane_list(const bool *in, unsigned lanes, char *out)
{
    char tok[24]; /* ",%u-%u" at its longest */
    size_t len = 0;
    unsigned total = 0, shown = 0;
    for (unsigned l = 0; l < lanes; l++)
        total += in[l];
    out[0] = '\0';
    for (unsigned l = 0; l < lanes;) {
        if (!in[l]) {
            l++;
            continue;
        }
        unsigned e = l;
        while (e + 1 < lanes && in[e + 1])
            e++;
        if (e == l)
            snprintf(tok, sizeof tok, "%s%u", len ? "," : "", l);
        else
            snprintf(tok, sizeof tok, "%s%u-%u", len ? "," : "", l, e);
        unsigned n = e - l + 1;
        /* room for this token, plus "+NN" if lanes remain after it */
        size_t reserve = shown + n < total ? 4 : 0;
        if (len + strlen(tok) + reserve > BOX) {
            snprintf(out + len, BOX + 1 - len, "%s+%u", len ? "," : "", total - shown);
            return;
        }
        memcpy(out + len, tok, strlen(tok) + 1);
        len += strlen(tok);
        shown += n;
        l = e + 1;
    }
}

void clc_model_picture(FILE *f, const struct clc_model_request *rq)
{
    uint64_t lines[MAX_UNITS];
    size_t n = 0;
    for (unsigned l = 0; l < rq->lanes; l++) {
        const struct clc_model_lane *ln = &rq->lane[l];
        if (!ln->active || ln->size == 0)
            continue;
        for (uint64_t u = ln->addr / CLC_MODEL_LINE;
             u <= (ln->addr + ln->size - 1) / CLC_MODEL_LINE && n < MAX_UNITS; u++)
            lines[n++] = u;
    }
    qsort(lines, n, sizeof lines[0], cmp_u64);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || lines[i] != lines[distinct - 1])
            lines[distinct++] = lines[i];
    if (distinct == 0) {
        fprintf(f, "  (no active lanes)\n");
        return;
    }
    uint64_t first = lines[0] * CLC_MODEL_LINE;
    fprintf(f, "  %u of %u lanes %s %" PRIu64 " distinct bytes; 128-byte lines from 0x%" PRIx64
            ":\n", rq->active, rq->lanes, rq->store ? "store" : "load", rq->useful, first);
    fprintf(f, "  %8s |%-*s|%-*s|%-*s|%-*s|\n", "line at", BOX, " sector 0", BOX, " sector 1",
            BOX, " sector 2", BOX, " sector 3");
    const size_t max_rows = 40;
    for (size_t i = 0; i < distinct; i++) {
        if (distinct > max_rows && i == max_rows - 4) {
            fprintf(f, "  %8s  ... %zu more lines ...\n", "", distinct - max_rows + 3);
            i = distinct - 4; /* show the last three */
            continue;
        }
        uint64_t line = lines[i] * CLC_MODEL_LINE;
        char off[32];
        snprintf(off, sizeof off, "+%" PRIu64, line - first);
        fprintf(f, "  %8s ", off);
        for (unsigned s = 0; s < 4; s++) {
            uint64_t lo = line + s * CLC_MODEL_SECTOR, hi = lo + CLC_MODEL_SECTOR;
            bool in[CLC_MODEL_MAX_WARP] = {false};
            bool any = false;
            for (unsigned l = 0; l < rq->lanes; l++) {
                const struct clc_model_lane *ln = &rq->lane[l];
                if (ln->active && ln->size && ln->addr < hi && ln->addr + ln->size > lo)
                    in[l] = any = true;
            }
            char box[BOX + 1];
            if (any)
                lane_list(in, rq->lanes, box);
            else
                snprintf(box, sizeof box, "      .");
            fprintf(f, "|%-*s", BOX, box);
        }
        fprintf(f, "|\n");
    }
    fprintf(f, "  %u sector%s in %u line%s: %" PRIu64 " useful of %u bytes moved (%.0f%%)\n",
            rq->sectors, rq->sectors == 1 ? "" : "s", rq->lines, rq->lines == 1 ? "" : "s",
            rq->useful, rq->sectors * CLC_MODEL_SECTOR,
            100.0 * (double)rq->useful / (rq->sectors * CLC_MODEL_SECTOR));
}
