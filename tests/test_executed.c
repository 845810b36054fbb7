/* test_executed.c - the work a work-item executes, counted by running its PTX on the launch's
 * values (executed.c), the work on the path to a global load's address: loops whose trips
 * the launch sets, branches on the lanes' ids, divisions by width, values a load returns,
 * work off the path, a loop that never ends, text that is not a kernel; the indexmath
 * case's kernels as NVIDIA's compilers built them, whose counts the profile's figures are
 * taken with (predict.h's CLC_WORK_*_UNITS); and the offline counter.  No device. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "clcoalesce/model.h"
#include "clcoalesce/predict.h"
#include "testutil.h"

#define HEAD                                                                                  \
    ".version 8.0\n.target sm_90\n.address_size 64\n"
/* An entry of three parameters (two buffers and n) and the registers the bodies use. */
#define ENTRY(name, body)                                                                     \
    ".entry " name "(\n\t.param .u64 " name "_param_0,\n\t.param .u64 " name "_param_1,\n"    \
    "\t.param .u64 " name "_param_2\n)\n{\n\t.reg .pred %p<8>;\n\t.reg .f32 %f<8>;\n"         \
    "\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\n" body "\tret;\n\n}\n"

static const char ptx[] = HEAD
    /* n >> 4 trips of a 64-bit add whose sum a load's address takes, a 32-bit add nothing
     * reads, a test and a branch: the add, the test and the branch are on the path to the
     * address (the trips decide it), the other add is not */
    ENTRY("loop_n", "\tld.param.u64 %rd1, [loop_n_param_2];\n\tshr.u64 %rd2, %rd1, 4;\n"
          "\tmov.u64 %rd3, 0;\n\tmov.u32 %r1, 0;\n$L__BB0_1:\n\tadd.s64 %rd3, %rd3, 1;\n"
          "\tadd.s32 %r1, %r1, 3;\n\tsetp.lt.u64 %p1, %rd3, %rd2;\n\t@%p1 bra $L__BB0_1;\n"
          "\tld.global.f32 %f1, [%rd3];\n")
    /* as many trips as the launch has groups (NVIDIA's OpenCL register for the count) of a
     * 32-bit add, a test and a branch, which an address takes */
    ENTRY("loop_groups", "\tmov.b32 %r1, %envreg6;\n\tmov.u32 %r2, 0;\n$L__BB1_1:\n"
          "\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra $L__BB1_1;\n"
          "\tcvt.u64.u32 %rd1, %r2;\n\tld.global.f32 %f1, [%rd1+4];\n")
    /* lanes below 16 of their group run 10 more adds into an address: the warp issues them */
    ENTRY("lanes", "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %r1;\n\tsetp.ge.u32 %p1, %r1, 16;\n"
          "\t@%p1 bra $L__BB2_2;\n\tadd.s32 %r2, %r1, 1;\n\tadd.s32 %r2, %r2, 1;\n"
          "\tadd.s32 %r2, %r2, 1;\n\tadd.s32 %r2, %r2, 1;\n\tadd.s32 %r2, %r2, 1;\n"
          "\tadd.s32 %r2, %r2, 1;\n\tadd.s32 %r2, %r2, 1;\n\tadd.s32 %r2, %r2, 1;\n"
          "\tadd.s32 %r2, %r2, 1;\n\tadd.s32 %r2, %r2, 1;\n$L__BB2_2:\n"
          "\tmul.wide.u32 %rd1, %r2, 4;\n\tld.global.f32 %f1, [%rd1];\n")
    /* the middle group's id times the group size, as a global id: a 64-bit multiply into
     * the address where it is n */
    ENTRY("middle", "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n"
          "\tmul.wide.u32 %rd1, %r1, %r2;\n\tld.param.u64 %rd2, [middle_param_2];\n"
          "\tmov.u64 %rd3, 0;\n\tsetp.ne.u64 %p1, %rd1, %rd2;\n\t@%p1 bra $L__BB3_2;\n"
          "\tmul.lo.s64 %rd3, %rd1, %rd1;\n$L__BB3_2:\n\tld.global.f32 %f1, [%rd3];\n")
    /* divisions of each width into an address; a float one and a division nothing reads
     * are off its path */
    ENTRY("divisions", "\tld.param.u64 %rd1, [divisions_param_2];\n"
          "\tdiv.u64 %rd2, %rd1, 7;\n\trem.s64 %rd3, %rd2, 5;\n\tcvt.u32.u64 %r1, %rd3;\n"
          "\tdiv.u32 %r2, %r1, 3;\n\tdiv.rn.f32 %f1, %f2, %f3;\n\tdiv.u32 %r3, %r1, 9;\n"
          "\tcvt.u64.u32 %rd4, %r2;\n\tld.global.f32 %f4, [%rd4];\n")
    /* a branch on a loaded value is taken as not taken: the guarded load runs; the index
     * loaded is on the path to its address, its test is not */
    ENTRY("loaded", "\tld.param.u64 %rd1, [loaded_param_0];\n\tld.global.u32 %r1, [%rd1];\n"
          "\tsetp.eq.s32 %p1, %r1, 0;\n\t@%p1 bra $L__BB5_2;\n\tmul.wide.u32 %rd2, %r1, 4;\n"
          "\tld.global.f32 %f1, [%rd2];\n\tst.global.f32 [%rd1], %f1;\n$L__BB5_2:\n")
    /* work into a value stored, into a shared address, or a load from __local: off the
     * path to any global load's address */
    ENTRY("off_path", "\tmov.u32 %r1, %tid.x;\n\tmul.lo.s32 %r2, %r1, 7;\n"
          "\tst.global.u32 [%rd9], %r2;\n\tshl.b32 %r3, %r1, 2;\n"
          "\tld.shared.f32 %f1, [%r3];\n")
    /* a loop of 8 trips that loads from one address: its count decides no address */
    ENTRY("loads_only", "\tld.param.u64 %rd1, [loads_only_param_0];\n\tmov.u32 %r1, 0;\n"
          "$L__BB9_1:\n\tld.global.f32 %f1, [%rd1];\n\tadd.s32 %r1, %r1, 1;\n"
          "\tsetp.lt.u32 %p1, %r1, 8;\n\t@%p1 bra $L__BB9_1;\n")
    ENTRY("forever", "$L__BB7_1:\n\tbra.uni $L__BB7_1;\n")
    ENTRY("no_label", "\tbra.uni $L__BB8_9;\n");

static struct clc_ptx_work run(const char *kernel, size_t global, size_t local, uint64_t n)
{
    struct clc_ptx_launch l = {.dims = 1, .global = {global}, .local = {local}, .nargs = 3,
                               .args = {UINT64_C(1) << 40, UINT64_C(2) << 40, n}};
    struct clc_ptx_work w;
    ck_assert_msg(clc_ptx_work(ptx, kernel, &l, &w), "%s not counted", kernel);
    return w;
}

START_TEST(loops_run_as_the_launch_sets)
{
    /* ld.param and movs (0), shr (2: the loop's bound), per trip the 64-bit add and test
     * (2 each) and the branch, then the load; n = 160: 10 trips */
    ck_assert_double_eq(run("loop_n", 256, 256, 160).units, 2 + 10 * 5 + 1);
    ck_assert_double_eq(run("loop_n", 256, 256, 1600).units, 2 + 100 * 5 + 1);
    /* a do-while: one trip at the least, then one a group (3 each); the cvt and the load */
    ck_assert_double_eq(run("loop_groups", 256 * 40, 256, 0).units, 40 * 3 + 2);
    ck_assert_double_eq(run("loop_groups", 256 * 7, 256, 0).units, 7 * 3 + 2);
}
END_TEST

START_TEST(the_busiest_lane_counts)
{
    /* 10 adds where the lane is below 16, the multiply and the load */
    ck_assert_double_eq(run("lanes", 1024, 256, 0).units, 10 + 2);
    /* groups of 8: every lane of the warp's first group is below 16 */
    ck_assert_double_eq(run("lanes", 64, 8, 0).units, 10 + 2);
    /* the warp is the middle group's first: 100 groups of 32, group 50 starts at 1600 */
    ck_assert_double_eq(run("middle", 3200, 32, 1600).units, 1 + 4 + 1);
    ck_assert_double_eq(run("middle", 3200, 32, 1599).units, 1 + 1);
}
END_TEST

START_TEST(divisions_by_width)
{
    struct clc_ptx_work w = run("divisions", 256, 256, 100);
    ck_assert_double_eq(w.div64, 2);
    ck_assert_double_eq(w.div32, 1);
    ck_assert_double_eq(w.units, 2 + 1); /* the cvts and the load */
}
END_TEST

START_TEST(loaded_values_take_the_guarded_path)
{
    /* both loads and the multiply between; the test and its branch are off the path */
    ck_assert_double_eq(run("loaded", 256, 256, 0).units, 3);
    ck_assert_double_eq(run("off_path", 256, 256, 0).units, 0);
    ck_assert_double_eq(run("loads_only", 256, 256, 0).units, 8);
}
END_TEST

START_TEST(what_cannot_be_counted)
{
    struct clc_ptx_launch l = {.dims = 1, .global = {256}, .local = {256}};
    struct clc_ptx_work w;
    ck_assert(!clc_ptx_work(ptx, "forever", &l, &w));
    ck_assert(isnan(w.units) && isnan(w.div32) && isnan(w.div64));
    ck_assert(!clc_ptx_work(ptx, "no_label", &l, &w));
    ck_assert(!clc_ptx_work(ptx, "absent", &l, &w));
    ck_assert(!clc_ptx_work(ptx, "loop", &l, &w)); /* a prefix of loop_n names no entry */
    ck_assert(!clc_ptx_work("not PTX at all", "loop_n", &l, &w));
    ck_assert(!clc_ptx_work(NULL, "loop_n", &l, &w));
    l.dims = 0;
    ck_assert(!clc_ptx_work(ptx, "loop_n", &l, &w));
    ck_assert(isnan(w.units));
}
END_TEST

/* The indexmath kernels' PTX (OpenCL, H100): the units predict.h gives the profile. */
static char *indexmath_ptx(const char *api)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bench/results/h100/indexmath/ptx/indexmath-%s.ptx",
             CLC_TEST_SOURCE_DIR, api);
    size_t len;
    char *text = clc_read_text(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    return text;
}

static struct clc_ptx_work indexmath(const char *text, const char *kernel, unsigned rounds)
{
    uint64_t n = UINT64_C(1) << 28;
    struct clc_ptx_launch l = {.dims = 1, .global = {n}, .local = {256}, .nargs = 7,
                               .args = {UINT64_C(1) << 40, UINT64_C(2) << 40, n, rounds, 0, 1,
                                        7}};
    struct clc_ptx_work w;
    ck_assert_msg(clc_ptx_work(text, kernel, &l, &w), "%s not counted", kernel);
    return w;
}

START_TEST(indexmath_as_compiled)
{
    char *cl = indexmath_ptx("opencl");
    ck_assert_double_eq(indexmath(cl, "indexmath_shift", 0).units, CLC_WORK_BASE_UNITS);
    static const char *const rounds[] = {"indexmath_shift", "indexmath_mad"};
    for (int k = 0; k < 2; k++) {
        double a = indexmath(cl, rounds[k], 64).units, b = indexmath(cl, rounds[k], 128).units;
        ck_assert_double_eq((b - a) / 64, CLC_WORK_ROUND_UNITS);
    }
    struct clc_ptx_work a = indexmath(cl, "indexmath_div32", 64),
                        b = indexmath(cl, "indexmath_div32", 128);
    ck_assert_double_eq((b.units - a.units) / 64, CLC_WORK_DIV32_ROUND_UNITS);
    ck_assert_double_eq(b.div32 - a.div32, 64);
    /* div64 divides numbers below 2^32: the compiler's test sends it to div.u32 */
    struct clc_ptx_work d = indexmath(cl, "indexmath_div64", 16);
    ck_assert_double_eq(d.div32, 16);
    ck_assert_double_eq(d.div64, 0);
    free(cl);
    /* NVRTC's build of the same kernels comes within a few units */
    char *cu = indexmath_ptx("cuda");
    double base = indexmath(cu, "indexmath_shift", 0).units;
    double round = (indexmath(cu, "indexmath_shift", 128).units -
                    indexmath(cu, "indexmath_shift", 64).units) / 64;
    ck_assert_double_le(fabs(base - CLC_WORK_BASE_UNITS), 4);
    ck_assert_double_le(fabs(round - CLC_WORK_ROUND_UNITS), 0.5);
    free(cu);
}
END_TEST

/* The offline counter (bench/validation/workcount.c) prints what clc_ptx_work counts and the
 * loads in flight clc_ptx_loads_in_flight counts, and refuses bad arguments with exit status
 * 2; `status` gets the one it exits with. */
static void workcount(const char *args, char *out, size_t len, int *status)
{
    char cmd[2048], *slash;
    snprintf(cmd, sizeof cmd, "%s", CLC_TEST_BINARY);
    ck_assert((slash = strrchr(cmd, '/')) != NULL);
    snprintf(slash + 1, sizeof cmd - (size_t)(slash + 1 - cmd), "clc-workcount %s 2>&1", args);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(workcount_counts_a_saved_ptx)
{
    char args[1536], out[512];
    int st;
    snprintf(args, sizeof args, "%s/bench/results/h100/indexmath/ptx/indexmath-opencl.ptx "
             "indexmath_div32 268435456 256 1 2 268435456 64 0 1 7", CLC_TEST_SOURCE_DIR);
    workcount(args, out, sizeof out, &st);
    ck_assert_int_eq(st, 0);
    char want[64], *text = indexmath_ptx("opencl"); /* what the library counts in place */
    struct clc_ptx_work w = indexmath(text, "indexmath_div32", 64);
    double loads = clc_ptx_loads_in_flight(text, "indexmath_div32");
    free(text);
    ck_assert(loads >= 1);
    snprintf(want, sizeof want, "%g %g %g %g\n", w.units, w.div32, w.div64, loads);
    ck_assert_str_eq(out, want);
    snprintf(args, sizeof args, "%s/bench/results/h100/indexmath/ptx/indexmath-opencl.ptx "
             "no_such_kernel 256 256", CLC_TEST_SOURCE_DIR);
    workcount(args, out, sizeof out, &st);
    ck_assert_int_eq(st, 0);
    ck_assert_str_eq(out, "nan nan nan nan\n");
    static const char *const bad[] = {"", "f.ptx k 256", "f.ptx k 256,8 256", "f.ptx k 0 1",
                                      "f.ptx k 256 256 x", "/nonexistent.ptx k 256 256"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        workcount(bad[i], out, sizeof out, &st);
        ck_assert_msg(st == 2, "'%s' exited %d", bad[i], st);
    }
}
END_TEST

int main(void)
{
    const TTest *tests[] = {loops_run_as_the_launch_sets, the_busiest_lane_counts,
                            divisions_by_width, loaded_values_take_the_guarded_path,
                            what_cannot_be_counted, indexmath_as_compiled,
                            workcount_counts_a_saved_ptx};
    return clc_test_main(clc_test_suite("executed", tests, sizeof tests / sizeof tests[0]));
}
