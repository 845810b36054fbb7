/* mlp.cu - twin of mlp: memory-level parallelism.  A copy with K = 1, 2, 4, 8 float4 per
 * thread, and a grid-stride loop over float4; when n is not a multiple of 4 the grid's last
 * thread copies the 1-3 leftover floats one by one. */
#include "bench.cuh"

#define LOCAL 256
#define FIXED_GROUPS 1024

/* Block g covers float4s [g L K, (g + 1) L K) for L threads: at step j its threads read L
 * consecutive float4s.  All K loads are issued before the first store.  `k` repeats K; a
 * launch that disagrees writes nothing and fails verification. */
template <int K> __global__ void unrolled(const float *in, float *out, uint64_t n, unsigned k)
{
    if (k != K)
        return;
    const float4 *in4 = (const float4 *)in;
    float4 *out4 = (float4 *)out;
    size_t nv = n / 4, l = blockDim.x;
    size_t first = (size_t)blockIdx.x * l * K + threadIdx.x;
    float4 v[K];
#pragma unroll
    for (int j = 0; j < K; j++)
        if (first + j * l < nv)
            v[j] = in4[first + j * l];
#pragma unroll
    for (int j = 0; j < K; j++)
        if (first + j * l < nv)
            out4[first + j * l] = v[j];
    if ((size_t)blockIdx.x * blockDim.x + threadIdx.x == (size_t)gridDim.x * blockDim.x - 1)
        for (size_t e = nv * 4; e < n; e++)
            out[e] = in[e];
}

/* One float4 per step over a grid of `groups` blocks. */
__global__ void gridstride_float4(const float *in, float *out, uint64_t n, unsigned groups)
{
    const float4 *in4 = (const float4 *)in;
    float4 *out4 = (float4 *)out;
    size_t nv = n / 4, stride = (size_t)groups * blockDim.x;
    size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = gid; i < nv; i += stride)
        out4[i] = in4[i];
    if (gid == (size_t)gridDim.x * blockDim.x - 1)
        for (size_t e = nv * 4; e < n; e++)
            out[e] = in[e];
}

template <int K> static cudaError_t launch_unrolled(const cu_map_args *a)
{
    unrolled<K><<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out, a->param);
    return cudaGetLastError();
}

static cudaError_t launch_grid(const cu_map_args *a)
{
    gridstride_float4<<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out,
                                             a->param);
    return cudaGetLastError();
}

static int run(cu_bench *b, enum clc_type t)
{
    static const struct {
        unsigned k;
        cudaError_t (*launch)(const cu_map_args *);
    } ks[] = {{1, launch_unrolled<1>}, {2, launch_unrolled<2>}, {4, launch_unrolled<4>},
              {8, launch_unrolled<8>}};
    size_t n = cu_bench_elems(b, t);
    cu_map_spec base = cu_map_elementwise(n, t, LOCAL, NULL, NULL, clc_ref_copy);
    base.has_param = true;
    int rc = CLC_OK;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        cu_map_spec s = base;
        s.variant = "unrolled";
        s.global = clc_float4_groups(n, LOCAL, ks[i].k) * LOCAL;
        s.param = ks[i].k;
        s.launch = ks[i].launch;
        if (cu_bench_map(b, t, &s) != CLC_OK)
            rc = CLC_ERR;
    }

    /* A full wave (8 blocks of 256 per SM) and a fixed 1024; capped at one float4 per
     * thread, equal grids once. */
    size_t cu = clc_compute_units(&b->report->device);
    size_t grids[] = {8 * cu, FIXED_GROUPS};
    size_t groups[sizeof grids / sizeof grids[0]];
    size_t n_groups = clc_grid_sizes(grids, sizeof grids / sizeof grids[0],
                                     clc_float4_groups(n, LOCAL, 1), groups);
    for (size_t g = 0; g < n_groups; g++) {
        cu_map_spec s = base;
        s.variant = "gridstride_float4";
        s.global = groups[g] * LOCAL;
        s.param = (long)groups[g];
        s.launch = launch_grid;
        if (cu_bench_map(b, t, &s) != CLC_OK)
            rc = CLC_ERR;
    }
    return rc;
}

extern const struct cu_case cu_case_mlp = {
    "mlp",
    "copy with more bytes in flight per thread: K float4 per thread, or a grid-stride loop "
    "over float4",
    "unrolled, param = K float4 per thread (1, 2, 4, 8; a template argument); "
    "gridstride_float4, param = blocks of 256 (8 per SM, and 1024; capped at one float4 per "
    "thread)",
    "2 x n x 4 (each float read once and written once)",
    "unrolled K = 1 (16 bytes per thread) already well above a float copy, K = 2-4 at the "
    "copy ceiling, K = 8 no better (registers); gridstride_float4 with a full wave near the "
    "ceiling too",
    CLC_FLOAT,
    1,
    run,
};
