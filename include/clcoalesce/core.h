/* core.h - what every part of clcoalesce shares and none of it needs OpenCL for:
 * exit codes, element types, messages, size parsing.  The CUDA twins link this too. */
#ifndef CLCOALESCE_CORE_H
#define CLCOALESCE_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLC_VERSION "0.1.0"

/* Process exit codes, also the return codes of library entry points. */
enum {
    CLC_OK = 0,    /* everything ran and verified */
    CLC_ERR = 1,   /* run-time error: OpenCL, I/O, verification */
    CLC_USAGE = 2, /* the command line was wrong */
    CLC_SKIP = 3,  /* not done here, quietly, for a reason the caller tells (never an exit
                    * code: a plan's variant this device or size cannot run, code an API
                    * gives no text of) */
};

/* Element types a case can run in. */
enum clc_type {
    CLC_FLOAT = 1u << 0,
    CLC_DOUBLE = 1u << 1,
};

const char *clc_type_name(enum clc_type t);    /* "float" / "double" */
size_t clc_type_size(enum clc_type t);         /* 4 / 8 */
int clc_parse_type(const char *s, unsigned *mask); /* "float", "double", "all" -> mask; CLC_USAGE on error */

/* One-line diagnostics on stderr, "clcoalesce: error: ..." and "clcoalesce: note: ...". */
void clc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clc_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern bool clc_quiet; /* silences clc_note; errors always print */

/* One line "<prog>: <kind>: <message>" on stderr: the shape of every diagnostic, whichever
 * tool prints it (clcoalesce here, clcoalesce-cuda for the CUDA twins). */
void clc_vmessage(const char *prog, const char *kind, const char *fmt, va_list ap);
/* clc_error as another program ("clcoalesce-cuda: error: ..."). */
void clc_error_as(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Drops the calling thread's diagnostics until the matching clc_unmute_messages (the pairs
 * nest), for work whose failure is reported where it is done again: a trace build made
 * ahead, which its row builds in place and shows the log of.  False when they cannot be
 * dropped (no memory for the stream that swallows them): they still go to stderr. */
bool clc_mute_messages(void);
void clc_unmute_messages(void);
/* Where the calling thread's diagnostics go: stderr, unless muted. */
FILE *clc_message_stream(void);

/* A usage error: "<prog>: error: MSG 'ARG'" (or just MSG when arg is NULL), then
 * "Try HELP." pointing at the usage text, e.g. help = "'clcoalesce compare --help'". */
void clc_usage_error(const char *prog, const char *help, const char *msg, const char *arg);

/* Parses a byte count such as "4096", "64MiB", "1.5GiB", "4MB" (MB = 1e6, MiB = 2^20).
 * Rejects empty, negative, zero, garbage and values that overflow uint64.  Returns CLC_OK or
 * CLC_USAGE, with *why set to a static reason on failure. */
int clc_parse_size(const char *s, uint64_t *bytes, const char **why);

/* Parses a positive integer in [min, max]; CLC_USAGE on garbage or out of range. */
int clc_parse_count(const char *s, long min, long max, long *out);

/* The text of a failed API call cut to its function and "(...)" for an error message, e.g.
 * "clEnqueueNDRangeKernel(...)", not every argument or a page of template arguments; written
 * into buf and returned. */
const char *clc_call_name(const char *call, char *buf, size_t len);

/* The whole file at `path` in a NUL-terminated buffer the caller frees, its length in *len
 * when len is not NULL; NULL when it cannot be opened or read, errno then saying why: EISDIR
 * for a directory, EFBIG above CLC_MAX_TEXT_FILE bytes.  The one reader of every input file:
 * a pipe, a process substitution (<(...)), /dev/stdin or another device is read to its end
 * like a regular file, up to the same cap; a named FIFO without a writer reads as empty. */
#define CLC_MAX_TEXT_FILE (64L << 20)
char *clc_read_text(const char *path, size_t *len);

/* Around a kernel build in this process: meanwhile stdin is /dev/null (a kernel that
 * includes /dev/stdin or /dev/fd/0 reads nothing instead of waiting for the terminal or a
 * pipe that never ends) and what the compiler prints on stderr is held (no status line is
 * drawn meanwhile).  At the end of the last build under way, the real streams come back and
 * what was held is shown once, in one note, less the compiler's count lines
 * (clc_build_messages); nothing when that leaves nothing.  Calls nest, from any thread. */
void clc_build_begin(void);
void clc_build_end(void);

/* The real stderr's file descriptor, also while a build holds fd 2: where a signal handler
 * writes its last words.  Async-signal-safe. */
int clc_stderr_fd(void);

/* text, a compiler's output, less its lines that only count ("1 warning generated.", "2
 * warnings and 1 error generated."), trailing blank lines trimmed: a string to free, or NULL
 * when nothing else is left (or out of memory). */
char *clc_build_messages(const char *text);

/* Formats bytes as "256 MiB" / "1.5 GiB" into buf. */
const char *clc_format_size(uint64_t bytes, char *buf, size_t len);

/* What the run is doing now, e.g. "kernel stride (stride inplace 12 float, opencl)": a
 * timeout or a signal names it.  The text lives in a fixed buffer (clc_activity_text) that a
 * signal handler may read. */
void clc_activity(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *clc_activity_text(void);

/* A status line on stderr (the progress of a run), redrawn in place; every message clears it
 * first so the two never mix.  clc_status(NULL) clears it. */
void clc_status(const char *text);
/* Whether a status line is on the screen now (a signal handler clears it before writing). */
bool clc_status_active(void);

/* What erases the status line shown: "\r\033[K", or where TERM says the terminal takes no
 * escapes (unset, "dumb"), a carriage return, blanks and another.  Safe to read in a signal
 * handler. */
const char *clc_status_clear_text(void);

/* Large host buffers reused from row to row (hostmem.c): clc_host_get returns one of at least
 * `bytes` (NULL when out of memory), clc_host_put takes it back for the next row (NULL is
 * fine), and clc_give_back_memory, called between cases, frees what is kept and what glibc
 * keeps (the default suite on a CPU otherwise held 1 GB at its end instead of 0.36). */
void *clc_host_get(size_t bytes);
void clc_host_put(void *p);
void clc_give_back_memory(void);

/* Monotonic host clock in nanoseconds. */
uint64_t clc_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif
