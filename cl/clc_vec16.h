/* clc_vec16.h - TV, a 16-byte vector of T (float4, double2: the widest access one NVIDIA
 * instruction makes; W elements), for the kernels that stream whole vectors (stream.cl,
 * l2.cl), and clc_values(v): clc_value of vector v's elements. */
#ifndef CLC_VEC16_H
#define CLC_VEC16_H

#ifdef CLC_FP64
#define W 2
#else
#define W 4
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
typedef CAT(T, W) TV;

TV clc_values(size_t v)
{
    TV x;
    x.s0 = clc_value(W * v);
    x.s1 = clc_value(W * v + 1);
#if W == 4
    x.s2 = clc_value(W * v + 2);
    x.s3 = clc_value(W * v + 3);
#endif
    return x;
}

#endif
