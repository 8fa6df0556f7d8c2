#include "worker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

struct scene_worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    bool quit;
    /* the job */
    bool has_job, running, discard;
    eng_engine *engine;
    img_plane in;
    conv_params params;
    double budget_ms;
    int tag;
    unsigned long gen;
    /* its result */
    bool ready;
    worker_result result;
    eng_cores cores; /* the second-core check, made once, after the first cpu-par job (only this thread writes it) */
};

bool worker_measure(eng_engine *e, const eng_job *job, unsigned gl_buffer, double budget_ms, eng_timing *out, char *why,
                    size_t size)
{
    /* at most nine runs, within the budget, fewer when they agree */
    eng_plan plan = {1, 9, budget_ms, 0.10};
    bool ok = eng_measure_plan(e, job, gl_buffer, &plan, out);
    if (!ok)
        snprintf(why, size, "%s", err_msg());
    return ok;
}

static void *worker_main(void *arg)
{
    scene_worker *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        img_plane in, out;
        worker_result r;
        eng_job job;
        while (!w->has_job && !w->quit)
            pthread_cond_wait(&w->wake, &w->lock);
        if (w->quit)
            break;
        w->has_job = false;
        w->running = true;
        in = w->in;
        memset(&w->in, 0, sizeof w->in);
        memset(&r, 0, sizeof r);
        r.tag = w->tag;
        r.gen = w->gen;
        job.params = w->params;
        pthread_mutex_unlock(&w->lock);

        /* the run, with the lock free: the window goes on meanwhile */
        if (img_plane_alloc(&out, in.w, in.h)) {
            job.in = &in;
            job.out = &out;
            r.ok = worker_measure(w->engine, &job, 0, w->budget_ms, &r.timing, r.why, sizeof r.why);
            if (r.ok && eng_class_of(w->engine) == eng_find("cpu-par")) {
                if (w->cores.threads == 0)
                    eng_cores_check(eng_par_threads(), &w->cores);
                r.cores = w->cores; /* with every cpu-par result: one may be discarded */
            }
            img_plane_free(&out);
        } else {
            snprintf(r.why, sizeof r.why, "%s", err_msg());
        }
        img_plane_free(&in);

        pthread_mutex_lock(&w->lock);
        w->running = false;
        if (!w->discard) {
            w->result = r;
            w->ready = true;
        }
        w->discard = false;
        pthread_cond_broadcast(&w->idle);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

scene_worker *worker_start(void)
{
    scene_worker *w = calloc(1, sizeof *w);
    if (!w) {
        err_set("out of memory");
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->idle, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_cond_destroy(&w->idle);
        pthread_mutex_destroy(&w->lock);
        free(w);
        err_set("cannot start the measuring thread");
        return NULL;
    }
    return w;
}

void worker_stop(scene_worker *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->quit = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    img_plane_free(&w->in);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->idle);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

bool worker_busy(scene_worker *w)
{
    bool busy;
    pthread_mutex_lock(&w->lock);
    busy = w->has_job || w->running || w->ready;
    pthread_mutex_unlock(&w->lock);
    return busy;
}

bool worker_submit(scene_worker *w, eng_engine *e, img_plane *in, conv_params params, double budget_ms, int tag,
                   unsigned long gen)
{
    pthread_mutex_lock(&w->lock);
    if (w->has_job || w->running) {
        pthread_mutex_unlock(&w->lock);
        return false;
    }
    w->engine = e;
    w->in = *in;
    memset(in, 0, sizeof *in);
    w->params = params;
    w->budget_ms = budget_ms;
    w->tag = tag;
    w->gen = gen;
    w->has_job = true;
    w->ready = false;
    w->discard = false;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    return true;
}

bool worker_poll(scene_worker *w, worker_result *out)
{
    bool ready;
    pthread_mutex_lock(&w->lock);
    ready = w->ready;
    if (ready) {
        *out = w->result;
        w->ready = false;
    }
    pthread_mutex_unlock(&w->lock);
    return ready;
}

void worker_discard(scene_worker *w)
{
    pthread_mutex_lock(&w->lock);
    if (w->has_job || w->running)
        w->discard = true;
    w->ready = false;
    pthread_mutex_unlock(&w->lock);
}

void worker_wait(scene_worker *w)
{
    pthread_mutex_lock(&w->lock);
    while (w->has_job || w->running)
        pthread_cond_wait(&w->idle, &w->lock);
    pthread_mutex_unlock(&w->lock);
}
