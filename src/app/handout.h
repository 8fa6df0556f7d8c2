/* handout.h - `convis handout LESSON [IMAGE] -o DIR`: one HTML page for
 * printing or showing (DIR/index.html), with each step's pictures (those of
 * --render-steps: app_capture_steps) beside it, its narration as the window
 * shows it with this machine's figures, and where they were made. handout.c
 * is the command and its folder, handout_page.c the page. */
#ifndef CONVIS_HANDOUT_H
#define CONVIS_HANDOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "capture.h"
#include "frame.h"

#define APP_HANDOUT_PAGE "index.html"
/* The page's mark: a folder whose index.html has it holds an earlier
 * handout, which a new one may replace. */
#define APP_HANDOUT_MARK "<meta name=\"generator\" content=\"convis handout\">"

/* What the page says: the lesson, the machine, and each step. */
typedef struct app_handout {
    char lang[8];      /* the lesson's language: the page's lang */
    const char *title; /* the lesson's (the player's, while it plays) */
    char lesson[256];  /* the lesson file's name */
    char made[64];     /* the date and time */
    char cpu[256];     /* this CPU's model */
    char gpu[512];     /* the GPU engine, as the window names it */
    char notes[4096]; /* the lesson's notes for the teacher ("" none) */
    app_step_shot *shots;
    int count, most;
} app_handout;

/* Writes the page (img_write_fn): every string from the lesson or the
 * machine HTML-escaped. */
bool app_handout_page(FILE *f, const void *handout);

/* The run of `convis handout` once the window, the image and the lesson are
 * there (window.c): the steps' pictures and the page into `dir`. */
int app_handout_write(app_window *w, const char *dir);

#endif
