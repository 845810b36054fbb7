/* stride.cu - twin of stride: in-place a[i * s] += 1 for s = 1..32, bandwidth falls as a
 * warp's elements spread over more sectors. */
#include "bench.cuh"

#define MAX_STRIDE 32
#define WINDOW 65536 /* elements checked one by one at the start, touched or not */

template <typename T> __global__ void stride(T *a, unsigned s, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i * s] = a[i * s] + 1;
}

/* Verification helper: gathers the n strided elements into a dense buffer so the host reads
 * back n elements rather than n * s. */
template <typename T> __global__ void pick(const T *a, T *out, unsigned s, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i * s];
}

struct stride_run {
    cu_dev a, dense;
    size_t n;
    cu_host got, want;
};

/* Checks the n strided elements (gathered on the device by `pick`) and every element of a
 * window at the start, so a kernel that writes the wrong place is caught too. */
template <typename T>
static bool verify(stride_run *sr, enum clc_type t, unsigned s, long launches,
                   struct clc_result *r, bool *io_error)
{
    size_t n = sr->n;
    dim3 grid((unsigned)(cu_round_up(n, 256) / 256)), block(256);
    *io_error = true;
    pick<T><<<grid, block>>>(sr->a.as<T>(), sr->dense.as<T>(), s, (uint64_t)n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        cu_fail("pick<<<...>>>", err, __FILE__, __LINE__);
        return false;
    }
    if (cu_read(&sr->dense, 0, n * sizeof(T), sr->got.p))
        return false;
    clc_ref_stride(sr->want.p, n, s, launches, t);
    *io_error = false;
    if (!clc_check_values(r, sr->got.p, sr->want.p, n, t, 0))
        return false;

    size_t w = n * s < WINDOW ? n * s : WINDOW;
    *io_error = true;
    if (cu_read(&sr->a, 0, w * sizeof(T), sr->got.p))
        return false;
    *io_error = false;
    clc_ref_stride_window(sr->want.p, w, s, launches, t);
    return clc_check_values(r, sr->got.p, sr->want.p, w, t, 0);
}

template <typename T>
static int run_stride(cu_bench *b, enum clc_type t, stride_run *sr, unsigned s)
{
    dim3 grid((unsigned)(cu_round_up(sr->n, 256) / 256)), block(256);
    T *p = sr->a.as<T>();
    uint64_t n = sr->n;
    struct clc_result r;
    struct clc_timing tm;
    bool io_error;
    clc_result_init(&r, b->c->name, "inplace", t);
    clc_result_set_param(&r, s);
    r.bytes = 2 * (uint64_t)sr->n * clc_type_size(t);
    auto launch = [=]() {
        stride<T><<<grid, block>>>(p, s, n);
        return cudaGetLastError();
    };
    if (cu_bench_init_values(t, &sr->a, sr->n * s) || cu_bench_time(b, &r, cu_launch_of(launch), &tm))
        return CLC_ERR;
    bool ok = verify<T>(sr, t, s, tm.launches, &r, &io_error);
    if (io_error)
        return CLC_ERR;
    return cu_bench_finish(b, &r, ok);
}

static int run(cu_bench *b, enum clc_type t)
{
    if (!cu_bench_wants(b, "inplace"))
        return CLC_OK;
    stride_run sr;
    sr.n = cu_bench_elems(b, t);
    size_t es = clc_type_size(t);
    if (cu_host_alloc(&sr.got, sr.n, t) || cu_host_alloc(&sr.want, sr.n, t) ||
        cu_alloc(&sr.a, sr.n * MAX_STRIDE * es, "strided array") ||
        cu_alloc(&sr.dense, sr.n * es, "gathered copy"))
        return CLC_ERR;
    int rc = CLC_OK;
    for (unsigned s = 1; s <= MAX_STRIDE; s++) {
        int r = t == CLC_DOUBLE ? run_stride<double>(b, t, &sr, s) : run_stride<float>(b, t, &sr, s);
        if (r != CLC_OK)
            rc = CLC_ERR;
    }
    return rc;
}

extern const struct cu_case cu_case_stride = {
    "stride",
    "a[i * s] = a[i * s] + 1, s = 1..32 elements: strided access",
    "inplace, param = stride s in elements (1..32)",
    "2 x n x element size (n = size / element size; the buffer holds 32 n), the useful "
    "bytes, as the 2013 article",
    "falls steadily with the stride: fp32 stride 2 near 70 % of stride 1, and flat from "
    "s = 8 (fp32) or 4 (fp64), where every lane needs its own 32-byte sector",
    CLC_FLOAT | CLC_DOUBLE,
    MAX_STRIDE,
    run,
};
