/* poly.cl - an example for `clcoalesce custom`: a polynomial of degree DEGREE evaluated at
 * every element, y[i] = p(x[i]), by Horner's rule (one fused multiply-add per degree).  It
 * reads 4 bytes and writes 4 bytes per element but does 2 x DEGREE flops on them: 64 flops
 * for 8 bytes, more arithmetic per byte than most devices' FMA rate keeps memory-bound, so
 * the model's compute layer, not DRAM, names its limit.  Its `flops` line says how many
 * flops a launch does.
 *
 *   clcoalesce custom --kernel-file cl/examples/poly.cl --kernel poly_horner \
 *       --reference poly_powers
 *
 * poly_horner: the kernel, one element per work-item.  poly_powers: the reference, the
 * same polynomial summed term by term (x^k kept as a running power), which rounds
 * differently: the tolerance is looser than the default. */
#include "clc.h"

#define DEGREE 32

/* The coefficient of x^k: alternating and shrinking, so p stays near 1 on [0, 1). */
#define COEF(k) ((((k) & 1) ? -1.0f : 1.0f) / (float)((k) + 1))

/* clcoalesce:
 *   arg x in  float n random
 *   arg y out float n
 *   arg n scalar uint n
 *   flops 64 * n
 *   tolerance 1e-3
 */
__kernel void poly_horner(__global const float *x, __global float *y, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    float v = x[i], acc = COEF(DEGREE);
    for (int k = DEGREE - 1; k >= 0; k--)
        acc = fma(acc, v, COEF(k));
    y[i] = acc;
}

__kernel void poly_powers(__global const float *x, __global float *y, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    float v = x[i], power = 1.0f, sum = 0.0f;
    for (int k = 0; k <= DEGREE; k++) {
        sum += COEF(k) * power;
        power *= v;
    }
    y[i] = sum;
}
