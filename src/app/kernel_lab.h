/* kernel_lab.h - the kernel lab in the window (Shift+L, or --lab FILE): the
 * learner's GLSL file is watched, and each time it is saved a check runs in
 * a child process (lab_check.h) on the image and filter shown, between
 * frames, without ever holding the window; its compiler errors, wrong
 * outputs, reads and times are what the lab view (view/lab.c) shows, and
 * what a lesson's questions about the lab are checked against. */
#ifndef CONVIS_KERNEL_LAB_H
#define CONVIS_KERNEL_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"

#define APP_LAB_LIMIT_S 10.0 /* a check is stopped after this long */

/* Shows the lab (opening the learner's file: --lab's, else a copy of the
 * starter made once in the user's data folder, never written over), or
 * hides it (a check under way stops). */
void app_lab_toggle(app *a);

/* The lab's work between frames: the file looked at, a check started when
 * it changed, one under way watched. True while a check runs. */
bool app_lab_work(app *a);

/* Waits for the check under way (app_settle: a still, a script), at most
 * its limit. */
void app_lab_settle(app *a);

/* Ends what the lab holds (app_free). */
void app_lab_free(app *a);

/* The outputs' picture: ref's values grey, the wrong ones amber, as the
 * inside view paints a race (rgba: n * 4 bytes). */
void lab_paint(const float *ref, const unsigned char *wrong, long long n, unsigned char *rgba);

/* The placeholders of the lab: its last check in a sentence, the reads of
 * an interior work group in one, the learner's file. */
void app_lab_result(const app *a, char *buf, size_t size);
void app_lab_reads(const app *a, char *buf, size_t size);
void app_lab_file(const app *a, char *buf, size_t size);

/* The lab's last check as a fact (quiz_facts.c): false with why not
 * (no check yet). */
bool app_lab_checked(const app *a, char *why, size_t size, bool *never);

/* The lab's state in a sentence for the view ("checking ...", "right: ...",
 * "does not compile: 2 errors"). */
void app_lab_status(const app *a, char *buf, size_t size);

#endif
