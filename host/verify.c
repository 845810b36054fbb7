/* verify.c - input values and the element-by-element check, on every host core with OpenMP. */
#include "clcoalesce/verify.h"

#include <math.h>
#include <stdio.h>

void clc_fill_values(void *dst, size_t n, enum clc_type t, uint64_t first)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < n; j++)
        clc_put(dst, j, t, clc_value(first + j));
}

bool clc_check_values(struct clc_result *r, const void *got, const void *want, size_t n,
                      enum clc_type t, double tol)
{
    size_t bad = 0, first = n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
#endif
    for (size_t i = 0; i < n; i++) {
        double g = clc_get(got, i, t), w = clc_get(want, i, t);
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
             "got %g, expected %g", bad, n, first, clc_get(got, first, t), clc_get(want, first, t));
    return false;
}
