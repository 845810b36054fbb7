/* test_vector.c - every width of the vector case verifies, also at sizes that leave a tail
 * for every width, and a kernel that drops the tail, ignores the offset or fills a vector
 * wrong is caught. */
#include <string.h>

#include "testutil.h"

static const char *const variants[] = {"float", "float2", "float4", "float8", "float16",
                                       "fill_float4", "fill_float8", "fill_float16",
                                       "relu", "relu_float4", "float4_aligned",
                                       "float4_misaligned"};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

static void run_at(uint64_t size)
{
    struct clc_report rep;
    clc_test_run_verified_at("vector", size, N_VARIANTS, &rep);
    size_t n = size / 4;
    for (size_t v = 0; v < N_VARIANTS; v++) {
        const struct clc_result *r = clc_test_get(&rep, variants[v], -1, CLC_FLOAT);
        /* the vload pair runs 4 elements short so its shifted input fits the array */
        size_t rn = strncmp(variants[v], "float4_", 7) == 0 ? n - 4 : n;
        /* a fill only stores */
        ck_assert_uint_eq(r->bytes, (strncmp(variants[v], "fill_", 5) == 0 ? 1 : 2) * rn * 4);
    }
    ck_assert_int_eq(clc_test_get(&rep, "float16", -1, CLC_FLOAT)->param, 16);
    ck_assert_int_eq(clc_test_get(&rep, "relu_float4", -1, CLC_FLOAT)->param, 4);
    ck_assert_int_eq(clc_test_get(&rep, "fill_float8", -1, CLC_FLOAT)->param, 8);
    clc_report_free(&rep);
}

START_TEST(all_variants_verify)
{
    run_at(1 << 20);
}
END_TEST

/* 100003 = 16 * 6250 + 3: a tail for every width; 7 and 21 elements: less than one float8
 * or float16, so the tail work-item does everything. */
START_TEST(odd_sizes_verify)
{
    run_at(4 * 100003);
    run_at(4 * 21);
    run_at(4 * 7 + 16);
}
END_TEST

/* A tail that no work-item handles leaves the last n % 4 elements poisoned. */
START_TEST(dropped_tail_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "vector.cl", "else if (i == nv)", "else if (false)");
    o.size = 4 * 100003;
    o.variant = "float4";
    struct clc_report rep;
    clc_test_run_expect("vector", &o, CLC_ERR, &rep);
    clc_test_assert_all_caught(&rep, 1, "3 of 100003");
    clc_report_free(&rep);
}
END_TEST

/* A vload that ignores the offset passes when the offset is 0 and fails when it is 1. */
START_TEST(ignored_offset_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "vector.cl", "VLOAD(4, i, in + OFFSET)", "VLOAD(4, i, in)");
    struct clc_report rep;
    clc_test_run_expect("vector", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "float4", -1, CLC_FLOAT));
    clc_test_assert_ok(clc_test_get(&rep, "float4_aligned", -1, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "float4_misaligned", -1, CLC_FLOAT), NULL);
    clc_report_free(&rep);
}
END_TEST

/* A fill that writes each vector's first value into all its elements: every fill but the
 * copies is caught. */
START_TEST(wrong_fill_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "vector.cl", "e[k] = clc_value(W * i + k)", "e[k] = clc_value(W * i)");
    struct clc_report rep;
    clc_test_run_expect("vector", &o, CLC_ERR, &rep);
    clc_test_assert_ok(clc_test_get(&rep, "float16", -1, CLC_FLOAT));
    clc_test_assert_caught(clc_test_get(&rep, "fill_float4", -1, CLC_FLOAT), NULL);
    clc_test_assert_caught(clc_test_get(&rep, "fill_float16", -1, CLC_FLOAT), NULL);
    clc_report_free(&rep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {all_variants_verify, odd_sizes_verify, dropped_tail_is_caught,
                            ignored_offset_is_caught, wrong_fill_is_caught};
    return clc_test_main(clc_test_suite("vector", tests, sizeof tests / sizeof tests[0]));
}
