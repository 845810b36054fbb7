/* outfile.c - output files that never destroy anything (see outfile.h): what a path is
 * decides how it is written, replaced through a temporary file and a rename, or written
 * directly; every failure names the user's path and leaves no partial file. */
#define _GNU_SOURCE
#include "clcoalesce/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

/* Symbolic links followed before giving up, as the kernel's own limit (SYMLOOP_MAX). */
#define MAX_LINKS 40

bool clc_output_is_stdout(const char *path)
{
    return path == NULL || strcmp(path, "-") == 0;
}

/* ------------------------------------------------------------------ messages */

/* "cannot write 'path': why", naming the link's target too when path is a link, so the
 * message speaks of what the user typed and of what was really written. */
static void fail(const char *path, const char *target, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(const char *path, const char *target, const char *fmt, ...)
{
    char why[PATH_MAX + 128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (target != NULL && strcmp(path, target) != 0)
        clc_error("cannot write '%s' (a link to '%s'): %s", path, target, why);
    else
        clc_error("cannot write '%s': %s", path, why);
}

/* ------------------------------------------------------------------ what a path is */

/* The folder part of path ("." when it has none) into dir. */
static void parent_of(const char *path, char dir[PATH_MAX])
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, PATH_MAX, ".");
    else if (slash == path)
        snprintf(dir, PATH_MAX, "/");
    else
        snprintf(dir, PATH_MAX, "%.*s", (int)(slash - path), path);
}

/* True when a symbolic link owned by uid may be followed: one of the user's own or one of
 * root's.  A link someone else planted could aim a result at any file the user may write
 * (all of them, as root), so it is never followed; the kernel's protected_symlinks guards
 * only links it follows itself, and resolve reads them by hand. */
static bool link_trusted(uid_t uid)
{
    return uid == geteuid() || uid == 0;
}

/* Says why the link at name (met while following path) is not followed. */
static void untrusted_link(const char *path, const char *name, uid_t uid)
{
    struct passwd *pw = getpwuid(uid);
    char who[64];
    if (pw != NULL)
        snprintf(who, sizeof who, "user %.40s (uid %u)", pw->pw_name, (unsigned)uid);
    else
        snprintf(who, sizeof who, "uid %u", (unsigned)uid);
    clc_error("cannot write '%s': '%s' is a link made by %s, not by you or root: another "
              "user's link is never followed, since it could aim the result at any file; "
              "remove it or name another file",
              path, name, who);
}

/* True when the link at name lives in /proc, where a link to an open pipe or socket reads
 * as "pipe:[N]": only the kernel can follow it (/dev/stdout -> /proc/self/fd/1). */
static bool in_proc(const char *name)
{
    char dir[PATH_MAX];
    parent_of(name, dir);
    struct statfs fs;
    return statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

/* Follows symbolic links from path to the final name, into out: the path itself when it is
 * not a link, and the name a dangling link points to (which does not exist yet).  A relative
 * link is relative to the folder holding it.  A link in /proc that names no path stops the
 * walk at the link, with *by_kernel set: it is opened, and the kernel follows it.  Returns
 * CLC_OK, or CLC_ERR after saying why (a loop, a name too long, another user's link). */
static int resolve(const char *path, char out[PATH_MAX], bool *by_kernel)
{
    *by_kernel = false;
    if (strlen(path) >= PATH_MAX) {
        fail(path, NULL, "%s", strerror(ENAMETOOLONG));
        return CLC_ERR;
    }
    strcpy(out, path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return CLC_OK; /* the final name; whatever is wrong with it, the caller reports */
        if (hops == MAX_LINKS) {
            fail(path, NULL, "%s", strerror(ELOOP));
            return CLC_ERR;
        }
        if (!link_trusted(st.st_uid)) {
            untrusted_link(path, out, st.st_uid);
            return CLC_ERR;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(out, link, sizeof link - 1);
        if (n < 0) {
            fail(path, NULL, "%s", strerror(errno));
            return CLC_ERR;
        }
        link[n] = '\0';
        if (link[0] == '/') {
            memcpy(out, link, (size_t)n + 1);
        } else if (in_proc(out)) {
            *by_kernel = true;
            return CLC_OK;
        } else {
            const char *slash = strrchr(out, '/');
            size_t keep = slash ? (size_t)(slash - out) + 1 : 0;
            if (keep + (size_t)n >= PATH_MAX) {
                fail(path, NULL, "%s", strerror(ENAMETOOLONG));
                return CLC_ERR;
            }
            memcpy(out + keep, link, (size_t)n + 1);
        }
    }
}

/* How a path is written. */
enum how {
    HOW_REPLACE, /* new or regular: temporary file + rename */
    HOW_DIRECT,  /* character device or FIFO: opened and written in place */
    HOW_THROUGH, /* the same, opened through a /proc link only the kernel can follow */
    HOW_STDOUT,  /* "-" */
};

/* Resolves path into target, decides how it is written and *exists; refuses what must never
 * be written and an existing file the user may not write (a plain write would fail on it
 * too; a rename would not, and would destroy its protection).  Returns CLC_OK or CLC_ERR
 * after saying why. */
static int classify(const char *path, char target[PATH_MAX], enum how *how, mode_t *kind)
{
    if (clc_output_is_stdout(path)) {
        *how = HOW_STDOUT;
        return CLC_OK;
    }
    if (path[0] == '\0') {
        clc_error("cannot write '': the file name is empty");
        return CLC_ERR;
    }
    bool by_kernel;
    if (resolve(path, target, &by_kernel) != CLC_OK)
        return CLC_ERR;
    struct stat st;
    if ((by_kernel ? stat(target, &st) : lstat(target, &st)) != 0) {
        if (errno != ENOENT || by_kernel) {
            fail(path, target, "%s", strerror(errno));
            return CLC_ERR;
        }
        size_t len = strlen(target);
        if (target[len - 1] == '/') {
            fail(path, target, "the name ends in '/': name a file, not a folder");
            return CLC_ERR;
        }
        *how = HOW_REPLACE;
        *kind = 0;
        return CLC_OK;
    }
    *kind = st.st_mode & S_IFMT;
    if (S_ISDIR(st.st_mode)) {
        fail(path, target, "is a directory");
        return CLC_ERR;
    }
    if (S_ISBLK(st.st_mode)) {
        fail(path, target, "is a block device (a disk): a result is never written over one");
        return CLC_ERR;
    }
    if (S_ISSOCK(st.st_mode)) {
        fail(path, target, "is a socket");
        return CLC_ERR;
    }
    if (faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) {
        fail(path, target, "%s", strerror(errno));
        return CLC_ERR;
    }
    if (by_kernel && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) {
        fail(path, target, "it leads to no file, FIFO or device");
        return CLC_ERR;
    }
    *how = by_kernel ? HOW_THROUGH : S_ISREG(st.st_mode) ? HOW_REPLACE : HOW_DIRECT;
    return CLC_OK;
}

/* Why a file cannot be created in target's folder, from the errno of the attempt. */
static void create_failed(const char *path, const char *target, int e)
{
    char dir[PATH_MAX];
    parent_of(target, dir);
    if (e == ENOENT)
        fail(path, target, "folder '%s' does not exist", dir);
    else if (e == ENOTDIR)
        fail(path, target, "'%s' is not a folder", dir);
    else if (e == EACCES || e == EPERM || e == EROFS)
        fail(path, target, "folder '%s' is not writable (%s)", dir, strerror(e));
    else
        fail(path, target, "%s", strerror(e));
}

/* ------------------------------------------------------------------ checking */

bool clc_output_is_input(const char *out, const char *in)
{
    struct stat so, si;
    if (clc_output_is_stdout(out) || in == NULL || stat(out, &so) != 0 || stat(in, &si) != 0)
        return false;
    /* a device or a FIFO is written in place, never replaced: reading and writing one is
     * the user's plumbing, not a loss */
    return S_ISREG(so.st_mode) && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
}

int clc_output_refuse_inputs(const char *prog, const char *help, const char *out_opt,
                             const char *out, const struct clc_input *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (in[i].path == NULL || !clc_output_is_input(out, in[i].path))
            continue;
        clc_error_as(prog, "%s '%s' is the same file as %s%s'%s': writing it would replace "
                     "that input; name another output file", out_opt, out,
                     in[i].option ? in[i].option : "the input", " ", in[i].path);
        fprintf(stderr, "Try %s.\n", help);
        return CLC_USAGE;
    }
    return CLC_OK;
}

int clc_output_check(const char *path)
{
    char target[PATH_MAX];
    enum how how;
    mode_t kind;
    if (classify(path, target, &how, &kind) != CLC_OK)
        return CLC_ERR;
    if (how != HOW_REPLACE)
        return CLC_OK;
    /* a temporary file is made beside the target: its folder must take one */
    char dir[PATH_MAX];
    parent_of(target, dir);
    struct stat st;
    if (stat(dir, &st) != 0) {
        create_failed(path, target, errno);
        return CLC_ERR;
    }
    if (!S_ISDIR(st.st_mode)) {
        create_failed(path, target, ENOTDIR);
        return CLC_ERR;
    }
    if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
        create_failed(path, target, errno);
        return CLC_ERR;
    }
    return CLC_OK;
}

int clc_output_check_dir(const char *dir)
{
    if (clc_output_is_stdout(dir) || dir[0] == '\0') {
        clc_error("cannot write into '%s': name a folder", dir ? dir : "-");
        return CLC_ERR;
    }
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        clc_error("cannot create folder '%s': %s", dir, strerror(ENAMETOOLONG));
        return CLC_ERR;
    }
    /* files are made inside through the folder's name, so a link there is the user's or
     * root's as for a single file */
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && !link_trusted(link.st_uid)) {
        untrusted_link(dir, path, link.st_uid);
        return CLC_ERR;
    }
    /* the folder itself, else its nearest existing ancestor, which mkdir -p would write */
    while (true) {
        struct stat st;
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                clc_error("cannot create folder '%s': '%s' exists and is not a folder", dir,
                          path);
                return CLC_ERR;
            }
            if (faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS) != 0) {
                clc_error("cannot write into folder '%s': '%s' is not writable (%s)", dir, path,
                          strerror(errno));
                return CLC_ERR;
            }
            return CLC_OK;
        }
        if (errno != ENOENT) {
            clc_error("cannot create folder '%s': '%s': %s", dir, path, strerror(errno));
            return CLC_ERR;
        }
        /* drop the last component (and the slashes before it) */
        char *end = path + strlen(path);
        while (end > path && end[-1] == '/')
            end--;
        while (end > path && end[-1] != '/')
            end--;
        while (end > path + 1 && end[-1] == '/')
            end--;
        if (end == path)
            snprintf(path, sizeof path, ".");
        else
            *end = '\0';
    }
}

/* ------------------------------------------------------------------ the temporary file */

/* The temporary file being written now, for clc_outfile_abandon: a fixed buffer, armed only
 * once it holds a whole name, so a handler never reads one half-written. */
static char abandon_path[PATH_MAX];
static volatile sig_atomic_t abandon_armed;

/* Records tmp as the file clc_outfile_abandon removes, then arms it. */
static void arm(const char *tmp)
{
    snprintf(abandon_path, sizeof abandon_path, "%s", tmp);
    atomic_signal_fence(memory_order_seq_cst);
    abandon_armed = 1;
}

/* Forgets the temporary file: from here on its name may be the user's file. */
static void disarm(void)
{
    abandon_armed = 0;
    atomic_signal_fence(memory_order_seq_cst);
}

void clc_outfile_abandon(void)
{
    if (abandon_armed) {
        abandon_armed = 0;
        unlink(abandon_path);
    }
}

/* Six characters for a temporary name; O_EXCL, not these, keeps names apart. */
static void random_suffix(char out[7])
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static uint64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 16) ^ (++counter * 0x9E3779B97F4A7C15ull);
    for (int i = 0; i < 6; i++) {
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdull;
        x ^= x >> 29;
        out[i] = chars[x % (sizeof chars - 1)];
    }
    out[6] = '\0';
}

/* ------------------------------------------------------------------ writing */

/* Writes all len bytes to fd.  A reader gone from a pipe or FIFO is the error EPIPE, not a
 * SIGPIPE that kills the tool: the signal is blocked meanwhile and consumed if raised.
 * Returns 0 or an errno. */
static int write_all(int fd, const char *p, size_t len)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    int err = 0;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        if (n == 0) {
            err = EIO;
            break;
        }
        p += n;
        len -= (size_t)n;
    }
    if (err == EPIPE && !sigismember(&old, SIGPIPE)) {
        sigset_t pending;
        struct timespec zero = {0, 0};
        if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE))
            sigtimedwait(&pipe_set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err;
}

/* Writes data to a temporary file beside target and renames it over target once it is on
 * disk; on any failure removes the temporary file and leaves target as it was. */
static int write_replace(const char *path, const char *target, const char *data, size_t len)
{
    char tmp[PATH_MAX];
    if (strlen(target) + sizeof ".tmp.XXXXXX" > sizeof tmp) {
        fail(path, target, "%s", strerror(ENAMETOOLONG));
        return CLC_ERR;
    }
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        char suffix[7];
        random_suffix(suffix);
        snprintf(tmp, sizeof tmp, "%s.tmp.%s", target, suffix);
        /* 0666: the kernel applies the umask, as for any file a program creates */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        create_failed(path, target, errno);
        return CLC_ERR;
    }
    arm(tmp);
    int err = write_all(fd, data, len);
    if (err == 0 && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && err == 0)
        err = errno;
    /* disarmed before the rename: after it, the name is the user's file */
    disarm();
    if (err == 0 && rename(tmp, target) != 0)
        err = errno;
    if (err != 0) {
        unlink(tmp);
        fail(path, target, "%s", strerror(err));
        return CLC_ERR;
    }
    return CLC_OK;
}

/* Writes data straight into a character device or FIFO (kind: its S_IFMT).  A FIFO is opened
 * without blocking first: with no reader that fails at once (ENXIO) instead of waiting
 * forever; once open, writes block as usual while the reader drains them. */
static int write_direct(const char *path, const char *target, enum how how, mode_t kind,
                        const char *data, size_t len)
{
    int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
    int fd = open(target, how == HOW_THROUGH ? flags : flags | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENXIO && kind == S_IFIFO)
            fail(path, target, "no process is reading the FIFO");
        else
            fail(path, target, "%s", strerror(errno));
        return CLC_ERR;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != kind) {
        close(fd);
        fail(path, target, "it changed while being opened");
        return CLC_ERR;
    }
    flags = fcntl(fd, F_GETFL);
    int err = 0;
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        err = errno;
    if (err == 0)
        err = write_all(fd, data, len);
    if (close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0) {
        fail(path, target, "%s", strerror(err));
        return CLC_ERR;
    }
    return CLC_OK;
}

int clc_output_write_data(const char *path, const void *data, size_t len)
{
    char target[PATH_MAX];
    enum how how;
    mode_t kind = 0;
    if (classify(path, target, &how, &kind) != CLC_OK)
        return CLC_ERR;
    if (how == HOW_REPLACE)
        return write_replace(path, target, data, len);
    if (how == HOW_DIRECT || how == HOW_THROUGH)
        return write_direct(path, target, how, kind, data, len);
    /* what stdio holds for stdout goes first, so the output keeps its order */
    int err = fflush(stdout) == 0 ? write_all(STDOUT_FILENO, data, len) : errno;
    if (err != 0) {
        clc_error("cannot write to standard output: %s", strerror(err));
        return CLC_ERR;
    }
    return CLC_OK;
}

int clc_output_write(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m == NULL) {
        clc_error("cannot write '%s': %s", clc_output_is_stdout(path) ? "-" : path,
                  strerror(errno));
        return CLC_ERR;
    }
    int rc = fill(m, ctx);
    if (ferror(m))
        rc = CLC_ERR;
    if (fclose(m) != 0)
        rc = CLC_ERR;
    if (rc != CLC_OK) {
        clc_error("'%s' not written: its contents could not be produced",
                  clc_output_is_stdout(path) ? "-" : path);
        free(buf);
        return CLC_ERR;
    }
    rc = clc_output_write_data(path, buf, len);
    free(buf);
    return rc;
}
