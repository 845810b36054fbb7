// 5-point Jacobi stencil on an N x M grid, as a course handout writes it: the boundary is
// copied, every interior point is the mean of itself and its four neighbours.

__kernel void jacobi(__global const float *u, __global float *unew, const int nx, const int ny)
{
    int i = get_global_id(0);
    int j = get_global_id(1);
    if (i >= nx || j >= ny)
        return;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        unew[j * nx + i] = u[j * nx + i];
        return;
    }
    unew[j * nx + i] = 0.2f * (u[j * nx + i] + u[j * nx + i - 1] + u[j * nx + i + 1] +
                               u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
}

// The same, one row per work-item: what the students start from.
__kernel void jacobi_rows(__global const float *u, __global float *unew, const int nx,
                          const int ny)
{
    int j = get_global_id(0);
    if (j >= ny)
        return;
    for (int i = 0; i < nx; i++) {
        if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1)
            unew[j * nx + i] = u[j * nx + i];
        else
            unew[j * nx + i] = 0.2f * (u[j * nx + i] + u[j * nx + i - 1] + u[j * nx + i + 1] +
                                       u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
    }
}

// A mistake seen in handouts: the neighbours above and below swapped for left and right
// twice over, so one neighbour is counted twice and another never.
__kernel void jacobi_wrong(__global const float *u, __global float *unew, const int nx,
                           const int ny)
{
    int i = get_global_id(0);
    int j = get_global_id(1);
    if (i >= nx || j >= ny)
        return;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        unew[j * nx + i] = u[j * nx + i];
        return;
    }
    unew[j * nx + i] = 0.2f * (u[j * nx + i] + u[j * nx + i - 1] + u[j * nx + i - 1] +
                               u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
}
