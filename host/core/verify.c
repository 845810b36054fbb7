/* verify.c - input values, the gather indices and the element-by-element check, on every
 * host core with OpenMP. */
#include "clcoalesce/verify.h"

#include <math.h>
#include <stdio.h>

void clc_fill_values(void *dst, size_t n, enum clc_type t, uint64_t first)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < n; j++)
        clc_put(dst, j, t, clc_value(first + j));
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

/* Element i should be want[i], or scale * clc_value(i) when want is NULL. */
static double expected(const void *want, size_t i, enum clc_type t, double scale)
{
    return want != NULL ? clc_get(want, i, t) : scale * clc_value(i);
}

static bool check(struct clc_result *r, const void *got, const void *want, double scale,
                  size_t n, enum clc_type t, double tol)
{
    size_t bad = 0, first = n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
#endif
    for (size_t i = 0; i < n; i++) {
        double g = clc_get(got, i, t), w = expected(want, i, t, scale);
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
             expected(want, first, t, scale));
    return false;
}

bool clc_check_values(struct clc_result *r, const void *got, const void *want, size_t n,
                      enum clc_type t, double tol)
{
    return check(r, got, want, 1, n, t, tol);
}

bool clc_check_generated(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                         double scale)
{
    return check(r, got, NULL, scale, n, t, 0);
}
