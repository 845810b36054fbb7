/* run.h - what a run decides before any API is involved: the size each case runs at, the
 * shapes and grids derived from it, and what the report says of the options the run was
 * given. */
#ifndef CLCOALESCE_RUN_H
#define CLCOALESCE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clcoalesce/options.h"
#include "clcoalesce/result.h"
#include "clcoalesce/timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a case whose largest buffer is alloc_factor x its size (0 counts as 1) can run at
 * `size` within the device's per-buffer limit. */
bool clc_size_fits(const struct clc_device_meta *m, unsigned alloc_factor, uint64_t size);

/* On a CPU device (PoCL) the default size stops here whatever the last-level cache claims,
 * so the default suite ends in minutes on two cores and in well under 1 GB; and no buffer
 * the tool sizes itself exceeds CLC_CPU_BUFFER (stride's buffer is 32 x the size). */
#define CLC_CPU_SIZE ((uint64_t)16 << 20)
#define CLC_CPU_BUFFER ((uint64_t)256 << 20)

/* A copy of the default size lasts at least this long at the device's peak bandwidth: each
 * launch has a fixed cost of a few microseconds (its ramp-up and its last wave), which at
 * 0.5 ms is under 1 %: the copy ceiling is then within 1 % of its large-size plateau
 * (measured on an H100 and an H200 with --sweep-size, bench/results/plateau). */
#define CLC_PLATEAU_MS 0.5

/* The size a case runs at: `given` (--size or a sweep step) when not 0; else 1 MiB with
 * quick; otherwise a power of two of at least 4 x the last-level cache and 64 MiB (so it
 * measures DRAM), and with `plateau` on a device of known peak bandwidth doubled until a
 * copy of it lasts CLC_PLATEAU_MS while a buffer stays within an eighth of the device's
 * memory; at most CLC_CPU_SIZE on a CPU; halved until the case's largest buffer fits the
 * device (and CLC_CPU_BUFFER on a CPU), with the reason written into why ("" when not
 * halved).  Returns CLC_OK, or CLC_ERR without a message when `given` does not fit. */
int clc_case_size(const struct clc_device_meta *m, bool cpu, unsigned alloc_factor,
                  bool plateau, uint64_t given, bool quick, uint64_t *size, char *why,
                  size_t whylen);

/* From this many elements a matrix is square with a side that is a multiple of 32 (see
 * clc_matrix_shape). */
#define CLC_MATRIX_ALIGN_FROM ((size_t)1 << 20)

/* The squarest matrix of at most n elements (matrix, transpose).  Below
 * CLC_MATRIX_ALIGN_FROM elements: width = floor(sqrt(n)), height = n / width, so height is
 * width, width + 1 or width + 2, and neither need be a multiple of 32: the tests' small
 * sizes cover the kernels' edges.  From it: width = height = floor(sqrt(n)) rounded down to
 * a multiple of 32, so that tiles fit and every row starts on a sector, as an application
 * pads a large matrix: an odd power of two (2 GiB of floats: 23170 wide) would otherwise
 * cost the vector transposes their 4-wide accesses.  Elements past width x height stay
 * unused (checked untouched).  Returns false when n is 0 (height would be 0). */
bool clc_matrix_shape(size_t n, size_t *width, size_t *height);

/* The device's compute units (SMs), 1 when unknown: what grids per compute unit scale by. */
size_t clc_compute_units(const struct clc_device_meta *m);

/* The work-group counts a grid-stride variant runs with (gridstride, mlp): the n `wanted`
 * counts in order, each capped at `needed` (more groups than one element per work-item needs
 * would only launch idle work-items) and each count once.  Writes them to out (room for n)
 * and returns how many there are. */
size_t clc_grid_sizes(const size_t *wanted, size_t n, size_t needed, size_t *out);

/* Work-groups of `local` work-items that cover n / 4 float4s at per_item float4s per
 * work-item (mlp); at least one, which also copies the tail of a tiny array. */
size_t clc_float4_groups(size_t n, size_t local, size_t per_item);

/* Writes into the report what the run was asked (--size, --quick, --cold, --type, the cases
 * named unless names is NULL) and the warm-up and reps of its timing `to` (unless NULL);
 * --peak, when given, replaces the device's peak. */
void clc_report_options(struct clc_report *rep, const struct clc_run_opts *o,
                        const struct clc_timing_opts *to, const char *const *names, int n);

#ifdef __cplusplus
}
#endif

#endif
