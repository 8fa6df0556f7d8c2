/* actions_internal.h - what actions.c and lesson_play.c share: an action
 * run without telling the lesson player, a script's tally, and the step the
 * player moved to. Only those two files include it. */
#ifndef CONVIS_ACTIONS_INTERNAL_H
#define CONVIS_ACTIONS_INTERNAL_H

#include <stdbool.h>

#include "actions.h"

/* What the action does, without telling the lesson player. */
void app_run_action(app *a, app_act act);

/* A tally for a script on the image shown (app_tally). */
void app_start_tally(const scene *s, app_tally *t);

/* Sets the scene for the step the player moved to: its image, its actions
 * (none when together they go over a script's bounds on this image: the
 * banner says why); its question opens. The actions of the step before
 * that are left go. */
void app_step_enter(app *a);

/* The lab's news as an action: lab-right once a check found the kernel right. */
void app_lab_news(app *a);

/* Runs the step's actions left (at once, or in the window's slices). */
void app_step_go_on(app *a, bool slices);

#endif
