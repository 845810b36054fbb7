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

/* Distinct units (sectors or lines of `unit` bytes) that the active lanes touch. */
static unsigned count_units(const struct clc_model_request *rq, uint64_t unit)
{
    uint64_t ids[MAX_UNITS];
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
    unsigned distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            distinct++;
    return distinct;
}

struct span {
    uint64_t lo, hi;
};

static int cmp_span(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Distinct bytes the active lanes access: lanes reading the same element use it once. */
static uint64_t union_bytes(const struct clc_model_request *rq)
{
    struct span sp[CLC_MODEL_MAX_WARP];
    size_t n = 0;
    for (unsigned l = 0; l < rq->lanes; l++)
        if (rq->lane[l].active && rq->lane[l].size)
            sp[n++] = (struct span){rq->lane[l].addr, rq->lane[l].addr + rq->lane[l].size};
    qsort(sp, n, sizeof sp[0], cmp_span);
    uint64_t total = 0, end = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo = sp[i].lo > end ? sp[i].lo : end;
        if (sp[i].hi > lo)
            total += sp[i].hi - lo;
        if (sp[i].hi > end)
            end = sp[i].hi;
    }
    return total;
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

/* Gathers the request of warp w at access index k in one direction.  Returns the number of
 * lanes that have any access at k (either direction), so callers know when to stop. */
static unsigned gather(const struct clc_trace *t, size_t w, unsigned k, bool store,
                       struct clc_model_request *rq)
{
    unsigned lanes, any = 0;
    size_t base = warp_base(t, w, &lanes);
    memset(rq, 0, sizeof *rq);
    rq->store = store;
    rq->warp = w;
    rq->k = k;
    rq->lanes = lanes;
    for (unsigned l = 0; l < lanes; l++) {
        const uint64_t *slot = t->words + ((base + l) * 2 * (size_t)t->slots + 2 * (size_t)k);
        if (slot[1] == 0)
            continue;
        any++;
        if (((slot[1] & 1) != 0) != store)
            continue;
        rq->lane[l].active = true;
        rq->lane[l].addr = slot[0];
        rq->lane[l].size = (uint32_t)(slot[1] >> 1);
        rq->active++;
    }
    if (rq->active) {
        rq->useful = union_bytes(rq);
        rq->sectors = count_units(rq, CLC_MODEL_SECTOR);
        rq->lines = count_units(rq, CLC_MODEL_LINE);
    }
    return any;
}

static double ratio(double num, double den)
{
    return den > 0 ? num / den : NAN;
}

int clc_model_analyse(const struct clc_trace *t, struct clc_model *m)
{
    memset(m, 0, sizeof *m);
    m->sectors_per_req_load = m->sectors_per_req_store = m->sectors_per_req = NAN;
    m->efficiency = m->bytes_moved = m->bytes_useful = NAN;
    if (t->warp == 0 || t->warp > CLC_MODEL_MAX_WARP || t->wg_size == 0 || t->n_items == 0 ||
        t->n_items % t->wg_size != 0 || t->slots == 0 || t->words == NULL)
        return -1;
    struct clc_model_request *rq = malloc(sizeof *rq);
    if (rq == NULL)
        return -1;
    m->warps = clc_model_warps(t);
    for (size_t w = 0; w < m->warps; w++) {
        for (unsigned k = 0; k < t->slots; k++) {
            unsigned any = 0;
            for (int dir = 0; dir < 2; dir++) {
                any = gather(t, w, k, dir == 1, rq);
                if (rq->active == 0)
                    continue;
                struct clc_model_side *s = dir ? &m->store : &m->load;
                s->requests++;
                s->sectors += rq->sectors;
                s->lines += rq->lines;
                s->useful += rq->useful;
            }
            if (any == 0)
                break; /* slots fill in order: no lane has a later access either */
            if (k == t->slots - 1)
                m->truncated = true;
        }
    }
    free(rq);
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
        unsigned any = gather(t, warp, k, store, rq);
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
    char tok[16];
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
