/* lessons.h - lesson files as the app uses them: loading one and checking
 * it against the window (its actions and waits name actions of the table,
 * its images resolve inside the lesson's folder or convis's assets), the
 * menu of lessons in a language, and `convis lesson`. Playing is
 * lesson/player.h's step machine, driven by actions.c. */
#ifndef CONVIS_LESSONS_H
#define CONVIS_LESSONS_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"
#include "lesson/lesson.h"

/* Loads and checks a lesson file: its structure (lsn_load), that every
 * action and wait names an action of the window, that its images are
 * there. False with "file:line:column: message" in err_msg(). */
bool app_lesson_load(const char *path, lsn_lesson *out);

/* A lesson's image file, resolved beside the lesson file (or in a folder
 * under it), else among convis's own images, links followed and confined to
 * those folders: true with the real path in buf; false with
 * "file:line:column: ..." in err_msg(). */
/* Whether convis has a language: en, or one with lessons/<lang>/ or a
 * catalogue (po/<lang>.po, compiled). Two or three small letters. */
bool app_lang_known(const char *lang);

bool app_lesson_image(const char *lesson_path, const char *image, int line, int column, char *buf, size_t size);

/* Reads the lesson's record (its `record:`), beside the lesson or among
 * convis's records (records/); false with "file:line:column: sentence". */
bool app_lesson_record(const char *lesson_path, const lsn_lesson *l, app_record *r);

/* The language of a lesson: the name of the folder it is in when that is a
 * language convis has ("en", "zh"), else NULL. */
const char *app_lesson_lang(const char *path);

/* The lessons the window offers: every .yaml file in lessons/LANG/ under the
 * data folder, in file-name order, with their titles. */
int app_lesson_list(const char *lang, app_lesson_entry *out, int max);

#endif
