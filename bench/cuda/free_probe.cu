/* free_probe.cu - does a kernel run slower right after a large cudaFree?  Times an fp64
 * in-place pass over 256 MiB (a[i] += 1, as `stride` with s = 1) on a fresh 8 GiB
 * allocation, right after freeing 8 GiB and allocating again, with a second allocation and
 * nothing freed, and through a memory pool that keeps freed memory; each at once and again
 * half a second later.  Prints the median of 20 event-timed launches for each.
 *
 *   bench/cuda/free_probe (built with the CUDA twins: build/bench/cuda/free_probe) */
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <unistd.h>

static const size_t BIG = (size_t)8 << 30, N = ((size_t)256 << 20) / sizeof(double);

__global__ void init(double *a, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = (double)(i & 1023);
}

__global__ void inc(double *a, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = a[i] + 1;
}

static bool ok(cudaError_t err, const char *call)
{
    if (err == cudaSuccess)
        return true;
    fprintf(stderr, "free_probe: %s failed: %s\n", call, cudaGetErrorString(err));
    return false;
}

/* Initialises the first N elements, two warm-up passes, then 20 timed ones. */
static bool time_passes(double *a, const char *what)
{
    cudaEvent_t start, stop;
    float ms[20];
    unsigned grid = (unsigned)((N + 255) / 256);
    if (!ok(cudaEventCreate(&start), "cudaEventCreate") || !ok(cudaEventCreate(&stop), "cudaEventCreate"))
        return false;
    init<<<grid, 256>>>(a, N);
    inc<<<grid, 256>>>(a, N);
    inc<<<grid, 256>>>(a, N);
    for (int r = 0; r < 20; r++) {
        cudaEventRecord(start);
        inc<<<grid, 256>>>(a, N);
        cudaEventRecord(stop);
        if (!ok(cudaEventSynchronize(stop), "kernel"))
            return false;
        cudaEventElapsedTime(&ms[r], start, stop);
    }
    std::sort(ms, ms + 20);
    printf("%-36s median %.4f ms = %5.0f GB/s\n", what, ms[10], 2.0 * N * sizeof(double) / ms[10] / 1e6);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return true;
}

int main()
{
    double *a, *b;
    const unsigned half_second = 500000;
    if (!ok(cudaMalloc(&a, BIG), "cudaMalloc") || !time_passes(a, "fresh allocation"))
        return 1;
    usleep(half_second);
    time_passes(a, "fresh allocation, 0.5 s later");
    cudaFree(a);
    if (!ok(cudaMalloc(&b, BIG), "cudaMalloc") || !time_passes(b, "right after freeing 8 GiB"))
        return 1;
    usleep(half_second);
    time_passes(b, "after freeing 8 GiB, 0.5 s later");
    if (!ok(cudaMalloc(&a, BIG), "cudaMalloc") || !time_passes(a, "second allocation, nothing freed"))
        return 1;
    cudaFree(a);
    cudaFree(b);
    usleep(half_second);

    cudaMemPool_t pool;
    uint64_t keep = UINT64_MAX;
    if (!ok(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool") ||
        !ok(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep),
            "cudaMemPoolSetAttribute"))
        return 1;
    if (!ok(cudaMallocAsync(&a, BIG, 0), "cudaMallocAsync") || !time_passes(a, "pool, first allocation"))
        return 1;
    cudaFreeAsync(a, 0);
    if (!ok(cudaMallocAsync(&b, BIG, 0), "cudaMallocAsync") ||
        !time_passes(b, "pool, right after freeing 8 GiB"))
        return 1;
    cudaFreeAsync(b, 0);
    return ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize") ? 0 : 1;
}
