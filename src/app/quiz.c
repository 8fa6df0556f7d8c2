/* quiz.c - the step's question as the learner answers it (quiz.h): keys,
 * picks and clicks, the check against the fact, the hint and the answer,
 * and the record of each answer. */
#define _POSIX_C_SOURCE 200809L
#include "quiz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "action_table.h"
#include "core/err.h"
#include "format.h"
#include "i18n.h"
#include "lessons.h"
#include "record.h"

static const lsn_ask *shown_ask(const app *a)
{
    const lsn_step *st = lsn_player_current(&a->player);
    return st && st->ask.kind ? &st->ask : NULL;
}

const lsn_ask *app_quiz_open_ask(const app *a)
{
    return lsn_player_asking(&a->player) ? shown_ask(a) : NULL;
}

bool app_quiz_hides_window(const app *a)
{
    const lsn_ask *q = app_quiz_open_ask(a);
    return q && q->kind == LSN_ASK_CLICK && !app_fact_on_output(q->fact);
}

void app_quiz_open(app *a)
{
    app_quiz *q = &a->quiz;
    q->typed[0] = q->given[0] = q->answer[0] = q->note[0] = '\0';
    q->asked_at = scene_now(&a->s);
}

/* ---- the record ------------------------------------------------------------------ */

static const char *kind_name(lsn_ask_kind k)
{
    return k == LSN_ASK_NUMBER ? "number" : k == LSN_ASK_CHOICE ? "choice" : "click";
}

/* The machine in a line: its CPU and what ran the GPU phase. */
static void machine_line(const app *a, char *buf, size_t size)
{
    char cpu[128];
    rec_cpu_model(cpu, sizeof cpu);
    snprintf(buf, size, "%s; %s", cpu,
             a->s.gpu.eng.engine ? eng_description(a->s.gpu.eng.engine) : "no GPU engine");
}

/* The record of an answer: `answer` as given and `expected`, convis's,
 * as a teacher reads them (a choice's keys: "faster", not "1"). */
static void save(app *a, const lsn_ask *ask, bool correct, const char *answer, const char *expected)
{
    app_attempt r;
    const char *base = strrchr(a->lesson_path, '/'), *lang = app_lesson_lang(a->lesson_path);
    time_t now = time(NULL);
    struct tm tm;
    size_t n;
    if (!a->quiz.attempts[0])
        return;
    memset(&r, 0, sizeof r);
    snprintf(r.lesson, sizeof r.lesson, "%s", base ? base + 1 : a->lesson_path);
    n = strlen(r.lesson);
    if (n > 5 && !strcmp(r.lesson + n - 5, ".yaml"))
        r.lesson[n - 5] = '\0';
    snprintf(r.lang, sizeof r.lang, "%s", lang ? lang : app_lang(a));
    r.step = a->player.step + 1;
    r.kind = kind_name(ask->kind);
    r.fact = ask->fact;
    snprintf(r.answer, sizeof r.answer, "%s", answer);
    snprintf(r.expected, sizeof r.expected, "%s", expected);
    r.correct = correct;
    r.try_no = a->player.tries;
    r.seconds = (scene_now(&a->s) - a->quiz.asked_at) / 1000.0;
    gmtime_r(&now, &tm);
    strftime(r.time, sizeof r.time, "%Y-%m-%dT%H:%M:%SZ", &tm);
    machine_line(a, r.machine, sizeof r.machine);
    if (!app_attempts_add(a->quiz.attempts, &r) && !a->quiz.attempts_said) {
        char msg[700];
        snprintf(msg, sizeof msg, _("Your answers are not being saved: %s"), err_msg());
        scene_say_error(&a->s, msg);
        a->quiz.attempts_said = true;
    }
}

/* ---- checking ------------------------------------------------------------------- */

/* The answer given, checked: the player told, convis's answer kept once
 * the question is settled, the record saved. */
static void settle(app *a, const lsn_ask *ask, bool right, const char *answer, const char *given_key,
                   const char *answer_key)
{
    lsn_answer now = lsn_player_answer(&a->player, right);
    a->quiz.note[0] = '\0';
    snprintf(a->quiz.answer, sizeof a->quiz.answer, "%s", answer);
    save(a, ask, right, given_key ? given_key : a->quiz.given, answer_key ? answer_key : answer);
    if (now == LSN_HINTED)
        a->quiz.answer[0] = '\0'; /* not said yet: the hint first */
}

/* A fact convis could not give: said, the answer not counted; where it
 * never can here, the question is let go. */
static bool unknown(app *a, const app_fact *f)
{
    if (f->known)
        return false;
    if (f->never) {
        snprintf(a->quiz.note, sizeof a->quiz.note, _("convis cannot check this here: %s"), f->said);
        lsn_player_let_go(&a->player);
    } else {
        snprintf(a->quiz.note, sizeof a->quiz.note, _("Not checked yet: %s. Answer again in a moment."), f->said);
    }
    return true;
}

/* The number typed: digits with at most one '.', a '-' first; false for anything else. */
static bool typed_number(const char *s, double *v)
{
    char *end;
    if (!*s || strspn(s, "-0123456789.") != strlen(s))
        return false;
    *v = strtod(s, &end);
    return !*end && isfinite(*v);
}

static void check_number(app *a, const lsn_ask *ask)
{
    app_fact f;
    double v, room;
    if (!typed_number(a->quiz.typed, &v)) {
        if (a->quiz.typed[0])
            snprintf(a->quiz.note, sizeof a->quiz.note, "%s", _("An answer here is a number, such as 42 or 2.5."));
        return;
    }
    app_fact_value(a, ask->fact, &f);
    if (unknown(a, &f))
        return;
    snprintf(a->quiz.given, sizeof a->quiz.given, "%s", a->quiz.typed);
    a->quiz.typed[0] = '\0';
    room = ask->relative ? ask->within * fabs(f.number) : ask->within;
    settle(a, ask, fabs(v - f.number) <= room + 1e-9 * fmax(1.0, fabs(f.number)), f.said, NULL, NULL);
}

void app_quiz_key(app *a, int key)
{
    const lsn_ask *ask = app_quiz_open_ask(a);
    char *t = a->quiz.typed;
    size_t n = strlen(t);
    if (!ask || ask->kind != LSN_ASK_NUMBER)
        return;
    if (((key >= '0' && key <= '9') || key == '.' || (key == '-' && n == 0)) && n + 1 < sizeof a->quiz.typed) {
        t[n] = (char)key;
        t[n + 1] = '\0';
    } else if (key == '\b' && n) {
        t[n - 1] = '\0';
    } else if (key == 27) {
        t[0] = '\0';
    } else if (key == '\r') {
        check_number(a, ask);
    }
}

void app_quiz_pick(app *a, int i)
{
    const lsn_ask *ask = app_quiz_open_ask(a);
    app_fact f;
    if (!ask || ask->kind != LSN_ASK_CHOICE || i < 0 || i >= ask->option_count)
        return;
    app_fact_value(a, ask->fact, &f);
    if (unknown(a, &f))
        return;
    snprintf(a->quiz.given, sizeof a->quiz.given, "%d (%s)", i + 1, ask->options[i].text);
    for (int k = 0; k < ask->option_count; ++k)
        if (!strcmp(ask->options[k].key, f.choice))
            snprintf(f.said, sizeof f.said, "%d (%s)", k + 1, ask->options[k].text); /* the option's number and words */
    settle(a, ask, !strcmp(ask->options[i].key, f.choice), f.said, ask->options[i].key, f.choice);
}

void app_quiz_click(app *a, int x, int y)
{
    const lsn_ask *ask = app_quiz_open_ask(a);
    app_fact f;
    bool in;
    if (!ask || ask->kind != LSN_ASK_CLICK)
        return;
    in = app_fact_click(a, ask->fact, x, y, &f);
    if (unknown(a, &f))
        return;
    snprintf(a->quiz.given, sizeof a->quiz.given, "(%d, %d)", x, y);
    settle(a, ask, in, f.said, NULL, NULL);
}

void app_quiz_reveal(app *a)
{
    const lsn_ask *ask = app_quiz_open_ask(a);
    app_fact f;
    if (!ask)
        return;
    if (ask->kind == LSN_ASK_CLICK)
        app_fact_click(a, ask->fact, -1, -1, &f);
    else
        app_fact_value(a, ask->fact, &f);
    if (ask->kind == LSN_ASK_CHOICE)
        for (int k = 0; k < ask->option_count; ++k)
            if (f.known && !strcmp(ask->options[k].key, f.choice))
                snprintf(f.said, sizeof f.said, "%d (%s)", k + 1, ask->options[k].text);
    a->quiz.given[0] = a->quiz.note[0] = '\0';
    snprintf(a->quiz.answer, sizeof a->quiz.answer, "%s", f.said);
    lsn_player_let_go(&a->player);
}

/* ---- what the panel says ----------------------------------------------------------- */

/* Appends text to buf (n bytes used) on a line of its own, after a blank
 * line when `apart`. */
static size_t add(char *buf, size_t size, size_t n, const char *text, bool apart)
{
    if (n >= size || !text[0])
        return n;
    n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? (apart ? "\n\n" : "\n") : "", text);
    return n < size ? n : size - 1;
}

void app_quiz_text(const app *a, lsn_lookup lookup, char *buf, size_t size)
{
    const lsn_ask *ask = shown_ask(a);
    char line[2048], text[1536];
    size_t n = 0;
    lsn_answer state = a->player.asked;
    buf[0] = '\0';
    if (!ask || !size)
        return;
    for (int i = 0; ask->kind == LSN_ASK_CHOICE && i < ask->option_count; ++i) {
        lsn_fill(ask->options[i].text, lookup, a, text, sizeof text);
        snprintf(line, sizeof line, "%d  %s", i + 1, text);
        n = add(buf, size, n, line, false);
    }
    if (ask->kind == LSN_ASK_NUMBER && lsn_player_asking(&a->player)) {
        snprintf(line, sizeof line, _("Your answer: %s_"), a->quiz.typed);
        n = add(buf, size, n, line, false);
    }
    n = add(buf, size, n, a->quiz.note, true);
    if (state == LSN_HINTED) {
        lsn_fill(ask->hint, lookup, a, text, sizeof text);
        snprintf(line, sizeof line, _("Not quite: you answered %s. Hint: %s"), a->quiz.given, text);
        n = add(buf, size, n, line, true);
    } else if (state == LSN_RIGHT || state == LSN_SHOWN) {
        lsn_fill(ask->why, lookup, a, text, sizeof text);
        if (state == LSN_RIGHT)
            snprintf(line, sizeof line, _("Right: %s. %s"), a->quiz.answer, text);
        else if (a->quiz.given[0])
            snprintf(line, sizeof line, _("Not quite: you answered %s; here the answer is %s. %s"), a->quiz.given,
                     a->quiz.answer, text);
        else if (a->quiz.answer[0])
            snprintf(line, sizeof line, _("Here the answer is %s. %s"), a->quiz.answer, text);
        else
            snprintf(line, sizeof line, "%s", text);
        n = add(buf, size, n, line, true);
    }
}

void app_paragraph(char *buf, size_t size, const char *text)
{
    size_t n = strlen(buf);
    if (text[0] && n + 2 < size)
        snprintf(buf + n, size - n, "%s%s", n ? "\n\n" : "", text);
}

void app_quiz_notes(const app *a, app_notes_of which, lsn_lookup lookup, char *buf, size_t size)
{
    const lsn_step *st = lsn_player_current(&a->player);
    char text[2048];
    buf[0] = '\0';
    if (!st || !size)
        return;
    lsn_fill(which != APP_NOTES_LESSON ? st->notes : NULL, lookup, a, text, sizeof text);
    app_paragraph(buf, size, text);
    lsn_fill(which != APP_NOTES_STEP ? a->player.lesson.notes : NULL, lookup, a, text, sizeof text);
    app_paragraph(buf, size, text);
}

void app_quiz_prompt(const app *a, char *buf, size_t size)
{
    const lsn_ask *ask = app_quiz_open_ask(a);
    buf[0] = '\0';
    if (!ask)
        return;
    if (ask->kind == LSN_ASK_NUMBER)
        snprintf(buf, size, "%s", _("Your turn: type a number, then Enter"));
    else if (ask->kind == LSN_ASK_CHOICE)
        snprintf(buf, size, _("Your turn: press the number of your answer, 1 to %d"), ask->option_count);
    else
        snprintf(buf, size, "%s",
                 app_fact_on_output(ask->fact) ? _("Your turn: click your answer on the output grid")
                                               : _("Your turn: click your answer on the input grid"));
}

void app_hint(const app *a, char *buf, size_t size)
{
    const lsn_step *st = lsn_player_current(&a->player);
    const app_action *act;
    const char *form = _("Your turn: press %s to go on");
    if (lsn_player_asking(&a->player)) {
        app_quiz_prompt(a, buf, size);
        return;
    }
    if (!st || !a->player.waiting) {
        buf[0] = '\0';
        return;
    }
    act = app_action_find(st->wait);
    if (act && act->id == ACT_LAB_RIGHT) /* the lab does it, not a key */
        snprintf(buf, size, "%s", _("Your turn: save your kernel; the step opens once every output is right"));
    else if (act && act->id == ACT_FILTER) /* filter-N: the key is N */
        snprintf(buf, size, form, act->name + 7);
    else if (act && act->keys) { /* "R  Home": either key, said so */
        char keys[96];
        size_t n = 0;
        for (const char *k = act->keys; *k && n + 8 < sizeof keys; ++k) {
            if (k[0] == ' ' && k[1] == ' ') {
                n += (size_t)snprintf(keys + n, sizeof keys - n, "%s", _(" or "));
                while (k[1] == ' ')
                    ++k;
            } else {
                keys[n++] = *k;
            }
        }
        keys[n] = '\0';
        snprintf(buf, size, form, keys);
    } else
        snprintf(buf, size, _("Your turn: do '%s' to go on"), st->wait);
}
