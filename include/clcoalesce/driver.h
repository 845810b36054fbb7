/* driver.h - the run: the devices of the APIs asked for, opened once; each case's variants
 * planned, carried out on every API (side by side with --api both), timed, verified,
 * modelled and reported.  `explain` and `custom` use the same pieces on one variant. */
#ifndef CLCOALESCE_DRIVER_H
#define CLCOALESCE_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

#include "clcoalesce/backend.h"
#include "clcoalesce/cases.h"
#include "clcoalesce/model.h"
#include "clcoalesce/options.h"
#include "clcoalesce/predict.h"
#include "clcoalesce/result.h"
#include "clcoalesce/timing.h"

struct clc_opts {
    /* The options every command that runs kernels shares (options.h): o->size, o->reps ...
     * by name, and o->run as one struct clc_run_opts. */
    CLC_RUN_OPTS_GROUP(run);
    const char *kernel_dir; /* --kernel-dir, NULL to look it up */
    bool model;             /* the access model after each verified kernel row (--no-model) */
    bool model_table;       /* --model-table: every predicted row after the table */
    const char *profile;    /* --profile FILE: the device profile the predictions read; NULL:
                             * the run's own rows of the profile's cases, at its end */
    unsigned apis;          /* --api: a mask of (1u << enum clc_api) */
    int progress;           /* a progress line on stderr: -1 when it is a terminal, 0, 1 */
    int trace_ahead;        /* the rows' trace builds compiled on threads of their own, rows
                             * ahead of the row timed and checked: -1 unless on a CPU
                             * (there the compiler would take cores from the kernel timed),
                             * 0 never, 1 always (a test of that path on PoCL) */
    const char *compiler;   /* this binary, to start as the process that makes the trace
                             * builds ahead where the API has one (OpenCL); NULL: they are
                             * made on the threads themselves */
};

/* Fills o with the defaults: OpenCL, 20 reps, 2 warm-ups, every type, sizes per device, the
 * model on (its trace builds made ahead unless on a CPU), progress when stderr is a
 * terminal. */
void clc_opts_defaults(struct clc_opts *o);

/* Checks, before any device is opened, that the size (or every step of the sweep) suits
 * every case to run in every type asked for: a whole number of elements, and at least the
 * case's minimum.  Returns CLC_OK or CLC_USAGE after a message naming the minimum. */
int clc_check_sizes(const struct clc_opts *o, const struct clc_case *const *cases, size_t n);

/* ------------------------------------------------------------------ the session */

/* Where a run's host time goes, said at its end. */
enum clc_phase { CLC_PHASE_SETUP, CLC_PHASE_TIMING, CLC_PHASE_CHECK, CLC_PHASE_MODEL };

#define CLC_MAX_SWEEP_SIZES 64 /* sizes of one sweep, MIN to MAX by doubling */

struct clc_session {
    const struct clc_opts *o;
    struct clc_backend *be[CLC_MAX_APIS]; /* one per API, the first the primary */
    int n_be;
    struct clc_report *rep;
    FILE *table;                /* rows are streamed here when not NULL */
    struct clc_timing_opts timing;
    char kernel_dir[4096];
    struct clc_buf *flush[CLC_MAX_APIS]; /* --cold: a buffer of twice the L2 per API */
    size_t flush_bytes;
    uint32_t flush_count;
    size_t rows_total, rows_done; /* progress */
    size_t rows_in_cache;         /* bandwidth rows whose buffers fit in the last-level cache */
    uint64_t t0;
    bool progress;
    const char *custom_kernel;  /* a user's kernel: failures at synchronisation say so */
    bool ceilings;              /* the APIs' copy ceilings are measured (on the first run) */
    /* in a sweep, each API's copy ceiling at each size of it, so that every row is compared
     * with a copy of its own size (a cache-sized row with a cache-sized copy) */
    uint64_t sweep_size[CLC_MAX_SWEEP_SIZES];
    double sweep_ceiling[CLC_MAX_SWEEP_SIZES][CLC_MAX_APIS];
    size_t n_sweep;
    uint64_t phase_ns[4];       /* host time per enum clc_phase */
    uint64_t trace_build_ns;    /* of CLC_PHASE_MODEL: waiting for the trace builds, made
                                 * there or ahead (struct clc_ahead) */
    uint64_t analyse_ns;        /* of CLC_PHASE_MODEL: analysing the traces on the host */
    struct clc_ahead *ahead;    /* the trace builds made ahead of the rows (ahead.c); NULL */
    struct clc_profile *profile[CLC_MAX_APIS]; /* per back end (be[i]): --profile's, or the
                                 * profile its API's device keeps, loaded when the session
                                 * opens; NULL: none */
};

/* Opens the device(s) of o (--api, --device) and fills the report's device and APIs.
 * Returns CLC_OK, CLC_USAGE (no such device) or CLC_ERR. */
int clc_session_open(struct clc_session *s, const struct clc_opts *o, struct clc_report *rep,
                     FILE *table);
void clc_session_close(struct clc_session *s);

/* Runs every size, type, variant and param of the cases, after checking that every size fits
 * the device and, on the first call, measuring each API's copy ceiling.  Returns CLC_OK, or
 * CLC_ERR when a size does not fit, a row failed (its row says why) or an API call failed. */
int clc_session_run(struct clc_session *s, const struct clc_case *const *cases, size_t n);

/* The whole of `run`: the named cases (all default ones when n == 0; unknown names are
 * CLC_USAGE, and so is a named case without o->variant; a case named twice runs once) on
 * o's device(s), into rep, rows streamed to table when not NULL. */
int clc_run(const struct clc_opts *o, const char *const *names, int n, struct clc_report *rep,
            FILE *table);

/* clc_run for cases given by pointer (a user's kernel, a case defined by a test). */
int clc_run_cases(const struct clc_opts *o, const struct clc_case *const *cases, size_t n,
                  struct clc_report *rep, FILE *table);

/* ------------------------------------------------------------------ one variant, traced */

/* An access outside every buffer, as the trace build found it. */
struct clc_fault {
    uint64_t count;    /* such accesses in the launch */
    uint64_t item;     /* the first one's work-item (linear global id) */
    uint64_t addr;     /* its byte address */
    unsigned size;     /* bytes */
    bool store;
    int buf;           /* the plan buffer its pointer pointed into, -1 for none */
    int64_t offset;    /* its byte offset from that buffer's start */
};

/* A variant's kernel launched once in its trace build. */
struct clc_traced {
    struct clc_plan plan;
    char options[320];   /* the build options, without -DCLC_TRACE */
    const char *file;    /* the kernel file */
    struct clc_trace trace; /* valid while words is */
    uint64_t *words;     /* free with clc_traced_free */
    struct clc_kernel_info info;
    struct clc_fault fault;
    /* with plan.count_bytes: the distinct bytes of each plan buffer the whole launch read
     * and wrote (counted false when the buffers were too large to map) */
    bool counted;
    uint64_t read[CLC_PLAN_BUFS], written[CLC_PLAN_BUFS];
};

/* Plans variant v of case c (param, type t, size bytes), builds and initialises it on the
 * session's first API, and launches its trace build once: every access is recorded for the
 * first warps and checked against the buffers for all work-items, so a wild access is
 * found (out->fault.count) before an unchecked launch could do harm; a plan with
 * count_bytes has the distinct bytes each buffer read and wrote counted too (out->counted,
 * out->read, out->written: a bit per byte, set by every work-item).  Returns CLC_OK,
 * CLC_SKIP (out->plan.note says why) or CLC_ERR. */
int clc_session_trace(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                      long param, enum clc_type t, uint64_t size, struct clc_traced *out);
void clc_traced_free(struct clc_traced *tr);

/* The rows of the grid (rows of `row` work-groups along its first dimension, `rows` of them)
 * that the trace's wide sample of `wide` work-groups spans: the work-groups resident at once
 * (`resident`) run beside the ones a whole row or more after them, and share the L2 with
 * them, so the sample is a block as many whole rows tall as they span (at least 2, `wide`
 * work-groups in all); 1 where they span less than two rows: the first `wide` work-groups in
 * order. */
size_t clc_trace_wide_rows(size_t row, size_t rows, size_t resident, size_t wide);

/* "work-item 1234 of copy_k stores out[100001234]; out holds 262144 elements" */
void clc_fault_message(const struct clc_plan *p, const char *kernel, const struct clc_fault *f,
                       char *out, size_t len);

/* The build options of a variant's plan in type t, as the driver builds it (without the
 * trace define). */
void clc_plan_options(const struct clc_plan *p, enum clc_type t, char *out, size_t len);

/* Runs `kernel` of `file` (a reference the user trusts) on be once over p's buffers, freshly
 * initialised as p says, with p's arguments and build options in type t but the launch
 * `dims`, `global`, `local`, and reads back every read_back buffer of p into out[i] (malloc'd;
 * NULL for the others; free them).  Returns CLC_OK or CLC_ERR after a message. */
int clc_run_reference(struct clc_backend *be, const struct clc_plan *p, enum clc_type t,
                      const char *file, const char *kernel, unsigned dims, const size_t global[3],
                      const size_t local[3], void *out[CLC_PLAN_BUFS]);

/* The environment a case plans for on a device. */
struct clc_env clc_env_make(const struct clc_device *dev, enum clc_type t, uint64_t size);

/* Fills p with the plan of v for param (0 without params).  Returns what v->plan returns. */
int clc_variant_plan(const struct clc_env *e, const struct clc_variant *v, long param,
                     struct clc_plan *p);

/* ------------------------------------------------------------------ predictions */

/* Loads o->profile into s->profile.  Without one, a run of one API whose cases lack the
 * stream case (which its own rows would predict from, at its end) loads the profile the
 * device keeps (profcache.h), where there is one.  CLC_OK or CLC_ERR, said. */
int clc_session_load_profile(struct clc_session *s, const struct clc_case *const *cases,
                             size_t n);

/* The profile the rows of API api (its name) are predicted from as they stream; NULL: none. */
const struct clc_profile *clc_session_profile(const struct clc_session *s, const char *api);

/* Predicts row r from its API's profile, when there is one (as rows stream). */
void clc_session_predict_row(const struct clc_session *s, struct clc_result *r);

/* At the end of a run without --profile: each API's rows predicted from the profile its own
 * rows of the profile's cases give (when they give the stream ceilings), the profiles used
 * recorded in the report, and, with --model-table, the predictions shown in the table after
 * its rows. */
void clc_session_predict_end(struct clc_session *s);

#endif
