/* ahead.c - the trace builds made ahead of the rows: threads of their own walk the run's rows
 * up to AHEAD_ROWS past the one under way and compile each one's trace build into the
 * backend's build cache (struct clc_built), where the model finds it built.  A cold compiler
 * takes a third of a second a kernel on a GPU, longer than many a row takes to time and
 * check; and NVIDIA's OpenCL compiler takes builds in turn, so a trace build made beside its
 * own row would hold up that row's build.  Made rows earlier, it overlaps their timing and
 * checking instead.  Where the API has a compiler process (OpenCL, started from this binary:
 * compiler.h), the threads hand it the builds and load what it built: NVIDIA's OpenCL
 * compiler at work on a thread of this process holds up its launches and event releases. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "instance.h"

/* Rows the threads may be ahead of the run: time enough for a build, and few enough that the
 * builds they make are still in the cache (CLC_BUILT_KEEP) when their rows come. */
#define AHEAD_ROWS 16
/* NVRTC compiles side by side: two keep up where one row after another needs a new build
 * (inflight, vector).  An OpenCL compiler that takes builds in turn (NVIDIA's) gets one: a
 * second would only queue, and the run's own build would wait behind both. */
#define AHEAD_THREADS 2
#define AHEAD_THREADS_OPENCL 1

struct ahead_row {
    const struct clc_case *c;
    const struct clc_variant *v;
    enum clc_type t;
    uint64_t size;
    long param;
};

struct clc_ahead {
    struct clc_session *s;
    struct clc_backend *be;  /* the API that traces (the last) */
    struct ahead_row *rows;  /* in the order the run takes them */
    bool *built;             /* rows[i]'s build is made (or failed) */
    size_t n, cap;
    pthread_mutex_t lock;
    pthread_cond_t moved;    /* the run or a thread moved on */
    size_t at;               /* the last listed row the run came to */
    bool listed;             /* the row under way is that one */
    size_t next;             /* the next row a thread takes */
    bool stop;
    int running;             /* threads started (and joined by clc_ahead_stop) */
    pthread_t thread[AHEAD_THREADS];
};

bool clc_ahead_wanted(const struct clc_session *s)
{
    const struct clc_backend *be = s->be[s->n_be - 1];
    int want = s->o->trace_ahead;
    return s->o->model && (want > 0 || (want < 0 && !be->dev.cpu));
}

void clc_ahead_add(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                   enum clc_type t, uint64_t size, long param)
{
    struct clc_ahead *a = s->ahead;
    if (a == NULL) {
        if (!clc_ahead_wanted(s) || (a = calloc(1, sizeof *a)) == NULL)
            return;
        a->s = s;
        a->be = s->be[s->n_be - 1];
        pthread_mutex_init(&a->lock, NULL);
        pthread_cond_init(&a->moved, NULL);
        s->ahead = a;
    }
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 256;
        struct ahead_row *rows = realloc(a->rows, cap * sizeof *rows);
        if (rows == NULL) { /* only the builds ahead are lost: the model builds in place */
            clc_ahead_stop(s);
            return;
        }
        a->rows = rows;
        a->cap = cap;
    }
    a->rows[a->n++] = (struct ahead_row){c, v, t, size, param};
}

/* Compiles row r's trace build into the cache.  Its plan is made dry: the options are all
 * that is needed, not a gather's indices. */
static void build_row(struct clc_ahead *a, const struct ahead_row *r)
{
    const struct clc_device *dev = &a->s->be[0]->dev;
    struct clc_env e = clc_env_make(dev, r->t, r->size);
    e.dry = true;
    struct clc_plan p;
    if (clc_variant_plan(&e, r->v, r->param, &p) != CLC_OK)
        return;
    if (p.kernel != NULL && !(p.needs_fp64 && !dev->fp64) && !clc_plan_has_image(&p)) {
        char opts[512];
        struct clc_kernel *k = NULL;
        const char *file = clc_plan_trace_file(&p, r->c->cl_file);
        clc_trace_options(&p, r->t, a->be, opts, sizeof opts);
        if (a->be->ops->prepare != NULL)
            a->be->ops->prepare(a->be, file, opts);
        else if (a->be->ops->build(a->be, file, opts, p.kernel, &k) == CLC_OK)
            clc_release_kernel(a->be, k);
    }
    clc_plan_free(&p);
}

/* A thread: the next row not taken, in turn, never more than AHEAD_ROWS past the run.  What
 * a build prints is dropped: a build that fails here fails again in place, where the row
 * shows its log (and a row that is not traced shows nothing). */
static void *walk(void *arg)
{
    struct clc_ahead *a = arg;
#ifdef __linux__
    /* the lowest priority (this thread's alone on Linux): a build ahead takes no core from the
     * host's reference checks, which use them all, only idle ones */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
#endif
    for (;;) {
        pthread_mutex_lock(&a->lock);
        while (!a->stop && a->next < a->n && a->next >= a->at + AHEAD_ROWS)
            pthread_cond_wait(&a->moved, &a->lock);
        bool go = !a->stop && a->next < a->n;
        size_t i = a->next++;
        pthread_mutex_unlock(&a->lock);
        if (!go)
            break;
        clc_mute_messages();
        build_row(a, &a->rows[i]);
        clc_unmute_messages();
        pthread_mutex_lock(&a->lock);
        a->built[i] = true;
        pthread_cond_broadcast(&a->moved);
        pthread_mutex_unlock(&a->lock);
    }
    return NULL;
}

void clc_ahead_start(struct clc_session *s)
{
    struct clc_ahead *a = s->ahead;
    if (a == NULL)
        return;
    if (a->n == 0 || (a->built = calloc(a->n, sizeof *a->built)) == NULL) {
        clc_ahead_stop(s);
        return;
    }
    if (a->s->o->compiler != NULL && a->be->ops->start_compiler != NULL)
        a->be->ops->start_compiler(a->be, a->s->o->compiler);
    int threads = a->be->ops->api == CLC_API_OPENCL ? AHEAD_THREADS_OPENCL : AHEAD_THREADS;
    while (a->running < threads && pthread_create(&a->thread[a->running], NULL, walk, a) == 0)
        a->running++;
    if (a->running == 0)
        clc_ahead_stop(s);
}

static bool same_row(const struct ahead_row *r, const struct clc_case *c,
                     const struct clc_variant *v, enum clc_type t, uint64_t size, long param)
{
    return r->c == c && r->v == v && r->t == t && r->size == size && r->param == param;
}

void clc_ahead_at(struct clc_session *s, const struct clc_case *c, const struct clc_variant *v,
                  enum clc_type t, uint64_t size, long param)
{
    struct clc_ahead *a = s->ahead;
    if (a == NULL)
        return;
    pthread_mutex_lock(&a->lock);
    /* the rows come in the listed order; a sweep that stops early skips some */
    size_t i = a->at;
    while (i < a->n && !same_row(&a->rows[i], c, v, t, size, param))
        i++;
    a->listed = i < a->n;
    if (a->listed) {
        a->at = i;
        pthread_cond_broadcast(&a->moved);
    }
    pthread_mutex_unlock(&a->lock);
}

void clc_ahead_wait(struct clc_session *s, const struct clc_backend *be)
{
    struct clc_ahead *a = s->ahead;
    if (a == NULL || a->be != be)
        return;
    pthread_mutex_lock(&a->lock);
    while (a->listed && !a->built[a->at])
        pthread_cond_wait(&a->moved, &a->lock);
    pthread_mutex_unlock(&a->lock);
}

void clc_ahead_stop(struct clc_session *s)
{
    struct clc_ahead *a = s->ahead;
    if (a == NULL)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = true;
    pthread_cond_broadcast(&a->moved);
    pthread_mutex_unlock(&a->lock);
    for (int i = 0; i < a->running; i++)
        pthread_join(a->thread[i], NULL);
    pthread_cond_destroy(&a->moved);
    pthread_mutex_destroy(&a->lock);
    free(a->built);
    free(a->rows);
    free(a);
    s->ahead = NULL;
}
