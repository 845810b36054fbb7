/* coalesced.cu - twin of coalesced: out[i] = in[i] * 2, a warp reads 32 consecutive elements. */
#include "bench.cuh"

template <typename T> __global__ void scale(const T *in, T *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2;
}

static cudaError_t launch(const cu_map_args *a)
{
    return cu_launch_map(a, scale<float>, scale<double>);
}

static int run(cu_bench *b, enum clc_type t)
{
    cu_map_spec spec =
        cu_map_elementwise(cu_bench_elems(b, t), t, 256, "kernel", launch, clc_ref_scale);
    return cu_bench_map(b, t, &spec);
}

extern const struct cu_case cu_case_coalesced = {
    "coalesced",
    "out[i] = in[i] * 2: a warp reads 32 consecutive elements",
    "kernel",
    "2 x n x element size",
    "near the copy kernel: 4 sectors of 32 bytes per warp request (float), all used",
    CLC_FLOAT,
    1,
    run,
};
