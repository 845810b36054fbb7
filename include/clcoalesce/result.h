/* result.h - result rows, the run report that holds them, and its writers and reader.
 * The schema is shared by the OpenCL tool and the CUDA twins, so one `compare` reads both. */
#ifndef CLCOALESCE_RESULT_H
#define CLCOALESCE_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "clcoalesce/core.h"
#include "clcoalesce/model.h"

#ifdef __cplusplus
extern "C" {
#endif

enum clc_status {
    CLC_STATUS_OK,      /* timed and verified */
    CLC_STATUS_SKIPPED, /* not run here, `note` says why (e.g. no cl_khr_fp64) */
    CLC_STATUS_ERROR,   /* ran and failed: wrong result or an API error; never carries a figure */
};

const char *clc_status_name(enum clc_status s);


/* A row's bytes_rule where its bytes are the distinct bytes its launch reads and writes
 * (a user's kernel, from its checked run): DRAM moves at least those. */
#define CLC_BYTES_DISTINCT "distinct from the trace"
/* A verified row whose samples spread more than this (coefficient of variation, stddev /
 * mean of the timed samples) is noisy: its median is less sure than the table's digits say.
 * docs/noise.md explains the figure. */
#define CLC_NOISY_CV 0.25

/* Whether r is noisy: verified with a cv above CLC_NOISY_CV.  The table shows it as
 * "verified, noisy", CSV and JSON as noisy = true; it follows from cv alone, so a row read
 * from any file is marked alike. */
struct clc_result;
bool clc_result_noisy(const struct clc_result *r);

/* What a row's `value` measures.  A new kind of measurement is a new entry here and in
 * result.c's table of names and units: the writers, `compare` and `plot` read it from there. */
enum clc_metric {
    CLC_METRIC_GBPS,          /* bandwidth: bytes counted / median time, GB/s (higher is better) */
    CLC_METRIC_NS_PER_ACCESS, /* latency: median time / dependent accesses, ns (lower is better) */
};
#define CLC_METRIC_COUNT 2

const char *clc_metric_name(enum clc_metric m); /* "gbps", "ns_per_access": the JSON key */
const char *clc_metric_unit(enum clc_metric m); /* "GB/s", "ns" */
/* Parses a metric name; returns CLC_OK or CLC_USAGE. */
int clc_parse_metric(const char *s, enum clc_metric *m);

/* The version of the JSON result format: 2 added per-row api, metric, unit and value, and the
 * report's apis.  Files without "format" are version 1 and still read. */
#define CLC_RESULT_FORMAT 2

/* Physical sanity bounds on bandwidth: a figure above CLC_MAX_GBPS (10 PB/s, beyond any
 * device's memory by three orders of magnitude) or a --peak below CLC_MIN_PEAK_GBPS is a
 * typing error or a corrupt file, not a measurement.  The device profile reader uses the
 * same upper bound. */
#define CLC_MAX_GBPS 1e7
#define CLC_MIN_PEAK_GBPS 0.01

/* What the predictive model (predict.h) reads of a row besides the profile: the kernel's
 * access figures from its trace (model.h) and the occupancy of its launch.  Ratios are per
 * useful global byte of the traced accesses, so a trace of the first accesses only (a long
 * loop) still gives them.  NAN: unknown. */
struct clc_model_features {
    bool valid;              /* traced and analysed */
    bool local_row;          /* the row counts local-memory bytes (banks) */
    unsigned elem_bytes;     /* the row's element size: local rows count elements */
    /* DRAM bytes per useful byte: [loads, stores][granule 32, 64, 128 bytes][gap class],
     * model.h's granules */
    double dram[2][CLC_MODEL_GRANULES][CLC_MODEL_GAPS];
    /* loads' DRAM bytes per useful byte besides dram's: the granules irregular requests
     * touch (a gather) in windows that are not dense, by granule size, DRAM's at random */
    double dram_random[CLC_MODEL_GRANULES];
    /* stores' DRAM bytes per useful byte besides dram's: dense bunches in windows the work-
     * groups a row of tiles later fill (model.h's bunched), by granule size; 0 in a file
     * from before, whose dram counts them dense */
    double dram_bunched[CLC_MODEL_GRANULES];
    /* loads' DRAM bytes per useful byte bunched alike (model.h's bunched_loads); 0 in a
     * file from before, whose dram counts them by the room their windows leave */
    double dram_bunched_loads[CLC_MODEL_GRANULES];
    double l2_per_useful;    /* sector bytes per useful byte (1 / the sector efficiency) */
    double load_lines;       /* line requests the L1 sends the L2 per useful byte (model.h's
                              * new_lines): loads' lines their warp's last load did not touch */
    double store_lines;      /* and stores' lines, every one */
    double store_sectors;    /* the sectors stores touch, every one (the L1 passes each on to
                              * the L2), per useful byte; NAN in a file from before */
    double store_partial;    /* the sectors stores write only in part, summed over requests,
                              * per useful byte: the L2 merges each apart */
    double store_follow_partial; /* of those, the ones the warp's last store wrote too, and */
    double store_follow_lines;   /* the lines of their requests, per useful byte; NAN in a file
                                  * from before they were counted */
    double store_follow_lines_per_request; /* lines per such request (NAN: none) */
    double load_sectors;     /* the sectors of loads' lines their warp's last load did not
                              * touch, per useful byte: the L2 serves loads sector by sector */
    double load_reused_lines;   /* loads' lines and sectors their warp's last load touched */
    double load_reused_sectors; /* too, per useful byte: L1 hits while L1 holds them */
    double load_group_lines; /* loads' line requests that reach the L2 per useful byte: lines
                              * with a sector no earlier warp of the work-group asked for at
                              * the same access index (model.h's group_lines); NAN in a file
                              * from before */
    double store_shared_requests; /* store requests writing in part sectors another warp of
                              * the work-group writes in part at the same access, per useful
                              * byte, and their lines, sectors written in part and useful bytes
                              * (model.h's shared_*); NAN in a file from before */
    double store_shared_lines;
    double store_shared_partial;
    double store_shared_bytes;
    double store_open_sectors; /* the bytes stores write into lines their warp leaves open
                              * over several requests, in sectors per useful byte, and those */
    double store_open_bytes; /* lines' window (model.h's open_bytes), weighed by the same
                              * bytes; NAN where none (or in a file from before) */
    double store_open_lane_bytes; /* and the bytes of such a line each lane writing into it
                              * keeps open (model.h's open_lane_bytes); NAN as above */
    double store_spread;     /* of the stores' 32-byte granules, the share whose windows
                              * work-groups outside the wide sample fill (model.h's
                              * store_spread); NAN where that sample lacks some of its
                              * work-items' stores, or in a file from before */
    double store_far;        /* of the wide sample's store requests, the share into lines it
                              * leaves to work-groups past it (model.h's store_far); NAN as
                              * store_spread */
    double accessed;         /* the bytes the kernel's requests access (each request's distinct
                              * bytes, summed) per byte its rule counts: 2 for a copy that
                              * passes over its output again, below 1 for a broadcast; NAN where
                              * the trace is cut short or the launch's count is unknown */
    double reuse_footprint;  /* lines a warp's last load touched, averaged over those reused
                              * lines: what each resident warp keeps in L1 for them to hit */
    double loads_in_flight;  /* independent loads a work-item has in flight */
    double compiled_loads;   /* the most it has in flight as compiled (the timed build's PTX,
                              * clc_ptx_loads_in_flight); NAN where the API gives no PTX */
    double stores_combined;  /* 1 where the build stores a run's neighbours back to back, 0
                              * where it keeps each apart (clc_ptx_stores_combined); NAN where
                              * the API gives no PTX */
    double work_units;       /* the integer work a work-item executes on the path to its
                              * loads' addresses, in units of 32-bit instructions, and the
                              * divisions and remainders there in 32 and 64 bits (clc_ptx_work
                              * on the timed build's PTX and the row's launch); NAN where the
                              * API gives no PTX */
    double work_div32;
    double work_div64;
    double load_lane_bytes;  /* sector bytes one lane's load brings */
    double load_access_bytes; /* bytes one lane's load reads (its element or vector) */
    double store_lane_bytes; /* bytes one lane's store writes */
    double stored;           /* the stores' useful bytes per useful byte */
    double l1_requests;      /* global load requests per useful byte, and the distinct lines */
    double l1_lines;         /* they touch, summed (the L1 returns a load a line at a time) */
    double resident_per_cu;  /* work-items resident per compute unit during the launch, from
                              * the device's facts; NAN: the profile's facts decide */
    double group_items;      /* the launch: work-items per group, groups, the kernel's */
    double groups;           /* registers per work-item (NAN unknown) and local bytes per */
    double registers;        /* group, for the occupancy on the profile's device */
    double local_bytes;
    double local_passes;     /* local-memory passes per useful global byte */
    double local_accesses;   /* local accesses per useful global byte */
    double local_passes_per_access; /* passes per lane access */
    double local_load_passes;       /* local rows (banks), which count the bytes they load:
                                     * passes per load request */
};

/* Unknown features: not valid, every figure NAN. */
void clc_model_features_clear(struct clc_model_features *f);

/* One measured (or skipped) variant.  Doubles that are unknown hold NAN and become JSON null. */
/* What the model says of a row, kept beside its measurement: the access model's figures
 * (model.h, from the addresses the kernel touches) and the predictive model's (predict.h,
 * from those and a device profile).  NAN (and "") when not modelled or not predicted.  The
 * writers and the reader name each field "model_" and its name ("model_gbps"). */
struct clc_row_model {
    double sectors_per_req;    /* 32-byte sectors per warp-level request, loads and stores */
    double ld_sectors_per_req; /* the same over load requests only */
    double st_sectors_per_req; /* the same over store requests only */
    double efficiency;         /* useful bytes / bytes moved in sectors, 0..1 */
    double bytes_moved;        /* bytes moved in whole sectors per launch */
    struct clc_model_features features; /* what the predictor reads of the row's trace */
    double gbps;               /* predicted GB/s, NAN when not predicted */
    char bound[12];            /* the limit that binds: "dram", "sectors", ... or "" */
    double dram_bytes;         /* predicted DRAM bytes per launch, reads and writes */
    double dram_read_bytes;
    double dram_write_bytes;
};

struct clc_result {
    char case_name[32];  /* registry name, e.g. "stride" */
    char variant[48];    /* e.g. "inplace", "tiled_padded" */
    char api[8];         /* the API that ran it: "opencl" or "cuda" */
    enum clc_metric metric; /* what value measures */
    double value;        /* the row's figure in clc_metric_unit(metric); NAN unless verified */
    double accesses;     /* latency rows: dependent accesses per launch (value = ms / accesses) */
    double in_flight;    /* bytes in flight per compute unit the launch allows (the inflight
                          * case), NAN elsewhere */
    bool cache_resident; /* its buffers together fit in the last-level cache: the GB/s is
                          * cache bandwidth, not DRAM's */
    long param;          /* case knob: offset, stride, width ...; meaningful only if has_param */
    bool has_param;
    enum clc_type type;
    uint64_t bytes;      /* bytes counted per launch, by the case's documented rule */
    char bytes_rule[24]; /* the rule, when not the case's own (a user's kernel: "distinct
                          * from the trace", "from --bytes", "buffer sizes"); "" otherwise */
    double flops;        /* floating-point operations per launch (an FMA two) in the row's
                          * type, NAN when none are counted: the model's compute layer */
    uint64_t size;       /* the case's size (bytes of its main array) for this row; 0 if unknown */
    int reps;            /* timed samples */
    int batch;           /* launches per timed sample (1 = one event per launch) */
    double ms_median;    /* per launch */
    double ms_min;
    double ms_max;
    double cv;           /* coefficient of variation of the samples */
    double ms_host;      /* host-clock time per launch over a batch, NAN if not measured */
    double gbps;         /* bytes / ms_median; NAN for a row whose metric is not bandwidth */
    double pct_copy;     /* gbps as a percent of the measured copy ceiling */
    double pct_peak;     /* gbps as a percent of the theoretical peak */
    struct clc_row_model model; /* what the model says of the row, beside its measurement */
    bool verified;       /* the output matched the host reference */
    enum clc_status status;
    char note[192];      /* why skipped or failed, or a remark on timing */
};

/* Initialises a row with NAN figures and status ERROR until a case fills it. */
void clc_result_init(struct clc_result *r, const char *case_name, const char *variant,
                     enum clc_type type);
void clc_result_set_param(struct clc_result *r, long param);

/* Appends printf-formatted text to r's note, cut at the note's size. */
void clc_note_append(struct clc_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends ", N launches per timed sample" when batch > 1: for a row whose note says more than
 * that, since clc_result_complete notes the batch only in an empty note. */
void clc_note_batch(struct clc_result *r, int batch);

/* What the report says of the device the run used. */
struct clc_device_meta {
    char name[256];
    char vendor[128];
    char driver[128];
    char platform[256];
    char version[128];      /* device OpenCL / CUDA version string */
    int cc_major, cc_minor; /* compute capability, -1 when unknown */
    int warp_size;          /* -1 when unknown */
    char pci_bus_id[32];    /* "0000:41:00.0" or "" */
    int compute_units;
    char cu_source[32];     /* where compute_units comes from: "CUDA driver", else the API's */
    int clock_mhz;          /* the compute units' maximum clock, 0 when unknown */
    int mem_clock_mhz;      /* DRAM clock and bus width, 0 when unknown */
    int bus_width_bits;
    uint64_t global_mem;
    uint64_t max_alloc;
    uint64_t l2_bytes;      /* best knowledge of the last-level cache, 0 when unknown */
    char l2_source[32];     /* where l2_bytes comes from: "CUDA driver", "table", "assumed",
                             * "reported" (the API's own figure) */
    double timer_res_ns;
    double peak_gbps;       /* theoretical peak, NAN when unknown */
    char peak_source[32];   /* "nvml", "CUDA driver", "table", "--peak" or "" */
    double bus_gbps;        /* the host link's bandwidth each way, NAN when unknown */
    char bus[32];           /* that link: "PCIe 5.0 x16", or "" */
    double copy_gbps;       /* the primary API's copy ceiling (apis[0]), NAN when not measured */
    char copy_source[48];   /* "clEnqueueCopyBuffer" / "cuMemcpyDtoD" */
    /* What bounds the work-items resident on a compute unit (CUDA driver; 0 when unknown) */
    int threads_per_cu;     /* work-items */
    int groups_per_cu;      /* work-groups */
    int regs_per_cu;        /* 32-bit registers */
    uint64_t local_per_cu;  /* local (shared) memory, bytes */
};

/* The configuration a run used, echoed in the report so a result file explains itself. */
struct clc_run_meta {
    uint64_t size;   /* --size, bytes of the main array */
    bool size_auto;  /* size chosen by the tool rather than given */
    int reps;
    int warmup;
    bool quick;
    bool cold;
    unsigned types;  /* mask of enum clc_type */
    char cases[512]; /* the cases asked for, space separated, "" for all */
};

/* One API a run used: its copy ceiling is what that API's rows are compared with. */
struct clc_api_meta {
    char name[8];          /* "opencl" or "cuda" */
    char version[128];     /* the platform's or driver's version text */
    double copy_gbps;      /* the API's vendor copy over the run's size, NAN when not measured */
    char copy_source[48];  /* "clEnqueueCopyBuffer" / "cuMemcpyDtoD" */
};
#define CLC_MAX_APIS 2

struct clc_report {
    char tool[32];     /* "clcoalesce" */
    char version[16];
    char api[16];      /* "opencl", "cuda" or "both" */
    int format;        /* CLC_RESULT_FORMAT when written; as read from a file */
    struct clc_api_meta apis[CLC_MAX_APIS]; /* the APIs of the run, the first the primary */
    int n_apis;
    char timestamp[32];/* ISO 8601 UTC */
    struct clc_device_meta device;
    struct clc_run_meta run;
    /* The device profiles the model's predictions used, as compact JSON text (an array, one
     * per API that was predicted: its figures and where they came from), "" for none.  Text
     * and not a pointer: reports are copied by value. */
    char model_profile[8192];
    unsigned table_cols; /* the CLC_COL_* columns the rows streamed to a table show (a run
                          * sets those it fills; clc_report_init: all but the API's) */
    struct clc_result *results;
    size_t n_results, cap_results;
};

void clc_report_init(struct clc_report *rep, const char *api);
void clc_report_free(struct clc_report *rep);
/* Appends a copy of r; returns CLC_OK or CLC_ERR when out of memory. */
int clc_report_add(struct clc_report *rep, const struct clc_result *r);

/* The report's rows of one API (the APIs a run with --api both holds), with that API's copy
 * ceiling as the device's: into out (free with clc_report_free).  CLC_OK or CLC_ERR (out of
 * memory).  clc_report_apis lists the APIs its rows hold, in order, at most max. */
int clc_report_select_api(const struct clc_report *in, const char *api, struct clc_report *out);
int clc_report_apis(const struct clc_report *rep, const char **names, int max);

/* The copy ceiling of the API that ran r: the report's apis entry of that name, else the
 * device's (a file of format 1 has one API); NAN when unknown. */
double clc_report_copy_gbps(const struct clc_report *rep, const struct clc_result *r);

/* Completes a timed row: when verified, status OK with its value (GB/s from bytes, or ns per
 * access from accesses) and, for bandwidth, the percentages of the API's copy ceiling
 * (copy_gbps) and the device's peak, and, when a sample spanned several launches and no note
 * is set, a note saying so (min_ms: the shortest sample the timing allows); otherwise status
 * ERROR with every figure NAN, since a wrong result is never a number (the caller says why). */
void clc_result_complete(struct clc_result *r, bool verified, double copy_gbps, double peak_gbps,
                         double min_ms);

/* Appends r to the report and, when table is not NULL, streams it there as a table row.
 * Returns CLC_OK or CLC_ERR when out of memory. */
int clc_report_row(struct clc_report *rep, FILE *table, const struct clc_result *r);

/* Adds a SKIPPED row for `variant` of `case_name` in type t, `why` in its note and `size`
 * (0 when unknown) as its size, as clc_report_row does. */
int clc_report_skip(struct clc_report *rep, FILE *table, const char *case_name,
                    const char *variant, enum clc_type t, uint64_t size, const char *why);
/* True when every row is OK or SKIPPED. */
bool clc_report_all_ok(const struct clc_report *rep);

/* The note that ends a run with noisy rows (clc_result_noisy) among rep's rows from `first`
 * on: how many, the noisiest, and what steadies them; nothing when there is none. */
void clc_report_note_noisy(const struct clc_report *rep, size_t first);

enum clc_format { CLC_FMT_TABLE, CLC_FMT_CSV, CLC_FMT_JSON };
int clc_parse_format(const char *s, enum clc_format *f);

/* Row i's value over that of the same case, variant, param and type run by the report's
 * first API (CUDA / OpenCL with --api both); NAN for a row of the first API or without one. */
double clc_report_api_ratio(const struct clc_report *rep, size_t i);

/* Copies s into buf (len bytes, cut there) with every control byte (below 0x20, and 0x7f)
 * written as \xNN, so that text read from a file anyone wrote cannot drive the terminal
 * it is shown on.  Returns buf. */
const char *clc_printable(const char *s, char *buf, size_t len);

/* "case/variant:param type" (no ":param" without one) of row r, printable (clc_printable),
 * into buf; for a message or a summary that names one row. */
void clc_row_label(const struct clc_result *r, char *buf, size_t len);

/* Writes a name (case, variant) as a CSV field: bare, as it always was, or quoted (RFC
 * 4180) when it holds a comma, a quote or a line break, so that no name shifts the columns. */
void clc_csv_name(FILE *f, const char *s);

/* The table's columns that a run can leave empty, as a mask: a run shows only those it fills
 * (no pred and bound when the predictions come at its end, no %peak without a peak). */
enum {
    CLC_COL_API = 1u << 0,   /* the row's API and its ratio to the first API's ("vs cl") */
    CLC_COL_PRED = 1u << 1,  /* pred and bound: the prediction */
    CLC_COL_PEAK = 1u << 2,  /* %peak */
    CLC_COL_MODEL = 1u << 3, /* model: the access model's efficiency */
    CLC_COL_HOST = 1u << 4,  /* ms_host: the host clock's time (--host-check) */
};
#define CLC_COL_ALL 0x1fu

/* The columns of that mask that some row of rep fills (CLC_COL_API: it holds several APIs). */
unsigned clc_table_cols(const struct clc_report *rep);

/* Writers.  The table is written row by row as results arrive; CSV and JSON at the end.
 * The table shows case, variant and note through clc_printable, and the columns of `cols`
 * besides those every row has; with CLC_COL_API the row's API and its ratio to the first
 * API's row (clc_report_api_ratio, NAN for none).  CSV columns keep their order: new ones
 * (size_bytes; the row's api, metric, unit, value) are added at the end. */
void clc_table_header(FILE *f, unsigned cols);
void clc_table_row(FILE *f, const struct clc_result *r, unsigned cols, double ratio);
/* A whole report as that table, with the columns its rows fill (clc_table_cols). */
void clc_write_table(const struct clc_report *rep, FILE *f);
int clc_write_csv(const struct clc_report *rep, FILE *f);
/* JSON in format CLC_RESULT_FORMAT: the root's "format" and "apis", and per row "api",
 * "metric", "unit", "value" and "accesses" (null unless a latency row), "gbps" (null unless
 * a bandwidth row) and, for ns-per-access rows, "ns_per_access". */
int clc_write_json(const struct clc_report *rep, FILE *f);

/* One row as the JSON writer writes it (a new reference). */
struct json_t *clc_result_json(const struct clc_result *r);

/* Writes root to f as the tool writes every JSON document (indented, in order, reals to 8
 * digits) and a newline; CLC_OK, or CLC_ERR when writing fails. */
int clc_json_dump(FILE *f, const struct json_t *root);

/* Writes the report in `fmt` to `path` by clc_output_write's rules (a regular file through a
 * temporary file and a rename, a link's target, a FIFO or device directly, "-" to stdout),
 * so a failed write never leaves a partial file.  Returns CLC_OK or CLC_ERR, said. */
int clc_write_report_file(const struct clc_report *rep, enum clc_format fmt, const char *path);

/* Reads a JSON report written by clc_write_json, in this format or an older one, strictly:
 * each row must have case, variant, type and status (strings), bytes, reps and batch (whole
 * numbers in range) and verified (true/false), and an ok row its figure (gbps for a
 * bandwidth row, else value) as a number >= 0.  Any other field may be absent or null and
 * reads as unknown (NAN, 0, ""); a format 1 row reads as the file's api, metric gbps, value
 * = gbps.  A field present with the wrong type, a number out of range, a name too long for
 * its field, an unknown type, status or metric, a repeated key, a path that is a directory
 * or text that is not JSON is an error naming the file, the row and the field.  Rows that
 * lack something a reader would miss (an ok row's ms_median; a format 2 row's api or metric)
 * get a warning on stderr.  Returns CLC_OK or CLC_ERR; free rep with clc_report_free either
 * way. */
int clc_read_json(const char *path, struct clc_report *rep);

/* clc_read_json from the len bytes at text (no NUL needed); name stands for the file in
 * messages. */
int clc_read_json_text(const char *text, size_t len, const char *name, struct clc_report *rep);

#ifdef __cplusplus
}
#endif

#endif
