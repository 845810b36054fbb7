/* verify.h - the host side of verification, whichever API ran the kernel:
 * the deterministic input values, element access for references written once for both
 * types, and the element-by-element check.  Large loops run on every host core when the
 * build has OpenMP: checking a 256 MiB result one element at a time takes far longer than
 * the kernel that made it, and a full run checks some 190 of them. */
#ifndef CLCOALESCE_VERIFY_H
#define CLCOALESCE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clcoalesce/core.h"
#include "clcoalesce/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Put before a loop whose iterations are independent (each writes its own elements). */
#ifdef _OPENMP
#define CLC_PARALLEL_FOR _Pragma("omp parallel for schedule(static)")
#else
#define CLC_PARALLEL_FOR
#endif

/* The deterministic input value of element j: a small integer in [-512, 511] from a hash of
 * j, so results of + and * 2 stay exact.  cl/clc.h's clc_value() computes
 * the same function on the device. */
static inline double clc_value(uint64_t j)
{
    uint32_t h = (uint32_t)j * 2654435761u;
    return (double)((int)(h >> 22) - 512);
}

/* Element access for host references written once for both types (a float widens to
 * double exactly). */
static inline double clc_get(const void *p, size_t i, enum clc_type t)
{
    return t == CLC_DOUBLE ? ((const double *)p)[i] : ((const float *)p)[i];
}
static inline void clc_put(void *p, size_t i, enum clc_type t, double v)
{
    if (t == CLC_DOUBLE)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

/* Fills n elements of type t with clc_value(first + j). */
void clc_fill_values(void *dst, size_t n, enum clc_type t, uint64_t first);

/* n elements of type t holding clc_value(0 .. n-1), the input every CLC_INIT_VALUES buffer
 * starts with: made once and kept (a larger array serves a smaller n) until
 * clc_give_back_memory; read-only, never freed by the caller.  NULL when out of memory. */
const void *clc_values(size_t n, enum clc_type t);
void clc_forget_values(void);

/* memcmp over every host core: true when the n bytes at a and b are the same. */
bool clc_same_bytes(const void *a, const void *b, size_t n);

/* The gather case's indices for blocks of `block` elements: within each block (the last
 * may be short) a pseudo-random permutation of its elements, fixed by the block size and the
 * block's place (a Feistel network: every element computed on its own, on every host core),
 * so every run and API uses the same one.  block 1 leaves the identity, block >= n permutes
 * everything. */
void clc_gather_indices(uint32_t *idx, size_t n, size_t block);

/* Compares n elements of type t, exactly when tol == 0, else within a relative tolerance.
 * On mismatch writes the first bad index and the count into r->note and returns false. */
bool clc_check_values(struct clc_result *r, const void *got, const void *want, size_t n,
                      enum clc_type t, double tol);

/* The same check against scale * clc_value(i) for element i, exactly, with no expected
 * array: a multi-GiB output is checked in one pass over it instead of three. */
bool clc_check_generated(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                         double scale);

/* Checks that compute each expected element where they compare it, with no expected array:
 * the output is read once and nothing else is written, a third of the memory traffic of
 * building the reference first.  Exact; on mismatch they write the first bad element and
 * the count into r->note and return false.
 * - offset: element j of len is clc_value(j) + 1 for j in [s, s + n), else clc_value(j);
 * - transpose: out[x * height + y] = clc_value(y * width + x) (copy: out[k] = clc_value(k));
 * - gather: out[i] = clc_value(idx[i]);
 * - periodic: element i is table[i % period] (banks: what work-item i % period sums). */
bool clc_check_shifted_range(struct clc_result *r, const void *got, size_t len, enum clc_type t,
                             size_t s, size_t n);
bool clc_check_transposed(struct clc_result *r, const void *got, size_t width, size_t height,
                          bool copy, enum clc_type t);
bool clc_check_gathered(struct clc_result *r, const void *got, const uint32_t *idx, size_t n,
                        enum clc_type t);
bool clc_check_periodic(struct clc_result *r, const void *got, size_t n, enum clc_type t,
                        const double *table, size_t period);

/* True when the bytes of elements [used, n) (of es bytes each) are still the poison pattern
 * (all bits set): an output larger than what a kernel should write, such as a matrix of
 * width x height < n elements, must stay untouched past it.  Otherwise writes the first
 * element written into r->note and returns false. */
bool clc_check_poison_tail(struct clc_result *r, const void *got, size_t used, size_t n,
                           size_t es);

#ifdef __cplusplus
}
#endif

#endif
