/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void c4_256(__global const float *in, __global float *out, ulong n)
{
    __local float t[1024 + 32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n) t[e + (e) / 32] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = t[e + (e) / 32] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 128
 */
__kernel void c4_128(__global const float *in, __global float *out, ulong n)
{
    __local float t[512 + 16];
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 128 * k;
        if (base + e < n) t[e + (e) / 32] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = t[e + (e) / 32] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void c4_256_nost(__global const float *in, __global float *out, ulong n)
{
    __local float t[1024 + 32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n) t[e + (e) / 32] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        out[base + e] = t[e + (e) / 32] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void c4_256_nold(__global const float *in, __global float *out, ulong n)
{
    __local float t[1024 + 32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        t[e + (e) / 32] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = t[e + (e) / 32] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void c4_256_noscale(__global const float *in, __global float *out, ulong n)
{
    __local float t[1024 + 32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n) t[e + (e) / 32] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = t[e + (e) / 32];
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void c4_256_nopad(__global const float *in, __global float *out, ulong n)
{
    __local float t[1024 + 32];
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        if (base + e < n) t[e] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = t[e] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 128
 */
__kernel void c4_128_nold(__global const float *in, __global float *out, ulong n)
{
    __local float t[512 + 16];
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 128 * k;
        t[e + (e) / 32] = in[base + e];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = t[e + (e) / 32] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void r4_256(__global const float *in, __global float *out, ulong n)
{
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    float v[4];
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        v[k] = base + e < n ? in[base + e] : 0;
    }
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = v[k] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 128
 */
__kernel void r4_128(__global const float *in, __global float *out, ulong n)
{
    size_t l = get_local_id(0), base = get_group_id(0) * 512;
    float v[4];
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 128 * k;
        v[k] = base + e < n ? in[base + e] : 0;
    }
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        if (base + e < n) out[base + e] = v[k] * 2;
    }
}

/* clcoalesce:
 *   size N = 512M
 *   arg in in float N
 *   arg out out float N
 *   arg n scalar ulong N
 *   grid N / 4
 *   group 256
 */
__kernel void r4_256_nost(__global const float *in, __global float *out, ulong n)
{
    size_t l = get_local_id(0), base = get_group_id(0) * 1024;
    float v[4];
    for (uint k = 0; k < 4; k++) {
        size_t e = l + 256 * k;
        v[k] = base + e < n ? in[base + e] : 0;
    }
    for (uint k = 0; k < 4; k++) {
        size_t e = 4 * l + k;
        out[base + e] = v[k] * 2;
    }
}
