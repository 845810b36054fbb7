/* test_rowsum.c - the rowsum case: both variants verify in float and double, at the quick
 * size, with a row count that is no multiple of the work-group and with a row length that
 * is no multiple of it; a broken reduction tree and a short row loop are caught. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Expects both variants verified in type t with `rows` sums of `cols` elements each. */
static void check_rows(const struct clc_report *rep, enum clc_type t, size_t rows, size_t cols)
{
    static const char *const variants[] = {"thread_per_row", "group_per_row"};
    for (int v = 0; v < 2; v++) {
        const struct clc_result *r = clc_test_find(rep, variants[v], (long)cols, t);
        ck_assert_msg(r != NULL, "%s %s cols %zu missing", variants[v], clc_type_name(t), cols);
        ck_assert_uint_eq(r->bytes, (rows * cols + rows) * clc_type_size(t));
        char shape[64];
        snprintf(shape, sizeof shape, "%zu rows x %zu", rows, cols);
        ck_assert_msg(strstr(r->note, shape) != NULL, "%s: note '%s'", variants[v], r->note);
    }
}

/* 1 MiB: 64 rows of 4096 floats, 32 rows of 4096 doubles. */
START_TEST(quick_size_verifies)
{
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("rowsum", NULL, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, 4);
    check_rows(&rep, CLC_FLOAT, 64, 4096);
    check_rows(&rep, CLC_DOUBLE, 32, 4096);
    clc_report_free(&rep);
}
END_TEST

/* 37 rows and a few elements over (float), 18 rows (double): the last work-group of
 * thread_per_row is partial and the leftover elements are not summed. */
START_TEST(odd_rows_verify)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = 4 * (4096 * 37 + 5);
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("rowsum", &o, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, 4);
    check_rows(&rep, CLC_FLOAT, 37, 4096);
    check_rows(&rep, CLC_DOUBLE, 18, 4096);
    clc_report_free(&rep);
}
END_TEST

/* Fewer than 4096 elements: one row of 3001 (float) or 1500 (double), no multiple of the
 * 256 work-items that share it in group_per_row. */
START_TEST(short_row_verifies)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = 4 * 3001;
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("rowsum", &o, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, 4);
    check_rows(&rep, CLC_FLOAT, 1, 3001);
    check_rows(&rep, CLC_DOUBLE, 1, 1500);
    clc_report_free(&rep);
}
END_TEST

static void run_broken(const char *from, const char *to, const char *bad, const char *good)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "rowsum.cl", from, to);
    struct clc_opts o;
    clc_test_opts(&o);
    o.kernel_dir = dir;
    o.types = CLC_FLOAT;
    o.size = 4 * (4096 * 37 + 5);
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("rowsum", &o, &rep), CLC_ERR);
    const struct clc_result *b = clc_test_find(&rep, bad, -1, CLC_FLOAT);
    const struct clc_result *g = clc_test_find(&rep, good, -1, CLC_FLOAT);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(g);
    ck_assert(!b->verified);
    ck_assert_int_eq(b->status, CLC_STATUS_ERROR);
    ck_assert_ptr_nonnull(strstr(b->note, "of 37 elements differ"));
    ck_assert(g->verified);
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
