/* app.h - the window's whole state: the scene (the model), the lesson that
 * plays, free play's settings while it does, and the overlays and requests
 * around them (help, the lesson menu, blanking, text size, kernel editing,
 * quit, fullscreen, screenshot). actions.c changes it (app_do, the one
 * input path); the view reads it as const; window.c runs it. */
#ifndef CONVIS_APP_H
#define CONVIS_APP_H

#include <stdbool.h>

#include "lab_check.h"
#include "lesson/player.h"
#include "record.h"
#include "scene.h"
#include "settings.h"

#define APP_MAX_LESSONS 32

typedef struct app_lesson_entry {
    char path[4096];
    char title[128];
} app_lesson_entry;

/* Where a lesson step's actions are: the `do:` entry, its next word, and
 * the action under way with the runs of it left. */
typedef struct app_step_rest {
    bool due; /* some are left to run */
    int action;
    const char *next; /* in the player's lesson: valid while the step is */
    const struct app_action *word;
    long times;
} app_step_rest;

/* The question the step shown asks, as the learner answers it (quiz.c):
 * what is typed, the last answer given, convis's answer once said, and the
 * attempts file every answer goes to. */
typedef struct app_quiz {
    char typed[24];    /* a number being typed */
    char given[96];    /* the last answer given, in words ("42", "the GPU engine", "(3, 4)") */
    char answer[256];  /* convis's answer in words, once right or shown */
    char note[256];    /* why an answer could not be checked yet ("not measured yet") */
    char attempts[4096]; /* the attempts file ("": answers are not saved) */
    bool attempts_said;  /* that it cannot be written has been said */
    double asked_at;     /* when the question opened (scene_now), for the time an answer took */
} app_quiz;

/* The kernel lab in the window (kernel_lab.c): the learner's file, the
 * check under way, the last one's results. */
typedef struct app_lab {
    bool shown;
    char path[4096];          /* the learner's kernel file */
    long long seen_ns;        /* its modification time when last checked (-1: check it) */
    double next_look;         /* scene_now: when to look at the file again */
    lab_job job;              /* the check under way (job.pid 0: none) */
    bool running, has_report;
    lab_report report;        /* the last check's results */
    unsigned char *wrong;     /* its wrong outputs (w*h, 1: wrong), or NULL */
    int status;               /* how the last check ended (lab_job_poll) */
    char note[768];           /* what the view says besides: the file copied, why no check ran */
    unsigned long generation; /* counts the checks: the view's picture is of one */
    bool right_news;          /* the last check found the kernel right: the action lab-right is due */
    unsigned long checked_gen; /* the scene's measure_gen the last check was for: another filter or image checks again */
} app_lab;

typedef struct app {
    scene s;
    app_options defaults;  /* what a lesson starts from: the command line's settings */
    scene_stash free_play; /* free play's settings and image while a lesson plays */

    /* the lesson that plays, if any */
    lsn_player player;
    /* the step's words as they read when the learner did what it waited
     * for: kept while the step stays, so its figures do not change under
     * the sentence that asked for the action (narration.c) */
    char said[4096];
    int said_step; /* the step they are of; -1: none */
    char said_lang[8];
    char lesson_path[4096];
    app_step_rest rest; /* the step's actions left (actions.c) */
    app_quiz quiz;      /* the step's question (quiz.c) */
    app_lab lab;        /* the kernel lab (kernel_lab.c) */
    bool notes;         /* the teacher's notes shown (Shift+N; never by default) */
    bool step_slices;   /* the window's: a step's actions after long work or work on the whole
                                 * image wait for a slice between frames (app_work); else all at once */
    char lang[8];       /* of text and lessons: "en" or "zh" */
    char free_lang[8];  /* free play's, while a lesson plays */

    /* overlays */
    bool help, menu, blank;
    int text_scale; /* percent: 100, 125, 150, 200 */
    bool presenter; /* presenter mode: what a room must read is sized from the window's height */
    int edit_tap;   /* kernel cell being typed into, as shown (-1 none) */
    char edit_text[24];
    app_lesson_entry lessons[APP_MAX_LESSONS]; /* the menu */
    int lesson_count;

    /* a recorded run drawn beside the live ones (--record FILE, or the
     * lesson's record: while it plays; free play's waits meanwhile) */
    bool has_record;
    app_record record;
    bool free_has_record;
    app_record free_record;

    /* what the window is asked to do */
    bool quit, fullscreen_request, screenshot_request;
    bool gif_request; /* start or stop recording a GIF (the window does it) */
} app;

/* Sets up the app and its scene (scene_init) with no image and no lesson;
 * the language from `lang`, or from the locale when NULL. */
void app_init(app *a, const scene_host *host, const app_options *opt, const char *lang);
void app_free(app *a);

bool app_in_lesson(const app *a);

/* The language in force ("en", "zh"). */
const char *app_lang(const app *a);
/* Sets the language of the words shown (i18n_set_lang) and of the fonts. */
void app_set_lang(app *a, const char *lang);

#endif
