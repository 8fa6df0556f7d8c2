/* scene.h - the model: what the teaching window shows and why. Its core
 * holds the image, the settings, the phase, what is shown and where, the
 * notices and the long work's scheduler (scene.c, scene_work.c, scene_region.c); each
 * teaching feature owns a struct of its own in it, declared in its header (walk.h, measure.h,
 * gpu_phase.h, gpu_tiles.h, inside_gpu.h, sweep.h, chain.h, geometry.h, channels.h), written
 * only by its own file and reached by the core only through their table (scene_feature.h).
 *
 * Headless: only core, compute, the formatting helpers and the catalogue of
 * words. What it needs from outside (an engine, a GL buffer, a clock) comes
 * in a scene_host, so a unit test drives it with the CPU engines and no
 * window. Only actions.c changes it (the one input path); the view reads it as const. */
#ifndef CONVIS_SCENE_H
#define CONVIS_SCENE_H

#include <stdio.h>

#include "chain.h"
#include "channels.h"
#include "geometry.h"
#include "gpu_phase.h"
#include "gpu_tiles.h"
#include "inside_gpu.h"
#include "measure.h"
#include "scene_types.h"
#include "settings.h"
#include "sweep.h"
#include "walk.h"

#define SCENE_MIN_CELLS 4
#define SCENE_MAX_CELLS 64
#define SCENE_DEFAULT_CELLS 20
#define SCENE_NOTICE_MS 4000.0 /* a notice stays this long */

/* What the scene needs from the program around it. */
typedef struct scene_host {
    /* Opens engine `name` with what it needs (a GL context); NULL with the
     * bare reason in `why` ("no CUDA device", not "engine 'x' is ..."). */
    eng_engine *(*open_engine)(void *user, const char *name, char *why, size_t size);
    /* A GL buffer of at least `bytes` for the GPU to present into (made or
     * grown; *buffer 0 = none yet), and its release. NULL when there is no
     * GL: the GPU result then comes back to the host in one copy. */
    bool (*buffer_ensure)(void *user, unsigned *buffer, size_t bytes);
    void (*buffer_free)(void *user, unsigned *buffer);
    double (*now_ms)(void *user); /* NULL: the monotonic clock */
    void *user;
} scene_host;

/* The settings a lesson starts from and free play gets back (scene_stash). */
typedef struct scene_stash {
    bool held;
    app_options opt;
    int preset;
    img_image img;
    char image_name[256];
    int passes;
    int view_x, view_y, view_cells;
    bool thread_view;
    double speed;          /* the walk's */
    eng_kernel gpu_kernel; eng_result gpu_result; /* the GPU phase's */
    long long gpu_budget;
    int block_shape;
    int geometry[3], channels_layer; /* the geometry view's stride, dilation, padding; the channels view's layer */
} scene_stash;

typedef struct scene {
    scene_host host;

    /* what is computed */
    app_options opt;
    int preset;                     /* index of the preset, -1 for a custom kernel */
    char image_name[256];           /* the file's name, or what made the image */
    int passes;                     /* filter passes applied to it (apply-again; 0: as opened) */
    unsigned long image_generation; /* counts the images opened: what the view caches is for one */
    img_image img;
    int channel; img_plane luma_kept; /* what img.luma holds (0 luma, 1-3 red, green, blue: H) and the luma meanwhile */
    img_plane cpu_out; /* the walk's output, written by its stepper */
    img_plane gpu_out; /* the GPU phase's result */
    scene_phase phase;

    /* what is shown, and where */
    scene_area area;          /* what fills the main area */
    scene_chart chart;        /* what the chart shows */
    int view_x, view_y;       /* top-left cell of the region shown */
    int view_cells, view_fit; /* cells across the region (zoom); the most the window shows with values (0: unknown) */
    bool thread_view;
    bool hovering, pinned;
    int hover_x, hover_y; /* the output cell under the mouse (or pinned) */

    /* what the scene has to say */
    char banner[512]; /* an error the user should read */
    bool banner_gpu;  /* ... about the GPU phase: its next success takes it down */
    char notice[512]; /* what just happened ("saved shot.png") */
    double notice_at;

    /* the long work under way (one feature's task at a time) and the measuring thread */
    struct {
        int busy;        /* the scene_feature_id whose task runs; -1: none */
        int done, total; /* units of work: progress */
    } task;
    struct scene_worker *worker; /* the thread that measures the CPU engines (NULL: none) */
    int worker_for;              /* the feature whose job it has (-1: none) */
    unsigned long measure_gen;   /* counts settings and images: a result for an older one is dropped */
    unsigned long updates;       /* counts new figures and progress: the window draws again */
    bool settling;               /* scene_settle: nothing waits for the eye */

    /* the features, each written only by its own file */
    scene_walk walk;
    scene_engine cpu[SCENE_CPU_COUNT];
    scene_measure measure;
    scene_gpu gpu;
    scene_tiles tiles;
    scene_inside inside;
    sweep_state sweep;
    sweep_state filter_sweep;
    chain_state chain;
    geometry_state geometry;
    channels_state channels;
} scene;

/* ---- life ------------------------------------------------------------------ */

/* A scene with no image, the CPU engines open, the best GPU engine (cuda, else gl) or why not. */
void scene_init(scene *s, const scene_host *host, const app_options *opt);
void scene_free(scene *s);

/* Opens an image file, or takes `img` (the scene owns it from now on) titled
 * `name`; on failure keeps the image shown and says why in the banner. */
bool scene_open_image(scene *s, const char *path);
bool scene_adopt_image(scene *s, img_image *img, const char *name);
void scene_apply_again(scene *s); /* the whole output becomes the input: one more pass */
void scene_next_channel(scene *s); /* H: what the grids convolve, luma, red, green, blue (a colour image) */

/* Puts the settings and the image aside (the scene goes on with a copy)
 * and goes back to `defaults`, for a lesson to start from; scene_unstash
 * brings them back. A second stash while one is held only resets. */
void scene_stash_settings(scene *s, scene_stash *st, const app_options *defaults);
void scene_unstash(scene *s, scene_stash *st);

double scene_now(const scene *s);
void scene_update(scene *s, double dt_ms); /* advances the animation by dt ms of wall time */
bool scene_animating(const scene *s);      /* something moves on screen: the window keeps drawing */
void scene_play_out(scene *s); /* what animates once (the GPU's light, a block's stage) at its end, for a still */

/* ---- settings and what is shown ---------------------------------------------- */
void scene_select_preset(scene *s, int index);
void scene_next_filter(scene *s, int step);
void scene_resize_filter(scene *s, int step); /* ] and [: the same kind, step more a side (filt_of_size) */
void scene_set_weight(scene *s, int tap, float value);
void scene_next_border(scene *s);
void scene_toggle_flip(scene *s);
void scene_next_display(scene *s);
void scene_toggle_threads(scene *s);

/* Shows `area` in the main area (what was there goes), or `chart` in the
 * chart's place; the sweep and the chain are not shown together. Esc's
 * share: the area back to the grids, else the chart back to the timing;
 * false when both already were. */
void scene_show(scene *s, scene_area area);
void scene_show_chart(scene *s, scene_chart chart);
bool scene_close_shown(scene *s);
const char *scene_area_name(scene_area area); /* "grids", "large", "inside", "sweep", "filter-sweep", ... */

/* The region shown (scene_region.c). */
void scene_zoom(scene *s, int step);    /* + closer (fewer cells than shown), - farther */
void scene_note_fit(scene *s, int fit); /* the window has room for fit cells across with their values */
void scene_pan(scene *s, int dx, int dy);
void scene_view_at(scene *s, int x, int y); /* top-left cell, clamped */
void scene_center_on(scene *s, int x, int y);
void scene_hover(scene *s, bool over, int x, int y);
void scene_pin(scene *s); /* pin the hovered cell, or unpin */
/* A click on output (x, y): pins it; on the pinned one: unpins it. */
void scene_pin_at(scene *s, int x, int y);
void scene_unpin(scene *s);
/* The output cell the arithmetic panel explains: the hovered or pinned one, else the walk's current output. */
void scene_focus(const scene *s, int *x, int *y, bool *from_stepper);

/* ---- work (scene_work.c) ------------------------------------------------------- */

/* Does what is pending (measuring after a change, a feature's task) for
 * about budget_ms, in slices of one engine run at most; true while more
 * remains. The CPU engines are measured on the measuring thread, the GPU
 * here, where its context is. scene_settle waits for all of it. */
bool scene_work(scene *s, double budget_ms);
void scene_settle(scene *s);
bool scene_busy(const scene *s);      /* a feature's task is under way */
bool scene_stale(const scene *s);     /* measurements to make after a change */
bool scene_waiting(const scene *s);   /* the measuring thread is at work or a task waits for the eye */
bool scene_measuring(const scene *s); /* the measuring thread only: the window draws less meanwhile */
void scene_progress(const scene *s, int *done, int *total);
void scene_cancel(scene *s); /* stops the task under way; what it measured stays */
/* Each feature's --print-state lines, in the table's order. */
void scene_print_state(const scene *s, FILE *f);

void scene_notice(scene *s, const char *text);
void scene_say_error(scene *s, const char *text); /* the banner ("": taken down) */

/* The image's title: its name and the passes applied ("sample.png after 2 passes"). */
void scene_title(const scene *s, char *buf, size_t size);

#endif
