/* instance.h - a plan carried out on one API (the driver's own header, see instance.c). */
#ifndef CLC_DRIVER_INSTANCE_H
#define CLC_DRIVER_INSTANCE_H

#include <pthread.h>
#include <stdio.h>

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

/* The options of p's trace build in type t: the timed build's, and -DCLC_TRACE. */
void clc_trace_options(const struct clc_plan *p, enum clc_type t, char *out, size_t len);

/* The kernel file of plan p: its own (a custom kernel's), else its case's. */
const char *clc_plan_file(const struct clc_plan *p, const char *case_file);

/* Allocates p's buffers on be and builds its kernel (the trace build when trace), so that
 * in->op is ready to launch.  Returns CLC_OK or CLC_ERR; close the instance either way. */
int clc_instance_open(struct clc_instance *in, struct clc_backend *be, const char *case_file,
                      const struct clc_plan *p, enum clc_type t, bool trace);
void clc_instance_close(struct clc_instance *in);

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

/* A row's trace build made ahead: compiled on a thread of its own while the row's kernel is
 * built, timed and checked, so that the model finds it built (a cold compiler takes a third
 * of a second a kernel on a GPU).  All zero: none. */
struct clc_trace_ahead {
    struct clc_backend *be;    /* where it is built; NULL: none under way */
    pthread_t thread;          /* the build's, joined when the build is taken or dropped */
    const char *file, *kernel; /* the instance's, which outlive the thread */
    char options[512];         /* clc_trace_options */
    FILE *held;                /* what the build prints, held for the model to show */
    char *messages;            /* its text, once the thread is done */
    size_t messages_len;
    int rc;                    /* the build's, once the thread is done */
    struct clc_kernel *built;  /* its kernel, until taken */
};

/* Starts the trace build of plan p's kernel in type t on backend be on a thread, or leaves
 * *a zeroed where it is not wanted: no model (--no-model), no kernel of ours, a CPU device
 * unless s->o->trace_ahead says otherwise, or no thread to be had (the model then builds it
 * itself).  p and case_file must outlive the build. */
void clc_trace_ahead_start(struct clc_trace_ahead *a, struct clc_session *s,
                           struct clc_backend *be, const char *case_file,
                           const struct clc_plan *p, enum clc_type t);

/* Waits for a build ahead that the model did not take and drops it with its messages, as a
 * row that is not traced builds nothing.  Call it before in's plan and backend go. */
void clc_trace_ahead_end(struct clc_trace_ahead *a);

/* Traces in's kernel (trace.c) and fills r's model fields.  The trace build is taken from
 * `ahead` when it was made there on in's backend, else built here (ahead NULL or on another
 * API).  An access outside the buffers sets *clean false and puts the fault into r->note.  A
 * kernel without CLC_TRACE_ARGS is noted, not an error.  Returns CLC_ERR when the trace
 * launch failed. */
int clc_model_row(struct clc_session *s, struct clc_instance *in, struct clc_trace_ahead *ahead,
                  struct clc_result *r, bool *clean);

#endif
