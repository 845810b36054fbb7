// Kernels whose distinct bytes read and written follow from their definition, for the
// bytes `custom` counts from the trace (tests/test_custom_bytes.c).  Each has a reference of
// the same signature written another way.

// out[i] = in[2i]: reads every other element of its input (half of it), writes all of out.
__kernel void every_other(__global const float *in, __global float *out, const uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        out[i] = in[2 * i];
}

__kernel void every_other_ref(__global const float *in, __global float *out, const uint n)
{
    uint i = get_global_id(0);
    if (i == 0)
        for (uint k = 0; k < n; k++)
            out[k] = in[2 * k];
}

// A 5-point stencil over w x h points of an input with a halo of one on each side
// ((w + 2) x (h + 2)): every input element but the four corners is read, by up to five
// work-items; out is written once.
__kernel void halo5(__global const float *in, __global float *out, const int w, const int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    int W = w + 2, c = (y + 1) * W + x + 1;
    out[y * w + x] = in[c] + in[c - 1] + in[c + 1] + in[c - W] + in[c + W];
}

__kernel void halo5_ref(__global const float *in, __global float *out, const int w,
                        const int h)
{
    int y = get_global_id(0);
    if (y >= h)
        return;
    for (int x = 0; x < w; x++) {
        int W = w + 2, c = (y + 1) * W + x + 1;
        out[y * w + x] = in[c] + in[c - 1] + in[c + 1] + in[c - W] + in[c + W];
    }
}

// In place over the first n of its 2n elements: each read and written once, the second
// half untouched.
__kernel void bump_front(__global float *a, const uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        a[i] += 1.0f;
}

__kernel void bump_front_ref(__global float *a, const uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        a[i] = a[i] + 1.0f;
}
