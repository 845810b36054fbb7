/* test_rowsum.c - the rowsum case: both variants verify in float and double, at the quick
 * size, with a row count that is no multiple of the work-group and with a row length that
 * is no multiple of it; a broken reduction tree and a short row loop are caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Runs the case at `size` bytes (0: the quick size) and expects both variants verified in
 * both types, with fr sums of fc elements each in float and dr sums of dc in double. */
static void check_rows(uint64_t size, size_t fr, size_t fc, size_t dr, size_t dc)
{
    static const char *const variants[] = {"thread_per_row", "group_per_row"};
    struct clc_report rep;
    clc_test_run_verified_at("rowsum", size, 4, &rep);
    for (int v = 0; v < 2; v++) {
        for (int d = 0; d < 2; d++) {
            enum clc_type t = d ? CLC_DOUBLE : CLC_FLOAT;
            size_t rows = d ? dr : fr, cols = d ? dc : fc;
            const struct clc_result *r = clc_test_get(&rep, variants[v], (long)cols, t);
            ck_assert_uint_eq(r->bytes, (rows * cols + rows) * clc_type_size(t));
            clc_test_assert_note(r, "%zu rows x %zu", rows, cols);
        }
    }
    clc_report_free(&rep);
}

/* 1 MiB: 64 rows of 4096 floats, 32 rows of 4096 doubles. */
START_TEST(quick_size_verifies)
{
    check_rows(0, 64, 4096, 32, 4096);
}
END_TEST

/* 37 rows and a few elements over (float), 18 rows (double): the last work-group of
 * thread_per_row is partial and the leftover elements are not summed. */
START_TEST(odd_rows_verify)
{
    check_rows(4 * (4096 * 37 + 5), 37, 4096, 18, 4096);
}
END_TEST

/* Fewer than 4096 elements: one row of 3001 (float) or 1500 (double), no multiple of the
 * 256 work-items that share it in group_per_row. */
START_TEST(short_row_verifies)
{
    check_rows(4 * 3001, 1, 3001, 1, 1500);
}
END_TEST

static void run_broken(const char *from, const char *to, const char *bad, const char *good)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "rowsum.cl", from, to);
    o.types = CLC_FLOAT;
    o.size = 4 * (4096 * 37 + 5);
    struct clc_report rep;
    clc_test_run_expect("rowsum", &o, CLC_ERR, &rep);
    clc_test_assert_caught(clc_test_get(&rep, bad, -1, CLC_FLOAT), "of 37 elements differ");
    clc_test_assert_ok(clc_test_get(&rep, good, -1, CLC_FLOAT));
    clc_report_free(&rep);
}

/* A tree that starts at a quarter of the group drops half of the partial sums. */
START_TEST(broken_tree_is_caught)
{
    run_broken("for (uint step = GROUP / 2;", "for (uint step = GROUP / 4;", "group_per_row",
               "thread_per_row");
}
END_TEST

/* A row loop that stops one column short. */
START_TEST(short_loop_is_caught)
{
    run_broken("c < cols; c++", "c + 1 < cols; c++", "thread_per_row", "group_per_row");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {quick_size_verifies, odd_rows_verify, short_row_verifies,
                            broken_tree_is_caught, short_loop_is_caught};
    return clc_test_main(clc_test_suite("rowsum", tests, sizeof tests / sizeof tests[0]));
}
