/* worker.h - one background thread that measures a CPU engine, so a long
 * run (cpu-seq on a large image: a second or more) never holds up the
 * window. The scene hands it one job at a time and polls for the result;
 * a job it no longer wants is discarded when it ends (a run cannot be
 * stopped half way). The job owns its input and output planes and runs on
 * an engine only the worker uses. Part of the model: no window, no GL. */
#ifndef CONVIS_WORKER_H
#define CONVIS_WORKER_H

#include <stdbool.h>

#include "compute/engine.h"

typedef struct scene_worker scene_worker;

typedef struct worker_result {
    int tag;           /* the job's own number */
    unsigned long gen; /* and the generation it was for */
    bool ok;
    eng_timing timing;
    /* the second-core check, made once, after the first cpu-par job (as
     * the window goes on: a few milliseconds), and given with every cpu-par
     * result; threads 0 when not made */
    eng_cores cores;
    char why[256]; /* when not ok */
} worker_result;

/* Starts the thread; NULL with err_msg() when it cannot. */
scene_worker *worker_start(void);

/* Waits for the job under way (it may take one engine run), then ends the thread. */
void worker_stop(scene_worker *w);

/* Whether a job is under way (a discarded one too) or its result waits to
 * be taken (worker_poll). */
bool worker_busy(scene_worker *w);

/* Gives the worker a job: measure `e` converting `in` (taken: the worker
 * frees it) with `params`, for about budget_ms (the median of 1 to 9 runs
 * after one). False when it is busy (then `in` stays the caller's). */
bool worker_submit(scene_worker *w, eng_engine *e, img_plane *in, conv_params params, double budget_ms, int tag,
                   unsigned long gen);

/* The result of the last job, once: true when one is ready. */
bool worker_poll(scene_worker *w, worker_result *out);

/* Drops the result of the job under way. */
void worker_discard(scene_worker *w);

/* Waits until the worker is idle (its result then ready, unless discarded). */
void worker_wait(scene_worker *w);

/* Times an engine on `job`: a warm-up, then runs while they fit in
 * budget_ms (1 to 9; three when they agree within 10%: eng_measure_plan)
 * and the median of each phase; with gl_buffer the runs present into it. On false `why` says what failed. Used by the worker and
 * by the scene on its own thread (the GPU). */
bool worker_measure(eng_engine *e, const eng_job *job, unsigned gl_buffer, double budget_ms, eng_timing *out, char *why,
                    size_t size);

#endif
