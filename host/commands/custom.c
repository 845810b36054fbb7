/* custom.c - `clcoalesce custom --kernel-file F --kernel NAME --pattern P`: a kernel of the
 * user's own.  It is built like the built-in kernels, run once in its trace build at a small
 * size so that an access outside its buffers is named before the unchecked kernel ever runs,
 * then verified against the host reference of its pattern, timed and modelled like any
 * variant, and ranked against the built-in variants of the pattern's cases measured in the
 * same run at the same size.  On a CPU device the work runs in a child process, so a crash
 * the check did not foresee becomes a clear error, not a dead terminal.
 *
 * Patterns (float only; the build defines T = float) and the calls the host makes:
 *
 *   copy       __kernel void NAME(__global const T *in, __global T *out, ulong n
 *                                 CLC_TRACE_ARGS)
 *              out[i] = in[i] for i < n.                 Ranked with: copy, vector, mlp.
 *   scale      the same signature; out[i] = 2 * in[i].   Ranked with: coalesced, uncoalesced.
 *   gather     __kernel void NAME(__global const T *in, __global const uint *idx,
 *                                 __global T *out, ulong n CLC_TRACE_ARGS)
 *              out[i] = in[idx[i]], idx a random permutation of 0 .. n-1 (the one the
 *              gather case's `random` variant uses).     Ranked with: gather.
 *   transpose  __kernel void NAME(__global const T *in, __global T *out, ulong width,
 *                                 ulong height CLC_TRACE_ARGS)
 *              in is height rows of width elements (row-major); out[x * height + y] =
 *              in[y * width + x].  The shape is the transpose case's: width =
 *              floor(sqrt(n)), height = n / width.       Ranked with: transpose.
 *
 * Launch shape.  1-D patterns: local = --local N (default 256), K = --items-per-thread
 * (default 1), global = round_up(ceil(n / K), local).  transpose: local = --local XxY
 * (default 32x8), K = --items-per-thread rows per work-item (default 4), global =
 * (round_up(width, X), round_up(ceil(height / K), Y)).  Build options: the built-in ones plus
 * -DCLC_ITEMS=K -DCLC_LOCAL_X=X -DCLC_LOCAL_Y=Y (Y = 1 in 1-D). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/custom.h"
#include "clcoalesce/explain.h"
#include "clcoalesce/kernelfile.h"
#include "clcoalesce/outfile.h"
#include "clcoalesce/rewrite.h"

#define PROG "clcoalesce"
#define HELP "'clcoalesce custom --help'"
#define CHILD_ENV "CLCOALESCE_CUSTOM_WORKER" /* the parent's pid, in the child of a CPU run */
#define DEFAULT_TIMEOUT 60.0

const char *clc_self_exe;

enum kind { COPY, SCALE, GATHER, TRANSPOSE };

static const struct pattern {
    const char *name;
    enum kind kind;
    unsigned nargs;        /* kernel arguments before CLC_TRACE_ARGS */
    const char *signature; /* for messages */
    const char *compare[3];
    size_t local[2];       /* default --local */
    unsigned items;        /* default --items-per-thread */
} patterns[] = {
    {"copy", COPY, 3, "__kernel void NAME(__global const T *in, __global T *out, ulong n "
     "CLC_TRACE_ARGS)", {"copy", "vector", "mlp"}, {256, 1}, 1},
    {"scale", SCALE, 3, "__kernel void NAME(__global const T *in, __global T *out, ulong n "
     "CLC_TRACE_ARGS)", {"coalesced", "uncoalesced", NULL}, {256, 1}, 1},
    {"gather", GATHER, 4, "__kernel void NAME(__global const T *in, __global const uint *idx, "
     "__global T *out, ulong n CLC_TRACE_ARGS)", {"gather", NULL, NULL}, {256, 1}, 1},
    {"transpose", TRANSPOSE, 4, "__kernel void NAME(__global const T *in, __global T *out, "
     "ulong width, ulong height CLC_TRACE_ARGS)", {"transpose", NULL, NULL}, {32, 8}, 4},
};

static const struct pattern *find_pattern(const char *name)
{
    for (size_t i = 0; name != NULL && i < sizeof patterns / sizeof patterns[0]; i++)
        if (strcmp(patterns[i].name, name) == 0)
            return &patterns[i];
    return NULL;
}

static const char help_text[] =
    "usage: clcoalesce custom --kernel-file F --kernel NAME [--describe TEXT]\n"
    "                         [--reference KERNEL [--reference-file F2]]\n"
    "                         [--tolerance T] [--bytes EXPR] [--flops EXPR]\n"
    "                         [--profile FILE] [run options]\n"
    "       clcoalesce custom --kernel-file F --kernel NAME --pattern P\n"
    "                         [--local N | --local XxY] [--items-per-thread K]\n"
    "                         [--profile FILE] [run options]\n"
    "\n"
    "A kernel of any signature.  Its arguments are described once, in a comment placed\n"
    "before the kernel that begins 'clcoalesce:', or with --describe (the same lines,\n"
    "separated by ';').  Lines ('#' starts a comment):\n"
    "  size NAME = EXPR                a named size; n = --size / 4 is given\n"
    "  arg NAME in|inout TYPE LEN [GEN] a __global pointer filled by generator GEN\n"
    "  arg NAME out TYPE LEN           a __global pointer, poisoned, then compared\n"
    "  arg NAME local TYPE LEN         a __local pointer of LEN elements per work-group\n"
    "  arg NAME scalar TYPE EXPR       a value (a float may be a number such as 0.5)\n"
    "  csr NAME ROWS COLS DENSITY      a sparse matrix for rowptr / colidx; NAME_nnz is\n"
    "                                  its number of nonzeros\n"
    "  grid EXPR[, EXPR[, EXPR]]       work-items per dimension (rounded up to groups);\n"
    "                                  without it, 1-D over n\n"
    "  group EXPR[, EXPR[, EXPR]]      the work-group (default 256, 16x16, 8x8x4)\n"
    "  ref_grid ... / ref_group ...    the reference's own launch (default: the same)\n"
    "  tolerance X                     relative, for float outputs (default 1e-4)\n"
    "  flops EXPR                      floating-point operations per launch (a fused\n"
    "                                  multiply-add counts two): the model's compute\n"
    "                                  layer; --flops EXPR sets them too\n"
    "  One arg line per kernel parameter, in order.  TYPE: char uchar short ushort int\n"
    "  uint long ulong float double, or a vector of 2, 3, 4, 8, 16 of them (float4).\n"
    "  LEN, EXPR: + - * / % ( ), numbers (K M G suffixes), sizes, sqrt(x), min(a, b),\n"
    "  max(a, b), in 64 bits, overflow refused.  GEN: random [LOW HIGH] (the default:\n"
    "  floats in [0, 1), integers in [0, 100)), iota, const V, perm, index BOUND, sorted\n"
    "  BOUND, rowptr CSR, colidx CSR; all reproducible.  With no description the\n"
    "  signature decides: const __global pointers in, others out, each n long, integer\n"
    "  values n, a 1-D launch over n.  The description is checked against the kernel's\n"
    "  parameters (count, address space, type) before anything runs.\n"
    "--reference KERNEL (in F, or in --reference-file F2; same signature) runs on the same\n"
    "  back end over the same inputs, and every out and inout buffer is compared element\n"
    "  by element: integers exactly, floats within --tolerance.  A mismatch names the\n"
    "  buffer, the first index and both values (exit 1).  Without a reference the row\n"
    "  runs and is timed, but its status is 'unchecked', never 'verified'.\n"
    "Bytes per launch: the distinct bytes the launch reads plus those it writes, counted\n"
    "  by the checked run at 1 MiB, each buffer's read and written fractions carried over\n"
    "  to its bytes at the row's size (exact where the part touched is a fixed fraction of\n"
    "  the buffer); --bytes EXPR sets them; a kernel that cannot be traced counts its\n"
    "  buffers, an inout one twice.  The row's bytes_rule says which, and the output shows\n"
    "  them beside the DRAM bytes the model predicts.\n"
    "--size S sets n = S / 4; --sweep-size MIN:MAX runs at MIN, 2 x MIN ... up to MAX, a\n"
    "  checked row per size; every size is evaluated before anything runs.\n"
    "  examples:\n"
    "  /* clcoalesce:\n"
    "   *   size W = sqrt(n)\n"
    "   *   size H = n / W\n"
    "   *   arg in  in  float W*H random\n"
    "   *   arg out out float W*H\n"
    "   *   arg w scalar int W\n"
    "   *   arg h scalar int H\n"
    "   *   grid W, H\n"
    "   *   group 16, 16\n"
    "   */\n"
    "  clcoalesce custom --kernel-file cl/examples/stencil.cl --kernel stencil_tiled \\\n"
    "      --reference stencil_naive\n"
    "  clcoalesce custom --kernel-file cl/examples/histogram.cl --kernel histogram_local \\\n"
    "      --reference histogram_global --describe 'arg data in uchar n random 0 256;\n"
    "      arg n scalar uint n; arg bins inout uint 256 const 0; grid 16384; group 256'\n"    "  clcoalesce custom --kernel-file cl/examples/stencil.cl --kernel stencil_tiled \\\n"
    "      --reference stencil_naive --sweep-size 64KiB:256KiB\n"
    "\n"
    "With --pattern P, one of four fixed signatures checked against a host reference:\n"
    "\n"
    "Builds __kernel NAME from your file F like the built-in kernels and first runs it once\n"
    "in its checked (trace) build at 1 MiB: an access outside its buffers stops the run with\n"
    "the work-item, the buffer and the index, before the unchecked kernel ever runs.  Then it\n"
    "checks the output against the host reference of pattern P, times it and models its\n"
    "accesses like any variant, runs the built-in variants of P's cases at the same size and\n"
    "prints a ranking: every verified row by GB/s, with its percentage of the best and, with\n"
    "a device profile (--profile FILE, else the one the device keeps from its last\n"
    "'clcoalesce profile'), the predicted GB/s and the limit that binds, and then your\n"
    "kernel's prediction layer by layer, as explain prints it.  All the rows go to the\n"
    "report.  Float only.  On a CPU device it runs in a child process, so a crash is\n"
    "reported, not suffered.  --timeout defaults to 60 s.\n"
    "\n"
    "patterns, the signature your kernel must have, and what it must compute:\n"
    "  copy       __kernel void NAME(__global const T *in, __global T *out,\n"
    "                                ulong n CLC_TRACE_ARGS)\n"
    "             out[i] = in[i] for i < n                  ranked with: copy, vector, mlp\n"
    "  scale      the same signature; out[i] = 2 * in[i]    ranked with: coalesced,\n"
    "                                                                    uncoalesced\n"
    "  gather     __kernel void NAME(__global const T *in, __global const uint *idx,\n"
    "                                __global T *out, ulong n CLC_TRACE_ARGS)\n"
    "             out[i] = in[idx[i]], idx a random permutation of 0..n-1\n"
    "                                                       ranked with: gather\n"
    "  transpose  __kernel void NAME(__global const T *in, __global T *out,\n"
    "                                ulong width, ulong height CLC_TRACE_ARGS)\n"
    "             in: height rows of width elements; out[x * height + y] =\n"
    "             in[y * width + x]; width = floor(sqrt(n)), height = n / width\n"
    "                                                       ranked with: transpose\n"
    "  n = --size / 4.  Pointer parameters may also be declared as float4 * and the like.\n"
    "\n"
    "launch:\n"
    "  copy, scale, gather: 1-D, local = --local N (default 256), K = --items-per-thread\n"
    "    (default 1), global = round_up(ceil(n / K), local): with K > 1 each work-item\n"
    "    is meant to do K elements.  Guard: global may exceed what you need.\n"
    "  transpose: 2-D, local = --local XxY (default 32x8), K = --items-per-thread rows\n"
    "    per work-item (default 4), global = (round_up(width, X),\n"
    "    round_up(ceil(height / K), Y)).  Guard both dimensions.\n"
    "  Work-groups above 256 work-items: NVIDIA launches them only for a kernel that\n"
    "    declares its shape: __attribute__((reqd_work_group_size(CLC_LOCAL_X,\n"
    "    CLC_LOCAL_Y, 1))) before __kernel.\n"
    "\n"
    "build options: -DT=float -DCLC_ITEMS=K -DCLC_LOCAL_X=X -DCLC_LOCAL_Y=Y (Y = 1 in 1-D),\n"
    "  and -I <kernel dir>, so `#include \"clc.h\"` works.  The checked run and the access\n"
    "  model (the model column) see your kernel as written: it is parsed (libclang) and its\n"
    "  trace build rewritten so that every __global and __local access is recorded\n"
    "  (docs/custom-as-written.md).  An access it cannot trace (in a macro, in a function\n"
    "  other than the kernel) is named by file and line, and the kernel runs unchecked with\n"
    "  its row noting that the model is off.  A kernel may instead end its parameter list\n"
    "  with CLC_TRACE_ARGS (no comma before it), start its body with CLC_TRACE_BEGIN and do\n"
    "  every global access through LOAD(p, i) / STORE(p, i, v) (VLOAD / VSTORE for vloadN /\n"
    "  vstoreN): such a file is built as it is.  With --api cuda or both the same file is\n"
    "  compiled as CUDA (see docs/custom.md: vector literals such as (float4)(a, b, c, d)\n"
    "  have no CUDA form; set the components instead), and a kernel without the macros is\n"
    "  traced and predicted through CUDA as through OpenCL, its rewritten trace build\n"
    "  compiled by NVRTC (a __local pointer parameter has no CUDA form: OpenCL only).\n"
    "\n"
    "exit status: 1 when the file cannot be read, does not build (the compiler's messages\n"
    "  name your file and line), accesses memory outside its buffers, crashes, runs past\n"
    "  --timeout, or computes a wrong result; 2 for missing or bad options.\n"
    "\n"
    "examples (in the source tree's cl/examples/):\n"
    "  clcoalesce custom --kernel-file cl/examples/copy_float4.cl --kernel copy_float4 \\\n"
    "      --pattern copy --items-per-thread 4\n"
    "  clcoalesce custom --kernel-file cl/examples/scale_strided_bad.cl \\\n"
    "      --kernel scale_chunked --pattern scale --items-per-thread 8\n"
    "  clcoalesce custom --kernel-file cl/examples/transpose_tiled.cl \\\n"
    "      --kernel transpose_tiled --pattern transpose\n";

/* ------------------------------------------------------------------ options */

struct custom_args {
    struct clc_run_args run;
    const char *kernel_file;   /* --kernel-file */
    const char *kernel_name;   /* --kernel */
    const char *pattern;       /* --pattern */
    size_t local[2];           /* --local N or XxY; {0, 0}: the pattern's default */
    unsigned items;            /* --items-per-thread; 0: the pattern's default */
    const char *describe;      /* --describe (no pattern) */
    const char *reference;     /* --reference KERNEL */
    const char *reference_file; /* --reference-file F */
    const char *bytes;         /* --bytes EXPR */
    const char *flops;         /* --flops EXPR */
    double tolerance;          /* --tolerance; < 0: not given */
};

/* custom's own options; run's (--api, --timeout, --profile ...) come from clc_tool_options */
enum {
    OPT_KERNEL_FILE = CLC_RUN_CMD_OPT,
    OPT_KERNEL,
    OPT_PATTERN,
    OPT_LOCAL,
    OPT_ITEMS,
    OPT_DESCRIBE,
    OPT_REFERENCE,
    OPT_REFERENCE_FILE,
    OPT_BYTES,
    OPT_TOLERANCE,
    OPT_FLOPS,
};

static const struct option own_options[] = {
    {"kernel-file", required_argument, NULL, OPT_KERNEL_FILE},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"pattern", required_argument, NULL, OPT_PATTERN},
    {"local", required_argument, NULL, OPT_LOCAL},
    {"items-per-thread", required_argument, NULL, OPT_ITEMS},
    {"describe", required_argument, NULL, OPT_DESCRIBE},
    {"reference", required_argument, NULL, OPT_REFERENCE},
    {"reference-file", required_argument, NULL, OPT_REFERENCE_FILE},
    {"bytes", required_argument, NULL, OPT_BYTES},
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"flops", required_argument, NULL, OPT_FLOPS},
    {NULL, 0, NULL, 0},
};

/* --local: "N" (local[1] = 0) or "XxY", each 1 to 65536. */
static int parse_local(const char *s, size_t local[2])
{
    char buf[64];
    long v;
    if (strlen(s) >= sizeof buf)
        return CLC_USAGE;
    snprintf(buf, sizeof buf, "%s", s);
    char *x = strchr(buf, 'x');
    if (x != NULL)
        *x = '\0';
    if (clc_parse_count(buf, 1, 65536, &v) != CLC_OK)
        return CLC_USAGE;
    local[0] = (size_t)v;
    local[1] = 0;
    if (x != NULL) {
        if (clc_parse_count(x + 1, 1, 65536, &v) != CLC_OK)
            return CLC_USAGE;
        local[1] = (size_t)v;
    }
    return CLC_OK;
}

/* A value that is empty is refused: an empty name is never what was meant. */
static int nonempty(const char *opt, const char *value, const char **out)
{
    if (*value == '\0') {
        clc_usage_error(PROG, HELP, opt, "(empty)");
        return CLC_USAGE;
    }
    *out = value;
    return CLC_OK;
}

/* The longest --kernel: the variant of its rows (struct clc_result's 48 bytes), so the name
 * in the report is the kernel's. */
#define MAX_NAME 47
#define MAX_NAME_TEXT "47"
_Static_assert(MAX_NAME < sizeof((struct clc_result *)0)->variant, "a row holds the name");

/* Whether s can name a __kernel: a C identifier of 1 to MAX_NAME characters. */
static bool kernel_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > MAX_NAME || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') ||
                                     (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static int parse_own(const struct clc_run_cli *cli, int c, const char *value)
{
    struct custom_args *a = cli->own_arg;
    long v;
    switch (c) {
    case OPT_KERNEL_FILE: return nonempty("--kernel-file takes a file, not", value, &a->kernel_file);
    case OPT_KERNEL:
        if (!kernel_name_ok(value)) {
            clc_usage_error(PROG, HELP, "--kernel takes the name of a __kernel (an identifier of "
                            "at most " MAX_NAME_TEXT " characters), not",
                            *value ? value : "(empty)");
            return CLC_USAGE;
        }
        a->kernel_name = value;
        break;
    case OPT_PATTERN:
        if (find_pattern(value) == NULL) {
            clc_usage_error(PROG, HELP, "--pattern takes copy, scale, transpose or gather, not",
                            value);
            return CLC_USAGE;
        }
        a->pattern = value;
        break;
    case OPT_LOCAL:
        if (parse_local(value, a->local) != CLC_OK) {
            clc_usage_error(PROG, HELP, "--local takes N or XxY (1 to 65536 each), not", value);
            return CLC_USAGE;
        }
        break;
    case OPT_ITEMS:
        if (clc_run_count(cli, "--items-per-thread", value, 1, 1 << 20, &v) != CLC_OK)
            return CLC_USAGE;
        a->items = (unsigned)v;
        break;
    case OPT_DESCRIBE: return nonempty("--describe takes a description, not", value, &a->describe);
    case OPT_REFERENCE:
        if (!kernel_name_ok(value)) {
            clc_usage_error(PROG, HELP, "--reference takes the name of a __kernel, not",
                            *value ? value : "(empty)");
            return CLC_USAGE;
        }
        a->reference = value;
        break;
    case OPT_REFERENCE_FILE:
        return nonempty("--reference-file takes a file, not", value, &a->reference_file);
    case OPT_BYTES:
        return nonempty("--bytes takes an expression of the sizes, not", value, &a->bytes);
    case OPT_FLOPS:
        return nonempty("--flops takes an expression of the sizes, not", value, &a->flops);
    case OPT_TOLERANCE: {
        char *end;
        errno = 0;
        a->tolerance = strtod(value, &end);
        if (*value == '\0' || *end != '\0' || errno != 0 ||
            !(a->tolerance >= 0 && a->tolerance < 1)) {
            clc_usage_error(PROG, HELP, "--tolerance takes a relative tolerance in [0, 1), not",
                            *value ? value : "(empty)");
            return CLC_USAGE;
        }
        break;
    }
    default: return clc_parse_tool_option(cli, &a->run, c, value);
    }
    return CLC_OK;
}

static bool no_case(const char *name)
{
    (void)name;
    return false;
}

/* Parses `custom`'s arguments.  Returns CLC_OK or CLC_USAGE after a message. */
static int parse_custom_args(int argc, char **argv, struct custom_args *a)
{
    const struct clc_run_cli cli = {PROG,        HELP, CLC_RUN_SWEEP | CLC_RUN_COLD,
                                    clc_tool_options, own_options, "k:", parse_own, a,
                                    no_case};
    memset(a, 0, sizeof *a);
    a->tolerance = -1;
    clc_opts_defaults(&a->run.opts);
    a->run.opts.compiler = clc_self_exe;
    a->run.timeout = DEFAULT_TIMEOUT;
    int rc = clc_parse_tool_args(argc, argv, &cli, &a->run);
    if (rc != CLC_OK || a->run.help)
        return rc;
    if (!a->kernel_file || !a->kernel_name) {
        char missing[64] = "";
        const char *names[] = {a->kernel_file ? NULL : "--kernel-file",
                               a->kernel_name ? NULL : "--kernel"};
        for (int i = 0; i < 2; i++) {
            size_t len = strlen(missing);
            if (names[i] != NULL)
                snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "", names[i]);
        }
        clc_error("custom needs --kernel-file F and --kernel NAME; missing %s; see " HELP, missing);
        return CLC_USAGE;
    }
    const char *pattern_only = a->local[0] ? "--local" : a->items ? "--items-per-thread" : NULL;
    const char *any_only = a->describe ? "--describe" : a->reference ? "--reference"
                           : a->reference_file ? "--reference-file" : a->bytes ? "--bytes"
                           : a->flops ? "--flops"
                           : a->tolerance >= 0 ? "--tolerance" : NULL;
    if (a->pattern == NULL && pattern_only != NULL) {
        clc_error("%s goes with --pattern; a described kernel gives its launch in its "
                  "description (grid, group); see " HELP, pattern_only);
        return CLC_USAGE;
    }
    if (a->pattern != NULL && any_only != NULL) {
        clc_error("%s goes with a described kernel, not with --pattern (which checks against "
                  "its own host reference); see " HELP, any_only);
        return CLC_USAGE;
    }
    if (a->reference_file != NULL && a->reference == NULL) {
        clc_error("--reference-file names where --reference KERNEL is; give --reference too");
        return CLC_USAGE;
    }
    bool two_d = a->pattern != NULL && find_pattern(a->pattern)->kind == TRANSPOSE;
    if (a->local[0] && two_d != (a->local[1] != 0)) {
        clc_error(two_d ? "--local: the %s pattern launches in 2-D: give XxY, e.g. 32x8"
                        : "--local: the %s pattern launches in 1-D: give one number, e.g. 256",
                  a->pattern);
        return CLC_USAGE;
    }
    const struct clc_input in[] = {{a->kernel_file, "--kernel-file"},
                                   {a->run.opts.profile, "--profile"},
                                   {a->reference_file, "--reference-file"}};
    if (clc_output_refuse_inputs(PROG, HELP, "-o", a->run.output, in, 3) != CLC_OK)
        return CLC_USAGE;
    if (a->run.opts.types_given && !(a->run.opts.types & CLC_FLOAT)) {
        clc_error("custom runs in float only (--type)");
        return CLC_USAGE;
    }
    a->run.opts.types = CLC_FLOAT;
    return CLC_OK;
}

/* The kernel a's options name, read from `path`. */
static struct clc_custom_kernel kernel_of(const struct custom_args *a, const char *path)
{
    return (struct clc_custom_kernel){path,          a->kernel_name, a->pattern,
                                      {a->local[0], a->local[1]}, a->items, a->describe,
                                      a->reference,  a->reference_file, a->bytes,
                                      a->tolerance,  a->flops,       NULL};
}

int clc_custom_parse(int argc, char **argv, struct clc_run_args *run,
                     struct clc_custom_kernel *k)
{
    struct custom_args a;
    int rc = parse_custom_args(argc, argv, &a);
    *run = a.run;
    *k = kernel_of(&a, a.kernel_file);
    return rc;
}

/* ------------------------------------------------------------------ the plan */

/* What the user asked for, as the variant's data. */
struct setup {
    const struct pattern *p;
    size_t local[2];
    unsigned items;
    const char *path;    /* the kernel file, absolute */
    const char *missing; /* what the source lacks for the trace build, NULL when nothing */
    const char *trace_file; /* the rewritten source of a kernel without the macros, or NULL */
};

/* The -D options su builds the kernel with, in out (-DT=float is added apart). */
static const char *setup_defines(const struct setup *su, char *out, size_t len)
{
    snprintf(out, len, "-DCLC_ITEMS=%u -DCLC_LOCAL_X=%zu -DCLC_LOCAL_Y=%zu", su->items,
             su->local[0], su->local[1] ? su->local[1] : 1);
    return out;
}

static int plan(const struct clc_env *e, const struct clc_variant *v, long param,
                struct clc_plan *p)
{
    (void)param;
    const struct setup *su = v->data;
    const struct pattern *pt = su->p;
    unsigned es = clc_env_es(e);
    size_t n = e->n;
    p->kernel = v->kernel;
    p->file = su->path;
    p->trace_file = su->trace_file;
    char defines[128];
    clc_plan_define(p, "%s", setup_defines(su, defines, sizeof defines));
    switch (pt->kind) {
    case COPY:
    case SCALE:
        clc_plan_map(p, e, v->kernel, su->local[0], pt->kind == SCALE ? clc_ref_scale : clc_ref_copy);
        clc_plan_1d(p, (n + su->items - 1) / su->items, su->local[0]);
        break;
    case GATHER: {
        if (n > UINT32_MAX)
            n = UINT32_MAX; /* uint indices */
        uint32_t *idx = clc_plan_host(p, n * sizeof *idx);
        if (idx == NULL)
            return CLC_ERR;
        if (!e->dry) /* one block of n: the permutation of gather/random */
            clc_gather_indices(idx, n, n);
        unsigned in = clc_plan_buffer(p, "in", n, es, CLC_INIT_VALUES);
        unsigned ix = clc_plan_buffer(p, "idx", n, sizeof *idx, CLC_INIT_HOST);
        unsigned out = clc_plan_buffer(p, "out", n, es, CLC_INIT_POISON);
        p->bufs[ix].host = idx;
        p->bufs[out].read_back = true;
        clc_plan_arg_buf(p, in);
        clc_plan_arg_buf(p, ix);
        clc_plan_arg_buf(p, out);
        clc_plan_arg_u64(p, n);
        clc_plan_1d(p, (n + su->items - 1) / su->items, su->local[0]);
        p->bytes = (uint64_t)n * (es + sizeof *idx) + (uint64_t)n * es;
        p->check = clc_check_gather;
        break;
    }
    case TRANSPOSE: {
        uint64_t *wh = clc_plan_host(p, 2 * sizeof *wh);
        if (wh == NULL)
            return CLC_ERR;
        size_t width, height;
        clc_matrix_shape(n, &width, &height);
        wh[0] = width;
        wh[1] = height;
        unsigned in = clc_plan_buffer(p, "in", n, es, CLC_INIT_VALUES);
        unsigned out = clc_plan_buffer(p, "out", n, es, CLC_INIT_POISON);
        p->bufs[out].read_back = true;
        clc_plan_arg_buf(p, in);
        clc_plan_arg_buf(p, out);
        clc_plan_arg_u64(p, width);
        clc_plan_arg_u64(p, height);
        clc_plan_2d(p, width, (height + su->items - 1) / su->items, su->local[0], su->local[1]);
        p->bytes = 2 * (uint64_t)width * height * es;
        p->check = clc_check_transpose;
        p->ref_ctx = wh;
        p->has_param = true;
        p->param = (long)width;
        clc_plan_note(p, "transpose %zu x %zu, local %zux%zu, %u rows each", width, height,
                      su->local[0], su->local[1], su->items);
        break;
    }
    }
    if (pt->kind != TRANSPOSE)
        clc_plan_note(p, "%s, local %zu, %u per work-item", pt->name, su->local[0], su->items);
    if (su->missing != NULL)
        clc_plan_note(p, "; model: off (%s; see 'custom --help')", su->missing);
    return CLC_OK;
}

/* What the source lacks for the trace build, or NULL when it has it all.  A plain text
 * search: enough to say why the check and the model are off. */
const char *clc_custom_trace_missing(const char *src)
{
    if (strstr(src, "CLC_TRACE_ARGS") == NULL)
        return "no CLC_TRACE_ARGS";
    if (strstr(src, "CLC_TRACE_BEGIN") == NULL)
        return "no CLC_TRACE_BEGIN";
    if (strstr(src, "LOAD(") == NULL && strstr(src, "STORE(") == NULL)
        return "no LOAD / STORE";
    return NULL;
}

bool clc_custom_empty(const char *src, const char *file, const char *kernel)
{
    if (src[strspn(src, " \t\r\n")] != '\0')
        return false;
    clc_error("%s: no __kernel '%s' (the file is empty)", file, kernel);
    return true;
}

const char *clc_custom_rewrite(const struct clc_session *s, const char *path, const char *src,
                               const char *opts, char *tmp, size_t tmp_len, char *why,
                               size_t why_len)
{
    const char *missing = clc_custom_trace_missing(src);
    tmp[0] = '\0';
    if (missing == NULL || strstr(src, "CLC_TRACE_ARGS") != NULL)
        return missing; /* the macros, whole or in part: built as it is */
    /* one rewritten source for every API: NVRTC compiles it with cl/clc_cuda.h in front, as
     * it compiles the macros' trace build */
    if (clc_rewrite_to_file(path, s->be[0]->kernel_dir, opts, tmp, tmp_len, why, why_len) !=
        CLC_OK) {
        tmp[0] = '\0';
        return why;
    }
    return NULL;
}

/* ------------------------------------------------------------------ ranking */

/* Every verified row of `size` from `first` on, by GB/s, with its percentage of the best. */
static void print_ranking(FILE *f, const struct clc_report *rep, size_t first, const char *name,
                          const struct pattern *pt, uint64_t size)
{
    size_t n = 0, left = 0, *order = malloc((rep->n_results - first + 1) * sizeof *order);
    if (order == NULL)
        return;
    for (size_t i = first; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (r->size != size)
            continue;
        if (r->status != CLC_STATUS_OK || !(r->gbps > 0)) {
            left++;
            continue;
        }
        size_t j = n++;
        for (; j > 0 && rep->results[order[j - 1]].gbps < r->gbps; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    char cases[64] = "", sz[32];
    for (int c = 0; c < 3 && pt->compare[c]; c++) {
        size_t len = strlen(cases);
        snprintf(cases + len, sizeof cases - len, "%s%s", c ? ", " : "", pt->compare[c]);
    }
    bool apis = rep->n_apis > 1;
    fprintf(f, "\nranking: %s (pattern %s) against the built-in %s; float, %s\n", name, pt->name,
            cases, clc_format_size(size, sz, sizeof sz));
    fprintf(f, "%4s  %-12s %-20s %6s %s%9s %10s %7s %9s %s\n", "rank", "case", "variant",
            "param", apis ? "api    " : "", "GB/s", "% of best", "model", "pred", "bound");
    double best = n ? rep->results[order[0]].gbps : NAN;
    for (size_t i = 0; i < n; i++) {
        const struct clc_result *r = &rep->results[order[i]];
        char param[24] = "-", model[24] = "-", api[16] = "", pred[24] = "-";
        if (r->has_param)
            snprintf(param, sizeof param, "%ld", r->param);
        if (!isnan(r->model.efficiency))
            snprintf(model, sizeof model, "%.0f%%", r->model.efficiency * 100.0);
        if (isfinite(r->model.gbps))
            snprintf(pred, sizeof pred, "%.1f", r->model.gbps);
        if (apis)
            snprintf(api, sizeof api, "%-6s ", r->api);
        const char *bound = isfinite(r->model.gbps) && r->model.bound[0] ? r->model.bound : "-";
        bool yours = strcmp(r->case_name, "custom") == 0;
        fprintf(f, "%4zu  %-12s %-20s %6s %s%9.1f %10.1f %7s %9s %-*s%s\n", i + 1, r->case_name,
                r->variant, param, api, r->gbps, 100.0 * r->gbps / best, model, pred,
                yours ? 9 : 0, bound, yours ? "<- yours" : "");
    }
    if (left)
        fprintf(f, "(%zu row%s not ranked: skipped or failed)\n", left, left == 1 ? "" : "s");
    fflush(f);
    free(order);
}

/* The bytes each of the user's rows from `first` on counts (the rule its GB/s divides by,
 * and which rule that is) beside the DRAM bytes the model predicts for its launch. */
static void print_bytes(FILE *f, const struct clc_report *rep, size_t first)
{
    bool head = false;
    for (size_t i = first; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        if (strcmp(r->case_name, "custom") != 0 || r->bytes_rule[0] == '\0' ||
            r->status == CLC_STATUS_SKIPPED)
            continue;
        if (!head)
            fprintf(f, "\nbytes per launch (GB/s = these / time), beside the model's DRAM "
                       "bytes:\n");
        head = true;
        char sz[32], dram[48] = "no DRAM prediction (no profile)";
        if (isfinite(r->model.dram_bytes))
            snprintf(dram, sizeof dram, "the model's DRAM bytes %.0f", r->model.dram_bytes);
        fprintf(f, "  %s%s%s at %s: %" PRIu64 " bytes (%s); %s\n", r->variant,
                rep->n_apis > 1 ? ", " : "", rep->n_apis > 1 ? r->api : "",
                clc_format_size(r->size, sz, sizeof sz), r->bytes, r->bytes_rule, dram);
    }
    fflush(f);
}

/* Why the user's kernel runs as it does: each of its rows from `first` on that the profile
 * predicted, as explain's waterfall, the measured GB/s beside it where the profile is of
 * this device. */
static void print_why(FILE *f, const struct clc_session *s, const struct clc_report *rep,
                      size_t first)
{
    for (size_t i = first; i < rep->n_results; i++) {
        const struct clc_result *r = &rep->results[i];
        const struct clc_profile *p = clc_session_profile(s, r->api);
        struct clc_prediction pr;
        if (p == NULL || strcmp(r->case_name, "custom") != 0 || r->status != CLC_STATUS_OK ||
            !clc_predict(p, r, &pr))
            continue;
        char dev[4 * sizeof p->device];
        fprintf(f, "\n%s%s%s, layer by layer on the profile of\n  %s\n('clcoalesce explain "
                "--help' lists the layers, docs/model.md says what each charges):\n", r->variant,
                rep->n_apis > 1 ? ", " : "", rep->n_apis > 1 ? r->api : "",
                clc_printable(p->device, dev, sizeof dev));
        bool here = strcmp(p->device, rep->device.name) == 0;
        clc_print_waterfall_wrapped(f, &pr, here && s->be[0]->dev.cpu, here ? r->gbps : NAN);
        if (!here)
            fprintf(f, "  (predicted for the profile's device, not this one: nothing "
                    "measured to set beside it)\n");
    }
    fflush(f);
}

/* ------------------------------------------------------------------ the work */

static const struct custom_args *the_args; /* for work(), which clc_run_command calls */

int clc_custom_check_kernel(struct clc_session *s, const struct clc_custom_kernel *k,
                            const char *path, const char *opts, int nargs, const char *expect,
                            const size_t local[3])
{
    /* the option that set the shape, as messages name it */
    char shape[64];
    if (k->pattern != NULL)
        snprintf(shape, sizeof shape, "--local %zux%zu", local[0], local[1]);
    else
        snprintf(shape, sizeof shape, "group %zux%zux%zu", local[0], local[1], local[2]);
    struct clc_backend *be = s->be[0];
    struct clc_kernel *kern = NULL;
    struct clc_kernel_info ki;
    int rc = CLC_ERR;
    if (be->ops->build(be, path, opts, k->name, &kern) != CLC_OK ||
        be->ops->kernel_info(be, kern, &ki) != CLC_OK)
        goto done;
    if (ki.nargs >= 0 && ki.nargs != nargs) {
        clc_error("kernel '%s' in %s takes %d parameters; %s", k->name, k->file, ki.nargs, expect);
        goto done;
    }
    size_t lx = local[0], ly = local[1], lz = local[2];
    if (ki.reqd[0] != 0 && (ki.reqd[0] != lx || ki.reqd[1] != ly || ki.reqd[2] != lz)) {
        clc_error("%s: kernel '%s' declares reqd_work_group_size(%zu, %zu, %zu)", shape, k->name,
                  ki.reqd[0], ki.reqd[1], ki.reqd[2]);
        goto done;
    }
    /* PoCL asserts at the launch rather than refusing a kernel whose __local arrays exceed
     * the device's local memory: say so before any launch */
    if (be->dev.local_mem > 0 && ki.local_bytes > be->dev.local_mem) {
        char need[32], have[32];
        bool cl = be->dev.api == CLC_API_OPENCL;
        clc_error("kernel '%s' uses %s of local memory per work-group (%s); the device has %s "
                  "(%s)", k->name, clc_format_size(ki.local_bytes, need, sizeof need),
                  cl ? "CL_KERNEL_LOCAL_MEM_SIZE" : "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES",
                  clc_format_size(be->dev.local_mem, have, sizeof have),
                  cl ? "CL_DEVICE_LOCAL_MEM_SIZE" : "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK");
        goto done;
    }
    if (lx * ly * lz > ki.max_group) {
        clc_error("%s: work-groups of %zu work-items; kernel '%s' allows %zu here",
                  k->pattern != NULL ? "--local" : shape, lx * ly * lz, k->name, ki.max_group);
        goto done;
    }
    rc = CLC_OK;
done:
    clc_release_kernel(be, kern);
    return rc;
}

int clc_custom_measure(struct clc_session *s, const struct clc_custom_kernel *k)
{
    if (k->pattern == NULL)
        return clc_custom_measure_any(s, k);
    const struct pattern *pt = find_pattern(k->pattern);
    if (pt == NULL) {
        clc_error("no pattern '%s': copy, scale, transpose or gather", k->pattern);
        return CLC_USAGE;
    }
    struct setup su = {pt, {pt->local[0], pt->local[1]}, k->items ? k->items : pt->items, NULL,
                       NULL, NULL};
    if (k->local[0] != 0) {
        su.local[0] = k->local[0];
        su.local[1] = pt->kind == TRANSPOSE ? k->local[1] : 0;
    }
    if (pt->kind != TRANSPOSE)
        su.local[1] = 0;
    char path[PATH_MAX];
    char *src = NULL;
    errno = 0;
    if (realpath(k->file, path) == NULL) {
        clc_error("cannot read kernel file '%s': %s", k->file, strerror(errno));
        return CLC_ERR;
    }
    if ((src = clc_read_kernel_file(path, NULL)) == NULL)
        return CLC_ERR;
    if (clc_custom_empty(src, k->file, k->name)) {
        free(src);
        return CLC_ERR;
    }
    su.path = path;
    char defines[128], trace_opts[160], rewritten[PATH_MAX], why[512];
    snprintf(trace_opts, sizeof trace_opts, "-DT=float %s",
             setup_defines(&su, defines, sizeof defines));
    su.missing = clc_custom_rewrite(s, path, src, trace_opts, rewritten, sizeof rewritten, why,
                                    sizeof why);
    su.trace_file = rewritten[0] != '\0' ? rewritten : NULL;
    free(src);
    struct clc_variant variant = {.name = k->name, .kernel = k->name, .plan = plan, .data = &su};
    struct clc_case mine = {.name = "custom", .cl_file = path, .types = CLC_FLOAT,
                            .alloc_factor = 1, .min_elems = 1, .variants = &variant,
                            .n_variants = 1};
    char opts[256], expect[320];
    size_t local[3] = {su.local[0], su.local[1] ? su.local[1] : 1, 1};
    snprintf(opts, sizeof opts, "-DT=float -DCLC_ITEMS=%u -DCLC_LOCAL_X=%zu -DCLC_LOCAL_Y=%zu",
             su.items, local[0], local[1]);
    snprintf(expect, sizeof expect, "the %s pattern passes %u: %s", pt->name, pt->nargs,
             pt->signature);
    int rc = (k->then != NULL ? k->then : clc_custom_run)(s, k, &mine, &variant, su.missing,
                                                           opts, (int)pt->nargs, expect, local,
                                                           NULL);
    if (rewritten[0] != '\0')
        unlink(rewritten);
    return rc;
}

int clc_custom_run(struct clc_session *s, const struct clc_custom_kernel *k,
                   const struct clc_case *mine, const struct clc_variant *variant,
                   const char *missing, const char *opts, int nargs, const char *expect,
                   const size_t local[3], struct clc_custom_counts *counts)
{
    /* --variant picks among the built-in variants: the user's kernel runs whatever it says */
    struct clc_opts o = *s->o;
    o.variant = NULL;
    if (missing != NULL)
        o.model = false;
    const struct clc_case *cases[1] = {mine};
    int rc = clc_check_sizes(&o, cases, 1);
    if (rc != CLC_OK)
        return rc;
    /* a sweep of a pattern runs at every size asked for or not at all (run's stops at the
     * first size that does not fit; a described kernel's sizes were checked against its
     * buffers already) */
    for (uint64_t step = o.sweep_min; k->pattern != NULL && o.sweep_max != 0 &&
                                      step <= o.sweep_max;
         step = step > UINT64_MAX / 2 ? UINT64_MAX : 2 * step) {
        for (int i = 0; i < s->n_be; i++) {
            if (!clc_size_fits(&s->be[i]->dev.meta, mine->alloc_factor, step)) {
                char a[32], lim[32];
                clc_error("kernel '%s' at %s, a size of --sweep-size: the device allows %s "
                          "per buffer (%s)", k->name, clc_format_size(step, a, sizeof a),
                          clc_format_size(s->be[i]->dev.meta.max_alloc, lim, sizeof lim),
                          s->be[i]->ops->alloc_limit);
                return CLC_ERR;
            }
        }
        if (step == UINT64_MAX)
            break;
    }
    const struct clc_opts *given = s->o;
    s->o = &o;
    s->custom_kernel = k->name;
    rc = CLC_ERR;
    if (clc_custom_check_kernel(s, k, mine->cl_file, opts, nargs, expect, local) != CLC_OK)
        goto done;
    if (missing == NULL) {
        /* the checked run, at a small size, before any unchecked launch */
        struct clc_traced tr;
        int trc = clc_session_trace(s, mine, variant, 0, CLC_FLOAT, CLC_CUSTOM_CHECK_SIZE, &tr);
        if (trc == CLC_OK && tr.fault.count > 0) {
            char msg[320];
            clc_fault_message(&tr.plan, k->name, &tr.fault, msg, sizeof msg);
            clc_error("%s (found by the checked run at 1 MiB, before any unchecked launch)", msg);
        }
        bool bad = trc != CLC_OK || tr.fault.count > 0;
        if (!bad && counts != NULL && !tr.counted)
            clc_note("the checked run's buffers are too large to map byte by byte: the bytes "
                     "counted are the buffers' sizes");
        if (!bad && counts != NULL && tr.counted) {
            counts->valid = true;
            counts->nbufs = tr.plan.nbufs;
            for (unsigned b = 0; b < tr.plan.nbufs; b++) {
                counts->size[b] = tr.plan.bufs[b].elems * tr.plan.bufs[b].elem_size;
                counts->read[b] = tr.read[b];
                counts->written[b] = tr.written[b];
            }
        }
        clc_traced_free(&tr);
        if (bad)
            goto done;
    } else {
        clc_note("the checked run cannot trace your kernel (%s): it runs unchecked; "
                 "'custom --help' says what it needs", missing);
    }
    rc = clc_session_run(s, cases, 1);
done:
    s->o = given;
    s->custom_kernel = NULL;
    return rc;
}

/* The kernel file as a path the run can read as often as it builds: file's own (made
 * absolute) when it is a regular file, else (a pipe, /dev/stdin, <(...)) a temporary copy of
 * what it holds, read once, whose path *copy says to remove.  CLC_OK, or CLC_ERR after a
 * message. */
static int kernel_source(const char *file, char *path, size_t len, bool *copy)
{
    struct stat st;
    *copy = false;
    if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
        char real[PATH_MAX];
        if (realpath(file, real) == NULL) {
            clc_error("cannot read kernel file '%s': %s", file, strerror(errno));
            return CLC_ERR;
        }
        snprintf(path, len, "%s", real);
        return CLC_OK;
    }
    size_t n = 0;
    char *src = clc_read_kernel_file(file, &n); /* says what is wrong */
    if (src == NULL)
        return CLC_ERR;
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "%s/clcoalesce-kernel-XXXXXX.cl", tmp != NULL && *tmp ? tmp : "/tmp");
    int fd = mkostemps(path, 3, O_CLOEXEC);
    bool ok = fd >= 0 && write(fd, src, n) == (ssize_t)n;
    int e = errno;
    free(src);
    if (fd >= 0 && close(fd) != 0 && ok)
        ok = false, e = errno;
    if (!ok) {
        clc_error("cannot copy kernel file '%s' to %s: %s", file, path, strerror(e));
        if (fd >= 0)
            unlink(path);
        return CLC_ERR;
    }
    *copy = true;
    return CLC_OK;
}

static int work_on(const struct clc_run_args *ra, struct clc_report *rep, const char *path);

/* clc_run_command's work: the kernel file made readable as a path (kernel_source), then
 * work_on; a temporary copy is removed afterwards. */
static int work(const struct clc_run_args *ra, struct clc_report *rep)
{
    char path[PATH_MAX];
    bool copy;
    if (kernel_source(the_args->kernel_file, path, sizeof path, &copy) != CLC_OK)
        return CLC_ERR;
    /* messages name the file as given, unless it was a pipe copied to `path` */
    int rc = work_on(ra, rep, copy ? path : the_args->kernel_file);
    if (copy)
        unlink(path);
    return rc;
}

/* Checks, runs, ranks and explains the user's kernel read from `path`. */
static int work_on(const struct clc_run_args *ra, struct clc_report *rep, const char *path)
{
    const struct custom_args *a = the_args;
    const struct pattern *pt = find_pattern(a->pattern);
    const struct clc_custom_kernel k = kernel_of(a, path);
    const struct clc_opts *o = &ra->opts;
    const struct clc_case *cases[3];
    size_t ncases = 0;
    for (int c = 0; pt != NULL && c < 3 && pt->compare[c]; c++)
        cases[ncases++] = clc_find_case(pt->compare[c]);
    bool known = o->variant == NULL || pt == NULL;
    for (size_t c = 0; c < ncases && !known; c++)
        known = clc_find_variant(cases[c], o->variant) != NULL;
    if (!known) {
        clc_error("no variant '%s' among the built-in variants the %s pattern is ranked with; "
                  "'clcoalesce cases' lists them", o->variant, pt->name);
        return CLC_USAGE;
    }

    struct clc_session s;
    int rc = clc_session_open(&s, o, rep, clc_run_table(ra->format, ra->output));
    if (rc != CLC_OK)
        goto done;
    rc = clc_session_load_profile(&s, cases, ncases);
    if (rc != CLC_OK)
        goto done;
    size_t first = rep->n_results;
    /* a wrong or failed kernel is not ranked: the built-in ones run only after it verified */
    rc = clc_custom_measure(&s, &k);
    if (rc != CLC_OK)
        goto done;
    if (ncases > 0)
        rc = clc_session_run(&s, cases, ncases);
    if (rc == CLC_OK)
        clc_session_predict_end(&s);
    FILE *f = s.table != NULL ? s.table : clc_quiet ? NULL : stderr;
    if (f != NULL && pt == NULL) {
        print_bytes(f, rep, first);
        print_why(f, &s, rep, first);
    } else if (f != NULL) {
        /* one ranking per size the user's rows ran at (a sweep has several) */
        for (size_t i = first; i < rep->n_results; i++) {
            const struct clc_result *r = &rep->results[i];
            bool seen = strcmp(r->case_name, "custom") != 0;
            for (size_t j = first; j < i && !seen; j++)
                seen = strcmp(rep->results[j].case_name, "custom") == 0 &&
                       rep->results[j].size == r->size;
            if (!seen)
                print_ranking(f, rep, first, a->kernel_name, pt, r->size);
        }
        print_why(f, &s, rep, first);
    }
done:
    clc_session_close(&s);
    return rc;
}

/* ------------------------------------------------------------------ a child on a CPU */

/* True when the run's device is a CPU, so the work runs in a child process. */
static bool on_cpu(const struct clc_opts *o)
{
    if (o->apis != 0 && !(o->apis & (1u << CLC_API_OPENCL)))
        return false;
    struct clc_device *list;
    int n;
    if (clc_backend_ops(CLC_API_OPENCL)->devices(&list, &n, true) != CLC_OK)
        return false;
    bool cpu = false;
    bool q = clc_quiet;
    clc_quiet = true;
    int i = clc_select_device(list, n, o->device);
    clc_quiet = q;
    if (i >= 0)
        cpu = list[i].cpu;
    free(list);
    return cpu;
}

/* Runs this command again in a child process and waits for it: a crash of the user's kernel
 * takes the child down, and is reported here.  Returns the exit code. */
static int run_in_child(int argc, char **argv, const char *kernel)
{
    char **args = calloc((size_t)argc + 2, sizeof *args);
    char mark[64];
    snprintf(mark, sizeof mark, "%s=%ld", CHILD_ENV, (long)getpid());
    const char *const env_add[] = {mark, NULL};
    if (args == NULL) {
        clc_error("out of memory");
        return CLC_ERR;
    }
    args[0] = (char *)clc_self_exe;
    args[1] = (char *)"custom";
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    pid_t pid;
    int err = clc_spawn_child(args, env_add, NULL, &pid);
    free(args);
    if (err != 0) {
        clc_error("cannot start '%s' for the run: %s", clc_self_exe, strerror(err));
        return CLC_ERR;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return CLC_ERR;
    clc_child_ended(pid);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    int sig = WTERMSIG(status);
    clc_end_like(sig);
    clc_error("your kernel '%s' crashed the process that ran it (signal %d, %s): it most likely "
              "accessed memory outside its buffers in a way the checked run did not see (an "
              "access not made through LOAD / STORE, or one that only happens at the full "
              "size); nothing was written", kernel, sig, strsignal(sig));
    return CLC_ERR;
}

int clc_cmd_custom(int argc, char **argv)
{
    struct custom_args a;
    int rc = parse_custom_args(argc, argv, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.run.help) {
        fputs(help_text, stdout);
        return CLC_OK;
    }
    const char *child = getenv(CHILD_ENV);
    if (child != NULL && *child != '\0')
        clc_follow_parent(strtol(child, NULL, 10));
    else if (clc_self_exe != NULL && on_cpu(&a.run.opts)) {
        if (a.run.output != NULL && clc_output_check(a.run.output) != CLC_OK)
            return CLC_ERR;
        return run_in_child(argc, argv, a.kernel_name);
    }
    the_args = &a;
    rc = clc_run_command(&a.run, work);
    the_args = NULL;
    return rc;
}
