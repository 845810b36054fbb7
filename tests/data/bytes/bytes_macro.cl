// A kernel the trace build cannot rewrite (tests/test_custom_bytes.c): its bytes stay its
// buffers' sizes.

// out[i] = in[2i], the load inside a macro, which the trace build cannot rewrite: the
// kernel runs unchecked and its bytes are its buffers' sizes.
#define SECOND(p, i) p[2 * (i)]
__kernel void every_other_macro(__global const float *in, __global float *out, const uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        out[i] = SECOND(in, i);
}
