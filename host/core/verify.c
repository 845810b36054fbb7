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

/* A 32-bit mixer (MurmurHash3's finalizer) as the round function of the permutation. */
static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    return x ^ (x >> 16);
}

/* The domain of the permutation of [0, len): the smallest even number of bits that holds len,
 * as two halves of `half` bits. */
struct feistel {
    unsigned half;
    uint32_t mask;
};

static struct feistel feistel_for(uint64_t len)
{
    unsigned bits = 2;
    while (((uint64_t)1 << bits) < len)
        bits += 2;
    return (struct feistel){bits / 2, (uint32_t)(((uint64_t)1 << (bits / 2)) - 1)};
}

/* Element j of a pseudo-random permutation of [0, len): a 4-round Feistel network over f's
 * domain, walking the cycle until it lands below len (the domain is under 4 x len, so a few
 * steps).  Any element is computed on its own, so a permutation of 2^29 elements takes a
 * fraction of a second on every host core, where a sequential shuffle took seconds. */
static uint32_t permuted(uint64_t j, uint64_t len, struct feistel f, uint32_t key)
{
    uint64_t x = j;
    do {
        uint32_t l = (uint32_t)(x >> f.half) & f.mask, r = (uint32_t)x & f.mask;
        for (uint32_t round = 0; round < 4; round++) {
            uint32_t t = l ^ (mix32(r ^ key ^ (round * 0x9e3779b9u)) & f.mask);
            l = r;
            r = t;
        }
        x = ((uint64_t)l << f.half) | r;
    } while (x >= len);
    return (uint32_t)x;
}

void clc_gather_indices(uint32_t *idx, size_t n, size_t block)
{
    if (block == 0)
        block = 1;
    /* every block but the last (which may be short) has the same domain */
    const struct feistel whole = feistel_for(block), last = feistel_for(n % block);
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < n; i++) {
        size_t lo = i / block * block, len = n - lo < block ? n - lo : block;
        uint32_t key = mix32((uint32_t)block ^ mix32((uint32_t)(lo / block)));
        idx[i] = (uint32_t)(lo + (len > 1 ? permuted(i - lo, len, len == block ? whole : last,
                                                     key) : 0));
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

/* What element i should be: want_array[i], or scale * clc_value(i) without an array. */
struct expect {
    const void *array;
    double scale;
};

static double expected(const struct expect *e, size_t i, enum clc_type t)
{
    return e->array != NULL ? clc_get(e->array, i, t) : e->scale * clc_value(i);
}

/* The note of a check that found `bad` of n elements wrong, the first at `first`. */
static void wrong(struct clc_result *r, size_t bad, size_t n, size_t first, double got,
                  double want)
{
    snprintf(r->note, sizeof r->note, "wrong result: %zu of %zu elements differ, first at %zu: "
             "got %g, expected %g", bad, n, first, got, want);
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
    wrong(r, bad, n, first, clc_get(got, first, t), expected(e, first, t));
    return false;
}

bool clc_check_values(struct clc_result *r, const void *got, const void *want, size_t n,
                      enum clc_type t, double tol)
{
    const struct expect e = {want, 1};
    return check(r, got, &e, n, t, tol);
}

bool clc_check_generated(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                         double scale)
{
    const struct expect e = {NULL, scale};
    return check(r, got, &e, n, t, 0);
}

/* The checks that compute each expected element where they compare it: the output is read
 * once and nothing is written.  CLC_PARALLEL_REDUCE spreads the loop after it over every
 * host core, summing `bad` and keeping the least `first`; MISMATCH counts element `at` of
 * got (of element type ctype) when it is not `want`.  The loops are written out per type,
 * so that they have no call and no type switch in them. */
#ifdef _OPENMP
#define CLC_PARALLEL_REDUCE _Pragma("omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)")
#else
#define CLC_PARALLEL_REDUCE
#endif
#define MISMATCH(ctype, at, want)                                                           \
    do {                                                                                    \
        if (!(((const ctype *)got)[at] == (ctype)(want))) {                                 \
            bad++;                                                                          \
            first = (at) < first ? (at) : first;                                            \
        }                                                                                   \
    } while (0)

static double shifted(size_t j, size_t s, size_t n)
{
    return clc_value(j) + (j >= s && j - s < n ? 1.0 : 0.0);
}

bool clc_check_shifted_range(struct clc_result *r, const void *got, size_t len, enum clc_type t,
                             size_t s, size_t n)
{
    size_t bad = 0, first = len;
    if (t == CLC_DOUBLE) {
        CLC_PARALLEL_REDUCE
        for (size_t j = 0; j < len; j++)
            MISMATCH(double, j, shifted(j, s, n));
    } else {
        CLC_PARALLEL_REDUCE
        for (size_t j = 0; j < len; j++)
            MISMATCH(float, j, shifted(j, s, n));
    }
    if (bad > 0)
        wrong(r, bad, len, first, clc_get(got, first, t), shifted(first, s, n));
    return bad == 0;
}

bool clc_check_transposed(struct clc_result *r, const void *got, size_t width, size_t height,
                          bool copy, enum clc_type t)
{
    /* out row x holds column x of in: out[x * height + y] = in[y * width + x] */
    size_t bad = 0, n = width * height, first = n;
    if (copy)
        return clc_check_generated(r, got, n, t, 1);
    if (t == CLC_DOUBLE) {
        CLC_PARALLEL_REDUCE
        for (size_t x = 0; x < width; x++)
            for (size_t y = 0; y < height; y++)
                MISMATCH(double, x * height + y, clc_value(y * width + x));
    } else {
        CLC_PARALLEL_REDUCE
        for (size_t x = 0; x < width; x++)
            for (size_t y = 0; y < height; y++)
                MISMATCH(float, x * height + y, clc_value(y * width + x));
    }
    if (bad > 0)
        wrong(r, bad, n, first, clc_get(got, first, t),
              clc_value(first % height * width + first / height));
    return bad == 0;
}

bool clc_check_periodic(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                        const double *table, size_t period)
{
    size_t bad = 0, first = n, blocks = (n + period - 1) / period;
    /* block by block: no division in the loop */
    if (t == CLC_DOUBLE) {
        CLC_PARALLEL_REDUCE
        for (size_t b = 0; b < blocks; b++)
            for (size_t l = 0; l < period && b * period + l < n; l++)
                MISMATCH(double, b * period + l, table[l]);
    } else {
        CLC_PARALLEL_REDUCE
        for (size_t b = 0; b < blocks; b++)
            for (size_t l = 0; l < period && b * period + l < n; l++)
                MISMATCH(float, b * period + l, table[l]);
    }
    if (bad > 0)
        wrong(r, bad, n, first, clc_get(got, first, t), table[first % period]);
    return bad == 0;
}

bool clc_check_gathered(struct clc_result *r, const void *got, const uint32_t *idx, size_t n,
                        enum clc_type t)
{
    size_t bad = 0, first = n;
    if (t == CLC_DOUBLE) {
        CLC_PARALLEL_REDUCE
        for (size_t i = 0; i < n; i++)
            MISMATCH(double, i, clc_value(idx[i]));
    } else {
        CLC_PARALLEL_REDUCE
        for (size_t i = 0; i < n; i++)
            MISMATCH(float, i, clc_value(idx[i]));
    }
    if (bad > 0)
        wrong(r, bad, n, first, clc_get(got, first, t), clc_value(idx[first]));
    return bad == 0;
}
