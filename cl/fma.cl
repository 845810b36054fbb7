/* fma.cl - the device's arithmetic rate: each work-item runs CHAINS independent chains of
 * ITERS fused multiply-adds, a = fma(a, B, C), so that the pipes always have an
 * instruction whose inputs are ready, and stores their sum once.  The loop carries every
 * chain, so the compiler can neither fold it nor drop it; the memory traffic (one element
 * per work-item) is next to nothing beside the arithmetic. */
#include "clc.h"

#define CHAINS 8
#define B ((T)0.999)  /* a converges towards C / (1 - B) = 1: no overflow, no denormals */
#define C ((T)0.001)

__kernel void fma_chains(__global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    T a[CHAINS];
    for (int c = 0; c < CHAINS; c++)
        a[c] = (T)(i % 16) * (T)0.0625 + (T)c;
    for (int k = 0; k < ITERS; k++)
        for (int c = 0; c < CHAINS; c++)
            a[c] = fma(a[c], B, C);
    T sum = (T)0;
    for (int c = 0; c < CHAINS; c++)
        sum += a[c];
    if (i < n)
        STORE(out, i, sum);
}
