/* frame.h - the window's pieces held together: the platform window, the
 * view and the app, with the scene's host (engines opened with the window's
 * GL context, GL buffers from the render layer). One function draws a frame
 * of the app as it is, for every mode: the interactive loop, --screenshot,
 * --render-steps, --report-frames. */
#ifndef CONVIS_FRAME_H
#define CONVIS_FRAME_H

#include <stdbool.h>

#include "app.h"
#include "platform/platform.h"
#include "view.h"

typedef struct app_window {
    plat_window *win;
    view *view;
    app app;
    bool app_ready;
    /* The scene's clock: the monotonic clock, or (recording a GIF) time
     * that moves only frame by frame, clock_ms. */
    bool clock_virtual;
    double clock_ms;
    /* every frame notes where its text went (--print-state prints the last) */
    bool record_text;
} app_window;

/* The scene's host for window w (whose GL context is current). */
scene_host app_window_host(app_window *w);

/* Draws one frame of the app into the window's back buffer and says its
 * size; the caller swaps it onto the screen or reads it back. */
void app_frame(app_window *w, int *width, int *height);

/* The scene told how many cells across the grids have room for with their
 * values (the zoom starts from what is shown): after each frame (app_frame
 * does it), and before the first one from a layout alone (app_measure), so
 * --do's and a lesson's zooms start from what the window will show. */
void app_note_shown(app_window *w);
void app_measure(app_window *w);

#endif
