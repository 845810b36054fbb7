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

/* Traces in's kernel (trace.c) and fills r's model fields.  An access outside the buffers
 * sets *clean false and puts the fault into r->note.  A kernel without CLC_TRACE_ARGS is
 * noted, not an error.  Returns CLC_ERR when the trace launch failed. */
int clc_model_row(struct clc_session *s, struct clc_instance *in, struct clc_result *r,
                  bool *clean);

#endif
