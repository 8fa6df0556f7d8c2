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

/* One step of a lesson as pictures, as a learner meets it: what the window
 * shows when the step begins (`before`), and for a step that waits for the
 * learner, once the learner has done it (`after`: the awaited action run
 * through app_do, then settled as for a still); with the narration and the
 * hint the window shows with `before`. */
typedef struct app_step_shot {
    int step, steps;            /* 1-based, of */
    char before[32], after[32]; /* file names in the folder: step-NN.png, step-NN-after.png ("" when none) */
    int width, height;          /* of the pictures */
    char narration[4096];       /* app_narration, as large as the lesson panel's (view/status.c) */
    char hint[256];             /* app_hint: "Your turn: press G to go on", or "" */
    char notes[2048];           /* the step's notes for the teacher, or "" */
    char image[256];            /* the scene's image while the step begins, and its size */
    int image_w, image_h;
} app_step_shot;

/* Told of each step once its pictures are saved; APP_EXIT_OK to go on,
 * else the exit status of what failed (its sentence said). */
typedef int (*app_step_seen)(void *user, const app_step_shot *shot);

/* Plays the lesson from the step shown to its end, saving each step's
 * pictures in the folder `dir` (there already) and telling `seen` (or no
 * one, when NULL). A failure removes the pictures it saved, nothing else.
 * --render-steps and `convis handout` both go through it. */
int app_capture_steps(app_window *w, const char *dir, app_step_seen seen, void *user);

/* A lesson's next step, as the learner reaches it: what the step waits for
 * done first (through app_do), then on. */
void app_capture_next_step(app *a);

/* --render-steps DIR: DIR made when it is not there (removed again, when
 * empty, after a failure), then app_capture_steps, each picture said. */
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
