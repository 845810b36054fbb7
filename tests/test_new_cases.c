/* test_new_cases.c - broadcast and hostmem: every variant verifies at a small size in both
 * types with the useful bytes counted, a kernel that reads the wrong element is caught, a
 * variant an API cannot run is skipped on it with its note, the host-memory rows are left
 * out of the predictive model with the reason, and explain names a broadcast and the
 * constant cache. */
#include <string.h>

#include "clcoalesce/cases.h"
#include "testutil.h"

#define SIZE (64 << 10) /* bytes of the main array: the stride sweep allocates 32 x that */

START_TEST(broadcast_verifies_with_useful_bytes)
{
    struct clc_report rep;
    clc_test_run_verified_at("broadcast", SIZE, 20, &rep);
    static const enum clc_type types[] = {CLC_FLOAT, CLC_DOUBLE};
    static const char *const plain[] = {"coalesced", "global", "constant"};
    for (int k = 0; k < 2; k++) {
        size_t es = clc_type_size(types[k]), n = SIZE / es;
        for (int v = 0; v < 3; v++) {
            const struct clc_result *r = clc_test_get(&rep, plain[v], -1, types[k]);
            clc_test_assert_ok(r);
            ck_assert_uint_eq(r->bytes, 2 * n * es);
        }
        for (long s = 0; s <= 32; s = s ? 2 * s : 1) {
            const struct clc_result *r = clc_test_get(&rep, "stride", s, types[k]);
            clc_test_assert_ok(r);
            ck_assert(r->has_param);
            ck_assert_uint_eq(r->bytes, 2 * n * es); /* the useful bytes, whatever s */
        }
    }
    /* the access model sees one sector per load request where every lane reads one element */
    const struct clc_result *zero = clc_test_get(&rep, "stride", 0, CLC_FLOAT);
    ck_assert_double_eq(zero->model.ld_sectors_per_req, 1);
    ck_assert_double_eq(clc_test_get(&rep, "global", -1, CLC_FLOAT)->model.ld_sectors_per_req, 1);
    clc_report_free(&rep);
}
END_TEST

/* Reading another element than the work-group's is a wrong result, not a number. */
START_TEST(broadcast_wrong_element_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "broadcast.cl", "LOAD(in, get_group_id(0) % m)",
                         "LOAD(in, get_local_id(0) % m)");
    o.types = CLC_FLOAT;
    o.size = SIZE;
    struct clc_report rep;
    clc_test_run_expect("broadcast", &o, CLC_ERR, &rep);
    clc_test_assert_caught(clc_test_get(&rep, "global", -1, CLC_FLOAT), "wrong result");
    clc_test_assert_ok(clc_test_get(&rep, "constant", -1, CLC_FLOAT));
    clc_report_free(&rep);
}
END_TEST

/* Stride 0 reading element 1 instead of element 0 is caught too. */
START_TEST(stride_zero_wrong_element_is_caught)
{
    struct clc_opts o;
    clc_test_opts_edited(&o, "broadcast.cl", "LOAD(in, i * s)", "LOAD(in, i * s + (s == 0))");
    o.types = CLC_FLOAT;
    o.size = SIZE;
    struct clc_report rep;
    clc_test_run_expect("broadcast", &o, CLC_ERR, &rep);
    clc_test_assert_caught(clc_test_get(&rep, "stride", 0, CLC_FLOAT), "wrong result");
    clc_test_assert_ok(clc_test_get(&rep, "stride", 1, CLC_FLOAT));
    clc_report_free(&rep);
}
END_TEST

START_TEST(hostmem_verifies_outside_the_model)
{
    struct clc_report rep;
    clc_test_run_verified_at("hostmem", SIZE, 6, &rep);
    size_t n = SIZE / 4;
    static const char *const copies[] = {"copy_device", "copy_host"};
    static const char *const reads[] = {"read_device", "read_host"};
    for (int v = 0; v < 2; v++) {
        const struct clc_result *c = clc_test_get(&rep, copies[v], -1, CLC_FLOAT);
        const struct clc_result *r = clc_test_get(&rep, reads[v], -1, CLC_FLOAT);
        clc_test_assert_ok(c);
        clc_test_assert_ok(r);
        ck_assert_uint_eq(c->bytes, 2 * n * 4);
        ck_assert_uint_eq(r->bytes, (n + n / 8) * 4);
    }
    /* the host rows say why the model leaves them out; the device rows do not */
    clc_test_assert_note(clc_test_get(&rep, "copy_host", -1, CLC_FLOAT), "bound none: ");
    ck_assert_ptr_null(strstr(clc_test_get(&rep, "copy_device", -1, CLC_FLOAT)->note, "bound"));
    ck_assert_ptr_nonnull(clc_outside_model("hostmem", "read_host"));
    ck_assert_ptr_null(clc_outside_model("hostmem", "read_device"));
    ck_assert_ptr_null(clc_outside_model("broadcast", "constant"));
    clc_report_free(&rep);
}
END_TEST

/* OpenCL has no managed memory: those rows are skipped with the variant's note, the rest of
 * the case runs. */
START_TEST(managed_is_skipped_on_opencl)
{
    struct clc_report rep;
    clc_test_run_verified_at("hostmem", SIZE, 6, &rep);
    for (int k = 0; k < 2; k++) {
        const struct clc_result *r =
            clc_test_get(&rep, k ? "read_managed" : "copy_managed", -1, CLC_FLOAT);
        ck_assert_str_eq(r->api, "opencl");
        ck_assert_int_eq(r->status, CLC_STATUS_SKIPPED);
        clc_test_assert_note(r, "OpenCL has no managed memory");
    }
    clc_report_free(&rep);
}
END_TEST

START_TEST(explain_names_the_broadcast_and_the_constant_cache)
{
    char out[32768], err[8192];
    clc_test_expect("explain broadcast --variant constant", 0, NULL, out, sizeof out, err,
                    sizeof err);
    clc_test_assert_has(out, "a broadcast: all ");
    clc_test_assert_has(out, "1 sector per request");
    clc_test_assert_has(out, "constant cache");
    clc_test_expect("explain broadcast --variant coalesced", 0, NULL, out, sizeof out, err,
                    sizeof err);
    clc_test_assert_lacks(out, "a broadcast");
}
END_TEST

int main(void)
{
    const TTest *tests[] = {broadcast_verifies_with_useful_bytes,
                            broadcast_wrong_element_is_caught,
                            stride_zero_wrong_element_is_caught,
                            hostmem_verifies_outside_the_model,
                            managed_is_skipped_on_opencl,
                            explain_names_the_broadcast_and_the_constant_cache};
    return clc_test_main(clc_test_suite("new_cases", tests, sizeof tests / sizeof tests[0]));
}
