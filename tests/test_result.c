/* test_result.c - result files: every field of format 2 written and read back, format 1
 * files still read, the CSV's new columns at the end, and the reader's strictness: a field
 * of the wrong type, a missing required field, a number out of range, a directory, a cut
 * file or a row that is not an object is an error naming the file, the row and the field;
 * text from a file never reaches the terminal as control bytes. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char dir[64];
static char out[1 << 16], err[1 << 16];

/* ------------------------------------------------------------------ a full report */

/* A report with every field set to a value a reader could not guess, and each kind of row:
 * bandwidth, latency, skipped and failed.  Numbers have at most 8 significant digits: the
 * JSON writer keeps 8. */
static void full_report(struct clc_report *rep)
{
    clc_report_init(rep, "both");
    snprintf(rep->timestamp, sizeof rep->timestamp, "2024-05-06T07:08:09Z");
    rep->n_apis = 2;
    snprintf(rep->apis[0].name, sizeof rep->apis[0].name, "opencl");
    snprintf(rep->apis[0].version, sizeof rep->apis[0].version, "OpenCL 3.0 X");
    rep->apis[0].copy_gbps = 1234.5;
    snprintf(rep->apis[0].copy_source, sizeof rep->apis[0].copy_source, "clEnqueueCopyBuffer");
    snprintf(rep->apis[1].name, sizeof rep->apis[1].name, "cuda");
    snprintf(rep->apis[1].version, sizeof rep->apis[1].version, "CUDA 12.4");
    rep->apis[1].copy_gbps = 2345.25;
    snprintf(rep->apis[1].copy_source, sizeof rep->apis[1].copy_source, "cuMemcpyDtoD");
    struct clc_device_meta *d = &rep->device;
    snprintf(d->name, sizeof d->name, "Test GPU \"9\"");
    snprintf(d->vendor, sizeof d->vendor, "Vendor");
    snprintf(d->driver, sizeof d->driver, "550.1");
    snprintf(d->platform, sizeof d->platform, "Platform");
    snprintf(d->version, sizeof d->version, "OpenCL 3.0");
    d->cc_major = 9, d->cc_minor = 0, d->warp_size = 32;
    snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "0000:41:00.0");
    d->compute_units = 132;
    d->global_mem = 85899345920ull, d->max_alloc = 21474836480ull, d->l2_bytes = 52428800;
    d->timer_res_ns = 32, d->peak_gbps = 3350, d->copy_gbps = 1234.5;
    snprintf(d->peak_source, sizeof d->peak_source, "table");
    snprintf(d->copy_source, sizeof d->copy_source, "clEnqueueCopyBuffer");
    rep->run = (struct clc_run_meta){.size = 1ull << 30, .size_auto = true, .reps = 20,
                                     .warmup = 2, .quick = true, .cold = true,
                                     .types = CLC_FLOAT | CLC_DOUBLE};
    snprintf(rep->run.cases, sizeof rep->run.cases, "copy stride");

    struct clc_result r;
    clc_result_init(&r, "stride", "inplace", CLC_DOUBLE);
    clc_result_set_param(&r, -4);
    snprintf(r.api, sizeof r.api, "cuda");
    r.bytes = 1000000, r.size = 2000000, r.reps = 20, r.batch = 3;
    r.ms_median = 0.5, r.ms_min = 0.25, r.ms_max = 0.75, r.cv = 0.125, r.ms_host = 0.625;
    r.gbps = r.value = 2.5, r.pct_copy = 12.5, r.pct_peak = 6.25;
    r.model.sectors_per_req = 4.5, r.model.ld_sectors_per_req = 8.5;
    r.model.st_sectors_per_req = 1.5, r.model.efficiency = 0.375, r.model.bytes_moved = 4096;
    r.verified = true, r.status = CLC_STATUS_OK;
    snprintf(r.note, sizeof r.note, "a \"quoted\", note");
    ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);

    clc_result_init(&r, "chase", "dependent", CLC_FLOAT);
    r.metric = CLC_METRIC_NS_PER_ACCESS;
    r.bytes = 4096, r.reps = 5, r.batch = 1, r.ms_median = 0.5, r.accesses = 1000;
    r.value = 500, r.verified = true, r.status = CLC_STATUS_OK;
    ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);

    clc_result_init(&r, "copy", "enqueue", CLC_FLOAT);
    r.status = CLC_STATUS_SKIPPED;
    snprintf(r.note, sizeof r.note, "no fp64");
    ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);

    clc_result_init(&r, "copy", "kernel", CLC_FLOAT);
    r.bytes = 64, r.reps = 2;
    snprintf(r.note, sizeof r.note, "wrong result at 3");
    ck_assert_int_eq(clc_report_add(rep, &r), CLC_OK);
}

/* Asserts that two doubles are equal, NAN equal to NAN, naming the field. */
#define ASSERT_NUM(field, a, b)                                                              \
    ck_assert_msg(((a) == (b)) || (isnan(a) && isnan(b)), "%s: read %.17g, wrote %.17g", \
                  field, (double)(a), (double)(b))

static void assert_same_row(const struct clc_result *got, const struct clc_result *want)
{
    ck_assert_str_eq(got->case_name, want->case_name);
    ck_assert_str_eq(got->variant, want->variant);
    ck_assert_str_eq(got->api, want->api);
    ck_assert_int_eq(got->metric, want->metric);
    ck_assert_int_eq(got->has_param, want->has_param);
    if (want->has_param)
        ck_assert_int_eq(got->param, want->param);
    ck_assert_int_eq(got->type, want->type);
    ck_assert_uint_eq(got->bytes, want->bytes);
    ck_assert_uint_eq(got->size, want->size);
    ck_assert_int_eq(got->reps, want->reps);
    ck_assert_int_eq(got->batch, want->batch);
    ASSERT_NUM("value", got->value, want->value);
    ASSERT_NUM("accesses", got->accesses, want->accesses);
    ASSERT_NUM("ms_median", got->ms_median, want->ms_median);
    ASSERT_NUM("ms_min", got->ms_min, want->ms_min);
    ASSERT_NUM("ms_max", got->ms_max, want->ms_max);
    ASSERT_NUM("cv", got->cv, want->cv);
    ASSERT_NUM("ms_host", got->ms_host, want->ms_host);
    ASSERT_NUM("gbps", got->gbps, want->gbps);
    ASSERT_NUM("pct_copy", got->pct_copy, want->pct_copy);
    ASSERT_NUM("pct_peak", got->pct_peak, want->pct_peak);
    ASSERT_NUM("model_sectors_per_req", got->model.sectors_per_req, want->model.sectors_per_req);
    ASSERT_NUM("model_ld_sectors_per_req", got->model.ld_sectors_per_req,
               want->model.ld_sectors_per_req);
    ASSERT_NUM("model_st_sectors_per_req", got->model.st_sectors_per_req,
               want->model.st_sectors_per_req);
    ASSERT_NUM("model_efficiency", got->model.efficiency, want->model.efficiency);
    ASSERT_NUM("model_bytes_moved", got->model.bytes_moved, want->model.bytes_moved);
    ck_assert_int_eq(got->verified, want->verified);
    ck_assert_int_eq(got->status, want->status);
    ck_assert_str_eq(got->note, want->note);
}

/* The report as JSON text (malloc'd). */
static char *json_text(const struct clc_report *rep)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(clc_write_json(rep, f), CLC_OK);
    fclose(f);
    return buf;
}

START_TEST(round_trip_every_field)
{
    struct clc_report rep, back;
    full_report(&rep);
    char *text = json_text(&rep);
    clc_test_capture(2);
    int rc = clc_read_json_text(text, strlen(text), "mem.json", &back);
    const char *said = clc_test_captured();
    ck_assert_msg(rc == CLC_OK, "read failed: %s", said);
    ck_assert_str_eq(said, ""); /* a file of this version warns of nothing */
    ck_assert_int_eq(back.format, CLC_RESULT_FORMAT);
    ck_assert_str_eq(back.tool, rep.tool);
    ck_assert_str_eq(back.version, rep.version);
    ck_assert_str_eq(back.api, "both");
    ck_assert_str_eq(back.timestamp, rep.timestamp);
    ck_assert_int_eq(back.n_apis, 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(back.apis[i].name, rep.apis[i].name);
        ck_assert_str_eq(back.apis[i].version, rep.apis[i].version);
        ASSERT_NUM("apis.copy_gbps", back.apis[i].copy_gbps, rep.apis[i].copy_gbps);
        ck_assert_str_eq(back.apis[i].copy_source, rep.apis[i].copy_source);
    }
    const struct clc_device_meta *d = &back.device, *w = &rep.device;
    ck_assert_str_eq(d->name, w->name);
    ck_assert_str_eq(d->vendor, w->vendor);
    ck_assert_str_eq(d->driver, w->driver);
    ck_assert_str_eq(d->platform, w->platform);
    ck_assert_str_eq(d->version, w->version);
    ck_assert_int_eq(d->cc_major, w->cc_major);
    ck_assert_int_eq(d->cc_minor, w->cc_minor);
    ck_assert_int_eq(d->warp_size, w->warp_size);
    ck_assert_str_eq(d->pci_bus_id, w->pci_bus_id);
    ck_assert_int_eq(d->compute_units, w->compute_units);
    ck_assert_uint_eq(d->global_mem, w->global_mem);
    ck_assert_uint_eq(d->max_alloc, w->max_alloc);
    ck_assert_uint_eq(d->l2_bytes, w->l2_bytes);
    ASSERT_NUM("timer_res_ns", d->timer_res_ns, w->timer_res_ns);
    ASSERT_NUM("peak_gbps", d->peak_gbps, w->peak_gbps);
    ASSERT_NUM("copy_gbps", d->copy_gbps, w->copy_gbps);
    ck_assert_str_eq(d->peak_source, w->peak_source);
    ck_assert_str_eq(d->copy_source, w->copy_source);
    ck_assert_uint_eq(back.run.size, rep.run.size);
    ck_assert_int_eq(back.run.size_auto, rep.run.size_auto);
    ck_assert_int_eq(back.run.reps, rep.run.reps);
    ck_assert_int_eq(back.run.warmup, rep.run.warmup);
    ck_assert_int_eq(back.run.quick, rep.run.quick);
    ck_assert_int_eq(back.run.cold, rep.run.cold);
    ck_assert_uint_eq(back.run.types, rep.run.types);
    ck_assert_str_eq(back.run.cases, rep.run.cases);
    ck_assert_uint_eq(back.n_results, rep.n_results);
    for (size_t i = 0; i < rep.n_results; i++)
        assert_same_row(&back.results[i], &rep.results[i]);
    /* the copy ceiling of a row is its own API's */
    ASSERT_NUM("copy of the cuda row", clc_report_copy_gbps(&back, &back.results[0]), 2345.25);
    free(text);
    clc_report_free(&back);
    clc_report_free(&rep);
}
END_TEST

START_TEST(format_2_fields_in_the_json)
{
    struct clc_report rep;
    full_report(&rep);
    char *text = json_text(&rep);
    json_error_t e;
    json_t *root = json_loads(text, 0, &e);
    ck_assert_msg(root != NULL, "%s", e.text);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "format")), 2);
    json_t *api0 = json_array_get(json_object_get(root, "apis"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(api0, "name")), "opencl");
    ck_assert(json_is_real(json_object_get(api0, "copy_gbps")));
    json_t *rows = json_object_get(root, "results");
    json_t *bw = json_array_get(rows, 0), *lat = json_array_get(rows, 1);
    ck_assert_str_eq(json_string_value(json_object_get(bw, "api")), "cuda");
    ck_assert_str_eq(json_string_value(json_object_get(bw, "metric")), "gbps");
    ck_assert_str_eq(json_string_value(json_object_get(bw, "unit")), "GB/s");
    ck_assert(json_real_value(json_object_get(bw, "value")) == 2.5);
    ck_assert(json_is_null(json_object_get(bw, "accesses")));
    ck_assert(json_object_get(bw, "ns_per_access") == NULL);
    ck_assert_str_eq(json_string_value(json_object_get(lat, "metric")), "ns_per_access");
    ck_assert_str_eq(json_string_value(json_object_get(lat, "unit")), "ns");
    ck_assert(json_is_null(json_object_get(lat, "gbps")));
    ck_assert(json_real_value(json_object_get(lat, "ns_per_access")) == 500);
    ck_assert(json_real_value(json_object_get(lat, "accesses")) == 1000);
    json_decref(root);
    free(text);
    clc_report_free(&rep);
}
END_TEST

START_TEST(format_1_file_still_reads)
{
    static const char v1[] =
        "{\"tool\": \"clcoalesce\", \"version\": \"0.1.0\", \"api\": \"cuda\", "
        "\"device\": {\"name\": \"Old GPU\", \"copy_gbps\": 900.5},"
        "\"results\": [{\"case\": \"copy\", \"variant\": \"kernel\", \"param\": null, "
        "\"type\": \"float\", \"bytes\": 1000, \"reps\": 3, \"batch\": 1, \"ms_median\": 0.5, "
        "\"gbps\": 2.0, \"verified\": true, \"status\": \"ok\", \"note\": \"\"}]}";
    struct clc_report rep;
    clc_test_capture(2);
    int rc = clc_read_json_text(v1, sizeof v1 - 1, "v1.json", &rep);
    const char *said = clc_test_captured();
    ck_assert_msg(rc == CLC_OK, "%s", said);
    ck_assert_str_eq(said, ""); /* what format 1 lacks is no news */
    ck_assert_int_eq(rep.format, 1);
    ck_assert_int_eq(rep.n_apis, 0);
    const struct clc_result *r = &rep.results[0];
    ck_assert_str_eq(r->api, "cuda"); /* the file's */
    ck_assert_int_eq(r->metric, CLC_METRIC_GBPS);
    ASSERT_NUM("value", r->value, 2.0);
    ck_assert_uint_eq(r->size, 0);
    ASSERT_NUM("copy", clc_report_copy_gbps(&rep, r), 900.5); /* the device's */
    clc_report_free(&rep);
}
END_TEST

START_TEST(csv_new_columns_last)
{
    struct clc_report rep;
    full_report(&rep);
    snprintf(rep.results[2].variant, sizeof rep.results[2].variant, "a,b");
    rep.results[0].cache_resident = true;
    rep.results[0].model.gbps = 3.5;
    snprintf(rep.results[0].model.bound, sizeof rep.results[0].model.bound, "sectors");
    rep.results[0].model.dram_bytes = 8e6;
    rep.results[0].model.bytes_moved = 2097152;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(clc_write_csv(&rep, f), CLC_OK);
    fclose(f);
    clc_test_assert_has(buf, "verified,status,run_api,device,note,size_bytes,api,metric,unit,"
                             "value,cache_resident,model_gbps,model_bound,model_dram_bytes,noisy\n");
    clc_test_assert_has(buf, "stride,inplace,-4,double,1000000,20,3,");
    clc_test_assert_has(buf, "\"a \"\"quoted\"\", note\",2000000,cuda,gbps,GB/s,2.5,true,"
                             "3.5,sectors,8000000,false\n");
    clc_test_assert_has(buf, ",0,opencl,ns_per_access,ns,500,false,,,,false\n");
    clc_test_assert_has(buf, "copy,\"a,b\",,float,"); /* a comma quoted, columns kept */
    /* byte counts are whole numbers (2.09715e+06 was written), each column named once */
    clc_test_assert_has(buf, ",2097152,");
    clc_test_assert_lacks(buf, "e+0");
    const char *api = strstr(buf, ",api,");
    ck_assert_ptr_nonnull(api);
    ck_assert_ptr_null(strstr(api + 1, ",api,"));
    free(buf);
    clc_report_free(&rep);
}
END_TEST

/* A verified row whose cv is above CLC_NOISY_CV is marked noisy in the table, CSV and JSON,
 * also when read from a file written before the mark existed (it follows from cv); the note
 * that ends a run counts them and names the noisiest. */
START_TEST(noisy_rows_marked)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    static const double cv[] = {0.05, 1.17, 1.61, CLC_NOISY_CV};
    for (int i = 0; i < 4; i++) {
        struct clc_result r = clc_test_row("stride", "inplace", i + 1, CLC_FLOAT, 100.0);
        r.cv = cv[i];
        ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    }
    rep.results[2].cache_resident = true;
    for (int i = 0; i < 4; i++)
        ck_assert_msg(clc_result_noisy(&rep.results[i]) == (i == 1 || i == 2), "row %d", i);
    rep.results[3].status = CLC_STATUS_ERROR; /* a failed row is never called noisy */
    rep.results[3].cv = 2.0;
    ck_assert(!clc_result_noisy(&rep.results[3]));

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clc_write_table(&rep, f);
    fclose(f);
    const char *l1 = strstr(buf, "     1 float"), *l2 = strstr(buf, "     2 float");
    const char *l3 = strstr(buf, "     3 float");
    ck_assert_msg(l1 && l2 && l3, "%s", buf);
    ck_assert_msg(strncmp(strstr(l1, "verified"), "verified\n", 9) == 0, "%s", buf);
    ck_assert_msg(strncmp(strstr(l2, "verified"), "verified, noisy\n", 16) == 0, "%s", buf);
    ck_assert_msg(strncmp(strstr(l3, "verified"), "verified, in cache, noisy\n", 26) == 0, "%s",
                  buf);
    free(buf);

    f = open_memstream(&buf, &len);
    ck_assert_int_eq(clc_write_json(&rep, f), CLC_OK);
    fclose(f);
    json_t *root = json_loads(buf, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *rows = json_object_get(root, "results");
    ck_assert(json_is_false(json_object_get(json_array_get(rows, 0), "noisy")));
    ck_assert(json_is_true(json_object_get(json_array_get(rows, 1), "noisy")));
    /* a file without the field (older) reads, and its rows are marked from their cv */
    for (size_t i = 0; i < json_array_size(rows); i++)
        json_object_del(json_array_get(rows, i), "noisy");
    char *old = json_dumps(root, 0);
    json_decref(root);
    free(buf);
    struct clc_report back;
    ck_assert_int_eq(clc_read_json_text(old, strlen(old), "old.json", &back), CLC_OK);
    free(old);
    ck_assert(!clc_result_noisy(&back.results[0]));
    ck_assert(clc_result_noisy(&back.results[1]));
    clc_report_free(&back);

    clc_test_capture(2);
    clc_report_note_noisy(&rep, 0);
    const char *said = clc_test_captured();
    clc_test_assert_has(said, "2 rows (marked 'noisy')");
    clc_test_assert_has(said, "up to 161 % (stride/inplace:3 float)");
    clc_test_capture(2);
    clc_report_note_noisy(&rep, 3); /* from the failed row on: none */
    ck_assert_str_eq(clc_test_captured(), "");
    clc_report_free(&rep);
}
END_TEST

/* ------------------------------------------------------------------ strict reading */

/* Writes a file of two rows, the first valid, the second valid but for `key` set to the
 * JSON text `value` (NULL: removed), reads it and returns clc_read_json's code; *msg gets
 * what it said on stderr. */
static int read_changed(const char *key, const char *value, const char **msg)
{
    json_t *row = json_pack("{s:s, s:s, s:s, s:s, s:I, s:i, s:i, s:b, s:f, s:f}", "case", "copy",
                            "variant", "kernel", "type", "float", "status", "ok", "bytes",
                            (json_int_t)1000000, "reps", 3, "batch", 1, "verified", 1, "gbps",
                            100.0, "ms_median", 0.01);
    json_t *changed = json_deep_copy(row);
    json_object_set_new(changed, "variant", json_string("other"));
    if (value == NULL) {
        json_object_del(changed, key);
    } else {
        json_error_t e;
        json_t *v = json_loads(value, JSON_DECODE_ANY, &e);
        ck_assert_msg(v != NULL, "%s: %s", value, e.text);
        json_object_set_new(changed, key, v);
    }
    json_t *root = json_pack("{s:i, s:s, s:[o, o]}", "format", 2, "api", "opencl", "results",
                             row, changed);
    const char *path = clc_test_path(dir, "changed.json");
    ck_assert_int_eq(json_dump_file(root, path, 0), 0);
    json_decref(root);
    struct clc_report rep;
    clc_test_capture(2);
    int rc = clc_read_json(path, &rep);
    *msg = clc_test_captured();
    clc_report_free(&rep);
    return rc;
}

/* Asserts that the file with key changed to value is refused with a message naming the
 * file, the second row and `says`. */
static void assert_refused(const char *key, const char *value, const char *says)
{
    const char *msg;
    int rc = read_changed(key, value, &msg);
    ck_assert_msg(rc == CLC_ERR, "'%s': %s read, expected an error", key, value ? value : "removed");
    clc_test_assert_has(msg, "changed.json: results[1]");
    clc_test_assert_has(msg, says);
}

START_TEST(wrong_types_refused)
{
    clc_test_make_dir(dir, "res");
    static const char *const numbers[] = {"gbps", "ms_median", "ms_host", "pct_copy", "cv",
                                          "model_efficiency", "value", "accesses",
                                          "ns_per_access"};
    static const char *const wrong[][2] = {{"\"NaN\"", "a string"},     {"{}", "an object"},
                                           {"[1]", "an array"},         {"true", "a boolean"},
                                           {"\"Infinity\"", "a string"}};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; k++) {
            char says[128];
            snprintf(says, sizeof says, "'%s' is %s, not a number", numbers[i], wrong[k][1]);
            assert_refused(numbers[i], wrong[k][0], says);
        }
    }
    assert_refused("reps", "\"3\"", "'reps' is a string, not a whole number");
    assert_refused("bytes", "[]", "'bytes' is an array, not a whole number");
    assert_refused("verified", "1", "'verified' is a number, not true or false");
    assert_refused("case", "7", "'case' is a number, not a string");
    assert_refused("note", "{}", "'note' is an object, not a string");
    assert_refused("param", "\"4\"", "'param' is a string, not a whole number");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(missing_required_fields_refused)
{
    clc_test_make_dir(dir, "res");
    static const char *const required[][2] = {
        {"case", "has no string 'case'"},       {"variant", "has no string 'variant'"},
        {"type", "has no string 'type'"},       {"status", "has no string 'status'"},
        {"bytes", "has no whole number 'bytes'"}, {"reps", "has no whole number 'reps'"},
        {"batch", "has no whole number 'batch'"}, {"verified", "has no true/false 'verified'"},
        {"gbps", "is ok but has no number 'gbps'"},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        assert_refused(required[i][0], NULL, required[i][1]);
        assert_refused(required[i][0], "null", required[i][1]); /* null is no value */
    }
    assert_refused("gbps", "-1.5", "'gbps' is -1.5, not a number from 0");
    /* a latency row's figure is its value */
    const char *msg;
    ck_assert_int_eq(read_changed("metric", "\"ns_per_access\"", &msg), CLC_ERR);
    clc_test_assert_has(msg, "results[1] is ok but has no number 'value'");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(optional_fields_read_as_unknown)
{
    clc_test_make_dir(dir, "res");
    static const char *const optional[] = {"param", "size_bytes", "ms_min", "ms_max", "cv",
                                           "ms_host", "pct_copy", "pct_peak", "note",
                                           "model_efficiency", "model_bytes_moved", "unit",
                                           "accesses", "value"};
    const char *msg;
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        ck_assert_msg(read_changed(optional[i], NULL, &msg) == CLC_OK, "without %s: %s",
                      optional[i], msg);
        ck_assert_msg(read_changed(optional[i], "null", &msg) == CLC_OK, "%s null: %s",
                      optional[i], msg);
    }
    /* an ok row without its time reads, with a warning naming the file, row and field */
    ck_assert_int_eq(read_changed("ms_median", NULL, &msg), CLC_OK);
    clc_test_assert_has(msg, "warning: ");
    clc_test_assert_has(msg, "changed.json: results[1] is ok but has no 'ms_median'");
    /* so does a format 2 row without its api or metric (both rows here lack the api) */
    clc_test_assert_has(msg, "results[0] has no 'api': read as the file's (and 1 more rows)");
    clc_test_assert_has(msg, "results[0] has no 'metric': read as gbps");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(numbers_out_of_range_refused)
{
    clc_test_make_dir(dir, "res");
    assert_refused("reps", "1e300", "'reps' is 1.0000000000000001e+300, not a whole number");
    assert_refused("reps", "2.5", "'reps' is 2.5, not a whole number from 0 to 2147483647");
    assert_refused("reps", "-1", "'reps' is -1, not a whole number from 0");
    assert_refused("batch", "3000000000", "'batch' is 3000000000, not a whole number");
    assert_refused("bytes", "-5", "'bytes' is -5, not a whole number");
    assert_refused("size_bytes", "1e19", "'size_bytes' is 1e+19, not a whole number");
    assert_refused("param", "1e300", "'param' is 1.0000000000000001e+300");
    /* every figure too: finite, not negative, and within what a device can do */
    assert_refused("gbps", "1e300", "'gbps' is 1e+300, not a number from 0 to 1e+07");
    assert_refused("ms_median", "-1", "'ms_median' is -1, not a number from 0");
    assert_refused("model_gbps", "2e7", "'model_gbps' is 2e+07, not a number from 0");
    assert_refused("cv", "-0.5", "'cv' is -0.5, not a number from 0");
    assert_refused("model_bytes_moved", "-1", "'model_bytes_moved' is -1, not a number");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(unknown_names_refused)
{
    clc_test_make_dir(dir, "res");
    assert_refused("type", "\"half\"", "has unknown type 'half'");
    assert_refused("status", "\"fine\"", "has unknown status 'fine'");
    assert_refused("metric", "\"watts\"", "has unknown metric 'watts'");
    assert_refused("case", "\"a-case-name-longer-than-thirty-one-bytes\"",
                   "'case' is longer than 31 bytes");
    assert_refused("api", "\"opencl-and-more\"", "'api' is longer than 7 bytes");
    clc_test_remove_dir(dir);
}
END_TEST

/* Writes text as dir/name and reads it; returns the code, *msg what was said. */
static int read_text(const char *name, const char *text, const char **msg)
{
    const char *path = clc_test_path(dir, name);
    clc_test_write_file(path, text);
    struct clc_report rep;
    clc_test_capture(2);
    int rc = clc_read_json(path, &rep);
    *msg = clc_test_captured();
    clc_report_free(&rep);
    return rc;
}

START_TEST(bad_files_refused)
{
    clc_test_make_dir(dir, "res");
    static const char *const bad[][3] = {
        /* JSON has no NaN or Infinity, and jansson keeps it so */
        {"nan.json", "{\"results\": [{\"gbps\": NaN}]}", "not a readable JSON file"},
        {"inf.json", "{\"results\": [{\"gbps\": Infinity}]}", "not a readable JSON file"},
        {"huge.json", "{\"results\": [{\"gbps\": 1e400}]}", "real number overflow"},
        {"cut.json", "{\"results\": [{\"case\": \"copy\", \"vari", "not a readable JSON file"},
        {"empty.json", "", "not a readable JSON file"},
        {"array.json", "[1, 2]", "not a clcoalesce result file"},
        {"row3.json", "{\"results\": [3]}", "results[0] is a number, not an object"},
        {"rowstr.json", "{\"results\": [\"x\"]}", "results[0] is a string, not an object"},
        {"dup.json", "{\"results\": [], \"results\": []}", "duplicate object key"},
        {"fmt.json", "{\"format\": \"2\", \"results\": []}", "'format' is a string"},
        {"dev.json", "{\"device\": [], \"results\": []}", "device is an array, not an object"},
        {"peak.json", "{\"device\": {\"peak_gbps\": \"3350\"}, \"results\": []}",
         "device 'peak_gbps' is a string, not a number"},
        {"apis.json", "{\"apis\": [{\"version\": \"1\"}], \"results\": []}",
         "apis[0] has no string 'name'"},
        {"cc.json", "{\"device\": {\"compute_capability\": \"nine\"}, \"results\": []}",
         "'compute_capability' is 'nine', not MAJOR.MINOR"},
        {"types.json", "{\"config\": {\"types\": [\"half\"]}, \"results\": []}",
         "config 'types'[0] is not \"float\" or \"double\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *msg;
        ck_assert_msg(read_text(bad[i][0], bad[i][1], &msg) == CLC_ERR, "%s read: %s",
                      bad[i][0], bad[i][1]);
        clc_test_assert_has(msg, bad[i][0]);
        clc_test_assert_has(msg, bad[i][2]);
    }
    /* a newer format reads, with a warning */
    const char *msg;
    ck_assert_int_eq(read_text("new.json", "{\"format\": 9, \"results\": []}", &msg), CLC_OK);
    clc_test_assert_has(msg, "warning: ");
    clc_test_assert_has(msg, "format 9");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(directory_is_said_to_be_one)
{
    clc_test_make_dir(dir, "res");
    struct clc_report rep;
    clc_test_capture(2);
    int rc = clc_read_json(dir, &rep);
    const char *msg = clc_test_captured();
    ck_assert_int_eq(rc, CLC_ERR);
    clc_test_assert_has(msg, dir);
    clc_test_assert_has(msg, "is a directory");
    clc_test_assert_lacks(msg, "JSON");
    clc_test_capture(2);
    rc = clc_read_json(clc_test_path(dir, "missing.json"), &rep);
    msg = clc_test_captured();
    ck_assert_int_eq(rc, CLC_ERR);
    clc_test_assert_has(msg, "missing.json: cannot read: No such file or directory");
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(compare_names_the_bad_field)
{
    clc_test_make_dir(dir, "res");
    const char *msg;
    ck_assert_int_eq(read_changed("reps", "1e300", &msg), CLC_ERR);
    char args[512];
    snprintf(args, sizeof args, "compare %s %s", clc_test_path(dir, "changed.json"),
             clc_test_path(dir, "changed.json"));
    clc_test_expect(args, 1, "changed.json: results[1] 'reps' is 1.0000000000000001e+300", out,
                    sizeof out, err, sizeof err);
    clc_test_remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------ text to terminals */

START_TEST(table_escapes_control_bytes)
{
    struct clc_result r = clc_test_row("ev\x1b[31mil", "v\x07", -1, CLC_FLOAT, 100);
    snprintf(r.note, sizeof r.note, "line\nbreak\x7f");
    snprintf(r.api, sizeof r.api, "\x7fpencl"); /* shown in a table of several APIs */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clc_table_row(f, &r, CLC_COL_ALL, 1.0);
    fclose(f);
    for (size_t i = 0; i + 1 < len; i++)
        ck_assert_msg((unsigned char)buf[i] >= 0x20 && buf[i] != 0x7f,
                      "raw byte 0x%02x at %zu in: %s", (unsigned char)buf[i], i, buf);
    ck_assert_int_eq(buf[len - 1], '\n');
    clc_test_assert_has(buf, "ev\\x1b[31mil");
    clc_test_assert_has(buf, "v\\x07");
    clc_test_assert_has(buf, "line\\x0abreak\\x7f");
    clc_test_assert_has(buf, "\\x7fpencl");
    free(buf);
}
END_TEST

START_TEST(compare_escapes_control_bytes)
{
    clc_test_make_dir(dir, "res");
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    snprintf(rep.device.name, sizeof rep.device.name, "GPU\x1b]0;title\x07");
    struct clc_result r = clc_test_row("ev\x1b[2Jil", "kernel", -1, CLC_FLOAT, 100);
    ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    const char *path = clc_test_path(dir, "esc.json");
    clc_test_write_json(&rep, path);
    char args[512];
    snprintf(args, sizeof args, "compare %s %s", path, path);
    clc_test_expect(args, 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(out, "ev\\x1b[2Jil");
    clc_test_assert_has(out, "GPU\\x1b]0;title\\x07");
    ck_assert_msg(strchr(out, '\x1b') == NULL && strchr(out, '\x07') == NULL,
                  "a control byte reached stdout: %s", out);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        round_trip_every_field,        format_2_fields_in_the_json,
        format_1_file_still_reads,     csv_new_columns_last,
        wrong_types_refused,           missing_required_fields_refused,
        optional_fields_read_as_unknown, numbers_out_of_range_refused,
        unknown_names_refused,         bad_files_refused,
        directory_is_said_to_be_one,   compare_names_the_bad_field,
        table_escapes_control_bytes,   compare_escapes_control_bytes,
        noisy_rows_marked,
    };
    return clc_test_main(clc_test_suite("result", tests, sizeof tests / sizeof tests[0]));
}
