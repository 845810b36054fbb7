/* transpose.cu - twin of transpose: out = transpose(in) for a width x height row-major
 * matrix of any shape: a tile-shaped copy (the ceiling), a naive transpose, 32 x 32 shared
 * tiles with and without a padding column, the padded tile with one element per thread, and
 * 4 x 4 blocks transposed in registers with 4-wide loads and stores.
 *
 * The 4-wide type is float4 for float and a 32-byte aligned pair of double2 for double (what
 * OpenCL's double4 is on hardware whose widest load is 16 bytes; CUDA 13 deprecates double4). */
#include <stdio.h>

#include "bench.cuh"

#define TILE 32
#define ROWS 8

struct __align__(32) dvec4 {
    double2 lo, hi;
};

template <typename T> struct vec4_of;
template <> struct vec4_of<float> {
    typedef float4 type;
    __device__ static float get(const float4 &q, int c) { return c == 0 ? q.x : c == 1 ? q.y : c == 2 ? q.z : q.w; }
    __device__ static float4 make(float a, float b, float c, float d) { return make_float4(a, b, c, d); }
};
template <> struct vec4_of<double> {
    typedef dvec4 type;
    __device__ static double get(const dvec4 &q, int c)
    {
        return c == 0 ? q.lo.x : c == 1 ? q.lo.y : c == 2 ? q.hi.x : q.hi.y;
    }
    __device__ static dvec4 make(double a, double b, double c, double d)
    {
        return dvec4{make_double2(a, b), make_double2(c, d)};
    }
};

/* Same tiles and threads as the transposes, but out = in: the best these kernels can do. */
template <typename T> __global__ void tile_copy(const T *in, T *out, uint64_t width, uint64_t height)
{
    size_t x = (size_t)blockIdx.x * TILE + threadIdx.x;
    size_t y0 = (size_t)blockIdx.y * TILE + threadIdx.y;
    for (unsigned j = 0; j < TILE; j += ROWS) {
        size_t y = y0 + j;
        if (x < width && y < height)
            out[y * width + x] = in[y * width + x];
    }
}

/* Coalesced reads; each lane's write lands in a different row of out, `height` apart. */
template <typename T> __global__ void naive(const T *in, T *out, uint64_t width, uint64_t height)
{
    size_t x = (size_t)blockIdx.x * TILE + threadIdx.x;
    size_t y0 = (size_t)blockIdx.y * TILE + threadIdx.y;
    for (unsigned j = 0; j < TILE; j += ROWS) {
        size_t y = y0 + j;
        if (x < width && y < height)
            out[x * height + y] = in[y * width + x];
    }
}

/* The tile transposes: a 32 x 32 tile of in read row by row into shared memory, written out
 * row by row at the mirrored place of out, reading the tile down its columns.  Pitch 32: a
 * column lies in one bank (32-way conflict); pitch 33 spreads it over all 32 banks. */
template <typename T, int PITCH>
__global__ void tiled(const T *in, T *out, uint64_t width, uint64_t height)
{
    __shared__ T tile[TILE][PITCH];
    size_t lx = threadIdx.x, ly = threadIdx.y;
    size_t bx = (size_t)blockIdx.x * TILE, by = (size_t)blockIdx.y * TILE;
    T v[TILE / ROWS]; /* all rows loaded before any is stored, as in transpose.cl */
    for (unsigned j = 0; j < TILE; j += ROWS)
        if (bx + lx < width && by + ly + j < height)
            v[j / ROWS] = in[(by + ly + j) * width + bx + lx];
    for (unsigned j = 0; j < TILE; j += ROWS)
        tile[ly + j][lx] = v[j / ROWS];
    __syncthreads();
    /* out's tile starts at row bx, column by */
    for (unsigned j = 0; j < TILE; j += ROWS)
        if (by + lx < height && bx + ly + j < width)
            out[(bx + ly + j) * height + by + lx] = tile[lx][ly + j];
}

/* The padded tile with one element per thread: 32 x 32 threads per tile.  Guards written
 * as in cl/transpose.cl (one condition each, only the global access under it). */
template <typename T> __global__ void tiled_1elem(const T *in, T *out, uint64_t width, uint64_t height)
{
    __shared__ T tile[TILE][TILE + 1];
    unsigned lx = threadIdx.x, ly = threadIdx.y;
    size_t bx = (size_t)blockIdx.x * TILE, by = (size_t)blockIdx.y * TILE;
    size_t x = bx + lx, y = by + ly;
    T v = 0;
    if ((x < width) & (y < height))
        v = in[y * width + x];
    tile[ly][lx] = v;
    __syncthreads();
    size_t ox = by + lx, oy = bx + ly;
    T w = tile[lx][ly];
    if ((ox < height) & (oy < width))
        out[oy * height + ox] = w;
}

/* Each thread transposes a 4 x 4 block in registers: 4-wide loads along rows of in when
 * width % 4 == 0, 4-wide stores along rows of out when height % 4 == 0, else element by
 * element.  8 x 32 threads per block. */
template <typename T> __global__ void tiled_vec4(const T *in, T *out, uint64_t width, uint64_t height)
{
    typedef vec4_of<T> V;
    typedef typename V::type T4;
    size_t x = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
    size_t y = 4 * ((size_t)blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= width || y >= height)
        return;
    T v[4][4]; /* v[r][c] = in[y + r][x + c]; entries past the edge are never stored */
    for (unsigned r = 0; r < 4; r++) {
        size_t row = y + r;
        if (row < height) {
            if (width % 4 == 0) {
                T4 q = ((const T4 *)in)[(row * width + x) / 4];
                for (int c = 0; c < 4; c++)
                    v[r][c] = V::get(q, c);
            } else {
                for (unsigned c = 0; c < 4; c++)
                    if (x + c < width)
                        v[r][c] = in[row * width + x + c];
            }
        }
    }
    for (unsigned c = 0; c < 4; c++) {
        size_t row = x + c; /* column x + c of in is row x + c of out */
        if (row < width) {
            if (height % 4 == 0) {
                ((T4 *)out)[(row * height + y) / 4] = V::make(v[0][c], v[1][c], v[2][c], v[3][c]);
            } else {
                for (unsigned r = 0; r < 4; r++)
                    if (y + r < height)
                        out[row * height + y + r] = v[r][c];
            }
        }
    }
}

struct variant {
    const char *name;
    unsigned local[2]; /* threads per block, x and y */
    size_t cover[2];   /* matrix elements a block covers: columns, rows */
    bool copy;         /* out = in, not the transpose */
};

static const struct variant variants[] = {
    {"copy", {32, 8}, {32, 32}, true},
    {"naive", {32, 8}, {32, 32}, false},
    {"tiled", {32, 8}, {32, 32}, false},
    {"tiled_padded", {32, 8}, {32, 32}, false},
    {"tiled_1elem", {32, 32}, {32, 32}, false},
    {"tiled_vec4", {8, 32}, {32, 128}, false},
};

/* The kernel of variant i for element type T, as an untyped function pointer. */
template <typename T> static const void *kernel_of(size_t i)
{
    switch (i) {
    case 0: return (const void *)tile_copy<T>;
    case 1: return (const void *)naive<T>;
    case 2: return (const void *)tiled<T, TILE>;
    case 3: return (const void *)tiled<T, TILE + 1>;
    case 4: return (const void *)tiled_1elem<T>;
    default: return (const void *)tiled_vec4<T>;
    }
}

struct transpose {
    cu_dev in, out;
    size_t n;             /* elements in each buffer: size / element size */
    size_t width, height; /* in is width x height, out height x width; width * height <= n */
    cu_host got, want, want_copy;
};

template <typename T>
static int run_variant(cu_bench *b, enum clc_type t, transpose *m, size_t vi)
{
    const struct variant *v = &variants[vi];
    if (!cu_bench_wants(b, v->name))
        return CLC_OK;
    size_t es = sizeof(T), used = m->width * m->height;
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, v->name, t);
    clc_result_set_param(&r, (long)m->width);
    r.bytes = 2 * (uint64_t)used * es;

    const void *func = kernel_of<T>(vi);
    size_t max = cu_kernel_max_threads(b, func), group = (size_t)v->local[0] * v->local[1];
    if (max < group) {
        char why[128];
        snprintf(why, sizeof why, "needs blocks of %u x %u, the kernel allows %zu threads",
                 v->local[0], v->local[1], max);
        return cu_bench_skip(b, t, v->name, why);
    }
    dim3 grid, block(v->local[0], v->local[1]);
    grid.x = (unsigned)(cu_round_up(m->width, v->cover[0]) / v->cover[0]);
    grid.y = (unsigned)(cu_round_up(m->height, v->cover[1]) / v->cover[1]);
    /* every variant's kernel takes (const T *in, T *out, width, height) */
    const T *in = m->in.as<T>();
    T *out = m->out.as<T>();
    uint64_t width = m->width, height = m->height;
    auto launch = [=]() {
        const T *a0 = in;
        T *a1 = out;
        uint64_t a2 = width, a3 = height;
        void *args[] = {&a0, &a1, &a2, &a3};
        return cudaLaunchKernel(func, grid, block, args, 0, 0);
    };
    if (cu_bench_poison(&m->out, m->n * es) || cu_bench_time(b, &r, cu_launch_of(launch), &tm) ||
        cu_read(&m->out, 0, m->n * es, m->got.p))
        return CLC_ERR;
    clc_note_append(&r, "%zu x %zu", m->width, m->height);
    clc_note_batch(&r, tm.batch);
    bool ok = clc_check_values(&r, m->got.p, v->copy ? m->want_copy.p : m->want.p, used, t, 0) &&
              clc_check_poison_tail(&r, m->got.p, used, m->n, es);
    return cu_bench_finish(b, &r, ok);
}

template <typename T> static int run_t(cu_bench *b, enum clc_type t)
{
    transpose m;
    m.n = cu_bench_elems(b, t);
    size_t es = sizeof(T);
    if (!clc_matrix_shape(m.n, &m.width, &m.height)) {
        cu_error("transpose: --size holds no %s element", clc_type_name(t));
        return CLC_ERR;
    }
    if (cu_host_alloc(&m.got, m.n, t) || cu_host_alloc(&m.want, m.n, t) ||
        cu_host_alloc(&m.want_copy, m.n, t) || cu_alloc(&m.in, m.n * es, "input matrix") ||
        cu_alloc(&m.out, m.n * es, "output matrix") || cu_bench_init_values(t, &m.in, m.n))
        return CLC_ERR;
    clc_ref_transpose(m.want.p, m.want_copy.p, m.width, m.height, t);
    int rc = CLC_OK;
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (run_variant<T>(b, t, &m, i) != CLC_OK)
            rc = CLC_ERR;
    return rc;
}

static int run(cu_bench *b, enum clc_type t)
{
    return t == CLC_DOUBLE ? run_t<double>(b, t) : run_t<float>(b, t);
}

extern const struct cu_case cu_case_transpose = {
    "transpose",
    "out-of-place matrix transpose: naive, shared-memory tiles with and without padding, and "
    "register blocks, against a copy with the same tiles",
    "copy (32 x 32 tiles, 32 x 8 threads doing 4 rows each, out = in), naive (coalesced "
    "reads, strided writes), tiled (__shared__ [32][32]: bank conflicts), tiled_padded "
    "(__shared__ [32][33]), tiled_1elem (padded, 32 x 32 threads), tiled_vec4 (4 x 4 blocks "
    "transposed in registers, 4-wide loads and stores, 8 x 32 threads); param = width.  "
    "Shape: width = floor(sqrt(n)), height = n / width for n = size / element size",
    "2 x width x height x element size (each element read and written once)",
    "copy highest among the tile kernels; naive far below (each warp store touches 32 "
    "sectors); tiled recovers most of it but loses to the 32-way bank conflicts that "
    "tiled_padded removes; tiled_1elem below tiled_padded; tiled_vec4 designed to reach 90 % "
    "of the copy ceiling",
    CLC_FLOAT | CLC_DOUBLE,
    1,
    run,
};
