/* uncoalesced.cu - twin of uncoalesced: out[i] = in[(i * 32) % n] * 2, each lane of a warp
 * reads its own sector; the writes stay coalesced. */
#include "bench.cuh"

/* The index is formed in 64 bits: i * 32 overflows 32 bits for arrays above 512 MiB. */
template <typename T> __global__ void scale(const T *in, T *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(i * 32) % n] * 2;
}

static cudaError_t launch(const cu_map_args *a)
{
    return cu_launch_map(a, scale<float>, scale<double>);
}

static int run(cu_bench *b, enum clc_type t)
{
    cu_map_spec spec =
        cu_map_elementwise(cu_bench_elems(b, t), t, 256, "kernel", launch, clc_ref_uncoalesced);
    return cu_bench_map(b, t, &spec);
}

extern const struct cu_case cu_case_uncoalesced = {
    "uncoalesced",
    "out[i] = in[(i * 32) % n] * 2: neighbouring threads read 128 bytes apart",
    "kernel",
    "2 x n x element size (the useful bytes; the hardware moves far more)",
    "far below coalesced: each load request touches 32 sectors instead of 4, so about 8x "
    "the read traffic for the same useful bytes",
    CLC_FLOAT,
    1,
    run,
};
