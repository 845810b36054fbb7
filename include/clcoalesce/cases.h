/* cases.h - the case registry and what a case's host file declares: its variants as data,
 * and for each variant and param a plan (buffers, one launch, the bytes counted, the check)
 * that the driver carries out on any API.  A case names no OpenCL or CUDA type or call.
 *
 * A case is one host file (host/cases/<name>.c) defining `const struct clc_case
 * clc_case_<name>`, one kernel file (cl/<name>.cl), and one line CLC_CASE(<name>) in
 * host/cases/cases.def. */
#ifndef CLCOALESCE_CASES_H
#define CLCOALESCE_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clcoalesce/backend.h"
#include "clcoalesce/reference.h"
#include "clcoalesce/result.h"
#include "clcoalesce/run.h"
#include "clcoalesce/verify.h"

/* What a case plans for: the device, the element type and the size of its main array. */
struct clc_env {
    const struct clc_device *dev; /* the run's (first) device: limits, compute units, warp */
    enum clc_type type;
    uint64_t size;                /* bytes of the main array */
    size_t n;                     /* elements of the main array: size / element size */
    bool dry;                     /* planned for its build options alone: host data as large
                                   * as the arrays (a gather's indices) may go unfilled */
};

/* How the driver fills a buffer before the row (and again before a fresh check). */
enum clc_init {
    CLC_INIT_NONE,   /* left as allocated */
    CLC_INIT_VALUES, /* clc_value(j) in the element type T, written on the device */
    CLC_INIT_POISON, /* all bits set: NaN in float and double, so an unwritten element fails */
    CLC_INIT_ZERO,
    CLC_INIT_HOST,   /* the plan's host bytes (clc_plan_host) */
};

#define CLC_PLAN_BUFS 8 /* cl/clc_trace.h bounds at most CLC_TRACE_MAX_BOUNDS (8) */

struct clc_buffer_spec {
    const char *name;      /* in messages: "out holds 262144 elements" */
    uint64_t elems;        /* elements */
    unsigned elem_size;    /* bytes each (CLC_INIT_VALUES: the size of T) */
    enum clc_init init;
    const void *host;      /* CLC_INIT_HOST: elems x elem_size bytes */
    bool read_back;        /* the check gets what the kernel left (clc_check_in.got) */
    bool initial;          /* the check gets what it held before (clc_check_in.initial) */
    uint64_t pick_stride;  /* > 1: read back only elements 0, s, 2s ... (elems / s of them) */
    uint64_t window;       /* with pick_stride: also the first `window` elements (.window) */
    enum clc_mem mem;      /* where it lives: the device's memory unless set */
    uint64_t width;        /* CLC_MEM_IMAGE2D: the image's width (its height: elems / width) */
};

/* A kernel argument: a buffer of the plan (value = its index) or a scalar. */
struct clc_plan_arg {
    enum clc_arg_kind kind;
    uint64_t value;
};

/* What the check of a row is given. */
struct clc_check_in {
    const struct clc_plan *plan;
    enum clc_type type;
    struct clc_backend *be;             /* the back end the row ran on (a reference kernel
                                         * runs there too) */
    const void *got[CLC_PLAN_BUFS];     /* read_back buffers, NULL for the others */
    const void *window[CLC_PLAN_BUFS];  /* pick_stride buffers' first `window` elements */
    const void *initial[CLC_PLAN_BUFS]; /* `initial` buffers as they were initialised */
};

/* Compares what the kernel left with the host reference; on a mismatch writes the first bad
 * element into r->note (clc_check_values does) and returns false. */
typedef bool (*clc_check_fn)(const struct clc_check_in *c, struct clc_result *r);

#define CLC_PLAN_OWNED 12

/* One row's work, as a case describes it. */
struct clc_plan {
    const char *kernel;     /* in the case's kernel file; NULL: the vendor copy of buffer 0
                             * into buffer 1 */
    const char *file;       /* NULL: the case's cl_file (a user's kernel has its own) */
    const char *trace_file; /* what the trace build compiles; NULL: the same file (a user's
                             * kernel without the macros: its rewritten source) */
    char defines[192];      /* build options beyond the type's (-DT=float ...), e.g. "-DW=4" */
    unsigned dims;
    size_t global[3], local[3];
    unsigned nargs;
    struct clc_plan_arg args[CLC_MAX_ARGS];
    unsigned nbufs;
    struct clc_buffer_spec bufs[CLC_PLAN_BUFS];
    uint64_t bytes;         /* bytes counted per launch (the case's documented rule) */
    const char *bytes_rule; /* the rule that counted them, when it is not the case's own (a
                             * user's kernel: "distinct from the trace" ...); NULL otherwise */
    bool count_bytes;       /* its checked run (clc_session_trace) counts the distinct bytes
                             * each buffer reads and writes */
    double flops;           /* floating-point operations per launch (an FMA counts two), in
                             * the row's type; 0: none counted (the compute layer is off) */
    enum clc_metric metric; /* CLC_METRIC_GBPS unless set */
    double accesses;        /* CLC_METRIC_NS_PER_ACCESS: dependent accesses per launch */
    bool fresh_check;       /* in place: the check sees one launch on freshly initialised
                             * buffers, not what the timed launches left */
    clc_check_fn check;
    bool unchecked;         /* no reference to check against: check only tells whether the
                             * launch could be read back; the row gets its figure, status ok,
                             * verified false, and prints "unchecked" */
    const void *check_ctx;  /* the case's data for check, e.g. a parameter */
    clc_reference_fn reference; /* clc_check_map's reference, and its own data */
    const void *ref_ctx;
    bool needs_fp64;        /* the kernel needs fp64 whatever T is */
    bool local_bytes;       /* the bytes counted are local-memory bytes (banks): no %copy */
    double in_flight;       /* bytes in flight per compute unit the launch allows (inflight),
                             * 0 when the case does not say */
    char note[128];         /* into the row's note (shape, work-groups ...) */
    bool has_param;         /* the row shows param: the variant's param, set before plan is
                             * called; a plan may show another (a matrix its width) */
    long param;
    void *owned[CLC_PLAN_OWNED]; /* host memory freed with the plan (clc_plan_host) */
    unsigned n_owned;
};

/* A plan function returns CLC_SKIP (core.h) for a variant this device or size cannot run;
 * the plan's note says why, and the row is reported as skipped. */

#define CLC_MAX_PARAMS 40

/* One variant of a case: a row of its table. */
struct clc_variant {
    const char *name;    /* CLI and JSON name */
    const char *kernel;  /* its kernel in the case's file (NULL: the vendor copy) */
    unsigned types;      /* element types it runs in; 0: the case's */
    /* The params to run, into out (room for CLC_MAX_PARAMS); returns how many.  NULL for a
     * variant without a param. */
    size_t (*params)(const struct clc_env *e, const struct clc_variant *v, long *out);
    /* Fills p (zeroed by the caller) for one param (0 without params).  Returns CLC_OK,
     * CLC_SKIP with p->note saying why, or CLC_ERR after a message. */
    int (*plan)(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p);
    const void *data;    /* the variant's own data for plan: a width, a define ... */
    /* Why it cannot run on an API (NULL: it can), e.g. .not_on = {[CLC_API_CUDA] = "..."}:
     * that API's row is skipped with this note, the others run. */
    const char *not_on[CLC_API_COUNT];
    /* Why the predictive model does not cover it (NULL: it does): its rows get bound
     * "none", and explain prints this in place of the waterfall. */
    const char *outside_model;
    /* What explain adds under the access model's figures: what the trace cannot show (a
     * cache the addresses alone do not name). */
    const char *explain;
};

struct clc_case {
    const char *name;       /* CLI and JSON name */
    const char *cl_file;    /* kernel file in the kernel directory (or an absolute path) */
    const char *summary;    /* one line: what the case shows */
    const char *variants_text; /* its variants and params, for `cases` */
    const char *bytes_rule; /* the bytes counted per launch */
    const char *expect;     /* which variant should win, and why */
    unsigned types;         /* element types it runs in (enum clc_type mask) */
    unsigned alloc_factor;  /* largest buffer it allocates, as a multiple of the size */
    uint64_t min_elems;     /* the smallest main array its variants need, in elements */
    bool no_plateau;        /* its automatic size stays at 4 x the L2: its launches are long
                             * there already (a slow pattern, or not DRAM-bound), and a
                             * plateau-sized run would only cost time (run.h) */
    const struct clc_variant *variants;
    size_t n_variants;
    bool explicit_only;     /* runs only when named, never in a plain `run` */
    bool sizeless;          /* its work does not depend on --size: a sweep runs it once */
};

/* The registry, from cases.def. */
extern const struct clc_case *const clc_cases[];
extern const size_t clc_n_cases;
const struct clc_case *clc_find_case(const char *name);
const struct clc_variant *clc_find_variant(const struct clc_case *c, const char *name);

/* Why the registry's variant `variant` of `case_name` lies outside the predictive model
 * (its outside_model), or NULL: it is inside, or no such variant is registered. */
const char *clc_outside_model(const char *case_name, const char *variant);

/* True when a plain `run` (no case named) runs c: every case but the explicit_only ones. */
bool clc_case_runs_by_default(const struct clc_case *c);

/* Prints the `clcoalesce cases` listing. */
void clc_print_cases(FILE *f);

/* ------------------------------------------------------------------ helpers for plans */

/* Element size of the env's type. */
static inline unsigned clc_env_es(const struct clc_env *e)
{
    return (unsigned)clc_type_size(e->type);
}

/* Adds buffer `name` of elems elements of es bytes to p and returns its index. */
unsigned clc_plan_buffer(struct clc_plan *p, const char *name, uint64_t elems, unsigned es,
                         enum clc_init init);
/* Adds a read-only width x height image of float (CLC_MEM_IMAGE2D), initialised with
 * clc_value(y * width + x) at (x, y), and returns its index (an argument like a buffer). */
unsigned clc_plan_image(struct clc_plan *p, const char *name, uint64_t width, uint64_t height);
/* True when one of p's buffers is an image: the trace build cannot record its reads. */
bool clc_plan_has_image(const struct clc_plan *p);
/* Appends an argument of any kind (a buffer by its index, a __local size in bytes). */
void clc_plan_arg(struct clc_plan *p, enum clc_arg_kind kind, uint64_t v);
/* Appends an argument: a buffer by index, a uint, a ulong. */
void clc_plan_arg_buf(struct clc_plan *p, unsigned buf);
void clc_plan_arg_u32(struct clc_plan *p, uint32_t v);
void clc_plan_arg_u64(struct clc_plan *p, uint64_t v);
/* The powers of two 1, 2, 4 ... up to `most` into out (a variant's params); how many. */
size_t clc_powers_of_two(long most, long *out);
/* The exponent of the largest power of two <= x (0 for 0 and 1): a kernel's shift. */
unsigned clc_log2(uint64_t x);
/* A 1-D launch of `global` work-items (rounded up to whole groups) in groups of `local`. */
void clc_plan_1d(struct clc_plan *p, size_t global, size_t local);
/* A 2-D launch. */
void clc_plan_2d(struct clc_plan *p, size_t gx, size_t gy, size_t lx, size_t ly);
/* The plan's work-groups, and into *group_items (may be NULL) the work-items of each. */
size_t clc_plan_groups(const struct clc_plan *p, size_t *group_items);
/* Host memory of `bytes` owned by the plan (freed with it); NULL after a message. */
void *clc_plan_host(struct clc_plan *p, size_t bytes);
/* Frees what the plan owns. */
void clc_plan_free(struct clc_plan *p);
/* Appends printf text to the plan's defines / note. */
void clc_plan_define(struct clc_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void clc_plan_note(struct clc_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The plainest plan, which most variants start from: out[i] = f(in[i]) over n elements in
 * (initialised with clc_value and handed to the check) and n out (poisoned, read back), one
 * element per work-item in groups of `local`, kernel (in, out, ulong n), 2 x n x element size
 * bytes counted, checked with clc_check_map against `reference`. */
void clc_plan_map(struct clc_plan *p, const struct clc_env *e, const char *kernel, size_t local,
                  clc_reference_fn reference);

/* A fill: out[j] = clc_value(j) over n elements of out (poisoned, read back), one element
 * per work-item in groups of `local`, kernel (out, ulong n), n x element size bytes counted,
 * checked with clc_check_fill.  A variant whose work-items do more sets its own range. */
void clc_plan_fill(struct clc_plan *p, const struct clc_env *e, const char *kernel,
                   size_t local);

/* The check of a fill plan: buffer 0 holds clc_value(j) at every j. */
bool clc_check_fill(const struct clc_check_in *c, struct clc_result *r);

/* The check of a map plan: buffer 0 in (initial), buffer 1 out (read back); p->reference
 * (reference.h) fills the expected output from the input. */
bool clc_check_map(const struct clc_check_in *c, struct clc_result *r);

/* Room for the expected values of a check: n elements of the row's type, from the host
 * buffers reused row to row (clc_host_get; give it back with clc_host_put), or NULL with the
 * reason in r's note. */
void *clc_check_want(const struct clc_check_in *c, struct clc_result *r, size_t n);

/* The gather check: buffers in (clc_value), idx (CLC_INIT_HOST uint32) and out (read back):
 * out[i] = in[idx[i]]. */
bool clc_check_gather(const struct clc_check_in *c, struct clc_result *r);

/* The check of a grid that sums: buffer 0 the input (clc_value, read as vectors of w elements
 * of type T), buffer 1 the g sums (read back): sum i adds vectors i, i + g, i + 2g ... of the
 * first n_used elements (check_ctx points at {g, w, n_used} as uint64_t), the last one also
 * the n_used % w elements past the last whole vector.  Exact: the plans keep each sum below
 * 2^24. */
bool clc_check_grid_sums(const struct clc_check_in *c, struct clc_result *r);

/* The transpose check: buffers in (clc_value) and out (read back, poisoned); ref_ctx points at
 * {width, height} (uint64_t), check_ctx at a bool, true for a plain copy (out = in); the
 * output past width x height must still be poisoned. */
bool clc_check_transpose(const struct clc_check_in *c, struct clc_result *r);

#endif
