/* player.h - plays a lesson on the scene: each step sets the scene with the
 * same named actions as the keys (actions.c), shows its narration with the
 * numbers measured on this machine filled in, and may wait for the learner
 * to do something before going on. */
#ifndef CONVIS_PLAYER_H
#define CONVIS_PLAYER_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson/lesson.h"

typedef struct scene scene;

typedef struct app_player {
    bool active;
    lsn_lesson lesson;
    char path[4096];
    int step;           /* the step shown, 0-based */
    bool waiting;       /* the step's wait action has not been done yet */
} app_player;

/* The lessons the window offers: every .yaml file in lessons/LANG/ under the data
 * folder, in file-name order, with their titles. */
#define APP_MAX_LESSONS 32
typedef struct app_lesson_entry {
    char path[4096];
    char title[128];
} app_lesson_entry;
int app_lesson_list(const char *lang, app_lesson_entry *out, int max);

/* Loads and checks a lesson file: its structure (lsn_load), and that every
 * action and wait names an action of the window. False with
 * "file:line:column: message" in err_msg(). */
bool app_lesson_load(const char *path, lsn_lesson *out);

/* Starts a lesson on the scene at its first step (opening its image, when it
 * names one). On failure the scene is unchanged and the banner says why. */
bool app_player_start(scene *s, const char *path);
void app_player_stop(scene *s);

/* Next and previous step; next does nothing while the step waits. */
void app_player_next(scene *s);
void app_player_prev(scene *s);
void app_player_restart(scene *s);

/* Tells the player the learner did `action` (its name), for waits. */
void app_player_saw(scene *s, const char *action);

/* The current step's narration with its placeholders filled from the
 * scene's measurements. */
void app_player_narration(const scene *s, char *buf, size_t size);

/* "Press G to go on", or "" when the step does not wait. */
void app_player_hint(const scene *s, char *buf, size_t size);

#endif
