/* test_room: what a room must read, on every step of every lesson. In one
 * process with one offscreen GL context, each lesson of both languages is
 * played step by step as a learner would (each step's work settled, what
 * it waits for done before the next); each step is drawn at 1024x768,
 * 1280x720, 1920x1080 and 3840x2160, at normal and 200% text and in
 * presenter mode, with its text recorded, and the test asserts from the
 * recorded text boxes:
 *   - where the step is about values (the grids shown, not zoomed out past
 *     their usual region), the grids show values, and every digit is at
 *     least 11 px (presenter mode: 2.2% of the window's height);
 *   - in presenter mode the narration, the chart's labels, its ratio line
 *     and legend, the kernel's weights and the products are at least 2.2%
 *     of the height too; in the other modes the
 *     narration at least 11 px, and larger at 200% than at 100% where the
 *     layout kept the larger text;
 *   - no text is cut with an ellipsis without its tooltip (the whole text
 *     under the pointer);
 *   - no notice lies over the chart's legend or its ratio line;
 *   - no two runs of text overlap (a notice none on any layer), none leaves
 *     the window, and every place to click gives its own action (as
 *     test_layout checks);
 * and lesson 8 once more on a machine without a GPU engine, its notices
 * kept in view.
 * Usage: test_room LESSONS_DIR [LESSON_FILE_NAME]   (under with_display.sh) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_table.h"
#include "actions.h"
#include "app.h"
#include "capture.h"
#include "core/err.h"
#include "data.h"
#include "frame.h"
#include "i18n.h"
#include "layout_checks.h"
#include "platform/platform.h"
#include "render/render.h"
#include "render/text.h"
#include "scene_feature.h"
#include "settings.h"
#include "walk.h"

static int passed, failed;

static const char *const lessons[] = {
    "01-one-at-a-time.yaml",    "02-all-at-once.yaml",     "03-who-wins.yaml",
    "04-the-copy-trap.yaml",    "05-steps-that-wait.yaml", "06-memory-is-finite.yaml",
    "07-few-strong-cores.yaml", "08-your-own-image.yaml",  "09-inside-a-block.yaml",
    "10-bigger-filters.yaml",   "11-fewer-operations.yaml",
};
static const int sizes[][2] = {{1024, 768}, {1280, 720}, {1920, 1080}, {3840, 2160}};

typedef enum mode { MODE_NORMAL, MODE_LARGE, MODE_PRESENTER, MODE_COUNT } mode;
static const char *const mode_name[MODE_COUNT] = {"100%", "200%", "presenter"};

/* The smallest font of the recorded runs of a role (0: none). */
static int smallest(const rnd_text_box *b, int n, int role, int *count)
{
    int px = 0;
    *count = 0;
    for (int i = 0; i < n; ++i)
        if (b[i].role == role) {
            ++*count;
            if (px == 0 || b[i].px < px)
                px = b[i].px;
        }
    return px;
}

static bool overlap(const rnd_text_box *a, const rnd_text_box *b, float grow)
{
    return a->x - grow < b->x + b->w && b->x < a->x + a->w + grow && a->y - grow < b->y + b->h &&
           b->y < a->y + a->h + grow;
}

/* Whether the step's grids are about values: the grids shown (no overlay,
 * no other picture in their place), not zoomed out past their usual
 * region. */
static bool about_values(const app *a)
{
    const scene *s = &a->s;
    return s->img.luma.px && s->area == SCENE_AREA_GRIDS && s->view_cells <= SCENE_DEFAULT_CELLS && !a->help &&
           !a->menu && !a->blank;
}

/* The checks of a room's reading in one frame drawn h pixels high; prints the
 * problems (at most four) after `what`; returns how many. *narration_px:
 * the narration's smallest font (0: none). */
static int check_room(const app_window *win, const char *what, int h, mode m, int *narration_px)
{
    const rnd_text_box *b;
    view_cut cut[64];
    int dropped, n = rnd_text_boxes(&b, &dropped), bad = 0, count, px;
    int ncut = view_cut_texts(win->view, cut, 64);
    int room_px = (int)ceilf(0.022f * (float)h), least = m == MODE_PRESENTER ? room_px : 11;
    if (about_values(&win->app)) {
        px = smallest(b, n, VIEW_TEXT_VALUE, &count);
        if (count < 9 || px < least) {
            if (bad < 4)
                printf("  %s: the grids show %d values, the smallest digits %d px (at least 9 values of %d px)\n", what,
                       count, px, least);
            ++bad;
        }
    }
    *narration_px = smallest(b, n, VIEW_TEXT_NARRATION, &count);
    if (count == 0 || *narration_px < least) {
        if (bad < 4)
            printf("  %s: the narration at %d px in %d runs (at least %d px)\n", what, *narration_px, count, least);
        ++bad;
    }
    if (m == MODE_PRESENTER) {
        static const int roles[] = {VIEW_TEXT_CHART, VIEW_TEXT_RATIO, VIEW_TEXT_LEGEND, VIEW_TEXT_KERNEL};
        static const char *const names[] = {"the chart's labels", "the chart's ratio line", "the chart's legend",
                                            "the kernel's weights and products"};
        for (int k = 0; k < 4; ++k) {
            px = smallest(b, n, roles[k], &count);
            /* the chart is always there with its labels; the rest where the screen has them */
            if ((k == 0 && count == 0) || (count > 0 && px < room_px)) {
                if (bad < 4)
                    printf("  %s: %s at %d px in %d runs (at least %d px)\n", what, names[k], px, count, room_px);
                ++bad;
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        size_t len = strlen(b[i].text);
        bool tip = false;
        /* a cut run ends with an ellipsis; "measuring…" is whole */
        if (len < 3 || strcmp(b[i].text + len - 3, "\xE2\x80\xA6") != 0 ||
            strcmp(b[i].text, _("measuring\xE2\x80\xA6")) == 0)
            continue;
        for (int k = 0; k < ncut && !tip; ++k)
            tip = b[i].x >= (float)cut[k].x - 2 && b[i].y >= (float)cut[k].y - 2 &&
                  b[i].x < (float)(cut[k].x + cut[k].w) && b[i].y < (float)(cut[k].y + cut[k].h);
        if (!tip) {
            if (bad < 4)
                printf("  %s: \"%s\" is cut with no tooltip\n", what, b[i].text);
            ++bad;
        }
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; b[i].role == VIEW_TEXT_NOTICE && j < n; ++j)
            if ((b[j].role == VIEW_TEXT_LEGEND || b[j].role == VIEW_TEXT_RATIO) &&
                overlap(&b[i], &b[j], 0.01f * (float)h)) {
                if (bad < 4)
                    printf("  %s: the notice \"%s\" lies over the chart's \"%s\"\n", what, b[i].text, b[j].text);
                ++bad;
            }
    return bad;
}

/* One step drawn at every size in every mode; returns its problems. */
static int check_step(app_window *win, const char *name)
{
    int bad = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        int w = sizes[k][0], h = sizes[k][1], narration[MODE_COUNT] = {0};
        float scale_kept[MODE_COUNT] = {0};
        for (int m = 0; m < MODE_COUNT; ++m) {
            char what[160];
            int runs;
            if (win->app.presenter != (m == MODE_PRESENTER)) /* through its key's action, F5 */
                app_do(&win->app, app_act_id(ACT_PRESENTER));
            win->app.text_scale = m == MODE_LARGE ? 200 : 100;
            snprintf(what, sizeof what, "%s %dx%d %s", name, w, h, mode_name[m]);
            rnd_text_record(true);
            view_draw(win->view, &win->app, w, h);
            rnd_text_record(false);
            rnd_finish();
            bad += check_boxes(what, w, h, &runs) + check_targets(what, win->view);
            bad += check_room(win, what, h, (mode)m, &narration[m]);
            scale_kept[m] = view_text_scale(win->view);
        }
        if (narration[MODE_NORMAL] > 0 && scale_kept[MODE_LARGE] >= 1.5f &&
            (float)narration[MODE_LARGE] < 1.3f * (float)narration[MODE_NORMAL]) {
            if (bad < 4)
                printf("  %s %dx%d: the narration is %d px at 200%% text (%.0f%% kept) and %d px at 100%%\n", name, w,
                       h, narration[MODE_LARGE], 100 * scale_kept[MODE_LARGE], narration[MODE_NORMAL]);
            ++bad;
        }
    }
    if (win->app.presenter)
        app_do(&win->app, app_act_id(ACT_PRESENTER));
    win->app.text_scale = 100;
    return bad;
}

/* Lesson `file` played step by step; with no_gpu on a machine without a GPU
 * engine, the window's clock stopped so that every notice stays in view
 * (lesson 8's step 4: the notice of no GPU engine over the flip's chip). */
static void play_lesson(app_window *win, const char *dir, const char *lang, const char *file, bool no_gpu)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", dir, lang, file);
    win->clock_virtual = no_gpu, win->clock_ms = 0;
    if (!(no_gpu ? lc_app_start_no_gpu(win, lang, path) : lc_app_start(win, lang, path, NULL))) {
        printf("not ok - %s %s: %s\n", lang, file, err_msg());
        ++failed;
    } else {
        int steps = win->app.player.lesson.step_count;
        for (int i = 0; i < steps && app_in_lesson(&win->app); ++i) {
            char name[128];
            int bad;
            scene_settle(&win->app.s);
            scene_play_out(&win->app.s);
            snprintf(name, sizeof name, "%s %.2s%s step %d", lang, file, no_gpu ? " (no GPU engine)" : "", i + 1);
            bad = check_step(win, name);
            if (bad == 0) {
                printf("ok - %s: readable at every size and mode\n", name);
                ++passed;
            } else {
                printf("not ok - %s: %d problems\n", name, bad);
                ++failed;
            }
            app_capture_next_step(&win->app); /* as --render-steps does */
        }
    }
    app_free(&win->app);
    win->app_ready = false;
    win->clock_virtual = false;
}

/* A filter of another size (filt_parse's text) under lesson 1's first
 * step, its narration kept: its window, cells and products read at every
 * size and mode, the walk partway through an output. */
static void check_sized(app_window *win, const char *dir, const char *lang, const char *kernel)
{
    char path[4096], name[128];
    int bad;
    snprintf(path, sizeof path, "%s/%s/01-one-at-a-time.yaml", dir, lang);
    if (!lc_app_start(win, lang, path, NULL) || !filt_parse(kernel, &win->app.s.opt.kernel)) {
        printf("not ok - %s %s: %s\n", lang, kernel, err_msg());
        ++failed;
        return;
    }
    scene_settle(&win->app.s);
    win->app.s.preset = -1;
    scene_changed(&win->app.s, SCENE_CHANGE_INPUT);
    for (int i = 0; i < 45; ++i)
        scene_step(&win->app.s);
    for (int i = 0; i < 20; ++i)
        scene_tap(&win->app.s);
    scene_settle(&win->app.s);
    snprintf(name, sizeof name, "%s -k %s, the walk partway", lang, kernel);
    bad = check_step(win, name);
    if (bad == 0) {
        printf("ok - %s: readable at every size and mode\n", name);
        ++passed;
    } else {
        printf("not ok - %s: %d problems\n", name, bad);
        ++failed;
    }
    app_free(&win->app);
    win->app_ready = false;
}

int main(int argc, char **argv)
{
    static const char *const langs[] = {"en", "zh"};
    app_window win;
    char shaders[4096];
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test_room LESSONS_DIR [LESSON_FILE_NAME]\n");
        return 2;
    }
    memset(&win, 0, sizeof win);
    i18n_init();
    win.win = plat_open("convis test_room", 3840, 2160, PLAT_WINDOW_OFFSCREEN);
    snprintf(shaders, sizeof shaders, "%s/shaders", app_data_dir());
    if (!win.win || !rnd_init(shaders) || !(win.view = view_create())) {
        printf("not ok - no window to draw in: %s\n", err_msg());
        return 1;
    }
    for (size_t l = 0; l < 2; ++l)
        for (size_t i = 0; i < sizeof lessons / sizeof lessons[0]; ++i)
            if (argc == 2 || strcmp(argv[2], lessons[i]) == 0) {
                play_lesson(&win, argv[1], langs[l], lessons[i], false);
                if (strcmp(lessons[i], "08-your-own-image.yaml") == 0) /* its chips under G's notice */
                    play_lesson(&win, argv[1], langs[l], lessons[i], true);
            }
    for (size_t l = 0; l < 2 && argc == 2; ++l) {
        check_sized(&win, argv[1], langs[l], "box:7");
        check_sized(&win, argv[1], langs[l], "gaussian:1.5");
    }
    view_destroy(win.view);
    rnd_shutdown();
    plat_close(win.win);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
