/* timing.c - the timing policy of both APIs (see timing.h). */
#include "clcoalesce/timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/core.h"
#include "clcoalesce/stats.h"

struct clc_timing_opts clc_timing_defaults(int warmup, int reps, bool quick, double timer_res_ns)
{
    struct clc_timing_opts o = {
        .warmup = warmup >= 0 ? warmup : (quick ? 1 : 2),
        .warmup_ms = quick ? 0 : CLC_WARMUP_MS,
        .reps = reps > 0 ? reps : (quick ? 5 : 20),
        .min_ms = fmax(0.02, 200.0 * timer_res_ns * 1e-6),
    };
    return o;
}

static int warm_up(const struct clc_timer *tm, const struct clc_timing_opts *o, long *launches)
{
    if (o->warmup <= 0)
        return CLC_OK;
    uint64_t t0 = clc_now_ns();
    for (int n = o->warmup;; n = n < 512 ? 2 * n : n) {
        if (tm->run(tm->api, n) != CLC_OK)
            return CLC_ERR;
        *launches += n;
        if ((double)(clc_now_ns() - t0) * 1e-6 >= o->warmup_ms)
            return CLC_OK;
    }
}

/* Times `count` launches behind one untimed lead launch, or with no lead: after a flush with
 * cold (a lead launch would bring the data back into the cache), and when lead_wanted is false
 * (the launch is long); counts every launch. */
static int sample(const struct clc_timer *tm, const struct clc_timing_opts *o, int count,
                  bool probe, bool lead_wanted, double *ms, long *launches)
{
    int lead = o->cold || !lead_wanted ? 0 : 1;
    if ((o->cold && tm->flush(tm->api) != CLC_OK) ||
        tm->time(tm->api, lead, count, probe, ms) != CLC_OK)
        return CLC_ERR;
    *launches += lead + count;
    return CLC_OK;
}

/* The batch for a probe of `probe` ms: 1 unless that is shorter than o->min_ms (never with
 * cold, where later launches would find the data cached: t->coarse says so instead). */
static int choose_batch(const struct clc_timing_opts *o, double probe, struct clc_timing *t)
{
    if (probe >= o->min_ms)
        return 1;
    if (o->cold) {
        t->coarse = true;
        return 1;
    }
    double b = ceil(o->min_ms / (probe > 1e-6 ? probe : 1e-6));
    return b > 10000 ? 10000 : (int)b;
}

int clc_time_launches(const struct clc_timer *tm, size_t n, const struct clc_timing_opts *o,
                      struct clc_timing *t)
{
    int rc = CLC_ERR;
    double *samples = calloc((size_t)o->reps * n, sizeof *samples);
    if (samples == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    for (size_t i = 0; i < n; i++) {
        memset(&t[i], 0, sizeof t[i]);
        t[i].ms_host = NAN;
    }
    /* each API warm and probed in turn, then their samples alternate, so that a change of
     * clock or temperature during the row hits every API alike */
    for (size_t i = 0; i < n; i++) {
        double probe;
        if (warm_up(&tm[i], o, &t[i].launches) != CLC_OK ||
            sample(&tm[i], o, 1, true, true, &probe, &t[i].launches) != CLC_OK)
            goto cleanup;
        t[i].batch = choose_batch(o, probe, &t[i]);
        t[i].lead = probe < CLC_LEAD_MS;
    }
    for (int r = 0; r < o->reps; r++) {
        for (size_t i = 0; i < n; i++) {
            double ms;
            if (sample(&tm[i], o, t[i].batch, false, t[i].lead, &ms, &t[i].launches) != CLC_OK)
                goto cleanup;
            samples[i * (size_t)o->reps + (size_t)r] = ms / t[i].batch;
        }
    }
    for (size_t i = 0; i < n; i++) {
        struct clc_stats s;
        clc_stats_compute(samples + i * (size_t)o->reps, (size_t)o->reps, &s);
        t[i].reps = o->reps;
        t[i].ms_median = s.median;
        t[i].ms_min = s.min;
        t[i].ms_max = s.max;
        t[i].cv = s.cv;
        if (o->host_check && !o->cold) {
            /* a batch long enough (>= 20 ms) that the latency of waiting for it is noise */
            int k = (int)fmin(10000.0, fmax(1.0, ceil(20.0 / fmax(s.median, 1e-6))));
            uint64_t t0 = clc_now_ns();
            if (tm[i].run(tm[i].api, k) != CLC_OK)
                goto cleanup;
            t[i].ms_host = (double)(clc_now_ns() - t0) * 1e-6 / k;
            t[i].launches += k;
        }
    }
    rc = CLC_OK;
cleanup:
    free(samples);
    return rc;
}

void clc_timing_to_result(const struct clc_timing *t, struct clc_result *r)
{
    r->reps = t->reps;
    r->batch = t->batch;
    r->ms_median = t->ms_median;
    r->ms_min = t->ms_min;
    r->ms_max = t->ms_max;
    r->cv = t->cv;
    r->ms_host = t->ms_host;
}
