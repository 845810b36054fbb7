/* compiler.h - a child process of this binary that compiles kernel files for the builds made
 * ahead of their rows, so that the compiler holds up nothing in the process that times
 * (compiler.c).  The API's back end says how to compile and how to load what was built. */
#ifndef CLCOALESCE_COMPILER_H
#define CLCOALESCE_COMPILER_H

#include <stdbool.h>
#include <stddef.h>

/* Set in the child's environment: "<parent pid>:<device label>". */
#define CLC_COMPILER_ENV "CLCOALESCE_COMPILER"

struct clc_compiler;

/* Starts `exe` (this binary) as the compiler of the device labelled `device` ("P:D").  NULL,
 * quietly, when it cannot be started: the builds are then made in this process. */
struct clc_compiler *clc_compiler_start(const char *exe, const char *device);

/* Has the child compile `path` with `options` (as the API takes them): CLC_OK with what it
 * built in *built (free it) and *len; CLC_ERR when it did not compile (its log is for the
 * build made in place to show) or the child is gone. */
int clc_compiler_build(struct clc_compiler *c, const char *path, const char *options,
                       char **built, size_t *len);

/* Whether the child still takes requests: not after it died or fell out of step. */
bool clc_compiler_alive(const struct clc_compiler *c);

/* Ends the child (a build under way is dropped) and frees c; c may be NULL. */
void clc_compiler_stop(struct clc_compiler *c);

/* ---- in the child */

/* Compiles path with options into *built (malloc) and *len; CLC_OK or CLC_ERR. */
typedef int (*clc_compile_fn)(void *ctx, const char *path, const char *options, char **built,
                              size_t *len);

/* The device label in the child's CLC_COMPILER_ENV value `mark`; NULL, with a message, when
 * the process was not started by the parent it names.  The child dies with its parent. */
const char *clc_compiler_device(const char *mark);

/* Answers the parent's requests on standard input with `compile` until the parent closes
 * it; returns the process's exit status. */
int clc_compiler_serve(clc_compile_fn compile, void *ctx);

/* The OpenCL compiler process's main (opencl.c): `mark` is its CLC_COMPILER_ENV value. */
int clc_opencl_compiler_main(const char *mark);

#endif
