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

/* Times `count` launches behind one untimed lead launch, or after a flush and with no lead
 * with cold (a lead launch would bring the data back into the cache); counts every launch. */
static int sample(const struct clc_timer *tm, const struct clc_timing_opts *o, int count,
                  bool probe, double *ms, long *launches)
{
    int lead = o->cold ? 0 : 1;
    if ((o->cold && tm->flush(tm->api) != CLC_OK) ||
        tm->time(tm->api, lead, count, probe, ms) != CLC_OK)
        return CLC_ERR;
    *launches += lead + count;
    return CLC_OK;
}

int clc_time_launches(const struct clc_timer *tm, const struct clc_timing_opts *o,
                      struct clc_timing *t)
{
    memset(t, 0, sizeof *t);
    t->ms_host = NAN;
    double *samples = calloc((size_t)o->reps, sizeof *samples);
    if (samples == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    int rc = CLC_ERR;
    double probe;
    if (warm_up(tm, o, &t->launches) != CLC_OK ||
        sample(tm, o, 1, true, &probe, &t->launches) != CLC_OK)
        goto cleanup;
    int batch = 1;
    if (probe < o->min_ms && o->cold) {
        t->coarse = true; /* batching would time warm launches: keep 1 and say so */
    } else if (probe < o->min_ms) {
        double b = ceil(o->min_ms / (probe > 1e-6 ? probe : 1e-6));
        batch = b > 10000 ? 10000 : (int)b;
    }
    for (int r = 0; r < o->reps; r++) {
        double ms;
        if (sample(tm, o, batch, false, &ms, &t->launches) != CLC_OK)
            goto cleanup;
        samples[r] = ms / batch;
    }
    struct clc_stats s;
    clc_stats_compute(samples, (size_t)o->reps, &s);
    t->reps = o->reps;
    t->batch = batch;
    t->ms_median = s.median;
    t->ms_min = s.min;
    t->ms_max = s.max;
    t->cv = s.cv;

    if (o->host_check && !o->cold) {
        /* a batch long enough (>= 20 ms) that the latency of waiting for it is noise */
        int n = (int)fmin(10000.0, fmax(1.0, ceil(20.0 / fmax(s.median, 1e-6))));
        uint64_t t0 = clc_now_ns();
        if (tm->run(tm->api, n) != CLC_OK)
            goto cleanup;
        t->ms_host = (double)(clc_now_ns() - t0) * 1e-6 / n;
        t->launches += n;
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
