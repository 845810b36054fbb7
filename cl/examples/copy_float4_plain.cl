/* copy_float4_plain.cl - copy_float4.cl as a course handout writes it: plain indexing, no
 * CLC_TRACE_ARGS, CLC_TRACE_BEGIN or LOAD / STORE.  `clcoalesce custom` traces it as written
 * (docs/custom-as-written.md):
 *
 *   clcoalesce custom --kernel-file cl/examples/copy_float4_plain.cl --kernel copy_float4 \
 *       --pattern copy --items-per-thread 4
 *
 * Each work-item moves one float4; the work-item just past the last whole float4 copies the
 * 0 to 3 floats left over, one by one. */
__kernel void copy_float4(__global const float *in, __global float *out, ulong n)
{
    size_t i = get_global_id(0);
    size_t n4 = n / 4;
    __global const float4 *in4 = (__global const float4 *)in;
    __global float4 *out4 = (__global float4 *)out;
    if (i < n4) {
        out4[i] = in4[i];
    } else if (i == n4) {
        for (size_t j = 4 * n4; j < n; j++)
            out[j] = in[j];
    }
}
