/* scene_types.h - what the scene's core and its features share: the scene
 * itself (defined in scene.h), an engine and its last measurement, what is
 * shown, and the phase. Each feature's header includes this one, not
 * scene.h, so the features' structs can sit inside the scene. */
#ifndef CONVIS_SCENE_TYPES_H
#define CONVIS_SCENE_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "compute/engine.h"

typedef struct scene scene;

/* The scene's teaching features (scene_feature.h), in the order the scene
 * calls them: a slice measures the CPU engines before the GPU; a change
 * reaches the tiles before the GPU phase (the tiles read whether a result
 * was shown before the GPU phase's hook clears it). scene.task.busy names the one whose long work is under way. */
typedef enum scene_feature_id {
    SCENE_FEATURE_WALK = 0,
    SCENE_FEATURE_MEASURE,
    SCENE_FEATURE_TILES,
    SCENE_FEATURE_GPU,
    SCENE_FEATURE_INSIDE,
    SCENE_FEATURE_SWEEP,
    SCENE_FEATURE_FILTER_SWEEP,
    SCENE_FEATURE_CHAIN,
    SCENE_FEATURE_GEOMETRY,
    SCENE_FEATURE_CHANNELS,
    SCENE_FEATURE_COUNT
} scene_feature_id;

typedef enum scene_phase {
    SCENE_PHASE_CPU = 0, /* the CPU walks one output at a time */
    SCENE_PHASE_GPU,     /* the GPU has computed every output at once */
} scene_phase;

/* What fills the main area, one at a time: showing one replaces the one
 * shown (scene_show), Esc goes back to the grids. */
typedef enum scene_area {
    SCENE_AREA_GRIDS = 0, /* the input and output grids, the kernel, the arithmetic, the thumbnails */
    SCENE_AREA_LARGE,     /* the whole input and output, large, side by side (I) */
    SCENE_AREA_INSIDE,    /* one block of the tiled kernel (O) */
    SCENE_AREA_SWEEP,     /* the size sweep's chart (W) */
    SCENE_AREA_FILTER_SWEEP, /* the filter sweep's chart (Shift+W) */
    SCENE_AREA_GEOMETRY,     /* stride, dilation and padding on a piece of the image (, . /) */
    SCENE_AREA_CHANNELS,     /* the image's channels and a layer of filters over them (Shift+C) */
    SCENE_AREA_COUNT
} scene_area;

/* What the chart beside the status shows. */
typedef enum scene_chart {
    SCENE_CHART_TIMING = 0, /* every engine's time on the image shown */
    SCENE_CHART_CHAIN,      /* the chain's two times (X) */
    SCENE_CHART_COUNT
} scene_chart;

/* One engine and its last measurement. */
typedef struct scene_engine {
    eng_engine *engine;    /* NULL when unavailable */
    char name[16];         /* "cpu-seq" */
    char why[384];         /* why unavailable, or why the last run failed */
    char note[256];        /* for the GPU: why a better engine is not used */
    eng_hardware hardware; /* what it really computes on (a GPU engine on llvmpipe: software) */
    eng_timing timing;
    bool measured; /* timing is for the current image and filter */
} scene_engine;

#define TIMING_BUDGET_MS 150.0 /* time spent measuring one engine after a change */

/* An engine's name as charts and legends show it: "cpu-par", "cuda", or
 * "gl (software)" for a GPU engine that is really this CPU. */
const char *scene_engine_label(const scene_engine *e);

/* Times engine e on `job` on this thread (worker_measure): e's timing, or
 * why it failed. */
void scene_engine_measure(scene_engine *e, const eng_job *job, unsigned gl_buffer, double budget_ms);

#endif
