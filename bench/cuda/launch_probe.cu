/* launch_probe.cu - the CUDA counterpart of bench/launch_probe.c: where the time of one
 * launch goes.  The float4 copy of cases/vector.cu, the same grid with a width it was not
 * built for (every thread returns at once), one empty block, and cudaMemcpy device to
 * device, at 64 MiB, 256 MiB and 1 GiB.  For each:
 *
 *   single  median of 30 event pairs around one launch, an untimed launch in front of each
 *           (as the twins time: the start event then completes when the timed launch begins)
 *   kernel  median of the 30 intervals between events recorded after each of 30 back-to-back
 *           launches (so each holds one launch and the gap before it)
 *   span    from the event before the first of those launches to the one after the last,
 *           per launch: what a batched sample of the twins measures
 *   host    30 launches between two cudaDeviceSynchronize, per launch, host clock
 *
 * Prints one line per figure, in microseconds.
 *
 *   build/bench/cuda/launch_probe_cuda */
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

#define N_LAUNCH 30

__global__ void copy_vec4(const float *in, float *out, uint64_t n, unsigned width)
{
    if (width != 4)
        return;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nv = n / 4;
    if (i < nv)
        ((float4 *)out)[i] = ((const float4 *)in)[i];
}

static bool ok(cudaError_t err, const char *call)
{
    if (err == cudaSuccess)
        return true;
    fprintf(stderr, "launch_probe: %s failed: %s\n", call, cudaGetErrorString(err));
    return false;
}
#define TRY(call)                                                                            \
    do {                                                                                     \
        if (!ok((call), #call))                                                              \
            return false;                                                                    \
    } while (0)

struct launch {
    const float *in;
    float *out;
    uint64_t n;
    unsigned width, blocks; /* blocks == 0: cudaMemcpy */
    cudaError_t operator()() const
    {
        if (blocks == 0)
            return cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, 0);
        copy_vec4<<<blocks, 256>>>(in, out, n, width);
        return cudaGetLastError();
    }
};

static double median_us(float *ms, int n)
{
    std::sort(ms, ms + n);
    return (n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2])) * 1e3;
}

static bool measure(const launch &l, const char *what, double mib)
{
    cudaEvent_t ev[N_LAUNCH + 1];
    float single[N_LAUNCH], kernel[N_LAUNCH], span;
    for (int i = 0; i <= N_LAUNCH; i++)
        TRY(cudaEventCreate(&ev[i]));
    for (int i = 0; i < 20; i++) /* warm-up */
        TRY(l());
    TRY(cudaDeviceSynchronize());
    for (int i = 0; i < N_LAUNCH; i++) {
        TRY(l());
        TRY(cudaEventRecord(ev[0]));
        TRY(l());
        TRY(cudaEventRecord(ev[1]));
        TRY(cudaEventSynchronize(ev[1]));
        TRY(cudaEventElapsedTime(&single[i], ev[0], ev[1]));
    }
    TRY(l());
    TRY(cudaEventRecord(ev[0]));
    for (int i = 0; i < N_LAUNCH; i++) {
        TRY(l());
        TRY(cudaEventRecord(ev[i + 1]));
    }
    TRY(cudaEventSynchronize(ev[N_LAUNCH]));
    for (int i = 0; i < N_LAUNCH; i++)
        TRY(cudaEventElapsedTime(&kernel[i], ev[i], ev[i + 1]));
    TRY(cudaEventElapsedTime(&span, ev[0], ev[N_LAUNCH]));
    TRY(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < N_LAUNCH; i++)
        TRY(l());
    TRY(cudaDeviceSynchronize());
    double host = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    printf("cuda   %7.0f MiB %-12s single  %9.2f\n", mib, what, median_us(single, N_LAUNCH));
    printf("cuda   %7.0f MiB %-12s kernel  %9.2f\n", mib, what, median_us(kernel, N_LAUNCH));
    printf("cuda   %7.0f MiB %-12s span    %9.2f\n", mib, what, span * 1e3 / N_LAUNCH);
    printf("cuda   %7.0f MiB %-12s host    %9.2f\n", mib, what, host / N_LAUNCH);
    fflush(stdout);
    for (int i = 0; i <= N_LAUNCH; i++)
        cudaEventDestroy(ev[i]);
    return true;
}

static bool probe_size(size_t bytes)
{
    float *in = nullptr, *out = nullptr;
    uint64_t n = bytes / sizeof(float);
    double mib = (double)bytes / (1 << 20);
    unsigned blocks = (unsigned)((n / 4 + 255) / 256);
    bool good = ok(cudaMalloc(&in, bytes), "cudaMalloc") && ok(cudaMalloc(&out, bytes), "cudaMalloc") &&
                ok(cudaMemset(in, 0, bytes), "cudaMemset") &&
                measure(launch{in, out, n, 4, blocks}, "float4_copy", mib) &&
                measure(launch{in, out, n, 0, blocks}, "empty_grid", mib) &&
                (bytes != ((size_t)256 << 20) || measure(launch{in, out, n, 0, 1}, "empty_group", mib)) &&
                measure(launch{in, out, n, 0, 0}, "memcpy", mib);
    cudaFree(in);
    cudaFree(out);
    return good;
}

int main()
{
    cudaDeviceProp prop;
    int driver = 0;
    if (!ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties") ||
        !ok(cudaDriverGetVersion(&driver), "cudaDriverGetVersion"))
        return 1;
    printf("# %s, CUDA driver API %d; microseconds\n", prop.name, driver);
    for (size_t mib = 64; mib <= 1024; mib *= 4)
        if (!probe_size(mib << 20))
            return 1;
    return 0;
}
