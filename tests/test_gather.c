/* test_gather.c - identity, random and block-random gathers verify in both types with the
 * index reads counted, also at an odd size, their loads are seen to wait for the index, and
 * a kernel that ignores the indices is caught. */
#include <string.h>

#include "testutil.h"

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("gather", size, 10, &rep);
    static const enum clc_type types[] = {CLC_FLOAT, CLC_DOUBLE};
    for (int k = 0; k < 2; k++) {
        size_t es = clc_type_size(types[k]), n = size / es;
        const struct clc_result *id = clc_test_get(&rep, "identity", -1, types[k]);
        clc_test_get(&rep, "random", -1, types[k]);
        /* the trace sees that the load of in[] waits for the index it reads: one load in
         * flight, not two */
        ck_assert(id->model.features.valid);
        ck_assert_double_eq(id->model.features.loads_in_flight, 1);
        for (long blk = 32; blk <= 32768; blk *= 32) {
            const struct clc_result *r = clc_test_get(&rep, "block_random", blk, types[k]);
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
    struct clc_opts o;
    clc_test_opts_edited(&o, "gather.cl", "LOAD(in, LOAD(idx, i))", "LOAD(in, i)");
    o.types = CLC_FLOAT;
    struct clc_report rep;
    clc_test_run_expect("gather", &o, CLC_ERR, &rep);
    ck_assert_uint_eq(rep.n_results, 5);
    clc_test_assert_ok(clc_test_get(&rep, "identity", -1, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "random", -1, CLC_FLOAT), "wrong result");
    clc_test_assert_caught(clc_test_get(&rep, "block_random", 32, CLC_FLOAT), NULL);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {all_variants_verify, odd_size_verifies, ignored_indices_are_caught};
    return clc_test_main(clc_test_suite("gather", tests, sizeof tests / sizeof tests[0]));
}
