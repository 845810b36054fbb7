/* anykernel.c - `custom` for a kernel of any signature: its arguments described once
 * (describe.h: a `clcoalesce:` comment before the kernel, --describe, or nothing where the
 * signature leaves no doubt) become a plan like any variant's, with its inputs filled by
 * their generators on the host, its outputs poisoned, its launch in 1 to 3 dimensions.  The
 * check runs the user's reference kernel (--reference) on the same back end over the same
 * inputs and compares every output buffer element by element; without one the row is
 * unchecked, never verified.
 *
 * The bytes a row counts are the distinct bytes its launch reads plus those it writes (the
 * effective-bandwidth rule), counted by the checked run, which marks every byte every
 * work-item reads or writes (cl/clc_trace.h's byte maps).  That run is at
 * CLC_CUSTOM_CHECK_SIZE, a row at its own size: each buffer's read and written fractions are
 * carried over to that buffer's bytes at the row's size (carry_over).  --bytes overrides;
 * a kernel that could not be traced counts its buffers' sizes, an inout one twice. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/custom.h"
#include "clcoalesce/describe.h"
#include "clcoalesce/kernelfile.h"

#define DEFAULT_TOLERANCE 1e-4

/* What the user asked for, as the variant's data. */
struct any {
    struct clc_desc d;           /* the kernel's arguments and launch */
    struct clc_desc ref_d;       /* the reference's launch: its own description, else d */
    char path[PATH_MAX];         /* the kernel file, absolute */
    char ref_path[PATH_MAX];     /* the reference's file, absolute */
    const char *kernel, *ref_kernel; /* ref_kernel NULL: unchecked */
    const char *bytes;           /* --bytes, NULL: the distinct bytes rule */
    struct clc_custom_counts counts; /* what the checked run counted, for the bytes */
    const char *flops;           /* --flops, else the description's, NULL: none counted */
    double tol;
    const char *missing;         /* what keeps the trace build from tracing it, or NULL */
    char trace_file[PATH_MAX];   /* its rewritten source for the trace build, or "" */
    char why[512];               /* the text `missing` may point to */
};

/* What one plan's check needs: the description evaluated at the plan's size. */
struct any_ctx {
    const struct any *a;
    struct clc_dvals v;
    struct clc_dvals rv;         /* the reference's launch at that size */
    int buf_of[CLC_DESC_ARGS];   /* the plan buffer of each pointer argument, -1 for none */
};

/* Runs the reference on the row's back end over the same inputs and compares each output. */
static bool check_any(const struct clc_check_in *c, struct clc_result *r)
{
    const struct any_ctx *x = c->plan->check_ctx;
    const struct any *a = x->a;
    void *want[CLC_PLAN_BUFS];
    if (clc_run_reference(c->be, c->plan, c->type, a->ref_path, a->ref_kernel, x->rv.dims,
                          x->rv.global, x->rv.local, want) != CLC_OK) {
        snprintf(r->note, sizeof r->note, "the reference kernel '%s' did not run", a->ref_kernel);
        return false;
    }
    bool ok = true;
    for (unsigned i = 0; ok && i < a->d.nargs; i++) {
        int b = x->buf_of[i];
        if (b < 0 || !c->plan->bufs[b].read_back)
            continue;
        char msg[200];
        ok = clc_desc_compare(&a->d, &x->v, i, c->got[b], want[b], a->tol, msg, sizeof msg);
        if (!ok)
            snprintf(r->note, sizeof r->note, "wrong against the reference %s: %.100s",
                     a->ref_kernel, msg);
    }
    for (unsigned i = 0; i < CLC_PLAN_BUFS; i++)
        free(want[i]);
    return ok;
}

/* Without a reference there is nothing to compare: the row is unchecked (plan.unchecked). */
static bool check_none(const struct clc_check_in *c, struct clc_result *r)
{
    (void)c;
    (void)r;
    return true;
}

/* The bytes of a buffer of `bytes` bytes that the launch touches at a row's size, when the
 * checked run saw `counted` of its `checked` bytes touched: the same fraction, rounded to
 * the nearest byte.  Exact where the part touched is a fixed fraction of the buffer at every
 * size (the whole of it, every k-th element, the first half); not where it is not: a part
 * of fixed size (a stencil's untouched corners, a histogram's bins) or one that grows
 * slower than the buffer (a matrix's border) is off by the difference of its shares at the
 * two sizes. */
static uint64_t carry_over(uint64_t counted, uint64_t checked, uint64_t bytes)
{
    if (checked == 0)
        return 0;
    unsigned __int128 x = (unsigned __int128)counted * bytes + checked / 2;
    return (uint64_t)(x / checked);
}

/* The kernel argument kind of a scalar of `bytes` bytes. */
static enum clc_arg_kind scalar_kind(unsigned bytes)
{
    return bytes == 1 ? CLC_ARG_U8 : bytes == 2 ? CLC_ARG_U16 : bytes == 4 ? CLC_ARG_U32
                                                                            : CLC_ARG_U64;
}

static int plan_any(const struct clc_env *e, const struct clc_variant *var, long param,
                    struct clc_plan *p)
{
    (void)param;
    const struct any *a = var->data;
    struct any_ctx *x = clc_plan_host(p, sizeof *x);
    char err[CLC_DESC_ERR];
    if (x == NULL)
        return CLC_ERR;
    x->a = a;
    if (!clc_desc_eval(&a->d, e->size, e->dev ? e->dev->meta.max_alloc : 0, &x->v, err,
                       sizeof err) ||
        !clc_desc_eval(&a->ref_d, e->size, 0, &x->rv, err, sizeof err)) {
        clc_error("kernel '%s' at %llu bytes: %s", a->kernel, (unsigned long long)e->size, err);
        return CLC_ERR;
    }
    p->kernel = var->kernel;
    p->file = a->path;
    p->trace_file = a->trace_file[0] != '\0' ? a->trace_file : NULL;
    uint64_t bytes = 0, distinct = 0;
    const struct clc_custom_counts *cn = &a->counts;
    for (unsigned i = 0; i < a->d.nargs; i++) {
        const struct clc_darg *d = &a->d.args[i];
        x->buf_of[i] = -1;
        if (d->role == CLC_ROLE_SCALAR) {
            clc_plan_arg(p, scalar_kind(d->elem.bytes), x->v.bits[i]);
            continue;
        }
        uint64_t b = clc_darg_bytes(&a->d, &x->v, i);
        if (d->role == CLC_ROLE_LOCAL) {
            clc_plan_arg(p, CLC_ARG_LOCAL, b);
            continue;
        }
        if (p->nbufs >= CLC_PLAN_BUFS) {
            clc_error("kernel '%s': more than %d __global buffers", a->kernel, CLC_PLAN_BUFS);
            return CLC_ERR;
        }
        unsigned es = d->elem.bytes * d->elem.storage;
        bool filled = d->role != CLC_ROLE_OUT;
        unsigned k = clc_plan_buffer(p, d->name, x->v.len[i], es,
                                     filled ? CLC_INIT_HOST : CLC_INIT_POISON);
        x->buf_of[i] = (int)k;
        p->bufs[k].read_back = d->role != CLC_ROLE_IN;
        if (filled) {
            void *host = clc_plan_host(p, (size_t)b);
            if (host == NULL)
                return CLC_ERR;
            if (!e->dry)
                clc_desc_fill(&a->d, &x->v, i, host);
            p->bufs[k].host = host;
        }
        clc_plan_arg_buf(p, k);
        bytes += d->role == CLC_ROLE_INOUT ? 2 * b : b;
        if (cn->valid && k < cn->nbufs)
            distinct += carry_over(cn->read[k], cn->size[k], b) +
                        carry_over(cn->written[k], cn->size[k], b);
    }
    p->bytes_rule = "buffer sizes";
    if (a->bytes != NULL) {
        if (!clc_desc_expr(a->bytes, &x->v, &bytes, err, sizeof err)) {
            clc_error("--bytes: %s", err);
            return CLC_ERR;
        }
        p->bytes_rule = "from --bytes";
    } else if (cn->valid) {
        bytes = distinct;
        p->bytes_rule = CLC_BYTES_DISTINCT;
    }
    p->bytes = bytes;
    p->count_bytes = true;
    uint64_t flops = 0;
    if (a->flops != NULL && !clc_desc_expr(a->flops, &x->v, &flops, err, sizeof err)) {
        clc_error("%s: %s", a->flops == a->d.flops ? "flops" : "--flops", err);
        return CLC_ERR;
    }
    p->flops = (double)flops;
    p->dims = x->v.dims;
    memcpy(p->global, x->v.global, sizeof p->global);
    memcpy(p->local, x->v.local, sizeof p->local);
    /* in-out buffers and atomics accumulate over the timed launches: the check sees one */
    p->fresh_check = true;
    p->check = a->ref_kernel != NULL ? check_any : check_none;
    p->unchecked = a->ref_kernel == NULL;
    p->check_ctx = x;
    clc_plan_note(p, "n %llu, grid %zu", (unsigned long long)x->v.n, p->global[0]);
    for (unsigned k = 1; k < p->dims; k++)
        clc_plan_note(p, "x%zu", p->global[k]);
    clc_plan_note(p, ", group %zu", p->local[0]);
    for (unsigned k = 1; k < p->dims; k++)
        clc_plan_note(p, "x%zu", p->local[k]);
    if (a->ref_kernel == NULL)
        clc_plan_note(p, "; no --reference");
    if (a->missing != NULL)
        clc_plan_note(p, "; model: off (%s; see 'custom --help')", a->missing);
    return CLC_OK;
}

/* ------------------------------------------------------------------ reading the files */

/* The absolute path of `file` into out and its text (free it), or NULL after a message. */
static char *read_source(const char *file, char out[PATH_MAX])
{
    errno = 0;
    if (realpath(file, out) == NULL) {
        clc_error("cannot read kernel file '%s': %s", file, strerror(errno));
        return NULL;
    }
    return clc_read_kernel_file(out, NULL);
}

/* The description of `kernel`: `given` (--describe), else its comment in src, else
 * `fallback` (its reference's comment, when it has one), else its signature's default.
 * Checked against its parameters.  CLC_OK, or CLC_USAGE after a message naming the
 * argument. */
static int describe(const char *src, const char *file, const char *kernel, const char *given,
                    const char *fallback, struct clc_desc *d, struct clc_param *params, int *np)
{
    char err[CLC_DESC_ERR];
    *np = clc_kernel_params(src, kernel, params, CLC_DESC_ARGS + 1, err, sizeof err);
    if (*np < 0) {
        clc_error("%s: %s", file, err);
        return CLC_ERR;
    }
    char *comment = given == NULL ? clc_desc_find(src, kernel) : NULL;
    const char *text = given != NULL ? given : comment != NULL ? comment : fallback;
    bool ok = text != NULL ? clc_desc_parse(text, d, err, sizeof err)
                           : clc_desc_default(params, *np, d, err, sizeof err);
    free(comment);
    if (!ok) {
        clc_error("kernel '%s' in %s: %s; see 'clcoalesce custom --help'", kernel, file, err);
        return CLC_USAGE;
    }
    if (!clc_desc_match(d, params, *np, kernel, err, sizeof err)) {
        clc_error("%s: %s; see 'clcoalesce custom --help'", file, err);
        return CLC_USAGE;
    }
    return CLC_OK;
}

/* Whether the reference's parameters are the kernel's: the same count, spaces and types. */
static int same_signature(const struct clc_param *a, int na, const struct clc_param *b, int nb,
                          const char *kernel, const char *ref)
{
    for (int i = 0; i < (na > nb ? na : nb); i++) {
        if (i >= na || i >= nb || a[i].pointer != b[i].pointer || a[i].is_local != b[i].is_local ||
            a[i].is_global != b[i].is_global || strcmp(a[i].type, b[i].type) != 0) {
            clc_error("--reference %s: its signature is not that of '%s' (%d and %d parameters; "
                      "they differ at parameter %d%s%s)", ref, kernel, nb, na, i + 1,
                      i < nb ? ", " : "", i < nb ? b[i].name : "");
            return CLC_USAGE;
        }
    }
    return CLC_OK;
}

/* Evaluates the description at every size the run gives (--size, each step of
 * --sweep-size), before anything runs: CLC_USAGE after a message when a size overflows,
 * CLC_ERR when a buffer exceeds the largest allocation of a device of the session, else
 * CLC_OK.  A size the tool chooses is checked when it is planned. */
static int check_sizes(const struct clc_session *s, const struct any *a)
{
    const struct clc_opts *o = s->o;
    uint64_t max_alloc = 0;
    for (int i = 0; i < s->n_be; i++) {
        uint64_t m = s->be[i]->dev.meta.max_alloc;
        if (m > 0 && (max_alloc == 0 || m < max_alloc))
            max_alloc = m;
    }
    uint64_t first = o->sweep_max != 0 ? o->sweep_min : o->size;
    uint64_t last = o->sweep_max != 0 ? o->sweep_max : o->size;
    const char *what = o->sweep_max != 0 ? "a size of --sweep-size" : "the --size";
    for (uint64_t size = first; size != 0 && size <= last;
         size = size > UINT64_MAX / 2 ? 0 : 2 * size) {
        struct clc_dvals v;
        char err[CLC_DESC_ERR], sz[32];
        bool fits = clc_desc_eval(&a->d, size, 0, &v, err, sizeof err);
        if (!fits || !clc_desc_eval(&a->d, size, max_alloc, &v, err, sizeof err)) {
            clc_error("kernel '%s' at %s, %s: %s", a->kernel,
                      clc_format_size(size, sz, sizeof sz), what, err);
            return fits ? CLC_ERR : CLC_USAGE;
        }
    }
    return CLC_OK;
}

int clc_custom_measure_any(struct clc_session *s, const struct clc_custom_kernel *k)
{
    struct any *a = calloc(1, sizeof *a);
    struct clc_param kp[CLC_DESC_ARGS + 1], rp[CLC_DESC_ARGS + 1];
    int nk, nr, rc = CLC_ERR;
    char *src = NULL, *rsrc = NULL;
    if (a == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    a->kernel = k->name;
    a->ref_kernel = k->reference;
    a->bytes = k->bytes;
    const char *rfile = k->reference_file ? k->reference_file : k->file;
    if ((src = read_source(k->file, a->path)) == NULL ||
        (a->ref_kernel != NULL && (rsrc = read_source(rfile, a->ref_path)) == NULL) ||
        clc_custom_empty(src, k->file, k->name) ||
        (rsrc != NULL && clc_custom_empty(rsrc, rfile, a->ref_kernel)))
        goto done;
    char *ref_comment = rsrc != NULL ? clc_desc_find(rsrc, a->ref_kernel) : NULL;
    rc = describe(src, k->file, k->name, k->describe, ref_comment, &a->d, kp, &nk);
    free(ref_comment);
    if (rc != CLC_OK)
        goto done;
    a->tol = k->tolerance >= 0 ? k->tolerance : a->d.tolerance >= 0 ? a->d.tolerance
                                                                    : DEFAULT_TOLERANCE;
    a->missing = clc_custom_rewrite(s, a->path, src, "-DT=float", a->trace_file,
                                    sizeof a->trace_file, a->why, sizeof a->why);
    a->ref_d = a->d;
    if (a->d.ref_dims != 0) {
        a->ref_d.dims = a->d.ref_dims;
        memcpy(a->ref_d.global, a->d.ref_global, sizeof a->d.ref_global);
        memcpy(a->ref_d.local, a->d.ref_local, sizeof a->d.ref_local);
    }
    if (a->ref_kernel != NULL) {
        char err[CLC_DESC_ERR];
        nr = clc_kernel_params(rsrc, a->ref_kernel, rp, CLC_DESC_ARGS + 1, err, sizeof err);
        if (nr < 0) {
            clc_error("--reference: %s: %s", rfile, err);
            rc = CLC_ERR;
            goto done;
        }
        if ((rc = same_signature(kp, nk, rp, nr, k->name, a->ref_kernel)) != CLC_OK)
            goto done;
        /* its own comment may give it another launch; its arguments are the kernel's */
        char *comment = clc_desc_find(rsrc, a->ref_kernel);
        if (comment != NULL) {
            struct clc_desc rd;
            bool ok = clc_desc_parse(comment, &rd, err, sizeof err);
            free(comment);
            if (!ok) {
                clc_error("reference '%s' in %s: %s", a->ref_kernel, rfile, err);
                rc = CLC_USAGE;
                goto done;
            }
            if (rd.dims != 0) {
                a->ref_d.dims = rd.dims;
                memcpy(a->ref_d.global, rd.global, sizeof rd.global);
                memcpy(a->ref_d.local, rd.local, sizeof rd.local);
            }
        }
    } else {
        snprintf(a->ref_path, sizeof a->ref_path, "%s", a->path);
    }
    struct clc_variant variant = {.name = k->name, .kernel = k->name, .plan = plan_any, .data = a};
    for (unsigned i = 0; i < a->d.nargs; i++)
        if (a->d.args[i].role == CLC_ROLE_LOCAL)
            variant.not_on[CLC_API_CUDA] = "a __local pointer parameter has no CUDA form";
    struct clc_case mine = {.name = "custom", .cl_file = a->path, .types = CLC_FLOAT,
                            .alloc_factor = 1, .min_elems = 1, .variants = &variant,
                            .n_variants = 1};
    /* the launch's shape at the checked run's size, for the kernel's own limits */
    struct clc_dvals v;
    char err[CLC_DESC_ERR], expect[64];
    if (!clc_desc_eval(&a->d, (uint64_t)1 << 20, 0, &v, err, sizeof err)) {
        clc_error("kernel '%s': %s", k->name, err);
        rc = CLC_USAGE;
        goto done;
    }
    /* the flops: --flops, else the description's line; a bad expression said before any run */
    a->flops = k->flops != NULL ? k->flops : a->d.flops[0] != '\0' ? a->d.flops : NULL;
    uint64_t flops;
    if (a->flops != NULL && !clc_desc_expr(a->flops, &v, &flops, err, sizeof err)) {
        clc_error("%s: %s; see 'clcoalesce custom --help'",
                  a->flops == a->d.flops ? "flops" : "--flops", err);
        rc = CLC_USAGE;
        goto done;
    }
    if ((rc = check_sizes(s, a)) != CLC_OK)
        goto done;
    snprintf(expect, sizeof expect, "its description has %u", a->d.nargs);
    rc = (k->then != NULL ? k->then : clc_custom_run)(s, k, &mine, &variant, a->missing,
                                                       "-DT=float", (int)a->d.nargs, expect,
                                                       v.local, &a->counts);
done:
    if (a->trace_file[0] != '\0')
        unlink(a->trace_file);
    free(src);
    free(rsrc);
    free(a);
    return rc;
}
