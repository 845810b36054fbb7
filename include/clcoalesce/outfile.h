/* outfile.h - output files that never destroy anything.  Every command that writes a file
 * (run -o, compare --output, plot -o DIR, explain) goes through here, so one set of rules
 * holds for all of them:
 *   - a new path or a regular file is written to a temporary file in the same folder, which
 *     is renamed over it only once every byte is on disk (mode 0666 & ~umask);
 *   - a symbolic link is followed to its final target (a dangling one too), which is then
 *     replaced as above; the link stays a link.  Only links made by the user or by root are
 *     followed: another user's link (alone, in a chain, or as plot's folder) is refused,
 *     since whoever planted it would choose which file the result overwrites.  A link in
 *     /proc to an open pipe (/dev/stdout -> /proc/self/fd/1) is opened through the kernel;
 *   - a character device or a FIFO, and "-" (standard output), are written directly, never
 *     renamed over or removed; a FIFO with no reader is an error, not a hang;
 *   - a directory, a block device (a disk: never written over) and a socket are refused;
 *   - a write error (no space, broken pipe, a folder that is missing or not writable) is an
 *     error naming the user's path and the reason, and leaves no partial file.
 * Messages go to stderr as "clcoalesce: error: ..."; functions return CLC_OK or CLC_ERR. */
#ifndef CLCOALESCE_OUTFILE_H
#define CLCOALESCE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clcoalesce/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when path means standard output: NULL or "-". */
bool clc_output_is_stdout(const char *path);

/* Checks, before a run that may take an hour, that clc_output_write(path) can succeed: the
 * folder exists and is writable, the path is not a directory, a block device or a socket, an
 * existing file or device is writable.  Creates and opens nothing: a FIFO's reader is looked
 * for only when writing, since opening the FIFO now would end a waiting reader's input.
 * Returns CLC_OK (also for standard output) or CLC_ERR after saying why. */
int clc_output_check(const char *path);

/* Checks that dir is a writable folder or can be made one (its nearest existing ancestor is
 * a writable folder), for a command that writes several files into it.  Creates nothing.
 * Returns CLC_OK or CLC_ERR after saying why ("-" is refused: it is not a folder). */
int clc_output_check_dir(const char *dir);

/* An input of a command, for clc_output_refuse_inputs: its path and the option it came
 * with ("--kernel-file"; NULL for an input named on the command line). */
struct clc_input {
    const char *path;
    const char *option;
};

/* Whether writing `out` would replace the input `in`: both are the same existing regular
 * file (one device and inode, reached through any links or other spellings).  Standard
 * output, a missing output and devices never would. */
bool clc_output_is_input(const char *out, const char *in);

/* Refuses, before anything runs, an output (`out`, given with option out_opt) that is one
 * of the n inputs: a usage error of prog naming both, "-o 'a.json' is the same file as the
 * input 'b.json': ...", then "Try <help>".  Inputs with a NULL path are skipped.  Returns
 * CLC_OK or CLC_USAGE. */
int clc_output_refuse_inputs(const char *prog, const char *help, const char *out_opt,
                             const char *out, const struct clc_input *in, size_t n);

/* Writes what fill(f, ctx) writes to path by the rules above.  fill writes to a memory
 * stream and returns CLC_OK or CLC_ERR; nothing reaches path unless it returned CLC_OK, so a
 * failed fill leaves path as it was.  Returns CLC_OK or CLC_ERR after saying why. */
int clc_output_write(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx);

/* Writes len bytes of data to path by the rules above.  Returns CLC_OK or CLC_ERR. */
int clc_output_write_data(const char *path, const void *data, size_t len);

/* Removes the temporary file being written at this moment, if any, so that a signal handler
 * (SIGINT, SIGTERM, SIGHUP) leaves no partial file: async-signal-safe (it reads a static
 * buffer and calls unlink only).  The handler then re-raises the signal or calls _exit. */
void clc_outfile_abandon(void);

#ifdef __cplusplus
}
#endif

#endif
