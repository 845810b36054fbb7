/* reference.c - the host references of the cases, on every host core with OpenMP. */
#include "clcoalesce/reference.h"

#include <stddef.h>

#include "clcoalesce/verify.h"

/* ------------------------------------------------------------------ 1-D maps */

void clc_ref_copy(const struct clc_ref_args *a)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < a->n_out; j++)
        clc_put(a->want, j, a->t, clc_get(a->in, j, a->t));
}

void clc_ref_scale(const struct clc_ref_args *a)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < a->n_out; j++)
        clc_put(a->want, j, a->t, clc_get(a->in, j, a->t) * 2);
}

void clc_ref_uncoalesced(const struct clc_ref_args *a)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < a->n_out; j++)
        clc_put(a->want, j, a->t, clc_get(a->in, (j * 32) % a->n_in, a->t) * 2);
}

void clc_ref_scatter(const struct clc_ref_args *a)
{
    uint64_t pitch = *(const uint64_t *)a->ctx, block = 32 * pitch;
    uint64_t whole = a->n_out / block * block;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < a->n_out; i++) {
        uint64_t j = i % block, e = i < whole ? i - j + (j % 32) * pitch + j / 32 : i;
        clc_put(a->want, i, a->t, clc_get(a->in, e, a->t));
    }
}

uint64_t clc_scatter_shared_index(uint64_t i, const struct clc_scatter_shared *s, uint64_t n,
                                  unsigned es)
{
    uint64_t block = 32 * s->pitch, j = i % block;
    if (i >= n / block * block)
        return i;
    uint64_t per_line = 128 / es, groups_per_line = per_line / s->share;
    uint64_t warp = j / 32, group = warp / 8, team = warp % 8 / s->share;
    uint64_t line = group / groups_per_line * (8 / s->share) + team;
    uint64_t column = line * per_line + group % groups_per_line * s->share + warp % s->share;
    return i - j + (j % 32) * s->pitch + column;
}

void clc_ref_scatter_shared(const struct clc_ref_args *a)
{
    const struct clc_scatter_shared *s = a->ctx;
    unsigned es = clc_type_size(a->t);
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < a->n_out; i++)
        clc_put(a->want, i, a->t,
                clc_get(a->in, clc_scatter_shared_index(i, s, a->n_out, es), a->t));
}

uint64_t clc_scatter_tile_index(uint64_t e, const struct clc_scatter_tiles *c)
{
    uint64_t width = c->shift ? UINT64_C(1) << c->shift : 0;
    if (c->blocks == 0 || e >= width * c->rows)
        return e;
    uint64_t x = e % width, y = e / width;
    return (x / 32 * 32 + y % 32) * c->rows + y / 32 * 32 + x % 32;
}

void clc_ref_scatter_tiles(const struct clc_ref_args *a)
{
    const struct clc_scatter_tiles *c = a->ctx;
    bool loads = c->blocks == 2;
    CLC_PARALLEL_FOR
    for (size_t e = 0; e < a->n_out; e++) {
        uint64_t t = clc_scatter_tile_index(e, c);
        clc_put(a->want, loads ? e : t, a->t, clc_get(a->in, loads ? t : e, a->t));
    }
}

/* scatter.cl's scatter_mix, on the host. */
static uint64_t scatter_mix(uint64_t x, uint64_t mask, unsigned shift)
{
    x = (x * UINT64_C(0x9E3779B97F4A7C15)) & mask;
    x ^= x >> shift;
    x = (x * UINT64_C(0xC2B2AE3D27D4EB4F)) & mask;
    return x ^ (x >> shift);
}

uint64_t clc_scatter_random_index(uint64_t i, uint64_t n, unsigned bits)
{
    uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    unsigned shift = (bits + 1) / 2;
    uint64_t x = scatter_mix(i, mask, shift);
    while (x >= n)
        x = scatter_mix(x, mask, shift);
    return x;
}

void clc_ref_scatter_random(const struct clc_ref_args *a)
{
    unsigned bits = *(const unsigned *)a->ctx;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < a->n_out; i++)
        clc_put(a->want, i, a->t, clc_get(a->in, clc_scatter_random_index(i, a->n_out, bits), a->t));
}

void clc_ref_relu(const struct clc_ref_args *a)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < a->n_out; j++) {
        double v = clc_get(a->in, j, a->t);
        clc_put(a->want, j, a->t, v > 0 ? v : 0);
    }
}

void clc_ref_shifted(const struct clc_ref_args *a)
{
    size_t off = *(const unsigned *)a->ctx;
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < a->n_out; j++)
        clc_put(a->want, j, a->t, clc_get(a->in, off + j, a->t));
}

/* want[i] = 2 x the float at byte `offset` of record i, records being `size` bytes apart: one
 * field read out of an array of structures. */
static void field_times_2(const struct clc_ref_args *a, size_t size, size_t offset)
{
    const char *p = (const char *)a->in + offset;
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < a->n_out; i++)
        clc_put(a->want, i, a->t, (double)*(const float *)(p + i * size) * 2);
}

void clc_ref_aos(const struct clc_ref_args *a)
{
    field_times_2(a, sizeof(struct clc_particle), offsetof(struct clc_particle, x));
}

void clc_ref_aos_padded(const struct clc_ref_args *a)
{
    field_times_2(a, sizeof(struct clc_padded), offsetof(struct clc_padded, f));
}

/* ------------------------------------------------------------------ the other cases */

void clc_ref_stride(void *want, size_t n, unsigned s, enum clc_type t)
{
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < n; i++)
        clc_put(want, i, t, clc_value((uint64_t)i * s) + 1.0);
}

void clc_ref_stride_window(void *want, size_t w, unsigned s, enum clc_type t)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < w; j++)
        clc_put(want, j, t, clc_value(j) + (j % s == 0 ? 1.0 : 0.0));
}

void clc_ref_matrix(void *want, size_t n, size_t used, enum clc_type t)
{
    CLC_PARALLEL_FOR
    for (size_t j = 0; j < n; j++)
        clc_put(want, j, t, j < used ? clc_value(j) * 2 + 1 : clc_value(j));
}

void clc_ref_rowsum(void *want, size_t rows, size_t cols, enum clc_type t)
{
    /* integers below 2^24 in magnitude: exact in any order of summation */
    CLC_PARALLEL_FOR
    for (size_t i = 0; i < rows; i++) {
        double sum = 0;
        for (size_t c = 0; c < cols; c++)
            sum += clc_value((uint64_t)i * cols + c);
        clc_put(want, i, t, sum);
    }
}
