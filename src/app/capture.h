/* capture.h - the window's runs that end by themselves, and its pictures:
 * a screenshot under a new name (S), --render-steps, --report-frames, and
 * --print-state for tests. Each draws through app_frame. */
#ifndef CONVIS_CAPTURE_H
#define CONVIS_CAPTURE_H

#include <stdbool.h>

#include "frame.h"

/* S: the frame drawn last under a new name in the current folder; a notice
 * says where, or the banner why not. */
void app_capture_screenshot(app_window *w, int width, int height);

/* --screenshot FILE: the app as it is once its work is done. */
int app_capture_still(app_window *w, const char *path);

/* One screenshot per lesson step, DIR/step-01.png and on. */
int app_capture_render_steps(app_window *w, const char *dir);

/* Shift+S: starts recording the window into a new GIF (convis-DATE-TIME.gif
 * in the current folder, never overwriting), or stops and saves it (a
 * minute at most). While it records, the loop draws a frame every tenth
 * of a second (app_capture_gif_due) and hands it over after drawing
 * (app_capture_gif_frame); app_capture_gif_end saves one still open. */
void app_capture_gif_toggle(app_window *w, int width, int height);
bool app_capture_gif_recording(void);
bool app_capture_gif_due(void);
void app_capture_gif_frame(app_window *w, int width, int height);
void app_capture_gif_end(app_window *w);

/* --gif: `seconds` of what the window shows at `fps` frames a second, in
 * the window's own clock (clock_virtual): the walk plays, the GPU's light
 * fades, tiles complete, as they would on screen; the measuring is done
 * before the first frame. Writes a new GIF (gif.h) and says its size. */
int app_capture_gif(app_window *w, const char *path, int seconds, int fps, bool steps);

/* Frame times while the CPU walk plays, after how long the image took from
 * the start of loading to its first frame. */
int app_capture_report_frames(app_window *w, int frames, double load_start, double loaded);

/* The app's state as key=value lines, with the live regions and the places
 * to click of the last frame. */
void app_capture_print_state(const app_window *w);

#endif
