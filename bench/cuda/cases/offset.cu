/* offset.cu - twin of offset: in-place a[i + s] += 1 for s = 0..32, the cost of a misaligned
 * start. */
#include "bench.cuh"

#define MAX_OFFSET 32

template <typename T> __global__ void offset(T *a, unsigned s, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i + s] = a[i + s] + 1;
}

template <typename T>
static int run_offset(cu_bench *b, enum clc_type t, cu_dev *a, size_t n, unsigned s, void *got,
                      void *want)
{
    size_t len = n + MAX_OFFSET;
    dim3 grid((unsigned)(cu_round_up(n, 256) / 256)), block(256);
    T *p = a->as<T>();
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, "inplace", t);
    clc_result_set_param(&r, s);
    r.bytes = 2 * (uint64_t)n * clc_type_size(t);
    auto launch = [=]() {
        offset<T><<<grid, block>>>(p, s, (uint64_t)n);
        return cudaGetLastError();
    };
    if (cu_bench_init_values(t, a, len) || cu_bench_time(b, &r, cu_launch_of(launch), &tm) ||
        cu_read(a, 0, len * sizeof(T), got))
        return CLC_ERR;
    clc_ref_offset(want, len, s, n, tm.launches, t);
    return cu_bench_finish(b, &r, clc_check_values(&r, got, want, len, t, 0));
}

static int run(cu_bench *b, enum clc_type t)
{
    if (!cu_bench_wants(b, "inplace"))
        return CLC_OK;
    size_t n = cu_bench_elems(b, t) - MAX_OFFSET;
    size_t len = n + MAX_OFFSET;
    cu_host got, want;
    cu_dev a;
    if (cu_host_alloc(&got, len, t) || cu_host_alloc(&want, len, t) ||
        cu_alloc(&a, len * clc_type_size(t), "array"))
        return CLC_ERR;
    int rc = CLC_OK;
    for (unsigned s = 0; s <= MAX_OFFSET; s++) {
        int r = t == CLC_DOUBLE ? run_offset<double>(b, t, &a, n, s, got.p, want.p)
                                : run_offset<float>(b, t, &a, n, s, got.p, want.p);
        if (r != CLC_OK)
            rc = CLC_ERR;
    }
    return rc;
}

extern const struct cu_case cu_case_offset = {
    "offset",
    "a[i + s] = a[i + s] + 1, s = 0..32 elements: misaligned but contiguous access",
    "inplace, param = offset s in elements (0..32)",
    "2 x n x element size (n = size / element size - 32), as the 2013 article",
    "a few percent at most below s = 0: a misaligned warp touches one extra 32-byte sector, "
    "and neighbouring warps share it through L2",
    CLC_FLOAT | CLC_DOUBLE,
    1,
    run,
};
