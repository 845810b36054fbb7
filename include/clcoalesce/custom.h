/* custom.h - a user's kernel checked, verified, timed and modelled in an open session: what
 * `custom` does before it ranks the kernel, and what `validate` does for every kernel of its
 * manifest (host/commands/custom.c). */
#ifndef CLCOALESCE_CUSTOM_H
#define CLCOALESCE_CUSTOM_H

#include "clcoalesce/cli.h"
#include "clcoalesce/driver.h"

struct clc_custom_kernel;
struct clc_custom_counts;

/* What clc_custom_measure does with the user's case once it is built: clc_custom_run's
 * arguments, which say what it needs. */
typedef int (*clc_custom_then_fn)(struct clc_session *s, const struct clc_custom_kernel *k,
                                  const struct clc_case *mine, const struct clc_variant *variant,
                                  const char *missing, const char *opts, int nargs,
                                  const char *expect, const size_t local[3],
                                  struct clc_custom_counts *counts);

/* One kernel of the user's own and its launch, as `custom`'s options give it. */
struct clc_custom_kernel {
    const char *file;    /* the kernel file, as given (messages name it so) */
    const char *name;    /* the __kernel's name */
    const char *pattern; /* copy, scale, gather or transpose ('custom --help'); NULL: a
                          * kernel of any signature, described (describe.h) */
    size_t local[2];     /* --local N ({N, 0}) or XxY; {0, 0}: the pattern's default */
    unsigned items;      /* --items-per-thread; 0: the pattern's default */
    /* without a pattern: */
    const char *describe;       /* --describe; NULL: the file's `clcoalesce:` comment, else
                                 * what the signature leaves no doubt about */
    const char *reference;      /* --reference KERNEL; NULL: the rows are unchecked */
    const char *reference_file; /* --reference-file; NULL: the kernel's file */
    const char *bytes;          /* --bytes EXPR; NULL: distinct bytes read plus written */
    double tolerance;           /* --tolerance, relative, for floats; < 0: the description's,
                                 * else 1e-4 */
    const char *flops;          /* --flops EXPR; NULL: the description's flops line, else
                                 * none (the model's compute layer is then left out) */
    clc_custom_then_fn then;    /* NULL: clc_custom_run (custom, validate); explain traces
                                 * and explains it instead */
};

/* The options `custom` takes, parsed for another command (explain) that takes the same
 * kernel the same way: the run's options into run, the kernel into k.  Messages are
 * custom's.  Returns CLC_OK or CLC_USAGE after a message. */
int clc_custom_parse(int argc, char **argv, struct clc_run_args *run,
                     struct clc_custom_kernel *k);

/* clc_custom_measure for a kernel without a pattern (host/commands/anykernel.c). */
int clc_custom_measure_any(struct clc_session *s, const struct clc_custom_kernel *k);

/* What custom.c and anykernel.c share. */

/* What the source lacks for the trace build (CLC_TRACE_ARGS, CLC_TRACE_BEGIN, LOAD / STORE),
 * or NULL when it has it all.  A plain text search: enough to say why the model is off. */
const char *clc_custom_trace_missing(const char *src);

/* True, after a message naming file and kernel, when src holds nothing but blanks: no
 * driver is handed an empty program (NVIDIA's crashes on one). */
bool clc_custom_empty(const char *src, const char *file, const char *kernel);

/* What keeps a kernel's trace build from tracing it, or NULL: a kernel written without the
 * macros (src, its source, read from path) has its accesses rewritten (libclang, rewrite.h)
 * into a temporary file named in tmp, which its plan's trace_file names and the caller
 * removes; tmp is "" when none was written, and why holds the text of a reason returned. */
const char *clc_custom_rewrite(const struct clc_session *s, const char *path, const char *src,
                               const char *opts, char *tmp, size_t tmp_len, char *why,
                               size_t why_len);

/* Builds k's kernel from `path` with `opts` on the session's first API and reports what
 * does not fit: a parameter count other than nargs (`expect` says what was expected), a
 * declared shape other than `local`, more local memory than the device has, a work-group
 * too large.  Returns CLC_OK or CLC_ERR after a message. */
int clc_custom_check_kernel(struct clc_session *s, const struct clc_custom_kernel *k,
                            const char *path, const char *opts, int nargs, const char *expect,
                            const size_t local[3]);

/* What the checked run counted of a kernel whose plan sets count_bytes: per plan buffer,
 * its bytes at the checked run's size and the distinct bytes of it the launch read and
 * wrote.  valid false: nothing was counted (not traced, or buffers too large to map). */
struct clc_custom_counts {
    bool valid;
    unsigned nbufs;
    uint64_t size[CLC_PLAN_BUFS], read[CLC_PLAN_BUFS], written[CLC_PLAN_BUFS];
};

/* The checked run's size: the one at which a user's kernel is traced before it runs. */
#define CLC_CUSTOM_CHECK_SIZE ((uint64_t)1 << 20)

/* Runs the user's case `mine` (one variant) as clc_custom_measure says: its kernel checked
 * (clc_custom_check_kernel), then its checked trace run at CLC_CUSTOM_CHECK_SIZE unless the
 * source lacks what it needs (`missing`: the model is then off, with a note), then the run
 * itself.  With `counts` (not NULL) what the checked run counted goes there before the run,
 * for the variant's plan to read. */
int clc_custom_run(struct clc_session *s, const struct clc_custom_kernel *k,
                   const struct clc_case *mine, const struct clc_variant *variant,
                   const char *missing, const char *opts, int nargs, const char *expect,
                   const size_t local[3], struct clc_custom_counts *counts);

/* Reads k's file, builds the kernel on the session's first API and checks that it fits the
 * pattern, runs it once in its checked (trace) build at 1 MiB, then runs it as a case of
 * its own on every API of the session with s->o's options (its --variant aside): verified,
 * timed, modelled and, with s->profile, predicted.  Its rows (case "custom", variant k->name)
 * go to s->rep.  Returns CLC_OK, CLC_USAGE (an unknown pattern, a size that does not suit)
 * or CLC_ERR after a message (the file, the build, an access outside the buffers, a wrong
 * result: the row, when there is one, says which). */
int clc_custom_measure(struct clc_session *s, const struct clc_custom_kernel *k);

#endif
