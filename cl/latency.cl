/* latency.cl - load-to-use latency: one work-item follows a chain of indices, each load's
 * address the value of the one before, so no two loads overlap and each takes the whole
 * latency of wherever its data is (L1, L2, DRAM).  The chain is a random cycle through slots
 * one 32-byte sector apart (the host writes it into `next`), so every hop lands in another
 * sector; `state` holds where the walk is, and each launch continues from there, so a
 * working set larger than the caches is met fresh launch after launch. */
#include "clc.h"

__kernel void chase(__global const uint *next, __global uint *state, uint steps CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    if (get_global_id(0) != 0)
        return;
    uint j = LOAD(state, 0);
    for (uint k = 0; k < steps; k++)
        j = LOAD(next, j);
    STORE(state, 0, j);
}
