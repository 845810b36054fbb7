/* compiler.c - a child process of this binary that compiles kernel files for the builds made
 * ahead of their rows (host/driver/ahead.c), and hands back what it built.  NVIDIA's OpenCL
 * compiler, run on a thread of the process that times, holds up that process's own launches
 * and event releases while it works (2 to 4 s over the default suite on an H100); in a
 * process of its own it holds up nothing, and loading what it built takes well under a
 * millisecond.  The two talk over a socket: a request is a file's path and the options, a
 * reply a status and the built bytes. */
#define _GNU_SOURCE
#include "clcoalesce/compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "clcoalesce/core.h"

extern char **environ;

#define MAX_REQUEST (1u << 20) /* a path or an options string, at most */
#define MAX_REPLY (256u << 20) /* built bytes, at most */

struct clc_compiler {
    pid_t pid;
    int fd; /* the parent's end of the socket; -1 once the child is gone */
};

/* ------------------------------------------------------------------ the wire */

/* Sends (out) or receives the n bytes at p; false at the end of the stream or on an error.
 * A child gone is an error to the sender, not a SIGPIPE. */
static bool transfer(int fd, void *p, size_t n, bool out)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = out ? send(fd, c, n, MSG_NOSIGNAL) : recv(fd, c, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

static bool put(int fd, const void *p, size_t n)
{
    return transfer(fd, (void *)p, n, true);
}

static bool get(int fd, void *p, size_t n)
{
    return transfer(fd, p, n, false);
}

static bool put_bytes(int fd, const void *p, uint64_t n)
{
    return put(fd, &n, sizeof n) && put(fd, p, (size_t)n);
}

/* A length-prefixed block of at most `most` bytes, NUL-terminated, in *out (free it). */
static bool get_bytes(int fd, uint64_t most, char **out, uint64_t *len)
{
    uint64_t n;
    if (!get(fd, &n, sizeof n) || n > most || (*out = malloc((size_t)n + 1)) == NULL)
        return false;
    if (!get(fd, *out, (size_t)n)) {
        free(*out);
        return false;
    }
    (*out)[n] = '\0';
    *len = n;
    return true;
}

/* ------------------------------------------------------------------ the parent's side */

struct clc_compiler *clc_compiler_start(const char *exe, const char *device)
{
    int sv[2];
    if (exe == NULL || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return NULL;
    struct clc_compiler *c = calloc(1, sizeof *c);
    size_t ne = 0;
    while (environ[ne] != NULL)
        ne++;
    char **env = calloc(ne + 2, sizeof *env);
    char mark[128];
    snprintf(mark, sizeof mark, "%s=%ld:%s", CLC_COMPILER_ENV, (long)getpid(), device);
    posix_spawn_file_actions_t fa;
    bool fa_made = posix_spawn_file_actions_init(&fa) == 0;
    int err = -1;
    if (c != NULL && env != NULL && fa_made &&
        posix_spawn_file_actions_adddup2(&fa, sv[1], STDIN_FILENO) == 0) {
        size_t k = 0;
        for (size_t i = 0; i < ne; i++)
            if (strncmp(environ[i], CLC_COMPILER_ENV "=", sizeof CLC_COMPILER_ENV) != 0)
                env[k++] = environ[i];
        env[k] = mark;
        char *args[] = {"clcoalesce-compiler", NULL}; /* what ps shows */
        err = posix_spawn(&c->pid, exe, &fa, NULL, args, env);
    }
    if (fa_made)
        posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(sv[1]);
    if (err != 0) {
        close(sv[0]);
        free(c);
        return NULL;
    }
    c->fd = sv[0];
    return c;
}

int clc_compiler_build(struct clc_compiler *c, const char *path, const char *options,
                       char **built, size_t *len)
{
    if (!clc_compiler_alive(c))
        return CLC_ERR;
    uint32_t status;
    uint64_t n = 0;
    if (put_bytes(c->fd, path, strlen(path)) && put_bytes(c->fd, options, strlen(options)) &&
        get(c->fd, &status, sizeof status)) {
        if (status != 0)
            return CLC_ERR;
        if (get_bytes(c->fd, MAX_REPLY, built, &n)) {
            *len = (size_t)n;
            return CLC_OK;
        }
    }
    /* the child is gone or out of step: no more requests to it */
    close(c->fd);
    c->fd = -1;
    return CLC_ERR;
}

bool clc_compiler_alive(const struct clc_compiler *c)
{
    return c != NULL && c->fd >= 0;
}

void clc_compiler_stop(struct clc_compiler *c)
{
    if (c == NULL)
        return;
    if (c->fd >= 0)
        close(c->fd);
    /* a build under way is of no more use: the child need not finish it */
    kill(c->pid, SIGKILL);
    while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    free(c);
}

/* ------------------------------------------------------------------ the child's side */

const char *clc_compiler_device(const char *mark)
{
    char *end;
    long parent = strtol(mark, &end, 10);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* ends with the run that started it */
#endif
    if (end == mark || *end != ':' || parent != (long)getppid()) {
        clc_error("%s is meant for the compiler process a run starts; unset it",
                  CLC_COMPILER_ENV);
        return NULL;
    }
    return end + 1;
}

int clc_compiler_serve(clc_compile_fn compile, void *ctx)
{
    /* the lowest priority: its builds take no core from the parent's reference checks */
    setpriority(PRIO_PROCESS, 0, 19);
    clc_mute_messages();
    /* the socket leaves stdin, which becomes /dev/null: a kernel that includes /dev/stdin
     * reads nothing, instead of the requests (or waiting for one, forever) */
    int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3), null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0)
        return 1;
    close(null);
    for (;;) {
        char *path = NULL, *options = NULL, *built = NULL;
        uint64_t n;
        size_t len = 0;
        if (!get_bytes(fd, MAX_REQUEST, &path, &n))
            return 0; /* the parent is done */
        bool ok = get_bytes(fd, MAX_REQUEST, &options, &n);
        uint32_t status = ok && compile(ctx, path, options, &built, &len) == CLC_OK ? 0 : 1;
        ok = ok && put(fd, &status, sizeof status) &&
             (status != 0 || put_bytes(fd, built, len));
        free(path);
        free(options);
        free(built);
        if (!ok)
            return 1;
    }
}
