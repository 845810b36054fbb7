/* ptx.c - `ptx`: the PTX that NVIDIA's OpenCL driver (or NVRTC, with --api cuda) makes of a
 * case's kernel file, with the global loads and stores counted by width and marked.  With
 * --variant, only that variant's kernel, built with its plan's options: nothing runs. */
#define _GNU_SOURCE
#include "clcoalesce/explain.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/model.h"
#include "inspect.h"

static const char ptx_usage[] =
    "usage: clcoalesce ptx CASE [--variant V] [--param P] [--type T] [--verbose | --raw]\n"
    "                      [--device SEL] [--api opencl|cuda] [--kernel-dir DIR]\n"
    "Builds CASE's kernel file for the device and prints the PTX (NVIDIA's OpenCL driver, or\n"
    "NVRTC with --api cuda), counting the global loads and stores by width and marking them\n"
    "'>>'.  With --variant, only the kernel that variant launches, built with its options.\n"
    "--verbose adds the registers and spills (OpenCL: -cl-nv-verbose's build log; CUDA: the\n"
    "loaded kernel's attributes).  --raw prints the whole module as it was returned, nothing\n"
    "added, for NVIDIA's own tools: clcoalesce ptx CASE --raw > k.ptx; ptxas -arch=sm_90 -v\n"
    "k.ptx -o k.cubin; cuobjdump -sass k.cubin.\n";

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The global memory instruction of a PTX line ("ld.global.nc.f32" etc.) into op; false when
 * the line has none. */
static bool global_op(const char *line, size_t len, char *op, size_t oplen)
{
    size_t n;
    const char *p = clc_ptx_opcode(line, len, &n, NULL);
    static const char *const prefixes[] = {"ld.global", "st.global", "atom.global", "red.global"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (n >= strlen(prefixes[i]) && strncmp(p, prefixes[i], strlen(prefixes[i])) == 0) {
            snprintf(op, oplen, "%.*s", (int)n, p);
            return true;
        }
    return false;
}

/* The entry a line declares (".entry name("), copied into name; false if none. */
static bool entry_name(const char *line, size_t len, char *name, size_t nlen)
{
    const char *e = memmem(line, len, ".entry ", 7);
    if (e == NULL)
        return false;
    const char *p = e + 7, *end = line + len, *q = p;
    while (q < end && (ident_char(*q) || *q == '$'))
        q++;
    snprintf(name, nlen, "%.*s", (int)(q - p), p);
    return true;
}

struct op_count {
    char entry[128];
    char op[48];
    int n;
};

/* Prints the PTX: the count of global loads and stores per entry and instruction, then the
 * text with those lines marked.  only: print just that entry (NULL: all). */
static void print_ptx(const char *ptx, const char *only)
{
    struct op_count counts[256];
    int nc = 0;
    char entry[128] = "", op[48];
    for (const char *l = ptx; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (entry_name(l, len, entry, sizeof entry)) {
        } else if (global_op(l, len, op, sizeof op) && (only == NULL || strcmp(entry, only) == 0)) {
            int i = 0;
            while (i < nc && !(strcmp(counts[i].entry, entry) == 0 && strcmp(counts[i].op, op) == 0))
                i++;
            if (i == nc && nc < (int)(sizeof counts / sizeof counts[0])) {
                snprintf(counts[nc].entry, sizeof counts[nc].entry, "%s", entry);
                snprintf(counts[nc].op, sizeof counts[nc].op, "%s", op);
                counts[nc++].n = 0;
            }
            if (i < nc)
                counts[i].n++;
        }
        l = nl ? nl + 1 : l + len;
    }
    printf("global memory instructions (static count in the PTX; '>>' marks them below):\n");
    if (nc == 0)
        printf("  none\n");
    for (int i = 0; i < nc; i++) {
        if (i == 0 || strcmp(counts[i].entry, counts[i - 1].entry) != 0)
            printf("  %s (global loads in flight a work-item keeps, as compiled: %.0f):\n",
                   counts[i].entry, clc_ptx_loads_in_flight(ptx, counts[i].entry));
        printf("    %-28s %d\n", counts[i].op, counts[i].n);
    }
    printf("\n");
    bool in = only == NULL;
    entry[0] = '\0';
    for (const char *l = ptx; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (only != NULL && entry_name(l, len, entry, sizeof entry))
            in = strcmp(entry, only) == 0;
        if (in)
            printf("%s%.*s\n", global_op(l, len, op, sizeof op) ? ">> " : "   ", (int)len, l);
        /* an entry's body ends with a "}" in the first column */
        if (only != NULL && in && len >= 1 && l[0] == '}')
            in = false;
        l = nl ? nl + 1 : l + len;
    }
}

/* Prints the build log lines about registers, spills and stack. */
static void print_verbose_log(const char *log)
{
    printf("\nbuild log (-cl-nv-verbose): registers, spills, stack:\n");
    int shown = 0;
    for (const char *l = log ? log : ""; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (memmem(l, len, "register", 8) || memmem(l, len, "spill", 5) ||
            memmem(l, len, "stack", 5) || memmem(l, len, "Compiling", 9) ||
            memmem(l, len, "Function properties", 19)) {
            printf("  %.*s\n", (int)len, l);
            shown++;
        }
        l = nl ? nl + 1 : l + len;
    }
    if (shown == 0)
        printf("  (nothing: a build served from the driver's compile cache logs nothing; "
               "run again with CUDA_CACHE_DISABLE=1)\n");
}
/* With --verbose on CUDA: what the driver says of the loaded kernel. */
static void print_kernel_info(struct clc_backend *be, const char *file, const char *options,
                              const char *kernel)
{
    struct clc_kernel *k = NULL;
    struct clc_kernel_info ki;
    printf("\nkernel %s as loaded (%s):\n", kernel, clc_api_name(be->dev.api));
    if (be->ops->build(be, file, options, kernel, &k) == CLC_OK &&
        be->ops->kernel_info(be, k, &ki) == CLC_OK)
        printf("  registers %d, local (shared) %zu bytes, private (spills, stack) %zu bytes, "
               "at most %zu work-items a group\n", ki.registers, ki.local_bytes,
               ki.private_bytes, ki.max_group);
    clc_release_kernel(be, k);
}

int clc_cmd_ptx(int argc, char **argv)
{
    struct insp_args a;
    int rc = clc_inspect_args(argc, argv, true, &a);
    if (rc != CLC_OK)
        return rc;
    if (a.help) {
        fputs(ptx_usage, stdout);
        return CLC_OK;
    }
    struct clc_opts o;
    struct clc_session s;
    struct clc_report rep;
    struct clc_plan p;
    char options[512], *text = NULL, *log = NULL;
    const char *file = a.c->cl_file, *only = NULL;
    memset(&p, 0, sizeof p);
    rc = clc_inspect_open(&a, &o, &s, &rep);
    if (rc != CLC_OK)
        goto done;
    struct clc_backend *be = s.be[0];
    clc_plan_options(&p, a.type, options, sizeof options);
    if (a.v != NULL) {
        const struct clc_variant *v;
        long param;
        uint64_t size;
        char why[256];
        clc_case_size(&be->dev.meta, be->dev.cpu, a.c->alloc_factor, !a.c->no_plateau, 0, true,
                      &size, why, sizeof why);
        if ((rc = clc_inspect_pick(&a, &be->dev, size, &v, &param)) != CLC_OK)
            goto done;
        struct clc_env e = clc_env_make(&be->dev, a.type, size);
        rc = clc_variant_plan(&e, v, param, &p);
        if (rc == CLC_OK && p.kernel == NULL) {
            clc_error("%s/%s launches no kernel of its own", a.c->name, v->name);
            rc = CLC_ERR;
        }
        if (rc != CLC_OK) {
            rc = CLC_ERR;
            goto done;
        }
        clc_plan_options(&p, a.type, options, sizeof options);
        file = p.file ? p.file : file;
        only = p.kernel;
    }
    rc = be->ops->code(be, file, options, a.verbose, &text, &log);
    if (rc == CLC_SKIP && be->dev.api == CLC_API_OPENCL)
        clc_error("device %s returned no PTX (only NVIDIA's OpenCL driver does)",
                  be->dev.meta.name);
    else if (rc == CLC_SKIP)
        clc_error("%s with %s was compiled to SASS, not PTX: no text to show", file, options);
    if (rc != CLC_OK) {
        rc = CLC_ERR;
        goto done;
    }
    if (a.raw) {
        fputs(text, stdout);
        rc = CLC_OK;
        goto done;
    }
    printf("\n%s (%s) on %s, %s, options: %s%s%s\n\n", file, clc_type_name(a.type),
           be->dev.meta.name, clc_api_name(be->dev.api), options, only ? "; kernel " : "",
           only ? only : "");
    print_ptx(text, only);
    if (a.verbose && be->dev.api == CLC_API_OPENCL)
        print_verbose_log(log);
    else if (a.verbose && only != NULL)
        print_kernel_info(be, file, options, only);
    rc = CLC_OK;
done:
    free(text);
    free(log);
    clc_plan_free(&p);
    clc_session_close(&s);
    clc_report_free(&rep);
    return rc;
}
