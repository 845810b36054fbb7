/* scatter.cl - requests that scatter while the sectors they touch stay in L2: the buffer is
 * a run of blocks of 32 rows of 2^shift elements; lane l of each warp takes row l of its block
 * and warp w column w, so each lane of a request touches its own 128-byte line, and the next
 * warps the rest of its sector.  DRAM sees every byte once; what limits a store is how fast
 * the L2 takes one line per lane, a load how fast the L1 looks up its 32 sectors (the 8
 * warps of a work-group ask for the same sectors at once: 7 of them find them there).
 * Elements past the whole blocks are taken in place.  And loads
 * at random (scatter_random): each lane's own DRAM granule anywhere in the buffer, what a
 * gather through random indices reads, with no index to load. */
#include "clc.h"

/* The element work-item i takes: rows of 2^shift elements, so that the index costs a few
 * shifts and masks (a division of 64-bit numbers costs more than a scattered load). */
size_t scatter_index(size_t i, uint shift, size_t n)
{
    size_t block = (size_t)32 << shift, j = i & (block - 1);
    return i < (n & ~(block - 1)) ? i - j + ((j & 31) << shift) + (j >> 5) : i;
}

/* store: out[e] = clc_value(e), one line per lane */
__kernel void scatter_store(__global T *out, ulong n, uint shift CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        size_t e = scatter_index(i, shift, n);
        STORE(out, e, clc_value(e));
    }
}

/* load: out[i] = in[e], one line per lane loaded, the stores coalesced */
__kernel void scatter_load(__global const T *in, __global T *out, ulong n,
                           uint shift CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, scatter_index(i, shift, n)));
}

/* The element work-item i takes in the shared layout: as scatter_index, lane l of a warp in
 * row l, but the warps of a work-group (256 work-items: 8 warps of 32) go in teams of
 * 2^team warps: a team's warps take adjacent columns, so together they read or write one
 * sector of each of their 32 lines at the same access, and the teams of a work-group take
 * lines of their own; the work-groups after it fill the rest of those lines.  Rows of at
 * least 8 lines, so that every team has its lines. */
size_t shared_index(size_t i, uint shift, size_t n, uint team)
{
    size_t block = (size_t)32 << shift, j = i & (block - 1);
    if (i >= (n & ~(block - 1)))
        return i;
    uint per_line = sizeof(T) == 8 ? 4 : 5, groups_per_line = per_line - team; /* log2 */
    uint warp = (uint)j >> 5, group = warp >> 3, member = warp & 7;
    uint line = (group >> groups_per_line << (3 - team)) | member >> team;
    uint column = line << per_line | (group & ((1u << groups_per_line) - 1)) << team |
                  (member & ((1u << team) - 1));
    return i - j + ((j & 31) << shift) + column;
}

/* store_shared: out[e] = clc_value(e), e in the shared layout */
__kernel void scatter_store_shared(__global T *out, ulong n, uint shift,
                                   uint team CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        size_t e = shared_index(i, shift, n, team);
        STORE(out, e, clc_value(e));
    }
}

/* load_shared: out[i] = in[e], e in the shared layout, the stores coalesced */
__kernel void scatter_load_shared(__global const T *in, __global T *out, ulong n, uint shift,
                                  uint team CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, shared_index(i, shift, n, team)));
}

/* store_steps: each work-item takes 2^steps elements of its own line over as many steps, a
 * coalesced load before each store: lane l in row l, warp w in columns w 2^steps ..  (the
 * element of step s: column w 2^steps + s), the warp's load at step s 32 consecutive elements
 * of its chunk of in.  So a lane fills its sectors over several steps, a load between, as a
 * transpose that walks several rows a work-item stores them.  With `wide`, consecutive
 * work-groups take their columns in consecutive blocks (block b's columns to the work-groups
 * b, b + blocks, ...), as a naive transpose's work-groups store in rows of out a matrix row
 * apart: the lines the device holds open spread over the whole buffer, not one block.
 * Elements past the whole blocks are copied in place. */
__kernel void scatter_store_steps(__global const T *in, __global T *out, ulong n, uint shift,
                                  uint steps, uint wide CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), block = (size_t)32 << shift, k = (size_t)1 << steps;
    size_t whole = n & ~(block - 1);
    if ((i << steps) + k <= whole) {
        if (wide) { /* group g in the place of group (g mod blocks) per_block + g / blocks */
            size_t blocks = whole / block, per_block = (block >> steps) / get_local_size(0);
            size_t g = get_group_id(0);
            i = ((g % blocks) * per_block + g / blocks) * get_local_size(0) + get_local_id(0);
        }
        size_t first = i << steps; /* the work-item's chunk of k elements, in order */
        size_t j = first & (block - 1), lane = (j >> steps) & 31, warp = j >> steps >> 5;
        size_t row = first - j + (lane << shift) + (warp << steps);
        size_t chunk = (i - lane) << steps;
        for (size_t s = 0; s < k; s++)
            STORE(out, row + s, LOAD(in, chunk + (s << 5) + lane));
    } else {
        for (size_t e = i << steps; e < (i << steps) + k && e < n; e++)
            STORE(out, e, LOAD(in, e));
    }
}

/* One round of a bijection of [0, mask] (mask = 2^bits - 1) that scatters neighbours: a
 * product with an odd constant and an xor of the high half into the low, each invertible on
 * numbers of that many bits.  clc_scatter_random_index (reference.c) is the same walk. */
ulong scatter_mix(ulong x, ulong mask, uint shift)
{
    x = (x * 0x9E3779B97F4A7C15UL) & mask;
    x ^= x >> shift;
    x = (x * 0xC2B2AE3D27D4EB4FUL) & mask;
    return x ^ (x >> shift);
}

/* The element work-item i loads: i mixed over the 2^bits >= n numbers, and mixed again
 * while it lies past n, which keeps the walk a permutation of [0, n). */
ulong scatter_random_index(ulong i, ulong n, uint bits)
{
    ulong mask = bits >= 64 ? ~(ulong)0 : ((ulong)1 << bits) - 1;
    uint shift = (bits + 1) / 2;
    ulong x = scatter_mix(i, mask, shift);
    while (x >= n)
        x = scatter_mix(x, mask, shift);
    return x;
}

/* random: out[i] = in[e], e at random over the buffer, the stores coalesced */
__kernel void scatter_random(__global const T *in, __global T *out, ulong n,
                             uint bits CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n)
        STORE(out, i, LOAD(in, scatter_random_index(i, n, bits)));
}

/* tiles: a matrix of 2^shift columns and `rows` rows (a multiple of 32; the buffer's first
 * elements, none where shift is 0) copied in tiles of 32 x 32 elements, a work-group of 256 a
 * tile (32 x 8 work-items, 4 rows each, the 4 loads first), the tiles in rows; with `blocks`
 * 1, each tile stored whole at the transposed tile's place (tile (bx, by) to (by, bx) of a
 * matrix of `rows` columns), as a tiled transpose stores, its rows' runs of 32 elements left
 * for the work-groups a row of tiles later; with 2, each tile loaded whole from there and
 * stored in place, as a transpose that takes its tiles down columns loads.  The elements past
 * the matrix (fewer than 32 rows) are copied in place, one a work-item. */
/* Element (row r, column c) of tile (bx, by) in a matrix of `width` columns, or with `moved`
 * of the transposed tile, (bx, by) of the matrix of `rows` columns, as a tile placed whole. */
size_t tile_element(size_t bx, size_t by, size_t r, size_t c, size_t width, ulong rows,
                    bool moved)
{
    return moved ? (bx * 32 + r) * rows + by * 32 + c : (by * 32 + r) * width + bx * 32 + c;
}

__kernel void scatter_tiles(__global const T *in, __global T *out, ulong n, uint shift,
                            ulong rows, uint blocks CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0), width = shift ? (size_t)1 << shift : 0;
    size_t items = width * rows / 4;
    if (i < items) {
        size_t g = i / 256, l = i % 256, across = width / 32;
        size_t bx = g % across, by = g / across, c = l % 32;
        T v[4];
        for (uint j = 0; j < 4; j++)
            v[j] = LOAD(in, tile_element(bx, by, l / 32 + 8 * j, c, width, rows, blocks == 2));
        for (uint j = 0; j < 4; j++)
            STORE(out, tile_element(bx, by, l / 32 + 8 * j, c, width, rows, blocks == 1), v[j]);
    } else if (width * rows + (i - items) < n) {
        size_t e = width * rows + (i - items);
        STORE(out, e, LOAD(in, e));
    }
}
