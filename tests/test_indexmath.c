/* test_indexmath.c - every kind of index work and every number of rounds copies every
 * element to its place (the work leaves the index as it is), also at an odd size; the notes
 * give the rounds; and work that moves the index is caught. */
#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("indexmath", size, 1, &rep);
    static const char *const kinds[] = {"shift", "mad", "shift_group", "shift4",
                                        "div64", "div64_wide", "div32"};
    static const long cheap[] = {0, 8, 32, 128, 512}, costly[] = {0, 1, 4, 16, 64};
    for (size_t k = 0; k < 7; k++)
        for (size_t i = 0; i < 5; i++) {
            long rounds = k < 4 ? cheap[i] : costly[i];
            const struct clc_result *r = clc_test_get(&rep, kinds[k], rounds, CLC_FLOAT);
            ck_assert_uint_eq(r->bytes, 2 * (size / 4) * 4);
            clc_test_assert_note(r, "%ld round%s a work-item", rounds, rounds == 1 ? "" : "s");
        }
    clc_report_free(&rep);
}

START_TEST(every_kind_of_work_copies)
{
    run_at(1 << 16);
}
END_TEST

START_TEST(odd_size_copies)
{
    run_at(4 * 10007);
}
END_TEST

/* x |= (x >> 7) & 1 instead of x ^= (x >> 7) & 0: from the first round on, two work-items
 * take one element and the other is never written; rounds of none still copy, as every
 * other kind does. */
START_TEST(work_that_moves_the_index_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "indexmath.cl", "x ^= (x >> 7) & zero", "x |= (x >> 7) & one");
    struct clc_report rep;
    clc_test_run_expect("indexmath", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "shift", 0, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "shift", 8, CLC_FLOAT), NULL);
    clc_test_assert_ok(clc_test_get(&rep, "mad", 8, CLC_FLOAT));
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {every_kind_of_work_copies, odd_size_copies,
                            work_that_moves_the_index_is_caught};
    return clc_test_main(clc_test_suite("indexmath", tests, sizeof tests / sizeof tests[0]));
}
