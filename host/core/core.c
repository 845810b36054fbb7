/* core.c - messages, element types, size and count parsing, reading a file, the host clock. */
#define _POSIX_C_SOURCE 200809L
#include "clcoalesce/core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

bool clc_quiet = false;

static int capturing; /* stderr goes to a build's capture (clc_build_begin): no status line */

static char activity[256];
static bool status_shown;
/* clc_mute_messages: the stream that swallows this thread's diagnostics, and its depth */
static _Thread_local struct {
    FILE *sink;
    char *text;
    size_t len;
    int depth;
} muted;

void clc_activity(const char *fmt, ...)
{
    char buf[sizeof activity];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* copied whole, so a signal handler reading it mid-way sees a terminated string */
    memcpy(activity, buf, sizeof activity);
}

const char *clc_activity_text(void)
{
    return activity;
}

bool clc_status_active(void)
{
    return status_shown;
}

/* What erases the status line shown (clc_status_clear_text); rewritten whole before each new
 * line is shown, so that a signal handler reading it sees a terminated string. */
static char status_clear[512] = "\r";

/* Whether the terminal takes cursor escapes: not where TERM is unset, empty or "dumb" (an
 * editor's shell buffer, a serial console), which would show them as text. */
static bool terminal_escapes(void)
{
    const char *t = getenv("TERM");
    return t != NULL && *t != '\0' && strcmp(t, "dumb") != 0;
}

void clc_status(const char *text)
{
    if (__atomic_load_n(&capturing, __ATOMIC_ACQUIRE))
        return; /* stderr is a build's for now: the line would land in what it printed */
    if (status_shown)
        fputs(status_clear, stderr);
    status_shown = text != NULL;
    if (text != NULL) {
        char clear[sizeof status_clear];
        size_t n = strlen(text);
        if (terminal_escapes()) /* to the end of the line, however long it wrapped */
            snprintf(clear, sizeof clear, "\r\033[K");
        else /* a carriage return, and blanks over the text */
            snprintf(clear, sizeof clear, "\r%*s\r", (int)(n < sizeof clear - 3 ? n : sizeof clear - 3), "");
        memcpy(status_clear, clear, sizeof clear);
        fputs(text, stderr);
    }
    fflush(stderr);
}

const char *clc_status_clear_text(void)
{
    return status_clear;
}

bool clc_mute_messages(void)
{
    if (muted.depth++ == 0)
        muted.sink = open_memstream(&muted.text, &muted.len);
    return muted.sink != NULL;
}

void clc_unmute_messages(void)
{
    if (muted.depth == 0 || --muted.depth > 0)
        return;
    if (muted.sink != NULL)
        fclose(muted.sink);
    free(muted.text);
    muted.sink = NULL;
    muted.text = NULL;
    muted.len = 0;
}

FILE *clc_message_stream(void)
{
    return muted.sink != NULL ? muted.sink : stderr;
}

void clc_vmessage(const char *prog, const char *kind, const char *fmt, va_list ap)
{
    FILE *f = clc_message_stream();
    if (f == stderr && status_shown) /* held ones leave it to the thread that draws it */
        clc_status(NULL);
    if (f == stderr)
        fflush(stdout); /* the table's lines stay whole where both go to one file */
    fprintf(f, "%s: %s: ", prog, kind);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

void clc_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clc_vmessage("clcoalesce", "error", fmt, ap);
    va_end(ap);
}

void clc_note(const char *fmt, ...)
{
    if (clc_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    clc_vmessage("clcoalesce", "note", fmt, ap);
    va_end(ap);
}

void clc_error_as(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clc_vmessage(prog, "error", fmt, ap);
    va_end(ap);
}

void clc_usage_error(const char *prog, const char *help, const char *msg, const char *arg)
{
    if (arg != NULL)
        clc_error_as(prog, "%s '%s'", msg, arg);
    else
        clc_error_as(prog, "%s", msg);
    fprintf(stderr, "Try %s.\n", help);
}

const char *clc_type_name(enum clc_type t)
{
    return t == CLC_DOUBLE ? "double" : "float";
}

size_t clc_type_size(enum clc_type t)
{
    return t == CLC_DOUBLE ? 8 : 4;
}

int clc_parse_type(const char *s, unsigned *mask)
{
    if (strcmp(s, "float") == 0 || strcmp(s, "fp32") == 0)
        *mask = CLC_FLOAT;
    else if (strcmp(s, "double") == 0 || strcmp(s, "fp64") == 0)
        *mask = CLC_DOUBLE;
    else if (strcmp(s, "all") == 0)
        *mask = CLC_FLOAT | CLC_DOUBLE;
    else
        return CLC_USAGE;
    return CLC_OK;
}

/* ------------------------------------------------------------------ sizes and counts */

static const struct {
    const char *suffix;
    uint64_t mult;
} size_suffixes[] = {
    {"", 1},           {"b", 1},           {"k", 1024},       {"kib", 1024},
    {"kb", 1000},      {"m", 1u << 20},    {"mib", 1u << 20}, {"mb", 1000000},
    {"g", 1u << 30},   {"gib", 1u << 30},  {"gb", 1000000000}, {"t", 1ull << 40},
    {"tib", 1ull << 40}, {"tb", 1000000000000ull},
};

int clc_parse_size(const char *s, uint64_t *bytes, const char **why)
{
    *why = "expected a positive number of bytes such as 4096, 64MiB or 1.5GiB";
    if (s == NULL)
        return CLC_USAGE;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '-') {
        *why = "size must be positive";
        return CLC_USAGE;
    }
    if (!isdigit((unsigned char)*s) && *s != '.')
        return CLC_USAGE;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v))
        return CLC_USAGE;
    /* hex floats and exponents are legal strtod input but not sizes anyone writes */
    for (const char *p = s; p < end; p++)
        if (!isdigit((unsigned char)*p) && *p != '.')
            return CLC_USAGE;
    char suffix[8] = "";
    size_t len = strlen(end);
    if (len >= sizeof suffix)
        return CLC_USAGE;
    for (size_t i = 0; i < len; i++)
        suffix[i] = (char)tolower((unsigned char)end[i]);
    for (size_t i = 0; i < sizeof size_suffixes / sizeof size_suffixes[0]; i++) {
        if (strcmp(suffix, size_suffixes[i].suffix) != 0)
            continue;
        double b = v * (double)size_suffixes[i].mult;
        if (b >= 18446744073709551615.0) {
            *why = "size is too large";
            return CLC_USAGE;
        }
        if (b < 1.0) {
            *why = "size must be at least 1 byte";
            return CLC_USAGE;
        }
        if (b != floor(b)) {
            *why = "size must be a whole number of bytes";
            return CLC_USAGE;
        }
        *bytes = (uint64_t)b;
        return CLC_OK;
    }
    *why = "unknown size suffix (use KiB, MiB, GiB, or KB, MB, GB)";
    return CLC_USAGE;
}

int clc_parse_count(const char *s, long min, long max, long *out)
{
    if (s == NULL || *s == '\0')
        return CLC_USAGE;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < min || v > max)
        return CLC_USAGE;
    *out = v;
    return CLC_OK;
}

const char *clc_call_name(const char *call, char *buf, size_t len)
{
    snprintf(buf, len, "%s", call);
    char *paren = strchr(buf, '(');
    if (paren != NULL)
        paren[1] = '\0', strncat(buf, "...)", len - strlen(buf) - 1);
    return buf;
}

/* Reads fd to its end into a buffer that grows as needed, at most `most` bytes; NULL with
 * errno set (EFBIG beyond `most`).  *len gets the length. */
static char *read_stream(int fd, size_t most, size_t *len)
{
    size_t cap = 1 << 16, got = 0;
    char *buf = malloc(cap + 1);
    if (buf == NULL)
        return NULL;
    for (;;) {
        if (got == cap) {
            if (cap > most) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            char *p = realloc(buf, 2 * cap + 1);
            if (p == NULL) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = p;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return NULL;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    if (got > most) {
        free(buf);
        errno = EFBIG;
        return NULL;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
}

char *clc_read_text(const char *path, size_t *len)
{
    /* O_NONBLOCK: opening a FIFO that has no writer yet must not hang (it then reads as
     * empty); it is cleared below, so that a pipe is read as its writer writes */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    size_t got = 0;
    int saved = 0, fl;
    if (fstat(fd, &st) != 0) {
        saved = errno;
    } else if (S_ISDIR(st.st_mode)) {
        saved = EISDIR;
    } else if (S_ISREG(st.st_mode) && st.st_size > CLC_MAX_TEXT_FILE) {
        saved = EFBIG; /* said before reading any of it */
    } else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        saved = errno;
    } else if ((buf = read_stream(fd, CLC_MAX_TEXT_FILE, &got)) == NULL) {
        saved = errno; /* a pipe or a device (/dev/stdin, <(...)) may be endless: capped */
    } else if (len != NULL) {
        *len = got;
    }
    close(fd);
    if (saved != 0) {
        free(buf);
        errno = saved;
        return NULL;
    }
    return buf;
}

/* ------------------------------------------------------------------ builds */

/* Skips "N warning(s)" or "N error(s)" at *p; true when found. */
static bool count_of(const char **p)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    static const char *const kinds[] = {" warnings", " warning", " errors", " error"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(s, kinds[i], strlen(kinds[i])) == 0) {
            *p = s + strlen(kinds[i]);
            return true;
        }
    return false;
}

/* Whether the line [s, end) is only a count the compiler adds up: "1 warning generated.",
 * "2 warnings and 1 error generated." (clang's wording, which PoCL prints). */
static bool summary_line(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    if (!count_of(&s))
        return false;
    if (strncmp(s, " and ", 5) == 0) {
        s += 5;
        if (!count_of(&s))
            return false;
    }
    return end - s == 11 && strncmp(s, " generated.", 11) == 0;
}

char *clc_build_messages(const char *text)
{
    size_t len = strlen(text), n = 0;
    char *out = malloc(len + 1);
    if (out == NULL)
        return NULL;
    bool content = false;
    for (const char *s = text; *s;) {
        const char *end = strchr(s, '\n');
        const char *next = end ? end + 1 : s + strlen(s);
        if (end == NULL)
            end = next;
        if (!summary_line(s, end)) {
            memcpy(out + n, s, (size_t)(next - s));
            n += (size_t)(next - s);
            for (const char *c = s; c < end && !content; c++)
                content = !isspace((unsigned char)*c);
        }
        s = next;
    }
    while (n > 0 && isspace((unsigned char)out[n - 1]))
        n--;
    out[n] = '\0';
    if (!content) {
        free(out);
        return NULL;
    }
    return out;
}

static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;
static int builds;              /* builds under way in this process */
static int saved_stdin = -1;    /* the real stdin and stderr meanwhile */
static int saved_stderr = -1;
static int captured_fd = -1;    /* where stderr goes meanwhile */

/* fd `to` becomes a copy of `from`, and what it was is returned (-1 when it could not). */
static int swap_fd(int to, int from)
{
    int saved = fcntl(to, F_DUPFD_CLOEXEC, 3);
    if (saved >= 0 && dup2(from, to) < 0) {
        close(saved);
        saved = -1;
    }
    return saved;
}

/* fd `to` gets back `saved` (swap_fd's), which is closed. */
static void restore_fd(int to, int *saved)
{
    if (*saved >= 0) {
        dup2(*saved, to);
        close(*saved);
    }
    *saved = -1;
}

int clc_stderr_fd(void)
{
    int fd = -1;
    if (__atomic_load_n(&capturing, __ATOMIC_ACQUIRE))
        fd = __atomic_load_n(&saved_stderr, __ATOMIC_ACQUIRE);
    return fd >= 0 ? fd : STDERR_FILENO;
}

void clc_build_begin(void)
{
    pthread_mutex_lock(&build_lock);
    if (builds++ == 0) {
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0) {
            saved_stdin = swap_fd(STDIN_FILENO, null);
            close(null);
        }
        FILE *tmp = tmpfile();
        captured_fd = tmp != NULL ? fcntl(fileno(tmp), F_DUPFD_CLOEXEC, 3) : -1;
        if (tmp != NULL)
            fclose(tmp); /* the file lives on in captured_fd */
        fflush(stderr);
        if (captured_fd >= 0 && (saved_stderr = swap_fd(STDERR_FILENO, captured_fd)) >= 0)
            __atomic_store_n(&capturing, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&build_lock);
}

void clc_build_end(void)
{
    char *said = NULL;
    pthread_mutex_lock(&build_lock);
    if (builds > 0 && --builds == 0) {
        fflush(stderr);
        restore_fd(STDERR_FILENO, &saved_stderr);
        __atomic_store_n(&capturing, 0, __ATOMIC_RELEASE);
        restore_fd(STDIN_FILENO, &saved_stdin);
        if (captured_fd >= 0) {
            char buf[16384];
            ssize_t n = pread(captured_fd, buf, sizeof buf - 1, 0);
            buf[n > 0 ? n : 0] = '\0';
            said = clc_build_messages(buf);
            close(captured_fd);
            captured_fd = -1;
        }
    }
    pthread_mutex_unlock(&build_lock);
    if (said != NULL)
        clc_note("the kernel compiler printed:\n%s", said);
    free(said);
}

const char *clc_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (v == floor(v))
        snprintf(buf, len, "%.0f %s", v, units[u]);
    else
        snprintf(buf, len, "%.2f %s", v, units[u]);
    return buf;
}

uint64_t clc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
