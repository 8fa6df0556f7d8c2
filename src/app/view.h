/* view.h - draws a scene into the window and says what is under the mouse.
 * The layout is computed from the window's size every frame, so resizing
 * and fullscreen keep it sound. */
#ifndef CONVIS_VIEW_H
#define CONVIS_VIEW_H

#include <stdbool.h>

#include "scene.h"

typedef struct view view;

typedef enum view_hit_kind {
    VIEW_HIT_NONE = 0,
    VIEW_HIT_INPUT_CELL,    /* x, y: image pixel */
    VIEW_HIT_OUTPUT_CELL,   /* x, y: image pixel */
    VIEW_HIT_KERNEL_CELL,   /* index: tap */
    VIEW_HIT_PRESET,        /* index: preset */
    VIEW_HIT_BORDER,
    VIEW_HIT_FLIP,
    VIEW_HIT_DISPLAY,
    VIEW_HIT_THUMB,         /* x, y: image pixel under the thumbnail point */
    VIEW_HIT_GPU_BUTTON,
    VIEW_HIT_PLAY_BUTTON,
    VIEW_HIT_LESSON,        /* index: a lesson of the menu */
} view_hit_kind;

typedef struct view_hit {
    view_hit_kind kind;
    int x, y, index;
} view_hit;

/* Needs a current GL context and the render layer started. */
view *view_create(void);
void view_destroy(view *v);

/* Draws the scene into a w x h frame. */
void view_draw(view *v, scene *s, int w, int h, double now_ms);

/* What is at window pixel (x, y) in the last frame drawn. */
view_hit view_hit_test(view *v, const scene *s, int x, int y);

/* The rectangles of the last frame that show measured times, which differ
 * from run to run (tests mask them when comparing screenshots): as
 * x, y, w, h quadruples; returns how many (at most max). */
int view_live_regions(const view *v, const scene *s, int (*rects)[4], int max);

/* The size of one grid cell in pixels in the last frame (for dragging). */
float view_cell_px(const view *v);

#endif
