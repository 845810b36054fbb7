/* rewrite_forms.h - one small kernel body per access form the rewriter (host/core/rewrite.c)
 * traces, as written and with the trace macros, shared by the tests that build them through
 * OpenCL (test_rewrite.c: the same outputs and records both ways) and through NVRTC
 * (test_cuda_rewrite.c: the rewritten source compiles as CUDA).
 *
 * Each body is the inside of kernel k(__global float *a, __global float *b,
 * __global int *h, __local float *lp) of one work-group of 64 work-items, 256 elements in
 * each buffer.  X(name, as written, with the macros, whether both compute the same) per
 * form; atomics have no macro of their own, so their hand version records the same accesses
 * but computes something else. */
#ifndef CLC_TEST_REWRITE_FORMS_H
#define CLC_TEST_REWRITE_FORMS_H

#define CLC_FORM_I "    size_t i = get_global_id(0);\n"
#define CLC_FORM_LID "    size_t l = get_local_id(0);\n"
/* What an atomic on h[i] records: a load and a store of it (its own line, declaring i). */
#define CLC_FORM_ATOMIC_BY_HAND "    { size_t i = get_global_id(0); STORE(h, i, LOAD(h, i) + 1); }\n"

#define CLC_REWRITE_FORMS(X)                                                                   \
    X(indexing,                                                                                \
      CLC_FORM_I "    b[i] = a[i] * 2;\n    b[i + 64] = a[2 * i + 1];\n",                      \
      CLC_FORM_I "    STORE(b, i, LOAD(a, i) * 2);\n"                                          \
                 "    STORE(b, i + 64, LOAD(a, 2 * i + 1));\n",                                \
      true)                                                                                    \
    X(compound_assignment,                                                                     \
      CLC_FORM_I "    b[i] += a[i];\n    b[i + 64]++;\n    --b[i + 128];\n",                   \
      CLC_FORM_I "    STORE(b, i, LOAD(b, i) + LOAD(a, i));\n"                                 \
                 "    STORE(b, i + 64, LOAD(b, i + 64) + 1);\n"                                \
                 "    STORE(b, i + 128, LOAD(b, i + 128) - 1);\n",                             \
      true)                                                                                    \
    X(pointer_arithmetic,                                                                      \
      CLC_FORM_I "    __global float *p = a + 2 * i;\n"                                        \
                 "    *(b + i) = *p++;\n"                                                      \
                 "    *(b + 64 + i) = *p;\n",                                                  \
      CLC_FORM_I "    STORE(b, i, LOAD(a, 2 * i));\n"                                          \
                 "    STORE(b, 64 + i, LOAD(a, 2 * i + 1));\n",                                \
      true)                                                                                    \
    X(derived_pointer,                                                                         \
      CLC_FORM_I "    __global const float *row = a + 3 * i;\n"                                \
                 "    __global float *dst = &b[i];\n"                                          \
                 "    dst[0] = row[1] + row[2];\n",                                            \
      CLC_FORM_I "    __global const float *row = a + 3 * i;\n"                                \
                 "    STORE(b, i, LOAD(row, 1) + LOAD(row, 2));\n",                            \
      true)                                                                                    \
    X(vload_vstore,                                                                            \
      CLC_FORM_I "    float4 v = vload4(i, a);\n    vstore4(v * 2, i, b);\n"                   \
                 "    vstore2(vload2(1, a + i), 0, b + 2 * i + 128);\n",                       \
      CLC_FORM_I "    float4 v = VLOAD(4, i, a);\n    VSTORE(4, v * 2, i, b);\n"               \
                 "    VSTORE(2, VLOAD(2, 1, a + i), 0, b + 2 * i + 128);\n",                   \
      true)                                                                                    \
    X(vector_pointer_cast,                                                                     \
      CLC_FORM_I "    ((__global float4 *)b)[i] = ((__global const float4 *)a)[i] + 1;\n",     \
      CLC_FORM_I "    STORE(((__global float4 *)b), i, "                                       \
                 "LOAD(((__global const float4 *)a), i) + 1);\n",                              \
      true)                                                                                    \
    X(global_atomics,                                                                          \
      CLC_FORM_I "    atomic_add(&h[i % 8], 1);\n    atomic_inc(h + 8 + i % 4);\n",            \
      CLC_FORM_I "    STORE(h, i % 8, LOAD(h, i % 8) + 1);\n"                                  \
                 "    STORE(h, 8 + i % 4, LOAD(h, 8 + i % 4) + 1);\n",                         \
      false)                                                                                   \
    X(local_atomics,                                                                           \
      CLC_FORM_LID "    __local int n[4];\n"                                                   \
                   "    if (l < 4)\n        n[l] = 0;\n"                                       \
                   "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                       \
                   "    atomic_add(&n[l % 4], (int)l);\n"                                      \
                   "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                       \
                   "    if (l < 4)\n        h[l] = n[l];\n",                                   \
      CLC_FORM_LID "    __local int n[4];\n"                                                   \
                   "    if (l < 4)\n        LSTORE(n, l, 0);\n"                                \
                   "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                       \
                   "    LSTORE(n, l % 4, LLOAD(n, l % 4) + (int)l);\n"                         \
                   "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                       \
                   "    if (l < 4)\n        STORE(h, l, LLOAD(n, l));\n",                      \
      false)                                                                                   \
    X(local_arrays_and_pointers,                                                               \
      CLC_FORM_LID "    __local float tile[4][17];\n"                                          \
                   "    tile[l % 4][l / 4] = a[l];\n"                                          \
                   "    lp[l] = a[l + 64];\n"                                                  \
                   "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                       \
                   "    b[l] = tile[l / 16][l % 16] + lp[63 - l];\n",                          \
      CLC_FORM_LID "    __local float tile[4][17];\n"                                          \
                   "    LSTORE(tile[l % 4], l / 4, LOAD(a, l));\n"                             \
                   "    LSTORE(lp, l, LOAD(a, l + 64));\n"                                     \
                   "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                       \
                   "    STORE(b, l, LLOAD(tile[l / 16], l % 16) + LLOAD(lp, 63 - l));\n",      \
      true)                                                                                    \
    X(every_vector_width,                                                                      \
      CLC_FORM_I "    float16 w = vload16(0, a + i);\n"                                        \
                 "    float8 e = vload8(1, a + i);\n"                                          \
                 "    float3 t = vload3(i, a);\n"                                              \
                 "    b[i] = w.s0 + w.sF + e.s7 + t.z;\n"                                      \
                 "    vstore3(t, i, b + 64);\n"                                                \
                 "    if (i < 8)\n        vstore8(e, i, (__global float *)h);\n"                \
                 "    if (i < 4)\n        vstore16(w, i, (__global float *)h + 64);\n",         \
      CLC_FORM_I "    float16 w = VLOAD(16, 0, a + i);\n"                                      \
                 "    float8 e = VLOAD(8, 1, a + i);\n"                                        \
                 "    float3 t = VLOAD(3, i, a);\n"                                            \
                 "    STORE(b, i, w.s0 + w.sF + e.s7 + t.z);\n"                                \
                 "    VSTORE(3, t, i, b + 64);\n"                                              \
                 "    if (i < 8)\n        VSTORE(8, e, i, (__global float *)h);\n"              \
                 "    if (i < 4)\n        VSTORE(16, w, i, (__global float *)h + 64);\n",       \
      true)                                                                                    \
    X(vector_elements,                                                                         \
      CLC_FORM_I "    vstore4(vload4(i, a) * 2, i, b);\n",                                      \
      CLC_FORM_I "    for (uint j = 0; j < 4; j++)\n"                                          \
                 "        STORE(b, 4 * i + j, LOAD(a, 4 * i + j) * 2);\n",                     \
      true)                                                                                    \
    X(halves,                                                                                  \
      CLC_FORM_I "    float4 x = vload_half4(i, (__global const half *)h);\n"                  \
                 "    float y = vload_half(i, (__global const half *)h + 128);\n"              \
                 "    float3 z = vloada_half3(i, (__global const half *)h + 256);\n"           \
                 "    vstore_half4_rtz(x * 2, i, (__global half *)b);\n"                       \
                 "    vstorea_half3(z, i, (__global half *)b + 256);\n"                        \
                 "    vstore_half_rte(y, i, (__global half *)a);\n",                           \
      CLC_FORM_I "    __global const ushort *q = (__global const ushort *)h + 4 * i;\n"       \
                 "    __global ushort *o = (__global ushort *)b + 4 * i;\n"                   \
                 "    ulong s = LOAD(q, 0) + LOAD(q, 1) + LOAD(q, 2) + LOAD(q, 3) +\n"         \
                 "              LOAD((__global const ushort *)h + 128, i) +\n"                 \
                 "              LOAD((__global const ulong *)h + 64, i);\n"                    \
                 "    STORE(o, 0, (ushort)s); STORE(o, 1, (ushort)s);\n"                       \
                 "    STORE(o, 2, (ushort)s); STORE(o, 3, (ushort)s);\n"                       \
                 "    STORE((__global ulong *)b + 64, i, s);\n"                                \
                 "    STORE((__global ushort *)a, i, (ushort)s);\n",                           \
      false)                                                                                   \
    X(atomics_arithmetic,                                                                      \
      CLC_FORM_I "    atomic_add(&h[i], 3);\n    atomic_sub(&h[i], 1);\n"                     \
                 "    atomic_xchg(&h[i], 5);\n    atomic_inc(&h[i]);\n"                       \
                 "    atomic_dec(&h[i]);\n    atomic_cmpxchg(&h[i], 5, 7);\n",                \
      CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND                  \
      CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND,                 \
      false)                                                                                   \
    X(atomics_bitwise,                                                                         \
      CLC_FORM_I "    atomic_min(&h[i], 1);\n    atomic_max(&h[i], (int)i);\n"                \
                 "    atomic_and(&h[i], 6);\n    atomic_or(&h[i], 9);\n"                      \
                 "    atomic_xor(&h[i], 3);\n    atom_add(&h[i], 1);\n",                      \
      CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND                  \
      CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND CLC_FORM_ATOMIC_BY_HAND,                 \
      false)

#endif
