/* test_explain.c - the `explain` and `ptx` commands through the real binary: the kernel
 * source, the picture of a warp's requests and the predicted figures; the predictive
 * model's waterfall on a profile the test writes, or the one a result file kept; the
 * measured fraction of the ceiling from a result file; usage errors; and `ptx` on a device
 * without PTX. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clcoalesce/explain.h"
#include "clcoalesce/rewrite.h"
#include "testutil.h"

#define OUT 65536
static char out[OUT], err[OUT];

static char dir[64];

/* Runs the command line the format gives, with the source tree's kernels. */
static int cli(const char *fmt, ...)
{
    char *args, *full;
    va_list ap;
    va_start(ap, fmt);
    ck_assert(vasprintf(&args, fmt, ap) > 0);
    va_end(ap);
    ck_assert(asprintf(&full, "%s --kernel-dir %s", args, CLC_TEST_KERNEL_DIR) > 0);
    int rc = clc_test_cli(full, out, sizeof out, err, sizeof err);
    free(args);
    free(full);
    return rc;
}

/* The pictures and figures (from the first "warp " on; the kernel source is as written) fit
 * 80 columns. */
static void assert_fits_80(const char *text)
{
    const char *from = strstr(text, "\nwarp ");
    ck_assert_msg(from != NULL, "no warp picture in:\n%s", text);
    clc_test_assert_width(from, 80);
}

/* A verified float row of a profile's case, as `clcoalesce profile -o` keeps it. */
static json_t *profile_row(const char *case_name, const char *variant, long param, double gbps)
{
    struct clc_result r = clc_test_row(case_name, variant, param, CLC_FLOAT, gbps);
    return clc_result_json(&r);
}

/* Writes dir/name, a profile of device "Test GPU" (peak 200 GB/s) with the stream rows
 * (read 120, write 90, copy 100 GB/s) and, with banks, the banks rows of 32 banks: stride s
 * at 1 / s of stride 1's 800 GB/s.  Returns the path (clc_test_path). */
/* Writes root to path and lets it go. */
static void write_json(json_t *root, const char *path)
{
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(json_dump_file(root, path, JSON_COMPACT), 0);
    json_decref(root);
}

static json_t *read_json(const char *path)
{
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    ck_assert_msg(root != NULL, "%s: %s", path, e.text);
    return root;
}

static const char *write_profile(const char *name, bool banks)
{
    json_t *rows = json_array();
    json_array_append_new(rows, profile_row("stream", "read", -1, 120));
    json_array_append_new(rows, profile_row("stream", "write", -1, 90));
    json_array_append_new(rows, profile_row("stream", "copy", -1, 100));
    for (long s = 1; banks && s <= 32; s *= 2)
        json_array_append_new(rows, profile_row("banks", "stride", s, 800.0 / (double)s));
    json_t *root = json_pack("{s:s, s:i, s:{s:s, s:s, s:f}, s:o}", "tool", "clcoalesce",
                             "profile_format", CLC_PROFILE_FORMAT, "device", "name", "Test GPU",
                             "api", "opencl", "peak_gbps", 200.0, "rows", rows);
    const char *path = clc_test_path(dir, name);
    write_json(root, path);
    return path;
}

/* Writes dir/run.json, the result file of an OpenCL run on "Run GPU" holding the row r and
 * the profiles its run kept (model_profile's JSON, "" for none).  Returns the path. */
static const char *write_run(const struct clc_result *r, const char *profiles)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    snprintf(rep.device.name, sizeof rep.device.name, "Run GPU");
    snprintf(rep.model_profile, sizeof rep.model_profile, "%s", profiles);
    ck_assert_int_eq(clc_report_add(&rep, r), CLC_OK);
    const char *path = clc_test_path(dir, "run.json");
    clc_test_write_json(&rep, path);
    return path;
}

START_TEST(explain_coalesced)
{
    ck_assert_int_eq(cli("explain coalesced"), 0);
    clc_test_assert_has(out, "coalesced / kernel (float): kernel scale in coalesced.cl");
    clc_test_assert_has(out, "__kernel void scale(__global const T *in");
    clc_test_assert_has(out, "STORE(out, i, LOAD(in, i) * 2);");
    clc_test_assert_has(out, "first load request");
    clc_test_assert_has(out, "first store request");
    clc_test_assert_has(out, "|0-7            |8-15           |16-23          |24-31          |");
    clc_test_assert_has(out, "4 sectors in 1 line:");
    clc_test_assert_has(out, "loads      4.00 sectors/request");
    clc_test_assert_has(out, "overall    4.00 sectors/request, efficiency 100%");
    /* the source stops at the kernel's closing brace: the next file's text is absent */
    clc_test_assert_lacks(out, "clc_init");
    /* no profile: the waterfall says how to get one */
    clc_test_assert_has(out, "predicted GB/s, layer by layer:\n"
                             "  no profile of this device yet: 'clcoalesce profile' measures it");
    clc_test_assert_lacks(out, "bound:");
    assert_fits_80(out);
}
END_TEST

START_TEST(explain_offset_and_stride_params)
{
    ck_assert_int_eq(cli("explain offset --param 1"), 0);
    clc_test_assert_has(out, "offset / inplace (float, param 1)");
    clc_test_assert_has(out, "+128 |31 ");
    clc_test_assert_has(out, "overall    5.00 sectors/request, efficiency 80%");
    assert_fits_80(out);

    ck_assert_int_eq(cli("explain stride --param 2 --type double"), 0);
    clc_test_assert_has(out, "stride / inplace (double, param 2)");
    clc_test_assert_has(out, "overall   16.00 sectors/request, efficiency 50%");
    assert_fits_80(out);

    /* a param the variant does not have is a usage error that lists the ones it has */
    ck_assert_int_eq(cli("explain stride --param 99"), 2);
    clc_test_assert_has(err, "no param 99; its params: 1, 2, 3");
}
END_TEST

/* A lane wider than 16 bytes: the split into instructions is said under its request, and
 * only there. */
START_TEST(explain_wide_lanes_split)
{
    ck_assert_int_eq(cli("explain vector --variant float16"), 0);
    clc_test_assert_has(out, "  each lane loads 64 bytes, which an NVIDIA GPU splits into 4 "
                             "instructions\n  of 16 bytes, each a request of its own");
    clc_test_assert_has(out, "  each lane stores 64 bytes, which an NVIDIA GPU splits into 4 ");
    clc_test_assert_has(out, "touches: L2 takes each sector more than once");
    assert_fits_80(out);
    ck_assert_int_eq(cli("explain vector --variant float8"), 0);
    clc_test_assert_has(out, "each lane stores 32 bytes, which an NVIDIA GPU splits into 2 ");
    ck_assert_int_eq(cli("explain vector --variant float4"), 0);
    clc_test_assert_lacks(out, "splits into");
}
END_TEST

/* --results: the measured row of a result file beside the prediction. */
START_TEST(explain_with_results)
{
    char path[] = "/tmp/clc-explain-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(cli("run uncoalesced --quick --quiet -r 2 -f json -o %s", path), 0);
    /* a pipe reads as the file does */
    char *text = clc_read_text(path, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(clc_test_cli_stdin(text, false, "explain uncoalesced --results /dev/stdin",
                                        out, sizeof out, err, sizeof err), 0);
    free(text);
    clc_test_assert_has(out, "measured (");
    ck_assert_int_eq(cli("explain uncoalesced --results %s", path), 0);
    unlink(path);
    clc_test_assert_has(out, "loads     32.00 sectors/request");
    clc_test_assert_has(out, "stores     4.00 sectors/request");
    clc_test_assert_has(out, "+3968 |31 ");
    clc_test_assert_has(out, "measured (");
    clc_test_assert_has(out, "of the copy ceiling");
    clc_test_assert_has(out, "predicted: 22%");
    /* a run of uncoalesced alone has no stream rows to predict from: no profile kept */
    clc_test_assert_has(out, "the --results run kept no profile");
    assert_fits_80(out);
}
END_TEST

/* --profile: the waterfall, layer by layer, on a profile the test wrote.  A coalesced copy
 * streams at the copy ceiling (half the peak); stride 8 uses 4 bytes of each 32-byte granule
 * it loads and stores. */
START_TEST(explain_waterfall_on_a_profile)
{
    clc_test_make_dir(dir, "explain");
    const char *prof = write_profile("profile.json", false);
    ck_assert_int_eq(cli("explain coalesced --profile %s", prof), 0);
    clc_test_assert_has(out, "predicted GB/s, layer by layer:\n"
                             "  profile: Test GPU\n"
                             "  from:    --profile ");
    clc_test_assert_has(out, "200.0 GB/s  the top");
    clc_test_assert_has(out, "  ceiling   x 0.500     100.0 GB/s  stream copy, measured");
    clc_test_assert_has(out, "  granules  x 1.000     100.0 GB/s  1.00 B of 32-B granules per useful B");
    clc_test_assert_has(out, "  inflight  x ");
    /* no __local: the L1's pipe is named for the loads' lines, not for banks */
    clc_test_assert_has(out, "  l1        x 1.000     100.0 GB/s  1.0 lines per load request");
    clc_test_assert_lacks(out, "  banks     x");
    clc_test_assert_has(out, "  predicted ");
    clc_test_assert_has(out, "100.0 GB/s  bound: dram\n  dram binds: DRAM streams");
    clc_test_assert_lacks(out, "no profile");
    assert_fits_80(out);
    /* from a pipe (/dev/stdin, <(...)): it said "Invalid argument" */
    char *text = clc_read_text(prof, NULL);
    ck_assert_ptr_nonnull(text);
    int rc = clc_test_cli_stdin(text, false, "explain coalesced --profile /dev/stdin", out,
                                sizeof out, err, sizeof err);
    free(text);
    ck_assert_msg(rc == 0, "exit %d; stderr: %s", rc, err);
    clc_test_assert_has(out, "100.0 GB/s  bound: dram");

    ck_assert_int_eq(cli("explain stride --param 8 --profile %s", prof), 0);
    clc_test_assert_has(out, "  granules  x 0.125 ");
    clc_test_assert_has(out, "bound: sectors\n  sectors binds: DRAM moves granules");
    assert_fits_80(out);

    /* a profile that cannot be read, or a file that is none, is said before any device work */
    ck_assert_int_eq(cli("explain coalesced --profile %s/missing.json", dir), 1);
    clc_test_assert_has(err, "missing.json: cannot read the profile");
    clc_test_assert_lacks(out, "__kernel");
    const char *other = clc_test_path(dir, "other.json");
    clc_test_write_file(other, "{\"name\": 1}\n");
    ck_assert_int_eq(cli("explain coalesced --profile %s", other), 1);
    clc_test_assert_has(err, "not a profile written by 'clcoalesce profile -o'");
    ck_assert_int_eq(cli("explain coalesced --profile"), 2);
    clc_test_remove_dir(dir);
}
END_TEST

/* --results of a run that kept its profiles: the one of explain's API is used, the row's
 * measurement goes beside the prediction, and so does what that run predicted; --profile
 * takes the place of the run's profile. */
START_TEST(explain_waterfall_from_results)
{
    clc_test_make_dir(dir, "explain");
    struct clc_result r = clc_test_row("coalesced", "kernel", -1, CLC_FLOAT, 80);
    r.model.gbps = 90;
    snprintf(r.model.bound, sizeof r.model.bound, "dram");
    const char *res = write_run(&r,
             "[{\"device\": {\"name\": \"Run GPU\", \"api\": \"cuda\"},"
             "  \"stream_gbps\": {\"read\": 50, \"write\": 50, \"copy\": 50}},"
             " {\"device\": {\"name\": \"Run GPU\", \"api\": \"opencl\"},"
             "  \"stream_gbps\": {\"read\": 70, \"write\": 70, \"copy\": 70}}]");

    ck_assert_int_eq(cli("explain coalesced --results %s", res), 0);
    clc_test_assert_has(out, "  profile: Run GPU\n  from:    the run in ");
    clc_test_assert_has(out, "70.0 GB/s  bound: dram");
    clc_test_assert_has(out, "80.0 GB/s  (+14 % against the prediction)");
    clc_test_assert_has(out, "  the run predicted 90.0 GB/s, bound: dram");
    clc_test_assert_has(out, "measured (the --results file):");
    assert_fits_80(out);

    const char *prof = write_profile("profile.json", false);
    ck_assert_int_eq(cli("explain coalesced --results %s --profile %s", res, prof), 0);
    clc_test_assert_has(out, "  profile: Test GPU\n  from:    --profile ");
    clc_test_assert_has(out, "100.0 GB/s  bound: dram");
    clc_test_assert_has(out, "80.0 GB/s  (-20 % against the prediction)");
    clc_test_assert_has(out, "  the run predicted 90.0 GB/s");
    clc_test_remove_dir(dir);
}
END_TEST

/* A profile measured on another device that keeps its facts (the cache, the peak, the compute
 * units) is predicted at the size a run gets there: 4 x a 48 MiB cache, doubled until a copy
 * lasts 0.5 ms at 3000 GB/s, is 1 GiB; there a launch's fixed cost is nothing.  On the same
 * profile without those facts the prediction is of a run on the device explain runs on. */
START_TEST(explain_predicts_the_profiles_device)
{
    clc_test_make_dir(dir, "explain");
    const char *prof = write_profile("profile.json", false);
    json_t *root = read_json(prof);
    json_t *dev = json_object_get(root, "device");
    json_object_set_new(dev, "name", json_string("Big GPU"));
    json_object_set_new(dev, "peak_gbps", json_real(3000));
    json_object_set_new(dev, "l2_bytes", json_integer(48 << 20));
    json_object_set_new(dev, "compute_units", json_integer(100));
    json_object_set_new(dev, "threads_per_cu", json_integer(2048));
    json_object_set_new(root, "launch_us", json_real(50));
    const char *big = clc_test_path(dir, "big.json");
    write_json(root, big);

    ck_assert_int_eq(cli("explain coalesced --profile %s", big), 0);
    clc_test_assert_has(out, "  at:      1 GiB, the size a run gets on Big GPU\n");
    /* 2 GiB moved at 100 GB/s take 21 ms: 50 us more is 0.2 % */
    clc_test_assert_has(out, "  launch    x 0.998 ");
    clc_test_assert_lacks(out, "a CPU's profile"); /* a GPU's, wherever explain runs */
    assert_fits_80(out);
    /* a grid's work-groups are counted by that device's compute units: 4 per unit is 400 */
    ck_assert_int_eq(cli("explain gridstride --variant gridstride --param 400 --profile %s", big),
                     0);
    clc_test_assert_has(out, "inflight  x ");
    clc_test_assert_has(out, " 1024 x 1.0 x 4 B in flight");

    ck_assert_int_eq(cli("explain coalesced --profile %s", prof), 0);
    clc_test_assert_lacks(out, "Big GPU");
    clc_test_assert_has(out, "the size a run gets on ");

    /* a cache and a peak beyond any device's are unknown: no size is planned from them */
    root = read_json(big);
    dev = json_object_get(root, "device");
    json_object_set_new(dev, "peak_gbps", json_real(1e300));
    json_object_set_new(dev, "l2_bytes", json_real(1e30));
    write_json(root, big);
    ck_assert_int_eq(cli("explain coalesced --profile %s", big), 0);
    clc_test_assert_lacks(out, "a run gets on Big GPU");
    clc_test_assert_has(out, "  profile: Big GPU\n");
    clc_test_remove_dir(dir);
}
END_TEST

/* --results: the row a run measured is found by the param its size gives (a transpose's
 * side: 64 MiB of floats are 4096 x 4096), and the prediction is made at that size. */
START_TEST(explain_results_at_the_runs_size)
{
    clc_test_make_dir(dir, "explain");
    struct clc_result r = clc_test_row("transpose", "tiled", 4096, CLC_FLOAT, 80);
    r.size = (uint64_t)64 << 20;
    const char *res = write_run(&r, "");
    const char *prof = write_profile("profile.json", false);

    ck_assert_int_eq(cli("explain transpose --variant tiled --results %s --profile %s", res,
                         prof), 0);
    clc_test_assert_has(out, "  at:      64 MiB, the size of the --results run\n");
    clc_test_assert_has(out, "80.0 GB/s  (-20 % against the prediction)");
    clc_test_assert_lacks(out, "no verified row");
    clc_test_remove_dir(dir);
}
END_TEST

/* The tiled transpose reads its tile down a column: 32 lanes in one bank, so on a profile
 * with 32 banks whose local bandwidth is 8 x the copy ceiling the banks bind; the padded
 * tile spreads the column over the banks and stays DRAM-bound. */
START_TEST(explain_transpose_banks)
{
    clc_test_make_dir(dir, "explain");
    const char *prof = write_profile("banks.json", true);
    ck_assert_int_eq(cli("explain transpose --variant tiled --profile %s", prof), 0);
    clc_test_assert_has(out, "  banks     x 0.");
    clc_test_assert_has(out, "bound: banks\n  banks binds: local memory serves a request");
    assert_fits_80(out);
    ck_assert_int_eq(cli("explain transpose --variant tiled_padded --profile %s", prof), 0);
    clc_test_assert_has(out, "  banks     x 1.000");
    clc_test_assert_has(out, "bound: dram");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(explain_errors)
{
    ck_assert_int_eq(cli("explain"), 2);
    ck_assert_int_eq(cli("explain nosuchcase"), 2);
    clc_test_assert_has(err, "unknown case 'nosuchcase'");
    ck_assert_int_eq(cli("explain coalesced uncoalesced"), 2);
    ck_assert_int_eq(cli("explain coalesced --type double"), 2);
    clc_test_assert_has(err, "does not run in double");
    ck_assert_int_eq(cli("explain coalesced --param x"), 2);
    ck_assert_int_eq(cli("explain coalesced --bogus"), 2);
    /* the driver's copy launches no kernel of ours */
    ck_assert_int_eq(cli("explain copy --variant enqueue"), 1);
    clc_test_assert_has(err, "enqueue");
    ck_assert_int_eq(cli("explain --help"), 0);
    clc_test_assert_has(out, "usage: clcoalesce explain CASE");
    clc_test_assert_has(out, "--profile FILE");
    ck_assert_int_eq(cli("--help"), 0);
    clc_test_assert_has(out, "explain CASE");
    clc_test_assert_has(out, "ptx CASE");
    clc_test_assert_has(out, "--no-model");
}
END_TEST

/* ------------------------------------------------------------------ a user's kernel */

#define EXAMPLES CLC_TEST_SOURCE_DIR "/cl/examples/"
#define HANDOUT CLC_TEST_SOURCE_DIR "/tests/data/handout/"

/* write_profile's profile with an fma row: 2 GFLOP/s in float (10^9 FMAs a second). */
static const char *write_compute_profile(const char *name)
{
    json_t *root = read_json(write_profile(name, false));
    struct clc_result r = clc_test_row("fma", "chains", -1, CLC_FLOAT, 1);
    r.flops = 2e9;
    r.ms_median = 1000;
    json_array_append_new(json_object_get(root, "rows"), clc_result_json(&r));
    const char *path = clc_test_path(dir, name);
    write_json(root, path);
    return path;
}

/* explain --kernel-file: a user's kernel taken as custom takes it, traced (nothing timed)
 * and explained like a case, with its flops in the compute layer. */
START_TEST(explain_a_users_kernel)
{
    clc_test_make_dir(dir, "explain-kernel");
    const char *prof = write_compute_profile("profile.json");
    /* an example written with the macros: traced whether or not the rewriter was built */
    int rc = cli("explain --kernel-file " EXAMPLES "stencil.cl --kernel stencil_tiled "
                 "--size 64K --profile %s", prof);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    clc_test_assert_has(out, "custom / stencil_tiled (float): kernel stencil_tiled in ");
    clc_test_assert_has(out, "__kernel void stencil_tiled(");
    clc_test_assert_has(out, "first load request");
    clc_test_assert_has(out, "predicted GB/s, layer by layer:\n  profile: Test GPU");
    clc_test_assert_has(out, "  at:      64 KiB");
    clc_test_assert_has(out, "  compute   x 1.000 ");
    clc_test_assert_has(out, "no flops counted");
    clc_test_assert_has(out, "  predicted ");
    clc_test_assert_has(out, "predicted, not measured");
    clc_test_assert_lacks(out, "measured    "); /* no measured line in the waterfall */
    assert_fits_80(out);
    /* its description's flops: 64 a element, 8 bytes moved, at 2 GFLOP/s */
    if (clc_rewrite_available()) {
        rc = cli("explain --kernel-file " EXAMPLES "poly.cl --kernel poly_horner --size 64K "
                 "--profile %s", prof);
        ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
        clc_test_assert_has(out, "  compute   x ");
        clc_test_assert_has(out, " flops, 8.00 a byte, at 2.0 fp32"); /* wrapped after it */
        clc_test_assert_has(out, "bound: compute\n  compute binds: ");
        assert_fits_80(out);
    }
    clc_test_remove_dir(dir);
}
END_TEST

/* A kernel as a course handout writes it, with a description alone: traced through the
 * rewriter where it was built; where it was not, the trace cannot see it, which is said. */
START_TEST(explain_a_handout_kernel)
{
    const char *args = "explain --kernel-file " HANDOUT "stencil.cl --kernel jacobi --size 64K "
                       "--describe 'size NX = sqrt(n); size NY = n / NX; arg u in float NX*NY; "
                       "arg unew out float NX*NY; arg nx scalar int NX; arg ny scalar int NY; "
                       "grid NX, NY; group 16, 16'";
    int rc = cli("%s", args);
    if (!clc_rewrite_available()) {
        fprintf(stderr, "explain_a_handout_kernel: the rewriter was not built: only the "
                "error is checked\n");
        ck_assert_int_eq(rc, 1);
        clc_test_assert_has(err, "kernel 'jacobi': the trace cannot see its accesses (");
        return;
    }
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    clc_test_assert_has(out, "custom / jacobi (float): kernel jacobi in ");
    clc_test_assert_has(out, "unew[j * nx + i] = u[j * nx + i];"); /* its source as written */
    clc_test_assert_has(out, "first store request");
    clc_test_assert_has(out, "prediction (");
    clc_test_assert_has(out, "predicted, not measured");
    assert_fits_80(out);
}
END_TEST

/* Bad input to explain --kernel-file: custom's messages and exit codes, and a kernel the
 * trace cannot see named with why. */
START_TEST(explain_kernel_errors)
{
    clc_test_make_dir(dir, "explain-kernel-bad");
    ck_assert_int_eq(cli("explain --kernel-file " EXAMPLES "stencil.cl"), 2);
    clc_test_assert_has(err, "missing --kernel");
    ck_assert_int_eq(cli("explain --kernel-file " HANDOUT "stencil.cl --kernel jacobi "
                         "--describe 'arg u in float n; arg unew out float n; arg nx scalar "
                         "int n'"), 2);
    clc_test_assert_has(err, "takes 4 parameters; the description has 3: not described: ny");
    ck_assert_int_eq(cli("explain --kernel-file " EXAMPLES "stencil.cl --kernel nope"), 1);
    clc_test_assert_has(err, "no __kernel 'nope'");
    ck_assert_int_eq(cli("explain --kernel-file %s/missing.cl --kernel k", dir), 1);
    clc_test_assert_has(err, "missing.cl");
    ck_assert_int_eq(cli("explain --kernel-file " EXAMPLES "poly.cl --kernel poly_horner "
                         "--flops 'm + 1'"), 2);
    clc_test_assert_has(err, "--flops: unknown size 'm'");
    const char *o = clc_test_path(dir, "out.txt");
    ck_assert_int_eq(cli("explain --kernel-file " EXAMPLES "stencil.cl --kernel stencil_tiled "
                         "-o %s", o), 2);
    clc_test_assert_has(err, "no -o");
    ck_assert_msg(access(o, F_OK) != 0, "%s was written", o);
    ck_assert_int_eq(cli("explain --kernel-file " EXAMPLES "stencil.cl --kernel stencil_tiled "
                         "--api both"), 2);
    clc_test_assert_has(err, "--api opencl or cuda, not both");
    /* the macros in part: the trace build cannot record it, whatever the rewriter */
    const char *half = clc_test_path(dir, "half.cl");
    clc_test_write_file(half, "#include \"clc.h\"\n"
                              "__kernel void half(__global const float *in, __global float *out"
                              " CLC_TRACE_ARGS)\n{\n    size_t i = get_global_id(0);\n"
                              "    out[i] = in[i];\n}\n");
    ck_assert_int_eq(cli("explain --kernel-file %s --kernel half --size 64K", half), 1);
    clc_test_assert_has(err, "kernel 'half': the trace cannot see its accesses (no "
                             "CLC_TRACE_BEGIN)");
    clc_test_assert_lacks(out, "prediction (");
    clc_test_remove_dir(dir);
}
END_TEST

/* `run --no-model` leaves the model fields empty. */
START_TEST(run_no_model)
{
    ck_assert_int_eq(cli("run coalesced --quick --quiet -r 2 -f json --no-model"), 0);
    clc_test_assert_has(out, "\"model_efficiency\": null");
    ck_assert_int_eq(cli("run coalesced --quick --quiet -r 2 -f json"), 0);
    clc_test_assert_has(out, "\"model_sectors_per_req\": 4");
}
END_TEST

/* A run that predicts on a CPU says once what its predictions are worth there; a GPU's run
 * and a run without the model do not. */
START_TEST(run_on_a_cpu_says_what_predictions_mean)
{
    static const char note[] = "model: on a CPU the ceilings the predictions read are its caches'";
    bool cpu = clc_test_default_device().cpu;
    ck_assert_int_eq(cli("run copy stream --quick -r 2 --type float --no-progress --model-table"), 0);
    clc_test_assert_has(out, "predicted from this run's own rows");
    if (cpu) {
        clc_test_assert_has(err, note);
        ck_assert_ptr_null(strstr(strstr(err, note) + 1, note)); /* once */
    } else {
        clc_test_assert_lacks(err, note);
    }
    ck_assert_int_eq(cli("run copy stream --quick -r 2 --type float --no-progress --no-model"), 0);
    clc_test_assert_lacks(err, note);
}
END_TEST

/* PoCL returns no PTX: a clear message and exit 1.  On NVIDIA: the PTX, loads counted. */
/* The profile a device keeps: `profile` at its default sizes keeps a copy of what it wrote
 * to -o, and explain and a run without the stream case then predict with it, saying so. */
START_TEST(kept_profile_feeds_explain_and_run)
{
    clc_test_make_dir(dir, "kept");
    char folder[128], cmd[256];
    snprintf(folder, sizeof folder, "%s/cache", dir);
    setenv("CLCOALESCE_CACHE_DIR", folder, 1);
    const char *written = clc_test_path(dir, "profile.json");
    snprintf(cmd, sizeof cmd, "profile --reps 1 -o %s", written);
    ck_assert_int_eq(clc_test_cli(cmd, out, sizeof out, err, sizeof err), 0);
    const char *said = strstr(err, "kept as this device's profile in ");
    ck_assert_msg(said != NULL, "no kept profile in:\n%s", err);
    char kept[512];
    ck_assert_int_eq(sscanf(said, "kept as this device's profile in %511[^:]", kept), 1);
    ck_assert_msg(strncmp(kept, folder, strlen(folder)) == 0, "%s is not in %s", kept, folder);
    size_t a_len = 0, b_len = 0;
    char *a = clc_read_text(written, &a_len), *b = clc_read_text(kept, &b_len);
    ck_assert_msg(a != NULL && b != NULL && a_len == b_len && memcmp(a, b, a_len) == 0,
                  "%s differs from %s", kept, written);
    free(a);
    free(b);

    ck_assert_int_eq(cli("explain coalesced"), 0);
    clc_test_assert_has(out, "  from:    this device's kept profile, measured ");
    clc_test_assert_has(out, "bound:");
    /* a CPU's own profile: the layers said to be a GPU's, read with the CPU's figures */
    bool cpu = clc_test_default_device().cpu;
    ck_assert_int_eq(strstr(out, "(a CPU's profile: these are a GPU's layers") != NULL, cpu);
    clc_test_assert_has(err, "predicting with this device's profile kept in ");

    /* a GPU's kept profile holds DRAM's ceilings, which predict no row that fits in its L2:
     * there the rows are past it (4 x the largest L2 of any GPU); a CPU's profile covers its
     * quick rows */
    const char *size = cpu ? "--quick" : "--size 512MiB -r 3";
    const char *run = clc_test_path(dir, "run.json");
    ck_assert_int_eq(cli("run coalesced %s -f json -o %s", size, run), 0);
    clc_test_assert_has(err, "model: predicting with this device's profile kept in ");
    clc_test_assert_has(err, "model: 'clcoalesce explain CASE --variant V' prints a row's");
    json_t *root = read_json(run);
    json_t *row = json_array_get(json_object_get(root, "results"), 0);
    ck_assert(json_is_number(json_object_get(row, "model_gbps")));
    ck_assert(json_is_string(json_object_get(row, "model_bound")));
    json_decref(root);

    /* custom's ranking too, and why its kernel runs as it does, the measurement beside */
    ck_assert_int_eq(cli("custom --kernel-file %s/cl/examples/copy_float4.cl --kernel "
                         "copy_float4 --pattern copy --items-per-thread 4 %s",
                         CLC_TEST_SOURCE_DIR, cpu ? "--size 64KiB -r 2" : size), 0);
    const char *why = strstr(out, "copy_float4, layer by layer on the profile of\n  ");
    ck_assert_msg(why != NULL, "no waterfall in: %s", out);
    clc_test_assert_has(why, "  measured  ");
    clc_test_assert_lacks(why, "not this one");
    ck_assert_int_eq(strstr(why, "(a CPU's profile: ") != NULL, cpu);
    clc_test_assert_lacks(err, "clcoalesce explain CASE"); /* it explains its kernel itself */

    /* a profile's own rows predict nothing, though the device keeps a profile that would
     * (the held tile's rows are traced) */
    snprintf(cmd, sizeof cmd, "profile --size 1MiB --reps 1 -o %s", written);
    ck_assert_int_eq(clc_test_cli(cmd, out, sizeof out, err, sizeof err), 0);
    root = read_json(written);
    json_t *rows = json_object_get(root, "rows");
    size_t held = 0;
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *r = json_array_get(rows, i);
        if (strcmp(json_string_value(json_object_get(r, "variant")), "tiled_held") != 0)
            continue;
        held++;
        ck_assert(json_is_object(json_object_get(r, "model_features")));
        ck_assert(!json_is_number(json_object_get(r, "model_gbps")));
    }
    ck_assert_uint_gt(held, 0);
    json_decref(root);

    /* a smaller profile is not the device's: nothing kept beside it */
    setenv("CLCOALESCE_CACHE_DIR", clc_test_path(dir, "other"), 1);
    snprintf(cmd, sizeof cmd, "profile --size 1MiB --reps 1 -o %s", written);
    ck_assert_int_eq(clc_test_cli(cmd, out, sizeof out, err, sizeof err), 0);
    clc_test_assert_lacks(err, "kept as");
    ck_assert_int_ne(access(clc_test_path(dir, "other"), F_OK), 0);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(ptx_command)
{
    bool nvidia = clc_test_default_device().nvidia;
    int rc = cli("ptx coalesced");
    if (nvidia) {
        ck_assert_int_eq(rc, 0);
        clc_test_assert_has(out, ".target");
        clc_test_assert_has(out, "ld.global");
        clc_test_assert_has(out, ">> ");
        clc_test_assert_has(out, "global loads in flight a work-item keeps, as compiled: ");
        ck_assert_int_eq(cli("ptx vector --variant float4"), 0);
        clc_test_assert_has(out, "v4.f32");
    } else {
        ck_assert_int_eq(rc, 1);
        clc_test_assert_has(err, "returned no PTX (only NVIDIA's OpenCL driver does)");
        clc_test_assert_lacks(out, ".target");
    }
    /* --raw: the module as the driver returned it, nothing added */
    rc = cli("ptx transpose --raw");
    if (nvidia) {
        ck_assert_int_eq(rc, 0);
        ck_assert_msg(strncmp(out, "//", 2) == 0 || strncmp(out, ".version", 8) == 0 ||
                      out[0] == '\n', "not raw PTX: %.80s", out);
        clc_test_assert_has(out, ".entry tiled_1elem");
        clc_test_assert_lacks(out, ">> ");
    } else {
        ck_assert_int_eq(rc, 1);
        clc_test_assert_has(err, "returned no PTX");
    }
    ck_assert_int_eq(cli("ptx transpose --raw --verbose"), 2);
    clc_test_assert_has(err, "--verbose and --raw do not go together");
    ck_assert_int_eq(cli("ptx nosuchcase"), 2);
    ck_assert_int_eq(cli("ptx coalesced --param 1"), 2); /* a param needs a variant */
    clc_test_assert_has(err, "--param goes with --variant");
    ck_assert_int_eq(cli("ptx --help"), 0);
    clc_test_assert_has(out, "usage: clcoalesce ptx CASE");
}
END_TEST

/* The source extractor: the named kernel with the comment above it, braces in comments
 * and nested blocks handled, a kernel whose name is a prefix of another not confused. */
START_TEST(kernel_source_extraction)
{
    static const char src[] =
        "#include \"clc.h\"\n"
        "/* first */\n"
        "__kernel void scale2(__global T *a) { a[0] = 1; }\n"
        "\n"
        "/* The one we want.\n"
        " * Two lines of comment. } */\n"
        "__kernel void scale(__global T *a CLC_TRACE_ARGS)\n"
        "{\n"
        "    if (1) { a[0] = 2; } // }\n"
        "}\n"
        "kernel void after(void) {}\n";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert(clc_print_kernel_source(f, src, "scale"));
    fclose(f);
    ck_assert_str_eq(buf, "  /* The one we want.\n"
                          "   * Two lines of comment. } */\n"
                          "  __kernel void scale(__global T *a CLC_TRACE_ARGS)\n"
                          "  {\n"
                          "      if (1) { a[0] = 2; } // }\n"
                          "  }\n");
    free(buf);
    f = open_memstream(&buf, &len);
    ck_assert(clc_print_kernel_source(f, src, "after"));
    ck_assert(!clc_print_kernel_source(f, src, "missing"));
    fclose(f);
    ck_assert_str_eq(buf, "  kernel void after(void) {}\n");
    free(buf);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {explain_coalesced,
                            explain_offset_and_stride_params,
                            explain_wide_lanes_split,
                            explain_with_results,
                            explain_waterfall_on_a_profile,
                            explain_waterfall_from_results,
                            explain_predicts_the_profiles_device,
                            explain_results_at_the_runs_size,
                            explain_transpose_banks,
                            explain_errors,
                            explain_a_users_kernel,
                            explain_a_handout_kernel,
                            explain_kernel_errors,
                            run_no_model,
                            run_on_a_cpu_says_what_predictions_mean,
                            kept_profile_feeds_explain_and_run,
                            ptx_command,
                            kernel_source_extraction};
    return clc_test_main(clc_test_suite("explain", tests, sizeof tests / sizeof tests[0]));
}
