/* test_output.c - output files never destroy anything (outfile.h): each kind of path is
 * written as its kind asks (a regular file or a new path replaced through a temporary file,
 * a link's target replaced and the link kept, another user's link refused, a device or FIFO
 * written in place, "-" to stdout), refused paths and failed writes name the user's path and
 * leave nothing behind, and the same holds end to end for `compare --output`.  Device nodes and FIFOs are made
 * with mknod and mkfifo in the test's own folder; no real /dev node is written. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clcoalesce/options.h"
#include "clcoalesce/outfile.h"
#include "testutil.h"

static char dir[64];
static char out[1 << 16], err[1 << 16];

/* ------------------------------------------------------------------ helpers */

/* The whole of path (NUL-terminated, cut at len - 1) into buf; "" when it cannot be read. */
static const char *contents(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n = 0;
    if (f != NULL) {
        n = fread(buf, 1, len - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return buf;
}

static const char *kind_name(mode_t m)
{
    switch (m & S_IFMT) {
    case S_IFREG: return "regular file";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symbolic link";
    case S_IFCHR: return "character device";
    case S_IFBLK: return "block device";
    case S_IFIFO: return "FIFO";
    case S_IFSOCK: return "socket";
    default: return "nothing";
    }
}

/* Asserts that path itself (not what a link points to) is of kind (an S_IF* value). */
static void assert_kind(const char *path, mode_t kind)
{
    struct stat st;
    mode_t got = lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
    ck_assert_msg(got == kind, "%s is a %s, expected a %s", path, kind_name(got),
                  kind_name(kind));
}

/* Asserts that d holds exactly n entries, listing them otherwise (a temporary file left
 * behind shows up here). */
static void assert_entries(const char *d, size_t n)
{
    DIR *dp = opendir(d);
    ck_assert_msg(dp != NULL, "cannot list %s", d);
    char names[4096] = "";
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        count++;
        strncat(names, " ", sizeof names - strlen(names) - 1);
        strncat(names, e->d_name, sizeof names - strlen(names) - 1);
    }
    closedir(dp);
    ck_assert_msg(count == n, "%s holds %zu entries, expected %zu:%s", d, count, n, names);
}

/* Makes a character device node name in dir with the numbers of a Linux memory device
 * (1:3 behaves as /dev/null, 1:7 as /dev/full).  Returns its path, or NULL when mknod is
 * not permitted here (the test then says so and skips). */
static const char *make_chr(const char *name, unsigned minor)
{
    const char *path = clc_test_path(dir, name);
    if (mknod(path, S_IFCHR | 0666, makedev(1, minor)) != 0) {
        printf("%s: skipped: mknod is not permitted here (%s)\n", name, strerror(errno));
        return NULL;
    }
    return path;
}

/* clc_output_write_data with stderr captured into *msg. */
static int write_data(const char *path, const char *text, const char **msg)
{
    clc_test_capture(2);
    int rc = clc_output_write_data(path, text, strlen(text));
    *msg = clc_test_captured();
    return rc;
}

/* Forks a reader of the FIFO at path: it opens the FIFO without blocking, says so through a
 * pipe, then reads until the writer closes (at most 20 s) and exits 0 when what it read is
 * `want`, 1 otherwise.  Returns once the reader is open. */
static pid_t fifo_reader(const char *path, const char *want)
{
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(ready[0]);
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            _exit(2);
        ck_assert_int_eq(write(ready[1], "r", 1), 1);
        close(ready[1]);
        char got[1 << 16];
        size_t n = 0;
        bool writer_seen = false;
        for (int waited = 0; waited < 200;) {
            struct pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, 100) == 0) {
                waited++;
                continue;
            }
            ssize_t k = read(fd, got + n, sizeof got - 1 - n);
            if (k > 0) {
                n += (size_t)k;
                writer_seen = true;
            } else if (k == 0 && writer_seen) {
                break; /* the writer closed */
            } else if (k == 0) {
                usleep(10000); /* no writer yet: Linux reads end-of-file until one opens */
                waited++;
            }
        }
        got[n] = '\0';
        _exit(strcmp(got, want) == 0 ? 0 : 1);
    }
    close(ready[1]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    return pid;
}

static int reader_status(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A result file with one row, as compare reads it. */
static const char *result_file(const char *name)
{
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    struct clc_result r = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 100);
    ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    const char *path = clc_test_path(dir, name);
    clc_test_write_json(&rep, path);
    return path;
}

/* ------------------------------------------------------------------ kinds of path */

START_TEST(new_file_written_with_umask_mode)
{
    clc_test_make_dir(dir, "out");
    const char *path = clc_test_path(dir, "new.txt");
    mode_t old = umask(027);
    int rc = clc_output_write_data(path, "hello\n", 6);
    umask(old);
    ck_assert_int_eq(rc, CLC_OK);
    char buf[64];
    ck_assert_str_eq(contents(path, buf, sizeof buf), "hello\n");
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_msg((st.st_mode & 0777) == 0640, "mode %o, expected 0640 (0666 & ~027)",
                  st.st_mode & 0777);
    assert_entries(dir, 1); /* no temporary file left */
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(regular_file_replaced_by_rename)
{
    clc_test_make_dir(dir, "out");
    const char *path = clc_test_path(dir, "r.txt");
    clc_test_write_file(path, "old contents, longer than the new\n");
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    ck_assert_int_eq(clc_output_write_data(path, "new\n", 4), CLC_OK);
    ck_assert_int_eq(stat(path, &after), 0);
    char buf[64];
    ck_assert_str_eq(contents(path, buf, sizeof buf), "new\n");
    /* a new inode: the old file was never truncated in place */
    ck_assert_msg(after.st_ino != before.st_ino, "inode %lu kept: written in place",
                  (unsigned long)after.st_ino);
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

/* A fill that fails half way, as a writer out of memory would. */
static int failing_fill(FILE *f, void *ctx)
{
    (void)ctx;
    fputs("half of it", f);
    return CLC_ERR;
}

START_TEST(failed_fill_leaves_file_as_it_was)
{
    clc_test_make_dir(dir, "out");
    const char *path = clc_test_path(dir, "keep.txt");
    clc_test_write_file(path, "precious\n");
    clc_test_capture(2);
    int rc = clc_output_write(path, failing_fill, NULL);
    const char *msg = clc_test_captured();
    ck_assert_int_eq(rc, CLC_ERR);
    clc_test_assert_has(msg, path);
    char buf[64];
    ck_assert_str_eq(contents(path, buf, sizeof buf), "precious\n");
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(symlink_target_replaced_link_kept)
{
    clc_test_make_dir(dir, "out");
    const char *target = clc_test_path(dir, "target.txt");
    clc_test_write_file(target, "old\n");
    const char *link = clc_test_path(dir, "link");
    ck_assert_int_eq(symlink("target.txt", link), 0); /* relative to the link's folder */
    const char *link2 = clc_test_path(dir, "link2");
    ck_assert_int_eq(symlink(link, link2), 0); /* a chain: link2 -> link -> target.txt */
    ck_assert_int_eq(clc_output_write_data(link2, "new\n", 4), CLC_OK);
    assert_kind(link, S_IFLNK);
    assert_kind(link2, S_IFLNK);
    assert_kind(target, S_IFREG);
    char buf[64];
    ck_assert_str_eq(contents(target, buf, sizeof buf), "new\n");
    ck_assert_int_eq(readlink(link, buf, sizeof buf), 10);
    assert_entries(dir, 3);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(dangling_symlink_creates_its_target)
{
    clc_test_make_dir(dir, "out");
    const char *link = clc_test_path(dir, "link");
    ck_assert_int_eq(symlink("made.txt", link), 0);
    ck_assert_int_eq(clc_output_check(link), CLC_OK);
    assert_entries(dir, 1); /* the check created nothing */
    ck_assert_int_eq(clc_output_write_data(link, "made\n", 5), CLC_OK);
    assert_kind(link, S_IFLNK);
    char buf[64];
    ck_assert_str_eq(contents(clc_test_path(dir, "made.txt"), buf, sizeof buf), "made\n");
    assert_entries(dir, 2);
    clc_test_remove_dir(dir);
}
END_TEST

/* A link another user made is never followed, alone or met along a chain, for a file and
 * for a folder of files: it could aim the result anywhere.  Making such a link takes root
 * (lchown); elsewhere the test says so and skips. */
START_TEST(another_users_link_refused)
{
    clc_test_make_dir(dir, "out");
    const char *target = clc_test_path(dir, "target.txt");
    clc_test_write_file(target, "old\n");
    const char *planted = clc_test_path(dir, "planted");
    ck_assert_int_eq(symlink("target.txt", planted), 0);
    const uid_t other = 65534; /* "nobody" on Debian, any uid not ours will do */
    if (geteuid() != 0 || lchown(planted, other, (gid_t)-1) != 0) {
        printf("another_users_link_refused: skipped: only root can give a link away\n");
        clc_test_remove_dir(dir);
        return;
    }
    const char *mine = clc_test_path(dir, "mine");
    ck_assert_int_eq(symlink("planted", mine), 0); /* ours, but it leads through planted */
    const char *names[] = {planted, mine};
    for (int i = 0; i < 2; i++) {
        const char *msg;
        clc_test_capture(2);
        int rc = clc_output_check(names[i]);
        msg = clc_test_captured();
        ck_assert_int_eq(rc, CLC_ERR);
        clc_test_assert_has(msg, "is a link made by");
        ck_assert_int_eq(write_data(names[i], "new\n", &msg), CLC_ERR);
        clc_test_assert_has(msg, "another user's link is never followed");
    }
    const char *folder = clc_test_path(dir, "folder");
    ck_assert_int_eq(symlink(".", folder), 0);
    ck_assert_int_eq(lchown(folder, other, (gid_t)-1), 0);
    clc_test_capture(2);
    int rc = clc_output_check_dir(folder);
    clc_test_assert_has(clc_test_captured(), "is a link made by");
    ck_assert_int_eq(rc, CLC_ERR);
    char buf[64];
    ck_assert_str_eq(contents(target, buf, sizeof buf), "old\n");
    assert_entries(dir, 4);
    clc_test_remove_dir(dir);
}
END_TEST

/* /dev/stdout into a pipe leads to /proc/self/fd/1, a link that reads "pipe:[N]": no path,
 * so only the kernel can follow it.  The data goes into the pipe, written in place. */
START_TEST(proc_link_to_a_pipe_written_through)
{
    clc_test_make_dir(dir, "out");
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    char fd_link[64];
    snprintf(fd_link, sizeof fd_link, "/proc/self/fd/%d", p[1]);
    const char *stdout_like = clc_test_path(dir, "stdout");
    ck_assert_int_eq(symlink(fd_link, stdout_like), 0);
    ck_assert_int_eq(clc_output_check(stdout_like), CLC_OK);
    ck_assert_int_eq(clc_output_write_data(stdout_like, "piped\n", 6), CLC_OK);
    close(p[1]);
    char got[64];
    ssize_t n = read(p[0], got, sizeof got - 1);
    close(p[0]);
    ck_assert_int_eq(n, 6);
    got[n] = '\0';
    ck_assert_str_eq(got, "piped\n");
    assert_kind(stdout_like, S_IFLNK);
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(char_device_written_in_place)
{
    clc_test_make_dir(dir, "out");
    const char *node = make_chr("null", 3);
    if (node == NULL) {
        clc_test_remove_dir(dir);
        return;
    }
    struct stat before, after;
    ck_assert_int_eq(lstat(node, &before), 0);
    ck_assert_int_eq(clc_output_check(node), CLC_OK);
    ck_assert_int_eq(clc_output_write_data(node, "gone\n", 5), CLC_OK);
    assert_kind(node, S_IFCHR);
    ck_assert_int_eq(lstat(node, &after), 0);
    ck_assert_msg(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino,
                  "the node was replaced");
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(full_device_reports_enospc)
{
    clc_test_make_dir(dir, "out");
    const char *node = make_chr("full", 7);
    if (node == NULL) {
        clc_test_remove_dir(dir);
        return;
    }
    const char *msg;
    ck_assert_int_eq(write_data(node, "no room\n", &msg), CLC_ERR);
    char want[256];
    snprintf(want, sizeof want, "cannot write '%s': %s", node, strerror(ENOSPC));
    clc_test_assert_has(msg, want);
    assert_kind(node, S_IFCHR);
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(block_device_refused)
{
    clc_test_make_dir(dir, "out");
    const char *node = clc_test_path(dir, "disk");
    if (mknod(node, S_IFBLK | 0600, makedev(7, 0)) != 0) {
        printf("block_device_refused: skipped: mknod is not permitted here (%s)\n",
               strerror(errno));
        clc_test_remove_dir(dir);
        return;
    }
    const char *msg;
    clc_test_capture(2);
    ck_assert_int_eq(clc_output_check(node), CLC_ERR);
    msg = clc_test_captured();
    clc_test_assert_has(msg, "block device");
    ck_assert_int_eq(write_data(node, "x", &msg), CLC_ERR);
    clc_test_assert_has(msg, node);
    assert_kind(node, S_IFBLK);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(fifo_with_reader_gets_the_data)
{
    clc_test_make_dir(dir, "out");
    const char *fifo = clc_test_path(dir, "fifo");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    /* the check opens nothing: a reader waiting on the FIFO keeps waiting for the data */
    ck_assert_int_eq(clc_output_check(fifo), CLC_OK);
    pid_t reader = fifo_reader(fifo, "through the fifo\n");
    ck_assert_int_eq(clc_output_write_data(fifo, "through the fifo\n", 17), CLC_OK);
    ck_assert_int_eq(reader_status(reader), 0);
    assert_kind(fifo, S_IFIFO);
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(fifo_without_reader_is_an_error_not_a_hang)
{
    clc_test_make_dir(dir, "out");
    const char *fifo = clc_test_path(dir, "fifo");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    alarm(20); /* a hang ends the test as a failure, not at Check's long timeout */
    const char *msg;
    ck_assert_int_eq(write_data(fifo, "nobody listens\n", &msg), CLC_ERR);
    alarm(0);
    clc_test_assert_has(msg, fifo);
    clc_test_assert_has(msg, "no process is reading the FIFO");
    assert_kind(fifo, S_IFIFO);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(dash_is_stdout)
{
    clc_test_make_dir(dir, "out");
    ck_assert(clc_output_is_stdout("-") && clc_output_is_stdout(NULL));
    ck_assert(!clc_output_is_stdout("./-"));
    clc_test_capture(1);
    printf("first "); /* stdio's buffer goes out before the direct write */
    int rc = clc_output_write_data("-", "to stdout\n", 10);
    const char *got = clc_test_captured();
    ck_assert_int_eq(rc, CLC_OK);
    ck_assert_str_eq(got, "first to stdout\n");
    ck_assert_int_eq(clc_output_check("-"), CLC_OK);
    assert_entries(dir, 0);
    clc_test_remove_dir(dir);
}
END_TEST

/* A reader gone from a pipe: the error EPIPE, named, not a SIGPIPE that kills the tool. */
START_TEST(broken_pipe_is_an_error_not_a_signal)
{
    clc_test_make_dir(dir, "out");
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    close(p[0]); /* no reader any more */
    fflush(stdout);
    int saved = dup(1);
    dup2(p[1], 1);
    close(p[1]);
    clc_test_capture(2);
    int rc = clc_output_write_data("-", "into the void\n", 14);
    const char *msg = clc_test_captured();
    dup2(saved, 1);
    close(saved);
    ck_assert_int_eq(rc, CLC_ERR);
    char want[128];
    snprintf(want, sizeof want, "cannot write to standard output: %s", strerror(EPIPE));
    clc_test_assert_has(msg, want);
    sigset_t pending;
    ck_assert_int_eq(sigpending(&pending), 0);
    ck_assert_msg(!sigismember(&pending, SIGPIPE), "a SIGPIPE is left pending");
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(directory_refused)
{
    clc_test_make_dir(dir, "out");
    const char *sub = clc_test_path(dir, "sub");
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    const char *msg;
    ck_assert_int_eq(write_data(sub, "x", &msg), CLC_ERR);
    clc_test_assert_has(msg, "is a directory");
    clc_test_assert_has(msg, sub);
    clc_test_capture(2);
    ck_assert_int_eq(clc_output_check(sub), CLC_ERR);
    clc_test_assert_has(clc_test_captured(), "is a directory");
    assert_kind(sub, S_IFDIR);
    assert_entries(sub, 0);
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(missing_folder_names_the_users_path)
{
    clc_test_make_dir(dir, "out");
    const char *path = clc_test_path(dir, "nope/out.json");
    const char *msg;
    ck_assert_int_eq(write_data(path, "x", &msg), CLC_ERR);
    char want[256];
    snprintf(want, sizeof want, "cannot write '%s'", path);
    clc_test_assert_has(msg, want);
    clc_test_assert_has(msg, "does not exist");
    clc_test_assert_lacks(msg, ".tmp."); /* never the temporary file's name */
    clc_test_capture(2);
    ck_assert_int_eq(clc_output_check(path), CLC_ERR);
    clc_test_assert_has(clc_test_captured(), want);
    assert_entries(dir, 0);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(read_only_folder_refused)
{
    if (geteuid() == 0) {
        printf("read_only_folder_refused: skipped: root writes into read-only folders\n");
        return;
    }
    clc_test_make_dir(dir, "out");
    const char *ro = clc_test_path(dir, "ro");
    ck_assert_int_eq(mkdir(ro, 0500), 0);
    const char *path = clc_test_path(ro, "out.json");
    clc_test_capture(2);
    int checked = clc_output_check(path);
    const char *msg = clc_test_captured();
    ck_assert_int_eq(checked, CLC_ERR);
    clc_test_assert_has(msg, path);
    clc_test_assert_has(msg, "not writable");
    ck_assert_int_eq(write_data(path, "x", &msg), CLC_ERR);
    clc_test_assert_has(msg, path);
    clc_test_assert_lacks(msg, ".tmp.");
    assert_entries(ro, 0);
    chmod(ro, 0700);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(check_creates_nothing)
{
    clc_test_make_dir(dir, "out");
    const char *file = clc_test_path(dir, "kept.txt");
    clc_test_write_file(file, "kept\n");
    ck_assert_int_eq(clc_output_check(clc_test_path(dir, "new.json")), CLC_OK);
    ck_assert_int_eq(clc_output_check(file), CLC_OK);
    clc_test_capture(2);
    ck_assert_int_eq(clc_output_check(""), CLC_ERR);
    ck_assert_int_eq(clc_output_check(clc_test_path(dir, "new/")), CLC_ERR);
    ck_assert_int_eq(clc_output_check_dir("-"), CLC_ERR);
    ck_assert_int_eq(clc_output_check_dir(file), CLC_ERR);
    const char *msg = clc_test_captured();
    clc_test_assert_has(msg, "not a folder");
    ck_assert_int_eq(clc_output_check_dir(clc_test_path(dir, "a/b/c")), CLC_OK);
    ck_assert_int_eq(clc_output_check_dir(dir), CLC_OK);
    char buf[64];
    ck_assert_str_eq(contents(file, buf, sizeof buf), "kept\n");
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

/* Exits 42 from the handler once it removed the temporary file. */
static void abandon_and_exit(int sig)
{
    (void)sig;
    clc_outfile_abandon();
    _exit(42);
}

START_TEST(abandon_removes_the_temporary_file)
{
    clc_test_make_dir(dir, "out");
    const char *path = clc_test_path(dir, "big.json");
    clc_test_write_file(path, "before\n");
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* a file size limit raises SIGXFSZ in the middle of the write, while the temporary
         * file exists: the handler must remove it */
        signal(SIGXFSZ, abandon_and_exit);
        struct rlimit lim = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &lim);
        static char data[1 << 16];
        memset(data, 'x', sizeof data);
        clc_output_write_data(path, data, sizeof data);
        _exit(1);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 42, "the writer ended with status %d",
                  st);
    char buf[64];
    ck_assert_str_eq(contents(path, buf, sizeof buf), "before\n");
    assert_entries(dir, 1);
    clc_outfile_abandon(); /* nothing armed: does nothing */
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------ run -o */

START_TEST(run_write_to_stdout_and_to_a_full_device)
{
    clc_test_make_dir(dir, "out");
    struct clc_report rep;
    clc_report_init(&rep, "opencl");
    struct clc_result r = clc_test_row("copy", "kernel", -1, CLC_FLOAT, 100);
    ck_assert_int_eq(clc_report_add(&rep, &r), CLC_OK);
    clc_test_capture(1);
    int rc = clc_run_write("clcoalesce", &rep, CLC_FMT_JSON, "-", CLC_OK);
    const char *got = clc_test_captured();
    ck_assert_int_eq(rc, CLC_OK);
    clc_test_assert_has(got, "\"results\"");
    ck_assert_ptr_null(clc_run_table(CLC_FMT_JSON, "-")); /* "-" carries the JSON alone */
    const char *node = make_chr("full", 7);
    if (node != NULL) {
        clc_test_capture(2);
        rc = clc_run_write("clcoalesce", &rep, CLC_FMT_CSV, node, CLC_OK);
        const char *msg = clc_test_captured();
        ck_assert_int_eq(rc, CLC_ERR);
        clc_test_assert_has(msg, node);
        clc_test_assert_has(msg, strerror(ENOSPC));
        assert_kind(node, S_IFCHR);
    }
    clc_report_free(&rep);
    clc_test_remove_dir(dir);
}
END_TEST

/* ------------------------------------------------------------------ compare --output */

START_TEST(compare_output_to_a_symlink)
{
    clc_test_make_dir(dir, "out");
    const char *a = result_file("a.json");
    const char *target = clc_test_path(dir, "cmp.csv");
    clc_test_write_file(target, "old\n");
    const char *link = clc_test_path(dir, "link.csv");
    ck_assert_int_eq(symlink("cmp.csv", link), 0);
    char args[512];
    snprintf(args, sizeof args, "compare %s %s -f csv -o %s", a, a, link);
    clc_test_expect(args, 0, NULL, out, sizeof out, err, sizeof err);
    assert_kind(link, S_IFLNK);
    char buf[4096];
    clc_test_assert_has(contents(target, buf, sizeof buf), "case,variant,param,type");
    assert_entries(dir, 3);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(compare_output_to_a_fifo)
{
    clc_test_make_dir(dir, "out");
    const char *a = result_file("a.json");
    const char *fifo = clc_test_path(dir, "fifo");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    char args[512];
    /* no reader: an error at once, naming the FIFO */
    snprintf(args, sizeof args, "compare %s %s -f csv -o %s", a, a, fifo);
    alarm(60);
    clc_test_expect(args, 1, "no process is reading the FIFO", out, sizeof out, err,
                    sizeof err);
    clc_test_assert_has(err, fifo);
    assert_kind(fifo, S_IFIFO);
    /* with a reader: the comparison arrives through it */
    snprintf(args, sizeof args, "compare %s %s -f csv -o %s", a, a, fifo);
    pid_t reader = fifo_reader(fifo, "case,variant,param,type,status_1,gbps_1,status_2,gbps_2,"
                                     "ratio_2\ncopy,kernel,,float,ok,100,ok,100,1\n");
    clc_test_expect(args, 0, NULL, out, sizeof out, err, sizeof err);
    alarm(0);
    ck_assert_int_eq(reader_status(reader), 0);
    assert_kind(fifo, S_IFIFO);
    assert_entries(dir, 2);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(compare_output_to_device_nodes)
{
    clc_test_make_dir(dir, "out");
    const char *a = result_file("a.json");
    const char *null = make_chr("null", 3), *full = make_chr("full", 7);
    if (null == NULL || full == NULL) {
        clc_test_remove_dir(dir);
        return;
    }
    char args[512];
    snprintf(args, sizeof args, "compare %s %s -o %s", a, a, null);
    clc_test_expect(args, 0, NULL, out, sizeof out, err, sizeof err);
    assert_kind(null, S_IFCHR);
    snprintf(args, sizeof args, "compare %s %s -o %s", a, a, full);
    clc_test_expect(args, 1, strerror(ENOSPC), out, sizeof out, err, sizeof err);
    char want[256];
    snprintf(want, sizeof want, "cannot write '%s'", full);
    clc_test_assert_has(err, want);
    assert_kind(full, S_IFCHR);
    assert_entries(dir, 3);
    clc_test_remove_dir(dir);
}
END_TEST

START_TEST(compare_checks_output_before_reading)
{
    clc_test_make_dir(dir, "out");
    char args[512];
    /* the inputs do not exist either: the output's error comes first, so a bad path is
     * known before any work is done */
    snprintf(args, sizeof args, "compare %s/x.json %s/y.json -o %s/nope/cmp.txt", dir, dir, dir);
    clc_test_expect(args, 1, "nope/cmp.txt", out, sizeof out, err, sizeof err);
    clc_test_assert_lacks(err, "x.json");
    /* "-" is stdout */
    const char *a = result_file("a.json");
    snprintf(args, sizeof args, "compare %s %s -f csv -o -", a, a);
    clc_test_expect(args, 0, NULL, out, sizeof out, err, sizeof err);
    clc_test_assert_has(out, "copy,kernel,,float,ok,100");
    assert_entries(dir, 1);
    clc_test_remove_dir(dir);
}
END_TEST

/* An output that is an input of the same command (the same file, also through a link) is
 * refused before anything runs, naming both, and the input is left as it was: custom -o
 * replaced the user's kernel with the JSON, compare -o one of the files it compared. */
START_TEST(output_that_is_an_input_refused)
{
    clc_test_make_dir(dir, "out");
    const char *a = result_file("a.json");
    const char *kernel = clc_test_path(dir, "mine.cl");
    clc_test_write_file(kernel, "__kernel void k(void) {}\n");
    const char *link = clc_test_path(dir, "link.json");
    ck_assert_int_eq(symlink("a.json", link), 0);
    const char *png = clc_test_path(dir, "chart.png");
    clc_test_write_file(png, "not a chart\n");
    char args[1024], want[512], buf[4096];
    snprintf(args, sizeof args, "custom --kernel-file %s --kernel k --pattern copy -o %s", kernel,
             kernel);
    snprintf(want, sizeof want, "-o '%s' is the same file as --kernel-file '%s'", kernel, kernel);
    clc_test_expect(args, 2, want, out, sizeof out, err, sizeof err);
    clc_test_assert_has(contents(kernel, buf, sizeof buf), "__kernel void k");
    snprintf(args, sizeof args, "compare %s %s -f json -o %s", a, a, link);
    snprintf(want, sizeof want, "-o '%s' is the same file as the input '%s'", link, a);
    clc_test_expect(args, 2, want, out, sizeof out, err, sizeof err);
    assert_kind(link, S_IFLNK);
    snprintf(args, sizeof args, "run copy --profile %s -o %s", a, link);
    clc_test_expect(args, 2, "is the same file as --profile", out, sizeof out, err, sizeof err);
    snprintf(args, sizeof args, "plot %s -o %s", png, dir);
    clc_test_expect(args, 2, "is the same file as the input", out, sizeof out, err, sizeof err);
    clc_test_assert_has(contents(png, buf, sizeof buf), "not a chart");
    clc_test_assert_has(contents(a, buf, sizeof buf), "\"results\"");
    assert_entries(dir, 4);
    clc_test_remove_dir(dir);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        new_file_written_with_umask_mode,
        regular_file_replaced_by_rename,
        failed_fill_leaves_file_as_it_was,
        symlink_target_replaced_link_kept,
        dangling_symlink_creates_its_target,
        another_users_link_refused,
        proc_link_to_a_pipe_written_through,
        char_device_written_in_place,
        full_device_reports_enospc,
        block_device_refused,
        fifo_with_reader_gets_the_data,
        fifo_without_reader_is_an_error_not_a_hang,
        dash_is_stdout,
        broken_pipe_is_an_error_not_a_signal,
        directory_refused,
        missing_folder_names_the_users_path,
        read_only_folder_refused,
        check_creates_nothing,
        abandon_removes_the_temporary_file,
        run_write_to_stdout_and_to_a_full_device,
        compare_output_to_a_symlink,
        compare_output_to_a_fifo,
        compare_output_to_device_nodes,
        compare_checks_output_before_reading,
        output_that_is_an_input_refused,
    };
    return clc_test_main(clc_test_suite("output", tests, sizeof tests / sizeof tests[0]));
}
