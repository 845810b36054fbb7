/* stats.c - median, spread and bandwidth of timing samples. */
#include "clcoalesce/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int clc_stats_compute(const double *samples, size_t n, struct clc_stats *out)
{
    if (n == 0)
        return -1;
    double *s = malloc(n * sizeof *s);
    if (s == NULL)
        return -1;
    memcpy(s, samples, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);

    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    double mean = sum / (double)n;
    double var = 0;
    for (size_t i = 0; i < n; i++)
        var += (s[i] - mean) * (s[i] - mean);

    out->min = s[0];
    out->max = s[n - 1];
    out->median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    out->mean = mean;
    out->cv = (n > 1 && mean > 0) ? sqrt(var / (double)(n - 1)) / mean : 0.0;
    free(s);
    return 0;
}

double clc_gbps(uint64_t bytes, double ms)
{
    if (!(ms > 0))
        return 0.0;
    return (double)bytes / (ms * 1e-3) / 1e9;
}

double clc_percent(double part, double whole)
{
    if (!(whole > 0) || isnan(part))
        return NAN;
    return 100.0 * part / whole;
}
