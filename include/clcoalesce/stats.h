/* stats.h - summary statistics of repeated timings, and the bandwidth arithmetic. */
#ifndef CLCOALESCE_STATS_H
#define CLCOALESCE_STATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct clc_stats {
    double median; /* middle value; mean of the two middle ones for an even count */
    double min;
    double max;
    double mean;
    double cv; /* coefficient of variation: sample standard deviation / mean (0 for n < 2) */
};

/* Summarises n > 0 samples (the array is left untouched).  Returns 0, or -1 when n == 0. */
int clc_stats_compute(const double *samples, size_t n, struct clc_stats *out);

/* Effective bandwidth in GB/s (1 GB = 1e9 bytes) of `bytes` moved in `ms` milliseconds.
 * Returns 0 when ms <= 0, so a broken timing can never masquerade as a huge figure. */
double clc_gbps(uint64_t bytes, double ms);

/* 100 * part / whole, or NAN when whole is not a positive number. */
double clc_percent(double part, double whole);

#ifdef __cplusplus
}
#endif

#endif
