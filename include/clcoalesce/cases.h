/* cases.h - the case registry, the run configuration, and the helpers a case's host file
 * uses to build its kernels, time them, verify them and report a row.
 *
 * A case is one host file (host/cases/<name>.c) defining `const struct clc_case
 * clc_case_<name>`, one kernel file (cl/<name>.cl), and one line CLC_CASE(<name>) in
 * host/cases/cases.def. */
#ifndef CLCOALESCE_CASES_H
#define CLCOALESCE_CASES_H

#include "clcoalesce/ocl.h"
#include "clcoalesce/options.h"
#include "clcoalesce/reference.h"
#include "clcoalesce/run.h"
#include "clcoalesce/result.h"
#include "clcoalesce/verify.h"

/* ------------------------------------------------------------------ configuration */

struct clc_result;
struct clc_trace;
/* Receives a modelled row: the kernel's file, its build options (without -DCLC_TRACE), its
 * name, and the trace (valid only during the call; see model.h). */
typedef void (*clc_model_hook)(void *arg, const struct clc_result *r, const char *cl_file,
                               const char *options, const char *kernel,
                               const struct clc_trace *trace);

struct clc_opts {
    /* The options shared with the CUDA twins (options.h): o->size, o->reps ... by name, and
     * o->run as one struct clc_run_opts. */
    CLC_RUN_OPTS_GROUP(run);
    const char *kernel_dir; /* --kernel-dir, NULL to look it up */
    bool model;             /* the access model after each verified kernel row (--no-model) */
    /* Called for each modelled row with where its kernel came from and the raw trace
     * (`explain` and `ptx` use it); NULL for none. */
    clc_model_hook model_hook;
    void *model_hook_arg;
    /* The custom case (`run custom`, host/cases/custom.c): a kernel of the user's own. */
    const char *kernel_file;   /* --kernel-file: the .cl file, relative to the current dir */
    const char *kernel_name;   /* --kernel: the __kernel in it */
    const char *pattern;       /* --pattern: copy, scale, transpose or gather */
    size_t local[2];           /* --local N or XxY; {0, 0}: the pattern's default */
    unsigned items_per_thread; /* --items-per-thread K; 0: the pattern's default */
};

/* Fills o with the defaults: 20 reps, 2 warm-ups, float and double, size chosen per device,
 * the access model on. */
void clc_opts_defaults(struct clc_opts *o);

/* ------------------------------------------------------------------ the registry */

struct clc_bench;

struct clc_case {
    const char *name;       /* CLI and JSON name */
    const char *cl_file;    /* kernel file in the kernel directory */
    const char *kernels;    /* kernel names in cl_file, space separated */
    const char *summary;    /* one line: what the case shows */
    const char *variants;   /* its variants and params */
    const char *bytes_rule; /* the bytes counted per launch */
    const char *expect;     /* which variant should win, and why */
    unsigned types;         /* element types it runs in (enum clc_type mask) */
    unsigned alloc_factor;  /* largest buffer it allocates, as a multiple of the size */
    bool explicit_only;     /* runs only when named (it needs options of its own), never as
                             * part of a plain `run` */
    /* Runs every variant in type t, adding rows with clc_bench_finish.  Returns CLC_OK, or
     * CLC_ERR after an error was printed (rows already added stay). */
    int (*run)(struct clc_bench *b, enum clc_type t);
};

extern const struct clc_case *const clc_cases[];
extern const size_t clc_n_cases;
const struct clc_case *clc_find_case(const char *name);

/* True when a plain `run` (no case named) runs c: every case but the explicit_only ones. */
bool clc_case_runs_by_default(const struct clc_case *c);

/* The custom case's patterns: whether `pattern` is one, whether it launches in 2-D, and
 * the `run custom --help` text (kernel signatures, launch shape, build options). */
bool clc_custom_pattern_known(const char *pattern);
bool clc_custom_pattern_2d(const char *pattern);
void clc_custom_help(FILE *f);

/* Prints the `clcoalesce cases` listing. */
void clc_print_cases(FILE *f);

/* ------------------------------------------------------------------ running */

/* What a case's run function is handed. */
struct clc_bench {
    struct clc_ctx *ctx;
    const struct clc_opts *opts;
    const struct clc_case *c; /* the case running */
    uint64_t size;            /* bytes of the main array for this case */
    struct clc_report *report;
    FILE *table;              /* rows are streamed here when non-NULL */
    struct clc_timing_opts timing;
    /* The last launch clc_bench_time timed through clc_enqueue_kernel, for the model. */
    struct clc_launch last_launch;
    bool have_launch;
    bool coarse;              /* the last timing was cold and coarse (struct clc_timing) */
};

/* Runs the named cases (all when n == 0) on the selected device, filling rep.  Streams table
 * rows to `table` when non-NULL.  Returns CLC_OK, CLC_USAGE (bad case name, bad device
 * selector) or CLC_ERR (any error, including a result that did not verify). */
int clc_run(const struct clc_opts *o, const char *const *names, int n, struct clc_report *rep,
            FILE *table);

/* Number of elements of type t in the case's main array. */
size_t clc_bench_elems(const struct clc_bench *b, enum clc_type t);

/* Creates kernel `name` from the case's .cl file built for element type t
 * (-DT=float or -DT=double -DCLC_FP64), with `extra` options appended (may be NULL). */
int clc_bench_kernel(struct clc_bench *b, enum clc_type t, const char *extra, const char *name,
                     cl_kernel *out);

/* True when the variant should run (no --variant given, or it matches). */
bool clc_bench_wants(const struct clc_bench *b, const char *variant);

/* Writes the poison pattern (all bits set: NaN in float and double) over a buffer, so an
 * element the kernel fails to write can never pass verification. */
int clc_bench_poison(struct clc_bench *b, cl_mem buf, size_t bytes);

/* Times fn with the run's timing options and copies the timing into r (bytes must be set). */
int clc_bench_time(struct clc_bench *b, struct clc_result *r, clc_enqueue_fn fn, void *arg,
                   struct clc_timing *t);

/* Completes a row: status from `verified`, bandwidth and percentages, then adds it to the
 * report and streams it.  Returns CLC_OK, or CLC_ERR when the row did not verify.
 * With the model on, a verified row whose timed launch was clc_enqueue_kernel with an
 * explicit work-group size is modelled here: the kernel is rebuilt with -DCLC_TRACE and
 * launched once more with the arguments given through clc_arg.  So buffers may change
 * after this call: a case re-initialises its inputs before timing each row. */
int clc_bench_finish(struct clc_bench *b, struct clc_result *r, bool verified);

/* Adds a SKIPPED row for a variant this device cannot run, `why` in its note. */
int clc_bench_skip(struct clc_bench *b, enum clc_type t, const char *variant, const char *why);

/* Sets argument idx of kernel k; reports a failure by name with the kernel's name.  The
 * value is remembered for the model's trace launch: set every argument of a timed kernel
 * through clc_arg. */
int clc_arg(cl_kernel k, cl_uint idx, size_t size, const void *value);

/* An out-of-place 1-D variant whose kernel takes (in, out, ulong n_out[, uint param]):
 * the shape most cases share.  clc_bench_map uploads clc_value inputs, poisons the output,
 * times the launch, and checks every output element against `reference`. */
struct clc_map_spec {
    const char *variant;
    const char *kernel;     /* kernel name in the case's .cl file */
    const char *options;    /* extra build options, may be NULL */
    size_t n_in, n_out;     /* elements of the input and output arrays */
    size_t global, local;   /* 1-D launch; local 0 = the runtime's choice */
    uint64_t bytes;         /* bytes counted per launch */
    bool has_param;         /* pass `param` as a 4th (uint) argument and report it */
    long param;
    clc_reference_fn reference; /* fills want[0..n_out) from in[0..n_in) (reference.h) */
    const void *ref_ctx;        /* for reference(), may be NULL */
};
int clc_bench_map(struct clc_bench *b, enum clc_type t, const struct clc_map_spec *s);

/* The plainest map variant, which most others start from: n elements in and n out, one per
 * work-item in work-groups of `local`, 2 x n x element size bytes counted. */
struct clc_map_spec clc_map_elementwise(size_t n, enum clc_type t, size_t local,
                                        const char *variant, const char *kernel,
                                        clc_reference_fn reference);

/* Writes clc_value(j) into elements [0, n) of buf with the clc_init kernel that every
 * kernel file gets from clc.h (no upload: large buffers initialise at device speed). */
int clc_bench_init_values(struct clc_bench *b, enum clc_type t, cl_mem buf, size_t n);

/* Allocates a host array of n elements of type t; prints an error when out of memory. */
void *clc_host_alloc(size_t n, enum clc_type t);

#endif
