/* actions.c - app_do, the one input path: what each action of the table does,
 * what a key means now, and scripts (a lesson's steps and pages: lesson_play.c).
 * Contents: the kernel editor · app_do · keys · scripts. */
#include "actions.h"
#include "actions_internal.h"
#include "narration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "i18n.h"
#include "lessons.h"
#include "quiz.h"
#include "kernel_lab.h"
#include "core/keys.h"

app_act app_act_of(const app_action *action)
{
    app_act act = {action, action ? action->arg : 0, -1, -1, NULL};
    return act;
}

app_act app_act_id(app_action_id id)
{
    return app_act_of(app_action_of(id));
}

/* ---- the kernel editor -------------------------------------------------------- */

static void begin_edit(app *a, int tap)
{
    a->edit_tap = tap >= 0 && tap < a->s.opt.kernel.kw * a->s.opt.kernel.kh ? tap : 0;
    a->edit_text[0] = '\0';
}

/* A key typed into the kernel cell shown at edit_tap: digits, '-', '.',
 * Backspace, Enter (applies), Tab (applies, next cell), Esc (27, cancels).
 * The cell shown is the kernel's tap, or with the kernel flipped the tap
 * opposite it: the value goes where the learner sees it. */
static void edit_key(app *a, int key)
{
    size_t n = strlen(a->edit_text);
    if (a->edit_tap < 0)
        return;
    if ((key >= '0' && key <= '9') || key == '-' || key == '.') {
        if (n + 1 < sizeof a->edit_text) {
            a->edit_text[n] = (char)key;
            a->edit_text[n + 1] = '\0';
        }
    } else if (key == '\b') {
        if (n)
            a->edit_text[n - 1] = '\0';
    } else if (key == '\r' || key == '\t') {
        char *end;
        float v = strtof(a->edit_text, &end);
        int taps = a->s.opt.kernel.kw * a->s.opt.kernel.kh, shown = a->edit_tap, next = key == '\t' ? (shown + 1) % taps : -1;
        if (n && !*end && isfinite(v))
            scene_set_weight(&a->s, a->s.opt.flip ? taps - 1 - shown : shown, v);
        else if (n)
            scene_notice(&a->s, _("a kernel value must be a number such as -2, 0.5 or 4"));
        a->edit_tap = -1;
        if (next >= 0)
            begin_edit(a, next);
    } else if (key == 27) {
        a->edit_tap = -1;
    }
}

/* ---- app_do ------------------------------------------------------------------- */

static void next_text_scale(app *a)
{
    static const int scales[] = {100, 125, 150, 200};
    int i = 0;
    while (i < 4 && scales[i] != a->text_scale)
        ++i;
    a->text_scale = scales[(i + 1) % 4];
}

static void toggle_menu(app *a)
{
    a->menu = !a->menu;
    if (a->menu) {
        a->lesson_count = app_lesson_list(app_lang(a), a->lessons, APP_MAX_LESSONS);
        a->help = false;
    }
}

/* Esc: closes what is open, stops what runs, then leaves the lesson; quits
 * only from free play with nothing open. */
static void escape(app *a)
{
    scene *s = &a->s;
    if (a->edit_tap >= 0)
        a->edit_tap = -1;
    else if (a->help)
        a->help = false;
    else if (a->menu)
        a->menu = false;
    else if (a->blank)
        a->blank = false;
    else if (scene_busy(s) || a->rest.due) { /* the step's actions left go with the work */
        scene_cancel(s);
        a->rest.due = false;
    } else if (s->pinned)
        scene_unpin(s);
    else if (s->banner[0])
        scene_say_error(s, "");
    else if (scene_close_shown(s))
        ;
    else if (app_in_lesson(a))
        app_lesson_stop(a);
    else
        a->quit = true;
}

/* The actions that are one call of the scene with nothing more. */
static void (*const scene_call[ACT_COUNT])(scene *s) = {
    [ACT_PLAY] = scene_play,
    [ACT_TAP] = scene_tap,
    [ACT_STEP] = scene_step,
    [ACT_BACK] = scene_back,
    [ACT_FASTER] = scene_faster,
    [ACT_SLOWER] = scene_slower,
    [ACT_FINISH] = scene_finish,
    [ACT_RESTART] = scene_restart,
    [ACT_GPU] = scene_launch_gpu,
    [ACT_SWEEP] = scene_sweep,
    [ACT_FILTER_SWEEP] = scene_filter_sweep,
    [ACT_STRIDE] = scene_next_stride,
    [ACT_DILATION] = scene_next_dilation,
    [ACT_PADDING] = scene_next_padding,
    [ACT_CHANNELS] = scene_next_layer,
    [ACT_CHANNEL] = scene_next_channel,
    [ACT_APPLY_AGAIN] = scene_apply_again,
    [ACT_CHAIN] = scene_chain,
    [ACT_TOO_BIG] = scene_too_big,
    [ACT_BUDGET] = scene_next_budget,
    [ACT_THREADS] = scene_toggle_threads,
    [ACT_BLOCK_LIFE] = scene_block_life,
    [ACT_BLOCK_WARP] = scene_next_block_warp,
    [ACT_BLOCK_SHAPE] = scene_next_block_shape,
    [ACT_GPU_KERNEL] = scene_next_gpu_kernel,
    [ACT_GPU_ENGINE] = scene_next_gpu_engine,
    [ACT_GPU_RESULT] = scene_next_gpu_result,
    [ACT_BORDER] = scene_next_border,
    [ACT_FLIP] = scene_toggle_flip,
    [ACT_DISPLAY] = scene_next_display,
};

void app_run_action(app *a, app_act act)
{
    scene *s = &a->s;
    if (scene_call[act.action->id]) {
        scene_call[act.action->id](s);
        return;
    }
    switch (act.action->id) {
    case ACT_LESSON_NEXT:
        if (lsn_player_next(&a->player))
            app_step_enter(a);
        break;
    case ACT_LESSON_PREV:
        if (lsn_player_prev(&a->player))
            app_step_enter(a);
        break;
    case ACT_LESSON_RESTART:
        if (lsn_player_restart(&a->player))
            app_step_enter(a);
        break;
    case ACT_BUDGET_OFF: scene_set_budget(s, 0); break;
    case ACT_BLOCK_PICK: scene_block_pick(s, act.arg); break;
    case ACT_NEXT_FILTER:
    case ACT_PREV_FILTER:
        scene_next_filter(s, act.action->id == ACT_NEXT_FILTER ? 1 : -1);
        a->edit_tap = -1;
        break;
    case ACT_FILTER_SIZE:
        scene_resize_filter(s, act.action->arg);
        a->edit_tap = -1;
        break;
    case ACT_FILTER:
        scene_select_preset(s, act.arg);
        a->edit_tap = -1;
        break;
    case ACT_EDIT_KERNEL: begin_edit(a, act.arg); break;
    case ACT_EDIT_KEY: edit_key(a, act.arg); break;
    case ACT_ZOOM_IN: scene_zoom(s, 1); break;
    case ACT_ZOOM_OUT: scene_zoom(s, -1); break;
    case ACT_PAN_LEFT: scene_pan(s, -s->view_cells / 2, 0); break;
    case ACT_PAN_RIGHT: scene_pan(s, s->view_cells / 2, 0); break;
    case ACT_PAN_UP: scene_pan(s, 0, -s->view_cells / 2); break;
    case ACT_PAN_DOWN: scene_pan(s, 0, s->view_cells / 2); break;
    case ACT_VIEW_AT: scene_view_at(s, act.x, act.y); break;
    case ACT_CENTER_ON: scene_center_on(s, act.x, act.y); break;
    case ACT_HOVER: scene_hover(s, act.x >= 0 && act.y >= 0, act.x, act.y); break;
    case ACT_CHANNEL_PICK: scene_channel_pick(s, act.x, act.y); break;
    case ACT_PIN: act.x >= 0 && act.y >= 0 ? scene_pin_at(s, act.x, act.y) : scene_pin(s); break;
    case ACT_LESSONS: toggle_menu(a); break;
    case ACT_PICK_LESSON:
        if (act.arg >= 0 && act.arg < a->lesson_count) {
            char path[sizeof a->lessons[0].path];
            snprintf(path, sizeof path, "%s", a->lessons[act.arg].path);
            a->menu = false;
            app_lesson_start(a, path);
        }
        break;
    case ACT_LEAVE_LESSON: app_lesson_stop(a); break;
    case ACT_ANSWER: app_quiz_pick(a, act.arg); break;
    case ACT_ANSWER_KEY: app_quiz_key(a, act.arg); break;
    case ACT_ANSWER_AT: app_quiz_click(a, act.x, act.y); break;
    case ACT_NOTES: a->notes = !a->notes; break;
    case ACT_LAB: app_lab_toggle(a); break;
    case ACT_HELP: a->help = !a->help; break;
    case ACT_BLANK: a->blank = !a->blank; break;
    case ACT_TEXT_SIZE: next_text_scale(a); break;
    case ACT_PRESENTER: a->presenter = !a->presenter; break;
    case ACT_FULLSCREEN: a->fullscreen_request = true; break;
    case ACT_SCREENSHOT: a->screenshot_request = true; break;
    case ACT_RECORD_GIF: a->gif_request = true; break;
    case ACT_OPEN: (void)(act.text && scene_open_image(s, act.text)); break;
    case ACT_ESCAPE: escape(a); break;
    case ACT_LARGE: scene_show(s, s->area == SCENE_AREA_LARGE ? SCENE_AREA_GRIDS : SCENE_AREA_LARGE); break;
    case ACT_QUIT: a->quit = true; break;
    default: break; /* ACT_COUNT, and the table's above */
    }
}

void app_do(app *a, app_act act)
{
    const lsn_step *st = lsn_player_current(&a->player);
    if (!act.action)
        return;
    if (st && a->player.waiting && st->wait && strcmp(st->wait, act.action->name) == 0)
        app_narration_keep(a); /* the words that asked for it, kept */
    app_run_action(a, act);
    lsn_player_saw(&a->player, act.action->name); /* a wait ends however the learner did it */
}

/* ---- keys ---------------------------------------------------------------------- */

/* A key while a question is open: its digits, Enter and Backspace (a
 * number), its options' numbers (a choice); false when the key is not the
 * question's. */
static bool quiz_key(const app *a, int key, app_act *out)
{
    const lsn_ask *ask = app_quiz_open_ask(a);
    if (!ask)
        return false;
    if (ask->kind == LSN_ASK_NUMBER &&
        ((key >= '0' && key <= '9') || key == '-' || key == '.' || key == '\b' || key == '\r' ||
         (key == PLAT_KEY_ESCAPE && a->quiz.typed[0]))) {
        *out = app_act_id(ACT_ANSWER_KEY);
        out->arg = key == PLAT_KEY_ESCAPE ? 27 : key;
        return true;
    }
    if (ask->kind == LSN_ASK_CHOICE && key >= '1' && key < '1' + ask->option_count) {
        *out = app_act_id(ACT_ANSWER);
        out->arg = key - '1';
        return true;
    }
    return false;
}

app_act app_act_for_key(const app *a, int key, unsigned mods)
{
    app_act act = {NULL, 0, -1, -1, NULL};
    if (a->edit_tap >= 0) { /* typing a kernel value: other keys do nothing meanwhile */
        if ((key >= '0' && key <= '9') || key == '-' || key == '.' || key == '\b' || key == '\r' || key == '\t' ||
            key == PLAT_KEY_ESCAPE) {
            act = app_act_id(ACT_EDIT_KEY);
            act.arg = key == PLAT_KEY_ESCAPE ? 27 : key;
        }
        return act;
    }
    if (a->blank) /* any key brings the screen back */
        return app_act_id(ACT_BLANK);
    if (quiz_key(a, key, &act)) /* a question open: its digits, Enter, its options' numbers */
        return act;
    if (a->menu && key >= '1' && key <= '9') { /* the menu of lessons: a number picks one */
        act = app_act_id(ACT_PICK_LESSON);
        act.arg = key - '1';
        return act;
    }
    if (app_in_lesson(a) && a->player.waiting) { /* the key of what the step waits for does that */
        const app_action *wanted = app_action_find(lsn_player_current(&a->player)->wait);
        const app_action *plain = app_action_for_key(key, mods, false);
        if (wanted && plain == wanted)
            return app_act_of(wanted);
    }
    return app_act_of(app_action_for_key(key, mods, app_in_lesson(a)));
}

/* ---- scripts ------------------------------------------------------------------- */

void app_start_tally(const scene *s, app_tally *t)
{
    memset(t, 0, sizeof *t);
    t->pixels = (long long)s->img.luma.w * s->img.luma.h;
    t->too_big = scene_too_big_pixels(s);
}

/* The whole script checked before any of it runs: every word known, every
 * action within its bound for one script, its work on whole images within
 * APP_SCRIPT_MOST_WORK at the image's size. */
static bool check_script(const scene *s, const char *script)
{
    app_tally tally;
    char word[64];
    const char *p = script;

    app_start_tally(s, &tally);
    while (app_script_word(&p, word, sizeof word)) {
        const app_action *act;
        long times;
        if (!app_tally_word(&tally, word, &act, &times))
            return false;
    }
    return true;
}

void app_lab_news(app *a)
{
    if (a->lab.right_news) { /* as an action, through the one input path: a lesson's step may wait for it */
        a->lab.right_news = false;
        app_do(a, app_act_id(ACT_LAB_RIGHT));
    }
}

void app_settle(app *a)
{
    app_step_go_on(a, false);
    scene_settle(&a->s);
    app_lab_settle(a);
    app_lab_news(a);
}

bool app_run_script(app *a, const char *script)
{
    char word[64];
    const char *p = script;
    if (!check_script(&a->s, script))
        return false;
    /* each word as a person does it (the lesson player told), its work
     * finished before the next, as the window would between frames */
    while (app_script_word(&p, word, sizeof word)) {
        const app_action *action;
        long times;
        app_action_word(word, &action, &times); /* checked above */
        while (times-- > 0) {
            if (scene_busy(&a->s) || a->rest.due)
                app_settle(a);
            app_do(a, app_act_of(action));
        }
        app_settle(a);
    }
    return true;
}
