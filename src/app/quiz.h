/* quiz.h - a lesson step's question in the window (lessons/README.md,
 * "Questions"): the learner types a number, picks an option or clicks a
 * cell; the answer is checked against the fact convis computes or measures
 * now (quiz_facts.c), a first wrong answer gets the hint, a second the
 * answer, and every answer goes to the attempts file (attempts.c). The
 * player (lesson/player.h) holds the step until the question is settled. */
#ifndef CONVIS_QUIZ_H
#define CONVIS_QUIZ_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"

/* ---- the question shown (quiz.c) ----------------------------------------------- */

/* The step shown opened: its question (if any) starts afresh. */
void app_quiz_open(app *a);

/* The question shown and open (NULL when there is none or it is settled). */
const lsn_ask *app_quiz_open_ask(const app *a);

/* A key typed into a number question: digits, '.', '-', Backspace ('\b'),
 * Enter ('\r': the answer is checked), Esc (27: what is typed goes). */
void app_quiz_key(app *a, int key);
/* Option `i` (0-based) of a choice picked. */
void app_quiz_pick(app *a, int i);
/* Cell (x, y) clicked, of the grid the question asks about. */
void app_quiz_click(app *a, int x, int y);

/* The answer said without the learner's (the handout, --render-steps):
 * the question is let go with convis's answer and its why shown. */
void app_quiz_reveal(app *a);

/* What the panel says under the question: the options, what is typed,
 * the hint after a wrong answer, the answer and its why once settled
 * (placeholders filled by lookup, given the app). "" when the step asks
 * nothing. */
void app_quiz_text(const app *a, lsn_lookup lookup, char *buf, size_t size);

/* The teacher's notes for the step shown: its own, the lesson's, or both
 * (the step's first), placeholders filled by lookup; "" when there are none. */
typedef enum app_notes_of { APP_NOTES_BOTH, APP_NOTES_STEP, APP_NOTES_LESSON } app_notes_of;
void app_quiz_notes(const app *a, app_notes_of which, lsn_lookup lookup, char *buf, size_t size);

/* Appends text to buf as a paragraph: a blank line before it when buf holds some. */
void app_paragraph(char *buf, size_t size, const char *text);

/* "Your turn: press G to go on" for a step that waits, the question's
 * prompt for one that asks, or "" (quiz.c: the learner's turn, either way). */
void app_hint(const app *a, char *buf, size_t size);

/* The prompt for the panel's last line ("Type a number, then Enter"), or
 * "" when no question is open. */
void app_quiz_prompt(const app *a, char *buf, size_t size);


/* ---- the facts (quiz_facts.c) --------------------------------------------------- */

/* A fact's value now: a number, or a choice's answer ("faster"), in words
 * for the learner ("2,304", "faster"). known false: convis cannot tell yet
 * ("not measured yet", in `said`) or, `never`, cannot here at all (no GPU
 * engine). */
typedef struct app_fact {
    bool known, never;
    double number;
    char choice[16];
    char said[256];
} app_fact;

void app_fact_value(const app *a, const char *fact, app_fact *f);

/* A click fact: whether cell (x, y) is one of its cells now; `said`
 * describes them ("any of the 9 cells from (3, 4) to (5, 6)"). */
bool app_fact_click(const app *a, const char *fact, int x, int y, app_fact *f);

/* Whether a click fact's cells are outputs (the output grid), else inputs. */
bool app_fact_on_output(const char *fact);

/* Whether the grids hide what the open question asks (the window of the
 * output it is about): the view then draws no window. */
bool app_quiz_hides_window(const app *a);

/* The output a click question is about: the pinned one, else the walk's. */
void app_quiz_focus(const app *a, int *x, int *y);

/* ---- the attempts file (attempts.c) --------------------------------------------- */

/* One answer, as it is saved. */
typedef struct app_attempt {
    char lesson[128]; /* the lesson file's name without .yaml */
    char lang[8];
    int step;         /* 1-based */
    const char *kind; /* "number", "choice", "click" */
    const char *fact;
    char answer[96], expected[256];
    bool correct;
    int try_no;     /* 1 for the first answer to the question */
    double seconds; /* since the question opened */
    char time[32];  /* UTC, ISO 8601 */
    char machine[256];
} app_attempt;

/* The attempts file to use: $XDG_DATA_HOME/convis/attempts.json (else
 * ~/.local/share/convis/attempts.json); "" when neither is known. */
void app_attempts_default(char *buf, size_t size);

/* Adds one record to the file at `path` (made with its folder if missing):
 * the file is read, the record appended and the whole written to a new file
 * moved over it, so a crash leaves the old or the new. A file that is not
 * an attempts file convis wrote is never touched: false with the sentence
 * in err_msg(), as for a failed write. */
bool app_attempts_add(const char *path, const app_attempt *r);

#endif
