/* timing.h - how a launch is timed, the same way whichever API runs it: each API supplies "run
 * n launches" and "time n launches on the device"; the policy (warm-up, probe, batching,
 * samples, statistics, host-clock check, and the interleaving of APIs timed side by side) is
 * here, once. */
#ifndef CLCOALESCE_TIMING_H
#define CLCOALESCE_TIMING_H

#include <stdbool.h>

#include "clcoalesce/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How long warm-up lasts on the host clock in a measurement (warmup_ms): the host-side
 * verification of the previous row leaves the GPU idle for tens of ms, and a couple of
 * launches are not enough for it to be back at full speed. */
#define CLC_WARMUP_MS 10.0

/* A launch at least this long (its probe) is timed with no lead launch before each sample:
 * starting from idle costs about 1 us, which is below 0.2 % of it, and the lead launch would
 * double the row's time on the device. */
#define CLC_LEAD_MS 0.5

struct clc_timing_opts {
    int warmup;       /* untimed launches first ... */
    double warmup_ms; /* ... and more until this many ms have passed (when warmup > 0) */
    int reps;         /* timed samples */
    double min_ms;    /* a sample shorter than this is batched (several launches per sample) */
    bool host_check;  /* also time a batch with the host clock (not with cold) */
    bool cold;        /* flush the last-level cache before each timed sample; batch is then 1 */
};

struct clc_timing {
    int reps, batch;
    long launches;    /* launches made, warm-up and probe included (in-place cases verify with it) */
    double ms_median, ms_min, ms_max, cv; /* per launch */
    double ms_host;   /* per launch, NAN unless host_check */
    bool coarse;      /* cold and the probe launch was shorter than min_ms: single launches
                       * sit near the timer's resolution */
    bool lead;        /* samples follow an untimed lead launch (the probe < CLC_LEAD_MS) */
};

/* The timing options of a run from the command line's --warmup and --reps (negative and 0
 * mean the defaults: 2 warm-up launches and CLC_WARMUP_MS, 20 samples; with quick 1 launch,
 * no minimum time, 5 samples) and the device's timer resolution: a sample must last 200
 * times it, and at least 0.02 ms.  host_check and cold start false. */
struct clc_timing_opts clc_timing_defaults(int warmup, int reps, bool quick, double timer_res_ns);

/* What an API provides.  Each function returns CLC_OK, or CLC_ERR after reporting the call
 * that failed. */
struct clc_timer {
    void *api;
    /* Makes `count` launches and waits until they are done. */
    int (*run)(void *api, int count);
    /* Makes `lead` untimed launches and then `count` timed ones, back to back, waits for
     * them and returns the device time of the timed ones in *ms.  `probe` is set for the
     * row's one probe launch. */
    int (*time)(void *api, int lead, int count, bool probe, double *ms);
    /* Leaves the last-level cache holding none of the data (untimed); NULL when the API
     * cannot, and then o->cold must be false. */
    int (*flush)(void *api);
};

/* For each of the n timers (one per API timing the same row, into t[0..n)): warm-up
 * (o->warmup launches, then more until o->warmup_ms have passed) and one probe launch; then
 * o->reps samples of `batch` launches each, the timers taking turns sample by sample, so a
 * change of clock or temperature during the row hits every API alike.  batch is 1 unless the
 * probe is shorter than o->min_ms, then chosen so a sample lasts about min_ms.  The probe and
 * every sample follow one untimed lead launch, so the timed ones start on a busy device, as
 * in a stream of launches, and not from idle (on an H100 a 0.18 ms copy started from idle
 * lasts 1 us longer, in OpenCL and in CUDA alike); samples of a launch whose probe lasted
 * CLC_LEAD_MS or more have no lead.  With o->cold the cache is
 * flushed before the probe and every sample, there is no lead launch and batch stays 1
 * (later launches would find the data cached; t->coarse says when that makes a sample
 * short).  With o->host_check, a batch of at least 20 ms is also timed with the host clock. */
int clc_time_launches(const struct clc_timer *tm, size_t n, const struct clc_timing_opts *o,
                      struct clc_timing *t);

/* Copies a timing into a result row: reps, batch, median/min/max, cv, ms_host. */
void clc_timing_to_result(const struct clc_timing *t, struct clc_result *r);

#ifdef __cplusplus
}
#endif

#endif
