/* actions.h - the one input path. Every key, click, clicker press, dropped
 * file, --do word and lesson step becomes an action of the table
 * (action_table.h) run by app_do, which then tells the lesson player what
 * the learner did. Lessons start, turn their pages and end here too. */
#ifndef CONVIS_ACTIONS_H
#define CONVIS_ACTIONS_H

#include <stdbool.h>

#include "action_table.h"
#include "app.h"

/* An action with what it is given: the view's hit test returns one for a
 * click, the window makes one for a key or a drop. */
typedef struct app_act {
    const app_action *action; /* NULL: nothing */
    int arg;                  /* an index (APP_ARG_INDEX); else the action's own */
    int x, y;                 /* a cell (APP_ARG_XY) */
    const char *text;         /* a path (APP_ARG_PATH) */
} app_act;

/* The action alone, with its own argument. */
app_act app_act_of(const app_action *a);
app_act app_act_id(app_action_id id);

/* Runs one action, then tells the lesson player (a wait it satisfies ends). */
void app_do(app *a, app_act act);

/* The action a key press means now: while a kernel cell is edited, its
 * digits and Enter; while the screen is blank, any key brings it back;
 * with the lesson menu open, 1-9 pick a lesson; in a lesson, the page
 * keys turn its pages. .action NULL when the key means nothing. */
app_act app_act_for_key(const app *a, int key, unsigned mods);

/* Runs a script of actions: names separated by commas or spaces, each
 * optionally repeated as name*N ("gpu,threads,step*40"), the whole of it
 * checked first (names known, counts within bounds, the work on whole
 * images within its bound at the image's size); the long work each word
 * starts is finished before the next (app_settle). False with err_msg()
 * saying what is wrong, and nothing run. */
bool app_run_script(app *a, const char *script);

/* The window's work between frames: the scene's (scene_work), then, once
 * the long work before them is done, the lesson step's actions left
 * (app.step_slices). True while more remains. */
bool app_work(app *a, double budget_ms);

/* Whether a lesson step's actions wait to run (app_work runs them). */
bool app_step_due(const app *a);

/* Everything asked done now: the step's actions left, each one's long
 * work finished before the next, and the scene's work (scene_settle). */
void app_settle(app *a);

/* Starts the lesson in file `path` from free play's defaults (the settings
 * free play had come back when it ends). False, with the reason in err_msg()
 * and the banner, and nothing changed when the file cannot be used. */
bool app_lesson_start(app *a, const char *path);

/* Ends the lesson: free play's settings and image come back. */
void app_lesson_stop(app *a);

#endif
