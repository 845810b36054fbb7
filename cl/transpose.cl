/* transpose.cl - out = transpose(in) for a width x height row-major matrix `in`; `out` is
 * height x width.  After the structure of the classic CUDA study of matrix transposes: a
 * tile-shaped copy as the ceiling, a naive transpose, a 32 x 32 __local tile with and without
 * a padding column, the tile with one element per work-item, a padded 64 x 64 tile with
 * 16 elements per work-item, the padded tile with each element loaded straight into it, and
 * a tile transposed in registers with 4-wide vector accesses.
 *
 * The tile kernels use 32 x 8 work-items per 32 x 32 tile, each moving TILE / ROWS = 4
 * elements, so a work-group moves the same elements in every variant.  Any width and height
 * work: the range is rounded up to whole tiles and every access is guarded. */
#include "clc.h"

#define TILE 32
#define ROWS 8

/* Same tiles and work-items as the transposes, but out = in: the best these kernels can do. */
__kernel void tile_copy(__global const T *in, __global T *out, ulong width,
                        ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_group_id(0) * TILE + get_local_id(0);
    size_t y0 = get_group_id(1) * TILE + get_local_id(1);
    for (uint j = 0; j < TILE; j += ROWS) {
        size_t y = y0 + j;
        if (x < width && y < height)
            STORE(out, y * width + x, LOAD(in, y * width + x));
    }
}

/* Reads a row segment per warp (coalesced); writes each lane's element into a different row
 * of out, `height` elements apart (one sector per lane). */
__kernel void naive(__global const T *in, __global T *out, ulong width,
                    ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_group_id(0) * TILE + get_local_id(0);
    size_t y0 = get_group_id(1) * TILE + get_local_id(1);
    for (uint j = 0; j < TILE; j += ROWS) {
        size_t y = y0 + j;
        if (x < width && y < height)
            STORE(out, x * height + y, LOAD(in, y * width + x));
    }
}

/* naive_1elem: the naive transpose with one element a work-item, 32 x 8 a work-group.  A
 * work-group writes 8 of the 32 rows of each of its 32 lines of out and leaves the rest to
 * the work-groups a row, two and three rows of the grid later, so each line stays open in the
 * L2 that long.  naive_1elem_near: the same, but work-group g of the launch (in the order the
 * device starts them) takes the place of the g-th down the columns of a band of TILE / ROWS
 * rows of the grid, so the four that fill a line run one after the other; the last band may
 * have fewer rows. */
__kernel void naive_1elem(__global const T *in, __global T *out, ulong width,
                          ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = get_global_id(0), y = get_global_id(1);
    if (x < width && y < height)
        STORE(out, x * height + y, LOAD(in, y * width + x));
}

__kernel void naive_1elem_near(__global const T *in, __global T *out, ulong width,
                               ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t ngx = get_num_groups(0), ngy = get_num_groups(1), band_rows = TILE / ROWS;
    size_t g = get_group_id(1) * ngx + get_group_id(0);
    size_t band = g / (band_rows * ngx), r = g % (band_rows * ngx);
    size_t rows = ngy - band * band_rows < band_rows ? ngy - band * band_rows : band_rows;
    size_t x = r / rows * TILE + get_local_id(0);
    size_t y = (band * band_rows + r % rows) * ROWS + get_local_id(1);
    if (x < width && y < height)
        STORE(out, x * height + y, LOAD(in, y * width + x));
}

/* The tile transposes: read a tile of in row by row into __local memory, then write it out
 * row by row as the tile at the mirrored place of out, reading the __local tile down its
 * columns.  With a pitch of 32 a column lies in a single __local bank (a 32-way conflict); a
 * pitch of 33 spreads it over all 32 banks.  Work-items outside the matrix still reach the
 * barrier.  A work-group of tile x tile / rows work-items moves the tile, each work-item
 * every rows-th row, all loaded into registers before any is stored to the tile: written
 * load, store, load, store, NVIDIA's OpenCL compiler put each ld.global right before its
 * st.shared, between branches, so a work-item waited for every load in turn, and the kernel
 * ran 18-24 % slower than the same code in CUDA.  Rows outside the matrix leave v[] unset;
 * those tile entries are never written out. */
#define TILED_TRANSPOSE(name, tile_, rows, pitch)                                           \
    __kernel void name(__global const T *in, __global T *out, ulong width,                  \
                       ulong height CLC_TRACE_ARGS)                                         \
    {                                                                                       \
        CLC_TRACE_BEGIN                                                                     \
        __local T tile[tile_][pitch];                                                       \
        uint lx = get_local_id(0), ly = get_local_id(1);                                  \
        size_t bx = get_group_id(0) * (tile_), by = get_group_id(1) * (tile_);              \
        T v[(tile_) / (rows)];                                                              \
        for (uint j = 0; j < (tile_); j += (rows))                                          \
            if (bx + lx < width && by + ly + j < height)                                    \
                v[j / (rows)] = LOAD(in, (by + ly + j) * width + bx + lx);                  \
        for (uint j = 0; j < (tile_); j += (rows))                                          \
            LSTORE(tile[ly + j], lx, v[j / (rows)]);                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        /* out's tile starts at row bx, column by */                                        \
        for (uint j = 0; j < (tile_); j += (rows))                                          \
            if (by + lx < height && bx + ly + j < width)                                    \
                STORE(out, (bx + ly + j) * height + by + lx, LLOAD(tile[lx], ly + j));      \
    }

TILED_TRANSPOSE(tiled, TILE, ROWS, TILE)
TILED_TRANSPOSE(tiled_padded, TILE, ROWS, TILE + 1)

/* tiled_wide: the padded tile, 64 x 64, moved by 64 x 4 work-items with 16 rows each: every
 * work-item has 16 loads in flight before the barrier where tiled_padded has 4, and each
 * warp request covers 64 consecutive elements of a row.  On an H200 the 32 x 32 tiles stop
 * at 80 % of the copy ceiling (a float matrix of 2 GiB) and this one passes 90 %: the faster
 * memory needs more bytes in flight per SM to stay busy (Little's law), and a 32 x 32 tile
 * at 4 rows per work-item does not give it enough. */
TILED_TRANSPOSE(tiled_wide, 2 * TILE, 4, 2 * TILE + 1)

/* tiled_held: tiled_padded written as tile transposes often are, each element loaded
 * straight into the tile under its guard.  NVIDIA's OpenCL compiler makes each guard two
 * branches around the load and its store into the tile, so a work-item waits for each of its
 * four loads before it issues the next; CUDA's predicates them and keeps the four in flight.
 * The profile times it as the cost of a tile transpose whose loads wait so. */
__kernel void tiled_held(__global const T *in, __global T *out, ulong width,
                         ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[TILE][TILE + 1];
    uint lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;
    for (uint j = 0; j < TILE; j += ROWS)
        if (bx + lx < width && by + ly + j < height)
            LSTORE(tile[ly + j], lx, LOAD(in, (by + ly + j) * width + bx + lx));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < TILE; j += ROWS)
        if (by + lx < height && bx + ly + j < width)
            STORE(out, (bx + ly + j) * height + by + lx, LLOAD(tile[lx], ly + j));
}

/* The padded tile with one element per work-item: 32 x 32 work-items per tile (needs a
 * work-group of 1024), so each work-item has a single load in flight.  NVIDIA's compiler
 * allows only 256 work-items to a kernel that does not declare its shape, so the host
 * defines FULL_TILE, and the kernel declares 32 x 32, where the device allows 1024.
 * Each guard is one condition (& rather than &&) and only the global access sits under it:
 * written with && around load-and-store-to-tile, NVIDIA's OpenCL compiler emitted two
 * branches per guard where the same code in CUDA became predicated instructions, and the
 * kernel ran 8 % slower than its CUDA twin (1465 vs 1588 GB/s on an H100).  Entries of the
 * tile outside the matrix hold 0 and are never written out. */
#ifdef FULL_TILE
__attribute__((reqd_work_group_size(TILE, TILE, 1)))
#endif
__kernel void tiled_1elem(__global const T *in, __global T *out, ulong width,
                          ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T tile[TILE][TILE + 1];
    uint lx = get_local_id(0), ly = get_local_id(1);
    size_t bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;
    size_t x = bx + lx, y = by + ly;
    T v = 0;
    if ((x < width) & (y < height))
        v = LOAD(in, y * width + x);
    LSTORE(tile[ly], lx, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* out's tile starts at row bx, column by */
    size_t ox = by + lx, oy = bx + ly;
    T w = LLOAD(tile[lx], ly);
    if ((ox < height) & (oy < width))
        STORE(out, oy * height + ox, w);
}

/* Each work-item transposes a 4 x 4 block in registers: four 4-wide loads along rows of in,
 * four 4-wide stores along rows of out, no __local memory and no barrier.  The host launches
 * 8 x 32 work-items per group, so a warp is 8 blocks across and 4 down: each load fills 4
 * row segments of 32 elements, each store 8 row segments of 16: whole 32-byte sectors both
 * ways when width and height are multiples of 8.  A vector access needs 4-element alignment, so loads are vectors when width % 4 == 0
 * and stores when height % 4 == 0; otherwise, and in blocks cut by the edge, element by
 * element. */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
typedef CAT(T, 4) T4;

__kernel void tiled_vec4(__global const T *in, __global T *out, ulong width,
                         ulong height CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t x = 4 * get_global_id(0), y = 4 * get_global_id(1);
    if (x >= width || y >= height)
        return;
    T v[4][4]; /* v[r][c] = in[y + r][x + c]; entries past the edge are never stored */
    for (uint r = 0; r < 4; r++) {
        size_t row = y + r;
        if (row < height) {
            if (width % 4 == 0) { /* x is a multiple of 4, so x + 3 < width */
                T4 q = LOAD((__global const T4 *)in, (row * width + x) / 4);
                v[r][0] = q.s0;
                v[r][1] = q.s1;
                v[r][2] = q.s2;
                v[r][3] = q.s3;
            } else {
                for (uint c = 0; c < 4; c++)
                    if (x + c < width)
                        v[r][c] = LOAD(in, row * width + x + c);
            }
        }
    }
    for (uint c = 0; c < 4; c++) {
        size_t row = x + c; /* column x + c of in is row x + c of out */
        if (row < width) {
            if (height % 4 == 0) {
                T4 q; /* not (T4)(...): CUDA C++ (cl/clc_cuda.h) has no vector literals */
                q.s0 = v[0][c];
                q.s1 = v[1][c];
                q.s2 = v[2][c];
                q.s3 = v[3][c];
                STORE((__global T4 *)out, (row * height + y) / 4, q);
            } else {
                for (uint r = 0; r < 4; r++)
                    if (y + r < height)
                        STORE(out, row * height + y + r, v[r][c]);
            }
        }
    }
}
