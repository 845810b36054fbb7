/* scale_strided_bad.cl - an example for `clcoalesce custom`, pattern scale:
 * out[i] = 2 * in[i], written the way a CPU programmer might, and deliberately slow.
 *
 *   clcoalesce custom --kernel-file cl/examples/scale_strided_bad.cl \
 *       --kernel scale_chunked --pattern scale --items-per-thread 8
 *
 * Each work-item takes a contiguous chunk of CLC_ITEMS elements (the host defines
 * CLC_ITEMS from --items-per-thread and launches ceil(n / CLC_ITEMS) work-items).  On a CPU
 * that is the cache-friendly split; on a GPU it is the wrong one: at every step the 32 lanes
 * of a warp touch addresses CLC_ITEMS * 4 bytes apart, so with 8 items a request spans 1 KiB
 * and 32 sectors where 4 would do.  The access model shows it (model column about 12 % for
 * 8 items, against 100 % for the built-in coalesced scale).  The fix: element
 * i + k * get_global_size(0) at step k, so neighbouring lanes read neighbouring elements. */
#include "clc.h"

#ifndef CLC_ITEMS
#define CLC_ITEMS 8
#endif

__kernel void scale_chunked(__global const T *in, __global T *out, ulong n CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t first = get_global_id(0) * CLC_ITEMS;
    for (uint k = 0; k < CLC_ITEMS; k++) {
        size_t i = first + k;
        if (i < n)
            STORE(out, i, LOAD(in, i) * 2);
    }
}
