/* indexmath.c - what integer work per element costs a copy: work-item i copies element i,
 * its index passed first through rounds of shifts, 64-bit multiply-adds or divisions that
 * leave it as it is, so the accesses stay coalesced and the bytes the same while the work
 * per element grows.  What a kernel's index arithmetic (a bit reversal in a loop, a 64-bit
 * `e % height`, `e / height`) costs beside its memory traffic. */
#include "clcoalesce/cases.h"

#include <string.h>

#define LOCAL 256
#define DIVISOR 7 /* any number above 1: only the compiler must not know it */

static size_t round_counts(const struct clc_env *e, const struct clc_variant *v, long *out)
{
    (void)e;
    static const long cheap[] = {0, 8, 32, 128, 512}, costly[] = {0, 1, 4, 16, 64};
    const long *r = *(const bool *)v->data ? costly : cheap;
    for (size_t i = 0; i < 5; i++)
        out[i] = r[i];
    return 5;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long rounds,
                struct clc_plan *p)
{
    clc_plan_map(p, e, v->kernel, LOCAL, clc_ref_copy);
    if (strcmp(v->name, "shift4") == 0) /* four elements a work-item */
        clc_plan_1d(p, (e->n + 3) / 4, LOCAL);
    clc_plan_arg_u32(p, (uint32_t)rounds);
    clc_plan_arg_u64(p, 0);
    clc_plan_arg_u64(p, 1);
    clc_plan_arg_u64(p, DIVISOR);
    clc_plan_note(p, "%ld round%s a work-item", rounds, rounds == 1 ? "" : "s");
    return CLC_OK;
}

static const bool cheap = false, costly = true;

#define WORK(label, kernel_name, kind)                                                        \
    {.name = label, .kernel = kernel_name, .params = round_counts, .plan = plan,              \
     .data = &kind}
static const struct clc_variant variants[] = {
    WORK("shift", "indexmath_shift", cheap),
    WORK("mad", "indexmath_mad", cheap),
    WORK("div64", "indexmath_div64", costly),
    WORK("div64_wide", "indexmath_div64_wide", costly),
    WORK("div32", "indexmath_div32", costly),
    WORK("shift_group", "indexmath_shift_group", cheap),
    WORK("shift4", "indexmath_shift4", cheap),
};

const struct clc_case clc_case_indexmath = {
    .name = "indexmath",
    .cl_file = "indexmath.cl",
    .summary = "out[i] = in[i], i first passed through rounds of integer work that leave it "
               "as it is: what index arithmetic costs a copy",
    .variants_text = "shift (x ^= (x >> 7) & 0), mad (x = x * 1 + 0, 64-bit), div64 (x += (x "
                     "/ d) * 0, 64-bit), div64_wide (the same of a number past 2^32), div32 "
                     "(the same in 32 bits), shift_group (shift's "
                     "rounds on the work-group's id, one value a warp), shift4 (shift's "
                     "rounds, then 4 elements a work-item); param = rounds a work-item "
                     "(shift, mad, shift_group, shift4: 0, 8, 32, 128, 512; the divisions: "
                     "0, 1, 4, 16, 64); not in the default run",
    .bytes_rule = "2 x n x element size",
    .expect = "the copy ceiling with few rounds, where the memory hides the work; slower "
              "once the work per element takes longer than its bytes, divisions of 64-bit "
              "numbers far sooner than shifts",
    .types = CLC_FLOAT,
    .alloc_factor = 1,
    .min_elems = 1,
    .explicit_only = true,
    .variants = variants,
    .n_variants = sizeof variants / sizeof variants[0],
};
