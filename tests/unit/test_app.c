/* test_app.c - the window's model in-process, with no window: the app, its
 * scene and the one input path (app_do), driven with the CPU engines (and,
 * in test_app_mock, the CUDA engine on the CPU stand-in).
 *
 * Contents: a host and a fresh app · every action of the table · lesson
 * waits by key and by click · Esc in a lesson · a lesson's start state ·
 * flipped kernel editing · scripts and their bounds · long work in slices ·
 * placeholders · a seeded soak of random actions (CONVIS_SOAK_ACTIONS, 2000
 * by default; ctest gives it 60), its state checked after every action and its memory bounded. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "actions.h"
#include "app.h"
#include "core/err.h"
#include "core/timing.h"
#include "data.h"
#include "lesson/lesson.h"
#include "lessons.h"
#include "filter_text.h"
#include "format.h"
#include "i18n.h"
#include "narration.h"
#include "quiz.h"
#include "record.h"
#include "core/keys.h"
#include "state.h"
#include "check.h"

/* ---- a host and a fresh app --------------------------------------------------- */

static double fake_now;

static eng_engine *open_engine(void *user, const char *name, char *why, size_t size)
{
    const eng_class *cls = eng_find(name);
    (void)user;
    if (!cls) {
        snprintf(why, size, "this build has no %s engine", name);
        return NULL;
    }
    return eng_open_reason(cls, why, size);
}

static double clock_ms(void *user)
{
    (void)user;
    return fake_now;
}

/* An app on the sample image, settings as the window's defaults, filter
 * `kernel` (as -k reads it). */
static void fresh_on(app *a, const char *kernel)
{
    scene_host host = {open_engine, NULL, NULL, clock_ms, NULL};
    app_options opt;
    char path[4096];
    app_options_default(&opt, kernel);
    opt.display = IMG_DISPLAY_ABS;
    opt.limits.max_pixels = 1 << 20; /* keeps too-big and the soak small */
    app_init(a, &host, &opt, "en");
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    if (!scene_open_image(&a->s, path)) {
        fprintf(stderr, "cannot open the sample image: %s\n", a->s.banner);
        exit(1);
    }
    scene_settle(&a->s);
}

static void fresh(app *a)
{
    fresh_on(a, "sobel-x");
}

static void run_name(app *a, const char *name)
{
    const app_action *act = app_action_find(name);
    CHECK(act != NULL, "no action '%s'", name);
    app_do(a, app_act_of(act));
    scene_settle(&a->s);
}

static const app_key *first_key(const app_action *act)
{
    return act->key[0].code ? &act->key[0] : NULL;
}

/* The state every action must leave: a region inside the image, a walk
 * inside it, a focus on a pixel, overlays consistent. */
static void check_valid(const app *a, const char *after)
{
    const scene *s = &a->s;
    int w = s->img.luma.w, h = s->img.luma.h, fx, fy;
    bool from_stepper;
    CHECK(s->img.luma.px && w > 0 && h > 0, "no image after %s", after);
    CHECK(s->view_cells >= SCENE_MIN_CELLS && s->view_cells <= SCENE_MAX_CELLS, "view_cells %d after %s", s->view_cells,
          after);
    CHECK(s->view_x >= 0 && s->view_y >= 0 && (s->view_x == 0 || s->view_x + s->view_cells <= w) &&
              (s->view_y == 0 || s->view_y + s->view_cells <= h),
          "region (%d, %d) of %d cells outside %dx%d after %s", s->view_x, s->view_y, s->view_cells, w, h, after);
    CHECK(s->walk.stepper.index >= 0 && s->walk.stepper.index <= (long)w * h, "walk at %ld after %s",
          s->walk.stepper.index, after);
    scene_focus(s, &fx, &fy, &from_stepper);
    CHECK(fx >= 0 && fy >= 0 && fx < w && fy < h, "focus (%d, %d) outside after %s", fx, fy, after);
    CHECK(s->walk.speed >= SCENE_MIN_SPEED && s->walk.speed <= SCENE_MAX_SPEED, "speed %g after %s", s->walk.speed,
          after);
    CHECK(a->edit_tap >= -1 && a->edit_tap < s->opt.kernel.kw * s->opt.kernel.kh, "edit_tap %d of %d taps after %s",
          a->edit_tap, s->opt.kernel.kw * s->opt.kernel.kh, after);
    CHECK(!a->player.active || (a->player.step >= 0 && a->player.step < a->player.lesson.step_count),
          "lesson step %d after %s", a->player.step, after);
    CHECK(s->sweep.count >= 0 && s->sweep.count <= SCENE_SWEEP_SIZES, "sweep count %d after %s", s->sweep.count, after);
}

/* ---- every action of the table -------------------------------------------------- */

static void test_every_action(void)
{
    for (size_t i = 0; i < app_action_count(); ++i) {
        const app_action *act = app_action_at(i);
        app a;
        app_act x;
        fresh(&a);
        x = app_act_of(act);
        if (act->takes == APP_ARG_XY)
            x.x = 3, x.y = 2;
        app_do(&a, x);
        scene_settle(&a.s);
        check_valid(&a, act->name);
        switch (act->id) {
        case ACT_QUIT: CHECK(a.quit, "quit did not quit"); break;
        case ACT_ESCAPE: CHECK(a.quit, "Esc with nothing open in free play quits"); break;
        case ACT_STEP: CHECK(scene_cpu_done(&a.s) == 1, "step: %ld outputs done", scene_cpu_done(&a.s)); break;
        case ACT_TAP: CHECK(a.s.walk.stepper.taps == 1, "tap: %d taps", a.s.walk.stepper.taps); break;
        case ACT_GPU:
            CHECK(a.s.gpu.eng.engine ? a.s.phase == SCENE_PHASE_GPU : a.s.phase == SCENE_PHASE_CPU,
                  "gpu: phase %d with engine %p", a.s.phase, (void *)a.s.gpu.eng.engine);
            break;
        case ACT_FILTER: CHECK(a.s.preset == act->arg, "%s: preset %d", act->name, a.s.preset); break;
        case ACT_FLIP: CHECK(a.s.opt.flip, "flip"); break;
        case ACT_HELP: CHECK(a.help, "help"); break;
        case ACT_THREADS: CHECK(a.s.thread_view, "threads"); break;
        case ACT_SWEEP:
            CHECK((a.s.area == SCENE_AREA_SWEEP) && a.s.sweep.count == SCENE_SWEEP_SIZES &&
                      a.s.sweep.ms[SWEEP_SEQ][0] >= 0 && a.s.sweep.ms[SWEEP_PAR][SCENE_SWEEP_SIZES - 1] >= 0,
                  "sweep: shown %d, %d sizes", (a.s.area == SCENE_AREA_SWEEP), a.s.sweep.count);
            for (int z = 0; z < SCENE_SWEEP_SIZES; ++z) /* one core's vector lanes, the step lessons 1, 7, 8 build on */
                CHECK(a.s.sweep.ms[SWEEP_SIMD][z] > 0, "sweep: cpu-simd measured at %dx%d too", a.s.sweep.size[z],
                      a.s.sweep.size[z]);
            break;
        case ACT_CHAIN:
            CHECK((a.s.chart == SCENE_CHART_CHAIN) && a.s.chain.ms[0] >= 0 && a.s.chain.length == SCENE_CHAIN_LENGTH,
                  "chain: shown %d, cpu %g ms", (a.s.chart == SCENE_CHART_CHAIN), a.s.chain.ms[0]);
            break;
        case ACT_APPLY_AGAIN:
            CHECK(a.s.passes == 1 && strcmp(a.s.image_name, "sample.png") == 0, "apply-again: %d passes of '%s'",
                  a.s.passes, a.s.image_name);
            break;
        case ACT_EDIT_KERNEL: CHECK(a.edit_tap == 0, "edit-kernel: cell %d", a.edit_tap); break;
        case ACT_PIN: CHECK(!a.s.pinned, "pin with nothing under the mouse pins nothing"); break;
        case ACT_HOVER: CHECK(a.s.hovering && a.s.hover_x == 3 && a.s.hover_y == 2, "hover (3, 2)"); break;
        case ACT_LESSONS:
            CHECK(a.menu && a.lesson_count >= 8, "lessons: menu %d with %d lessons", a.menu, a.lesson_count);
            break;
        default: break;
        }
        app_free(&a);
    }
}

/* ---- lessons -------------------------------------------------------------------- */

static void lesson_path(const char *lang, const char *file, char *buf, size_t size)
{
    snprintf(buf, size, "%s/lessons/%s/%s", app_data_dir(), lang, file);
}

/* Answers the question shown right, as a learner would: the digits of
 * convis's figure and Enter, the number of the right option (by_key), or
 * the action a click on the right cell gives. The fact must be known when
 * the question is asked: the lesson measured what it asks about first. */
static void answer_right(app *a, const char *path, bool by_key)
{
    const lsn_ask *q = app_quiz_open_ask(a);
    app_fact f;
    char digits[32];
    int step = a->player.step + 1;
    if (!q)
        return;
    if (q->kind == LSN_ASK_CLICK) {
        bool found = false;
        for (int y = 0; y < a->s.img.luma.h && !found; ++y)
            for (int x = 0; x < a->s.img.luma.w && !found; ++x)
                if (app_fact_click(a, q->fact, x, y, &f)) {
                    app_act act = app_act_id(ACT_ANSWER_AT);
                    act.x = x, act.y = y;
                    app_do(a, act);
                    found = true;
                }
        CHECK(found, "%s step %d: no cell answers '%s'", path, step, q->fact);
    } else {
        app_fact_value(a, q->fact, &f);
        CHECK(f.known || f.never, "%s step %d: '%s' is not known when asked: %s", path, step, q->fact, f.said);
        if (f.never) { /* no GPU engine here: any answer lets the question go, the reason said */
            app_do(a, app_act_for_key(a, q->kind == LSN_ASK_CHOICE ? '1' : '0', 0));
            app_do(a, app_act_for_key(a, '\r', 0));
            CHECK(a->player.asked == LSN_SHOWN, "%s step %d: '%s' cannot be known here, and the question is let go",
                  path, step, q->fact);
            return;
        }
        if (!f.known)
            return;
        if (q->kind == LSN_ASK_NUMBER) {
            snprintf(digits, sizeof digits, "%.0f", f.number);
            for (const char *d = digits; *d; ++d)
                app_do(a, by_key ? app_act_for_key(a, *d, 0) : (app_act){app_action_of(ACT_ANSWER_KEY), *d, -1, -1, NULL});
            app_do(a, by_key ? app_act_for_key(a, '\r', 0) : (app_act){app_action_of(ACT_ANSWER_KEY), '\r', -1, -1, NULL});
        } else {
            for (int i = 0; i < q->option_count; ++i)
                if (!strcmp(q->options[i].key, f.choice)) {
                    app_act act = app_act_id(ACT_ANSWER);
                    act.arg = i;
                    app_do(a, by_key ? app_act_for_key(a, '1' + i, 0) : act);
                }
        }
    }
    CHECK(a->player.asked == LSN_RIGHT, "%s step %d: the right answer to '%s' was not taken (%d)", path, step, q->fact,
          (int)a->player.asked);
}

/* Plays every step of every lesson, doing what each wait asks by its key
 * (by_key) or by the click's action (what the view's hit test returns): the
 * lesson must reach its last step either way. */
static void test_waits(bool by_key)
{
    app_lesson_entry list[APP_MAX_LESSONS];
    int n = app_lesson_list("en", list, APP_MAX_LESSONS);
    CHECK(n >= 8, "%d English lessons", n);
    for (int i = 0; i < n; ++i) {
        app a;
        fresh(&a);
        CHECK(app_lesson_start(&a, list[i].path), "start %s: %s", list[i].path, err_msg());
        for (int guard = 0; guard < 100 && !lsn_player_at_end(&a.player); ++guard) {
            int before = a.player.step;
            answer_right(&a, list[i].path, by_key);
            if (a.player.waiting) {
                const app_action *act = app_action_find(lsn_player_current(&a.player)->wait);
                const app_key *k = act ? first_key(act) : NULL;
                CHECK(act != NULL, "%s: wait names no action", list[i].path);
                if (!act)
                    break;
                if (by_key && k) {
                    app_act x = app_act_for_key(&a, k->code, k->mods);
                    CHECK(x.action == act, "%s: the key of '%s' means '%s' in the lesson", list[i].path, act->name,
                          x.action ? x.action->name : "nothing");
                    app_do(&a, x);
                } else {
                    app_do(&a, app_act_of(act)); /* a click on its chip or button */
                }
                scene_settle(&a.s);
                CHECK(!a.player.waiting, "%s step %d: still waiting after '%s'", list[i].path, before + 1, act->name);
            }
            /* the clicker's page-down key turns the page in a lesson */
            app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, 0));
            scene_settle(&a.s);
            CHECK(a.player.step == before + 1, "%s: stuck at step %d", list[i].path, before + 1);
            if (a.player.step != before + 1)
                break;
            check_valid(&a, list[i].path);
        }
        CHECK(lsn_player_at_end(&a.player), "%s did not reach its end", list[i].path);
        answer_right(&a, list[i].path, by_key);
        app_free(&a);
    }
}

/* Lesson 8 waits for the display chip: a click on it (the action the view
 * returns for the chip) ends the wait, as D does. It was stuck before. */
static void test_click_ends_wait(void)
{
    app a;
    char path[4096];
    fresh(&a);
    lesson_path("en", "08-your-own-image.yaml", path, sizeof path);
    CHECK(app_lesson_start(&a, path), "start lesson 8: %s", err_msg());
    for (int guard = 0; guard < 50 && a.player.active; ++guard) {
        const lsn_step *st = lsn_player_current(&a.player);
        if (a.player.waiting && strcmp(st->wait, "display") == 0)
            break;
        if (a.player.waiting)
            run_name(&a, st->wait);
        app_do(&a, app_act_id(ACT_LESSON_NEXT));
    }
    CHECK(a.player.waiting, "lesson 8 has a step that waits for display");
    app_do(&a, app_act_id(ACT_DISPLAY));
    CHECK(!a.player.waiting, "a click on the display chip ends the wait");
    app_free(&a);
}

/* Esc in a lesson leaves the lesson for free play, never the program; the
 * settings free play had come back; Q quits. */
static void test_escape_and_start_state(void)
{
    app a;
    char path[4096];
    int cells;
    fresh(&a);
    CHECK(app_run_script(&a, "flip,border,display,zoom-in,zoom-in,pan-right,threads"), "script: %s", err_msg());
    cells = a.s.view_cells;
    CHECK(a.s.opt.flip && a.s.view_cells < SCENE_DEFAULT_CELLS, "free play is flipped and zoomed");
    lesson_path("en", "01-one-at-a-time.yaml", path, sizeof path);
    CHECK(app_lesson_start(&a, path), "start lesson 1: %s", err_msg());
    /* the lesson starts from the defaults, not from free play's settings */
    CHECK(!a.s.opt.flip && a.s.opt.border == a.defaults.border && a.s.opt.display == a.defaults.display,
          "lesson 1 inherits flip %d border %d display %d", a.s.opt.flip, a.s.opt.border, a.s.opt.display);
    CHECK(a.s.view_cells == SCENE_DEFAULT_CELLS && !a.s.thread_view, "lesson 1 inherits zoom %d, thread view %d",
          a.s.view_cells, a.s.thread_view);
    {
        int x = conv_stepper_x(&a.s.walk.stepper), y = conv_stepper_y(&a.s.walk.stepper);
        CHECK(x >= a.s.view_x && x < a.s.view_x + a.s.view_cells && y >= a.s.view_y && y < a.s.view_y + a.s.view_cells,
              "the 3x3 window's output (%d, %d) is on screen", x, y);
    }
    app_do(&a, app_act_id(ACT_HELP));
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!a.help && app_in_lesson(&a), "Esc first closes the help");
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!app_in_lesson(&a) && !a.quit, "Esc leaves the lesson and does not quit");
    CHECK(a.s.opt.flip && a.s.view_cells == cells && a.s.thread_view && strcmp(a.s.image_name, "sample.png") == 0,
          "free play's settings come back: flip %d cells %d threads %d image %s", a.s.opt.flip, a.s.view_cells,
          a.s.thread_view, a.s.image_name);
    check_valid(&a, "leaving a lesson");
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(a.quit, "Esc in free play with nothing open quits");
    a.quit = false;
    CHECK(app_lesson_start(&a, path), "start lesson 1 again");
    app_do(&a, app_act_for_key(&a, 'q', 0));
    CHECK(a.quit, "Q quits, in a lesson too");
    app_free(&a);
}

static char lesson_dir[64]; /* the folder of the lessons written here */

/* A lesson file in a fresh folder; returns its path in buf. */
static void write_lesson(const char *name, const char *text, char *buf, size_t size)
{
    char *dir = lesson_dir;
    FILE *f;
    if (!dir[0]) {
        snprintf(dir, sizeof lesson_dir, "/tmp/convis-test_app.XXXXXX");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    snprintf(buf, size, "%s/%s", dir, name);
    f = fopen(buf, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(buf);
        exit(1);
    }
}

static void remove_lessons(void)
{
    static const char *const names[] = {"steer.yaml", "keys.yaml", "machines.yaml", "work.yaml", "slices.yaml", "ask.yaml"};
    char path[128];
    if (!lesson_dir[0])
        return;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        snprintf(path, sizeof path, "%s/%s", lesson_dir, names[i]);
        remove(path);
    }
    rmdir(lesson_dir);
}

/* A step may wait for what steers the lesson, never do it: a step that left
 * the lesson or turned its page freed the step it ran (and one that
 * restarted it ran itself forever). */
static void test_steps_do_not_steer(void)
{
    static const char *const steering[] = {"leave-lesson", "lesson-restart", "lesson-next",
                                           "escape",       "lessons",        "quit"};
    for (size_t i = 0; i < sizeof steering / sizeof steering[0]; ++i) {
        char text[256], path[512];
        lsn_lesson l;
        snprintf(text, sizeof text, "title: Steering\nsteps:\n  - say: one\n    do: [step, %s]\n  - say: two\n",
                 steering[i]);
        write_lesson("steer.yaml", text, path, sizeof path);
        CHECK(!app_lesson_load(path, &l), "a step doing '%s' is refused", steering[i]);
        CHECK(strstr(err_msg(), ":4:") && strstr(err_msg(), steering[i]), "the sentence points at it: %s", err_msg());
    }
}

/* In a lesson the page keys turn pages, but the key of what the step waits
 * for does that (a wait for "step" is met by the arrow the hint names), and
 * Shift+PageDown steps the walk. */
static void test_lesson_keys(void)
{
    app a;
    char path[512];
    fresh(&a);
    write_lesson("keys.yaml",
                 "title: Keys\nsteps:\n  - say: Press the arrow.\n    wait: step\n  - say: Two.\n  - say: Three.\n",
                 path, sizeof path);
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    app_do(&a, app_act_for_key(&a, PLAT_KEY_RIGHT, 0));
    CHECK(!a.player.waiting && scene_cpu_done(&a.s) == 1, "→ did the step it waited for (%ld done)",
          scene_cpu_done(&a.s));
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, 0));
    CHECK(a.player.step == 1, "PageDown turns the page: step %d", a.player.step + 1);
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, PLAT_MOD_SHIFT));
    CHECK(a.player.step == 1 && scene_cpu_done(&a.s) == 2, "Shift+PageDown steps the walk: step %d, %ld done",
          a.player.step + 1, scene_cpu_done(&a.s));
    app_do(&a, app_act_for_key(&a, PLAT_KEY_HOME, 0));
    CHECK(a.player.step == 0, "Home: the lesson's first step");
    app_free(&a);
}

/* The step's words stay as they read when the learner did what it waited
 * for: a figure it names does not change under the sentence that asked for
 * the action (lesson 4 read "… one bulk copy back … Press C to bring the
 * result back in one bulk copy instead"); the next step reads it anew. */
static void test_lesson_words_kept(void)
{
    app a;
    char path[512], before[1024], after[1024];
    fresh(&a);
    write_lesson("kept.yaml",
                 "title: Kept\nsteps:\n  - say: Now pass {passes}. Press A.\n    wait: apply-again\n  - say: Then "
                 "pass {passes}.\n",
                 path, sizeof path);
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    app_narration(&a, before, sizeof before);
    run_name(&a, "apply-again");
    app_narration(&a, after, sizeof after);
    CHECK(!a.player.waiting && strcmp(before, after) == 0 && strstr(before, "pass 0."),
          "the words kept after A: '%s', then '%s'", before, after);
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, 0));
    app_narration(&a, after, sizeof after);
    {
        char now[256];
        CHECK(app_placeholder(&a, "passes", now, sizeof now) && !strcmp(now, "1") && strstr(after, "pass 1."),
              "the next step reads the figure as it is now ('%s'): '%s' after '%s'", now, after, before);
    }
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_UP, 0));
    app_narration(&a, after, sizeof after);
    CHECK(a.player.step == 0 && strstr(after, "Now ") != NULL, "back: the step's words made afresh: '%s'", after);
    app_free(&a);
}

/* A lesson started from inside another still gives free play back. */
static void test_lesson_in_lesson(void)
{
    app a;
    char one[4096], two[4096];
    fresh(&a);
    run_name(&a, "flip");
    run_name(&a, "apply-again");
    lesson_path("en", "01-one-at-a-time.yaml", one, sizeof one);
    lesson_path("en", "05-steps-that-wait.yaml", two, sizeof two);
    CHECK(app_lesson_start(&a, one), "lesson 1");
    run_name(&a, "apply-again");
    CHECK(app_lesson_start(&a, two), "lesson 5 from lesson 1");
    CHECK(!a.s.opt.flip && a.s.passes == 0, "lesson 5 starts fresh: flip %d, %d passes", a.s.opt.flip, a.s.passes);
    app_lesson_stop(&a);
    CHECK(a.s.opt.flip && a.s.passes == 1 && strcmp(a.s.image_name, "sample.png") == 0,
          "free play comes back: flip %d, %d passes of %s", a.s.opt.flip, a.s.passes, a.s.image_name);
    check_valid(&a, "two lessons");
    app_free(&a);
}

/* ---- kernel editing ------------------------------------------------------------- */

/* With the kernel flipped, the cell highlighted is the one that changes. */
static void test_flipped_edit(void)
{
    app a;
    conv_params p;
    fresh(&a);
    run_name(&a, "filter-6"); /* sobel-x: -1 0 1 / -2 0 2 / -1 0 1 */
    run_name(&a, "flip");
    app_do(&a, app_act_for_key(&a, 'e', 0));
    CHECK(a.edit_tap == 0, "E edits the top-left cell");
    app_do(&a, app_act_for_key(&a, '7', 0));
    app_do(&a, app_act_for_key(&a, '\r', 0));
    p = conv_params_make(&a.s.opt.kernel, a.s.opt.border, a.s.opt.flip);
    CHECK(p.weight[0] == 7.0f, "the top-left cell shown is %g, not 7", (double)p.weight[0]);
    CHECK(a.s.opt.kernel.weight[8] == 7.0f && a.s.opt.kernel.weight[0] == -1.0f,
          "flipped: the kernel's last tap holds it (%g, first %g)", (double)a.s.opt.kernel.weight[8],
          (double)a.s.opt.kernel.weight[0]);
    /* a click on a cell edits that cell; Tab moves on */
    {
        app_act x = app_act_id(ACT_EDIT_KERNEL);
        x.arg = 4;
        app_do(&a, x);
    }
    CHECK(a.edit_tap == 4, "a click edits cell 4");
    app_do(&a, app_act_for_key(&a, '-', 0));
    app_do(&a, app_act_for_key(&a, '3', 0));
    app_do(&a, app_act_for_key(&a, '\t', 0));
    CHECK(a.s.opt.kernel.weight[4] == -3.0f && a.edit_tap == 5, "Tab applies -3 and moves to cell 5");
    app_do(&a, app_act_for_key(&a, PLAT_KEY_ESCAPE, 0));
    CHECK(a.edit_tap == -1 && !a.quit, "Esc ends editing only");
    app_free(&a);
}

/* ---- filters of other sizes: the walk, the state, editing ------------------------ */

/* Whether the state lines of `a` hold `line` as one of them. */
static bool state_has(const app *a, const char *line)
{
    char *text = NULL, *at;
    size_t size = 0, n = strlen(line);
    bool found = false;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return false;
    app_print_state(a, f);
    fclose(f);
    for (at = text; (at = strstr(at, line)) != NULL; ++at)
        if ((at == text || at[-1] == '\n') && (at[n] == '\n' || at[n] == '\0'))
            found = true;
    free(text);
    return found;
}

/* The walk over a kw x kh filter goes tap by tap, kw*kh of them, each the
 * product of the pixel under it (read here row by row around the output)
 * and its weight, the running sum their sum; at the last tap the output is
 * what conv_pixel gives, and the next tap begins the next output. The
 * state prints every weight; editing reaches every cell, Tab wraps, and
 * with the kernel flipped a cell lands on the opposite tap. */
static void sized_walk(const char *filter, int kw, int kh)
{
    app a;
    conv_params p;
    const conv_stepper *st;
    const img_plane *in;
    int n = kw * kh, x, y, t = 0;
    long index = 2L * 512 + 40; /* output (40, 2): the window reaches past the top for kh > 5 */
    float sum = 0.0f;
    char line[128];
    fresh_on(&a, filter);
    st = &a.s.walk.stepper;
    in = &a.s.img.luma;
    CHECK(a.s.opt.kernel.kw == kw && a.s.opt.kernel.kh == kh && st->count == n, "%s: %dx%d, %d taps an output",
          filter, a.s.opt.kernel.kw, a.s.opt.kernel.kh, st->count);
    p = conv_params_make(&a.s.opt.kernel, a.s.opt.border, a.s.opt.flip);
    for (long i = 0; i < index; ++i)
        run_name(&a, "step");
    run_name(&a, "step");
    CHECK(st->index == index && st->taps == n, "%s: step*%ld ends on output %ld with its %d taps (%ld, %d)", filter,
          index + 1, index, n, st->index, st->taps);
    run_name(&a, "tap");
    CHECK(st->index == index + 1 && st->taps == 1, "%s: the tap after the last begins the next output", filter);
    run_name(&a, "back");
    x = conv_stepper_x(st);
    y = conv_stepper_y(st);
    for (int j = -(kh / 2); j <= kh / 2; ++j)
        for (int i = -(kw / 2); i <= kw / 2; ++i, ++t) {
            float v = conv_sample(in->px, in->w, in->h, x + i, y + j, a.s.opt.border);
            run_name(&a, "tap");
            sum += v * p.weight[t];
            CHECK(st->taps == t + 1 && st->value[t] == v && st->product[t] == v * p.weight[t] && st->sum == sum,
                  "%s: tap %d of %d reads %g (the walk: %g) and sums %g (the walk: %g)", filter, t + 1, n, (double)v,
                  (double)st->value[t], (double)sum, (double)st->sum);
        }
    CHECK(a.s.cpu_out.px[st->index] == conv_pixel(in->px, in->w, in->h, x, y, &p) &&
              sum / p.divisor == a.s.cpu_out.px[st->index],
          "%s: output (%d, %d) is %g, conv_pixel %g", filter, x, y, (double)a.s.cpu_out.px[st->index],
          (double)conv_pixel(in->px, in->w, in->h, x, y, &p));
    snprintf(line, sizeof line, "taps=%d", n);
    CHECK(state_has(&a, line), "%s: the state says %s", filter, line);
    snprintf(line, sizeof line, "filter_size=%dx%d", kw, kh);
    CHECK(state_has(&a, line), "%s: the state says %s", filter, line);
    {
        char weights[8192] = "weights=";
        for (int k = 0; k < n; ++k)
            snprintf(weights + strlen(weights), sizeof weights - strlen(weights), "%g%s",
                     (double)a.s.opt.kernel.weight[k], k < n - 1 ? "," : "");
        CHECK(state_has(&a, weights), "%s: the state prints its %d weights", filter, n);
    }
    /* playing: speed outputs a second, every tap of each */
    run_name(&a, "restart");
    run_name(&a, "play");
    for (int k = 0; k < 4; ++k)
        scene_update(&a.s, 250);
    CHECK(conv_stepper_done_count(st) == (long)a.s.walk.speed, "%s: a second's play does %g outputs (%ld)", filter,
          a.s.walk.speed, conv_stepper_done_count(st));
    run_name(&a, "play");
    /* editing: a click on the last cell, Tab wraps to the first */
    {
        app_act e = app_act_id(ACT_EDIT_KERNEL);
        e.arg = n - 1;
        app_do(&a, e);
    }
    CHECK(a.edit_tap == n - 1, "%s: a click edits the last cell (%d)", filter, a.edit_tap);
    app_do(&a, app_act_for_key(&a, '5', 0));
    app_do(&a, app_act_for_key(&a, '\t', 0));
    CHECK(a.s.opt.kernel.weight[n - 1] == 5.0f && a.edit_tap == 0 && a.s.opt.kernel.kw == kw &&
              a.s.opt.kernel.kh == kh && a.s.walk.stepper.count == n,
          "%s: Tab applies 5 to the last tap, keeps the size and wraps to cell 0 (%d)", filter, a.edit_tap);
    app_do(&a, app_act_for_key(&a, PLAT_KEY_ESCAPE, 0));
    run_name(&a, "flip");
    app_do(&a, app_act_for_key(&a, 'e', 0));
    app_do(&a, app_act_for_key(&a, '7', 0));
    app_do(&a, app_act_for_key(&a, '\r', 0));
    CHECK(a.s.opt.kernel.weight[n - 1] == 7.0f, "%s: flipped, the first cell shown is the last tap (%g)", filter,
          (double)a.s.opt.kernel.weight[n - 1]);
    app_free(&a);
}

static void test_sized_filters(void)
{
    sized_walk("box:5", 5, 5);
    sized_walk("1; 2; 3; 4; 5; 6; 7", 1, 7);
    sized_walk("motion:9", 9, 1);
    sized_walk("gaussian:1.5", 11, 11);
}

/* ] and [: the same kind of filter 2 more or less a side, the 3x3 preset
 * again at 3; a filter of one size stays, and a notice says why. */
static void test_filter_resize(void)
{
    app a;
    char buf[400];
    fresh(&a);
    run_name(&a, "filter-2");
    run_name(&a, "bigger-filter");
    run_name(&a, "bigger-filter");
    CHECK(strcmp(a.s.opt.kernel.name, "box:7") == 0 && a.s.opt.kernel.kw == 7 && a.s.preset == -1,
          "box, bigger twice: %s %dx%d", a.s.opt.kernel.name, a.s.opt.kernel.kw, a.s.opt.kernel.kh);
    CHECK(strstr(a.s.notice, "7\xC3\x97" "7: 49 products") != NULL, "the notice: %s", a.s.notice);
    app_filter_name(&a, buf, sizeof buf);
    CHECK(strcmp(buf, "Box blur, 7\xC3\x97" "7") == 0, "{filter}: %s", buf);
    app_filter_taps(&a, buf, sizeof buf);
    CHECK(strcmp(buf, "49") == 0, "{taps}: %s", buf);
    app_tile_reuse(&a, buf, sizeof buf); /* 16x16: a 22x22 tile, 228 halo, 12,544 reads of 484 cells */
    CHECK(strstr(buf, "22\xC3\x97" "22 tile, 228 cells of it halo (47%)") && strstr(buf, "12,544") &&
              strstr(buf, "25.9 reads a cell"),
          "{tile_reuse}: %s", buf);
    app_input_tile_idle(&a, buf, sizeof buf); /* 16x16 threads, 10x10 compute */
    CHECK(strstr(buf, "computes 100 outputs; 156 of its 256 threads (61%)") != NULL, "{input_tile_idle}: %s", buf);
    run_name(&a, "smaller-filter");
    run_name(&a, "smaller-filter");
    CHECK(a.s.preset == 1 && strcmp(a.s.opt.kernel.name, "box") == 0, "back at 3: the box preset (%d, %s)", a.s.preset,
          a.s.opt.kernel.name);
    run_name(&a, "smaller-filter");
    run_name(&a, "smaller-filter");
    CHECK(strcmp(a.s.opt.kernel.name, "box:1") == 0, "box down to 1 and no further: %s (%s)", a.s.opt.kernel.name,
          a.s.notice);
    for (int i = 0; i < 20; ++i)
        run_name(&a, "bigger-filter");
    CHECK(strcmp(a.s.opt.kernel.name, "box:31") == 0 && strstr(a.s.notice, "31"), "up to 31: %s (%s)",
          a.s.opt.kernel.name, a.s.notice);
    run_name(&a, "filter-3");
    run_name(&a, "bigger-filter");
    CHECK(a.s.opt.kernel.kw == 5 && strncmp(a.s.opt.kernel.name, "gaussian:", 9) == 0, "gaussian 5: %s",
          a.s.opt.kernel.name);
    run_name(&a, "filter-6");
    run_name(&a, "bigger-filter");
    CHECK(strcmp(a.s.opt.kernel.name, "sobel-x:5") == 0 && a.s.opt.kernel.weight[0] == -1 &&
              a.s.opt.kernel.weight[10] == -6,
          "sobel-x grows to OpenCV's 5x5: %s", a.s.opt.kernel.name);
    run_name(&a, "filter-4");
    run_name(&a, "bigger-filter");
    CHECK(strcmp(a.s.opt.kernel.name, "sharpen") == 0 && strstr(a.s.notice, "has one size"), "sharpen stays: %s",
          a.s.notice);
    app_free(&a);
}

/* Shift+W: the filter sweep measures every engine at six sides on the
 * image shown, of the filter shown's kind (box for one of one size). */
static void test_filter_sweep(void)
{
    app a;
    char buf[400];
    fresh_on(&a, "sharpen"); /* of one size: the sweep is box's */
    app_filter_sweep_growth(&a, buf, sizeof buf);
    CHECK(strstr(buf, "no filter sweep yet") != NULL, "before: %s", buf);
    app_filter_sweep_roofline(&a, buf, sizeof buf);
    CHECK(strstr(buf, "no filter sweep yet") != NULL, "{filter_sweep_roofline} before: %s", buf);
    run_name(&a, "filter-sweep");
    CHECK(a.s.area == SCENE_AREA_FILTER_SWEEP && a.s.filter_sweep.count == SCENE_SWEEP_SIZES &&
              a.s.filter_sweep.w == 512 && a.s.filter_sweep.h == 384 &&
              strcmp(a.s.filter_sweep.kind.name, "box") == 0 && a.s.filter_sweep.size[5] == 15,
          "the filter sweep: area %d, %d sides, %dx%d, %s", a.s.area, a.s.filter_sweep.count, a.s.filter_sweep.w,
          a.s.filter_sweep.h, a.s.filter_sweep.kind.name);
    for (int i = 0; i < SCENE_SWEEP_SIZES; ++i)
        CHECK(a.s.filter_sweep.ms[SWEEP_SEQ][i] > 0 && a.s.filter_sweep.ms[SWEEP_PAR][i] > 0 &&
                  a.s.filter_sweep.ms[SWEEP_SIMD][i] > 0,
              "side %d measured on the CPU engines", a.s.filter_sweep.size[i]);
    CHECK(a.s.sweep.count == 0, "the size sweep's figures are its own: %d", a.s.sweep.count);
    for (int i = 0; i < SCENE_SWEEP_SIZES; ++i)
        CHECK(a.s.filter_sweep.sep_ms[i] > 0 && a.s.filter_sweep.sep_total[i] == 512 * 384 &&
                  a.s.filter_sweep.sep_differ[i] >= 0 && a.s.filter_sweep.sep_differ[i] <= 512 * 384 &&
                  (a.s.filter_sweep.sep_differ[i] == 0) == (a.s.filter_sweep.sep_max_ulp[i] == 0),
              "side %d: the two passes timed and compared: %g ms, %ld differ by %llu ULPs", a.s.filter_sweep.size[i],
              a.s.filter_sweep.sep_ms[i], a.s.filter_sweep.sep_differ[i], a.s.filter_sweep.sep_max_ulp[i]);
    app_filter_sweep_separable(&a, buf, sizeof buf);
    CHECK(strstr(buf, "at 15\xC3\x97" "15, 30 taps an output against 225: the two passes on one thread took ") &&
              strstr(buf, "cpu-simd (one thread, the same vector lanes, the whole window)") && strstr(buf, "2-D result"),
          "{filter_sweep_separable}: %s", buf);
    app_filter_sweep_growth(&a, buf, sizeof buf);
    CHECK(strstr(buf, "from 3\xC3\x97" "3 to 15\xC3\x97" "15, 25\xC3\x97 the products: cpu-seq took ") != NULL &&
              strstr(buf, "cpu-par"),
          "{filter_sweep_growth}: %s", buf);
    app_filter_sweep_roofline(&a, buf, sizeof buf);
    CHECK(strstr(buf, "cpu-par went from 2.38 operations a byte at 3\xC3\x97" "3 to 56.4 at 15\xC3\x97" "15 and from ") &&
              strstr(buf, "GFLOP/s, under roofs of ") && strstr(buf, "(the ridge at "),
          "{filter_sweep_roofline}: %s", buf);
    /* the roofline: each CPU engine's roofs measured, its points where the counts put them */
    for (int k = 0; k < SCENE_SWEEP_ENGINES; ++k) {
        double in = 0, g = 0;
        if (k == SWEEP_GPU)
            continue;
        CHECK(a.s.filter_sweep.roofs_ok[k] && a.s.filter_sweep.roofs[k].memory_gb_s > 0 &&
                  a.s.filter_sweep.roofs[k].compute_gflops > 0,
              "engine %d's roofs measured: %s", k, a.s.filter_sweep.roofs_why[k]);
        CHECK(scene_filter_sweep_point(&a.s, k, 0, &in, &g) && in == 19.0 / 8 &&
                  fabs(g - 512.0 * 384 * 19 / (a.s.filter_sweep.phase[k][0][ENG_COMPUTE] * 1e6)) < 1e-9 * g,
              "engine %d at 3x3: 19 operations an output over 8 bytes (%g), %g GFLOP/s", k, in, g);
        CHECK(scene_filter_sweep_point(&a.s, k, 5, &in, &g) && in == 451.0 / 8, "at 15x15: 451 over 8 (%g)", in);
    }
    CHECK(a.s.gpu.eng.engine ? a.s.filter_sweep.roofs_ok[SWEEP_GPU] || a.s.filter_sweep.roofs_why[SWEEP_GPU][0]
                             : !a.s.filter_sweep.roofs_ok[SWEEP_GPU] &&
                                   strstr(a.s.filter_sweep.roofs_why[SWEEP_GPU], "not available"),
          "the GPU's roofs, or why not: %s", a.s.filter_sweep.roofs_why[SWEEP_GPU]);
    run_name(&a, "filter-sweep");
    CHECK(a.s.area == SCENE_AREA_GRIDS, "Shift+W again hides it");
    app_free(&a);
}

/* The geometry view: a piece of pixel values worked by hand (the value at
 * (x, y) is x + 10y, the filter the identity, so an output is the pixel
 * under its window's centre), the keys' cycles, the whole image measured
 * on the CPU engines bit for bit, a lesson's stash, and the command line's
 * geometry, which the rest of the window does not take. */
static void test_geometry(void)
{
    static const struct {
        const char *script;
        int n, out, want[4]; /* the piece's side and its output's; outputs (0,0), (1,0), (0,1), (2,2) */
        int whole_w, whole_h; /* the 40x30 image's output */
    } cases[] = {
        /* stride 2, same: output (i, j) is pixel (2i, 2j); (7 - 1) / 2 + 1 = 4 a side */
        {"stride", 7, 4, {0, 2, 20, 44}, 20, 15},
        /* dilation 2, valid: the window spans 5, the piece 5 + 4 = 9, 9 - 5 + 1 = 5 outputs a side, the
         * centre at (i + 2, j + 2) */
        {"dilation,padding", 9, 5, {22, 23, 32, 44}, 36, 26},
        /* full: 7 + 3 - 1 = 9 a side, the centre at (i - 1, j - 1), clamped to the edge */
        {"padding,padding", 7, 9, {0, 0, 0, 11}, 42, 32},
        /* stride 3, dilation 3, full: the window spans 7, the piece 11, (11 + 7 - 2) / 3 + 1 = 6 a side, the
         * centre at (3i - 6 + 3, 3j - 6 + 3): clamped to 0, then 3 */
        {"stride*2,dilation*2,padding*2", 11, 6, {0, 0, 0, 33}, 16, 12},
    };
    img_plane plane;
    img_image img;
    app a;
    char line[200];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        fresh_on(&a, "0 0 0; 0 1 0; 0 0 0");
        CHECK(img_plane_alloc(&plane, 40, 30), "a 40x30 plane");
        for (int i = 0; i < 40 * 30; ++i)
            plane.px[i] = (float)(i % 40 + 10 * (i / 40));
        CHECK(img_from_plane(&plane, &img), "an image of it");
        img_plane_free(&plane);
        scene_adopt_image(&a.s, &img, "worked");
        CHECK(app_run_script(&a, cases[c].script), "'%s': %s", cases[c].script, err_msg());
        scene_settle(&a.s);
        {
            const geometry_state *g = &a.s.geometry;
            int o = cases[c].out;
            CHECK(a.s.area == SCENE_AREA_GEOMETRY && g->n == cases[c].n && g->out_n == o && g->out_m == o,
                  "'%s': the piece %dx%d gives %dx%d, want %dx%d from %d", cases[c].script, g->n, g->n, g->out_n,
                  g->out_m, o, o, cases[c].n);
            if (g->out_n == o) {
                float got[4] = {g->piece_out[0], g->piece_out[1], g->piece_out[o], g->piece_out[2 * o + 2]};
                for (int k = 0; k < 4; ++k)
                    CHECK(got[k] == (float)cases[c].want[k], "'%s': output %d is %g, want %d", cases[c].script, k,
                          (double)got[k], cases[c].want[k]);
            }
            CHECK(g->w == 40 && g->h == 30 && g->out_w == cases[c].whole_w && g->out_h == cases[c].whole_h,
                  "'%s': the whole 40x30 image (under 256 a side) gives %dx%d, want %dx%d", cases[c].script, g->out_w,
                  g->out_h, cases[c].whole_w, cases[c].whole_h);
            for (int k = 0; k < 2; ++k)
                CHECK(g->ms[k] > 0 && g->reps[k] >= 1 && g->differ[k] == 0,
                      "'%s': %s measured on the whole image, the reference's bits: %g ms, %ld differ",
                      cases[c].script, scene_geometry_engine(&a.s, k), g->ms[k], g->differ[k]);
            CHECK(a.s.opt.stride == 1 && a.s.opt.dilation == 1 && app_options_params(&a.s.opt).stride == 1,
                  "the rest of the window keeps the plain geometry");
        }
        app_free(&a);
    }
    /* the cycles, Esc, and a lesson's start and end */
    fresh(&a);
    CHECK(app_run_script(&a, "stride*3,dilation*4,padding*3"), "cycles: %s", err_msg());
    CHECK(a.s.geometry.stride == 1 && a.s.geometry.dilation == 2 && a.s.geometry.padding == CONV_PAD_SAME,
          "stride 1,2,3,1; dilation 1,2,3,1,2; padding same, valid, full, same: %d %d %d", a.s.geometry.stride,
          a.s.geometry.dilation, a.s.geometry.padding);
    scene_settle(&a.s);
    snprintf(line, sizeof line, "geometry_image=256x192->256x192"); /* the sample, halved to 256 a side */
    CHECK(state_has(&a, "geometry=stride 1, dilation 2, padding same") && state_has(&a, line),
          "--print-state says the geometry");
    run_name(&a, "escape");
    CHECK(a.s.area == SCENE_AREA_GRIDS, "Esc: back to the grids");
    /* a key while the whole image is being measured: the figures are the new settings' (the reference of
     * the old, another size, was read past its end before), and a stop says what did not run */
    run_name(&a, "stride");
    app_do(&a, app_act_id(ACT_STRIDE)); /* stride 3, not settled */
    for (int i = 0; i < 4 && !(scene_busy(&a.s) && a.s.geometry.next >= 1); ++i)
        scene_work(&a.s, 0.01);
    CHECK(scene_busy(&a.s) && a.s.geometry.next == 1, "the task under way, one engine measured: %d",
          a.s.geometry.next);
    app_do(&a, app_act_id(ACT_STRIDE)); /* back to 1: a larger output than the reference made for stride 3 */
    scene_settle(&a.s);
    for (int k = 0; k < 2; ++k)
        CHECK(a.s.geometry.out_w == 256 && a.s.geometry.ms[k] > 0 && a.s.geometry.differ[k] == 0,
              "after the key mid-way, %s measured for stride 1: %dx%d, %ld differ (%s)", scene_geometry_engine(&a.s, k),
              a.s.geometry.out_w, a.s.geometry.out_h, a.s.geometry.differ[k], a.s.geometry.why[k]);
    app_do(&a, app_act_id(ACT_PADDING));
    for (int i = 0; i < 4 && !(scene_busy(&a.s) && a.s.geometry.next >= 1); ++i)
        scene_work(&a.s, 0.01);
    app_do(&a, app_act_id(ACT_ESCAPE)); /* stops the task, the view stays */
    CHECK(!scene_busy(&a.s) && a.s.area == SCENE_AREA_GEOMETRY && strstr(a.s.geometry.why[1], "stopped"),
          "Esc mid-way: the view stays, the rest says it was stopped: %s", a.s.geometry.why[1]);
    app_free(&a);
    /* from the command line: the geometry view's, not the window's */
    {
        scene_host host = {open_engine, NULL, NULL, clock_ms, NULL};
        app_options opt;
        char path[4096];
        app_options_default(&opt, "box:5");
        opt.stride = 4, opt.padding = CONV_PAD_VALID;
        app_init(&a, &host, &opt, "en");
        snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
        CHECK(scene_open_image(&a.s, path), "the sample");
        scene_settle(&a.s);
        CHECK(a.s.area == SCENE_AREA_GEOMETRY && a.s.geometry.stride == 4 && a.s.geometry.padding == CONV_PAD_VALID &&
                  a.s.geometry.out_w == (256 - 5) / 4 + 1 && a.s.geometry.out_h == (192 - 5) / 4 + 1,
              "--stride 4 --padding valid: the geometry view, %dx%d out", a.s.geometry.out_w, a.s.geometry.out_h);
        CHECK(a.s.opt.stride == 1 && a.s.opt.padding == CONV_PAD_SAME && a.defaults.stride == 1,
              "the window's own settings stay plain");
        CHECK(a.s.geometry.ms[0] > 0 && a.s.geometry.differ[0] == 0 && a.s.geometry.differ[1] == 0,
              "measured, the reference's bits");
        app_free(&a);
    }
}

/* The channels view (Shift+C) on a colour image made here: 12x10, pixel
 * (x, y) = (10x, 5y, 100), worked by hand. */
static void test_channels(void)
{
    img_image img;
    app a;
    char buf[1200];
    fresh_on(&a, "0 0 0; 0 1 0; 0 0 0");
    app_layer(&a, buf, sizeof buf);
    CHECK(strstr(buf, "press Shift+C") != NULL, "{layer} before the view: %s", buf);
    CHECK(img_alloc(&img, 12, 10), "a 12x10 image");
    for (int i = 0; i < 120; ++i) {
        uint8_t *p = img.color.px + 4 * i;
        p[0] = (uint8_t)(10 * (i % 12)), p[1] = (uint8_t)(5 * (i / 12)), p[2] = 100, p[3] = 255;
        img.luma.px[i] = 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
    }
    scene_adopt_image(&a.s, &img, "colours");
    run_name(&a, "channels");
    {
        const channels_state *g = &a.s.channels;
        CHECK(a.s.area == SCENE_AREA_CHANNELS && g->in.c == 3 && g->in.w == 12 && g->f.c_in == 3 && g->f.c_out == 3,
              "the colour layer: 3 channels in, 3 out (%d, %d)", g->f.c_in, g->f.c_out);
        CHECK(layer_plane(&g->in, 0)[5] == 50 && layer_plane(&g->in, 1)[2 * 12] == 10 &&
                  layer_plane(&g->in, 2)[77] == 100,
              "the channels are the colours: %g %g %g", layer_plane(&g->in, 0)[5], layer_plane(&g->in, 1)[24],
              layer_plane(&g->in, 2)[77]);
        for (int c = 0; c < 3; ++c)
            CHECK(conv_count_different(layer_plane(&g->out, c), layer_plane(&g->in, c), 120) == 0,
                  "the identity on channel %d alone gives it back: the picture in colour", c);
        for (int k = 0; k < 2; ++k)
            for (int w = 0; w < 2; ++w)
                CHECK(g->ms[k][w] > 0 && g->differ[k][w] == 0, "%s %s: measured, the direct loop's bits (%s)",
                      scene_channels_engine(&a.s, k), eng_layer_way_name((eng_layer_way)w), g->cell_why[k][w]);
    }
    run_name(&a, "channels"); /* edges */
    {
        const channels_state *g = &a.s.channels;
        int x0 = g->px + 1, y0 = g->py + 1, q = 2 * CHAN_PIECE + 2; /* the piece's output (2, 2) */
        CHECK(g->layer == 1 && g->f.c_out == 4 && g->col_rows == 27, "edges: 4 filters, a matrix of 27 rows");
        /* edge 0° on red = 10x: (10 + 2*10 + 10) * 2 = 80 inside; green and blue add nothing */
        CHECK(layer_plane(&g->out, 0)[5 * 12 + 5] == 80 && layer_plane(&g->out, 2)[5 * 12 + 5] == 40,
              "edge 0° 80 (red's ramp), edge 90° 40 (green's): %g %g", layer_plane(&g->out, 0)[65],
              layer_plane(&g->out, 2)[65]);
        /* the matrix: column q's rows are its window, channel by channel, tap by tap */
        CHECK(g->col[0 * CHAN_COL_COLS + q] == (float)(10 * (x0 + 1)) &&
                  g->col[4 * CHAN_COL_COLS + q] == (float)(10 * (x0 + 2)) &&
                  g->col[(9 + 4) * CHAN_COL_COLS + q] == (float)(5 * (y0 + 2)) && g->col[26 * CHAN_COL_COLS + q] == 100,
              "the unrolled column of an output: its window, channel after channel");
    }
    app_do(&a, (app_act){app_action_of(ACT_CHANNEL_PICK), 0, 99, -3, NULL});
    CHECK(a.s.channels.pick_x == CHAN_PIECE + 1 && a.s.channels.pick_y == 0, "a pick past the piece is clamped: %d,%d",
          a.s.channels.pick_x, a.s.channels.pick_y);
    app_layer(&a, buf, sizeof buf);
    CHECK(strstr(buf, "edges: 3 channels in") && strstr(buf, "27 products"), "{layer}: %s", buf);
    app_layer_copies(&a, buf, sizeof buf);
    CHECK(strstr(buf, "9 times"), "{layer_copies}: %s", buf);
    app_layer_ways(&a, buf, sizeof buf);
    CHECK(strstr(buf, "on cpu-par, im2col and our GEMM"), "{layer_ways}: %s", buf);
    app_layer_library(&a, buf, sizeof buf);
    CHECK(strstr(buf, "OpenBLAS") == NULL && (strstr(buf, "on cpu-seq") || strstr(buf, "no library")),
          "{layer_library}: %s", buf);
    run_name(&a, "channels");
    CHECK(a.s.channels.layer == 2 && a.s.channels.f.c_out == 3, "opponent");
    run_name(&a, "channels");
    run_name(&a, "channels");
    CHECK(a.s.channels.layer == 0, "round to the colour layer");
    CHECK(state_has(&a, "channels_layer=colour") && state_has(&a, "channels_image=12x10x3"), "--print-state");
    run_name(&a, "escape");
    CHECK(a.s.area == SCENE_AREA_GRIDS, "Esc: back to the grids");
    /* H: the grids convolve red, green, blue, then the luma again, as it was */
    {
        float luma5 = a.s.img.luma.px[5];
        char title[300];
        run_name(&a, "channel");
        scene_title(&a.s, title, sizeof title);
        CHECK(a.s.channel == 1 && a.s.img.luma.px[5] == 50 && strstr(title, "red channel"),
              "H: the red channel in the grids, 10x: %g (%s)", a.s.img.luma.px[5], title);
        run_name(&a, "channel");
        CHECK(a.s.img.luma.px[2 * 12] == 10, "then green, 5y: %g", a.s.img.luma.px[24]);
        run_name(&a, "channel");
        CHECK(a.s.img.luma.px[7] == 100, "then blue, 100");
        run_name(&a, "channel");
        CHECK(a.s.channel == 0 && a.s.img.luma.px[5] == luma5 && !a.s.luma_kept.px, "then the luma as it was");
        run_name(&a, "channel");
        {
            scene_stash st;
            memset(&st, 0, sizeof st);
            scene_stash_settings(&a.s, &st, &a.defaults); /* a lesson starts: the image goes aside as it is */
            CHECK(a.s.channel == 0 && st.img.luma.px[5] == luma5, "a lesson's stash keeps the luma, not a channel");
            scene_unstash(&a.s, &st);
        }
    }
    run_name(&a, "next-filter");
    CHECK(!a.s.channels.in.px, "a change while hidden: the view's data let go, made again when shown");
    app_free(&a);
    /* a grey image: one channel; opponent says it needs colour */
    fresh(&a);
    CHECK(img_alloc(&img, 8, 8), "an 8x8 image");
    for (int i = 0; i < 64; ++i)
        img.luma.px[i] = (float)i, memset(img.color.px + 4 * i, i, 3), img.color.px[4 * i + 3] = 255;
    scene_adopt_image(&a.s, &img, "grey");
    CHECK(app_run_script(&a, "channels*3"), "%s", err_msg());
    scene_settle(&a.s);
    CHECK(a.s.channels.in.c == 1 && !a.s.channels.f.w && strstr(a.s.channels.why, "colour"),
          "opponent on a grey image: %s", a.s.channels.why);
    run_name(&a, "channel");
    CHECK(a.s.channel == 0 && strstr(a.s.notice, "grey"), "H on a grey image: it says so: %s", a.s.notice);
    app_free(&a);
}

/* ---- scripts ---------------------------------------------------------------------- */

static void test_scripts(void)
{
    app a;
    fresh(&a);
    CHECK(!app_run_script(&a, "step,nonsense"), "an unknown word is refused");
    CHECK(strstr(err_msg(), "nonsense") != NULL, "the sentence names it: %s", err_msg());
    CHECK(a.s.walk.stepper.index == 0, "nothing ran of a refused script");
    CHECK(!app_run_script(&a, "apply-again*101"), "101 passes are refused");
    CHECK(!app_run_script(&a, "hover"), "a click's action cannot be scripted");
    CHECK(!app_run_script(&a, "sweep*4"), "sweep at most 3 times in one script");
    CHECK(app_run_script(&a, "step*45,apply-again*2"), "a good script runs: %s", err_msg());
    CHECK(a.s.passes == 2 && a.s.walk.stepper.index == 0, "apply-again twice: %d passes, walk restarted", a.s.passes);
    app_free(&a);
}

/* ---- the state after scripts (what --print-state prints) -------------------------- */

/* Runs `script` on a fresh app and checks "key=value" pairs (parted by
 * spaces) against the state lines. */
static void state_after(const char *script, const char *want)
{
    app a;
    char *text = NULL, pair[128], key[64], line[256];
    size_t size = 0;
    const char *p = want;
    FILE *f;
    fresh(&a);
    CHECK(app_run_script(&a, script), "'%s' runs: %s", script, err_msg());
    f = open_memstream(&text, &size);
    if (!f)
        return;
    app_print_state(&a, f);
    fclose(f);
    while (sscanf(p, "%127s", pair) == 1) {
        const char *eq = strchr(pair, '=');
        p = strstr(p, pair) + strlen(pair);
        if (!eq)
            continue;
        snprintf(key, sizeof key, "%.*s", (int)(eq - pair + 1), pair); /* "key=" */
        {
            const char *at = text, *found = NULL;
            while ((at = strstr(at, key))) { /* at a line's start */
                if (at == text || at[-1] == '\n') {
                    found = at;
                    break;
                }
                ++at;
            }
            line[0] = '\0';
            if (found)
                sscanf(found, "%255[^\n]", line);
            CHECK(strcmp(line, pair) == 0, "after '%s': %s, want %s", script, found ? line : "(missing)", pair);
        }
    }
    free(text);
    app_free(&a);
}

static void test_states(void)
{
    char want[512];
    int total = 512 * 384;
    /* the first state: the sample image, sobel-x, the walk not begun, the
     * view on the image's top-left corner, where the walk starts */
    snprintf(want, sizeof want,
             "phase=cpu output=0 x=0 y=0 taps=0 done=0 total=%d playing=0 speed=4 "
             "image=sample.png width=512 height=384 filter=sobel-x border=clamp flip=0 display=abs "
             "weights=-1,0,1,-2,0,2,-1,0,1 thread_view=0 view_x=0 view_y=0 view_cells=20 hovering=0 pinned=0 "
             "cpu_seq_measured=1 cpu_par_measured=1 help=0 blank=0 text_scale=100 edit_tap=-1",
             total);
    state_after("", want);
    /* play, threads and flip toggle; pan moves half a view (10 cells) */
    state_after("play,threads,flip,pan-right*3,pan-down*3,pan-left,pan-up",
                "playing=1 thread_view=1 flip=1 view_x=20 view_y=20 phase=cpu output=0");
    state_after("play*2,threads*2,flip*2,step*5", "playing=0 thread_view=0 flip=0 output=4 x=4 y=0 taps=9 done=5");
    /* back restarts the current output, then goes back one; the view follows the walk */
    state_after("step*25,back", "output=24 taps=0 done=24 view_x=20 view_y=0");
    state_after("step*25,back*2", "output=23 taps=0 done=23");
    state_after("back", "output=0 taps=0 done=0 view_x=0 view_y=0");
    state_after("play,step", "playing=0 output=0 taps=9 done=1");
    /* outputs go in raster order: output 512 is (0, 1) */
    state_after("step*513", "output=512 x=0 y=1 taps=9 done=513 view_x=0 view_y=0");
    /* tap is one product; the tenth tap begins the next output */
    state_after("tap*3", "output=0 taps=3 done=0");
    state_after("tap*9", "output=0 taps=9 done=1");
    state_after("tap*10", "output=1 taps=1 done=1");
    /* finish: every output, and playing stops; stepping on does nothing */
    snprintf(want, sizeof want, "playing=0 done=%d output=%d taps=9", total, total - 1);
    state_after("play,finish,step,tap", want);
    /* filters by number (the walk starts again), next and previous, both ways round */
    state_after("step*5,filter-3", "filter=gaussian weights=1,2,1,2,4,2,1,2,1 output=0 done=0");
    state_after("filter-1,pan-right,pan-down", "filter=identity weights=0,0,0,0,1,0,0,0,0 view_x=10 view_y=10");
    state_after("filter-1,prev-filter", "filter=outline weights=-1,-1,-1,-1,8,-1,-1,-1,-1");
    state_after("filter-9,next-filter", "filter=identity");
    state_after("next-filter*9", "filter=sobel-x");
    /* cycles, once, twice, three and four times; zoom keeps the view's middle */
    state_after("border,display,help,blank,text-size,faster,zoom-in,next-filter",
                "border=mirror display=signed help=1 blank=1 text_scale=125 speed=8 view_cells=16 view_x=2 "
                "view_y=2 filter=sobel-y");
    state_after("border*2,display*2,help*2,blank*2,text-size*2,slower,zoom-in*2,prev-filter",
                "border=wrap display=clamp help=0 blank=0 text_scale=150 speed=2 view_cells=12 filter=laplacian");
    state_after("border*3,display*3,text-size*3,slower*20,zoom-out*3",
                "border=zero display=abs text_scale=200 speed=1 view_cells=48");
    state_after("border*4,text-size*4,faster*20,zoom-in*20", "border=clamp text_scale=100 speed=8192 view_cells=4");
    /* pan stops at the image's edges, and zooming out at an edge stays inside */
    state_after("pan-left*100,pan-up*100", "view_x=0 view_y=0");
    state_after("pan-right*100,pan-down*100", "view_x=492 view_y=364");
    state_after("zoom-out*20,pan-right*100,pan-down*100", "view_cells=64 view_x=448 view_y=320");
    state_after("pan-right*100,pan-down*100,zoom-out*20", "view_cells=64 view_x=448 view_y=320");
    /* passes fed back, the size sweep; Esc closes what is open, one thing at a time */
    state_after("apply-again*2", "passes=2 output=0 done=0");
    state_after("sweep", "sweep_shown=1 sweep_sizes=6 busy=0");
    state_after("filter-sweep", "area=filter-sweep filter_sweep_shown=1 filter_sweep_sides=6 sweep_shown=0 busy=0");
    state_after("filter-2,bigger-filter*2", "filter=box:7");
    state_after("edit-kernel", "edit_tap=0");
    state_after("edit-kernel,escape", "edit_tap=-1 help=0");
    state_after("help,blank,escape", "help=0 blank=1");
    state_after("pin,blank,escape", "blank=0 pinned=0 hovering=0");
}

/* ---- long work ------------------------------------------------------------------------ */

static void test_long_work(void)
{
    app a;
    int done, total, last = -1, slices = 0;
    fresh(&a);
    app_do(&a, app_act_id(ACT_SWEEP));
    CHECK(scene_busy(&a.s) && (a.s.area == SCENE_AREA_SWEEP), "the sweep starts and its chart shows");
    /* slices of at most one engine run each, the CPU's on the measuring
     * thread: a slice returns at once while it works; progress never goes
     * back and reaches 12 of 24 runs (three sizes of four engines) */
    while (scene_busy(&a.s) && slices < 100000) {
        double t0 = tim_now_ms();
        scene_work(&a.s, 0.0);
        if (scene_waiting(&a.s))
            CHECK(tim_now_ms() - t0 < 50, "a slice waited %.0f ms for the measuring thread", tim_now_ms() - t0);
        scene_progress(&a.s, &done, &total);
        CHECK(done >= last && total == SCENE_SWEEP_SIZES * SCENE_SWEEP_ENGINES, "progress %d of %d after %d", done,
              total, last);
        last = done;
        ++slices;
        if (done >= 3 * SCENE_SWEEP_ENGINES && !scene_waiting(&a.s)) { /* three sizes done: Esc stops it */
            app_do(&a, app_act_id(ACT_ESCAPE));
            break;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    CHECK(!scene_busy(&a.s) && a.s.sweep.count == 3 && (a.s.area == SCENE_AREA_SWEEP),
          "Esc stopped the sweep after 3 sizes (%d), its chart stays", a.s.sweep.count);
    CHECK(a.s.sweep.ms[SWEEP_SEQ][2] > 0 && a.s.sweep.ms[SWEEP_SIMD][2] > 0 && a.s.sweep.ms[SWEEP_PAR][2] > 0,
          "the CPU engines measured at 64x64: %g, %g, %g ms", a.s.sweep.ms[SWEEP_SEQ][2], a.s.sweep.ms[SWEEP_SIMD][2],
          a.s.sweep.ms[SWEEP_PAR][2]);
    scene_settle(&a.s);
    CHECK(a.s.sweep.count == 3 && a.s.sweep.ms[0][3] < 0, "nothing of the stopped sweep comes in later");
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!(a.s.area == SCENE_AREA_SWEEP) && !a.quit, "Esc again hides the chart");
    /* the chain: in slices too, its result in the window's panel */
    app_do(&a, app_act_id(ACT_CHAIN));
    CHECK(scene_busy(&a.s) && (a.s.chart == SCENE_CHART_CHAIN), "the chain starts and its panel shows");
    scene_work(&a.s, 0.0); /* the warm-up and pass 0, both from the image: it is still there */
    CHECK(a.s.chain.a.px && a.s.chain.a.px[0] == a.s.img.luma.px[0], "the chain's warm-up kept its input: %g, not %g",
          a.s.chain.a.px ? (double)a.s.chain.a.px[0] : -1.0, (double)a.s.img.luma.px[0]);
    slices = 0;
    while (scene_work(&a.s, 0.0))
        ++slices;
    CHECK(slices > 1, "the chain ran in %d slices", slices);
    CHECK(a.s.chain.ms[0] > 0 && a.s.chain.length == SCENE_CHAIN_LENGTH, "chain on cpu-seq: %g ms", a.s.chain.ms[0]);
    CHECK(a.s.gpu.eng.engine ? a.s.chain.ms[1] > 0 : a.s.chain.ms[1] < 0, "chain on the GPU: %g ms", a.s.chain.ms[1]);
    app_do(&a, app_act_id(ACT_CHAIN));
    CHECK(!(a.s.chart == SCENE_CHART_CHAIN), "X again hides the chain's panel");
    /* a new image, or another filter, while work runs stops it */
    app_do(&a, app_act_id(ACT_SWEEP));
    app_do(&a, app_act_id(ACT_APPLY_AGAIN));
    CHECK(!scene_busy(&a.s), "a new image stops the sweep of the old one");
    app_do(&a, app_act_id(ACT_SWEEP));
    app_do(&a, app_act_of(app_action_filter(2)));
    CHECK(!scene_busy(&a.s), "another filter stops the sweep: one chart, one filter");
    app_free(&a);
}

/* ---- the chain: chained against independent ------------------------------------ */

/* The stack of copies the independent passes run on gives each copy, under
 * every border rule, exactly one pass over the image: its border rows read
 * what the rule reads outside the image. */
static void test_chain_stack(void)
{
    img_plane in = {0}, one = {0}, stack = {0}, out = {0}, copies = {0};
    int bad = 0;
    CHECK(img_plane_alloc(&in, 4, 4) && img_plane_alloc(&one, 4, 4), "planes");
    for (int i = 0; i < 16; ++i)
        in.px[i] = (float)(i * i % 11) - 3.0f; /* no two rows alike, nor their mirrors */
    for (int border = 0; border < CONV_BORDER_COUNT; ++border)
        for (size_t preset = 0; preset < filt_preset_count(); ++preset) {
            conv_params p = conv_params_make(filt_preset(preset), (conv_border)border, false);
            conv_reference(&in, &p, &one);
            CHECK(scene_chain_stack(&in, 7, border, &stack) && stack.w == 4 && stack.h == 7 * 6, "a stack of 7: %dx%d",
                  stack.w, stack.h);
            CHECK(img_plane_alloc(&out, stack.w, stack.h), "plane");
            conv_reference(&stack, &p, &out);
            CHECK(scene_chain_unstack(&out, 7, 4, &copies) && copies.w == 4 && copies.h == 7 * 4, "7 copies: %dx%d",
                  copies.w, copies.h);
            for (int k = 0; k < 7; ++k)
                bad += conv_count_different(copies.px + k * 16, one.px, 16) != 0;
            img_plane_free(&stack);
            img_plane_free(&out);
            img_plane_free(&copies);
        }
    CHECK(bad == 0, "%d copies of the stack differ from one pass over the image", bad);
    img_plane_free(&in);
    img_plane_free(&one);
}

/* The chain measures both ways on each engine, the same passes: chained,
 * its result is the filter applied SCENE_CHAIN_LENGTH times; independent,
 * every pass's output is one pass over the image. Its placeholders say its
 * figures, the verdicts by the one rule. */
static void test_chain(void)
{
    app a;
    img_plane in = {0}, x = {0}, y = {0};
    conv_params p;
    char buf[512], want[512];
    fresh(&a);
    run_name(&a, "filter-3");
    app_placeholder(&a, "chain_gpu_wait_ratio", buf, sizeof buf);
    CHECK(strcmp(buf, _("(press X to measure first)")) == 0, "{chain_gpu_wait_ratio} before X: '%s'", buf);
    app_do(&a, app_act_id(ACT_CHAIN));
    scene_settle(&a.s);
    p = conv_params_make(&a.s.opt.kernel, a.s.opt.border, a.s.opt.flip);
    CHECK(img_plane_scaled(&a.s.img.luma, 4, 4, &in) && img_plane_alloc(&x, 4, 4) && img_plane_alloc(&y, 4, 4),
          "planes");
    memcpy(x.px, in.px, sizeof(float) * 16);
    for (int i = 0; i < SCENE_CHAIN_LENGTH; ++i) { /* chained: each pass from the one before */
        conv_reference(&x, &p, &y);
        memcpy(x.px, y.px, sizeof(float) * 16);
    }
    conv_reference(&in, &p, &y); /* independent: one pass */
    CHECK(a.s.chain.length == SCENE_CHAIN_LENGTH, "the chain's length %d", a.s.chain.length);
    for (int e = 0; e < SCENE_CHAIN_ENGINES; ++e) {
        const bool runs = e == 0 || a.s.gpu.eng.engine;
        const img_plane *r = &a.s.chain.result[e], *ind = &a.s.chain.independent[e];
        int wrong = 0;
        CHECK(runs ? a.s.chain.ms[e] > 0 && a.s.chain.independent_ms[e] > 0
                   : a.s.chain.ms[e] < 0 && a.s.chain.independent_ms[e] < 0,
              "engine %d: chained %g ms, independent %g ms", e, a.s.chain.ms[e], a.s.chain.independent_ms[e]);
        if (!runs)
            continue;
        CHECK(r->px && r->w == 4 && r->h == 4 && conv_count_different(r->px, x.px, 16) == 0,
              "engine %d: the chain's result is the filter applied %d times", e, SCENE_CHAIN_LENGTH);
        CHECK(ind->px && ind->w == 4 && ind->h == 4 * SCENE_CHAIN_LENGTH,
              "engine %d: %d independent passes, as many as chained", e, ind->h / 4);
        for (int k = 0; ind->px && k < SCENE_CHAIN_LENGTH; ++k)
            wrong += conv_count_different(ind->px + k * 16, y.px, 16) != 0;
        CHECK(wrong == 0, "engine %d: %d of the independent passes are not one pass over the image", e, wrong);
        {
            const eng_spread c = a.s.chain.chained_runs[e], i = a.s.chain.independent_runs[e];
            eng_verdict v = eng_verdict_of(c, i);
            CHECK(c.runs == SCENE_CHAIN_REPS && i.runs == SCENE_CHAIN_REPS && c.ms == a.s.chain.ms[e] &&
                      i.ms == a.s.chain.independent_ms[e] && c.lo <= c.ms && c.ms <= c.hi && i.lo <= i.ms &&
                      i.ms <= i.hi,
                  "engine %d: %d chained runs (%g ms, %g to %g), %d independent (%g ms, %g to %g)", e, c.runs, c.ms,
                  c.lo, c.hi, i.runs, i.ms, i.lo, i.hi);
            fmt_verdict(FMT_SENTENCE, _("the chain"), _("the independent passes"), &v, want, sizeof want);
            app_placeholder(&a, e ? "chain_gpu_wait_ratio" : "chain_cpu_wait_ratio", buf, sizeof buf);
            CHECK(strcmp(buf, want) == 0, "{chain_%s_wait_ratio}: '%s', not '%s'", e ? "gpu" : "cpu", buf, want);
            fmt_ms(i.ms, want, sizeof want);
            app_placeholder(&a, e ? "chain_gpu_independent_ms" : "chain_cpu_independent_ms", buf, sizeof buf);
            CHECK(strcmp(buf, want) == 0, "{chain_%s_independent_ms}: '%s', not '%s'", e ? "gpu" : "cpu", buf, want);
        }
    }
    img_plane_free(&in);
    img_plane_free(&x);
    img_plane_free(&y);
    app_free(&a);
}

/* ---- the large view ---------------------------------------------------------------------- */

/* I shows the whole input and output large; it and the sweep take the same
 * place, one at a time; Esc closes it before anything behind it. */
static void test_large_view(void)
{
    app a;
    fresh(&a);
    run_name(&a, "large-view");
    CHECK((a.s.area == SCENE_AREA_LARGE), "I: the large view");
    run_name(&a, "sweep");
    CHECK(!(a.s.area == SCENE_AREA_LARGE) && (a.s.area == SCENE_AREA_SWEEP), "W: the sweep in its place");
    run_name(&a, "large-view");
    CHECK((a.s.area == SCENE_AREA_LARGE) && !(a.s.area == SCENE_AREA_SWEEP),
          "I again: the large view in the sweep's place");
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!(a.s.area == SCENE_AREA_LARGE) && !a.quit, "Esc closes it, nothing more");
    app_free(&a);
}

/* The outline filter (gain 16) applied again 60 times overflows to infinity,
 * then NaN, all over the image: the window goes on, and the GPU engine's
 * runs without the barrier are compared with the reference NaN for NaN
 * (conv_same): a GPU writes another NaN than the CPU (the CUDA stand-in
 * writes a GPU's), and a comparison of bits alone would call every output
 * wrong. Here every output is NaN, the poisoned reads too: none is wrong. */
static void test_overflow(void)
{
    app a;
    long n, nan = 0;
    fresh(&a);
    CHECK(app_run_script(&a, "filter-9,apply-again*60"), "outline, applied again 60 times: %s", err_msg());
    scene_settle(&a.s);
    n = (long)a.s.img.luma.w * a.s.img.luma.h;
    for (long i = 0; i < n; ++i)
        nan += isnan(a.s.img.luma.px[i]) != 0;
    CHECK(a.s.passes == 60 && nan == n && !a.s.banner[0], "60 passes, %ld of %ld pixels NaN, no error ('%s')", nan, n,
          a.s.banner);
    for (int i = 0; i < 5; ++i)
        run_name(&a, "block-life");
    CHECK(a.s.inside.stage == SCENE_BLOCK_NO_BARRIER_GPU, "O x5: the runs without the barrier on the GPU engine");
    for (int r = 0; r < a.s.inside.gpu_runs; ++r)
        CHECK(a.s.inside.gpu_wrong[r] == 0, "run %d without the barrier on an image of NaN: %lld outputs called wrong",
              r + 1, a.s.inside.gpu_wrong[r]);
    printf("outline applied 60 times: %ld of %ld pixels NaN; %d runs without the barrier on %s, %s\n", nan, n,
           a.s.inside.gpu_runs, a.s.gpu.eng.engine ? a.s.inside.gpu_label : "no GPU engine",
           a.s.inside.gpu_runs ? "none wrong (NaN for NaN)" : a.s.inside.gpu_why);
    app_free(&a);
}

/* Inside the GPU: O opens the block of the output looked at and steps its
 * stages (the load animated over its time, then every cell stored; the
 * barrier with every thread waiting; compute; no barrier, simulated: what
 * raced could; another schedule; closed); J cycles the shapes; Shift+O the
 * warps; a click picks a thread; the view takes the grids' place alone. */
static void test_inside(void)
{
    app a;
    int rd, r, cd, c, bdx, bdy, seed;
    fresh(&a);
    scene_center_on(&a.s, 100, 60);
    scene_hover(&a.s, true, 37, 21); /* the output looked at: block (2, 1) of 16x16 */
    run_name(&a, "block-life");
    CHECK((a.s.area == SCENE_AREA_INSIDE) && a.s.inside.stage == SCENE_BLOCK_LOAD && a.s.inside.bx == 2 &&
              a.s.inside.by == 1 && a.s.inside.thread == 5 * 16 + 5,
          "O: block (%d, %d), thread %d, stage %d", a.s.inside.bx, a.s.inside.by, a.s.inside.thread, a.s.inside.stage);
    scene_block_loading(&a.s, &rd, &r, &cd, &c);
    CHECK(rd == 0 && r == 4 * 8 && cd == 0 && c == 18 * 18 && scene_animating(&a.s),
          "the load starts: %d of %d requests, %d of %d cells", rd, r, cd, c);
    fake_now += SCENE_BLOCK_LOAD_MS / 2;
    scene_block_loading(&a.s, &rd, &r, &cd, &c);
    CHECK(rd == 16 && cd > 0 && cd < c, "half way: %d requests, %d cells", rd, cd);
    {
        /* the cells framed for the warp looked at are those its current load
         * request stores (the load loop's cell function, the trace's lanes),
         * not its threads' outputs */
        int request = scene_block_warp_request(&a.s), warp = a.s.inside.thread / KW_WARP, it = request / 8, framed = 0,
            odd = 0, outputs_alike = 0;
        kw_request q[KW_MAX_REQUESTS];
        int n = kw_warp_trace(a.s.img.luma.w, a.s.img.luma.h, 16, 16, a.s.opt.border, 2, 1, warp, q), lanes = -1;
        for (int i = 0; i < n; ++i)
            if (q[i].kind == KW_TILED_STORE && q[i].step == it)
                lanes = q[i].lanes;
        for (int row = 0; row < 18; ++row)
            for (int col = 0; col < 18; ++col) {
                bool in = scene_block_cell_in_request(&a.s, col, row, request), ours = false;
                for (int t = warp * KW_WARP; t < (warp + 1) * KW_WARP; ++t) {
                    int cc, rr;
                    ours = ours || (kw_tile_cell(t % 16, t / 16, it, 16, 16, &cc, &rr) && cc == col && rr == row);
                    outputs_alike += in && t % 16 + 1 == col && t / 16 + 1 == row;
                }
                framed += in;
                odd += in != ours;
            }
        CHECK(request % 8 == warp && it == (rd - 1 - warp) / 8 && framed == lanes && framed > 0 && odd == 0 &&
                  outputs_alike < framed,
              "half way, warp %d: request %d (iteration %d) frames %d cells, the trace stores %d, %d not its cells, %d "
              "its threads' outputs",
              warp, request, it, framed, lanes, odd, outputs_alike);
    }
    fake_now += SCENE_BLOCK_LOAD_MS;
    scene_block_loading(&a.s, &rd, &r, &cd, &c);
    CHECK(rd == r && cd == c && !scene_animating(&a.s), "loaded: %d of %d cells", cd, c);
    run_name(&a, "block-life");
    CHECK(a.s.inside.stage == SCENE_BLOCK_BARRIER, "O: the barrier");
    run_name(&a, "block-life");
    CHECK(a.s.inside.stage == SCENE_BLOCK_COMPUTE, "O: compute");
    run_name(&a, "block-life");
    seed = (int)a.s.inside.race_seed;
    CHECK(a.s.inside.stage == SCENE_BLOCK_NO_BARRIER && a.s.inside.race.can_count == 256 &&
              a.s.inside.race.raced_count <= a.s.inside.race.can_count,
          "O: no barrier, simulated: %d raced of %d that could", a.s.inside.race.raced_count,
          a.s.inside.race.can_count);
    run_name(&a, "block-life");
    CHECK((a.s.area == SCENE_AREA_INSIDE) && a.s.inside.stage == SCENE_BLOCK_NO_BARRIER_GPU &&
              (a.s.gpu.eng.engine ? a.s.inside.gpu_runs == SCENE_RACE_RUNS
                                  : a.s.inside.gpu_runs == 0 && a.s.inside.gpu_why[0]),
          "O: the runs without the barrier on the GPU engine (%d runs; %s)", a.s.inside.gpu_runs, a.s.inside.gpu_why);
    {
        /* what the runs measured, whole: equal counts said so, unequal ones listed */
        char text[320];
        scene_inside keep = a.s.inside;
        a.s.inside.gpu_runs = SCENE_RACE_RUNS;
        for (int i = 0; i < SCENE_RACE_RUNS; ++i)
            a.s.inside.gpu_wrong[i] = 105072;
        scene_race_summary(&a.s, text, sizeof text);
        CHECK(scene_race_same(&a.s) && strstr(text, "105,072 outputs wrong") && strstr(text, "the same way each time"),
              "five equal counts: '%s'", text);
        a.s.inside.gpu_wrong[SCENE_RACE_RUNS - 1] = 98304;
        scene_race_summary(&a.s, text, sizeof text);
        CHECK(!scene_race_same(&a.s) && strstr(text, "105,072, 105,072, 105,072, 105,072, 98,304") &&
                  strstr(text, "changed"),
              "unequal counts, whole: '%s'", text);
        CHECK(app_placeholder(&a, "race_wrong", text, sizeof text) && strstr(text, "98,304"), "{race_wrong}: '%s'",
              text);
        a.s.inside = keep;
    }
    run_name(&a, "block-life");
    CHECK(!(a.s.area == SCENE_AREA_INSIDE), "O: closed");
    run_name(&a, "block-life");
    run_name(&a, "block-life");
    run_name(&a, "block-life");
    run_name(&a, "block-life");
    CHECK(a.s.inside.stage == SCENE_BLOCK_NO_BARRIER && (int)a.s.inside.race_seed != seed,
          "the next visit simulates another schedule (%u, then %u)", (unsigned)seed, a.s.inside.race_seed);
    app_do(&a, app_act_id(ACT_ESCAPE));
    /* shapes and warps */
    run_name(&a, "block-life");
    for (int i = 1; i <= SCENE_BLOCK_SHAPES; ++i) {
        run_name(&a, "block-shape");
        scene_block_dims(&a.s, &bdx, &bdy);
        if (i == 4)
            CHECK(bdx == 24 && bdy == 24 && a.s.inside.bx == 37 / 24 && a.s.inside.by == 21 / 24,
                  "J x4: 24x24, block (%d, %d)", a.s.inside.bx, a.s.inside.by);
    }
    CHECK(bdx == 16 && bdy == 16, "J x5: back to 16x16");
    for (int i = 0; i < 8; ++i)
        run_name(&a, "block-warp");
    CHECK(a.s.inside.thread / 32 == (5 * 16 + 5) / 32, "Shift+O x8: the warps of a 16x16 block, round");
    app_do(&a, (app_act){app_action_find("block-pick"), 200, -1, -1, NULL});
    CHECK(a.s.inside.thread == 200, "a click picks thread 200 (%d)", a.s.inside.thread);
    /* one place for the view, the sweep and the large pictures */
    run_name(&a, "sweep");
    CHECK(!(a.s.area == SCENE_AREA_INSIDE) && (a.s.area == SCENE_AREA_SWEEP), "W takes its place");
    run_name(&a, "block-life");
    CHECK((a.s.area == SCENE_AREA_INSIDE) && !(a.s.area == SCENE_AREA_SWEEP), "O takes the sweep's");
    run_name(&a, "large-view");
    CHECK((a.s.area == SCENE_AREA_LARGE) && !(a.s.area == SCENE_AREA_INSIDE), "I takes it");
    run_name(&a, "block-life");
    CHECK(!(a.s.area == SCENE_AREA_LARGE) && (a.s.area == SCENE_AREA_INSIDE), "O back");
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!(a.s.area == SCENE_AREA_INSIDE) && !a.quit, "Esc closes it, nothing more");
    app_free(&a);
}

/* ---- memory: the budget and tiles -------------------------------------------------------- */

/* Whether the GPU result shown equals the reference of the image shown. */
static bool gpu_result_exact(const scene *s)
{
    img_plane want;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    bool same;
    if (!img_plane_alloc(&want, s->img.luma.w, s->img.luma.h))
        return false;
    conv_reference(&s->img.luma, &p, &want);
    same = conv_count_different(want.px, s->gpu_out.px, (long)want.w * want.h) == 0;
    img_plane_free(&want);
    return same;
}

/* A GPU engine for the tiles' tests: cpu-par stands in where the build has
 * none (it has no device). */
static void stand_in_gpu(scene *s)
{
    if (s->gpu.eng.engine)
        return;
    s->gpu.eng.engine = eng_open(eng_find("cpu-par"));
    snprintf(s->gpu.eng.name, sizeof s->gpu.eng.name, "cpu-par");
}

/* Tiles meeting other work, as they did before the scene had a feature
 * table: a switch of the GPU while tiles run in the CPU phase does not drop
 * the run; G during a sweep runs the tiles once and says nothing of the
 * sweep stopping; a G that cannot run still pauses the walk. */
static void test_tiles_and_other_work(void)
{
    app a;
    scene *s = &a.s;
    unsigned long runs;
    fresh(&a);
    stand_in_gpu(s);
    run_name(&a, "memory-budget");
    app_do(&a, app_act_id(ACT_GPU)); /* the tiles start, one a slice */
    CHECK(s->task.busy == SCENE_FEATURE_TILES && s->tiles.done == 0, "G under the budget: tiles under way");
    app_do(&a, app_act_id(ACT_STEP)); /* back to the walk: the tiles go on */
    app_do(&a, app_act_id(ACT_GPU_RESULT));
    scene_settle(s);
    CHECK(s->gpu.eng.measured && s->tiles.done == 4 && !scene_stale(s),
          "a GPU switch in the CPU phase keeps the tiles' run: measured %d, %d of 4 tiles", s->gpu.eng.measured,
          s->tiles.done);
    app_free(&a);

    fresh(&a);
    stand_in_gpu(s);
    run_name(&a, "memory-budget");
    app_do(&a, app_act_id(ACT_SWEEP));
    CHECK(s->task.busy == SCENE_FEATURE_SWEEP, "the sweep under way");
    s->notice[0] = '\0';
    runs = s->gpu.runs;
    app_do(&a, app_act_id(ACT_GPU));
    scene_settle(s);
    CHECK(s->gpu.runs - runs == 5 && s->tiles.done == 4 && s->gpu.eng.measured,
          "G during the sweep: the tiles once (%lu runs: the empty result and 4 tiles)", s->gpu.runs - runs);
    CHECK(!strstr(s->notice, "stopped"), "no tiles were stopped: '%s'", s->notice);
    app_free(&a);

    fresh(&a);
    eng_close(s->gpu.eng.engine);
    s->gpu.eng.engine = NULL; /* G cannot run here */
    run_name(&a, "play");
    CHECK(s->walk.playing, "the walk plays");
    app_do(&a, app_act_id(ACT_GPU));
    CHECK(!s->walk.playing && s->phase == SCENE_PHASE_CPU, "G that cannot run still pauses the walk");
    app_free(&a);
}

/* too-big opens the image scaled just over what the device holds, of the
 * image's own aspect (4:3 for the sample), not squashed to a square. */
static void test_too_big_aspect(void)
{
    app a;
    long long most = 500000, w0, h0, w, h;
    fresh(&a);
    w0 = a.s.img.luma.w, h0 = a.s.img.luma.h;
    a.s.gpu.device_known = true;
    a.s.gpu.device.memory_free = 8 * most, a.s.gpu.device.memory_engine = 0, a.s.gpu.device.max_buffer = 0;
    CHECK(scene_gpu_max_pixels(&a.s) == most, "the device holds %lld pixels", scene_gpu_max_pixels(&a.s));
    {
        /* {largest_image}: a count of pixels, of any shape (no square), a 4:3 photo that fits as an example */
        char said[256] = "", shape[32];
        snprintf(shape, sizeof shape, "%d\xC3\x97%d", 816, 612); /* 4 x 204 by 3 x 204: 499,392 pixels */
        CHECK(app_placeholder(&a, "largest_image", said, sizeof said) && strstr(said, "500,000 pixels") &&
                  strstr(said, "4:3") && strstr(said, shape) && !strstr(said, "707"),
              "{largest_image}: %s", said);
    }
    run_name(&a, "too-big");
    w = a.s.img.luma.w, h = a.s.img.luma.h;
    CHECK(w * h > most && (w - 1) * h <= most, "too-big: %lldx%lld, just over %lld pixels", w, h, most);
    CHECK(fabs((double)w / (double)h - (double)w0 / (double)h0) < 2.0 / (double)h,
          "too-big keeps the image's aspect: %lldx%lld from %lldx%lld", w, h, w0, h0);
    app_free(&a);
}

static void test_budget_tiles(void)
{
    app a;
    scene *s = &a.s;
    scene_stash st;
    app_options defaults;
    char state[8192];
    FILE *f;
    fresh(&a);
    if (!s->gpu.eng.engine) { /* no GPU engine in this build: cpu-par stands in for one (it has no device) */
        s->gpu.eng.engine = eng_open(eng_find("cpu-par"));
        snprintf(s->gpu.eng.name, sizeof s->gpu.eng.name, "cpu-par");
    }
    /* the first budget: 1 MiB, under what the 512x384 sample needs (1.5 MiB) */
    run_name(&a, "memory-budget");
    CHECK(s->gpu.budget == 1 << 20 && scene_image_bytes(s) == 1572864 && scene_needs_tiles(s),
          "1 MiB budget, the image needs 1.5 MiB: tiles (budget %lld)", s->gpu.budget);
    CHECK(strstr(s->notice, "1.0 MiB") && strstr(s->notice, "tiles"), "the notice says it: %s", s->notice);
    run_name(&a, "gpu");
    CHECK(s->phase == SCENE_PHASE_GPU && s->tiles.on && tile_count(&s->tiles.plan) == 4 && s->tiles.done == 4 &&
              s->tiles.plan.tile_w == 256 && s->tiles.plan.tile_h == 192,
          "G under the budget: 4 tiles of 256x192 (%d of %d, %dx%d)", s->tiles.done, tile_count(&s->tiles.plan),
          s->tiles.plan.tile_w, s->tiles.plan.tile_h);
    CHECK(s->gpu.eng.measured && s->gpu.eng.timing.reps == 1 && !s->gpu.presented,
          "its time: the tiles added up, one run");
    CHECK(gpu_result_exact(s), "the tiled result equals the reference");
    for (int i = 0; i < 4; ++i)
        CHECK(s->tiles.ms[i] >= 0, "tile %d has its time", i);
    if (s->gpu.device_known && s->gpu.device.memory_total > 0)
        CHECK(s->gpu.device.memory_engine <= s->gpu.budget, "the engine holds %lld bytes, within the budget",
              s->gpu.device.memory_engine);
    f = fmemopen(state, sizeof state, "w");
    app_print_state(&a, f);
    fclose(f);
    CHECK(strstr(state, "\nmem_budget=1048576\n") && strstr(state, "\ntiles=4\n") && strstr(state, "\ntiles_done=4\n"),
          "the state says it");
    /* another filter: the tiles again, one a slice, each waiting for its
     * turn on screen (the clock stands still here until moved) */
    app_do(&a, app_act_of(app_action_filter(2)));
    scene_work(s, 0.0); /* the CPU engines go to the measuring thread, then the GPU's turn */
    for (int guard = 0; s->task.busy != SCENE_FEATURE_TILES && guard < 5000; ++guard) {
        scene_work(s, 0.0);
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    CHECK(s->tiles.on && s->task.busy == SCENE_FEATURE_TILES, "another filter runs the tiles again");
    for (int guard = 0; s->tiles.done < 1 && guard < 1000; ++guard)
        scene_work(s, 0.0);
    CHECK(s->tiles.done == 1, "the first tile at once: %d", s->tiles.done);
    scene_work(s, 0.0);
    CHECK(s->tiles.done == 1 && scene_waiting(s), "the second waits for its turn: %d", s->tiles.done);
    CHECK(scene_gpu_done_at(s, 10, 10) && !scene_gpu_done_at(s, 300, 10) && !scene_gpu_done_at(s, 10, 300),
          "outputs of tiles to come are not done");
    fake_now += 1000;
    scene_work(s, 0.0);
    CHECK(s->tiles.done == 2, "its turn came: %d", s->tiles.done);
    /* Esc stops the tiles: back to the CPU, said */
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!s->tiles.on && s->phase == SCENE_PHASE_CPU && strstr(s->notice, "stopped after 2 of 4"),
          "Esc stops the tiles (%s)", s->notice);
    /* the sweep started while tiles run stops them: no half result stays */
    app_do(&a, app_act_id(ACT_GPU));
    CHECK(s->task.busy == SCENE_FEATURE_TILES && s->tiles.done < 4, "tiles under way (%d)", s->tiles.done);
    app_do(&a, app_act_id(ACT_SWEEP));
    CHECK(!s->tiles.on && s->phase == SCENE_PHASE_CPU && s->task.busy == SCENE_FEATURE_SWEEP,
          "the sweep stopped the tiles");
    app_do(&a, app_act_id(ACT_ESCAPE));
    app_do(&a, app_act_id(ACT_ESCAPE));
    scene_settle(s);
    run_name(&a, "gpu");
    CHECK(s->tiles.done == 4 && gpu_result_exact(s), "G again: every tile, exact (gaussian)");
    /* a budget too small for a plan: the banner says why; the next GPU
     * success takes that banner down */
    scene_set_budget(s, 100);
    run_name(&a, "gpu");
    CHECK(s->banner[0] && strstr(s->banner, "tiles") && s->phase == SCENE_PHASE_CPU, "refused: %s", s->banner);
    scene_set_budget(s, 1 << 20);
    run_name(&a, "gpu");
    CHECK(!s->banner[0] && s->tiles.done == 4, "the GPU ran: its failure's banner went (%s)", s->banner);
    scene_say_error(s, "a file could not be read");
    run_name(&a, "gpu");
    CHECK(strcmp(s->banner, "a file could not be read") == 0, "another banner stays until closed");
    scene_say_error(s, "");
    /* while tiles run: another filter shows none done until they run again;
     * another budget, or another GPU engine, runs the GPU phase again */
    app_do(&a, app_act_id(ACT_GPU));
    scene_work(s, 0.0);
    CHECK(s->task.busy == SCENE_FEATURE_TILES && s->tiles.done == 1, "tiles under way: %d", s->tiles.done);
    app_do(&a, app_act_of(app_action_filter(3)));
    CHECK(s->phase == SCENE_PHASE_GPU && s->tiles.on && s->tiles.done == 0 && !scene_gpu_done_at(s, 10, 10),
          "a new filter: no half result of the old one shows");
    scene_settle(s);
    CHECK(s->phase == SCENE_PHASE_GPU && s->tiles.done == 4 && gpu_result_exact(s), "the tiles ran again, exact");
    {
        char said[256] = "";
        CHECK(app_placeholder(&a, "tiles_vs_whole", said, sizeof said) && strstr(said, "to compare"),
              "no run in one piece of the new filter to compare the tiles with: %s", said);
    }
    app_do(&a, app_act_id(ACT_GPU));
    scene_work(s, 0.0);
    CHECK(s->task.busy == SCENE_FEATURE_TILES && s->tiles.done == 1, "tiles under way again: %d", s->tiles.done);
    run_name(&a, "memory-budget"); /* 4 MiB: the image fits */
    CHECK(s->phase == SCENE_PHASE_GPU && !s->tiles.on && s->gpu.eng.measured && gpu_result_exact(s) &&
              strstr(s->notice, "4.0 MiB"),
          "P while tiles run: the GPU phase again, whole now (%s)", s->notice);
    scene_set_budget(s, 1 << 20);
    scene_settle(s);
    CHECK(s->phase == SCENE_PHASE_GPU && s->tiles.done == 4 && gpu_result_exact(s), "and back in tiles");
    {
        /* lesson 6: the tiles beside the run in one piece just before, by the one rule */
        char said[256] = "", whole[32];
        fmt_ms(eng_total_ms(&s->gpu.whole), whole, sizeof whole);
        CHECK(app_placeholder(&a, "tiles_vs_whole", said, sizeof said) && strstr(said, "in one piece (") &&
                  strstr(said, whole),
              "the tiles against the whole image's %s: %s", whole, said);
    }
    /* a lesson starts without a budget; leaving it brings the budget back */
    app_options_default(&defaults, "sobel-x");
    memset(&st, 0, sizeof st);
    scene_stash_settings(s, &st, &defaults);
    CHECK(s->gpu.budget == 0 && !s->tiles.on, "a lesson starts with no budget");
    scene_unstash(s, &st);
    CHECK(s->gpu.budget == 1 << 20, "leaving it brings the budget back");
    /* round the budgets: 4, 16, 64, 256 MiB fit the image; then off */
    for (int i = 2; i < SCENE_BUDGET_COUNT; ++i) {
        run_name(&a, "memory-budget");
        CHECK(s->gpu.budget == scene_budget_at(i) && !scene_needs_tiles(s), "budget %d: %lld, fits", i, s->gpu.budget);
    }
    run_name(&a, "memory-budget");
    CHECK(s->gpu.budget == 0 && strstr(s->notice, "off"), "then off: %s", s->notice);
    run_name(&a, "gpu");
    CHECK(!s->tiles.on && s->phase == SCENE_PHASE_GPU && s->gpu.eng.measured && gpu_result_exact(s),
          "with no budget the GPU runs the whole image at once");
    app_free(&a);
}

/* A script's, or a lesson step's, work on whole images is bounded by its
 * size: at lesson --check (too-big's image at convis's limit at most), for
 * --do and for a step on the image shown. */
static void test_work_bounds(void)
{
    app a;
    scene *s = &a.s;
    char path[512];
    lsn_lesson l;
    img_plane big;
    img_image img;
    unsigned long runs;
    write_lesson("work.yaml", "title: Work\nsteps:\n  - say: one\n    do: [gpu, memory-budget, too-big, gpu*99]\n",
                 path, sizeof path);
    CHECK(!app_lesson_load(path, &l) && strstr(err_msg(), "work.yaml:4:39: gpu*99 would take") &&
              strstr(err_msg(), "pixel-passes") && !strchr(err_msg(), '\n'),
          "99 GPU runs after too-big are refused at --check: %s", err_msg());
    fresh(&a);
    if (!s->gpu.eng.engine) { /* no GPU engine in this build: cpu-par stands in for one */
        s->gpu.eng.engine = eng_open(eng_find("cpu-par"));
        snprintf(s->gpu.eng.name, sizeof s->gpu.eng.name, "cpu-par");
    }
    s->opt.limits.max_pixels = 1 << 26;
    CHECK(!app_run_script(&a, "too-big,gpu*99") && strstr(err_msg(), "gpu*99 would take"),
          "--do: 99 GPU runs after too-big are refused: %s", err_msg());
    CHECK(!app_run_script(&a, "apply-again*50,gpu*10,too-big,apply-again*4") && strstr(err_msg(), "apply-again*4"),
          "--do: the passes add up, apply-again's and gpu's: %s", err_msg());
    CHECK(app_run_script(&a, "gpu*2,apply-again*2"), "a few passes on the sample run: %s", err_msg());
    /* a step on a 2048x2048 image: 99 GPU runs are over the bound there,
     * though --check could not know the image (the lesson names none) */
    CHECK(img_plane_scaled(&s->img.luma, 2048, 2048, &big) && img_from_plane(&big, &img), "a 2048x2048 image");
    img_plane_free(&big);
    scene_adopt_image(s, &img, "big");
    write_lesson("work.yaml", "title: Work\nsteps:\n  - say: one\n    do: [border, gpu*99]\n", path, sizeof path);
    CHECK(app_lesson_load(path, &l), "no image named: --check passes it: %s", err_msg());
    lsn_free(&l);
    runs = s->gpu.runs;
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    CHECK(strstr(s->banner, "work.yaml:4:18: gpu*99 would take") && s->gpu.runs == runs &&
              s->opt.border == a.defaults.border,
          "on the image shown the step is refused, none of it run: %s", s->banner);
    app_free(&a);
}

/* In the window (step_slices) a step's actions run a slice at a time: GPU
 * work in tiles, and the actions after it, wait for the frames, so that
 * quit and Esc answer at once; elsewhere (a still, a GIF) all at once. */
static void test_step_slices(void)
{
    app a;
    scene *s = &a.s;
    char path[512];
    double t0;
    int slices = 0;
    conv_border border;
    write_lesson("slices.yaml", "title: Slices\nsteps:\n  - say: one\n    do: [memory-budget, gpu*3, border]\n", path,
                 sizeof path);
    fresh(&a);
    if (!s->gpu.eng.engine) {
        s->gpu.eng.engine = eng_open(eng_find("cpu-par"));
        snprintf(s->gpu.eng.name, sizeof s->gpu.eng.name, "cpu-par");
    }
    a.step_slices = true;
    t0 = tim_now_ms();
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    border = s->opt.border;
    CHECK(s->gpu.budget == 1 << 20 && s->task.busy == SCENE_FEATURE_TILES && s->tiles.done < 4 && app_step_due(&a),
          "the step's first GPU run is under way in tiles, the rest waits (budget %lld, tiles %d, due %d)",
          s->gpu.budget, s->tiles.done, app_step_due(&a));
    app_do(&a, app_act_id(ACT_QUIT));
    CHECK(a.quit && tim_now_ms() - t0 < 1000, "quit answers at once: %.0f ms", tim_now_ms() - t0);
    a.quit = false;
    app_do(&a, app_act_id(ACT_ESCAPE));
    CHECK(!scene_busy(s) && !app_step_due(&a) && app_in_lesson(&a), "Esc stops the tiles and the step's rest");
    for (int guard = 0; app_work(&a, 0.0) && guard < 100000; ++guard)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    CHECK(s->opt.border == border && !s->tiles.on, "nothing of the step's rest ran after Esc");
    /* left alone, the rest runs in the window's slices, to its end */
    CHECK(app_lesson_start(&a, path), "start again: %s", err_msg());
    CHECK(app_step_due(&a) && s->task.busy == SCENE_FEATURE_TILES, "the step again: its rest waits");
    for (; app_work(&a, 0.0) && slices < 100000; ++slices) {
        fake_now += 1000; /* each tile's turn on screen comes */
        nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    CHECK(!app_step_due(&a) && s->opt.border != border && s->tiles.done == 4 && gpu_result_exact(s),
          "the step's rest ran in %d slices: three GPU runs in tiles, then the border", slices);
    CHECK(slices >= 12, "a slice at a time: %d slices for 12 tiles", slices);
    /* a still, a GIF: the step all at once, but the last long work */
    a.step_slices = false;
    CHECK(app_lesson_start(&a, path), "start once more: %s", err_msg());
    CHECK(!app_step_due(&a) && s->opt.border != border, "without slices the step runs at once");
    app_settle(&a);
    app_free(&a);
}

/* ---- placeholders ---------------------------------------------------------------------- */

static void test_placeholders(void)
{
    app a;
    size_t n = 0;
    char buf[512];
    fresh(&a);
    for (size_t i = 0; lsn_placeholders[i]; ++i, ++n) {
        CHECK(app_placeholder_name(i) && strcmp(app_placeholder_name(i), lsn_placeholders[i]) == 0,
              "placeholder %zu: the parser has '%s', the app '%s'", i, lsn_placeholders[i],
              app_placeholder_name(i) ? app_placeholder_name(i) : "(none)");
        CHECK(app_placeholder(&a, lsn_placeholders[i], buf, sizeof buf) && buf[0] && !strchr(buf, '{'),
              "{%s} fills as '%s'", lsn_placeholders[i], buf);
    }
    CHECK(n == app_placeholder_count(), "the parser knows %zu placeholders, the app %zu", n, app_placeholder_count());
    CHECK(!app_placeholder(&a, "no_such_thing", buf, sizeof buf), "an unknown name is not filled");
    app_placeholder(&a, "cpu_threads", buf, sizeof buf);
    CHECK(atoi(buf) == a.s.cpu[SCENE_CPU_PAR].timing.threads && atoi(buf) >= 1 &&
              atoi(buf) <= a.s.cpu[SCENE_CPU_PAR].timing.launch.bands,
          "cpu_threads %s is the threads cpu-par really used: %d (of %d bands)", buf,
          a.s.cpu[SCENE_CPU_PAR].timing.threads, a.s.cpu[SCENE_CPU_PAR].timing.launch.bands);
    {
        /* thread view: an output's cpu-par band, the thread that ran it and the threads the run used (not the
         * pool's size): the run measured, then two bands that one thread ran */
        char band[256], thread[256], want[64];
        scene_engine keep = a.s.cpu[SCENE_CPU_PAR];
        eng_launch *l = &a.s.cpu[SCENE_CPU_PAR].timing.launch;
        int w = a.s.img.luma.w, h = a.s.img.luma.h;
        snprintf(want, sizeof want, "used %d thread", keep.timing.threads);
        CHECK(scene_cpu_owner_text(&a.s, w - 1, h - 1, band, thread, sizeof band) && strstr(thread, want) &&
                  strstr(band, "band ") && !strstr(band, "thread"),
              "the last output's owner, after the run: '%s' '%s'", band, thread);
        l->bands = 2, l->band_thread[0] = l->band_thread[1] = 0;
        a.s.cpu[SCENE_CPU_PAR].timing.threads = 1;
        CHECK(scene_cpu_owner_text(&a.s, w - 1, h - 1, band, thread, sizeof band) && strstr(band, "band 2 of 2") &&
                  strcmp(thread, "run by thread 1; this run used 1 thread") == 0,
              "two bands on one thread: '%s' '%s'", band, thread);
        l->band_thread[1] = 1;
        a.s.cpu[SCENE_CPU_PAR].timing.threads = 2;
        CHECK(scene_cpu_owner_text(&a.s, w - 1, h - 1, band, thread, sizeof band) &&
                  strcmp(thread, "run by thread 2; this run used 2 threads") == 0 &&
                  scene_cpu_owner_text(&a.s, 0, 0, band, thread, sizeof band) &&
                  strstr(band, "band 1 of 2: outputs 0") &&
                  strcmp(thread, "run by thread 1; this run used 2 threads") == 0,
              "two bands on two threads: '%s' '%s'", band, thread);
        a.s.cpu[SCENE_CPU_PAR].measured = false;
        CHECK(!scene_cpu_owner_text(&a.s, 0, 0, band, thread, sizeof band), "not measured: no owner said");
        a.s.cpu[SCENE_CPU_PAR] = keep;
    }
    /* the second-core check ran with cpu-par's measurement, and fills its two */
    CHECK(a.s.measure.cores_check.threads == eng_par_threads() && a.s.measure.cores_check.worth > 0,
          "the second-core check ran with cpu-par: %d threads, %.2f cores' worth", a.s.measure.cores_check.threads,
          a.s.measure.cores_check.worth);
    app_placeholder(&a, "cpu_cores", buf, sizeof buf);
    CHECK(strstr(buf, "measured") && strstr(buf, "cores' worth"), "{cpu_cores}: '%s'", buf);
    app_placeholder(&a, "par_band_outputs", buf, sizeof buf);
    {
        char want[32];
        fmt_count(eng_par_band_outputs(), want, sizeof want);
        CHECK(strcmp(buf, want) == 0, "{par_band_outputs} is cpu-par's own least band: '%s'", buf);
    }
    app_free(&a);
}

/* The second-core check's words follow its figures: a second core that gave
 * under SCENE_CORES_FREE of a core is said to be busy or shared, with its
 * share; one that gave more, free; one thread, none to give. */
static void test_cores_note(void)
{
    static const struct {
        int threads;
        double worth;
        const char *has, *lacks;
    } cases[] = {
        {2, 1.4, "your second core gave 40% of a core (measured): the machine is busy or shared", "free"},
        {2, 1.0, "gave 0% of a core", "free"},
        {2, 1.74, "gave 74% of a core (measured): the machine is busy", "free"},
        {2, 1.76, "gave 76% of a core (measured): it was free", "busy"},
        {2, 2.0, "gave 100% of a core", "busy"},
        {4, 2.5, "your other 3 cores gave 50% of a core each (measured): the machine is busy or shared", "free"},
        {4, 3.7, "your other 3 cores gave 90% of a core each (measured): they were free", "busy"},
        {1, 1.0, "one thread", "busy"},
        {0, 0.0, "not measured yet", "busy"},
    };
    char buf[320];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        eng_cores c = {cases[i].threads, cases[i].worth, 0.5, 0.5};
        scene_cores_note(&c, buf, sizeof buf);
        CHECK(strstr(buf, cases[i].has) && !strstr(buf, cases[i].lacks), "%d threads, %.2f cores' worth: '%s'",
              cases[i].threads, cases[i].worth, buf);
    }
    {
        eng_cores c = {2, 1.9, 0.5, 0.53};
        scene_cores_text(&c, buf, sizeof buf);
        CHECK(strcmp(buf, "2 threads at once gave 1.9 cores' worth of work (measured)") == 0, "the figure: '%s'", buf);
    }
}

/* ---- what the GPU is, and comparisons -------------------------------------------------- */

static void test_hardware_and_compare(void)
{
    static const struct {
        const char *renderer;
        eng_hardware want;
    } kinds[] = {
        {"llvmpipe (LLVM 15.0.6, 256 bits)", ENG_HW_SOFTWARE},
        {"softpipe", ENG_HW_SOFTWARE},
        {"Mesa X11 swrast", ENG_HW_SOFTWARE},
        {"D3D12 (Microsoft Basic Render Driver)", ENG_HW_SOFTWARE},
        {"SwiftShader Device (Subzero)", ENG_HW_SOFTWARE},
        {"zink (llvmpipe (LLVM 15.0.6, 256 bits))", ENG_HW_SOFTWARE},
        {"virgl (NVIDIA GeForce RTX 3080)", ENG_HW_VIRTUAL},
        {"SVGA3D; build: RELEASE;  LLVM;", ENG_HW_VIRTUAL},
        {"NVIDIA H200/PCIe/SSE2", ENG_HW_GPU},
        {"AMD Radeon RX 6800 (navi21, LLVM 15.0.7, DRM 3.49, 6.1.0)", ENG_HW_GPU},
        {"Mesa Intel(R) UHD Graphics 620 (KBL GT2)", ENG_HW_GPU},
        {"Apple M2", ENG_HW_GPU},
    };
    eng_timing a, b;
    char buf[256];
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i)
        CHECK(eng_renderer_kind(kinds[i].renderer) == kinds[i].want, "'%s' is %s, not %s", kinds[i].renderer,
              eng_hardware_name(kinds[i].want), eng_hardware_name(eng_renderer_kind(kinds[i].renderer)));
    /* faster or slower only when the ranges do not overlap; one way round */
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.has[ENG_COMPUTE] = b.has[ENG_COMPUTE] = true;
    a.ms[ENG_COMPUTE] = 1.0, a.total_min = 0.9, a.total_max = 1.2, a.reps = 9;
    b.ms[ENG_COMPUTE] = 138.4, b.total_min = 130, b.total_max = 150, b.reps = 9;
    fmt_compare("gl", &b, "cpu-par", &a, buf, sizeof buf);
    CHECK(!strcmp(buf, "gl was 138.4\xC3\x97 slower than cpu-par"), "one way round: %s", buf);
    fmt_ratio(1.04, 1.0, buf, sizeof buf);
    CHECK(!strcmp(buf, "1.04\xC3\x97"), "near 1, two decimals: %s", buf);
    fmt_ratio(1.0, 1.2, buf, sizeof buf);
    CHECK(!strcmp(buf, "1.2\xC3\x97"), "%s", buf);
    fmt_compare("cpu-par", &a, "gl", &b, buf, sizeof buf);
    CHECK(!strcmp(buf, "cpu-par was 138.4\xC3\x97 faster than gl"), "%s", buf);
    b.ms[ENG_COMPUTE] = 1.3, b.total_min = 1.1, b.total_max = 1.6; /* 1.3x, but the runs overlap */
    fmt_compare("gl", &b, "cpu-par", &a, buf, sizeof buf);
    CHECK(strstr(buf, "about the same") != NULL, "overlapping runs: %s", buf);
    {
        /* one rule for the words, whatever the surface: a gap within the
         * runs' own spread or under 5% is "about the same"; a single run is
         * named as one; a large gap is a verdict even from one run */
        eng_spread tight1 = {1.0, 0.999, 1.001, 9}, tight2 = {1.01, 1.009, 1.011, 9};
        eng_spread once_big = {116.0, 116.0, 116.0, 1}, once_small = {4.19, 4.19, 4.19, 1};
        eng_spread once_a = {1.0, 1.0, 1.0, 1}, once_b = {1.01, 1.01, 1.01, 1}, once_c = {1.5, 1.5, 1.5, 1};
        eng_spread wide = {1.3, 1.02, 1.55, 9}, narrow = {1.0, 0.99, 1.01, 9};
        eng_verdict v = eng_verdict_of(tight2, tight1);
        CHECK(v.kind == ENG_SAME, "1%% apart with tight runs is the same, not %d", (int)v.kind);
        fmt_verdict(FMT_SENTENCE, "cpu-par", "cpu-simd", &v, buf, sizeof buf);
        CHECK(strstr(buf, "about the same") && !strstr(buf, "faster"), "%s", buf);
        fmt_verdict(FMT_SHORT, "cpu-par", "cpu-simd", &v, buf, sizeof buf);
        CHECK(strstr(buf, "\xE2\x89\x88") && !strstr(buf, "1.0"), "the chart: %s", buf);
        fmt_verdict(FMT_COLUMN, "", "", &v, buf, sizeof buf);
        CHECK(!strcmp(buf, "about the same"), "bench: %s", buf);
        v = eng_verdict_of(once_big, once_small);
        CHECK(v.kind == ENG_SLOWER && v.runs == 1, "27.7x from one run each is a verdict (%d)", (int)v.kind);
        fmt_verdict(FMT_SHORT, "gl", "cpu-par", &v, buf, sizeof buf);
        CHECK(!strcmp(buf, "gl 27.7\xC3\x97 slower than cpu-par (from a single run)"), "named as one run: %s", buf);
        fmt_verdict(FMT_COLUMN, "", "", &v, buf, sizeof buf);
        CHECK(!strcmp(buf, "27.7x slower"), "bench: %s", buf);
        v = eng_verdict_of(once_b, once_a);
        fmt_verdict(FMT_SENTENCE, "cpu-par", "cpu-simd", &v, buf, sizeof buf);
        CHECK(!strcmp(buf, "cpu-par and cpu-simd took about the same time (from a single run)"), "%s", buf);
        v = eng_verdict_of(once_c, once_a);
        CHECK(v.kind == ENG_UNSURE, "1.5x from one run each is too few runs to tell (%d)", (int)v.kind);
        fmt_verdict(FMT_SENTENCE, "cpu-par", "cpu-simd", &v, buf, sizeof buf);
        CHECK(!strcmp(buf, "cpu-par and cpu-simd were 1.5\xC3\x97 apart, too few runs to tell which was faster (from a "
                           "single run)"),
              "the gap said, and why there is no verdict: %s", buf);
        v = eng_verdict_of(wide, narrow);
        CHECK(v.kind == ENG_SLOWER, "1.3x, every run apart, is a verdict though one side spread 41%% (%d)",
              (int)v.kind);
        {
            eng_spread a10 = {1.0, 0.95, 1.05, 9}, b8 = {1.07, 1.055, 1.14, 9};
            v = eng_verdict_of(b8, a10);
            CHECK(v.kind == ENG_SAME, "7%% apart when both vary by 8-10%% is the same (%d)", (int)v.kind);
        }
        v = eng_verdict_of(narrow, wide);
        CHECK(v.ratio > 1.29 && v.ratio < 1.31, "one way round: %.3f", v.ratio);
    }
    i18n_set_lang("zh"); /* the catalogue, with no Chinese locale on the system */
    fmt_compare("gl", &b, "cpu-par", &a, buf, sizeof buf);
    CHECK(strstr(buf, "差不多") != NULL, "in Chinese: %s", buf);
    b.ms[ENG_COMPUTE] = 138.4, b.total_min = 130, b.total_max = 150;
    fmt_compare("gl", &b, "cpu-par", &a, buf, sizeof buf);
    CHECK(!strcmp(buf, "gl 比 cpu-par 慢 138.4\xC3\x97"), "in Chinese, its own order: %s", buf);
    i18n_set_lang("en");
    {
        /* the window says when the times are noisy: the CPU busy with other
         * programs, or runs spread over half their median */
        app x;
        fresh(&x);
        x.s.measure.load = 0.2, x.s.measure.cores = 2;
        x.s.cpu[SCENE_CPU_PAR].timing.total_min = 0.9 * eng_total_ms(&x.s.cpu[SCENE_CPU_PAR].timing);
        x.s.cpu[SCENE_CPU_PAR].timing.total_max = 1.1 * eng_total_ms(&x.s.cpu[SCENE_CPU_PAR].timing);
        x.s.cpu[SCENE_CPU_SEQ].timing.total_min = x.s.cpu[SCENE_CPU_SEQ].timing.total_max = 0; /* one run's figure */
        x.s.cpu[SCENE_CPU_SIMD].measured = x.s.gpu.eng.measured = false;
        CHECK(!scene_noisy(&x.s), "quiet: runs within 10%%");
        x.s.cpu[SCENE_CPU_PAR].timing.total_max = 2.0 * eng_total_ms(&x.s.cpu[SCENE_CPU_PAR].timing);
        CHECK(scene_noisy(&x.s), "noisy: the slowest run twice the median");
        app_free(&x);
    }
}

/* C without a GPU engine says so; it never speaks of "this GPU engine". */
static void test_result_paths_without_gpu(void)
{
    app a;
    fresh(&a);
    if (!a.s.gpu.eng.engine) {
        for (int i = 0; i < 3; ++i) {
            a.s.notice[0] = '\0';
            run_name(&a, "gpu-result");
            CHECK(strstr(a.s.notice, "no GPU engine") && !strstr(a.s.notice, "this GPU engine"),
                  "C %d without a GPU engine: '%s'", i + 1, a.s.notice);
        }
        run_name(&a, "gpu");
        CHECK(strstr(a.s.notice, "no GPU engine here: ") && !strstr(a.s.notice, "no GPU engine: "),
              "G without a GPU engine says so once: '%s'", a.s.notice);
        {
            char value[600];
            CHECK(app_placeholder(&a, "gpu_engine", value, sizeof value) && strstr(value, "no GPU engine here: ") &&
                      !strstr(value, "no GPU engine: "),
                  "{gpu_engine} says there is none once: '%s'", value);
        }
    }
    app_free(&a);
}

/* The texts a step has for other machines reach the narration. */
static void test_machine_texts(void)
{
    app a;
    char path[512], buf[256];
    fresh(&a);
    write_lesson("machines.yaml",
                 "title: M\nsteps:\n  - say: plain\n    say-gpu: real\n    say-software: soft\n"
                 "    say-no-gpu: none\n",
                 path, sizeof path);
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    app_narration(&a, buf, sizeof buf);
    CHECK(!strcmp(buf, a.s.gpu.eng.engine ? (a.s.gpu.eng.hardware == ENG_HW_SOFTWARE ? "soft" : "real") : "none"),
          "this machine's text: %s", buf);
    setenv("CONVIS_TEST_MACHINE", "gpu", 1);
    app_narration(&a, buf, sizeof buf);
    CHECK(!strcmp(buf, "real"), "pretending a GPU: %s", buf);
    setenv("CONVIS_TEST_MACHINE", "software", 1);
    app_narration(&a, buf, sizeof buf);
    CHECK(!strcmp(buf, "soft"), "pretending software: %s", buf);
    setenv("CONVIS_TEST_MACHINE", "virtual", 1);
    app_narration(&a, buf, sizeof buf);
    CHECK(strstr(buf, "virtual GPU") && strstr(buf, "hidden") && strstr(buf, "real") == buf + strlen(buf) - 4,
          "a virtual GPU: the GPU's text, said to be about hidden hardware: %s", buf);
    unsetenv("CONVIS_TEST_MACHINE");
    app_lesson_stop(&a);
    app_narration(&a, buf, sizeof buf);
    CHECK(!buf[0], "no narration outside a lesson: '%s'", buf);
    /* a wait's keys: either one, said so */
    write_lesson("hint.yaml", "title: H\nsteps:\n  - say: a\n    wait: restart\n  - say: b\n", path, sizeof path);
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    app_hint(&a, buf, sizeof buf);
    CHECK(!strcmp(buf, "Your turn: press R or Home to go on"), "the hint: %s", buf);
    app_free(&a);
}

/* ---- recorded runs ------------------------------------------------------------------- */

/* A record's text made from one template: its version, CPU, first
 * engine's name, and its run's size and median as written. */
static void record_text(char *buf, size_t size, const char *version, const char *cpu, const char *name,
                        const char *run_size, const char *median)
{
    snprintf(buf, size,
             "{\"convis_record\": %s, \"convis\": \"0.1.0\", \"date\": \"2026-11-30T23:40:00Z\",\n"
             " \"machine\": {\"cpu\": \"%s\", \"cores\": 2, \"gpu\": \"g\", \"gpu_kind\": \"GPU\"},\n"
             " \"filter\": \"gaussian\", \"border\": \"clamp\",\n"
             " \"engines\": [{\"name\": \"%s\", \"description\": \"d\", \"runs\": [\n"
             "  {\"size\": %s, \"median_ms\": %s, \"min_ms\": 0.5, \"max_ms\": 2, \"reps\": 9}]}]}\n",
             version, cpu, name, run_size, median);
}

/* Whether s is whole UTF-8 text with no control character: err_shown
 * leaves it as it is. */
static bool printable_utf8(const char *s)
{
    char shown[2048];
    return !strcmp(err_shown(s, strlen(s), shown, sizeof shown), s);
}

/* Records from strangers: numbers read as JSON writes them, nesting and
 * size bounded before parsing (within well under a second), not-JSON
 * refused, a file's control characters escaped in the sentence, long
 * text cut between characters; the same for what lessons quote. */
static void test_record_strict(void)
{
    static const struct {
        const char *version, *run_size, *median, *want;
    } bad[] = {
        {"\"1\"", "4", "1", "\"convis_record\" at line 1, column 19 is \"1\", not a whole number"},
        {"0x1", "4", "1", "\"convis_record\" at line 1, column 19 is 0x1, not a whole number"},
        {"1.9", "4", "1", "\"convis_record\" at line 1, column 19 is 1.9, not a whole number"},
        {"1e0", "4", "1", "is 1e0, not a whole number"},
        {"01", "4", "1", "is 01, not a whole number"},
        {"1", "4.9", "1", "\"size\" at line 5, column 12 is 4.9, not a whole number"},
        {"1", "\"4\"", "1", "\"size\" at line 5, column 12 is \"4\", not a whole number"},
        {"1", "4", "\"1\"", "\"median_ms\" at line 5, column 28 is \"1\", not a number"},
        {"1", "4", ".5", "is .5, not a number"},
        {"1", "4", "+1", "is +1, not a number"},
        {"1", "4", "1.", "is 1., not a number"},
        {"1", "4", "0x1", "is 0x1, not a number"},
        {"1", "4", ".inf", "is .inf, not a number"},
        {"1", "4", "1e999", "is 1e999, outside"},
        {"1", "4", "[1]", "is a list, not a number"},
    };
    char text[4096], path[512], long_cpu[400], *big;
    app_record r;
    double t0;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        record_text(text, sizeof text, bad[i].version, "c", "cpu-seq", bad[i].run_size, bad[i].median);
        write_lesson("strict.json", text, path, sizeof path);
        CHECK(!rec_read(path, &r) && strstr(err_msg(), "damaged record") && strstr(err_msg(), bad[i].want),
              "%s, %s, %s: want '%s': %s", bad[i].version, bad[i].run_size, bad[i].median, bad[i].want, err_msg());
    }
    record_text(text, sizeof text, "1", "c", "cpu-seq", "4", "1.0E+0");
    write_lesson("strict.json", text, path, sizeof path);
    CHECK(rec_read(path, &r) && r.version == 1 && r.engine[0].run[0].size == 4 && r.engine[0].run[0].median_ms == 1,
          "JSON's numbers read: %s", err_msg());

    /* nesting: eight levels read, nine refused before parsing */
    write_lesson("deep.json", "{\"convis_record\": 1, \"x\": [[[[[[[1]]]]]]]}", path, sizeof path);
    CHECK(!rec_read(path, &r) && strstr(err_msg(), "it has no \"convis\""), "eight levels parsed: %s", err_msg());
    write_lesson("deep.json", "{\"convis_record\": 1, \"x\": [[[[[[[[1]]]]]]]]}", path, sizeof path);
    CHECK(!rec_read(path, &r) && strstr(err_msg(), "nested more than 8 deep at line 1, column 34"),
          "nine levels refused: %s", err_msg());
    write_lesson("deep.json", "{\"convis_record\": 1, \"x\": \"[[[[[[[[[[\\\"[[[[[[[[[[\"}", path, sizeof path);
    CHECK(!rec_read(path, &r) && strstr(err_msg(), "it has no \"convis\""), "brackets in a string do not count: %s",
          err_msg());
    big = malloc(REC_MAX_BYTES + 2);
    memset(big, '[', REC_MAX_BYTES - 1024);
    big[REC_MAX_BYTES - 1024] = '\0';
    write_lesson("deep.json", big, path, sizeof path);
    t0 = tim_now_ms();
    CHECK(!rec_read(path, &r) && strstr(err_msg(), "nested more than 8 deep"), "255 KiB of '[': %s", err_msg());
    CHECK(tim_now_ms() - t0 < 500, "refused in %.0f ms", tim_now_ms() - t0);
    memset(big, ' ', REC_MAX_BYTES + 1);
    big[0] = '{', big[REC_MAX_BYTES] = '}', big[REC_MAX_BYTES + 1] = '\0';
    write_lesson("big.json", big, path, sizeof path);
    CHECK(!rec_read(path, &r) && strstr(err_msg(), "is 262145 bytes, and a record is at most 256 KiB"),
          "one byte too many: %s", err_msg());
    free(big);
    /* YAML that is not JSON: refused, its character named */
    {
        static const char *const not_json[][2] = {
            {"{\"convis_record\": &a 1}", "'&' at line 1, column 19 is not JSON"},
            {"{\"convis_record\": 1, \"a\": *a}", "'*' at line 1, column 27"},
            {"{\"convis_record\": !!int 1}", "'!' at line 1"},
            {"{\"convis_record\": 1 # a comment\n}", "'#' at line 1"},
            {"{\"a\": b\"[[[[[[[[[[\"}", "'\"' at line 1, column 8"},
            {"{\"convis_record\": 1, 'a': 2}", "''' at line 1"},
            {"{a: 1}", "':' at line 1, column 3"},
            {"--- {}", "'-' at line 1, column 1"},
            {"{} {}", "'{' at line 1, column 4"},
            {"{\"convis_record\": 1, \"x\": [\"a\": [1]]}", "':' at line 1, column 31"}, /* a mapping in a list */
            {"{\"a\": [1}", "'}' at line 1, column 9"},
            {"{\"a\": \"\x1b[2J\"}", "'\\x1b' at line 1, column 8 is not JSON"}, /* a raw control character */
            {"{\"a\": \"x\\0y\"}", "'\\' at line 1, column 9 is not JSON"},      /* YAML's escapes, not JSON's */
            {"{\"a\": \"\\x41\"}", "'\\' at line 1, column 8 is not JSON"},
        };
        for (size_t i = 0; i < sizeof not_json / sizeof not_json[0]; ++i) {
            write_lesson("yaml.json", not_json[i][0], path, sizeof path);
            CHECK(!rec_read(path, &r) && strstr(err_msg(), not_json[i][1]) && printable_utf8(err_msg()),
                  "'%s': want '%s': %s", not_json[i][0], not_json[i][1], err_msg());
        }
    }
    /* control characters of the file escaped in the sentence */
    record_text(text, sizeof text, "1", "c", "\\u001b]0;owned\\u0007\\u001b[2J", "4", "0.1");
    write_lesson("control.json", text, path, sizeof path);
    CHECK(!rec_read(path, &r) && strstr(err_msg(), "engine '\\x1b]0;owned\\x07\\x1b[2J' has a run of size 4") &&
              !strchr(err_msg(), '\x1b') && !strchr(err_msg(), '\a'),
          "an engine's name escaped: %s", err_msg());
    /* a long CPU name of Chinese: kept and labelled in whole characters */
    long_cpu[0] = '\0';
    for (int i = 0; i < 100; ++i)
        strcat(long_cpu, "\xE4\xB8\xAD");
    record_text(text, sizeof text, "1", long_cpu, "cpu-seq", "4", "1");
    write_lesson("long.json", text, path, sizeof path);
    CHECK(rec_read(path, &r), "a long CPU name: %s", err_msg());
    CHECK(printable_utf8(r.cpu) && strlen(r.cpu) == 126, "cut between characters: %zu bytes", strlen(r.cpu));
    for (size_t size = 40; size < 200; size += 7) {
        char label[200];
        rec_label(&r, label, size);
        CHECK(printable_utf8(label), "a label in %zu bytes cut between characters", size);
    }
    /* what a lesson quotes of its own text: escaped */
    {
        static const char *const lessons[][2] = {
            {"title: T\nimage: \"\\e[2J.png\"\nsteps:\n  - say: a\n", "image '\\x1b[2J.png' is neither"},
            {"title: T\nrecord: \"\\e[2J.json\"\nsteps:\n  - say: a\n", "record '\\x1b[2J.json' is neither"},
            {"title: T\nsteps:\n  - say: a\n    wait: \"\\e[2J\"\n", "wait names no action: '\\x1b[2J'"},
            {"title: T\nsteps:\n  - say: a\n    do: \"\\e[2J\"\n", "action '\\x1b[2J' is not known"},
            {"title: T\nsteps:\n  - say: a\n    do: \"step*\\e[2J\"\n", "bad count '\\x1b[2J'"},
        };
        for (size_t i = 0; i < sizeof lessons / sizeof lessons[0]; ++i) {
            lsn_lesson l;
            write_lesson("control.yaml", lessons[i][0], path, sizeof path);
            CHECK(!app_lesson_load(path, &l) && strstr(err_msg(), lessons[i][1]) && !strchr(err_msg(), '\x1b'),
                  "want '%s': %s", lessons[i][1], err_msg());
        }
    }
}

static void test_records(void)
{
    app a;
    app_record r, back;
    char path[512], damaged[512], text[8192];
    FILE *f;
    size_t n;
    fresh(&a);
    CHECK(!rec_from_scene(&a.s, "0.1.0", &r), "no sweep, no record: %s", err_msg());
    run_name(&a, "sweep");
    CHECK(rec_from_scene(&a.s, "0.1.0", &r) && r.engine_count >= 2 && r.engine[0].count == SCENE_SWEEP_SIZES,
          "a record of the sweep: %d engines, %d sizes", r.engine_count, r.engine[0].count);
    write_lesson("record.json", "", path, sizeof path);
    remove(path);
    CHECK(rec_write(path, &r), "written: %s", err_msg());
    CHECK(!rec_write(path, &r) && err_last_kind() == ERR_EXISTS, "never over an existing file: %s", err_msg());
    CHECK(rec_read(path, &back), "read back: %s", err_msg());
    CHECK(back.version == REC_VERSION && back.engine_count == r.engine_count && !strcmp(back.cpu, r.cpu) &&
              back.cores == r.cores && !strcmp(back.engine[1].name, "cpu-par") && back.engine[1].run[5].size == 4096 &&
              fabs(back.engine[1].run[5].median_ms - r.engine[1].run[5].median_ms) <=
                  1e-5 * r.engine[1].run[5].median_ms,
          "the same record back");
    /* the phases: cpu-par's compute and overhead, each back as written */
    CHECK(r.engine[1].run[5].phase_ms[ENG_COMPUTE] > 0 && r.engine[1].run[5].phase_ms[ENG_OVERHEAD] >= 0 &&
              r.engine[1].run[5].phase_ms[ENG_UPLOAD] < 0,
          "cpu-par's record has compute and overhead, no upload");
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        CHECK((back.engine[1].run[5].phase_ms[p] < 0) == (r.engine[1].run[5].phase_ms[p] < 0) &&
                  fabs(back.engine[1].run[5].phase_ms[p] - r.engine[1].run[5].phase_ms[p]) <=
                      1e-5 * fabs(r.engine[1].run[5].phase_ms[p]) + 1e-9,
              "phase %s read back", eng_phase_name((eng_phase)p));
    /* a record drawn never changes the live figures */
    {
        double live = a.s.sweep.ms[1][5];
        a.record = back;
        a.has_record = true;
        CHECK(a.s.sweep.ms[1][5] == live && a.s.sweep.count == SCENE_SWEEP_SIZES, "the live sweep stays");
    }
    /* damaged, of another kind, from a newer convis: one sentence each */
    f = fopen(path, "r");
    n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    write_lesson("damaged.json", "", damaged, sizeof damaged);
    remove(damaged);
    f = fopen(damaged, "w");
    fwrite(text, 1, n / 2, f);
    fclose(f);
    CHECK(!rec_read(damaged, &back) && strstr(err_msg(), "damaged record"), "a cut record: %s", err_msg());
    remove(damaged);
    f = fopen(damaged, "w");
    fputs("{\"title\": \"a lesson?\"}\n", f);
    fclose(f);
    CHECK(!rec_read(damaged, &back) && strstr(err_msg(), "not a convis record"), "another file: %s", err_msg());
    remove(damaged);
    {
        char *v = strstr(text, "\"convis_record\": 1");
        if (v)
            v[17] = '9';
    }
    f = fopen(damaged, "w");
    fputs(text, f);
    fclose(f);
    CHECK(!rec_read(damaged, &back) && strstr(err_msg(), "newer convis"), "a future version: %s", err_msg());
    remove(damaged);
    {
        /* numbers that would break the chart: infinite, out of range (in a
         * record of this version again) */
        char *v9 = strstr(text, "\"convis_record\": 9");
        if (v9)
            v9[17] = '1';
        static const char *const bad[][2] = {{"\"median_ms\": ", "\"median_ms\": 1e400, \"x\": "},
                                             {"\"size\": 4,", "\"size\": 5000,"},
                                             {"\"min_ms\": ", "\"min_ms\": -1, \"y\": "},
                                             {"\"compute\": ", "\"kompute\": "},
                                             {"\"phases\": {", "\"phases\": {\"overhead\": 1e400, "},
                                             {"\"phases\": {", "\"phases\": 3, \"z\": {"}};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            char edited[8400], *at;
            snprintf(edited, sizeof edited, "%s", text);
            at = strstr(edited, bad[i][0]);
            if (!at)
                continue;
            snprintf(at, sizeof edited - (size_t)(at - edited), "%s%s", bad[i][1],
                     strstr(text, bad[i][0]) + strlen(bad[i][0]));
            f = fopen(damaged, "w");
            fputs(edited, f);
            fclose(f);
            CHECK(!rec_read(damaged, &back) && strstr(err_msg(), "damaged record"), "'%s' refused: %s", bad[i][1],
                  err_msg());
            remove(damaged);
        }
    }
    remove(path);
    {
        char shipped[4096];
        snprintf(shipped, sizeof shipped, "%s/records/vm-2-cores-llvmpipe.json", app_data_dir());
        CHECK(rec_read(shipped, &back) && back.engine_count == 3, "the shipped record reads: %s", err_msg());
        CHECK(back.engine[2].run[5].phase_ms[ENG_COMPUTE] > 0, "with its phases");
    }
    {
        /* a lesson's record is drawn while it plays; free play's comes back after */
        char lpath[512], value[256];
        lsn_lesson l;
        write_lesson("with_record.yaml",
                     "title: R\nrecord: vm-2-cores-llvmpipe.json\nsteps:\n  - say: 'dashed: {record}'\n", lpath,
                     sizeof lpath);
        a.has_record = false;
        CHECK(app_lesson_start(&a, lpath), "a lesson with a record: %s", err_msg());
        CHECK(a.has_record && strstr(a.record.gpu, "llvmpipe"), "its record is drawn");
        CHECK(app_placeholder(&a, "record", value, sizeof value) && strstr(value, "recorded on llvmpipe"),
              "{record} names it: %s", value);
        app_lesson_stop(&a);
        CHECK(!a.has_record, "free play had none: none after the lesson");
        write_lesson("missing_record.yaml", "title: R\nrecord: nowhere.json\nsteps:\n  - say: a\n", lpath,
                     sizeof lpath);
        CHECK(!app_lesson_load(lpath, &l) && strstr(err_msg(), ":2:9: record 'nowhere.json' is neither"),
              "a missing record: %s", err_msg());
        write_lesson("bad_record.json", "{\"convis_record\": 1}\n", lpath, sizeof lpath);
        write_lesson("broken_record.yaml", "title: R\nrecord: bad_record.json\nsteps:\n  - say: a\n", lpath,
                     sizeof lpath);
        CHECK(!app_lesson_load(lpath, &l) && strstr(err_msg(), ":2:9: ") && strstr(err_msg(), "damaged record"),
              "a damaged record beside the lesson: %s", err_msg());
    }
    app_free(&a);
}

/* ---- every lesson's numbers -------------------------------------------------------------- */

/* Every step of every lesson in `lang`, played as a learner would (each wait
 * done), on machine `machine` (NULL: this one): the narration has every
 * placeholder filled with the value it names now, nothing left unmeasured
 * where the lesson has run what it needs, and its "faster"/"slower" agree
 * with the measured ranges. */
static void test_lesson_numbers(const char *lang, const char *machine)
{
    app_lesson_entry list[APP_MAX_LESSONS];
    int n = app_lesson_list(lang, list, APP_MAX_LESSONS);
    if (machine)
        setenv("CONVIS_TEST_MACHINE", machine, 1);
    CHECK(n >= 8, "%d lessons in %s", n, lang);
    for (int i = 0; i < n; ++i) {
        app a;
        fresh(&a);
        CHECK(app_lesson_start(&a, list[i].path), "start %s: %s", list[i].path, err_msg());
        for (int guard = 0; guard < 100 && app_in_lesson(&a); ++guard) {
            const lsn_step *st = lsn_player_current(&a.player);
            const char *say = st->say_on[app_machine(&a)] ? st->say_on[app_machine(&a)] : st->say;
            char text[4096], value[256], where[600];
            scene_settle(&a.s);
            app_narration(&a, text, sizeof text);
            snprintf(where, sizeof where, "%s step %d (%s)", list[i].path, a.player.step + 1,
                     machine ? machine : "this machine");
            CHECK(!strchr(text, '{') && !strchr(text, '}'), "%s: a placeholder is left: %s", where, text);
            if (!machine && !a.s.gpu.eng.engine) {
                /* no GPU engine here: no text waits on a GPU run that cannot happen */
                static const char *const gpu_only[] = {"{gpu_ms}",       "{gpu_device}",   "{ratio_gpu_par}",
                                                       "{gpu_result}",   "{gpu_copy_ms}",  "{crossover}",
                                                       "{chain_gpu_ms}", "{chain_gpu_independent_ms}",
                                                       "{chain_gpu_wait_ratio}"};
                for (size_t g = 0; g < sizeof gpu_only / sizeof gpu_only[0]; ++g)
                    CHECK(!strstr(say, gpu_only[g]), "%s: %s without a GPU engine (a say-no-gpu is missing): %s",
                          where, gpu_only[g], text);
            }
            /* each placeholder's value, as it is now, is in the text */
            for (const char *p = strchr(say, '{'); p; p = strchr(p + 1, '{')) {
                char name[64];
                const char *close = strchr(p, '}');
                if (!close || close - p - 1 >= (long)sizeof name || p[1] == '{')
                    continue;
                snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
                CHECK(app_placeholder(&a, name, value, sizeof value), "%s: {%s} is known", where, name);
                CHECK(strstr(text, value) != NULL, "%s: {%s} should read '%s': %s", where, name, value, text);
            }
            /* faster or slower only as measured, for every pair the text compares */
            {
                const scene_engine *pair[][2] = {{&a.s.cpu[SCENE_CPU_SIMD], &a.s.cpu[SCENE_CPU_SEQ]},
                                                 {&a.s.cpu[SCENE_CPU_PAR], &a.s.cpu[SCENE_CPU_SIMD]},
                                                 {&a.s.cpu[SCENE_CPU_PAR], &a.s.cpu[SCENE_CPU_SEQ]},
                                                 {&a.s.gpu.eng, &a.s.cpu[SCENE_CPU_PAR]}};
                for (size_t q = 0; q < sizeof pair / sizeof pair[0]; ++q) {
                    const scene_engine *x = pair[q][0], *y = pair[q][1];
                    char want[256];
                    if (!x->measured || !y->measured)
                        continue;
                    fmt_compare(scene_engine_label(x), &x->timing, scene_engine_label(y), &y->timing, want,
                                sizeof want);
                    {
                        /* where the text names this pair, it says what the measurement says */
                        char head[128];
                        const char *at;
                        snprintf(head, sizeof head, strcmp(lang, "zh") == 0 ? "%s 比 %s " : "%s was ",
                                 scene_engine_label(x), scene_engine_label(y));
                        at = strstr(text, head);
                        if (at && strcmp(lang, "zh") != 0 && !strstr(at, scene_engine_label(y)))
                            at = NULL;
                        if (at && strstr(at, want) != at && strstr(text, want) == NULL)
                            CHECK(false, "%s: '%s' should read '%s': %s", where, head, want, text);
                    }
                }
            }
            if (lsn_player_at_end(&a.player))
                break;
            if (a.player.waiting) {
                const app_action *act = app_action_find(st->wait);
                if (act)
                    app_do(&a, app_act_of(act));
                scene_settle(&a.s);
            }
            app_do(&a, app_act_id(ACT_LESSON_NEXT));
        }
        app_free(&a);
    }
    if (machine)
        unsetenv("CONVIS_TEST_MACHINE");
}

/* ---- soak ---------------------------------------------------------------------------- */

static long rss_kib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
        resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Random actions of the table, seeded: the state checked after each, the
 * memory after a warm-up held to a bound. */
static void test_soak(void)
{
    const char *env = getenv("CONVIS_SOAK_ACTIONS");
    long count = env ? atol(env) : 2000, actions = 0, warm_rss = 0, peak_rss = 0;
    double start = tim_now_ms();
    unsigned seed = 12345;
    app a;
    fresh(&a);
    srand(seed);
    while (actions < count) {
        const app_action *act = app_action_at((size_t)rand() % app_action_count());
        app_act x = app_act_of(act);
        if (act->id == ACT_OPEN || act->id == ACT_QUIT || act->id == ACT_SCREENSHOT || act->id == ACT_FULLSCREEN)
            continue;
        if (act->takes == APP_ARG_XY) {
            x.x = rand() % (a.s.img.luma.w + 4) - 2;
            x.y = rand() % (a.s.img.luma.h + 4) - 2;
        } else if (act->takes == APP_ARG_INDEX) {
            x.arg = act->id == ACT_EDIT_KEY ? "0123456789-.\b\r\t"[rand() % 15] : rand() % 12 - 1;
        }
        app_do(&a, x);
        fake_now += 16.7;
        scene_update(&a.s, 16.7);
        scene_work(&a.s, 5.0); /* what a frame does */
        a.quit = false;
        check_valid(&a, act->name);
        if (check_failed)
            break;
        if (++actions == 200)
            warm_rss = rss_kib();
        if (rss_kib() > peak_rss)
            peak_rss = rss_kib();
    }
    scene_settle(&a.s);
    printf("soak: %ld actions in %.0f s (seed %u), memory %ld KiB after 200, %ld KiB at most\n", actions,
           (tim_now_ms() - start) / 1000, seed, warm_rss, peak_rss);
    CHECK(actions == count && count > 100, "the soak ran %ld actions of %ld", actions, count);
    CHECK(warm_rss == 0 || peak_rss < warm_rss + 256 * 1024, "memory grew from %ld to %ld KiB", warm_rss, peak_rss);
    app_free(&a);
}

/* A grid cell's text: whole values plainly; one decimal under 10 (a dark
 * 16-bit file's levels between whole values), rounded from there; never
 * wider than the widest whole value a cell shows, never "-0". */
static void test_cell_text(void)
{
    static const struct {
        float v;
        const char *want;
    } cases[] = {{0.0f, "0"},      {255.0f, "255"},   {-1020.0f, "-1020"}, {128.0f * 255.0f / 65535.0f, "0.5"},
                 {1.7043f, "1.7"}, {-3.21f, "-3.2"},  {9.94f, "9.9"},      {9.96f, "10"},
                 {35.8f, "36"},    {-49.4f, "-49"},   {254.7f, "255"},     {-0.04f, "0"},
                 {-0.0f, "0"},     {1020.4f, "1020"}, {-9.9f, "-9.9"}};
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        fmt_cell(cases[i].v, buf, sizeof buf);
        CHECK(strcmp(buf, cases[i].want) == 0 && strlen(buf) <= 5, "a cell of %.9g reads '%s', not '%s'", cases[i].v,
              buf, cases[i].want);
    }
}

/* A lesson's questions: a wrong answer gets the hint and holds the step, a
 * second the answer; a right one is taken; each answer is one record of the
 * attempts file; a file convis did not write is left as it is. */
static void test_questions(void)
{
    char path[256], attempts[300], text[4096];
    app a;
    FILE *f;
    long size;
    write_lesson("ask.yaml",
                 "title: Ask\nsteps:\n"
                 "  - say: How many outputs?\n"
                 "    ask:\n      number: outputs\n      hint: width times height\n      why: \"{outputs}\"\n"
                 "  - say: Separable?\n    do: [filter-2]\n"
                 "    ask:\n      choice: separable\n      options:\n        \"no\": no\n        \"yes\": yes\n"
                 "      hint: a column times a row\n      why: so it is\n"
                 "  - say: Corner?\n    do: [restart, step*600]\n"
                 "    ask:\n      click: window_corner\n      hint: up and left\n      why: there\n"
                 "  - say: The end.\n",
                 path, sizeof path);
    snprintf(attempts, sizeof attempts, "%s/attempts.json", lesson_dir);
    remove(attempts);
    fresh(&a);
    snprintf(a.quiz.attempts, sizeof a.quiz.attempts, "%s", attempts);
    CHECK(app_lesson_start(&a, path), "start: %s", err_msg());
    CHECK(lsn_player_asking(&a.player), "the first step asks");
    app_do(&a, app_act_for_key(&a, '7', 0)); /* a digit is the answer's, not filter 7 */
    app_do(&a, app_act_for_key(&a, '\r', 0));
    CHECK(a.player.asked == LSN_HINTED && a.s.preset != 6, "a wrong number: the hint (%d)", (int)a.player.asked);
    app_narration(&a, text, sizeof text);
    CHECK(strstr(text, "width times height") != NULL, "the hint is said: %s", text);
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, 0));
    CHECK(a.player.step == 0, "the step holds while the question is open");
    app_do(&a, app_act_for_key(&a, '8', 0));
    app_do(&a, app_act_for_key(&a, '\r', 0));
    CHECK(a.player.asked == LSN_SHOWN, "a second wrong answer: the answer shown (%d)", (int)a.player.asked);
    app_narration(&a, text, sizeof text);
    CHECK(strstr(text, "196,608") != NULL || strstr(text, "answer is") != NULL, "the answer is said: %s", text);
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, 0));
    app_settle(&a);
    CHECK(a.player.step == 1 && lsn_player_asking(&a.player), "the choice asks");
    app_do(&a, app_act_for_key(&a, '2', 0)); /* "yes": a box blur is separable */
    CHECK(a.player.asked == LSN_RIGHT, "the right option is taken (%d)", (int)a.player.asked);
    app_do(&a, app_act_for_key(&a, PLAT_KEY_PAGE_DOWN, 0));
    app_settle(&a);
    {
        app_act at = app_act_id(ACT_ANSWER_AT);
        int x, y;
        app_quiz_focus(&a, &x, &y);
        CHECK(app_quiz_hides_window(&a), "a click on the window's corner: the window is hidden");
        at.x = x - 1, at.y = y - 1;
        app_do(&a, at);
        CHECK(a.player.asked == LSN_RIGHT, "the corner of output (%d, %d) is (%d, %d)", x, y, x - 1, y - 1);
    }
    app_free(&a);
    f = fopen(attempts, "r");
    CHECK(f != NULL, "the attempts file is written");
    if (f) {
        size = (long)fread(text, 1, sizeof text - 1, f);
        text[size] = '\0';
        fclose(f);
        const char *head = "{\"convis_attempts\": 1, \"attempts\": [\n";
        CHECK(!strncmp(text, head, strlen(head)), "its head: %.60s", text);
        CHECK(strstr(text, "\"answer\": \"7\", \"expected\": \"196,608\", \"correct\": false, \"try\": 1") != NULL,
              "the first wrong answer: %s", text);
        CHECK(strstr(text, "\"answer\": \"yes\", \"expected\": \"yes\", \"correct\": true") != NULL,
              "the choice, by its key: %s", text);
        CHECK(strstr(text, "\"kind\": \"click\", \"fact\": \"window_corner\"") != NULL, "the click: %s", text);
    }
    /* a file someone else wrote stays as it is, and the window says so */
    f = fopen(attempts, "w");
    fputs("my notes, not convis's\n", f);
    fclose(f);
    fresh(&a);
    snprintf(a.quiz.attempts, sizeof a.quiz.attempts, "%s", attempts);
    app_lesson_start(&a, path);
    app_do(&a, app_act_for_key(&a, '1', 0));
    app_do(&a, app_act_for_key(&a, '\r', 0));
    CHECK(strstr(a.s.banner, "not being saved") != NULL, "the banner says the answers are not saved: %s", a.s.banner);
    app_free(&a);
    f = fopen(attempts, "r");
    size = f ? (long)fread(text, 1, sizeof text - 1, f) : 0;
    text[size] = '\0';
    if (f)
        fclose(f);
    CHECK(!strcmp(text, "my notes, not convis's\n"), "the file is untouched: %s", text);
    remove(attempts);
}

int main(void)
{
    char data_home[] = "/tmp/convis-test_app-data.XXXXXX";
    if (!mkdtemp(data_home)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("XDG_DATA_HOME", data_home, 1); /* the lab's copy of its starter goes here, not into the user's */
    i18n_init();
    test_cell_text();
    test_every_action();
    test_waits(true);
    test_waits(false);
    test_questions();
    test_click_ends_wait();
    test_escape_and_start_state();
    test_steps_do_not_steer();
    test_lesson_keys();
    test_lesson_words_kept();
    test_lesson_in_lesson();
    test_flipped_edit();
    test_sized_filters();
    test_filter_resize();
    test_filter_sweep();
    test_geometry();
    test_channels();
    test_scripts();
    test_states();
    test_long_work();
    test_chain_stack();
    test_chain();
    test_budget_tiles();
    test_too_big_aspect();
    test_tiles_and_other_work();
    test_work_bounds();
    test_step_slices();
    test_large_view();
    test_inside();
    test_overflow();
    test_placeholders();
    test_cores_note();
    test_hardware_and_compare();
    test_result_paths_without_gpu();
    test_machine_texts();
    test_records();
    test_record_strict();
    {
        /* every lesson as this machine reads it, then as the other kind of
         * machine: without a GPU engine (test_app) the texts of a software
         * GPU, with the CUDA stand-in (test_app_mock) a real GPU's; the two
         * binaries between them read every text */
        app probe;
        const char *other;
        fresh(&probe);
        other = probe.s.gpu.eng.engine ? "gpu" : "software";
        app_free(&probe);
        test_lesson_numbers("en", NULL);
        test_lesson_numbers("zh", NULL);
        test_lesson_numbers("en", other);
        test_lesson_numbers("zh", other);
    }
    test_soak();
    remove_lessons();
    return CHECK_SUMMARY();
}
