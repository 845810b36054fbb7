/* aos_soa.cu - twin of aos_soa: out[i] = x[i] * 2 where x is one field of a record, as an
 * array of structures {x, y, z}, a structure of arrays, and a record {float f; double d}
 * that alignment pads to 16 bytes.  Inputs are cu_value floats; the records (clc_particle,
 * clc_padded in include/clcoalesce/reference.h) are read over them, as on the OpenCL side. */
#include "bench.cuh"

#define LOCAL 256

__global__ void aos(const clc_particle *p, float *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p[i].x * 2;
}

/* The x array is the first of the three arrays x[n], y[n], z[n] laid end to end. */
__global__ void soa(const float *x, float *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] * 2;
}

__global__ void aos_padded(const clc_padded *p, float *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p[i].f * 2;
}

static cudaError_t launch_aos(const cu_map_args *a)
{
    aos<<<a->grid, a->block>>>((const clc_particle *)a->in, (float *)a->out, a->n_out);
    return cudaGetLastError();
}

static cudaError_t launch_soa(const cu_map_args *a)
{
    soa<<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out);
    return cudaGetLastError();
}

static cudaError_t launch_padded(const cu_map_args *a)
{
    aos_padded<<<a->grid, a->block>>>((const clc_padded *)a->in, (float *)a->out, a->n_out);
    return cudaGetLastError();
}

static int run(cu_bench *b, enum clc_type t)
{
    size_t n = cu_bench_elems(b, t);
    size_t per_float = sizeof(float);
    /* float only: the bytes counted are the useful ones, 2 x n x 4 */
    cu_map_spec aos_s = cu_map_elementwise(n, t, LOCAL, "aos", launch_aos, clc_ref_aos);
    aos_s.n_in = n * (sizeof(clc_particle) / per_float);
    cu_map_spec soa_s = aos_s;
    soa_s.variant = "soa";
    soa_s.launch = launch_soa;
    soa_s.reference = clc_ref_scale; /* x[n], y[n], z[n]: same buffer size as the aos one */
    cu_map_spec padded_s = aos_s;
    padded_s.variant = "aos_padded";
    padded_s.n_in = n * (sizeof(clc_padded) / per_float);
    padded_s.launch = launch_padded;
    padded_s.reference = clc_ref_aos_padded;

    int rc = CLC_OK;
    if (cu_bench_map(b, t, &aos_s) != CLC_OK)
        rc = CLC_ERR;
    if (cu_bench_map(b, t, &soa_s) != CLC_OK)
        rc = CLC_ERR;
    if (cu_bench_map(b, t, &padded_s) != CLC_OK) /* every CUDA device has fp64 */
        rc = CLC_ERR;
    return rc;
}

extern const struct cu_case cu_case_aos_soa = {
    "aos_soa",
    "out[i] = x[i] * 2 with x a field of a record: array of structures vs structure of "
    "arrays, and a padded record",
    "aos (struct {float x, y, z}, 12-byte records), soa (x[n], y[n], z[n]), aos_padded "
    "(struct {float f; double d}, 16-byte records, read f)",
    "2 x n x 4: the useful bytes (x read once, out written once), not the records' bytes",
    "soa at the copy ceiling; aos near 1/2 of it (reads move 3x the useful bytes, writes "
    "don't); aos_padded lower still (4x on the reads) although its useful field is a single "
    "float",
    CLC_FLOAT,
    4,
    run,
};
