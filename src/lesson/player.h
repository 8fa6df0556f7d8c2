/* player.h - a lesson played as a step machine.
 *
 * The player knows which step is shown and whether it waits for the learner;
 * it knows nothing of the scene, the window or the action table. Whoever
 * drives it (the app) runs a step's actions after start/next/prev/restart
 * moved to it, tells it what the learner did (lsn_player_saw), and asks it
 * for the narration, whose {placeholders} it fills through a lookup callback.
 *
 *   start ──> step 0 ──next──> step 1 ... ──next──> last step
 *              ^  <──prev──      |
 *              └──restart────────┘
 *   a step with `wait: A` holds next until saw(A); a step with `ask:`
 *   holds it until answered: right, or wrong twice (the first wrong answer
 *   gets the hint, the second the answer). */
#ifndef CONVIS_LESSON_PLAYER_H
#define CONVIS_LESSON_PLAYER_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"

/* Where a step's question stands: not asked (LSN_NONE: the step asks
 * nothing), open, open after a wrong answer (its hint shown), answered
 * right, or shown after a second wrong answer. */
typedef enum lsn_answer { LSN_NONE = 0, LSN_OPEN, LSN_HINTED, LSN_RIGHT, LSN_SHOWN } lsn_answer;

typedef struct lsn_player {
    bool active;
    lsn_lesson lesson; /* owned while active */
    int step;          /* the step shown, 0-based */
    bool waiting;      /* the step's wait action has not been done yet */
    lsn_answer asked;  /* the step's question: where its answers have got to */
    int tries;         /* the answers given to it so far */
} lsn_player;

/* Takes the lesson (the player owns it from now on; *lesson is left empty)
 * and moves to its first step. */
void lsn_player_start(lsn_player *p, lsn_lesson *lesson);

/* Frees the lesson; the player is inactive. */
void lsn_player_stop(lsn_player *p);

/* Move to another step: true when the step changed (the caller then runs
 * its actions). next does nothing while the step waits or at the last step,
 * prev nothing at the first; restart goes to step 0 from anywhere. */
bool lsn_player_next(lsn_player *p);
bool lsn_player_prev(lsn_player *p);
bool lsn_player_restart(lsn_player *p);

/* The learner did `action`: true when it was what the step waited for
 * (the wait is then over). */
bool lsn_player_saw(lsn_player *p, const char *action);

/* The learner answered the step's question, right or not: its new state
 * (LSN_RIGHT; LSN_HINTED after a first wrong answer; LSN_SHOWN after a
 * second); LSN_NONE when no question is open. */
lsn_answer lsn_player_answer(lsn_player *p, bool right);

/* The question cannot be checked here (no GPU engine to measure): it is let
 * go unanswered, as shown (LSN_SHOWN), and next is free. */
void lsn_player_let_go(lsn_player *p);

/* Whether the step's question is still to be answered (next is held). */
bool lsn_player_asking(const lsn_player *p);

/* The step shown, or NULL when no lesson plays. */
const lsn_step *lsn_player_current(const lsn_player *p);

/* Whether the step shown is the last one. */
bool lsn_player_at_end(const lsn_player *p);

/* Fills a placeholder's value into buf; false when the name is not known. */
typedef bool (*lsn_lookup)(const void *user, const char *name, char *buf, size_t size);

/* text with every {name} replaced by lookup's value and the line breaks
 * inside a paragraph joined, as the narration is (below): for a question's
 * hint, why and options and the teacher's notes. */
void lsn_fill(const char *text, lsn_lookup lookup, const void *user, char *buf, size_t size);

/* The step's narration for a machine `on` (its variant, else its say) with every {name} replaced by lookup's value ({{ and
 * }} are literal braces) and the line breaks inside a paragraph joined: by a
 * space, or by nothing between two characters outside ASCII (Chinese). A
 * name the lookup does not know shows as "?" (lesson --check refuses such a
 * lesson before it plays). "" when no lesson plays. */
void lsn_player_narration(const lsn_player *p, lsn_variant on, lsn_lookup lookup, const void *user, char *buf,
                          size_t size);

#endif
