/* vector.cu - twin of vector: bytes per thread.  A copy with 1, 2, 4, 8 or 16 floats per
 * thread, ReLU scalar vs float4, and a four-float load from an address that is (not) 16-byte
 * aligned.  Threads 0 .. n/W - 1 move one vector each; thread n/W moves the n % W leftover
 * elements one by one, and every element is checked.
 *
 * CUDA has float2 and float4 but no float8 or float16: those are 32- and 64-byte aligned
 * records of float4s, which is what OpenCL's float8 / float16 become on hardware whose
 * widest load is 16 bytes.  OpenCL's vload4 needs only float alignment, so its twin reads
 * four floats one by one from in + OFFSET; the compiler cannot assume 16-byte alignment of
 * either address, just as it cannot for vload4. */
#include "bench.cuh"

#define VLOAD_SLACK 4 /* input elements past n that the misaligned load may read */

struct __align__(32) vec8 {
    float4 a, b;
};
struct __align__(64) vec16 {
    float4 a, b, c, d;
};

template <int W> struct vec_of;
template <> struct vec_of<1> { typedef float type; };
template <> struct vec_of<2> { typedef float2 type; };
template <> struct vec_of<4> { typedef float4 type; };
template <> struct vec_of<8> { typedef vec8 type; };
template <> struct vec_of<16> { typedef vec16 type; };

/* max(v, 0) per component, as OpenCL's fmax(v, (VT)0). */
__device__ inline float relu(float v) { return fmaxf(v, 0.0f); }
__device__ inline float2 relu(float2 v) { return make_float2(relu(v.x), relu(v.y)); }
__device__ inline float4 relu(float4 v)
{
    return make_float4(relu(v.x), relu(v.y), relu(v.z), relu(v.w));
}
__device__ inline vec8 relu(vec8 v) { return vec8{relu(v.a), relu(v.b)}; }
__device__ inline vec16 relu(vec16 v) { return vec16{relu(v.a), relu(v.b), relu(v.c), relu(v.d)}; }

/* `width` repeats W, so the row reports it; a launch that disagrees writes nothing and fails
 * verification instead of timing the wrong thing. */
template <int W> __global__ void copy_vec(const float *in, float *out, uint64_t n, unsigned width)
{
    typedef typename vec_of<W>::type VT;
    if (width != W)
        return;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nv = n / W;
    if (i < nv)
        ((VT *)out)[i] = ((const VT *)in)[i];
    else if (i == nv) /* the tail: n % W elements, one by one */
        for (size_t j = nv * W; j < n; j++)
            out[j] = in[j];
}

template <int W> __global__ void relu_vec(const float *in, float *out, uint64_t n, unsigned width)
{
    typedef typename vec_of<W>::type VT;
    if (width != W)
        return;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nv = n / W;
    if (i < nv)
        ((VT *)out)[i] = relu(((const VT *)in)[i]);
    else if (i == nv)
        for (size_t j = nv * W; j < n; j++)
            out[j] = relu(in[j]);
}

/* out[4i .. 4i+3] = in[OFFSET + 4i .. OFFSET + 4i + 3]; the stores stay 16-byte aligned. */
template <int OFFSET> __global__ void copy_vload4(const float *in, float *out, uint64_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nv = n / 4;
    const float *p = in + OFFSET;
    if (i < nv)
        ((float4 *)out)[i] = make_float4(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]);
    else if (i == nv)
        for (size_t j = nv * 4; j < n; j++)
            out[j] = in[OFFSET + j];
}

template <int W> static cudaError_t launch_copy(const cu_map_args *a)
{
    copy_vec<W><<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out, a->param);
    return cudaGetLastError();
}

template <int W> static cudaError_t launch_relu(const cu_map_args *a)
{
    relu_vec<W><<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out, a->param);
    return cudaGetLastError();
}

template <int OFFSET> static cudaError_t launch_vload(const cu_map_args *a)
{
    copy_vload4<OFFSET><<<a->grid, a->block>>>((const float *)a->in, (float *)a->out, a->n_out);
    return cudaGetLastError();
}

/* One vector per thread plus one thread for the tail. */
static size_t vec_global(size_t n, unsigned width)
{
    return cu_round_up(n / width + 1, 256);
}

static int run_width(cu_bench *b, enum clc_type t, size_t n, const char *variant,
                     cudaError_t (*launch)(const cu_map_args *), unsigned width,
                     clc_reference_fn reference)
{
    cu_map_spec s = cu_map_elementwise(n, t, 256, variant, launch, reference);
    s.global = vec_global(n, width);
    s.has_param = true;
    s.param = width;
    return cu_bench_map(b, t, &s);
}

static int run_vload(cu_bench *b, enum clc_type t, size_t n, const char *variant,
                     cudaError_t (*launch)(const cu_map_args *), const unsigned *offset)
{
    cu_map_spec s = cu_map_elementwise(n, t, 256, variant, launch, clc_ref_shifted);
    s.n_in = n + VLOAD_SLACK;
    s.global = vec_global(n, 4);
    s.ref_ctx = offset;
    return cu_bench_map(b, t, &s);
}

static int run(cu_bench *b, enum clc_type t)
{
    static const struct {
        const char *variant;
        unsigned width;
        cudaError_t (*launch)(const cu_map_args *);
    } copies[] = {{"float", 1, launch_copy<1>},
                  {"float2", 2, launch_copy<2>},
                  {"float4", 4, launch_copy<4>},
                  {"float8", 8, launch_copy<8>},
                  {"float16", 16, launch_copy<16>}};
    static const unsigned aligned = 0, misaligned = 1;
    size_t n = cu_bench_elems(b, t);
    int rc = CLC_OK;
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
        if (run_width(b, t, n, copies[i].variant, copies[i].launch, copies[i].width,
                      clc_ref_copy) != CLC_OK)
            rc = CLC_ERR;
    if (run_width(b, t, n, "relu", launch_relu<1>, 1, clc_ref_relu) != CLC_OK)
        rc = CLC_ERR;
    if (run_width(b, t, n, "relu_float4", launch_relu<4>, 4, clc_ref_relu) != CLC_OK)
        rc = CLC_ERR;
    /* n shrinks by the slack so both load variants fit in the main array's size */
    size_t nv = n > VLOAD_SLACK ? n - VLOAD_SLACK : 0;
    if (run_vload(b, t, nv, "float4_aligned", launch_vload<0>, &aligned) != CLC_OK)
        rc = CLC_ERR;
    if (run_vload(b, t, nv, "float4_misaligned", launch_vload<1>, &misaligned) != CLC_OK)
        rc = CLC_ERR;
    return rc;
}

extern const struct cu_case cu_case_vector = {
    "vector",
    "bytes per thread: copy with float .. float16, ReLU scalar vs float4, aligned vs "
    "misaligned four-float load",
    "float, float2, float4, float8, float16 (copy, param = width; float8 / float16 are "
    "aligned records of float4s); relu, relu_float4 (param = width); float4_aligned, "
    "float4_misaligned (four floats from in + 0 / in + 1, as vload4; n = size / 4 - 4)",
    "2 x n x 4 (each element read once and written once; the vector width changes nothing "
    "in the count)",
    "float4 or wider reaches the copy ceiling where float does not: fewer, wider requests "
    "keep more bytes in flight; float16 gains nothing over float4 and may lose (register "
    "pressure); the misaligned load costs a few percent",
    CLC_FLOAT,
    1,
    run,
};
