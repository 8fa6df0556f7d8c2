/* view.h - draws the app into the window and says what a click means. The
 * view reads the app as const and keeps only its own caches (fonts,
 * textures, the last layout); the layout is computed from the window's size
 * every frame, so resizing and fullscreen keep it sound. Its files are in
 * view/ (view/view_internal.h lists them). */
#ifndef CONVIS_VIEW_H
#define CONVIS_VIEW_H

#include <stdbool.h>

#include "actions.h"
#include "app.h"

typedef struct view view;

/* What a pointer at a window pixel means: the action a click there runs,
 * and for a grid cell the cell (which a drag pans and hovering explains). */
typedef struct view_hit {
    app_act act;            /* the click's action; .action NULL: none */
    bool grid;              /* over a cell of the input or output grid */
    bool output;            /* ... of the output grid */
    int x, y;               /* that cell */
} view_hit;

/* A place to click in the last frame, for tests and --print-state. */
typedef struct view_target {
    const char *action;     /* the action's name */
    int arg;                /* its index, or -1 */
    int x, y, w, h;         /* window pixels */
} view_target;

/* Needs a current GL context and the render layer started. */
view *view_create(void);
void view_destroy(view *v);

/* Draws the app into a w x h frame. */
void view_draw(view *v, const app *a, int w, int h);

/* What is at window pixel (x, y), with the layout of the app as it is now. */
view_hit view_hit_test(view *v, const app *a, int x, int y);

/* The rectangles of the last frame that show measured times, which differ
 * from run to run (tests mask them when comparing screenshots): as
 * x, y, w, h quadruples; returns how many (at most max). */
int view_live_regions(const view *v, int (*rects)[4], int max);

/* The places to click in the last frame; returns how many (at most max). */
int view_targets(const view *v, const app *a, view_target *out, int max);

/* The size of one grid cell in pixels in the last frame (for dragging). */
float view_cell_px(const view *v);

/* Where the mouse is, in window pixels (negative: it left the window): text
 * cut with an ellipsis shows whole while the pointer is on it. */
void view_pointer(view *v, int x, int y);

/* The whole text the last frame showed under the pointer, "" when none. */
const char *view_tooltip(const view *v);

/* The texts the last frame cut with an ellipsis: where, and their whole text. */
typedef struct view_cut {
    int x, y, w, h;
    const char *text;
} view_cut;
int view_cut_texts(const view *v, view_cut *out, int max);

#endif
