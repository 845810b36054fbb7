/* latency.c - the load-to-use latency of each level of the memory system: a chase through a
 * random cycle of slots one sector apart, over working sets from 16 KiB to the case's size
 * (by default at least 4 x the L2), so a sweep shows where L1, L2 and DRAM each end.  Rows
 * give nanoseconds per access (and cycles where the clock is known). */
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cases.h"

#define STEPS 65536       /* dependent loads per launch: long enough for the timer */
#define SLOT 8            /* uints between slots: one 32-byte sector */
#define MIN_SET (16 << 10)

/* 16 KiB, 32 KiB ... up to the case's size, in KiB. */
static size_t sets(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)v;
    size_t n = 0;
    for (uint64_t b = MIN_SET; b <= e->size && n < CLC_MAX_PARAMS; b *= 2)
        out[n++] = (long)(b >> 10);
    return n;
}

/* A random single cycle through the slots (Sattolo's shuffle, xorshift64 seeded by the
 * count, so every run and API walks the same chain): next[slot * SLOT] = the next slot's
 * index. */
static void make_cycle(uint32_t *next, size_t slots)
{
    uint32_t *order = malloc(slots * sizeof *order);
    uint64_t x = 0x9e3779b97f4a7c15ull ^ slots;
    if (order == NULL)
        return;
    for (size_t i = 0; i < slots; i++)
        order[i] = (uint32_t)i;
    for (size_t i = slots - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t j = (size_t)(x % i); /* j < i: one cycle through every slot */
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < slots; i++)
        next[(size_t)order[i] * SLOT] = order[(i + 1) % slots] * SLOT;
    free(order);
}

/* Where one launch of STEPS hops from slot 0 ends. */
static bool check(const struct clc_check_in *c, struct clc_result *r)
{
    const uint32_t *next = c->plan->bufs[0].host;
    uint32_t j = 0, got = *(const uint32_t *)c->got[1];
    for (uint32_t k = 0; k < STEPS; k++)
        j = next[j];
    if (got == j)
        return true;
    snprintf(r->note, sizeof r->note, "wrong result: the chase ended at element %u, not %u", got,
             j);
    return false;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long kib,
                struct clc_plan *p)
{
    (void)e;
    size_t bytes = (size_t)kib << 10, elems = bytes / sizeof(uint32_t);
    uint32_t *next = clc_plan_host(p, bytes);
    if (next == NULL)
        return CLC_ERR;
    memset(next, 0, bytes);
    make_cycle(next, bytes / (SLOT * sizeof(uint32_t)));
    unsigned chain = clc_plan_buffer(p, "next", elems, sizeof(uint32_t), CLC_INIT_HOST);
    unsigned state = clc_plan_buffer(p, "state", 1, sizeof(uint32_t), CLC_INIT_ZERO);
    p->bufs[chain].host = next;
    p->bufs[state].read_back = true;
    p->kernel = v->kernel;
    clc_plan_arg_buf(p, chain);
    clc_plan_arg_buf(p, state);
    clc_plan_arg_u32(p, STEPS);
    clc_plan_1d(p, 1, 1);
    p->bytes = (uint64_t)STEPS * sizeof(uint32_t);
    p->metric = CLC_METRIC_NS_PER_ACCESS;
    p->accesses = STEPS;
    p->fresh_check = true; /* each launch goes on from where the last stopped */
    p->check = check;
    clc_plan_note(p, "%ld KiB", kib);
    return CLC_OK;
}

static const struct clc_variant variants[] = {
    {.name = "chase", .kernel = "chase", .params = sets, .plan = plan},
};

const struct clc_case clc_case_latency = {
    .name = "latency",
    .cl_file = "latency.cl",
    .summary = "load-to-use latency: one work-item chases a random cycle of slots a sector "
               "apart, over working sets from 16 KiB up",
    .variants_text = "chase, param = working set in KiB (16 KiB, 32 KiB ... up to the size: by "
                     "default at least 4 x the L2)",
    .bytes_rule = "4 bytes per dependent load; the figure is ns per access (median time / "
                  "65536 loads)",
    .expect = "plateaus: L1 (tens of cycles) while the set fits in L1, L2 (hundreds) up to the "
              "L2's size, with a step where a set no longer fits the near partition of the "
              "L2, and DRAM (600-700 cycles on Hopper) beyond",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .no_plateau = true,
    .min_elems = MIN_SET / 4,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
