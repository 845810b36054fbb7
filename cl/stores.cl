/* stores.cl - stores alone, each warp's request laid out by two numbers: the lanes of a
 * piece (w, 1 to 8: neighbouring lanes on neighbouring elements, one piece of w elements) and
 * the pitch between pieces (2^shift elements).  The buffer is a run of blocks of 32 / w rows
 * of 2^shift elements; lane l of a warp takes row l / w of its block, and warp q of the block
 * columns q w .. q w + w - 1, so a request writes 32 / w pieces a pitch apart and the next
 * warps the rest of their lines.  A pitch of a line or more puts each piece in a line of its
 * own (many lines, one piece each); a smaller one puts several pieces in each line (few
 * lines, several pieces each).  Every element is written once: what differs is how many
 * lines and pieces the L2 takes for the same bytes.  Elements past the whole blocks are
 * written in place. */
#include "clc.h"

/* The element work-item i writes: shifts and masks only (w = 2^wlog), so the index costs
 * next to nothing beside a store. */
size_t stores_index(size_t i, uint shift, uint wlog, size_t n)
{
    size_t block = (size_t)32 >> wlog << shift, j = i & (block - 1);
    if (i >= (n & ~(block - 1)))
        return i;
    size_t lane = j & 31, warp = j >> 5, low = ((size_t)1 << wlog) - 1;
    return i - j + ((lane >> wlog) << shift) + (warp << wlog) + (lane & low);
}

/* out[e] = clc_value(e), e as above: the warps of a work-group store together, as a kernel
 * of one element a work-item does (the L1 merges pieces of one sector that arrive close
 * together: spread over a loop, they merged less on the H100) */
__kernel void stores_pieces(__global T *out, ulong n, uint shift, uint wlog CLC_TRACE_ARGS)
{
    CLC_TRACE_BEGIN
    size_t i = get_global_id(0);
    if (i < n) {
        size_t e = stores_index(i, shift, wlog, n);
        STORE(out, e, clc_value(e));
    }
}
