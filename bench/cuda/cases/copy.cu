/* copy.cu - twin of copy: the driver's device-to-device copy and a one-element-per-thread
 * copy kernel over the same bytes.  The `enqueue` variant is cudaMemcpyAsync(DeviceToDevice),
 * CUDA's counterpart of clEnqueueCopyBuffer, named alike so the two rows join. */
#include "bench.cuh"

template <typename T> __global__ void copy_kernel(const T *in, T *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

static cudaError_t launch(const cu_map_args *a)
{
    return cu_launch_map(a, copy_kernel<float>, copy_kernel<double>);
}

/* The driver's own copy: no kernel of ours, so it shows what the memory system gives. */
static int run_enqueue(cu_bench *b, enum clc_type t, size_t n)
{
    if (!cu_bench_wants(b, "enqueue"))
        return CLC_OK;
    size_t bytes = n * clc_type_size(t);
    cu_host h_in, got;
    cu_dev src, dst;
    struct clc_result r;
    struct clc_timing tm;
    clc_result_init(&r, b->c->name, "enqueue", t);
    r.bytes = 2 * (uint64_t)bytes;
    if (cu_host_alloc(&h_in, n, t) || cu_host_alloc(&got, n, t) ||
        cu_alloc(&src, bytes, "source") || cu_alloc(&dst, bytes, "destination"))
        return CLC_ERR;
    clc_fill_values(h_in.p, n, t, 0);
    if (cu_write(&src, 0, bytes, h_in.p) || cu_bench_poison(&dst, bytes))
        return CLC_ERR;
    void *d = dst.p, *s = src.p;
    auto copy = [d, s, bytes]() {
        return cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, 0);
    };
    if (cu_bench_time(b, &r, cu_launch_of(copy), &tm) || cu_read(&dst, 0, bytes, got.p))
        return CLC_ERR;
    clc_note_append(&r, "cudaMemcpyAsync device to device");
    clc_note_batch(&r, tm.batch);
    return cu_bench_finish(b, &r, clc_check_values(&r, got.p, h_in.p, n, t, 0));
}

static int run(cu_bench *b, enum clc_type t)
{
    size_t n = cu_bench_elems(b, t);
    cu_map_spec kernel = cu_map_elementwise(n, t, 256, "kernel", launch, clc_ref_copy);
    int rc = run_enqueue(b, t, n);
    if (cu_bench_map(b, t, &kernel) != CLC_OK)
        rc = CLC_ERR;
    return rc;
}

extern const struct cu_case cu_case_copy = {
    "copy",
    "the ceiling: cudaMemcpy device to device vs a one-element-per-thread copy kernel",
    "enqueue (cudaMemcpyAsync device to device, the twin of clEnqueueCopyBuffer), "
    "kernel (out[i] = in[i])",
    "2 x n x element size (each element read once and written once)",
    "enqueue is the practical ceiling; a 4-byte-per-thread kernel keeps too few bytes in "
    "flight to match it on a large GPU (see mlp and vector)",
    CLC_FLOAT,
    1,
    run,
};
