/* children.c - the child processes this binary starts of itself: `custom`'s run of a CPU
 * device (a crash of the user's kernel takes the child down, not the tool) and the workers
 * of `run --device all`.  Started with the parent's environment plus a few variables, they
 * receive every signal that ends clcoalesce (the parent only waits), and the parent then
 * ends the way they did. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>

#include "clcoalesce/cli.h"

extern char **environ;

#define MAX_CHILDREN 64

static const int ending[] = {SIGINT, SIGTERM, SIGQUIT, SIGHUP};
static volatile pid_t children[MAX_CHILDREN];

/* A signal for the parent is a signal for every child. */
static void pass_on(int sig)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] > 0)
            kill(children[i], sig);
}

void clc_on_ending_signals(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = handler;
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++)
        sigaction(ending[i], &sa, NULL);
}

/* Whether environment entry e sets a variable that one of add ("NAME=value") sets. */
static bool overridden(const char *e, const char *const *add)
{
    for (; *add != NULL; add++) {
        size_t n = strcspn(*add, "=");
        if (strncmp(e, *add, n) == 0 && e[n] == '=')
            return true;
    }
    return false;
}

int clc_spawn_child(char *const *args, const char *const *env_add,
                    const posix_spawn_file_actions_t *fa, pid_t *pid)
{
    size_t ne = 0, na = 0, k = 0;
    while (environ[ne] != NULL)
        ne++;
    while (env_add[na] != NULL)
        na++;
    char **env = calloc(ne + na + 1, sizeof *env);
    int slot = 0;
    while (slot < MAX_CHILDREN && children[slot] > 0)
        slot++;
    if (env == NULL || slot == MAX_CHILDREN) {
        free(env);
        return env == NULL ? ENOMEM : EAGAIN;
    }
    for (size_t i = 0; i < ne; i++)
        if (!overridden(environ[i], env_add))
            env[k++] = environ[i];
    for (size_t i = 0; i < na; i++)
        env[k++] = (char *)env_add[i];
    clc_on_ending_signals(pass_on);
    int err = posix_spawn(pid, args[0], fa, NULL, args, env);
    free(env);
    if (err == 0)
        children[slot] = *pid;
    return err;
}

void clc_child_ended(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == pid)
            children[i] = 0;
}

void clc_end_like(int sig)
{
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++)
        if (sig == ending[i]) {
            signal(sig, SIG_DFL);
            raise(sig);
        }
}
