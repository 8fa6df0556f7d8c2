/* scene_work.c - the scene's core: the long work's scheduler. Between
 * frames scene_work takes the measuring thread's figure to the feature
 * that asked for it, then gives a slice to the feature whose task is under
 * way, or else to the first feature with measuring due; Esc and a change
 * cancel through the same table. Also an engine's measurement and label,
 * which every feature that times an engine shares. */
#define _POSIX_C_SOURCE 200809L
#include "scene_feature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "i18n.h"
#include "worker.h"

void scene_engine_measure(scene_engine *e, const eng_job *job, unsigned gl_buffer, double budget_ms)
{
    e->measured = false;
    if (!e->engine)
        return;
    if (!worker_measure(e->engine, job, gl_buffer, budget_ms, &e->timing, e->why, sizeof e->why))
        return;
    e->why[0] = '\0';
    e->measured = true;
}

const char *scene_engine_label(const scene_engine *e)
{
    if (e->hardware == ENG_HW_SOFTWARE)
        return strcmp(e->name, "gl") == 0 ? _("gl (software)") : _("GPU (software)");
    if (e->hardware == ENG_HW_VIRTUAL)
        return strcmp(e->name, "gl") == 0 ? _("gl (virtual)") : _("GPU (virtual)");
    return e->name;
}

/* ---- the measuring thread ------------------------------------------------- */

bool scene_worker_submit(scene *s, scene_feature_id id, eng_engine *e, const img_plane *src, const conv_params *params,
                         double budget_ms, int tag)
{
    img_plane copy;
    if (!s->worker || !e || !img_plane_alloc(&copy, src->w, src->h))
        return false;
    memcpy(copy.px, src->px, sizeof(float) * (size_t)src->w * (size_t)src->h);
    if (!worker_submit(s->worker, e, &copy, params ? *params : scene_params(s), budget_ms, tag, s->measure_gen)) {
        img_plane_free(&copy);
        return false;
    }
    s->worker_for = id;
    return true;
}

/* Takes the measuring thread's figure, if one came, to the feature that
 * asked: for the settings and image still shown, or dropped. */
static void take_result(scene *s)
{
    worker_result r;
    int id;
    if (!s->worker || !worker_poll(s->worker, &r))
        return;
    id = s->worker_for;
    s->worker_for = -1;
    if (r.gen != s->measure_gen || id < 0 || id >= SCENE_FEATURE_COUNT || !scene_features[id]->took)
        return;
    scene_features[id]->took(s, &r);
}

bool scene_measuring(const scene *s)
{
    return s->worker && worker_busy(s->worker);
}

/* ---- tasks --------------------------------------------------------------------- */

/* The task under way stops: asked, or quietly for other work. */
static void stop_task(scene *s, bool asked)
{
    int id = s->task.busy;
    if (id < 0)
        return;
    if (scene_features[id]->cancel)
        scene_features[id]->cancel(s, asked); /* it ends its task, or the end below does */
    if (s->task.busy == id)
        scene_task_end(s);
}

void scene_task_start(scene *s, scene_feature_id id, int total)
{
    stop_task(s, false);
    scene_changed(s, SCENE_CHANGE_TASK);
    s->task.busy = id;
    s->task.done = 0;
    s->task.total = total;
}

void scene_task_step(scene *s)
{
    ++s->task.done;
    ++s->updates;
}

void scene_task_done_at(scene *s, int done)
{
    s->task.done = done;
    ++s->updates;
}

void scene_task_end(scene *s)
{
    if (s->worker && s->task.busy >= 0 && s->worker_for == s->task.busy) { /* its job is no longer wanted */
        worker_discard(s->worker);
        s->worker_for = -1;
    }
    s->task.busy = -1;
    s->task.done = s->task.total = 0;
    ++s->updates;
}

bool scene_task_is(const scene *s, scene_feature_id id)
{
    return s->task.busy == (int)id;
}

bool scene_busy(const scene *s)
{
    return s->task.busy >= 0;
}

void scene_progress(const scene *s, int *done, int *total)
{
    *done = s->task.done;
    *total = s->task.total;
}

void scene_cancel(scene *s)
{
    stop_task(s, true);
}

/* ---- work ------------------------------------------------------------------------ */

bool scene_settling(const scene *s)
{
    return s->settling;
}

bool scene_stale(const scene *s)
{
    for (int i = 0; i < SCENE_FEATURE_COUNT; ++i)
        if (scene_features[i]->due && scene_features[i]->due(s))
            return true;
    return false;
}

bool scene_waiting(const scene *s)
{
    if (s->task.busy >= 0 && scene_features[s->task.busy]->waiting && scene_features[s->task.busy]->waiting(s))
        return true; /* its next step waits for its turn on screen */
    return scene_measuring(s);
}

/* One slice: the task under way, else the first feature with measuring
 * due; false when there was nothing to do. */
static bool slice(scene *s, double budget_ms)
{
    if (s->task.busy >= 0) {
        scene_features[s->task.busy]->slice(s, budget_ms);
        return true;
    }
    for (int i = 0; i < SCENE_FEATURE_COUNT; ++i)
        if (scene_features[i]->due && scene_features[i]->due(s)) {
            scene_features[i]->slice(s, budget_ms);
            return true;
        }
    return false;
}

bool scene_work(scene *s, double budget_ms)
{
    double start = tim_now_ms();
    if (!s->img.luma.px)
        return false;
    do {
        take_result(s);
        if (scene_waiting(s))
            return true; /* the measuring thread or the eye has it: the window goes on */
        if (!slice(s, budget_ms))
            return false;
    } while (tim_now_ms() - start < budget_ms);
    return scene_busy(s) || scene_stale(s) || scene_waiting(s);
}

void scene_settle(scene *s)
{
    s->settling = true;
    for (;;) {
        if (scene_measuring(s))
            worker_wait(s->worker);
        if (!scene_work(s, 1e9) && !scene_waiting(s))
            break;
    }
    take_result(s);
    s->settling = false;
}

void scene_print_state(const scene *s, FILE *f)
{
    for (int i = 0; i < SCENE_FEATURE_COUNT; ++i)
        if (scene_features[i]->state)
            scene_features[i]->state(s, f);
}
