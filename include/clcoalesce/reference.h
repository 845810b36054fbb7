/* reference.h - what a correct kernel leaves in its output, computed on the host from the
 * clc_value inputs: one reference per computation, whichever API ran the kernel.  The comparison is clc_check_values. */
#ifndef CLCOALESCE_REFERENCE_H
#define CLCOALESCE_REFERENCE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>

#include "clcoalesce/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ 1-D maps */

/* What the reference of a 1-D map plan (clc_plan_map, clc_check_map) is given: it fills
 * want[0..n_out) from in[0..n_in), both of type t; ctx is the variant's own data, NULL where
 * it has none. */
struct clc_ref_args {
    const void *in;
    void *want;
    size_t n_in, n_out;
    enum clc_type t;
    const void *ctx;
};
typedef void (*clc_reference_fn)(const struct clc_ref_args *a);

/* want[j] = in[j]: copy, vector, mlp. */
void clc_ref_copy(const struct clc_ref_args *a);
/* want[j] = in[j] * 2: coalesced, gridstride, aos_soa's soa. */
void clc_ref_scale(const struct clc_ref_args *a);
/* want[i] = in[e(i)], e the scatter case's walk down the columns of blocks of 32 rows of
 * *ctx (a uint64_t) elements, each element past the whole blocks in place. */
void clc_ref_scatter(const struct clc_ref_args *a);
/* The scatter case's shared layout (scatter.cl's shared_index): rows of `pitch` elements (a
 * multiple of 8 lines'), teams of `share` warps of a work-group on one sector of each line. */
struct clc_scatter_shared {
    uint64_t pitch;
    unsigned share;
};
/* The element work-item i of n takes in that layout, elements of es bytes. */
uint64_t clc_scatter_shared_index(uint64_t i, const struct clc_scatter_shared *s, uint64_t n,
                                  unsigned es);
/* want[i] = in[clc_scatter_shared_index(i, ctx, n_out, ...)], ctx a struct clc_scatter_shared. */
void clc_ref_scatter_shared(const struct clc_ref_args *a);

/* The scatter case's tiles: a matrix of 2^shift columns (none where shift is 0) and `rows`
 * rows, a multiple of 32, in tiles of 32 x 32 elements, each stored in place or, with blocks,
 * whole at the transposed tile's place in a matrix of `rows` columns. */
struct clc_scatter_tiles {
    unsigned shift;
    uint64_t rows;
    unsigned blocks; /* 0: in place; 1: stored at the transposed tile's place; 2: loaded so */
};
/* The transposed tile's place of element e (e itself in place or past the matrix); with
 * blocks 1, want[that] = in[e], with 2, want[e] = in[that]; ctx a struct clc_scatter_tiles. */
uint64_t clc_scatter_tile_index(uint64_t e, const struct clc_scatter_tiles *c);
void clc_ref_scatter_tiles(const struct clc_ref_args *a);
/* The element scatter.cl's scatter_random loads for work-item i of n (2^bits >= n): a
 * permutation of [0, n) that scatters neighbours. */
uint64_t clc_scatter_random_index(uint64_t i, uint64_t n, unsigned bits);
/* want[i] = in[clc_scatter_random_index(i, n_out, *ctx)], ctx an unsigned: bits. */
void clc_ref_scatter_random(const struct clc_ref_args *a);
/* want[j] = in[(j * 32) % n_in] * 2: uncoalesced. */
void clc_ref_uncoalesced(const struct clc_ref_args *a);
/* want[j] = max(in[j], 0): vector's relu. */
void clc_ref_relu(const struct clc_ref_args *a);
/* want[j] = in[offset + j], ctx pointing at the unsigned offset: vector's misaligned vload. */
void clc_ref_shifted(const struct clc_ref_args *a);

/* The records of aos_soa, laid out as cl/aos_soa.cl declares them; the input buffer holds
 * clc_value floats and the records are read over them. */
struct clc_particle {
    float x, y, z;
};
struct clc_padded {
    float f; /* 4 bytes, then 4 bytes of padding so d is 8-byte aligned */
    double d;
};
static_assert(sizeof(struct clc_particle) == 12, "struct clc_particle must match aos_soa.cl");
static_assert(sizeof(struct clc_padded) == 16, "struct clc_padded must match aos_soa.cl");

/* want[j] = record j's x * 2, in holding struct clc_particle records: aos. */
void clc_ref_aos(const struct clc_ref_args *a);
/* want[j] = record j's f * 2, in holding struct clc_padded records: aos_padded. */
void clc_ref_aos_padded(const struct clc_ref_args *a);

/* ------------------------------------------------------------------ the other cases */

/* stride, after one increment of every s-th element: want[0..n) the n strided elements, and
 * want[0..w) the first w elements, touched or not. */
void clc_ref_stride(void *want, size_t n, unsigned s, enum clc_type t);
void clc_ref_stride_window(void *want, size_t w, unsigned s, enum clc_type t);

/* matrix: one application of m = m * 2 + 1 to the first `used` of n elements; the rest as
 * they were.  An element whose value is -1 maps to itself, so a missed element escapes only
 * when it is one of those (1 value in 1024): a missed row or column is caught. */
void clc_ref_matrix(void *want, size_t n, size_t used, enum clc_type t);

/* rowsum: the sum of each of `rows` rows of `cols` elements. */
void clc_ref_rowsum(void *want, size_t rows, size_t cols, enum clc_type t);

#ifdef __cplusplus
}
#endif

#endif
