/* banks.cl - local-memory bank conflicts alone.  Each work-group fills a __local array of
 * WORDS words, then each work-item reads REPS words from it: work-item l reads word
 * l * s + 32 r at step r, so the 32 lanes of a warp read 32 words s apart, all in the same
 * bank at every step when s is a multiple of 32 (a 32-way conflict: the request takes 32
 * passes), and in 32 different banks when s is odd.  The 32 r moves every lane by a whole row
 * of banks, so the pattern stays and no load repeats the last.  The tile variants read a
 * 32 x PITCH tile down its columns, as the transposes do: pitch 32 puts a column in one
 * bank, pitch 33 spreads it over all 32.  Each work-item writes its sum once.  Every
 * __local access goes through LLOAD / LSTORE (cl/clc.h), so the access model traces them
 * and counts the passes itself. */
#include "clc.h"

#define WORDS 8192 /* 32 KiB of float: a power of two, so & keeps the bank pattern */
#ifndef REPS
#define REPS 4096
#endif
#ifndef PITCH
#define PITCH 32
#endif

/* A macro, not a function: CUDA has no __local (shared) pointer parameters. */
#define FILL_LOCAL(lm)                                                                      \
    for (uint w = get_local_id(0); w < WORDS; w += get_local_size(0))                      \
        LSTORE(lm, w, (T)(w & 255));                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);

__kernel void banks_stride(__global T *out, uint s CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T lm[WORDS];
    FILL_LOCAL(lm)
    uint base = (uint)get_local_id(0) * s;
    T acc = 0;
    for (uint r = 0; r < REPS; r++)
        acc += LLOAD(lm, (base + 32 * r) & (WORDS - 1));
    STORE(out, get_global_id(0), acc);
}

/* lane l of a warp reads row l of a 32 x PITCH tile, column c: word l * PITCH + c */
__kernel void banks_tile(__global T *out CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    __local T lm[WORDS];
    FILL_LOCAL(lm)
    uint l = (uint)get_local_id(0), row = l % 32, tile = l / 32 * 32 * PITCH;
    T acc = 0;
    for (uint r = 0; r < REPS; r++)
        acc += LLOAD(lm, (tile + row * PITCH + r % 32) & (WORDS - 1));
    STORE(out, get_global_id(0), acc);
}
