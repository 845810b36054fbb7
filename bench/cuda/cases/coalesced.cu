/* coalesced.cu - twin of coalesced: out[i] = in[i] * 2, a warp reads 32 consecutive elements. */
#include "bench.cuh"

template <typename T> __global__ void scale(const T *in, T *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2;
}

template <typename T> static cudaError_t launch_t(const cu_map_args *a)
{
    scale<T><<<a->grid, a->block>>>((const T *)a->in, (T *)a->out, a->n_out);
    return cudaGetLastError();
}
CU_TYPED_LAUNCH(launch, launch_t)

static int run(cu_bench *b, enum clc_type t)
{
    size_t n = cu_bench_elems(b, t);
    cu_map_spec spec = {};
    spec.variant = "kernel";
    spec.n_in = n;
    spec.n_out = n;
    spec.global = cu_round_up(n, 256);
    spec.local = 256;
    spec.bytes = 2 * (uint64_t)n * clc_type_size(t);
    spec.launch = launch;
    spec.reference = clc_ref_scale;
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
