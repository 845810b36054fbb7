/* group_offset_probe.cu - what NVIDIA's OpenCL adds to a kernel that calls get_group_id:
 * the group ids come as %ctaid plus an offset read from constant memory (%envreg0/1 in the
 * PTX: two LDC and two adds before the first address).  Times the CUDA twin of
 * transpose/tiled_1elem (float, 8192 x 8192) as it is and with such an offset, passed as
 * kernel parameters that are always 0, so only the instructions differ.  Prints the median
 * of 20 event-timed launches of each, alternating, and their ratio.
 *
 *   build/bench/cuda/group_offset_probe */
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#define TILE 32
static const uint64_t W = 8192, H = 8192;

/* as bench/cuda/cases/transpose.cu; with Offset, the group ids are offset by gx0, gy0 (0
 * here) as the OpenCL driver computes them */
template <bool Offset>
__global__ void tiled_1elem(const float *in, float *out, uint64_t width, uint64_t height, int gx0,
                            int gy0)
{
    __shared__ float tile[TILE][TILE + 1];
    unsigned lx = threadIdx.x, ly = threadIdx.y;
    size_t gx = Offset ? (size_t)(int)(blockIdx.x + gx0) : blockIdx.x;
    size_t gy = Offset ? (size_t)(int)(blockIdx.y + gy0) : blockIdx.y;
    size_t bx = gx * TILE, by = gy * TILE;
    size_t x = bx + lx, y = by + ly;
    float v = 0;
    if ((x < width) & (y < height))
        v = in[y * width + x];
    tile[ly][lx] = v;
    __syncthreads();
    size_t ox = by + lx, oy = bx + ly;
    float w = tile[lx][ly];
    if ((ox < height) & (oy < width))
        out[oy * height + ox] = w;
}

int main(int argc, char **argv)
{
    int zero = argc > 100; /* 0, unknown to the compiler */
    float *in, *out;
    cudaEvent_t start, stop;
    if (cudaMalloc(&in, W * H * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&out, W * H * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "group_offset_probe: cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(in, 0, W * H * sizeof(float));
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    dim3 grid(W / TILE, H / TILE), block(TILE, TILE);
    float ms[2][20];
    for (int r = -2; r < 20; r++) { /* two rounds of warm-up */
        for (int k = 0; k < 2; k++) {
            float f;
            /* one untimed launch in front, as cu_time */
            tiled_1elem<false><<<grid, block>>>(in, out, W, H, zero, zero);
            cudaEventRecord(start);
            if (k == 0)
                tiled_1elem<false><<<grid, block>>>(in, out, W, H, zero, zero);
            else
                tiled_1elem<true><<<grid, block>>>(in, out, W, H, zero, zero);
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            cudaEventElapsedTime(&f, start, stop);
            if (r >= 0)
                ms[k][r] = f;
        }
    }
    if (cudaGetLastError() != cudaSuccess) {
        fprintf(stderr, "group_offset_probe: a launch failed\n");
        return 1;
    }
    double gbps[2];
    for (int k = 0; k < 2; k++) {
        std::sort(ms[k], ms[k] + 20);
        gbps[k] = 2.0 * W * H * sizeof(float) / ms[k][10] / 1e6;
    }
    printf("tiled_1elem float %llu x %llu, median of 20:\n", (unsigned long long)W,
           (unsigned long long)H);
    printf("  as in CUDA                 %.4f ms  %.1f GB/s\n", ms[0][10], gbps[0]);
    printf("  with OpenCL's group offset %.4f ms  %.1f GB/s\n", ms[1][10], gbps[1]);
    printf("  ratio (as in CUDA / with offset) %.3f\n", gbps[0] / gbps[1]);
    return 0;
}
