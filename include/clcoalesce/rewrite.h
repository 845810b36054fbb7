/* rewrite.h - a kernel file written without the trace macros, rewritten for its trace build
 * (host/core/rewrite.c): the same kernels with CLC_TRACE_ARGS and CLC_TRACE_BEGIN added and
 * every __global and __local access routed through cl/clc_trace.h's recorders, so the checked
 * run and the access model see a kernel exactly as its author wrote it. */
#ifndef CLCOALESCE_REWRITE_H
#define CLCOALESCE_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the rewriter was built in (libclang was found when the tool was built). */
bool clc_rewrite_available(void);

/* Parses the OpenCL C file at `path` with libclang (-x cl -cl-std=CL1.2, -I include_dir, the
 * -D options in `defines`, which may be NULL) and returns in *source_out (the caller frees
 * it) the source of its trace build: `#include "clc_trace.h"`, a `#line` back to `path`, then
 * the file with each kernel's parameter list ending in CLC_TRACE_ARGS, its body starting with
 * CLC_TRACE_BEGIN and each access wrapped in a recorder; what a kernel computes is unchanged
 * (every expression is evaluated as often as before).  Returns CLC_OK; CLC_ERR with `why`
 * holding "PATH:LINE: ..." for an access it cannot trace, or for a file that does not parse,
 * or a sentence saying that the rewriter was not built. */
int clc_rewrite_for_trace(const char *path, const char *include_dir, const char *defines,
                          char **source_out, char *why, size_t why_len);

/* clc_rewrite_for_trace into a new private file (mode 0600) in $TMPDIR or /tmp, whose path
 * goes to tmp (room for PATH_MAX); the caller removes it.  CLC_ERR with `why` as there, or
 * saying why the file could not be written. */
int clc_rewrite_to_file(const char *path, const char *include_dir, const char *defines,
                        char *tmp, size_t tmp_len, char *why, size_t why_len);

#endif
