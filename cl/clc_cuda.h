/* clc_cuda.h - the CUDA side of the kernels: pre-included so that a kernel file in cl/, plain
 * OpenCL C 1.2, also compiles as CUDA C++ through NVRTC, and one kernel source runs through
 * both NVIDIA compilers.
 *
 * The host compiles <file>.cl as one NVRTC source string:
 *
 *     #include "clc_cuda.h"
 *     #define T float            one line per -D of the OpenCL build: -DX=Y gives
 *     #define W 4                "#define X Y", -DX gives "#define X 1"
 *     extern "C" {
 *     #line 1 "<file>.cl"
 *     <the file's text>
 *     }
 *
 * with the options
 *
 *     -I <kernel dir> --device-as-default-execution-space -std=c++17
 *     --gpu-architecture=compute_90      (compute_XY of the device)
 *
 * The defines go in the text, after this header, and not in the options: NVRTC compiles its
 * built-in header under the options' macros, and it names template parameters T, so
 * -DT=float breaks it.  extern "C" keeps the kernels' names unmangled, so the host looks
 * them up by their OpenCL names; --device-as-default-execution-space makes the files' helper
 * functions __device__.  This header defines CLC_CUDA (1); -DCLC_CUDA=1 may be passed too.
 *
 * What it maps: __kernel, the address-space qualifiers, restrict, reqd_work_group_size (a
 * launch bound of X * Y * Z), uchar/ushort/uint/ulong, the work-item functions, barrier and
 * the fences, the vector types charN ... doubleN (N = 2, 4, 8, 16) with .x .y .z .w and
 * .s0 ... .sF, elementwise + - * / % & | ^ with compound assignments and unary - ~, fmax /
 * fmin / max / min, vloadN / vstoreN, vload_halfN / vstore_halfN (half as storage), every
 * atomic of OpenCL C 1.2 and its atom_ spelling (64-bit too), and what the trace build of
 * a kernel rewritten without the macros (cl/clc_trace.h) needs: clc_unref for decltype.
 *
 * Limitations (compile errors, not wrong results, unless said otherwise):
 *  - __local declares only arrays (or scalars) inside a kernel; __local pointer parameters
 *    and __local pointer variables are not supported (__shared__ cannot qualify those).
 *  - A vector converts only from the literal 0: (float4)0.  The OpenCL vector literal
 *    (float4)(a, b, c, d) is a cast of a comma expression in C++, i.e. (float4)(d): it is
 *    refused, and so is (float4)(x), which looks the same to C++.  Set the components one by
 *    one, or write (float4)0 + x.
 *  - No swizzles (.xy, .lo, .hi, .even, .odd), vector comparisons, shifts, convert_* or as_*,
 *    nor the atomic_ functions of OpenCL C 2.0; get_work_dim is missing (CUDA does not
 *    record it).
 *  - Images: only __read_only image2d_t of one float channel, read with read_imagef at int2
 *    coordinates (.x of the result); the sampler is ignored: the host's texture object
 *    holds what OpenCL's sampler says (unnormalised coordinates, nearest, 0 outside).
 *  - Only the underscored spellings: the bare kernel, global, local, constant are not mapped
 *    (CUDA's own __global__ and __constant__ macros expand to the bare words).
 *  - __constant is plain const: the data stays in global memory.
 *  - A file's own #pragma OPENCL lines draw NVRTC warning 161 (unknown pragma), nothing more.
 *  - Unsuffixed floating literals (1.0) are double, as in OpenCL with fp64; a kernel without
 *    reqd_work_group_size may run with up to 1024 work-items (NVIDIA's OpenCL allows 256).
 *  - The work-item functions assume no global offset (CUDA has none). */
#ifndef CLC_CUDA_H
#define CLC_CUDA_H

#ifndef CLC_CUDA
#define CLC_CUDA 1
#endif

/* Every helper here: always inlined, so that vector operations fold into registers. */
#define CLC_INLINE __device__ __forceinline__

/* ------------------------------------------------------------------ qualifiers and attributes */

#define __kernel __global__
#define __global
#define __private
#define __local __shared__
#define __constant const
#define restrict __restrict__

/* Inside __attribute__((...)), so a kernel's declared shape becomes CUDA's
 * __launch_bounds__ (launch_bounds(n) underneath), in front of or behind __kernel. */
#define reqd_work_group_size(x, y, z) launch_bounds((x) * (y) * (z))
#define work_group_size_hint(x, y, z)
#define vec_type_hint(t)

/* ------------------------------------------------------------------ scalar types */

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong; /* = size_t; the host passes cl_ulong (8 bytes) */

/* OpenCL's long and ulong are 64-bit: true of CUDA on 64-bit Linux, not on Windows. */
static_assert(sizeof(long) == 8 && sizeof(ulong) == 8 && sizeof(size_t) == 8,
              "clc_cuda.h needs 64-bit long and size_t");

/* ------------------------------------------------------------------ work-items */

/* OpenCL's answers for a dimension past the third: 0 for ids, 1 for sizes.  Global ids
 * and sizes are formed in 64 bits, as size_t is in OpenCL. */
static CLC_INLINE size_t get_local_id(uint d)
{
    return d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : d == 2 ? threadIdx.z : 0;
}

static CLC_INLINE size_t get_group_id(uint d)
{
    return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : d == 2 ? blockIdx.z : 0;
}

static CLC_INLINE size_t get_local_size(uint d)
{
    return d == 0 ? blockDim.x : d == 1 ? blockDim.y : d == 2 ? blockDim.z : 1;
}

static CLC_INLINE size_t get_num_groups(uint d)
{
    return d == 0 ? gridDim.x : d == 1 ? gridDim.y : d == 2 ? gridDim.z : 1;
}

static CLC_INLINE size_t get_global_id(uint d)
{
    return get_group_id(d) * get_local_size(d) + get_local_id(d);
}

static CLC_INLINE size_t get_global_size(uint d)
{
    return get_num_groups(d) * get_local_size(d);
}

static CLC_INLINE size_t get_global_offset(uint d)
{
    return 0;
}

/* ------------------------------------------------------------------ synchronisation */

#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2

/* __syncthreads() also orders global memory within the block, so it serves both fences. */
static CLC_INLINE void barrier(uint flags)
{
    __syncthreads();
}

/* The atomics of OpenCL C 1.2, each returning the old value as OpenCL's do: atomic_add,
 * _sub, _xchg, _inc, _dec, _cmpxchg, _min, _max, _and, _or, _xor on 32-bit int and uint
 * (atomic_xchg on float too), and their atom_ spellings, which cl_khr_int64_base_atomics
 * and cl_khr_int64_extended_atomics also give on 64-bit long and ulong.  Each maps onto
 * CUDA's atomic of the same width (C: the CUDA type; 64-bit add, sub and the bitwise ones
 * on unsigned long long, whose two's complement results are the signed ones too). */
#define CLC_ATOMIC(name, T, C, call)                                                           \
    static CLC_INLINE T atomic_##name(volatile T *p, T v) { return (T)call((C *)p, (C)v); }    \
    static CLC_INLINE T atom_##name(volatile T *p, T v) { return (T)call((C *)p, (C)v); }
#define CLC_ATOMIC_OF(T, C, C64)                                                               \
    CLC_ATOMIC(add, T, C64, atomicAdd)                                                         \
    CLC_ATOMIC(sub, T, C64, clc_atomic_sub)                                                    \
    CLC_ATOMIC(xchg, T, C64, atomicExch)                                                       \
    CLC_ATOMIC(min, T, C, atomicMin)                                                           \
    CLC_ATOMIC(max, T, C, atomicMax)                                                           \
    CLC_ATOMIC(and, T, C64, atomicAnd)                                                         \
    CLC_ATOMIC(or, T, C64, atomicOr)                                                           \
    CLC_ATOMIC(xor, T, C64, atomicXor)                                                         \
    static CLC_INLINE T atomic_inc(volatile T *p) { return atomic_add(p, (T)1); }              \
    static CLC_INLINE T atom_inc(volatile T *p) { return atomic_add(p, (T)1); }                \
    static CLC_INLINE T atomic_dec(volatile T *p) { return atomic_sub(p, (T)1); }              \
    static CLC_INLINE T atom_dec(volatile T *p) { return atomic_sub(p, (T)1); }                \
    static CLC_INLINE T atomic_cmpxchg(volatile T *p, T cmp, T v)                              \
    {                                                                                          \
        return (T)atomicCAS((C64 *)p, (C64)cmp, (C64)v);                                       \
    }                                                                                          \
    static CLC_INLINE T atom_cmpxchg(volatile T *p, T cmp, T v) { return atomic_cmpxchg(p, cmp, v); }

/* CUDA has atomicSub for 32 bits only: 64 bits add the negation. */
static CLC_INLINE int clc_atomic_sub(int *p, int v) { return atomicSub(p, v); }
static CLC_INLINE unsigned clc_atomic_sub(unsigned *p, unsigned v) { return atomicSub(p, v); }
static CLC_INLINE unsigned long long clc_atomic_sub(unsigned long long *p, unsigned long long v)
{
    return atomicAdd(p, 0ull - v);
}

CLC_ATOMIC_OF(int, int, int)
CLC_ATOMIC_OF(uint, unsigned, unsigned)
CLC_ATOMIC_OF(long, long long, unsigned long long)
CLC_ATOMIC_OF(ulong, unsigned long long, unsigned long long)
CLC_ATOMIC(xchg, float, float, atomicExch)

/* OpenCL's fences order one work-item's accesses as its work-group sees them. */
static CLC_INLINE void mem_fence(uint flags)
{
    __threadfence_block();
}

static CLC_INLINE void read_mem_fence(uint flags)
{
    __threadfence_block();
}

static CLC_INLINE void write_mem_fence(uint flags)
{
    __threadfence_block();
}

/* ------------------------------------------------------------------ vector types */

/* clc_vec<E, N> is OpenCL's EN: size and alignment N * sizeof(E).  The component names
 * share storage with clc_v, an array in a struct.  Copies go through clc_v and not through
 * the union: a union is copied as integers (ld.global.v4.u32, as CUDA's own float4 is),
 * its array member as typed elements (ld.global.v4.f32, as NVIDIA's OpenCL loads a
 * float4).  Either is one 16-byte access; the typed one keeps the PTX of the two compilers
 * alike.  The copy is therefore user-provided, while the default constructor stays trivial
 * so that __local arrays of vectors are allowed. */
template <class E, int N> struct alignas(N * sizeof(E)) clc_arr {
    E a[N];
};

template <class E, int N> struct clc_vec_data;

template <class E> struct alignas(2 * sizeof(E)) clc_vec_data<E, 2> {
    union {
        clc_arr<E, 2> clc_v;
        struct { E x, y; };
        struct { E s0, s1; };
    };
};

/* Three components take the room and alignment of four, as OpenCL's do (vload3 and vstore3
 * move three). */
template <class E> struct alignas(4 * sizeof(E)) clc_vec_data<E, 3> {
    union {
        clc_arr<E, 4> clc_v;
        struct { E x, y, z; };
        struct { E s0, s1, s2; };
    };
};

template <class E> struct alignas(4 * sizeof(E)) clc_vec_data<E, 4> {
    union {
        clc_arr<E, 4> clc_v;
        struct { E x, y, z, w; };
        struct { E s0, s1, s2, s3; };
    };
};

template <class E> struct alignas(8 * sizeof(E)) clc_vec_data<E, 8> {
    union {
        clc_arr<E, 8> clc_v;
        struct { E x, y, z, w; };
        struct { E s0, s1, s2, s3, s4, s5, s6, s7; };
    };
};

template <class E> struct alignas(16 * sizeof(E)) clc_vec_data<E, 16> {
    union {
        clc_arr<E, 16> clc_v;
        struct { E x, y, z, w; };
        struct { E s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, sA, sB, sC, sD, sE, sF; };
        struct { E clc_s0_9[10], sa, sb, sc, sd, se, sf; };
    };
};

/* Takes only the literal 0 (a null pointer constant): (float4)0. */
struct clc_zero {
};

/* Takes anything else, and refuses it: (float4)(a, b, c, d) reaches C++ as (float4)(d).
 * A standard conversion beats this user-defined one, so the literal 0 never lands here. */
struct clc_not_zero {
    template <class S> __device__ clc_not_zero(S)
    {
        static_assert(sizeof(S) == 0,
                      "clc_cuda.h: a vector converts only from the literal 0, as in (float4)0. "
                      "C++ reads the OpenCL vector literal (float4)(a, b, c, d) as (float4)(d), "
                      "and (float4)(x) looks the same to it: set the components one by one, "
                      "or write (float4)0 + x");
    }
};

template <class E, int N> struct clc_vec : clc_vec_data<E, N> {
    clc_vec() = default;
    CLC_INLINE clc_vec(const clc_vec &o) { this->clc_v = o.clc_v; }
    CLC_INLINE clc_vec &operator=(const clc_vec &o)
    {
        this->clc_v = o.clc_v;
        return *this;
    }
    CLC_INLINE explicit clc_vec(int clc_zero::*)
    {
        for (int i = 0; i < N; i++)
            this->clc_v.a[i] = E(0);
    }
    __device__ explicit clc_vec(clc_not_zero); /* never defined: never gets that far */
};

/* T without a reference: what cl/clc_trace.h's decltype gives of an lvalue pointer. */
template <class T> struct clc_unref {
    typedef T type;
};
template <class T> struct clc_unref<T &> {
    typedef T type;
};

/* The scalar operand of a mixed operation: not deduced, so 2 in v * 2 converts to E. */
template <class S> struct clc_id {
    typedef S type;
};

#define CLC_VEC_BINARY(op)                                                                     \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> operator op(clc_vec<E, N> a, const clc_vec<E, N> &b)              \
    {                                                                                          \
        for (int i = 0; i < N; i++)                                                            \
            a.clc_v.a[i] = a.clc_v.a[i] op b.clc_v.a[i];                                       \
        return a;                                                                              \
    }                                                                                          \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> operator op(clc_vec<E, N> a, typename clc_id<E>::type b)          \
    {                                                                                          \
        for (int i = 0; i < N; i++)                                                            \
            a.clc_v.a[i] = a.clc_v.a[i] op b;                                                  \
        return a;                                                                              \
    }                                                                                          \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> operator op(typename clc_id<E>::type a, clc_vec<E, N> b)          \
    {                                                                                          \
        for (int i = 0; i < N; i++)                                                            \
            b.clc_v.a[i] = a op b.clc_v.a[i];                                                  \
        return b;                                                                              \
    }                                                                                          \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> &operator op##=(clc_vec<E, N> &a, const clc_vec<E, N> &b)         \
    {                                                                                          \
        return a = a op b;                                                                     \
    }                                                                                          \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> &operator op##=(clc_vec<E, N> &a, typename clc_id<E>::type b)     \
    {                                                                                          \
        return a = a op b;                                                                     \
    }

CLC_VEC_BINARY(+)
CLC_VEC_BINARY(-)
CLC_VEC_BINARY(*)
CLC_VEC_BINARY(/)
CLC_VEC_BINARY(%)
CLC_VEC_BINARY(&)
CLC_VEC_BINARY(|)
CLC_VEC_BINARY(^)

#define CLC_VEC_UNARY(op)                                                                      \
    template <class E, int N> CLC_INLINE clc_vec<E, N> operator op(clc_vec<E, N> a)            \
    {                                                                                          \
        for (int i = 0; i < N; i++)                                                            \
            a.clc_v.a[i] = op a.clc_v.a[i];                                                    \
        return a;                                                                              \
    }

CLC_VEC_UNARY(+)
CLC_VEC_UNARY(-)
CLC_VEC_UNARY(~)

/* fmax / fmin (float and double elements) and max / min, vector with vector or with a
 * scalar.  max and min follow OpenCL's definition: y if x < y (y < x), else x. */
static CLC_INLINE float clc_fmax(float a, float b) { return fmaxf(a, b); }
static CLC_INLINE double clc_fmax(double a, double b) { return ::fmax(a, b); }
static CLC_INLINE float clc_fmin(float a, float b) { return fminf(a, b); }
static CLC_INLINE double clc_fmin(double a, double b) { return ::fmin(a, b); }

#define CLC_VEC_FUNCTION(name, expr)                                                           \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> name(clc_vec<E, N> x, const clc_vec<E, N> &y)                     \
    {                                                                                          \
        for (int i = 0; i < N; i++) {                                                          \
            E a = x.clc_v.a[i], b = y.clc_v.a[i];                                              \
            x.clc_v.a[i] = (expr);                                                             \
        }                                                                                      \
        return x;                                                                              \
    }                                                                                          \
    template <class E, int N>                                                                  \
    CLC_INLINE clc_vec<E, N> name(clc_vec<E, N> x, typename clc_id<E>::type y)                 \
    {                                                                                          \
        for (int i = 0; i < N; i++) {                                                          \
            E a = x.clc_v.a[i], b = y;                                                         \
            x.clc_v.a[i] = (expr);                                                             \
        }                                                                                      \
        return x;                                                                              \
    }

CLC_VEC_FUNCTION(fmax, clc_fmax(a, b))
CLC_VEC_FUNCTION(fmin, clc_fmin(a, b))
CLC_VEC_FUNCTION(max, a < b ? b : a)
CLC_VEC_FUNCTION(min, b < a ? b : a)

/* vloadN / vstoreN: N elements at p + N * i.  OpenCL asks p for element alignment only, so
 * the elements are moved one by one, as NVIDIA's OpenCL must when it cannot prove more. */
#define CLC_VLOAD_VSTORE(n)                                                                    \
    template <class E> CLC_INLINE clc_vec<E, n> vload##n(size_t i, const E *p)                 \
    {                                                                                          \
        clc_vec<E, n> v;                                                                       \
        for (int k = 0; k < n; k++)                                                            \
            v.clc_v.a[k] = p[i * n + k];                                                       \
        return v;                                                                              \
    }                                                                                          \
    template <class E>                                                                         \
    CLC_INLINE void vstore##n(const clc_vec<E, n> &v, size_t i, E *p)                          \
    {                                                                                          \
        for (int k = 0; k < n; k++)                                                            \
            p[i * n + k] = v.clc_v.a[k];                                                       \
    }

CLC_VLOAD_VSTORE(2)
CLC_VLOAD_VSTORE(3)
CLC_VLOAD_VSTORE(4)
CLC_VLOAD_VSTORE(8)
CLC_VLOAD_VSTORE(16)

/* The OpenCL names.  NVRTC declares its own float4 etc. (no .s0, no operators), hence
 * macros to our types rather than typedefs. */
#define CLC_VEC_TYPEDEFS(e)                                                                    \
    typedef clc_vec<e, 2> clc_##e##2;                                                          \
    typedef clc_vec<e, 3> clc_##e##3;                                                          \
    typedef clc_vec<e, 4> clc_##e##4;                                                          \
    typedef clc_vec<e, 8> clc_##e##8;                                                          \
    typedef clc_vec<e, 16> clc_##e##16;

CLC_VEC_TYPEDEFS(char)
CLC_VEC_TYPEDEFS(uchar)
CLC_VEC_TYPEDEFS(short)
CLC_VEC_TYPEDEFS(ushort)
CLC_VEC_TYPEDEFS(int)
CLC_VEC_TYPEDEFS(uint)
CLC_VEC_TYPEDEFS(long)
CLC_VEC_TYPEDEFS(ulong)
CLC_VEC_TYPEDEFS(float)
CLC_VEC_TYPEDEFS(double)

#define char2 clc_char2
#define char4 clc_char4
#define char8 clc_char8
#define char16 clc_char16
#define uchar2 clc_uchar2
#define uchar4 clc_uchar4
#define uchar8 clc_uchar8
#define uchar16 clc_uchar16
#define short2 clc_short2
#define short4 clc_short4
#define short8 clc_short8
#define short16 clc_short16
#define ushort2 clc_ushort2
#define ushort4 clc_ushort4
#define ushort8 clc_ushort8
#define ushort16 clc_ushort16
#define int2 clc_int2
#define int4 clc_int4
#define int8 clc_int8
#define int16 clc_int16
#define uint2 clc_uint2
#define uint4 clc_uint4
#define uint8 clc_uint8
#define uint16 clc_uint16
#define long2 clc_long2
#define long4 clc_long4
#define long8 clc_long8
#define long16 clc_long16
#define ulong2 clc_ulong2
#define ulong4 clc_ulong4
#define ulong8 clc_ulong8
#define ulong16 clc_ulong16
#define float2 clc_float2
#define float3 clc_float3
#define int3 clc_int3
#define uint3 clc_uint3
#define double3 clc_double3
#define float4 clc_float4
#define float8 clc_float8
#define float16 clc_float16
#define double2 clc_double2
#define double4 clc_double4
#define double8 clc_double8
#define double16 clc_double16

/* ------------------------------------------------------------------ halves
 * OpenCL C 1.2 stores half without cl_khr_fp16: a half * is read and written only through
 * vload_half / vstore_half, which convert to and from float (and double).  Here half is 16
 * bits of storage, converted by the PTX instructions themselves (no CUDA header needed).
 * vload_halfN / vstore_halfN move N halves at p + N * i; the vloada_ / vstorea_ forms at
 * p + 4 * i for N = 3; vstore rounds to nearest even, or as the suffix says (_rte, _rtz,
 * _rtp, _rtn), as OpenCL's do. */
struct clc_half {
    unsigned short clc_bits;
};
#define half clc_half

static CLC_INLINE float clc_from_half(clc_half h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.clc_bits));
    return f;
}

/* clc_to_half<suffix>(x): float or double x rounded to half as vstore_half<suffix> does. */
#define CLC_TO_HALF(suffix, rnd)                                                               \
    static CLC_INLINE clc_half clc_to_half##suffix(float x)                                    \
    {                                                                                          \
        clc_half h;                                                                            \
        asm("cvt." rnd ".f16.f32 %0, %1;" : "=h"(h.clc_bits) : "f"(x));                        \
        return h;                                                                              \
    }                                                                                          \
    static CLC_INLINE clc_half clc_to_half##suffix(double x)                                   \
    {                                                                                          \
        clc_half h;                                                                            \
        asm("cvt." rnd ".f16.f64 %0, %1;" : "=h"(h.clc_bits) : "d"(x));                        \
        return h;                                                                              \
    }

CLC_TO_HALF(, "rn")
CLC_TO_HALF(_rte, "rn")
CLC_TO_HALF(_rtz, "rz")
CLC_TO_HALF(_rtp, "rp")
CLC_TO_HALF(_rtn, "rm")

static CLC_INLINE float vload_half(size_t i, const clc_half *p) { return clc_from_half(p[i]); }

/* n halves at p + stride * i into a floatn. */
#define CLC_VLOAD_HALF(name, n, stride)                                                        \
    static CLC_INLINE clc_vec<float, n> name(size_t i, const clc_half *p)                      \
    {                                                                                          \
        clc_vec<float, n> v;                                                                   \
        for (int k = 0; k < n; k++)                                                            \
            v.clc_v.a[k] = clc_from_half(p[i * stride + k]);                                   \
        return v;                                                                              \
    }

CLC_VLOAD_HALF(vload_half2, 2, 2)
CLC_VLOAD_HALF(vload_half3, 3, 3)
CLC_VLOAD_HALF(vload_half4, 4, 4)
CLC_VLOAD_HALF(vload_half8, 8, 8)
CLC_VLOAD_HALF(vload_half16, 16, 16)
CLC_VLOAD_HALF(vloada_half2, 2, 2)
CLC_VLOAD_HALF(vloada_half3, 3, 4)
CLC_VLOAD_HALF(vloada_half4, 4, 4)
CLC_VLOAD_HALF(vloada_half8, 8, 8)
CLC_VLOAD_HALF(vloada_half16, 16, 16)

/* vstore_half<suffix> of a float or a double, and vstore_half / vstorea_half of a vector of
 * n of them (vstore_half<n><suffix> at p + n * i, vstorea_half<n><suffix> at p + stride * i). */
#define CLC_VSTORE_HALF_N(n, stride, suffix)                                                   \
    template <class E>                                                                         \
    CLC_INLINE void vstore_half##n##suffix(const clc_vec<E, n> &v, size_t i, clc_half *p)      \
    {                                                                                          \
        for (int k = 0; k < n; k++)                                                            \
            p[i * n + k] = clc_to_half##suffix(v.clc_v.a[k]);                                  \
    }                                                                                          \
    template <class E>                                                                         \
    CLC_INLINE void vstorea_half##n##suffix(const clc_vec<E, n> &v, size_t i, clc_half *p)     \
    {                                                                                          \
        for (int k = 0; k < n; k++)                                                            \
            p[i * stride + k] = clc_to_half##suffix(v.clc_v.a[k]);                             \
    }
#define CLC_VSTORE_HALF(suffix)                                                                \
    static CLC_INLINE void vstore_half##suffix(float x, size_t i, clc_half *p)                 \
    {                                                                                          \
        p[i] = clc_to_half##suffix(x);                                                         \
    }                                                                                          \
    static CLC_INLINE void vstore_half##suffix(double x, size_t i, clc_half *p)                \
    {                                                                                          \
        p[i] = clc_to_half##suffix(x);                                                         \
    }                                                                                          \
    CLC_VSTORE_HALF_N(2, 2, suffix)                                                            \
    CLC_VSTORE_HALF_N(3, 4, suffix)                                                            \
    CLC_VSTORE_HALF_N(4, 4, suffix)                                                            \
    CLC_VSTORE_HALF_N(8, 8, suffix)                                                            \
    CLC_VSTORE_HALF_N(16, 16, suffix)

CLC_VSTORE_HALF()
CLC_VSTORE_HALF(_rte)
CLC_VSTORE_HALF(_rtz)
CLC_VSTORE_HALF(_rtp)
CLC_VSTORE_HALF(_rtn)

/* clz: the leading zero bits of a 32- or 64-bit integer (ulong is unsigned long here). */
static CLC_INLINE int clz(int x) { return __clz(x); }
static CLC_INLINE unsigned clz(unsigned x) { return (unsigned)__clz((int)x); }
static CLC_INLINE long clz(long x) { return __clzll(x); }
static CLC_INLINE ulong clz(ulong x) { return (ulong)__clzll((long long)x); }

/* ------------------------------------------------------------------ images */

/* An image2d_t argument is a texture object (the host makes one on a CUDA array); the
 * sampler's settings live in the object, so sampler_t and the CLK_ flags are placeholders. */
typedef cudaTextureObject_t image2d_t;
typedef int sampler_t;
#define __read_only
#define CLK_NORMALIZED_COORDS_FALSE 0
#define CLK_ADDRESS_CLAMP 0
#define CLK_FILTER_NEAREST 0

/* Texel (c.x, c.y) in .x, the other components 0 as OpenCL's CL_R gives (and 1 in .w). */
static CLC_INLINE clc_float4 read_imagef(image2d_t img, sampler_t s, clc_int2 c)
{
    (void)s;
    clc_float4 v = (clc_float4)0;
    v.x = tex2D<float>(img, (float)c.x + 0.5f, (float)c.y + 0.5f); /* the texel's centre */
    v.w = 1.0f;
    return v;
}

#endif
