/* trace.c - a kernel launched once in its trace build (-DCLC_TRACE, cl/clc_trace.h): the
 * addresses of the first warps' accesses for the access model, and every work-item's
 * accesses checked against the buffers the launch was given, so that an access outside them
 * is named before an unchecked launch can do harm.  The layout of the trace buffer is
 * cl/clc_trace.h's; the constants below must match it.  The rows' trace builds are compiled
 * ahead of them on a GPU (ahead.c). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instance.h"

#define HEADER_WORDS 128  /* CLC_TRACE_HEADER in clc_trace.h */
#define MAX_BOUNDS 8      /* CLC_TRACE_MAX_BOUNDS */
#define W_NBOUNDS 0       /* then MAX_BOUNDS pairs [begin, end) */
#define W_FAULTS 17       /* accesses outside every buffer (counted in the low 32 bits) */
#define W_ITEM 18         /* the first one: work-item, address, (size << 1) | store, pointer */
#define W_ADDR 19
#define W_KIND 20
#define W_BASE 21
#define W_WIDE_GROUPS 22  /* the wide sample: its groups, and slots per work-item */
#define W_WIDE_SLOTS 23
#define W_LOWEST 24       /* the lowest work-item outside the buffers (low 32 bits) */
#define W_WANT 25         /* the work-item whose first such access W_ITEM.. are to hold */
#define W_WANT_SEEN 26
#define W_MAPS 27         /* where the byte maps begin, in words; 0: none */
#define W_WIDE_WIDTH 28   /* the wide sample's width in work-groups; 0: the first W_WIDE_GROUPS */
#define MAX_MAP_BYTES ((uint64_t)64 << 20) /* the byte maps of a trace, at most: 1/4 of the
                                            * bytes of the buffers they count */
#define WIDE_ITEMS 65536  /* work-items in the wide sample, at most (whole groups) */
#define WIDE_SLOTS 4      /* loads, and as many stores, each records there */
#define TRACE_SLOTS 64    /* accesses recorded per work-item: global ones, and as many __local */
#define BUILD_FAILED 4    /* trace_instance: the trace build did not compile */
#define TRACE_WARPS 8     /* warps traced per launch, at least */

size_t clc_trace_wide_rows(size_t row, size_t rows, size_t resident, size_t wide)
{
    size_t at_once = row > 0 ? resident / row : 0;
    if (at_once > rows)
        at_once = rows;
    if (at_once > wide)
        at_once = wide;
    return at_once >= 2 && row > wide / at_once ? at_once : 1;
}

/* Work-groups resident on the device at once, launched in groups of wg work-items: one a
 * compute unit where the device does not say how many it holds. */
static size_t resident_groups(const struct clc_device_meta *m, size_t wg)
{
    size_t per_cu = m->threads_per_cu > 0 ? (size_t)m->threads_per_cu / wg : 1;
    if (m->groups_per_cu > 0 && per_cu > (size_t)m->groups_per_cu)
        per_cu = (size_t)m->groups_per_cu;
    return clc_compute_units(m) * (per_cu > 0 ? per_cu : 1);
}

void clc_traced_free(struct clc_traced *tr)
{
    free(tr->words);
    tr->words = NULL;
    clc_plan_free(&tr->plan);
}

/* The buffer whose [begin, end) holds addr, or -1. */
static int owner(const uint64_t *begin, const uint64_t *end, unsigned n, uint64_t addr)
{
    for (unsigned i = 0; i < n; i++)
        if (addr >= begin[i] && addr < end[i])
            return (int)i;
    return -1;
}

void clc_fault_message(const struct clc_plan *p, const char *kernel, const struct clc_fault *f,
                       char *out, size_t len)
{
    const char *verb = f->store ? "stores" : "loads";
    char more[64] = "";
    if (f->count > 1)
        snprintf(more, sizeof more, " (and %" PRIu64 " more such accesses)", f->count - 1);
    if (f->buf < 0) {
        snprintf(out, len, "work-item %" PRIu64 " of %s %s %u bytes at address 0x%" PRIx64
                 ", in none of its buffers%s", f->item, kernel, verb, f->size, f->addr, more);
        return;
    }
    const struct clc_buffer_spec *b = &p->bufs[f->buf];
    if (f->size == b->elem_size && f->offset % (int64_t)b->elem_size == 0)
        snprintf(out, len, "work-item %" PRIu64 " of %s %s %s[%" PRId64 "]; %s holds %" PRIu64
                 " elements%s", f->item, kernel, verb, b->name, f->offset / (int64_t)b->elem_size,
                 b->name, b->elems, more);
    else
        snprintf(out, len, "work-item %" PRIu64 " of %s %s %u bytes at byte %" PRId64 " of %s; "
                 "%s holds %" PRIu64 " bytes%s", f->item, kernel, verb, f->size, f->offset,
                 b->name, b->name, b->elems * b->elem_size, more);
}

/* in's trace build with opts (of its plan's trace_file when it has one): from the build
 * cache when it was made ahead (ahead.c), else built now.  The wait counts in
 * s->trace_build_ns. */
static int trace_build(struct clc_session *s, struct clc_instance *in, const char *opts,
                       struct clc_kernel **k)
{
    uint64_t t0 = clc_now_ns();
    clc_ahead_wait(s, in->be);
    const char *file = clc_plan_trace_file(in->plan, in->file);
    int rc = in->be->ops->build(in->be, file, opts, in->plan->kernel, k);
    s->trace_build_ns += clc_now_ns() - t0;
    return rc;
}

/* ------------------------------------------------------------------ the trace */

/* The access outside the buffers to name is the lowest work-item's first: which work-item
 * came first in time depends on the order work-groups ran in (on a CPU, threads).  When
 * another came first, the trace launch `op` runs again to record the lowest one's; a kernel
 * whose addresses depend on what the first launch wrote keeps the first in time. */
static int lowest_fault(struct clc_backend *be, const struct clc_op *op, struct clc_buf *buf,
                        uint64_t *words)
{
    uint64_t lowest = words[W_LOWEST] & 0xffffffffu;
    if ((words[W_FAULTS] & 0xffffffffu) == 0 || lowest >= 0xfffffffeu || lowest == words[W_ITEM])
        return CLC_OK;
    uint64_t again[HEADER_WORDS];
    memcpy(again, words, sizeof again);
    again[W_WANT] = lowest;
    again[W_WANT_SEEN] = 0;
    if (be->ops->write(be, buf, 0, sizeof again, again) != CLC_OK ||
        be->ops->run(be, op, 1) != CLC_OK || be->ops->read(be, buf, 0, sizeof again, again) != CLC_OK)
        return CLC_ERR;
    if ((again[W_WANT_SEEN] & 0xffffffffu) > 0)
        memcpy(&words[W_ITEM], &again[W_ITEM], 4 * sizeof *words);
    return CLC_OK;
}

/* The 32-bit words of buffer b's byte map (a bit per byte) in each direction. */
static uint64_t map_words(const struct clc_plan *p, unsigned b)
{
    return (p->bufs[b].elems * p->bufs[b].elem_size + 31) / 32;
}

/* The distinct bytes of each buffer that the launch read and wrote, counted from the byte
 * maps at `maps` (clc_trace.h's layout) into out. */
static void count_maps(const struct clc_plan *p, const uint64_t *maps, struct clc_traced *out)
{
    const uint32_t *m = (const uint32_t *)maps;
    for (unsigned b = 0; b < p->nbufs; b++) {
        uint64_t w = map_words(p, b);
        for (int dir = 0; dir < 2; dir++) {
            uint64_t bits = 0;
            for (uint64_t i = 0; i < w; i++)
                bits += (uint64_t)__builtin_popcount(m[i]);
            (dir ? out->written : out->read)[b] = bits;
            m += w;
        }
    }
    out->counted = true;
}

/* Launches in's kernel rebuilt as its trace build (see trace_build), over the same range with
 * the same buffers, and fills out->trace, out->fault and out->info; with `count` (and byte
 * maps that fit MAX_MAP_BYTES) also out->read and out->written.  Buffers the kernel writes
 * change. */
static int trace_instance(struct clc_session *s, struct clc_instance *in, struct clc_traced *out,
                          bool count)
{
    struct clc_backend *be = in->be;
    const struct clc_plan *p = in->plan;
    struct clc_instance tr;
    struct clc_buf *words_buf = NULL;
    uint64_t *words = NULL;
    int rc = CLC_ERR;
    uint64_t begin[CLC_PLAN_BUFS] = {0}, end[CLC_PLAN_BUFS] = {0};

    memset(&tr, 0, sizeof tr);
    tr.be = be;
    tr.plan = p;
    tr.t = in->t;
    tr.file = in->file;
    char opts[512];
    clc_plan_options(p, in->t, out->options, sizeof out->options);
    out->file = in->file;
    clc_trace_options(p, in->t, be, opts, sizeof opts);
    if (trace_build(s, in, opts, &tr.kernel) != CLC_OK) {
        rc = BUILD_FAILED;
        goto done;
    }
    if (be->ops->kernel_info(be, tr.kernel, &out->info) != CLC_OK)
        goto done;
    if (out->info.nargs >= 0 && out->info.nargs != (int)p->nargs + 3) {
        clc_error("%s: the trace build takes %d parameters, not %u + 3: the parameter list "
                  "must end with CLC_TRACE_ARGS", p->kernel, out->info.nargs, p->nargs);
        rc = CLC_SKIP;
        goto done;
    }
    for (unsigned i = 0; i < p->nbufs; i++) {
        if (clc_instance_address(in, i, &begin[i]) != CLC_OK)
            goto done;
        end[i] = begin[i] + p->bufs[i].elems * p->bufs[i].elem_size;
    }

    const struct clc_launch *l = &in->launch;
    size_t wg = 1, groups = 1, items_all = 1;
    for (unsigned d = 0; d < l->dims; d++) {
        wg *= l->local[d];
        groups *= l->global[d] / l->local[d];
        items_all *= l->global[d];
    }
    int ws = be->dev.meta.warp_size;
    unsigned warp = ws > 0 && ws <= (int)CLC_MODEL_MAX_WARP ? (unsigned)ws : CLC_MODEL_WARP;
    size_t tgroups = (TRACE_WARPS * warp + wg - 1) / wg;
    if (tgroups > groups)
        tgroups = groups;
    /* the header, every traced work-item's global records, then as many __local ones */
    size_t items = tgroups * wg, region = items * 2 * TRACE_SLOTS;
    /* the wide sample's footprint (WIDE_SLOTS granules of up to 64 bytes a work-item, in
     * each direction) stays within half the L2, so that what it reuses, L2 can */
    size_t wide = WIDE_ITEMS;
    uint64_t l2 = be->dev.meta.l2_bytes;
    if (l2 > 0 && l2 / (2 * 2 * WIDE_SLOTS * 64) < wide)
        wide = (size_t)(l2 / (2 * 2 * WIDE_SLOTS * 64));
    size_t wgroups = (wide + wg - 1) / wg;
    if (wgroups > groups)
        wgroups = groups;
    /* a block of whole rows of the grid where the work-groups run a row or more apart at once */
    size_t row = l->global[0] / l->local[0];
    size_t wrows = clc_trace_wide_rows(row, groups / row, resident_groups(&be->dev.meta, wg),
                                       wgroups);
    size_t wwidth = wgroups / wrows;
    if (wrows > 1)
        wgroups = wwidth * wrows;
    size_t witems = wgroups * wg, nwords = HEADER_WORDS + 2 * region + witems * 2 * 2 * WIDE_SLOTS;
    /* then the byte maps, two per buffer, in 32-bit words rounded up to whole 64-bit ones */
    size_t maps_at = nwords;
    uint64_t map32 = 0;
    for (unsigned i = 0; count && i < p->nbufs; i++)
        map32 += 2 * map_words(p, i);
    if (map32 * 4 > MAX_MAP_BYTES)
        map32 = 0;
    if (map32 > 0)
        nwords += (size_t)((map32 + 1) / 2);
    words = calloc(nwords, sizeof *words);
    if (words == NULL) {
        clc_error("out of host memory for the trace");
        goto done;
    }
    words[W_NBOUNDS] = p->nbufs;
    words[W_WIDE_GROUPS] = wgroups;
    words[W_WIDE_WIDTH] = wrows > 1 ? wwidth : 0;
    words[W_WIDE_SLOTS] = WIDE_SLOTS;
    words[W_LOWEST] = 0xffffffffu;
    words[W_WANT] = ~(uint64_t)0;
    words[W_MAPS] = map32 > 0 ? maps_at : 0;
    for (unsigned i = 0; i < p->nbufs; i++) {
        words[1 + 2 * i] = begin[i];
        words[2 + 2 * i] = end[i];
    }
    /* the records start empty: zeroed on the device, only the header travels */
    if (clc_alloc(be, nwords * sizeof *words, "trace", &words_buf) != CLC_OK ||
        be->ops->fill(be, words_buf, nwords * sizeof *words, 0) != CLC_OK ||
        be->ops->write(be, words_buf, 0, HEADER_WORDS * sizeof *words, words) != CLC_OK)
        goto done;
    tr.launch = *l;
    tr.launch.kernel = tr.kernel;
    unsigned a = tr.launch.nargs;
    tr.launch.args[a] = (struct clc_arg){CLC_ARG_BUF, words_buf, 0};
    tr.launch.args[a + 1] = (struct clc_arg){CLC_ARG_U32, NULL, TRACE_SLOTS};
    tr.launch.args[a + 2] = (struct clc_arg){CLC_ARG_U32, NULL, tgroups};
    tr.launch.nargs = a + 3;
    struct clc_op op = {&tr.launch, NULL, NULL, 0};
    clc_activity("the trace build of kernel %s", p->kernel);
    if (be->ops->run(be, &op, 1) != CLC_OK) {
        if (s->custom_kernel != NULL)
            clc_error("the trace build of your kernel '%s' failed at synchronisation: it most "
                      "likely accessed memory outside its buffers", s->custom_kernel);
        goto done;
    }
    if (be->ops->read(be, words_buf, 0, nwords * sizeof *words, words) != CLC_OK ||
        lowest_fault(be, &op, words_buf, words) != CLC_OK)
        goto done;

    struct clc_fault *f = &out->fault;
    memset(f, 0, sizeof *f);
    f->count = words[W_FAULTS] & 0xffffffffu;
    if (f->count > 0) {
        f->item = words[W_ITEM];
        f->addr = words[W_ADDR];
        f->size = (unsigned)(words[W_KIND] >> 1);
        f->store = words[W_KIND] & 1;
        f->buf = owner(begin, end, p->nbufs, words[W_BASE]);
        f->offset = f->buf >= 0 ? (int64_t)(f->addr - begin[f->buf]) : 0;
    }
    if (map32 > 0)
        count_maps(p, words + maps_at, out);
    out->words = words;
    words = NULL;
    /* banks and bank_width 0: the model's defaults */
    out->trace = (struct clc_trace){.words = out->words + HEADER_WORDS,
                                    .n_items = items,
                                    .wg_size = wg,
                                    .slots = TRACE_SLOTS,
                                    .warp = warp,
                                    .launch_items = items_all,
                                    .local_words = out->words + HEADER_WORDS + region,
                                    .wide_words = out->words + HEADER_WORDS + 2 * region,
                                    .wide_items = witems,
                                    .wide_slots = 2 * WIDE_SLOTS};
    rc = CLC_OK;
done:
    clc_release(be, words_buf);
    clc_release_kernel(be, tr.kernel);
    free(words);
    return rc;
}

int clc_session_trace(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                      long param, enum clc_type t, uint64_t size, struct clc_traced *out)
{
    memset(out, 0, sizeof *out);
    struct clc_env e = clc_env_make(&s->be[0]->dev, t, size);
    int rc = clc_variant_plan(&e, v, param, &out->plan);
    if (rc != CLC_OK)
        return rc;
    if (out->plan.kernel == NULL) {
        snprintf(out->plan.note, sizeof out->plan.note, "it launches no kernel of its own");
        return CLC_SKIP;
    }
    if (clc_plan_has_image(&out->plan)) {
        snprintf(out->plan.note, sizeof out->plan.note,
                 "it reads an image, through the texture path, which the trace cannot record");
        return CLC_SKIP;
    }
    struct clc_instance in;
    rc = clc_instance_open(&in, s->be[0], c->cl_file, &out->plan, t);
    if (rc == CLC_OK)
        rc = clc_instance_init(&in);
    if (rc == CLC_OK)
        rc = trace_instance(s, &in, out, out->plan.count_bytes);
    if (rc == BUILD_FAILED)
        rc = CLC_ERR;
    clc_instance_close(&in);
    return rc;
}

/* The predictive model's features of the row: the analysis, the occupancy of the timed
 * kernel's launch (its own registers and local memory, not the trace build's) and its loads
 * in flight as compiled. */
static void features(const struct clc_instance *in, const struct clc_model *m,
                     struct clc_model_features *f)
{
    struct clc_kernel_info ki;
    int regs = -1;
    size_t local = 0, wg, groups = clc_plan_groups(in->plan, &wg);
    if (in->be->ops->kernel_info(in->be, in->kernel, &ki) == CLC_OK) {
        regs = ki.registers;
        local = ki.local_bytes;
    }
    clc_model_features_make(f, m, wg, groups, regs, local, &in->be->dev.meta);
    clc_model_features_count(f, m, in->plan->bytes);
    f->local_row = in->plan->local_bytes;
    f->elem_bytes = (unsigned)clc_type_size(in->t);
    clc_instance_compiled(in, f);
}

int clc_model_row(struct clc_session *s, struct clc_instance *in, struct clc_result *r,
                  bool *clean)
{
    struct clc_traced tr;
    memset(&tr, 0, sizeof tr);
    *clean = true;
    int rc = trace_instance(s, in, &tr, false);
    if (rc == CLC_SKIP) {
        clc_note_append(r, "%smodel: off (no CLC_TRACE_ARGS)", r->note[0] ? "; " : "");
        return CLC_OK;
    }
    if (rc == BUILD_FAILED) {
        clc_note("%s/%s: the access model's trace build failed (above); the measurement "
                 "stands, the model columns stay empty", r->case_name, r->variant);
        clc_note_append(r, "%smodel: trace build failed", r->note[0] ? "; " : "");
        return CLC_OK;
    }
    if (rc != CLC_OK) {
        clc_note_append(r, "%smodel: trace launch failed", r->note[0] ? "; " : "");
        return CLC_ERR;
    }
    if (tr.fault.count > 0) {
        char msg[256];
        clc_fault_message(in->plan, in->plan->kernel, &tr.fault, msg, sizeof msg);
        snprintf(r->note, sizeof r->note, "%.*s", (int)sizeof r->note - 1, msg);
        *clean = false;
    } else {
        struct clc_model m;
        uint64_t t0 = clc_now_ns();
        if (clc_model_analyse(&tr.trace, &m) == 0) {
            r->model.sectors_per_req = m.sectors_per_req;
            r->model.ld_sectors_per_req = m.sectors_per_req_load;
            r->model.st_sectors_per_req = m.sectors_per_req_store;
            r->model.efficiency = m.efficiency;
            r->model.bytes_moved = m.bytes_moved;
            features(in, &m, &r->model.features);
            if (m.truncated)
                clc_note_append(r, "%smodel: first %d accesses of each work-item",
                                r->note[0] ? "; " : "", TRACE_SLOTS);
        }
        s->analyse_ns += clc_now_ns() - t0;
    }
    free(tr.words);
    return CLC_OK;
}
