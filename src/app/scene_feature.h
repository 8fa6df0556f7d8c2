/* scene_feature.h - the table of the scene's teaching features, shaped like
 * compute's eng_class: each feature (walk.c, measure.c, gpu_phase.c with
 * gpu_memory.c and gpu_tiles.c, inside_gpu.c, sweep.c, chain.c, geometry.c, channels.c) owns its
 * struct in the scene and is its only writer; the core (scene.c,
 * scene_work.c, scene_region.c) never calls a feature by name but loops
 * over this table (docs/ARCHITECTURE.md, section 8). A hook a feature does not
 * need is NULL. Only the scene's own files include this header. */
#ifndef CONVIS_SCENE_FEATURE_H
#define CONVIS_SCENE_FEATURE_H

#include <stdio.h>

#include "scene.h"
#include "worker.h"

/* What changed, for the `changed` hook. */
typedef enum scene_change {
    SCENE_CHANGE_INPUT,       /* the filter, border or flip: every figure and result is stale */
    SCENE_CHANGE_IMAGE,       /* another image: as INPUT, and the walk stops */
    SCENE_CHANGE_DISPLAY,     /* how the values are shown: what the view drew is drawn again */
    SCENE_CHANGE_GPU,         /* a GPU switch: the kernel or the result path */
    SCENE_CHANGE_BUDGET,      /* the memory budget: tiles under way run again under it */
    SCENE_CHANGE_GPU_ENGINE,  /* another GPU engine: work that may be running the old one stops */
    SCENE_CHANGE_BLOCK_SHAPE, /* the GPU's block shape (J): what is drawn of a block follows */
    SCENE_CHANGE_PHASE,       /* the phase shown changed (scene_set_phase) */
    SCENE_CHANGE_TASK,        /* a feature's long work starts (scene_task_start): the walk pauses */
    SCENE_CHANGE_LAUNCH,      /* G: the GPU phase is asked for (the walk pauses, whatever comes of it) */
} scene_change;

/* Whether every figure and result is stale after `what`. */
static inline bool scene_change_input(scene_change what)
{
    return what == SCENE_CHANGE_INPUT || what == SCENE_CHANGE_IMAGE;
}

typedef struct scene_feature {
    const char *name;
    void (*init)(scene *s); /* opens what it needs (after the core's init) */
    void (*free)(scene *s);
    void (*reset)(scene *s);                          /* its settings as a new scene and a lesson start */
    void (*keep)(const scene *s, scene_stash *st);    /* its settings into a lesson's stash ... */
    void (*restore)(scene *s, const scene_stash *st); /* ... and back */
    void (*changed)(scene *s, scene_change what);
    bool (*due)(const scene *s); /* it has measuring to do (scene_stale) */
    /* One slice of its work, at most about budget_ms: the task it started
     * (scene_task_start) while it is the scene's busy feature, else what is
     * due. */
    void (*slice)(scene *s, double budget_ms);
    bool (*waiting)(const scene *s);                /* its task waits for the eye, not the CPU */
    void (*took)(scene *s, const worker_result *r); /* the measuring thread's figure for a job it gave */
    /* Its task stops: asked (Esc, a change: it says so and makes again what
     * it changed) or quietly, for other work starting. */
    void (*cancel)(scene *s, bool asked);
    void (*advance)(scene *s, double dt_ms);       /* its animation, dt ms of wall time on */
    bool (*animating)(const scene *s, double now); /* something of it moves on screen */
    void (*play_out)(scene *s);                    /* what it animates once, at its end (a still) */
    void (*state)(const scene *s, FILE *f);        /* its lines of --print-state */
} scene_feature;

/* The table itself, indexed by scene_feature_id (the core's). */
extern const scene_feature *const scene_features[SCENE_FEATURE_COUNT];

extern const scene_feature scene_walk_feature, scene_measure_feature, scene_gpu_feature, scene_tiles_feature,
    scene_inside_feature, scene_sweep_feature, scene_filter_sweep_feature, scene_chain_feature,
    scene_geometry_feature, scene_channels_feature;

/* ---- the core, for the features ---------------------------------------------- */

conv_params scene_params(const scene *s);
/* Opens engine `name` through the host into e (e->why: the bare reason). */
void scene_open_engine(scene *s, scene_engine *e, const char *name);
/* Everything stale after a change: each feature's `changed` hook. */
void scene_changed(scene *s, scene_change what);
void scene_set_phase(scene *s, scene_phase phase);    /* back to the walk: the pin goes too */
void scene_touch(scene *s);                           /* new figures or progress: the window draws again */
void scene_say_gpu_error(scene *s, const char *text); /* the banner, taken down by the GPU's next success */
void scene_clear_gpu_error(scene *s);
bool scene_settling(const scene *s); /* scene_settle: nothing waits for the eye */

/* Long work: feature `id` starts its task of `total` units (the task under
 * way is cancelled first), counts them done one by one, and ends it. */
void scene_task_start(scene *s, scene_feature_id id, int total);
void scene_task_step(scene *s);
void scene_task_done_at(scene *s, int done);
void scene_task_end(scene *s);
bool scene_task_is(const scene *s, scene_feature_id id);

/* Gives the measuring thread a copy of `src` to measure engine `e` on for
 * feature `id`, whose `took` hook gets the figure, with `params` (NULL: the
 * scene's); false when there is no thread, it is busy, or there is no room
 * (nothing was given). */
bool scene_worker_submit(scene *s, scene_feature_id id, eng_engine *e, const img_plane *src, const conv_params *params,
                         double budget_ms, int tag);

#endif
