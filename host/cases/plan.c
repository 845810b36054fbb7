/* plan.c - what case files build their plans with, and the checks several cases share. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cases.h"

unsigned clc_plan_buffer(struct clc_plan *p, const char *name, uint64_t elems, unsigned es,
                         enum clc_init init)
{
    unsigned i = p->nbufs++;
    /* a case with more buffers than CLC_PLAN_BUFS is a programming error, caught at once */
    if (i >= CLC_PLAN_BUFS)
        abort();
    struct clc_buffer_spec *b = &p->bufs[i];
    memset(b, 0, sizeof *b);
    b->name = name;
    b->elems = elems;
    b->elem_size = es;
    b->init = init;
    return i;
}

unsigned clc_plan_image(struct clc_plan *p, const char *name, uint64_t width, uint64_t height)
{
    unsigned i = clc_plan_buffer(p, name, width * height, sizeof(float), CLC_INIT_VALUES);
    p->bufs[i].mem = CLC_MEM_IMAGE2D;
    p->bufs[i].width = width;
    return i;
}

bool clc_plan_has_image(const struct clc_plan *p)
{
    for (unsigned i = 0; i < p->nbufs; i++)
        if (p->bufs[i].mem == CLC_MEM_IMAGE2D)
            return true;
    return false;
}

void clc_plan_arg(struct clc_plan *p, enum clc_arg_kind kind, uint64_t v)
{
    if (p->nargs >= CLC_MAX_ARGS)
        abort();
    p->args[p->nargs].kind = kind;
    p->args[p->nargs++].value = v;
}

void clc_plan_arg_buf(struct clc_plan *p, unsigned buf)
{
    clc_plan_arg(p, CLC_ARG_BUF, buf);
}

void clc_plan_arg_u32(struct clc_plan *p, uint32_t v)
{
    clc_plan_arg(p, CLC_ARG_U32, v);
}

void clc_plan_arg_u64(struct clc_plan *p, uint64_t v)
{
    clc_plan_arg(p, CLC_ARG_U64, v);
}

size_t clc_powers_of_two(long most, long *out)
{
    size_t n = 0;
    for (long k = 1; k <= most; k *= 2)
        out[n++] = k;
    return n;
}

unsigned clc_log2(uint64_t x)
{
    unsigned k = 0;
    while (x >> (k + 1))
        k++;
    return k;
}

void clc_plan_1d(struct clc_plan *p, size_t global, size_t local)
{
    p->dims = 1;
    p->local[0] = local;
    p->global[0] = clc_round_up(global ? global : 1, local);
    p->global[1] = p->global[2] = p->local[1] = p->local[2] = 1;
}

void clc_plan_2d(struct clc_plan *p, size_t gx, size_t gy, size_t lx, size_t ly)
{
    p->dims = 2;
    p->local[0] = lx;
    p->local[1] = ly;
    p->global[0] = clc_round_up(gx ? gx : 1, lx);
    p->global[1] = clc_round_up(gy ? gy : 1, ly);
    p->global[2] = p->local[2] = 1;
}

size_t clc_plan_groups(const struct clc_plan *p, size_t *group_items)
{
    size_t groups = 1, items = 1;
    for (unsigned d = 0; d < p->dims; d++) {
        size_t l = p->local[d] > 0 ? p->local[d] : 1;
        items *= l;
        groups *= p->global[d] / l;
    }
    if (group_items != NULL)
        *group_items = items;
    return groups;
}

void *clc_plan_host(struct clc_plan *p, size_t bytes)
{
    if (p->n_owned >= CLC_PLAN_OWNED)
        abort();
    void *m = malloc(bytes ? bytes : 1);
    if (m == NULL) {
        clc_error("out of host memory for %zu bytes", bytes);
        return NULL;
    }
    p->owned[p->n_owned++] = m;
    return m;
}

void clc_plan_free(struct clc_plan *p)
{
    for (unsigned i = 0; i < p->n_owned; i++)
        free(p->owned[i]);
    p->n_owned = 0;
}

static void append(char *dst, size_t size, const char *fmt, va_list ap)
{
    size_t len = strlen(dst);
    if (len + 1 < size)
        vsnprintf(dst + len, size - len, fmt, ap);
}

void clc_plan_define(struct clc_plan *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (p->defines[0])
        strncat(p->defines, " ", sizeof p->defines - strlen(p->defines) - 1);
    append(p->defines, sizeof p->defines, fmt, ap);
    va_end(ap);
}

void clc_plan_note(struct clc_plan *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    append(p->note, sizeof p->note, fmt, ap);
    va_end(ap);
}

void clc_plan_map(struct clc_plan *p, const struct clc_env *e, const char *kernel, size_t local,
                  clc_reference_fn reference)
{
    unsigned es = clc_env_es(e);
    p->kernel = kernel;
    unsigned in = clc_plan_buffer(p, "in", e->n, es, CLC_INIT_VALUES);
    unsigned out = clc_plan_buffer(p, "out", e->n, es, CLC_INIT_POISON);
    p->bufs[in].initial = true;
    p->bufs[out].read_back = true;
    clc_plan_arg_buf(p, in);
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, e->n);
    clc_plan_1d(p, e->n, local);
    p->bytes = 2 * (uint64_t)e->n * es;
    p->check = clc_check_map;
    p->reference = reference;
}

void clc_plan_fill(struct clc_plan *p, const struct clc_env *e, const char *kernel,
                   size_t local)
{
    unsigned es = clc_env_es(e);
    p->kernel = kernel;
    unsigned out = clc_plan_buffer(p, "out", e->n, es, CLC_INIT_POISON);
    p->bufs[out].read_back = true;
    clc_plan_arg_buf(p, out);
    clc_plan_arg_u64(p, e->n);
    clc_plan_1d(p, e->n, local);
    p->bytes = (uint64_t)e->n * es;
    p->check = clc_check_fill;
}

bool clc_check_fill(const struct clc_check_in *c, struct clc_result *r)
{
    return clc_check_generated(r, c->got[0], c->plan->bufs[0].elems, c->type, 1);
}

void *clc_check_want(const struct clc_check_in *c, struct clc_result *r, size_t n)
{
    void *want = clc_host_get(n * clc_type_size(c->type));
    if (want == NULL)
        snprintf(r->note, sizeof r->note, "out of host memory for the reference");
    return want;
}

bool clc_check_map(const struct clc_check_in *c, struct clc_result *r)
{
    const struct clc_plan *p = c->plan;
    size_t n_in = p->bufs[0].elems, n_out = p->bufs[1].elems;
    /* a copy or a doubling of the initial values: each expected element computed where it is
     * compared, no reference array (a third of the memory traffic) */
    bool generated = p->bufs[0].init == CLC_INIT_VALUES && n_out <= n_in;
    if (generated && (p->reference == clc_ref_copy || p->reference == clc_ref_scale))
        return clc_check_generated(r, c->got[1], n_out, c->type,
                                   p->reference == clc_ref_scale ? 2 : 1);
    void *want = clc_check_want(c, r, n_out);
    if (want == NULL)
        return false;
    const struct clc_ref_args a = {c->initial[0], want, n_in, n_out, c->type, p->ref_ctx};
    p->reference(&a);
    bool ok = clc_check_values(r, c->got[1], want, n_out, c->type, 0);
    clc_host_put(want);
    return ok;
}

/* in holds clc_value(j), so the expected output needs only the indices */
bool clc_check_gather(const struct clc_check_in *c, struct clc_result *r)
{
    return clc_check_gathered(r, c->got[2], c->plan->bufs[1].host, c->plan->bufs[2].elems,
                              c->type);
}

bool clc_check_transpose(const struct clc_check_in *c, struct clc_result *r)
{
    const uint64_t *wh = c->plan->ref_ctx;
    size_t w = (size_t)wh[0], h = (size_t)wh[1], n = c->plan->bufs[1].elems;
    bool copy = c->plan->check_ctx != NULL && *(const bool *)c->plan->check_ctx;
    return clc_check_transposed(r, c->got[1], w, h, copy, c->type) &&
           clc_check_poison_tail(r, c->got[1], w * h, n, clc_type_size(c->type));
}

bool clc_check_grid_sums(const struct clc_check_in *c, struct clc_result *r)
{
    const uint64_t *ctx = c->plan->check_ctx;
    size_t g = (size_t)ctx[0], w = (size_t)ctx[1], n = (size_t)ctx[2], nv = n / w;
    double *want = calloc(g, sizeof *want);
    void *sums = malloc(g * clc_type_size(c->type) + 1);
    bool ok = false;
    if (want == NULL || sums == NULL) {
        snprintf(r->note, sizeof r->note, "out of host memory for the reference");
    } else {
        CLC_PARALLEL_FOR
        for (size_t i = 0; i < g; i++) {
            double s = 0;
            for (size_t v = i; v < nv; v += g)
                for (size_t k = 0; k < w; k++)
                    s += clc_value(v * w + k);
            want[i] = s;
        }
        for (size_t e = nv * w; e < n; e++)
            want[g - 1] += clc_value(e);
        for (size_t i = 0; i < g; i++)
            clc_put(sums, i, c->type, want[i]);
        ok = clc_check_values(r, c->got[1], sums, g, c->type, 0);
    }
    free(want);
    free(sums);
    return ok;
}
