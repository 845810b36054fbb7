/* gridstride.cu - twin of gridstride: out[i] = in[i] * 2 with one element per thread vs a
 * grid-stride loop over a fixed grid (1024 blocks, or 1, 4 and 16 blocks per SM). */
#include "bench.cuh"

#define LOCAL 256
#define FIXED_GROUPS 1024

template <typename T> __global__ void monolithic(const T *in, T *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2;
}

/* groups = the number of blocks launched, so the stride is the whole grid. */
template <typename T> __global__ void gridstride(const T *in, T *out, uint64_t n, unsigned groups)
{
    size_t stride = (size_t)groups * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = in[i] * 2;
}

static cudaError_t launch_mono(const cu_map_args *a)
{
    return cu_launch_map(a, monolithic<float>, monolithic<double>);
}

template <typename T> static cudaError_t launch_grid_t(const cu_map_args *a)
{
    gridstride<T><<<a->grid, a->block>>>((const T *)a->in, (T *)a->out, a->n_out, a->param);
    return cudaGetLastError();
}
CU_TYPED_LAUNCH(launch_grid, launch_grid_t)

static int run(cu_bench *b, enum clc_type t)
{
    size_t n = cu_bench_elems(b, t);
    cu_map_spec mono = cu_map_elementwise(n, t, LOCAL, "monolithic", launch_mono, clc_ref_scale);
    int rc = cu_bench_map(b, t, &mono);

    /* More blocks than one element per thread needs would only launch idle threads, so each
     * grid is capped there; grids that come out equal run once. */
    size_t cu = clc_compute_units(&b->report->device);
    size_t needed = cu_round_up(n ? n : 1, LOCAL) / LOCAL;
    size_t grids[] = {FIXED_GROUPS, cu, 4 * cu, 16 * cu};
    size_t groups[sizeof grids / sizeof grids[0]];
    size_t n_groups = clc_grid_sizes(grids, sizeof grids / sizeof grids[0], needed, groups);
    for (size_t g = 0; g < n_groups; g++) {
        cu_map_spec s = mono;
        s.variant = "gridstride";
        s.global = groups[g] * LOCAL;
        s.has_param = true;
        s.param = (long)groups[g];
        s.launch = launch_grid;
        if (cu_bench_map(b, t, &s) != CLC_OK)
            rc = CLC_ERR;
    }
    return rc;
}

extern const struct cu_case cu_case_gridstride = {
    "gridstride",
    "out[i] = in[i] * 2: one element per thread vs a grid-stride loop over a fixed grid",
    "monolithic; gridstride, param = blocks of 256 (1024, and 1, 4, 16 per SM; capped at one "
    "element per thread, equal grids run once)",
    "2 x n x element size",
    "monolithic and a grid of 4-16 blocks per SM within a few percent of each other; 1 block "
    "per SM leaves too few warps to hide latency and falls well short",
    CLC_FLOAT,
    1,
    run,
};
