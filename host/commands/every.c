/* every.c - `run --device all` and `--device gpu`: the same run on every selected device at
 * the same time, as an operator checks a new node.  Each device gets a worker process of
 * this binary (its own contexts and queues, exactly as a run on that device alone) that
 * writes its own result file, FILE-<index>.<ext>; the workers' tables and notes are shown
 * device by device when all have ended, and `compare --outliers` then holds each device
 * against the others.  Processes rather than threads: a driver crash or a hung kernel on one
 * GPU ends that worker alone, and no API is shared between devices. */
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clcoalesce/cli.h"
#include "clcoalesce/outfile.h"

#define WORKER_ENV "CLCOALESCE_DEVICE_WORKER" /* "<parent pid>:<device index>:<output>" */


struct worker {
    const struct clc_device *dev;
    char output[4096]; /* "" for standard output */
    FILE *out, *err;   /* what it printed, shown when all have ended */
    pid_t pid;
    int status;
};

bool clc_every_device_selector(const char *sel)
{
    return sel != NULL && (strcmp(sel, "all") == 0 || strcmp(sel, "gpu") == 0);
}

/* "res.json" -> "res-1.json", "out/res" -> "out/res-1" for device index 1. */
static void device_path(const char *path, int index, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (dot == NULL || dot == base)
        dot = base + strlen(base);
    snprintf(out, len, "%.*s-%d%s", (int)(dot - path), path, index, dot);
}

int clc_device_worker(struct clc_run_args *a)
{
    const char *w = getenv(WORKER_ENV);
    if (w == NULL || *w == '\0')
        return 0;
    static char device[24];
    char *end;
    long parent = strtol(w, &end, 10), index = *end == ':' ? strtol(end + 1, &end, 10) : -1;
    if (*end != ':' || index < 0) {
        clc_error("%s is malformed: '%s'", WORKER_ENV, w);
        return -1;
    }
    clc_follow_parent(parent);
    snprintf(device, sizeof device, "%ld", index);
    a->opts.device = device;
    a->output = end[1] ? end + 1 : NULL;
    return 1;
}

static int start(struct worker *w, int argc, char **argv, int n_workers)
{
    char mark[4200], threads[64];
    snprintf(mark, sizeof mark, "%s=%ld:%d:%s", WORKER_ENV, (long)getpid(), w->dev->index,
             w->output);
    /* the host-side checks of all workers share the host's cores, unless the user said */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(threads, sizeof threads, "OMP_NUM_THREADS=%ld",
             cores / n_workers > 1 ? cores / n_workers : 1);
    const char *const env_add[] = {mark, getenv("OMP_NUM_THREADS") ? NULL : threads, NULL};
    char **args = calloc((size_t)argc + 2, sizeof *args);
    posix_spawn_file_actions_t fa;
    int rc = CLC_ERR;
    w->out = tmpfile();
    w->err = tmpfile();
    if (args == NULL || w->out == NULL || w->err == NULL) {
        clc_error("cannot start a worker for device %d: %s", w->dev->index, strerror(errno));
        goto done;
    }
    args[0] = (char *)clc_self_exe;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fileno(w->out), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fileno(w->err), STDERR_FILENO);
    int err = clc_spawn_child(args, env_add, &fa, &w->pid);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        clc_error("cannot start '%s' for device %d: %s", clc_self_exe, w->dev->index,
                  strerror(err));
        goto done;
    }
    rc = CLC_OK;
done:
    free(args);
    return rc;
}

/* Copies what a worker printed to f, after a line naming its device. */
static void show(FILE *from, FILE *to, const struct worker *w)
{
    char buf[1 << 14], name[4 * sizeof w->dev->meta.name];
    size_t n;
    rewind(from);
    if ((n = fread(buf, 1, sizeof buf, from)) == 0)
        return;
    fprintf(to, "== device %d: %s%s%s%s\n", w->dev->index,
            clc_printable(w->dev->meta.name, name, sizeof name),
            w->dev->meta.pci_bus_id[0] ? " (" : "", w->dev->meta.pci_bus_id,
            w->dev->meta.pci_bus_id[0] ? ")" : "");
    do
        fwrite(buf, 1, n, to);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0);
    fflush(to);
}

int clc_run_every_device(int argc, char **argv, const struct clc_run_args *a)
{
    const char *sel = a->opts.device;
    bool gpus = strcmp(sel, "gpu") == 0;
    if (a->output == NULL && a->format != CLC_FMT_TABLE) {
        clc_usage_error("clcoalesce", "'clcoalesce run --help'", "with csv or json, --device "
                        "all and gpu write one file per device, FILE-<index>.<ext>: give -o "
                        "FILE for --device", sel);
        return CLC_USAGE;
    }
    if (clc_self_exe == NULL) {
        clc_error("--device %s starts this program once per device, which it cannot do here",
                  sel);
        return CLC_ERR;
    }
    /* the devices of the run's first API, which selects the device in each worker */
    enum clc_api api = a->opts.apis & (1u << CLC_API_OPENCL) || a->opts.apis == 0
                           ? CLC_API_OPENCL : CLC_API_CUDA;
    struct clc_device *list = NULL;
    int count = 0, rc = CLC_ERR;
    if (clc_backend_ops(api)->devices(&list, &count, false) != CLC_OK)
        return CLC_ERR;
    struct worker *ws = calloc((size_t)count, sizeof *ws);
    int n = 0;
    if (ws == NULL) {
        clc_error("out of memory");
        goto done;
    }
    bool cuda_too = api == CLC_API_OPENCL && (a->opts.apis & (1u << CLC_API_CUDA));
    for (int i = 0; i < count; i++) {
        if (gpus && !list[i].gpu)
            continue;
        if (cuda_too && !list[i].nvidia) { /* --api both: only a GPU that CUDA also sees */
            char name[4 * sizeof list[i].meta.name];
            clc_note("device %d (%s) left out: --api both runs on NVIDIA GPUs only",
                     list[i].index, clc_printable(list[i].meta.name, name, sizeof name));
            continue;
        }
        ws[n].dev = &list[i];
        if (a->output != NULL) {
            device_path(a->output, list[i].index, ws[n].output, sizeof ws[n].output);
            if (clc_output_check(ws[n].output) != CLC_OK)
                goto done;
        }
        n++;
    }
    if (n == 0) {
        clc_error("no %s to run on; 'clcoalesce list' shows the devices",
                  gpus ? "GPU device" : "device");
        goto done;
    }
    clc_note("running on %d device%s at once; each one's output follows when all have ended",
             n, n == 1 ? "" : "s");
    rc = CLC_OK;
    int started = 0, signalled = 0;
    for (; started < n; started++) {
        if (start(&ws[started], argc, argv, n) != CLC_OK) {
            rc = CLC_ERR;
            break;
        }
    }
    for (int i = 0; i < started; i++) {
        while (waitpid(ws[i].pid, &ws[i].status, 0) < 0 && errno == EINTR)
            ;
        clc_child_ended(ws[i].pid);
        if (WIFSIGNALED(ws[i].status))
            signalled = WTERMSIG(ws[i].status);
    }
    for (int i = 0; i < started; i++) {
        show(ws[i].err, stderr, &ws[i]);
        show(ws[i].out, stdout, &ws[i]);
    }
    for (int i = 0; i < started; i++) {
        const struct worker *w = &ws[i];
        int code = WIFEXITED(w->status) ? WEXITSTATUS(w->status) : CLC_ERR;
        if (code != CLC_OK) {
            char name[4 * sizeof w->dev->meta.name];
            clc_error("device %d (%s): the run failed (%s %d)", w->dev->index,
                      clc_printable(w->dev->meta.name, name, sizeof name),
                      WIFEXITED(w->status) ? "exit" : "signal",
                      WIFEXITED(w->status) ? code : WTERMSIG(w->status));
            if (rc == CLC_OK)
                rc = code;
        }
    }
    if (signalled != 0)
        clc_end_like(signalled);
    if (rc == CLC_OK && a->output != NULL && n > 1 && a->format == CLC_FMT_JSON)
        clc_note("to hold each device against the others: clcoalesce compare --outliers 5 "
                 "FILE-<index>.json ... (docs/every-gpu.md)");
done:
    for (int i = 0; ws != NULL && i < n; i++) {
        if (ws[i].out)
            fclose(ws[i].out);
        if (ws[i].err)
            fclose(ws[i].err);
    }
    free(ws);
    free(list);
    return rc;
}
