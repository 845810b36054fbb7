/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   arg h scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4f_hoist_sg(__global const float *in, __global float *out, ulong w, ulong h)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = in[(y0 + 8 * j) * w + x];
    for (uint j = 0; j < 4; j++)
        if (y0 + 8 * j < h)
            out[x * w + y0 + 8 * j] = v[j];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   arg h scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4f_lg_hoist(__global const float *in, __global float *out, ulong w, ulong h)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    float v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y0 + 8 * j < h ? in[(y0 + 8 * j) * w + x] : 0;
    for (uint j = 0; j < 4; j++)
        out[x * w + y0 + 8 * j] = v[j];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in float W*W
 *   arg out out float W*W
 *   arg w scalar ulong W
 *   arg h scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4f_restrict(__global const float *restrict in, __global float *restrict out, ulong w, ulong h)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8) {
        size_t y = y0 + j;
        if (x < w && y < h)
            out[x * w + y] = in[y * w + x];
    }
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   arg h scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4d_hoist_sg(__global const double *in, __global double *out, ulong w, ulong h)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    double v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = in[(y0 + 8 * j) * w + x];
    for (uint j = 0; j < 4; j++)
        if (y0 + 8 * j < h)
            out[x * w + y0 + 8 * j] = v[j];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   arg h scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4d_lg_hoist(__global const double *in, __global double *out, ulong w, ulong h)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    double v[4];
    for (uint j = 0; j < 4; j++)
        v[j] = y0 + 8 * j < h ? in[(y0 + 8 * j) * w + x] : 0;
    for (uint j = 0; j < 4; j++)
        out[x * w + y0 + 8 * j] = v[j];
}

/* clcoalesce:
 *   size W = 16000
 *   arg in in double W*W
 *   arg out out double W*W
 *   arg w scalar ulong W
 *   arg h scalar ulong W
 *   grid W, W / 4
 *   group 32, 8
 */
__kernel void n4d_restrict(__global const double *restrict in, __global double *restrict out, ulong w, ulong h)
{
    size_t x = get_global_id(0), y0 = get_group_id(1) * 32 + get_local_id(1);
    for (uint j = 0; j < 32; j += 8) {
        size_t y = y0 + j;
        if (x < w && y < h)
            out[x * w + y] = in[y * w + x];
    }
}
