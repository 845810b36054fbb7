/* matrix.cu - twin of matrix: m = m * 2 + 1 in place on a width x height matrix with 2-D
 * blocks, x = column and y = row: row-major indexing (a warp reads one row segment) vs
 * column-major indexing with the same launch (a warp's lanes sit `height` elements apart). */
#include <stdio.h>

#include "bench.cuh"

#define TILE 32 /* blocks are 32 x 32, or 32 x fewer rows where the kernel allows less */

template <typename T> __global__ void matrix_rowmajor(T *m, uint64_t width, uint64_t height)
{
    size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t row = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) {
        size_t i = row * width + col;
        m[i] = m[i] * 2 + 1;
    }
}

template <typename T> __global__ void matrix_colmajor(T *m, uint64_t width, uint64_t height)
{
    size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t row = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) {
        size_t i = col * height + row;
        m[i] = m[i] * 2 + 1;
    }
}

struct matrix {
    cu_dev buf;
    size_t n;             /* elements in the buffer: size / element size */
    size_t width, height; /* the matrix: width * height <= n */
    cu_host got, want;
};

/* Rows of threads per block: 32, unless the kernel's block limit is below 1024. */
static size_t group_rows(const cu_bench *b, const void *func)
{
    size_t rows = cu_kernel_max_threads(b, func) / TILE;
    return rows > TILE ? TILE : rows ? rows : 1;
}

template <typename T>
static int run_variant(cu_bench *b, enum clc_type t, matrix *m, const char *variant, bool rowmajor)
{
    if (!cu_bench_wants(b, variant))
        return CLC_OK;
    size_t es = sizeof(T);
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, variant, t);
    clc_result_set_param(&r, (long)m->width);
    r.bytes = 2 * (uint64_t)m->width * m->height * es;
    void (*k)(T *, uint64_t, uint64_t) = rowmajor ? matrix_rowmajor<T> : matrix_colmajor<T>;
    size_t rows = group_rows(b, (const void *)k);
    dim3 block(TILE, (unsigned)rows);
    dim3 grid((unsigned)(cu_round_up(m->width, TILE) / TILE),
              (unsigned)(cu_round_up(m->height, rows) / rows));
    T *p = m->buf.as<T>();
    uint64_t width = m->width, height = m->height;
    auto launch = [=]() {
        k<<<grid, block>>>(p, width, height);
        return cudaGetLastError();
    };
    if (cu_bench_init_values(t, &m->buf, m->n) || cu_bench_time(b, &r, cu_launch_of(launch), &tm))
        return CLC_ERR;

    /* Every launch above applied the map again, by which time the values have overflowed to
     * inf.  So the check uses a launch of its own: fresh values, exactly one launch, compared
     * with one application of the map on the host. */
    if (cu_bench_init_values(t, &m->buf, m->n))
        return CLC_ERR;
    CU_TRY(launch());
    CU_TRY(cudaDeviceSynchronize());
    if (cu_read(&m->buf, 0, m->n * es, m->got.p))
        return CLC_ERR;

    clc_note_append(&r, "%zu x %zu", m->width, m->height);
    if (rows < TILE)
        clc_note_append(&r, ", %d x %zu blocks (the kernel's limit)", TILE, rows);
    clc_note_batch(&r, tm.batch);
    return cu_bench_finish(b, &r, clc_check_values(&r, m->got.p, m->want.p, m->n, t, 0));
}

template <typename T> static int run_t(cu_bench *b, enum clc_type t)
{
    matrix m;
    m.n = cu_bench_elems(b, t);
    if (!clc_matrix_shape(m.n, &m.width, &m.height)) {
        cu_error("matrix: --size holds no %s element", clc_type_name(t));
        return CLC_ERR;
    }
    if (cu_host_alloc(&m.got, m.n, t) || cu_host_alloc(&m.want, m.n, t) ||
        cu_alloc(&m.buf, m.n * sizeof(T), "matrix"))
        return CLC_ERR;
    clc_ref_matrix(m.want.p, m.n, m.width * m.height, t);
    int rc = CLC_OK;
    if (run_variant<T>(b, t, &m, "rowmajor", true) != CLC_OK)
        rc = CLC_ERR;
    if (run_variant<T>(b, t, &m, "colmajor", false) != CLC_OK)
        rc = CLC_ERR;
    return rc;
}

static int run(cu_bench *b, enum clc_type t)
{
    return t == CLC_DOUBLE ? run_t<double>(b, t) : run_t<float>(b, t);
}

extern const struct cu_case cu_case_matrix = {
    "matrix",
    "m = m * 2 + 1 in place on a 2-D matrix with 32 x 32 blocks: row-major vs column-major "
    "indexing",
    "rowmajor (x = column, index row * width + col), colmajor (x = column, index col * height "
    "+ row); param = width.  Shape: width = floor(sqrt(n)), height = n / width for n = size / "
    "element size",
    "2 x width x height x element size (each element read and written once)",
    "rowmajor near the copy ceiling; colmajor far below: each warp request touches 32 sectors "
    "(one per lane) instead of 4 (float)",
    CLC_FLOAT | CLC_DOUBLE,
    1,
    run,
};
