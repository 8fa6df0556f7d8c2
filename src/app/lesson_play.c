/* lesson_play.c - a lesson in the window: starting and ending it, and the
 * actions of the step it moves to, run at once or between frames.
 * Contents: a lesson step's actions · lessons. */
#include "actions.h"
#include "actions_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "i18n.h"
#include "lessons.h"
#include "quiz.h"
#include "kernel_lab.h"

/* ---- a lesson step's actions --------------------------------------------------- */

/* Whether the action works on the whole image (convolves it, or makes one
 * larger): in the window, the step's next action waits for the next slice. */
static bool whole_image(const app_action *act)
{
    return act->id == ACT_GPU || act->id == ACT_APPLY_AGAIN || act->id == ACT_TOO_BIG;
}

/* A step's actions together are one script: checked on the image shown
 * before any runs; false with the sentence, at the action that goes over
 * a bound, in `msg`. */
static bool check_step(app *a, const lsn_step *st, char *msg, size_t size)
{
    app_tally tally;
    app_start_tally(&a->s, &tally);
    for (int k = 0; k < st->action_count; ++k) {
        char word[64];
        const char *p = st->actions[k].text;
        while (app_script_word(&p, word, sizeof word)) {
            const app_action *act;
            long times;
            if (!app_tally_word(&tally, word, &act, &times)) {
                snprintf(msg, size, "%s:%d:%d: %s", a->lesson_path, st->actions[k].line, st->actions[k].column,
                         err_msg());
                return false;
            }
        }
    }
    return true;
}

/* Moves the step's actions left to the next run of one (false, and none
 * due, at their end). Words that steer the lesson are passed over: a step
 * does not turn its pages (lesson --check says so). */
static bool rest_advance(app *a)
{
    const lsn_step *st = lsn_player_current(&a->player);
    app_step_rest *r = &a->rest;
    char word[64];
    if (!st)
        r->due = false;
    while (r->due && r->times == 0) {
        if (app_script_word(&r->next, word, sizeof word)) {
            app_action_word(word, &r->word, &r->times); /* checked (check_step) */
            if (app_action_steers(r->word))
                r->times = 0;
        } else if (++r->action < st->action_count) {
            r->next = st->actions[r->action].text;
        } else {
            r->due = false;
        }
    }
    return r->due;
}

/* Runs the step's actions left; they do not count as the learner's. At
 * once (`slices` false), each one's long work finished before the next
 * (a still, a GIF, a script). In the window's slices (true): until one
 * starts long work (tiles, a sweep) or works on the whole image, the rest
 * left for app_work, so that a frame is drawn and Esc and quit are read
 * between them. */
void app_step_go_on(app *a, bool slices)
{
    app_step_rest *r = &a->rest;
    while (rest_advance(a)) {
        if (scene_busy(&a->s)) {
            if (slices)
                return;
            scene_settle(&a->s);
        }
        --r->times;
        app_run_action(a, app_act_of(r->word));
        if (slices && whole_image(r->word)) {
            rest_advance(a);
            return;
        }
    }
}

bool app_step_due(const app *a)
{
    return a->rest.due;
}

bool app_work(app *a, double budget_ms)
{
    bool more = scene_work(&a->s, budget_ms);
    more = app_lab_work(a) || more;
    app_lab_news(a);
    if (a->rest.due && !scene_busy(&a->s)) {
        app_step_go_on(a, true);
        more = true;
    }
    return more || a->rest.due;
}

/* ---- lessons ------------------------------------------------------------------- */

/* Opens the image a lesson or step names; a file gone since the lesson was
 * checked is said in the banner. */
static void open_lesson_image(app *a, const char *image, int line, int column)
{
    char path[4096];
    if (app_lesson_image(a->lesson_path, image, line, column, path, sizeof path))
        scene_open_image(&a->s, path);
    else
        scene_say_error(&a->s, err_msg());
}

void app_step_enter(app *a)
{
    const lsn_step *st = lsn_player_current(&a->player);
    char msg[600];
    a->rest.due = false;
    a->said_step = -1;
    app_quiz_open(a);
    if (!st)
        return;
    if (st->image)
        open_lesson_image(a, st->image, st->image_line, st->image_column);
    if (!check_step(a, st, msg, sizeof msg)) {
        scene_say_error(&a->s, msg);
        return;
    }
    a->rest = (app_step_rest){st->action_count > 0, 0, st->action_count > 0 ? st->actions[0].text : "", NULL, 0};
    app_step_go_on(a, a->step_slices);
}

bool app_lesson_start(app *a, const char *path)
{
    lsn_lesson l;
    const char *lang = app_lesson_lang(path);
    char copy[sizeof a->lesson_path];
    snprintf(copy, sizeof copy, "%s", path); /* path may be the menu's, which the start may refill */
    if (!app_lesson_load(copy, &l)) {
        scene_say_error(&a->s, err_msg());
        return false;
    }
    app_lesson_stop(a); /* another lesson starts from free play too */
    snprintf(a->free_lang, sizeof a->free_lang, "%s", a->lang);
    scene_stash_settings(&a->s, &a->free_play, &a->defaults);
    a->edit_tap = -1;
    a->menu = a->help = false;
    snprintf(a->lesson_path, sizeof a->lesson_path, "%s", copy);
    if (lang) /* a lesson in lessons/zh/ is in Chinese: the text needs a font that has it */
        app_set_lang(a, lang);
    a->free_has_record = a->has_record;
    a->free_record = a->record;
    if (l.record) { /* read when the lesson was checked; again now, in case the file changed since */
        a->has_record = app_lesson_record(copy, &l, &a->record);
        if (!a->has_record) /* free play's record is no stand-in for the lesson's */
            scene_say_error(&a->s, err_msg());
    }
    lsn_player_start(&a->player, &l);
    if (a->player.lesson.image)
        open_lesson_image(a, a->player.lesson.image, a->player.lesson.image_line, a->player.lesson.image_column);
    app_step_enter(a);
    return true;
}

void app_lesson_stop(app *a)
{
    if (!app_in_lesson(a))
        return;
    lsn_player_stop(&a->player);
    a->rest.due = false;
    a->lesson_path[0] = '\0';
    a->edit_tap = -1;
    scene_unstash(&a->s, &a->free_play);
    a->has_record = a->free_has_record;
    a->record = a->free_record;
    if (a->free_lang[0])
        app_set_lang(a, a->free_lang);
}
