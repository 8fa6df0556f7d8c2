/* narration.h - what a lesson says, with this machine's numbers: the one
 * table of placeholders ({cpu_seq_ms} ...) and their values, read from the
 * app (const), and the "your turn" hint of a step that waits. */
#ifndef CONVIS_NARRATION_H
#define CONVIS_NARRATION_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"

/* The placeholders the app fills, in table order; NULL-terminated. A test
 * holds it equal to the parser's list (lsn_placeholders). */
size_t app_placeholder_count(void);
const char *app_placeholder_name(size_t i);

/* The value of placeholder `name` now; false when it is not one. */
bool app_placeholder(const app *a, const char *name, char *buf, size_t size);

/* Which of a step's texts this machine gets: a real GPU (or a virtual one),
 * a software GPU (llvmpipe: this CPU), or none. CONVIS_TEST_MACHINE=gpu,
 * software, no-gpu or virtual pretends, for tests of the other texts. */
lsn_variant app_machine(const app *a);

/* The current step's narration, placeholders filled ("" outside a lesson);
 * on a virtual GPU, opened by a sentence saying its hardware is hidden. */
void app_narration(const app *a, char *buf, size_t size);

/* Keeps the step's words as they read now (the learner just did what it
 * waited for): app_narration says them while the step stays. */
void app_narration_keep(app *a);

/* The teacher's notes for the step shown (app_notes_of: both, the step's,
 * the lesson's; placeholders filled); "" when there are none. */
void app_notes(const app *a, int which, char *buf, size_t size);

/* app_hint, the "your turn" line: quiz.h. */

#endif
