/* verify.c - input values, the gather indices and the element-by-element check, on every
 * host core with OpenMP. */
#include "clcoalesce/verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clc_fill_values(void *dst, size_t n, enum clc_type t, uint64_t first)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < n; j++)
        clc_put(dst, j, t, clc_value(first + j));
}

static struct {
    void *p;
    size_t n;
} values[2]; /* [0] float, [1] double */

const void *clc_values(size_t n, enum clc_type t)
{
    int k = t == CLC_DOUBLE;
    if (values[k].p != NULL && values[k].n >= n)
        return values[k].p;
    free(values[k].p);
    values[k].p = malloc((n ? n : 1) * clc_type_size(t));
    values[k].n = values[k].p != NULL ? n : 0;
    if (values[k].p != NULL)
        clc_fill_values(values[k].p, n, t, 0);
    return values[k].p;
}

void clc_forget_values(void)
{
    for (int k = 0; k < 2; k++) {
        free(values[k].p);
        values[k].p = NULL;
        values[k].n = 0;
    }
}

bool clc_same_bytes(const void *a, const void *b, size_t n)
{
    const size_t chunk = (size_t)1 << 22;
    long differ = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : differ)
#endif
    for (size_t off = 0; off < n; off += chunk)
        differ += memcmp((const char *)a + off, (const char *)b + off,
                         n - off < chunk ? n - off : chunk) != 0;
    return differ == 0;
}

/* xorshift64: a small fixed-seed generator. */
static uint64_t xorshift64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* The modulo's bias is far below anything a bandwidth figure could show. */
void clc_gather_indices(uint32_t *idx, size_t n, size_t block)
{
    uint64_t s = 0x2545f4914f6cdd1dull ^ block;
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < n; j++)
        idx[j] = (uint32_t)j;
    for (size_t lo = 0; lo < n; lo += block) {
        size_t len = n - lo < block ? n - lo : block;
        for (size_t j = len; j > 1; j--) {
            size_t r = (size_t)(xorshift64(&s) % j);
            uint32_t tmp = idx[lo + j - 1];
            idx[lo + j - 1] = idx[lo + r];
            idx[lo + r] = tmp;
        }
    }
}

bool clc_check_poison_tail(struct clc_result *r, const void *got, size_t used, size_t n,
                           size_t es)
{
    const unsigned char *p = (const unsigned char *)got + used * es;
    for (size_t i = 0; i < (n - used) * es; i++) {
        if (p[i] != 0xff) {
            snprintf(r->note, sizeof r->note, "wrong result: element %zu, past the %zu of the "
                     "matrix, was written", used + i / es, used);
            return false;
        }
    }
    return true;
}

/* What element i should be: want(ctx, i) rounded to the type, want_array[i], or
 * scale * clc_value(i), the first that is given. */
struct expect {
    clc_expect_fn fn;
    const void *ctx;
    const void *array;
    double scale;
};

static double expected(const struct expect *e, size_t i, enum clc_type t)
{
    if (e->fn != NULL)
        return t == CLC_FLOAT ? (double)(float)e->fn(e->ctx, i) : e->fn(e->ctx, i);
    return e->array != NULL ? clc_get(e->array, i, t) : e->scale * clc_value(i);
}

static bool check(struct clc_result *r, const void *got, const struct expect *e, size_t n,
                  enum clc_type t, double tol)
{
    size_t bad = 0, first = n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
#endif
    for (size_t i = 0; i < n; i++) {
        double g = clc_get(got, i, t), w = expected(e, i, t);
        /* written so that NaN (the poison) fails both ways */
        bool ok = tol == 0 ? g == w : fabs(g - w) <= tol * fmax(1.0, fabs(w));
        if (!ok) {
            bad++;
            if (i < first)
                first = i;
        }
    }
    if (bad == 0)
        return true;
    snprintf(r->note, sizeof r->note, "wrong result: %zu of %zu elements differ, first at %zu: "
             "got %g, expected %g", bad, n, first, clc_get(got, first, t),
             expected(e, first, t));
    return false;
}

bool clc_check_values(struct clc_result *r, const void *got, const void *want, size_t n,
                      enum clc_type t, double tol)
{
    const struct expect e = {NULL, NULL, want, 1};
    return check(r, got, &e, n, t, tol);
}

bool clc_check_generated(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                         double scale)
{
    const struct expect e = {NULL, NULL, NULL, scale};
    return check(r, got, &e, n, t, 0);
}

bool clc_check_expected(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                        clc_expect_fn want, const void *ctx)
{
    const struct expect e = {want, ctx, NULL, 1};
    return check(r, got, &e, n, t, 0);
}
