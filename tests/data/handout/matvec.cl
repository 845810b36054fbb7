// y = A x for a dense rows x cols matrix A (row-major): one row per work-item.
__kernel void matvec(__global const float *A, __global const float *x, __global float *y,
                     const int rows, const int cols)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int c = 0; c < cols; c++)
        sum += A[r * cols + c] * x[c];
    y[r] = sum;
}

// One row per work-group of 64: each work-item sums a strided part of the row, then the
// group adds the parts in local memory.
__kernel void matvec_group(__global const float *A, __global const float *x,
                           __global float *y, const int rows, const int cols)
{
    __local float part[64];
    int r = get_group_id(0), t = get_local_id(0);
    float sum = 0.0f;
    for (int c = t; c < cols; c += 64)
        sum += A[r * cols + c] * x[c];
    part[t] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 32; s > 0; s >>= 1) {
        if (t < s)
            part[t] += part[t + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0 && r < rows)
        y[r] = part[0];
}
