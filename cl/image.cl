/* image.cl - a width x height array of float read through the texture path (a read-only
 * image2d_t, read_imagef) against the same walks on a __global buffer holding it row by row
 * (element (x, y) at y * width + x).  Three walks, each a copy into a __global out:
 *   rows       lanes along x: a warp reads a row segment and writes one (matrix rowmajor);
 *   cols       lanes along y: a warp reads a column segment and writes one, both `width`
 *              elements apart in a buffer (matrix colmajor);
 *   transpose  lanes along y: a warp reads a column segment of in and writes a row segment
 *              of out = transpose(in), height x width: the transpose that puts the strided
 *              side on the read (transpose naive puts it on the write).
 * An image's layout is the driver's (on a GPU, texels near in 2-D share a cache line), so a
 * column read through the texture path need not cost a sector per lane.
 *
 * The trace build records __global addresses only: the host does not trace the image rows
 * (they are outside the access model); their kernels still end with CLC_TRACE_ARGS, so every
 * kernel of the file builds both ways. */
#include "clc.h"

__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

/* Element (x, y) of the image. */
float image_at(__read_only image2d_t img, size_t x, size_t y)
{
    int2 c; /* not (int2)(x, y): CUDA C++ (cl/clc_cuda.h) has no vector literals */
    c.x = (int)x;
    c.y = (int)y;
    return read_imagef(img, smp, c).x;
}

/* A walk's body, with READ(x, y) the source element: x and y from the launch's dimensions
 * X_DIM and Y_DIM (0 is the dimension along a warp), out's index DST. */
#define WALK(X_DIM, Y_DIM, DST)                                                             \
    size_t x = get_global_id(X_DIM), y = get_global_id(Y_DIM);                              \
    if (x < width && y < height)                                                            \
        STORE(out, DST, READ(x, y));

#define ROWS WALK(0, 1, y * width + x)
#define COLS WALK(1, 0, y * width + x)
#define TRANSPOSE WALK(1, 0, x * height + y)

#define SOURCE_GLOBAL __global const T *in
#define SOURCE_IMAGE __read_only image2d_t in
#define OUT __global T *out, ulong width, ulong height CLC_TRACE_ARGS

#define READ(x, y) LOAD(in, (y) * width + (x))
__kernel void rows_global(SOURCE_GLOBAL, OUT) { CLC_TRACE_BEGIN ROWS }
__kernel void cols_global(SOURCE_GLOBAL, OUT) { CLC_TRACE_BEGIN COLS }
__kernel void transpose_global(SOURCE_GLOBAL, OUT) { CLC_TRACE_BEGIN TRANSPOSE }
#undef READ

#define READ(x, y) image_at(in, x, y)
__kernel void rows_image(SOURCE_IMAGE, OUT) { CLC_TRACE_BEGIN ROWS }
__kernel void cols_image(SOURCE_IMAGE, OUT) { CLC_TRACE_BEGIN COLS }
__kernel void transpose_image(SOURCE_IMAGE, OUT) { CLC_TRACE_BEGIN TRANSPOSE }
#undef READ
