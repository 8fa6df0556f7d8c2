/* scene.h - what the teaching window shows, and why: the one state that keys,
 * the mouse, scripted actions (and later lessons) act on, all through the
 * functions here. No GL, no SDL: view.c draws a scene, window.c feeds it
 * events. */
#ifndef CONVIS_SCENE_H
#define CONVIS_SCENE_H

#include <stdbool.h>

#include "cli.h"
#include "compute/engine.h"
#include "core/stepper.h"
#include "player.h"

#define SCENE_MIN_CELLS 4
#define SCENE_MAX_CELLS 64
#define SCENE_DEFAULT_CELLS 20
#define SCENE_MIN_SPEED 1.0       /* outputs a second */
#define SCENE_MAX_SPEED 8192.0
#define SCENE_SWEEP_SIZES 6         /* 4x4, 16x16, ... 4096x4096 */
#define SCENE_CHAIN_LENGTH 1000

typedef enum scene_phase {
    SCENE_PHASE_CPU = 0,    /* the CPU walks one output at a time */
    SCENE_PHASE_GPU,        /* the GPU has computed every output at once */
} scene_phase;

/* One engine and its last measurement. */
typedef struct scene_engine {
    eng_engine *engine;     /* NULL when unavailable */
    char name[16];          /* "cpu-seq" */
    char why[256];          /* why unavailable, or why the last run failed */
    char note[256];         /* for the GPU: why a better engine is not used */
    eng_timing timing;
    bool measured;          /* timing is for the current image and filter */
} scene_engine;

typedef struct scene {
    /* what is computed */
    app_options opt;
    int preset;                 /* index of the preset, -1 for a custom kernel */
    char image_name[256];
    unsigned long image_generation; /* counts the images opened: what the view caches is for one */
    img_image img;
    img_plane cpu_out;          /* written by the stepper, output by output */
    img_plane gpu_out;          /* the GPU phase's result */
    conv_stepper stepper;

    /* the animation */
    scene_phase phase;
    bool playing;
    double speed;               /* outputs a second */
    double owed_taps;           /* fractional taps carried between frames */
    double gpu_shown_at;        /* clock (ms) when the GPU result appeared */
    long cpu_dirty_from;        /* first output not yet in the output thumbnail */

    /* the view */
    int view_x, view_y;         /* top-left cell of the region shown */
    int view_cells;             /* cells across the grids (zoom) */
    bool thread_view;
    bool hovering, pinned;
    int hover_x, hover_y;       /* the output cell under the mouse (or pinned) */
    int edit_tap;               /* kernel cell being typed into, -1 none */
    char edit_text[24];

    /* overlays */
    bool help, blank;
    int text_scale;             /* percent: 100, 125, 150, 200 */
    char banner[512];           /* an error the user should read */
    char notice[512];           /* what just happened ("saved shot.png") */
    double notice_at;
    bool quit, fullscreen_toggle, screenshot_request;

    /* the GPU phase's teaching switches */
    eng_kernel gpu_kernel;      /* tiled or naive (CUDA) */
    eng_result gpu_result;      /* interop (into a GL buffer), one bulk copy, one copy per pixel */
    unsigned gpu_buffer;        /* the GL buffer the GPU presents into (0: none yet) */
    size_t gpu_buffer_bytes;
    bool gpu_presented;         /* the GPU result on screen came through gpu_buffer */
    unsigned long gpu_runs;     /* counts the GPU's measured runs: a new result to show */
    eng_device_info gpu_device; /* read after each GPU run */
    bool gpu_device_known;

    /* the language of text and lessons: "en" or "zh" */
    char lang[8];

    /* the size sweep: the same filter on square images of growing size */
    struct {
        bool shown;                 /* the sweep chart replaces the timing chart */
        int count;                  /* sizes measured */
        int size[SCENE_SWEEP_SIZES];
        double ms[3][SCENE_SWEEP_SIZES]; /* cpu-seq, cpu-par, gpu; < 0: not measured */
    } sweep;

    /* repeated passes: the output fed back as the input */
    int passes;                 /* filter passes applied to the image shown (0: the file) */
    double chain_ms[2];         /* a chain of dependent passes on a 4x4 image: cpu-seq, GPU; < 0 not run */
    int chain_length;

    /* the lesson being played, if any, and the menu of lessons */
    app_player player;
    bool menu;
    app_lesson_entry lessons[APP_MAX_LESSONS];
    int lesson_count;

    /* measurements */
    scene_engine seq, par, gpu;
    bool timings_stale;         /* the CPU engines need measuring again */
    bool gpu_stale;             /* the GPU result is for other settings */
} scene;

/* Sets up a scene with no image, the CPU engines open and the best GPU
 * engine (cuda, else gl) opened or its absence explained. */
void scene_init(scene *s, const app_options *opt);
void scene_free(scene *s);

/* Opens an image file; on failure keeps the current image and puts the
 * reason in the banner. */
bool scene_open_image(scene *s, const char *path);

/* Measures what is stale (CPU engines after a change). Slow on big images:
 * the window calls it after showing a frame. */
void scene_measure(scene *s);

/* Advances the animation by dt milliseconds of wall time. */
void scene_update(scene *s, double now_ms, double dt_ms);

/* True while something moves on screen (the window keeps drawing). */
bool scene_animating(const scene *s, double now_ms);

/* ---- actions: keys, clicks, scripts and lessons all call these ---------- */
void scene_play(scene *s);              /* play / pause */
void scene_tap(scene *s);               /* one tap forward */
void scene_step(scene *s);              /* one output forward */
void scene_back(scene *s);              /* one output back */
void scene_faster(scene *s);
void scene_slower(scene *s);
void scene_finish(scene *s);            /* every remaining output now */
void scene_restart(scene *s);           /* back to the CPU phase, output 0 */
void scene_launch_gpu(scene *s);        /* the GPU phase: every output at once */
void scene_toggle_threads(scene *s);
void scene_next_gpu_kernel(scene *s);   /* tiled <-> naive */
void scene_next_gpu_result(scene *s);   /* interop -> bulk copy -> copy per pixel */
void scene_next_gpu_engine(scene *s);   /* cuda <-> gl, where both run */
void scene_select_preset(scene *s, int index);
void scene_next_filter(scene *s, int step);
void scene_set_weight(scene *s, int tap, float value);
void scene_next_border(scene *s);
void scene_toggle_flip(scene *s);
void scene_next_display(scene *s);
void scene_zoom(scene *s, int step);    /* + closer (fewer cells), - farther */
void scene_pan(scene *s, int dx, int dy);
void scene_center_on(scene *s, int x, int y);
void scene_toggle_help(scene *s);
void scene_sweep(scene *s);                 /* measures every engine on 4x4 ... 4096x4096 */
void scene_apply_again(scene *s);           /* the whole output becomes the input: one more pass */
void scene_chain(scene *s);
void scene_too_big(scene *s);               /* opens an image just larger than the GPU can hold */

/* The most pixels the GPU engine can convolve (8 bytes each on the device:
 * a float in, a float out), from its free memory and buffer limit; -1 when
 * neither is known. Read after a GPU run. */
long long scene_gpu_max_pixels(const scene *s);                 /* times 1000 dependent passes on a 4x4 image, CPU and GPU */

/* The smallest swept size from which on the GPU beat cpu-par at every
 * larger size too, or 0 when it did not. */
int scene_sweep_crossover(const scene *s);
void scene_toggle_menu(scene *s);           /* the lessons in the current language */
void scene_pick_lesson(scene *s, int i);    /* starts lesson i of the menu */
void scene_toggle_blank(scene *s);
void scene_next_text_scale(scene *s);
void scene_hover(scene *s, bool over, int x, int y);
void scene_pin(scene *s);               /* pin the hovered cell, or unpin */
void scene_begin_edit(scene *s, int tap);
void scene_edit_key(scene *s, int key); /* digits, '-', '.', backspace, enter, escape, tab */
void scene_escape(scene *s);            /* closes what is open; quits when nothing is */
void scene_notice(scene *s, const char *text);

/* The output cell the arithmetic panel explains: the hovered or pinned one,
 * else the stepper's current output. */
void scene_focus(const scene *s, int *x, int *y, bool *from_stepper);

/* Outputs of the CPU phase done so far. */
long scene_cpu_done(const scene *s);

/* How many threads cpu-par runs on this image (one band of outputs each). */
int scene_cpu_threads(const scene *s);

/* The GPU engine's block size (16x16 when none ran yet). */
void scene_block_size(const scene *s, int *bx, int *by);

#endif
