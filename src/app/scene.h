/* scene.h - the model: what the teaching window shows and why. The image,
 * the settings, the phase (the CPU walk or the GPU result), the GPU's
 * teaching switches, the experiments (size sweep, chain, apply again, too
 * big) and every measurement.
 *
 * Headless: it includes only core, compute, the formatting helpers and
 * the catalogue of words (i18n.h: its notices are in the language shown).
 * What it needs from outside (opening an engine, a GL buffer for the GPU to
 * present into, a clock) is handed to it in a scene_host, so a unit test
 * drives it with the CPU engines and no window. Only actions.c changes it
 * (the one input path); the view reads it as const.
 *
 * Contents: host and types · life (init, free, images) · the walk ·
 * the GPU phase · settings · the view region · experiments · memory (the
 * budget and tiles, scene_tiles.c) · work (measuring and the long
 * experiments, in slices) · questions the view and lessons ask. */
#ifndef CONVIS_SCENE_H
#define CONVIS_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "compute/engine.h"
#include "compute/tiles.h"
#include "compute/kernel_walk.h"
#include "core/stepper.h"
#include "settings.h"

#define SCENE_MIN_CELLS 4
#define SCENE_MAX_CELLS 64
#define SCENE_DEFAULT_CELLS 20
#define SCENE_MIN_SPEED 1.0         /* outputs a second */
#define SCENE_MAX_SPEED 8192.0
#define SCENE_DEFAULT_SPEED 4.0
#define SCENE_SWEEP_SIZES 6         /* 4x4, 16x16, ... 4096x4096 */
#define SCENE_CHAIN_LENGTH 1000
#define SCENE_RACE_RUNS 5           /* runs of the tiled kernel without its barrier on the GPU */
#define SCENE_GPU_PULSE_MS 700.0    /* the GPU result's outputs light up this long */
#define SCENE_NOTICE_MS 4000.0      /* a notice stays this long */

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
    double (*now_ms)(void *user);   /* NULL: the monotonic clock */
    void *user;
} scene_host;

typedef enum scene_phase {
    SCENE_PHASE_CPU = 0,    /* the CPU walks one output at a time */
    SCENE_PHASE_GPU,        /* the GPU has computed every output at once */
} scene_phase;

/* What fills the main area, one at a time: showing one replaces the one
 * shown (scene_show), Esc goes back to the grids. */
typedef enum scene_area {
    SCENE_AREA_GRIDS = 0,   /* the input and output grids, the kernel, the arithmetic, the thumbnails */
    SCENE_AREA_LARGE,       /* the whole input and output, large, side by side (I) */
    SCENE_AREA_INSIDE,      /* one block of the tiled kernel (O) */
    SCENE_AREA_SWEEP,       /* the size sweep's chart (W) */
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
    eng_engine *engine;     /* NULL when unavailable */
    char name[16];          /* "cpu-seq" */
    char why[256];          /* why unavailable, or why the last run failed */
    char note[256];         /* for the GPU: why a better engine is not used */
    eng_hardware hardware;  /* what it really computes on (a GPU engine on llvmpipe: software) */
    eng_timing timing;
    bool measured;          /* timing is for the current image and filter */
} scene_engine;

/* Long work, done in slices between frames (scene_work) so the window keeps
 * drawing and Esc can cancel it. */
typedef enum scene_task_kind {
    SCENE_TASK_NONE = 0,
    SCENE_TASK_SWEEP,       /* every engine on 4x4 ... 4096x4096 */
    SCENE_TASK_CHAIN,       /* 1000 dependent passes on a 4x4 image */
    SCENE_TASK_TILES,       /* the GPU phase in tiles under the memory budget */
} scene_task_kind;

typedef struct scene_task {
    scene_task_kind kind;
    int done, total;        /* units of work: progress */
    /* where the task is */
    int i, k;               /* sweep: size and engine; chain: engine */
    int pass;               /* chain: passes done by engine k */
    double ms;              /* chain: engine k's time so far */
    img_plane a, b;         /* chain: the two 4x4 planes */
} scene_task;

/* The settings a lesson starts from and free play gets back (scene_stash). */
typedef struct scene_stash {
    bool held;
    app_options opt;
    int preset;
    img_image img;
    char image_name[256];
    int passes;
    double speed;
    int view_x, view_y, view_cells;
    bool thread_view;
    eng_kernel gpu_kernel;
    eng_result gpu_result;
    long long mem_budget;
    int block_shape;
} scene_stash;

typedef struct scene {
    scene_host host;

    /* what is computed */
    app_options opt;
    int preset;                 /* index of the preset, -1 for a custom kernel */
    char image_name[256];       /* the file's name, or what made the image */
    int passes;                 /* filter passes applied to it (apply-again; 0: as opened) */
    unsigned long image_generation; /* counts the images opened: what the view caches is for one */
    img_image img;
    img_plane cpu_out;          /* written by the stepper, output by output */
    img_plane gpu_out;          /* the GPU phase's result */
    conv_stepper stepper;
    /* Outputs before cpu_redo_from may have changed since generation
     * cpu_redo (a step back, a restart, a display change): what the view
     * drew of the walk's output from there on must be drawn again. */
    unsigned long cpu_redo;
    long cpu_redo_from;

    /* the animation */
    scene_phase phase;
    bool playing;
    double speed;               /* outputs a second */
    double owed_taps;           /* fractional taps carried between frames */
    double gpu_shown_at;        /* clock (ms) when the GPU result appeared */

    scene_area area;            /* what fills the main area */
    scene_chart chart;          /* what the chart shows */

    /* the region shown, and the output looked at */
    int view_x, view_y;         /* top-left cell of the region shown */
    int view_cells;             /* cells across the grids (zoom) */
    bool thread_view;
    bool hovering, pinned;
    int hover_x, hover_y;       /* the output cell under the mouse (or pinned) */

    /* what the scene has to say */
    char banner[512];           /* an error the user should read */
    bool banner_gpu;            /* ... about the GPU phase: its next success takes it down */
    char notice[512];           /* what just happened ("saved shot.png") */
    double notice_at;

    /* the GPU phase's teaching switches */
    eng_kernel gpu_kernel;      /* tiled or naive (CUDA) */
    eng_result gpu_result;      /* interop (into a GL buffer), one bulk copy, one copy per pixel */
    unsigned gpu_buffer;        /* the GL buffer the GPU presents into (0: none yet) */
    size_t gpu_buffer_bytes;
    bool gpu_presented;         /* the GPU result on screen came through gpu_buffer */
    unsigned long gpu_runs;     /* counts the GPU's measured runs: a new result to show */
    eng_device_info gpu_device; /* read after each GPU run */
    bool gpu_device_known;

    /* Memory is finite: the device memory the learner lets the GPU have
     * ("pretend it has 1 MiB"; 0: all it has). An image whose two buffers
     * need more runs in tiles that fit (compute/tiles.h), one after
     * another, each drawn as it completes with its time. */
    long long mem_budget;
    struct {
        bool on;                    /* the GPU result shown is (being) made in tiles */
        tile_plan plan;
        int done;                   /* tiles computed so far, in plan order */
        double ms[TILE_MAX_COUNT];  /* each tile's measured time (upload, compute, download) */
        eng_timing sum;             /* their phases added up */
        double next_at;             /* clock: when the next tile may start (paced for the eye) */
        img_plane up, down;         /* a tile with its halo, in and out (scratch) */
    } tiles;
    bool settling;                  /* scene_settle: nothing waits for the eye */

    /* cpu-par's bands on the last image it ran: one thread each (its own
     * figure, from its timing record); 0 before it ran */
    int cpu_bands;

    /* the load on the CPU when its engines were last measured (other
     * programs' work slows them), and the cores there are */
    double cpu_load;
    int cpu_cores;

    /* the size sweep: the same filter on square images of growing size */
    struct {
        int count;                  /* sizes measured */
        int size[SCENE_SWEEP_SIZES];
        double ms[3][SCENE_SWEEP_SIZES]; /* cpu-seq, cpu-par, gpu; < 0: not measured */
        double lo[3][SCENE_SWEEP_SIZES], hi[3][SCENE_SWEEP_SIZES]; /* the runs' fastest and slowest */
        int reps[3][SCENE_SWEEP_SIZES];
        double phase[3][SCENE_SWEEP_SIZES][ENG_PHASE_COUNT]; /* each phase's median; < 0: none */
    } sweep;

    /* Inside the GPU (O): one block of the tiled kernel in stages (its
     * tile loaded warp by warp, the barrier, the nine reads from the
     * tile), or the same without its barrier, simulated (what both
     * kernels ask of the memory is counted where it is shown:
     * compute/kernel_walk.h). */
    struct {
        int stage;                  /* a scene_block_stage */
        double stage_at;            /* clock: when the stage began (its animation) */
        int bx, by;                 /* the block looked at */
        int thread;                 /* the thread looked at in it, ty*bdx + tx */
        int shape;                  /* index of the block shape (scene_block_shape) */
        kw_race race;               /* the missing barrier, on this block shape */
        unsigned race_seed;         /* the schedule simulated (another each time) */
        /* the missing barrier on the GPU engine: runs of the tiled kernel
         * without it, each compared with the reference */
        int gpu_runs;               /* made (0: none; see gpu_why) */
        long long gpu_wrong[SCENE_RACE_RUNS]; /* outputs that differ, run by run */
        unsigned char *gpu_heat;    /* w*h: in how many runs each output was wrong */
        int heat_w, heat_h;
        char gpu_why[256];          /* why it did not run */
        char gpu_label[64];         /* what ran it: "gl (software)", "cuda" */
        unsigned long gpu_generation; /* counts the sets of runs (the view's picture of them) */
    } inside;

    /* the chain: dependent passes on a 4x4 image, each started by the host */
    struct {
        int length;                 /* passes timed (0: never run) */
        double ms[2];               /* cpu-seq, GPU; < 0 not measured */
    } chain;

    scene_task task;            /* the long work under way */
    struct scene_worker *worker; /* the thread that measures the CPU engines (NULL: none) */
    eng_engine *wseq, *wsimd, *wpar; /* its own engines */
    int worker_tag;             /* what it is measuring (-1: nothing wanted) */
    unsigned long measure_gen;  /* counts settings and images: a result for an older one is dropped */
    unsigned long updates;      /* counts new figures and progress: the window draws again */

    /* measurements */
    scene_engine seq, simd, par, gpu; /* one core scalar, one core vectorised, every core, the GPU */
    bool seq_stale, simd_stale, par_stale; /* a CPU engine needs measuring again */
    bool gpu_stale;             /* the GPU result is for other settings */
} scene;

/* ---- life ------------------------------------------------------------------ */

/* Sets up a scene with no image, the CPU engines open and the best GPU
 * engine (cuda, else gl) opened or its absence explained. */
void scene_init(scene *s, const scene_host *host, const app_options *opt);
void scene_free(scene *s);

/* Opens an image file; on failure keeps the current image and puts the
 * reason in the banner. */
bool scene_open_image(scene *s, const char *path);

/* Takes `img` (the scene owns it from now on) as the image shown, titled
 * `name`; on failure frees it, keeps the image shown and says why in the
 * banner. */
bool scene_adopt_image(scene *s, img_image *img, const char *name);

/* Puts the settings and the image aside (the scene keeps a copy of the
 * image to go on with) and goes back to `defaults`, for a lesson to start
 * from; scene_unstash brings them back. A second stash while one is held
 * does nothing but reset the settings. */
void scene_stash_settings(scene *s, scene_stash *st, const app_options *defaults);
void scene_unstash(scene *s, scene_stash *st);

/* ---- time -------------------------------------------------------------------- */

double scene_now(const scene *s);

/* Advances the animation by dt milliseconds of wall time. */
void scene_update(scene *s, double dt_ms);

/* True while something moves on screen (the window keeps drawing). */
bool scene_animating(const scene *s);

/* ---- the walk ------------------------------------------------------------- */
void scene_play(scene *s);              /* play / pause */
void scene_tap(scene *s);               /* one tap forward */
void scene_step(scene *s);              /* one output forward */
void scene_back(scene *s);              /* one output back */
void scene_faster(scene *s);
void scene_slower(scene *s);
void scene_finish(scene *s);            /* every remaining output now */
void scene_restart(scene *s);           /* back to the CPU phase, output 0 */

/* ---- the GPU phase ------------------------------------------------------------ */
void scene_launch_gpu(scene *s);        /* every output at once */
void scene_toggle_threads(scene *s);
void scene_next_gpu_kernel(scene *s);   /* tiled <-> naive */
void scene_next_gpu_result(scene *s);   /* interop -> bulk copy -> copy per pixel */
void scene_next_gpu_engine(scene *s);   /* cuda <-> gl, where both run */

/* ---- settings ---------------------------------------------------------------- */
void scene_select_preset(scene *s, int index);
void scene_next_filter(scene *s, int step);
void scene_set_weight(scene *s, int tap, float value);
void scene_next_border(scene *s);
void scene_toggle_flip(scene *s);
void scene_next_display(scene *s);

/* ---- what is shown ------------------------------------------------------------ */

/* Shows `area` in the main area (what was there goes: inside's view closes,
 * the sweep's chart hides), or `chart` in the chart's place. The sweep and
 * the chain are not shown together: showing one hides the other. */
void scene_show(scene *s, scene_area area);
void scene_show_chart(scene *s, scene_chart chart);
/* Esc's share: the main area back to the grids, else the chart back to the
 * timing; false when both already were. */
bool scene_close_shown(scene *s);
const char *scene_area_name(scene_area area);   /* "grids", "large", "inside", "sweep" */

/* ---- the region shown ----------------------------------------------------------- */
void scene_zoom(scene *s, int step);    /* + closer (fewer cells), - farther */
void scene_pan(scene *s, int dx, int dy);
void scene_view_at(scene *s, int x, int y); /* top-left cell, clamped */
void scene_center_on(scene *s, int x, int y);
void scene_hover(scene *s, bool over, int x, int y);
void scene_pin(scene *s);               /* pin the hovered cell, or unpin */

/* ---- experiments ------------------------------------------------------------------ */
void scene_sweep(scene *s);             /* starts the sweep; again: hides its chart */
void scene_chain(scene *s);             /* starts the chain; again: hides its panel */
void scene_apply_again(scene *s);       /* the whole output becomes the input: one more pass */

/* ---- inside the GPU -------------------------------------------------------------- */

typedef enum scene_block_stage {
    SCENE_BLOCK_LOAD,       /* each warp's loads into the tile, in the kernel's order */
    SCENE_BLOCK_BARRIER,    /* every thread waits until the last load is done */
    SCENE_BLOCK_COMPUTE,    /* each thread's nine reads of the tile and its one write */
    SCENE_BLOCK_NO_BARRIER, /* the same without the barrier: a simulated schedule */
    SCENE_BLOCK_NO_BARRIER_GPU, /* ... run on the GPU engine, its results compared with the reference */
    SCENE_BLOCK_STAGES
} scene_block_stage;

#define SCENE_BLOCK_SHAPES 5        /* 16x16, 8x8, 32x8, 32x32, 24x24 */
#define SCENE_BLOCK_LOAD_MS 2400.0  /* the load stage's animation */
#define SCENE_BLOCK_COMPUTE_MS 1500.0

/* O: opens the view on the block of the output looked at, at its load
 * stage; again: the next stage (barrier, compute, no barrier simulated, no
 * barrier run on the GPU engine), then closed. */
void scene_block_life(scene *s);
void scene_block_close(scene *s);
void scene_next_block_shape(scene *s);      /* J: 16x16 -> 8x8 -> 32x8 -> 32x32 -> 24x24 */
void scene_next_block_warp(scene *s);       /* Shift+O: the next warp of the block looked at */
void scene_block_pick(scene *s, int thread); /* a click on a thread of the block */
/* Block shape i (bdx x bdy) and the one in use. */
void scene_block_shape(int i, int *bdx, int *bdy);
void scene_block_dims(const scene *s, int *bdx, int *bdy);
/* How far the stage's animation is, 0..1 (1 when it has none). */
double scene_block_progress(const scene *s);
/* The load stage so far: the warp requests issued (iteration by iteration,
 * warp by warp, as the kernel's loop runs) of all of them, and the tile's
 * cells stored of all of them. */
void scene_block_loading(const scene *s, int *requests_done, int *requests, int *cells_done, int *cells);
/* Whether tile cell (col, row) is stored once `requests_done` requests have
 * been issued, and by which thread. */
bool scene_block_cell_stored(const scene *s, int col, int row, int requests_done, int *thread);
void scene_too_big(scene *s);           /* opens an image just larger than the GPU can hold */

/* ---- waves ------------------------------------------------------------------------- */

#define SCENE_WAVES_MS 1500.0   /* the waves of a GPU run are shown one after another over this long at most */

/* The waves the GPU's grid runs in: its blocks over the units (SMs) times
 * the blocks one unit holds at once, as the engine reports them (CUDA's
 * occupancy calculator); 0 where that is not known (the schedule is then
 * drawn all at once). *per_wave: the blocks of a wave. */
int scene_gpu_waves(const scene *s, long *per_wave);
/* When output (x, y) lights up after the GPU result appears, in ms: its
 * block's wave times the time a wave is given (the schedule's shape, not a
 * recording of the hardware's order). */
double scene_gpu_light_at(const scene *s, int x, int y);
/* How long the GPU result's lighting lasts: the waves and the pulse. */
double scene_gpu_light_ms(const scene *s);

/* ---- memory ------------------------------------------------------------------------ */

#define SCENE_BUDGET_COUNT 6        /* off, 1, 4, 16, 64, 256 MiB */
#define SCENE_TILE_PACE_MS 1600.0   /* a tiled run is spread over about this long on screen ... */
#define SCENE_TILE_MIN_PACE_MS 17.0 /* ... with a frame (at 60 Hz) for each tile at least */

/* The next memory budget: off -> 1 MiB -> 4 -> 16 -> 64 -> 256 MiB -> off;
 * or a budget of `bytes` (0: off). The notice says what it means for the
 * image; a GPU result shown is made again under it. */
void scene_next_budget(scene *s);
void scene_set_budget(scene *s, long long bytes);
long long scene_budget_at(int i);   /* bytes of budget i (0: off) */

/* Bytes the image needs on the device: two buffers of 4 bytes a pixel. */
long long scene_image_bytes(const scene *s);

/* Whether the GPU phase runs in tiles: a budget is set and the image needs
 * more than it (or than the device holds, when that is less). */
bool scene_needs_tiles(const scene *s);

/* The bytes tiles are planned for: the budget, or what the device can hold
 * when that is less (a driver's buffer limit, its free memory). */
long long scene_tile_budget(const scene *s);

/* Whether output (x, y) of the GPU result is computed yet (false only in a
 * tile still to come). */
bool scene_gpu_done_at(const scene *s, int x, int y);

/* Where output (x, y) is in the GPU's launch: its coordinates in the grid
 * of threads that computed it (in tiles: in its tile's grid, whose (0, 0)
 * is the halo's corner) and its tile (-1 when not in tiles). */
void scene_launch_at(const scene *s, int x, int y, int *lx, int *ly, int *tile);

/* "4 tiles of 256×192" (or in Chinese) for the tiles shown. */
void scene_tiles_text(const scene *s, char *buf, size_t size);

/* ---- work -------------------------------------------------------------------------- */

/* Does what is pending (measuring after a change, a sweep, a chain) for
 * about budget_ms, in slices of one engine run at most; true while more
 * remains. The CPU engines are measured on a thread of their own (the
 * slice gives it the job and returns; a later one takes the figure), the
 * GPU engine here, where its context is. The window calls it between
 * frames; scripts and tests call scene_settle, which waits for all of it. */
bool scene_work(scene *s, double budget_ms);
void scene_settle(scene *s);

/* Whether long work is under way, and how far it is (done of total), with
 * what it is ("size sweep"). */
bool scene_busy(const scene *s);
bool scene_stale(const scene *s);   /* measurements to make after a change */
bool scene_waiting(const scene *s); /* the measuring thread is at work, or has a figure to give; or
                                       the next tile waits for its turn on screen */
bool scene_measuring(const scene *s); /* the measuring thread only: the window draws less meanwhile */
void scene_progress(const scene *s, int *done, int *total);

/* Stops the work under way; what it measured so far stays. */
void scene_cancel(scene *s);

void scene_notice(scene *s, const char *text);
void scene_say_error(scene *s, const char *text);   /* the banner */

/* ---- questions ----------------------------------------------------------------------- */

/* The output cell the arithmetic panel explains: the hovered or pinned one,
 * else the stepper's current output. */
void scene_focus(const scene *s, int *x, int *y, bool *from_stepper);

/* Outputs of the CPU phase done so far. */
long scene_cpu_done(const scene *s);

/* An engine's name as charts and legends show it: "cpu-par", "cuda", or
 * "gl (software)" for a GPU engine that is really this CPU. */
const char *scene_engine_label(const scene_engine *e);

/* The image's title: its name, and the passes applied to it ("sample.png
 * after 2 passes"). */
void scene_title(const scene *s, char *buf, size_t size);

/* The GPU engine's block size (16x16 when none ran yet). */
void scene_block_size(const scene *s, int *bx, int *by);

/* The GPU's grid: blocks across and down and threads a block, from its last
 * run's launch record (before any run: 16x16 blocks over the image). */
void scene_gpu_grid(const scene *s, long *gx, long *gy, int *bx, int *by);

/* The most pixels the GPU engine can convolve (8 bytes each on the device:
 * a float in, a float out), from its free memory and buffer limit; -1 when
 * neither is known. Read after a GPU run. */
long long scene_gpu_max_pixels(const scene *s);

/* The pixels of the image too-big would open: just over what the GPU can
 * hold; 0 when that is over convis's own limit (it opens none); the limit
 * itself while the GPU has not run (what it holds is not known yet). */
long long scene_too_big_pixels(const scene *s);

/* Whether the figures are noisy: an engine's runs spread over half their
 * median (other work on the machine, convis's own drawing included, slows
 * some runs). The load average (cpu_load) is said beside it; it counts
 * convis's own threads too, so it is no verdict alone. */
bool scene_noisy(const scene *s);

/* The smallest swept size from which on the GPU beat cpu-par at every
 * larger size too, or 0 when it did not. */
int scene_sweep_crossover(const scene *s);

#endif
