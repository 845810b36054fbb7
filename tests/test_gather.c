/* test_gather.c - identity, random and block-random gathers verify in both types with the
 * index reads counted, also at an odd size, and a kernel that ignores the indices is
 * caught. */
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_opts o;
    clc_test_opts(&o);
    o.size = size;
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("gather", &o, &rep), CLC_OK);
    clc_test_assert_all_verified(&rep, 10);
    static const enum clc_type types[] = {CLC_FLOAT, CLC_DOUBLE};
    for (int k = 0; k < 2; k++) {
        size_t es = clc_type_size(types[k]), n = size / es;
        ck_assert_ptr_nonnull(clc_test_find(&rep, "identity", -1, types[k]));
        ck_assert_ptr_nonnull(clc_test_find(&rep, "random", -1, types[k]));
        for (long blk = 32; blk <= 32768; blk *= 32) {
            const struct clc_result *r = clc_test_find(&rep, "block_random", blk, types[k]);
            ck_assert_msg(r != NULL, "no block_random %ld", blk);
            ck_assert(r->has_param);
            /* values and uint indices read, values written */
            ck_assert_uint_eq(r->bytes, n * (es + 4) + n * es);
        }
    }
    clc_report_free(&rep);
}

START_TEST(all_variants_verify)
{
    run_at(1 << 20);
}
END_TEST

/* The last block of every block_random is short. */
START_TEST(odd_size_verifies)
{
    run_at(8 * 100003);
}
END_TEST

/* out[i] = in[i] is right for the identity and wrong for every permutation. */
START_TEST(ignored_indices_are_caught)
{
    const char *dir = clc_test_copy_kernels();
    clc_test_edit_kernel(dir, "gather.cl", "LOAD(in, LOAD(idx, i))", "LOAD(in, i)");
    struct clc_opts o;
    clc_test_opts(&o);
    o.kernel_dir = dir;
    o.types = CLC_FLOAT;
    struct clc_report rep;
    ck_assert_int_eq(clc_test_run_case("gather", &o, &rep), CLC_ERR);
    ck_assert_uint_eq(rep.n_results, 5);
    ck_assert(clc_test_find(&rep, "identity", -1, CLC_FLOAT)->verified);
    const struct clc_result *r = clc_test_find(&rep, "random", -1, CLC_FLOAT);
    ck_assert(!r->verified);
    ck_assert_int_eq(r->status, CLC_STATUS_ERROR);
    ck_assert_ptr_nonnull(strstr(r->note, "wrong result"));
    ck_assert(!clc_test_find(&rep, "block_random", 32, CLC_FLOAT)->verified);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {all_variants_verify, odd_size_verifies, ignored_indices_are_caught};
    return clc_test_main(clc_test_suite("gather", tests, sizeof tests / sizeof tests[0]));
}
