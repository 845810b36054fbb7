/* rowsum.cu - twin of rowsum: the sum of each row of a row-major matrix, one thread per row
 * (a warp reads 32 rows at once: strided) vs one block per row (coalesced reads and a tree
 * in shared memory). */
#include <stdio.h>
#include <string.h>

#include "bench.cuh"

#define MAX_COLS 4096 /* sums of up to 4096 values in [-512, 511] stay below 2^24: exact in float */
#define LOCAL 256

template <typename T> __global__ void thread_per_row(const T *m, T *out, uint64_t rows, uint64_t cols)
{
    size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    T s = 0;
    for (size_t c = 0; c < cols; c++)
        s += m[r * cols + c];
    out[r] = s;
}

/* GROUP threads per row (a power of two, the block size): coalesced partial sums, then a
 * tree in shared memory; every thread reaches every barrier. */
template <typename T, int GROUP>
__global__ void group_per_row(const T *m, T *out, uint64_t rows, uint64_t cols)
{
    __shared__ T part[GROUP];
    size_t r = blockIdx.x, l = threadIdx.x;
    T s = 0;
    for (size_t c = l; c < cols; c += GROUP)
        s += m[r * cols + c];
    part[l] = s;
    for (unsigned step = GROUP / 2; step > 0; step /= 2) {
        __syncthreads();
        if (l < step)
            part[l] += part[l + step];
    }
    if (l == 0)
        out[r] = part[0];
    (void)rows;
}

struct rowsum {
    cu_dev m, out;
    size_t rows, cols;
    cu_host got, want;
};

/* The largest power of two <= min(LOCAL, what the kernel allows in a block). */
static size_t group_size(size_t max)
{
    size_t g = 1;
    while (g * 2 <= LOCAL && g * 2 <= max)
        g *= 2;
    return g;
}

template <typename T>
static int run_variant(cu_bench *b, enum clc_type t, rowsum *s, const char *variant)
{
    if (!cu_bench_wants(b, variant))
        return CLC_OK;
    size_t es = sizeof(T);
    bool per_group = strcmp(variant, "group_per_row") == 0;
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, variant, t);
    clc_result_set_param(&r, (long)s->cols);
    r.bytes = ((uint64_t)s->rows * s->cols + s->rows) * es;

    /* group_per_row's tree is compiled for its group size: the device's limit (1024 on every
     * CUDA device) makes it LOCAL, the one instantiated. */
    const void *func = per_group ? (const void *)group_per_row<T, LOCAL> : (const void *)thread_per_row<T>;
    int dev = 0, dev_max = 1024;
    CU_TRY(cudaGetDevice(&dev));
    CU_TRY(cudaDeviceGetAttribute(&dev_max, cudaDevAttrMaxThreadsPerBlock, dev));
    size_t group = per_group ? group_size((size_t)dev_max) : group_size(cu_kernel_max_threads(b, func));
    if (per_group && group != LOCAL) {
        char why[96];
        snprintf(why, sizeof why, "needs blocks of %d threads, the device allows %d", LOCAL, dev_max);
        return cu_bench_skip(b, t, variant, why);
    }
    dim3 grid((unsigned)(per_group ? s->rows : cu_round_up(s->rows, group) / group));
    dim3 block((unsigned)group);
    const T *m = s->m.as<T>();
    T *out = s->out.as<T>();
    uint64_t rows = s->rows, cols = s->cols;
    auto launch = [=]() {
        if (per_group)
            group_per_row<T, LOCAL><<<grid, block>>>(m, out, rows, cols);
        else
            thread_per_row<T><<<grid, block>>>(m, out, rows, cols);
        return cudaGetLastError();
    };
    if (cu_bench_poison(&s->out, s->rows * es) || cu_bench_time(b, &r, cu_launch_of(launch), &tm) ||
        cu_read(&s->out, 0, s->rows * es, s->got.p))
        return CLC_ERR;
    clc_note_append(&r, "%zu rows x %zu", s->rows, s->cols);
    clc_note_batch(&r, tm.batch);
    return cu_bench_finish(b, &r, clc_check_values(&r, s->got.p, s->want.p, s->rows, t, 0));
}

template <typename T> static int run_t(cu_bench *b, enum clc_type t)
{
    size_t n = cu_bench_elems(b, t), es = sizeof(T);
    rowsum s;
    s.cols = n < MAX_COLS ? n : MAX_COLS;
    if (n == 0) {
        cu_error("rowsum: --size holds no %s element", clc_type_name(t));
        return CLC_ERR;
    }
    s.rows = n / s.cols;
    if (cu_host_alloc(&s.got, s.rows, t) || cu_host_alloc(&s.want, s.rows, t) ||
        cu_alloc(&s.m, s.rows * s.cols * es, "matrix") ||
        cu_alloc(&s.out, s.rows * es, "row sums") ||
        cu_bench_init_values(t, &s.m, s.rows * s.cols))
        return CLC_ERR;
    clc_ref_rowsum(s.want.p, s.rows, s.cols, t);
    int rc = CLC_OK;
    if (run_variant<T>(b, t, &s, "thread_per_row") != CLC_OK)
        rc = CLC_ERR;
    if (run_variant<T>(b, t, &s, "group_per_row") != CLC_OK)
        rc = CLC_ERR;
    return rc;
}

static int run(cu_bench *b, enum clc_type t)
{
    return t == CLC_DOUBLE ? run_t<double>(b, t) : run_t<float>(b, t);
}

extern const struct cu_case cu_case_rowsum = {
    "rowsum",
    "sum of each row of a row-major matrix: one thread per row (strided) vs one block per "
    "row (coalesced, shared-memory tree reduction)",
    "thread_per_row (loops over its row), group_per_row (256 threads per row, then a tree in "
    "shared memory); param = cols.  Shape: cols = min(4096, n), rows = n / cols for n = size "
    "/ element size",
    "rows x cols x element size + rows x element size (matrix read once, sums written once)",
    "group_per_row near the copy ceiling; thread_per_row far below: each warp load touches 32 "
    "sectors a row apart, which the caches must keep for the next steps",
    CLC_FLOAT | CLC_DOUBLE,
    1,
    run,
};
