/* instance.h - a plan carried out on one API (the driver's own header, see instance.c). */
#ifndef CLC_DRIVER_INSTANCE_H
#define CLC_DRIVER_INSTANCE_H

#include "clcoalesce/driver.h"

struct clc_instance {
    struct clc_backend *be;
    const struct clc_plan *plan;
    enum clc_type t;
    const char *file;                    /* the kernel file */
    struct clc_kernel *kernel;           /* NULL for the vendor copy */
    struct clc_buf *bufs[CLC_PLAN_BUFS];
    struct clc_launch launch;
    struct clc_op op;                    /* what is timed */
    struct clc_kernel *k_init, *k_pick, *k_addr; /* the support kernels, built on first use */
};

/* The options of p's trace build in type t on be: the timed build's, and -DCLC_TRACE; on a
 * GPU also -DCLC_TRACE_CALLS (cl/clc_trace.h). */
void clc_trace_options(const struct clc_plan *p, enum clc_type t, const struct clc_backend *be,
                       char *out, size_t len);

/* The kernel file of plan p: its own (a custom kernel's), else its case's. */
const char *clc_plan_file(const struct clc_plan *p, const char *case_file);

/* The file plan p's trace build compiles: its trace_file, else clc_plan_file. */
const char *clc_plan_trace_file(const struct clc_plan *p, const char *case_file);

/* Allocates p's buffers on be and builds its kernel, so that in->op is ready to launch.
 * Returns CLC_OK or CLC_ERR; close the instance either way. */
int clc_instance_open(struct clc_instance *in, struct clc_backend *be, const char *case_file,
                      const struct clc_plan *p, enum clc_type t);
void clc_instance_close(struct clc_instance *in);

/* What the instance's kernel is as compiled, read off its build's PTX into f: the loads a
 * work-item has in flight (compiled_loads, clc_ptx_loads_in_flight) and whether it stores
 * runs back to back (stores_combined, clc_ptx_stores_combined); NAN where the API
 * gives none (a CPU's OpenCL, not asked). */
void clc_instance_compiled(const struct clc_instance *in, struct clc_model_features *f);

/* Fills every buffer as its spec says. */
int clc_instance_init(struct clc_instance *in);

/* What one API's check read back, kept so that the next API's run of the same row can be
 * held against it. */
struct clc_readback {
    struct clc_backend *be;
    void *got[CLC_PLAN_BUFS], *window[CLC_PLAN_BUFS];
    bool verified;
};

/* Reads back what the check needs and runs it: *verified is its verdict, r->note says why
 * not.  With `same_as` (the same row's readback on another API, verified against the host
 * reference there), output identical to it byte for byte is verified without computing the
 * reference again; any other output gets the full check.  With `keep`, the readback stays
 * there for the next API (clc_readback_release frees it).  Returns CLC_ERR only when
 * reading back failed. */
int clc_instance_check(struct clc_instance *in, struct clc_result *r, bool *verified,
                       const struct clc_readback *same_as, struct clc_readback *keep);
void clc_readback_release(struct clc_readback *rb);

/* The device address of buffer `buf`, as a kernel sees it. */
int clc_instance_address(struct clc_instance *in, unsigned buf, uint64_t *addr);

/* The trace builds made ahead (ahead.c), for a run of the session's rows. */

/* Whether the run makes them: the model is on, and the device is not a CPU unless
 * s->o->trace_ahead says otherwise (there the compiler would take cores from the kernel
 * timed). */
bool clc_ahead_wanted(const struct clc_session *s);

/* Lists a row of the run, in the order the run takes them, when clc_ahead_wanted. */
void clc_ahead_add(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                   enum clc_type t, uint64_t size, long param);

/* Starts the threads that build the listed rows' trace builds, ahead of the run (without a
 * thread to be had, the model builds each in place). */
void clc_ahead_start(struct clc_session *s);

/* Says which row the run is at, once its own kernel is built: the threads may go on to the
 * rows after it. */
void clc_ahead_at(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                  enum clc_type t, uint64_t size, long param);

/* Waits, when be is the backend the builds are made on, until the threads are through the
 * row under way, so that its trace build is in be's build cache (or failed there). */
void clc_ahead_wait(struct clc_session *s, const struct clc_backend *be);

/* Stops the threads and forgets the rows. */
void clc_ahead_stop(struct clc_session *s);

/* Traces in's kernel (trace.c) and fills r's model fields.  The trace build is taken from
 * the build cache when it was made ahead there (clc_ahead_wait), else built here.  An access
 * outside the buffers sets *clean false and puts the fault into r->note.  A kernel without
 * CLC_TRACE_ARGS is noted, not an error.  Returns CLC_ERR when the trace launch failed. */
int clc_model_row(struct clc_session *s, struct clc_instance *in, struct clc_result *r,
                  bool *clean);

#endif
