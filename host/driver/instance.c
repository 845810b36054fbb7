/* instance.c - a plan carried out on one API: its kernel built, its buffers allocated and
 * initialised, its launch described, and after the launches its buffers read back and handed
 * to the case's check.  The helper kernels (initial values, strided read-back, a buffer's
 * address) come from cl/clc_support.cl, built for the row's type. */
#define _GNU_SOURCE
#include "instance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUPPORT_FILE "clc_support.cl"

void clc_plan_options(const struct clc_plan *p, enum clc_type t, char *out, size_t len)
{
    snprintf(out, len, "%s%s%s", t == CLC_DOUBLE ? "-DT=double -DCLC_FP64=1" : "-DT=float",
             p->defines[0] ? " " : "", p->defines);
}

void clc_trace_options(const struct clc_plan *p, enum clc_type t, const struct clc_backend *be,
                       char *out, size_t len)
{
    clc_plan_options(p, t, out, len);
    strncat(out, be->dev.cpu ? " -DCLC_TRACE" : " -DCLC_TRACE -DCLC_TRACE_CALLS",
            len - strlen(out) - 1);
}

/* The instance's launch as its PTX sees it: each buffer at an address of its own, far
 * apart (what a kernel computes of its buffers' addresses rarely steers its work), __local
 * arguments at 0, scalars as they are. */
static void ptx_launch(const struct clc_instance *in, struct clc_ptx_launch *l)
{
    const struct clc_launch *k = &in->launch;
    *l = (struct clc_ptx_launch){.dims = k->dims};
    memcpy(l->global, k->global, sizeof l->global);
    memcpy(l->local, k->local, sizeof l->local);
    for (unsigned i = 0; i < k->nargs && i < sizeof l->args / sizeof l->args[0]; i++) {
        l->args[i] = k->args[i].kind == CLC_ARG_BUF     ? (uint64_t)(i + 1) << 40
                     : k->args[i].kind == CLC_ARG_LOCAL ? 0
                                                        : k->args[i].value;
        l->nargs = i + 1;
    }
}

/* Read off the timed build's PTX; NAN also where it does not name the kernel.  A CPU's
 * OpenCL gives no PTX, and asking it for its program's binaries can cost a build. */
void clc_instance_compiled(const struct clc_instance *in, struct clc_model_features *f)
{
    char options[512], *text = NULL, *log = NULL; /* as clc_instance_open's */
    clc_plan_options(in->plan, in->t, options, sizeof options);
    f->compiled_loads = f->stores_combined = NAN;
    f->work_units = f->work_div32 = f->work_div64 = NAN;
    if (!in->be->dev.cpu &&
        in->be->ops->code(in->be, in->file, options, false, &text, &log) == CLC_OK) {
        f->compiled_loads = clc_ptx_loads_in_flight(text, in->plan->kernel);
        f->stores_combined = clc_ptx_stores_combined(text, in->plan->kernel);
        struct clc_ptx_launch l;
        struct clc_ptx_work w;
        ptx_launch(in, &l);
        clc_ptx_work(text, in->plan->kernel, &l, &w);
        f->work_units = w.units;
        f->work_div32 = w.div32;
        f->work_div64 = w.div64;
    }
    free(text);
    free(log);
}

/* The support kernel `name`, built for the instance's type on first use. */
static int support(struct clc_instance *in, const char *name, struct clc_kernel **k)
{
    if (*k != NULL)
        return CLC_OK;
    const char *opts = in->t == CLC_DOUBLE ? "-DT=double -DCLC_FP64=1" : "-DT=float";
    return in->be->ops->build(in->be, SUPPORT_FILE, opts, name, k);
}

/* Runs a support kernel over `items` work-items in groups of 256 and waits. */
static int run_support(struct clc_instance *in, struct clc_kernel *k, size_t items,
                       const struct clc_arg *args, unsigned nargs)
{
    struct clc_launch l = {k, 1, {clc_round_up(items ? items : 1, 256), 1, 1}, {256, 1, 1},
                           nargs, {{0}}};
    memcpy(l.args, args, nargs * sizeof *args);
    struct clc_op op = {&l, NULL, NULL, 0};
    return in->be->ops->run(in->be, &op, 1);
}

const char *clc_plan_file(const struct clc_plan *p, const char *case_file)
{
    return p->file ? p->file : case_file;
}

const char *clc_plan_trace_file(const struct clc_plan *p, const char *case_file)
{
    return p->trace_file ? p->trace_file : clc_plan_file(p, case_file);
}

int clc_instance_open(struct clc_instance *in, struct clc_backend *be, const char *case_file,
                      const struct clc_plan *p, enum clc_type t)
{
    memset(in, 0, sizeof *in);
    in->be = be;
    in->plan = p;
    in->t = t;
    in->file = clc_plan_file(p, case_file);
    for (unsigned i = 0; i < p->nbufs; i++) {
        const struct clc_buffer_spec *b = &p->bufs[i];
        if (b->elems > SIZE_MAX / b->elem_size) {
            clc_error("buffer %s of %llu elements is too large for this host", b->name,
                      (unsigned long long)b->elems);
            return CLC_ERR;
        }
        size_t bytes = (size_t)(b->elems * b->elem_size);
        int rc;
        if (b->mem == CLC_MEM_IMAGE2D)
            rc = be->ops->alloc_image(be, (size_t)b->width, (size_t)(b->elems / b->width),
                                      b->name, &in->bufs[i]);
        else if (b->mem == CLC_MEM_DEVICE)
            rc = clc_alloc(be, bytes, b->name, &in->bufs[i]);
        else
            rc = be->ops->alloc_in(be, bytes, b->mem, b->name, &in->bufs[i]);
        if (rc != CLC_OK)
            return CLC_ERR;
    }
    if (p->kernel == NULL) { /* the vendor copy */
        in->op = (struct clc_op){NULL, in->bufs[0], in->bufs[1],
                                 (size_t)(p->bufs[0].elems * p->bufs[0].elem_size)};
        return CLC_OK;
    }
    char opts[512];
    clc_plan_options(p, t, opts, sizeof opts);
    if (be->ops->build(be, in->file, opts, p->kernel, &in->kernel) != CLC_OK)
        return CLC_ERR;
    struct clc_launch *l = &in->launch;
    l->kernel = in->kernel;
    l->dims = p->dims;
    for (int d = 0; d < 3; d++) {
        l->global[d] = d < (int)p->dims ? p->global[d] : 1;
        l->local[d] = d < (int)p->dims ? p->local[d] : 1;
    }
    l->nargs = p->nargs;
    for (unsigned i = 0; i < p->nargs; i++) {
        l->args[i].kind = p->args[i].kind;
        l->args[i].value = p->args[i].value;
        l->args[i].buf = p->args[i].kind == CLC_ARG_BUF ? in->bufs[p->args[i].value] : NULL;
    }
    in->op = (struct clc_op){l, NULL, NULL, 0};
    return CLC_OK;
}

void clc_instance_close(struct clc_instance *in)
{
    if (in->be == NULL)
        return;
    for (unsigned i = 0; i < CLC_PLAN_BUFS; i++)
        clc_release(in->be, in->bufs[i]);
    clc_release_kernel(in->be, in->kernel);
    clc_release_kernel(in->be, in->k_init);
    clc_release_kernel(in->be, in->k_pick);
    clc_release_kernel(in->be, in->k_addr);
    memset(in, 0, sizeof *in);
}

int clc_instance_init(struct clc_instance *in)
{
    const struct clc_plan *p = in->plan;
    struct clc_backend *be = in->be;
    for (unsigned i = 0; i < p->nbufs; i++) {
        const struct clc_buffer_spec *b = &p->bufs[i];
        size_t bytes = (size_t)(b->elems * b->elem_size);
        int rc = CLC_OK;
        switch (b->init) {
        case CLC_INIT_NONE: break;
        case CLC_INIT_VALUES: {
            if (b->mem == CLC_MEM_IMAGE2D) { /* no kernel writes an image: uploaded */
                const void *v = clc_values((size_t)b->elems, in->t);
                rc = v != NULL ? be->ops->write(be, in->bufs[i], 0, bytes, v) : CLC_ERR;
                if (v == NULL)
                    clc_error("out of host memory for the values of %s", b->name);
                break;
            }
            /* written on the device: large buffers need no upload */
            struct clc_arg args[] = {{CLC_ARG_BUF, in->bufs[i], 0},
                                     {CLC_ARG_U64, NULL, b->elems}};
            rc = support(in, "clc_init", &in->k_init);
            if (rc == CLC_OK)
                rc = run_support(in, in->k_init, (size_t)b->elems, args, 2);
            break;
        }
        case CLC_INIT_POISON: rc = be->ops->fill(be, in->bufs[i], bytes, 0xffffffffu); break;
        case CLC_INIT_ZERO: rc = be->ops->fill(be, in->bufs[i], bytes, 0); break;
        case CLC_INIT_HOST: rc = be->ops->write(be, in->bufs[i], 0, bytes, b->host); break;
        }
        if (rc != CLC_OK)
            return CLC_ERR;
    }
    return CLC_OK;
}

int clc_instance_address(struct clc_instance *in, unsigned buf, uint64_t *addr)
{
    struct clc_buf *tmp = NULL;
    int rc = CLC_ERR;
    struct clc_arg args[] = {{CLC_ARG_BUF, in->bufs[buf], 0}, {CLC_ARG_BUF, NULL, 0}};
    if (support(in, "clc_address", &in->k_addr) != CLC_OK ||
        clc_alloc(in->be, sizeof *addr, "address", &tmp) != CLC_OK)
        goto done;
    args[1].buf = tmp;
    if (run_support(in, in->k_addr, 1, args, 2) != CLC_OK ||
        in->be->ops->read(in->be, tmp, 0, sizeof *addr, addr) != CLC_OK)
        goto done;
    rc = CLC_OK;
done:
    clc_release(in->be, tmp);
    return rc;
}

/* Read-back memory: the backend's page-locked blocks, else ordinary host memory. */
static void *readback_get(struct clc_backend *be, size_t bytes)
{
    void *p = clc_pinned_get(be, bytes);
    return p != NULL ? p : clc_host_get(bytes);
}

static void readback_put(struct clc_backend *be, void *p)
{
    if (!clc_pinned_put(be, p))
        clc_host_put(p);
}

/* Reads back buffer i as the check wants it: all of it, or every pick_stride-th element
 * gathered on the device (a strided buffer is 32 x larger than what the check reads), and its
 * first `window` elements when it has a window. */
static int read_back(struct clc_instance *in, unsigned i, void **got, void **window)
{
    const struct clc_buffer_spec *b = &in->plan->bufs[i];
    struct clc_backend *be = in->be;
    size_t es = b->elem_size, s = b->pick_stride > 1 ? (size_t)b->pick_stride : 1;
    size_t n = (size_t)(b->elems / s);
    struct clc_buf *dense = NULL;
    int rc = CLC_ERR;
    *got = readback_get(be, n * es);
    if (b->window > 0)
        *window = readback_get(be, (size_t)b->window * es);
    if (*got == NULL || (b->window > 0 && *window == NULL)) {
        clc_error("out of host memory to read back %s", b->name);
        return CLC_ERR;
    }
    if (s == 1) {
        rc = be->ops->read(be, in->bufs[i], 0, n * es, *got);
    } else {
        struct clc_arg args[] = {{CLC_ARG_BUF, in->bufs[i], 0}, {CLC_ARG_BUF, NULL, 0},
                                 {CLC_ARG_U64, NULL, s}, {CLC_ARG_U64, NULL, n}};
        if (support(in, "clc_pick", &in->k_pick) == CLC_OK &&
            clc_alloc(be, n * es, "strided read-back", &dense) == CLC_OK) {
            args[1].buf = dense;
            if (run_support(in, in->k_pick, n, args, 4) == CLC_OK)
                rc = be->ops->read(be, dense, 0, n * es, *got);
        }
        clc_release(be, dense);
    }
    if (rc == CLC_OK && b->window > 0)
        rc = be->ops->read(be, in->bufs[i], 0, (size_t)b->window * es, *window);
    return rc;
}

/* Whether every buffer the check reads holds the same bytes in a and b. */
static bool same_output(const struct clc_plan *p, void *const *got_a, void *const *win_a,
                        void *const *got_b, void *const *win_b)
{
    for (unsigned i = 0; i < p->nbufs; i++) {
        const struct clc_buffer_spec *b = &p->bufs[i];
        if (!b->read_back)
            continue;
        size_t s = b->pick_stride > 1 ? (size_t)b->pick_stride : 1;
        if (!clc_same_bytes(got_a[i], got_b[i], (size_t)(b->elems / s) * b->elem_size) ||
            (b->window > 0 &&
             !clc_same_bytes(win_a[i], win_b[i], (size_t)b->window * b->elem_size)))
            return false;
    }
    return true;
}

int clc_instance_check(struct clc_instance *in, struct clc_result *r, bool *verified,
                       const struct clc_readback *same_as, struct clc_readback *keep)
{
    const struct clc_plan *p = in->plan;
    struct clc_check_in c = {.plan = p, .type = in->t, .be = in->be};
    void *got[CLC_PLAN_BUFS] = {0}, *window[CLC_PLAN_BUFS] = {0};
    int rc = CLC_ERR;
    *verified = false;
    for (unsigned i = 0; i < p->nbufs; i++) {
        const struct clc_buffer_spec *b = &p->bufs[i];
        if (b->read_back && read_back(in, i, &got[i], &window[i]) != CLC_OK)
            goto done;
        c.got[i] = got[i];
        c.window[i] = window[i];
    }
    rc = CLC_OK;
    if (same_as != NULL && same_as->verified &&
        same_output(p, same_as->got, same_as->window, got, window)) {
        *verified = true;
        goto done;
    }
    for (unsigned i = 0; i < p->nbufs; i++) {
        const struct clc_buffer_spec *b = &p->bufs[i];
        if (b->initial && b->init == CLC_INIT_HOST) {
            c.initial[i] = b->host;
        } else if (b->initial) {
            /* the values clc_init wrote: the same few arrays row after row, made once */
            c.initial[i] = clc_values((size_t)b->elems, in->t);
            if (c.initial[i] == NULL) {
                clc_error("out of host memory for the inputs of the check");
                rc = CLC_ERR;
                goto done;
            }
        }
    }
    *verified = p->check(&c, r);
done:
    if (keep != NULL && rc == CLC_OK) {
        keep->be = in->be;
        memcpy(keep->got, got, sizeof got);
        memcpy(keep->window, window, sizeof window);
        keep->verified = *verified;
        return rc;
    }
    for (unsigned i = 0; i < CLC_PLAN_BUFS; i++) {
        readback_put(in->be, got[i]);
        readback_put(in->be, window[i]);
    }
    return rc;
}

void clc_readback_release(struct clc_readback *rb)
{
    for (unsigned i = 0; rb->be != NULL && i < CLC_PLAN_BUFS; i++) {
        readback_put(rb->be, rb->got[i]);
        readback_put(rb->be, rb->window[i]);
    }
    memset(rb, 0, sizeof *rb);
}

int clc_run_reference(struct clc_backend *be, const struct clc_plan *p, enum clc_type t,
                      const char *file, const char *kernel, unsigned dims, const size_t global[3],
                      const size_t local[3], void *out[CLC_PLAN_BUFS])
{
    struct clc_plan rp = *p;
    struct clc_instance in;
    rp.kernel = kernel;
    rp.file = file;
    rp.dims = dims;
    memcpy(rp.global, global, sizeof rp.global);
    memcpy(rp.local, local, sizeof rp.local);
    memset(out, 0, CLC_PLAN_BUFS * sizeof *out);
    int rc = clc_instance_open(&in, be, file, &rp, t);
    if (rc == CLC_OK)
        rc = clc_instance_init(&in);
    if (rc == CLC_OK)
        rc = be->ops->run(be, &in.op, 1);
    for (unsigned i = 0; rc == CLC_OK && i < p->nbufs; i++) {
        size_t bytes = (size_t)(p->bufs[i].elems * p->bufs[i].elem_size);
        if (!p->bufs[i].read_back)
            continue;
        if ((out[i] = malloc(bytes ? bytes : 1)) == NULL) {
            clc_error("out of host memory for the reference's %s", p->bufs[i].name);
            rc = CLC_ERR;
        } else {
            rc = be->ops->read(be, in.bufs[i], 0, bytes, out[i]);
        }
    }
    clc_instance_close(&in);
    for (unsigned i = 0; rc != CLC_OK && i < CLC_PLAN_BUFS; i++) {
        free(out[i]);
        out[i] = NULL;
    }
    return rc;
}
