/* kernelfile.h - kernel files, whichever API builds them: where they are read from, reading
 * one with a message that says what is wrong, and reporting a failed build so that the
 * compiler's messages point at the file the user edits. */
#ifndef CLCOALESCE_KERNELFILE_H
#define CLCOALESCE_KERNELFILE_H

#include <stddef.h>

/* Finds the kernel directory: `explicit_dir` (--kernel-dir), else $CLCOALESCE_KERNEL_DIR, else
 * the source tree's cl/ when running from the build tree (an edited kernel takes effect on the
 * next run), else <exe>/../share/clcoalesce/cl, else the install prefix's.  An explicit
 * directory that is empty, missing or not a directory is an error.  Returns CLC_OK with the
 * path in out, or CLC_ERR with a message naming what was tried. */
int clc_find_kernel_dir(const char *explicit_dir, char *out, size_t len);

/* `file` relative to `dir` unless it is absolute, into out. */
void clc_kernel_path(const char *dir, const char *file, char *out, size_t len);

/* The text of the kernel file at `path` (free it), its length in *len when len is not NULL;
 * NULL after a message naming the path and the reason (missing, a directory, unreadable,
 * holding a NUL byte). */
char *clc_read_kernel_file(const char *path, size_t *len);

/* Prints a failed build: first the compiler's first message about `path`'s own source as
 * one error line "PATH:LINE: ...", then the options, the device and the whole log.  Compilers
 * that are handed the source as a string name a stand-in for it (a temporary copy, or
 * "<kernel>"): every "NAME:LINE" whose NAME is no file on disk, or a file holding exactly
 * `src`, is written as `path`, so an editor can jump to the line. */
void clc_report_build_failure(const char *path, const char *src, const char *options,
                              const char *device, const char *log);

#endif
