/* unchecked_store.cl - a store far outside its buffer that does not go through STORE, so the
 * checked run cannot see it: on a GPU the launch fails, on a CPU the process that runs it
 * dies; either way the error names the kernel (bench/faults.sh). */
__kernel void wild(__global const float *in, __global float *out, ulong n)
{
    size_t i = get_global_id(0);
    if (i < n)
        out[i + 4000000000000ul] = in[i];
}
