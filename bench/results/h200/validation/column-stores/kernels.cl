/* kernels.cl - column stores beside their loads: what a transpose's stores (each lane's
 * element in a line of its own, 32 lines a request, the line's other elements from the
 * work-groups a grid row on) cost with and without a load before each, by the bytes a lane
 * stores, the bytes it loads and where the loads come from.  Run one at a time by
 * `clcoalesce custom --kernel-file kernels.cl --kernel NAME` (commands.txt); each kernel's
 * description gives its sizes and launch.  Plain OpenCL C: measured, not traced, so no
 * prediction and no reference (the rows are `unchecked`).  Work-groups of 32 x 8: a warp is
 * 32 columns of one row of in.
 *   nf, nd         a naive transpose, float and double, an element a work-item
 *   so_f, so_d     its stores alone (a value from the indices, no load)
 *   win_f, win_d   its stores, each after a load from a window of 8 rows the L2 holds
 *   d2f, f2d       double loads with float stores, float loads with double stores
 *   pair_f, pair_f2, pair_so   two rows a work-item: two scalar stores, one vstore2 (two
 *                  4-byte stores where only 4-byte alignment is known), the vstore2 alone
 *   n4f, n4d       four rows a work-item, each load and its store in turn, guarded (the
 *                  suite's naive transpose); _nog unguarded; _hoist all four loads first
 *   n1f_pow2, n1d_pow2   nf and nd at a side of 16384 (pitch a power of two)
 *   q2f, q2d       a warp of 16 columns x 2 rows: 16 lines a request, pieces of two lanes
 *   q2f_so, q2d_so its stores alone */
/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void nf(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void nd(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W / 2
 *   group 32, 8
 */
__kernel void pair_f2(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = 2 * get_global_id(1);
    float2 v = (float2)(in[y * w + x], in[(y + 1) * w + x]);
    vstore2(v, 0, out + x * w + y);
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void so_f(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = (float)(x ^ y);
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void so_d(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = (double)(x ^ y);
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void win_f(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[(y & 7) * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void win_d(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[(y & 7) * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void d2f(__global const double *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = (float)in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void f2d(__global const float *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W / 2
 *   group 32, 8
 */
__kernel void pair_so(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = 2 * get_global_id(1);
    vstore2((float2)((float)x, (float)y), 0, out + x * w + y);
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W / 2
 *   group 32, 8
 */
__kernel void pair_f(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = 2 * get_global_id(1);
    out[x * w + y] = in[y * w + x];
    out[x * w + y + 1] = in[(y + 1) * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4f(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8) {
        size_t y = y0 + j;
        if (x < w && y < w)
            out[x * w + y] = in[y * w + x];
    }
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4f_nog(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8) {
        size_t y = y0 + j;
        out[x * w + y] = in[y * w + x];
    }
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4f_hoist(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = in[(y0 + 8 * j) * w + x];
    for (uint j = 0; j < 4; j++)
        out[x * w + y0 + 8 * j] = v[j];
}

/* clcoalesce:
 *   size W = 16384
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void n1f_pow2(__global const float *in, __global float *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W * 2, W / 2
 *   group 32, 8
 */
__kernel void q2f(__global const float *in, __global float *out, ulong w)
{
    size_t l = get_local_id(0), x = get_group_id(0) * 16 + l % 16,
           y = get_group_id(1) * 16 + 2 * get_local_id(1) + l / 16;
    if (x < w && y < w)
        out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   grid W * 2, W / 2
 *   group 32, 8
 */
__kernel void q2f_so(__global const float *in, __global float *out, ulong w)
{
    size_t l = get_local_id(0), x = get_group_id(0) * 16 + l % 16,
           y = get_group_id(1) * 16 + 2 * get_local_id(1) + l / 16;
    if (x < w && y < w)
        out[x * w + y] = (float)(x ^ y);
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4d(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8) {
        size_t y = y0 + j;
        if (x < w && y < w)
            out[x * w + y] = in[y * w + x];
    }
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4d_nog(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8) {
        size_t y = y0 + j;
        out[x * w + y] = in[y * w + x];
    }
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4d_hoist(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    double v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = in[(y0 + 8 * j) * w + x];
    for (uint j = 0; j < 4; j++)
        out[x * w + y0 + 8 * j] = v[j];
}

/* clcoalesce:
 *   size W = 16384
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W, W
 *   group 32, 8
 */
__kernel void n1d_pow2(__global const double *in, __global double *out, ulong w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W * 2, W / 2
 *   group 32, 8
 */
__kernel void q2d(__global const double *in, __global double *out, ulong w)
{
    size_t l = get_local_id(0), x = get_group_id(0) * 16 + l % 16,
           y = get_group_id(1) * 16 + 2 * get_local_id(1) + l / 16;
    if (x < w && y < w)
        out[x * w + y] = in[y * w + x];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   grid W * 2, W / 2
 *   group 32, 8
 */
__kernel void q2d_so(__global const double *in, __global double *out, ulong w)
{
    size_t l = get_local_id(0), x = get_group_id(0) * 16 + l % 16,
           y = get_group_id(1) * 16 + 2 * get_local_id(1) + l / 16;
    if (x < w && y < w)
        out[x * w + y] = (double)(x ^ y);
}
