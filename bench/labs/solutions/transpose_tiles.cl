/* transpose_tiles.cl - lab 3: out[x * height + y] = in[y * width + x] through a __local tile.
 * Launch: --pattern transpose, default --local 32x8 --items-per-thread 4, so a work-group of
 * CLC_LOCAL_X x CLC_LOCAL_Y work-items moves one TILE x TILE tile, CLC_ITEMS rows each
 * (TILE = CLC_LOCAL_X = CLC_LOCAL_Y * CLC_ITEMS).
 *
 * my_tiled:        tile[TILE][TILE]; reading a column of it hits one __local bank 32 times.
 * my_tiled_padded: tile[TILE][TILE + 1]; the extra column puts a column in 32 banks. */
#include "clc.h"

#ifndef CLC_LOCAL_X
#define CLC_LOCAL_X 32
#endif
#ifndef CLC_LOCAL_Y
#define CLC_LOCAL_Y 8
#endif
#define TILE CLC_LOCAL_X

#define MY_TILED(name, pitch)                                                               \
    __kernel void name(__global const T *in, __global T *out, ulong width,                  \
                       ulong height CLC_TRACE_ARGS)                                         \
    {                                                                                       \
        CLC_TRACE_BEGIN                                                                     \
        __local T tile[TILE][pitch];                                                        \
        uint lx = get_local_id(0), ly = get_local_id(1);                                    \
        size_t bx = get_group_id(0) * (size_t)TILE, by = get_group_id(1) * (size_t)TILE;    \
        /* read rows of the input tile: a warp reads TILE consecutive elements */           \
        for (uint j = ly; j < TILE; j += CLC_LOCAL_Y)                                       \
            if (bx + lx < width && by + j < height)                                         \
                tile[j][lx] = LOAD(in, (by + j) * width + bx + lx);                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        /* write rows of the output tile (row bx + j of out), reading down a tile column */ \
        for (uint j = ly; j < TILE; j += CLC_LOCAL_Y)                                       \
            if (by + lx < height && bx + j < width)                                         \
                STORE(out, (bx + j) * height + by + lx, tile[lx][j]);                       \
    }

MY_TILED(my_tiled, TILE)
MY_TILED(my_tiled_padded, TILE + 1)
