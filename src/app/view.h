/* view.h - draws the app into the window and says what a click means. The
 * view reads the app as const and keeps only its own caches (fonts,
 * textures) and what the last frame drew (its layout, its places to click);
 * the layout is computed from the window's size every frame, so resizing
 * and fullscreen keep it sound. Its files are in view/ (view_internal.h
 * lists them). */
#ifndef CONVIS_VIEW_H
#define CONVIS_VIEW_H

#include <stdbool.h>

#include "actions.h"
#include "app.h"

typedef struct view view;

/* What a pointer at a window pixel means, read from the places to click
 * the last frame drew (view_draw records them as it draws). */
typedef struct view_hit {
    app_act act; /* the click's action; .action NULL: none */
    bool pans;   /* over a grid: a press waits, a drag pans, a click acts on release */
    bool hovers; /* over an output the pointer hovers: (x, y) */
    int x, y;    /* the image pixel under the pointer, on a grid or a picture */
    float cell;  /* over a grid: a cell's size in window pixels (for a drag) */
} view_hit;

/* A place to click in the last frame, for tests and --print-state. */
typedef struct view_target {
    const char *action; /* the action's name */
    int arg;            /* the index the place gives, or -1 (its own, or one the point gives) */
    int x, y, w, h;     /* window pixels */
} view_target;

/* What a run of text is, as the render layer records it while a test
 * records the frame's text (rnd_text_role): the tests of the layout check
 * the size of what a room must read by it. */
typedef enum view_text_role {
    VIEW_TEXT_PLAIN,
    VIEW_TEXT_VALUE,     /* a value in a cell of a grid */
    VIEW_TEXT_NARRATION, /* a lesson's narration */
    VIEW_TEXT_CHART,     /* the chart's labels and figures */
    VIEW_TEXT_RATIO,     /* the chart's verdicts: its ratio line */
    VIEW_TEXT_LEGEND,    /* the chart's legend of colours */
    VIEW_TEXT_NOTICE,    /* a notice */
    VIEW_TEXT_KERNEL,    /* the kernel's weights and the arithmetic's products */
} view_text_role;

/* Needs a current GL context and the render layer started. */
view *view_create(void);
void view_destroy(view *v);

/* Draws the app into a w x h frame, and notes the frame's places to click
 * as each panel draws them. */
void view_draw(view *v, const app *a, int w, int h);

/* What is at window pixel (x, y) in the last frame: the topmost of its
 * places to click there. A change to the app since that frame may have
 * moved them: the caller draws the frame again first (window_loop.c). */
view_hit view_hit_test(const view *v, int x, int y);

/* The rectangles of the last frame that show measured times, which differ
 * from run to run (tests mask them when comparing screenshots): as
 * x, y, w, h quadruples; returns how many (at most max). */
int view_live_regions(const view *v, int (*rects)[4], int max);

/* The places to click in the last frame, in the order drawn, but those
 * wholly under a later one; returns how many (at most max). */
int view_targets(const view *v, view_target *out, int max);

/* Lays the frame out for a w x h window, drawing nothing: what the grids
 * would show (view_grid_cells) before a frame is drawn. */
void view_measure(view *v, const app *a, int w, int h);

/* The cells the grids showed in the last frame: n x n outputs from image
 * pixel (x, y), of the scene's region (fewer where the window has no room
 * for the region's values at a readable size); *fit: the most it has room
 * for with their values. */
void view_grid_cells(const view *v, int *x, int *y, int *n, int *fit);

/* What the input grid's frame (blue) and the output grid's (green) go
 * round in the last frame, x, y, w, h: the cells that hold the image, never
 * the grid's place past its edge; and the side of a cell. */
void view_grid_frames(const view *v, const app *a, float input[4], float output[4], float *cell);

/* The text size the last frame used, as a factor (1: 100%): the one asked
 * for, or less where the window is short for it. */
float view_text_scale(const view *v);

/* Where the mouse is, in window pixels (negative: it left the window): text
 * cut with an ellipsis shows whole while the pointer is on it. */
void view_pointer(view *v, int x, int y);

/* A chart bar for the timing t on a scale to hi (log from lo when
 * log_scale) `width` long, from the bar's start: each phase's length, in
 * proportion to its part of the phases, adding up to the bar, which ends at
 * the engine's time (the median run's total); and the whisker's ends, the
 * fastest and the slowest run. So the bar ends between its whisker's ends. */
void view_bar_geometry(const eng_timing *t, double lo, double hi, bool log_scale, float width,
                       float phase[ENG_PHASE_COUNT], float *fastest, float *slowest);

/* The whole text the last frame showed under the pointer, "" when none. */
const char *view_tooltip(const view *v);

/* The texts the last frame cut with an ellipsis: where, and their whole text. */
typedef struct view_cut {
    int x, y, w, h;
    const char *text;
} view_cut;
int view_cut_texts(const view *v, view_cut *out, int max);

#endif
