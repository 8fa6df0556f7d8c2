#include "actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "platform/platform.h"
#include "player.h"

#define SHIFT PLAT_MOD_SHIFT

static void a_left(scene *s) { scene_pan(s, -s->view_cells / 2, 0); }
static void a_right(scene *s) { scene_pan(s, s->view_cells / 2, 0); }
static void a_up(scene *s) { scene_pan(s, 0, -s->view_cells / 2); }
static void a_down(scene *s) { scene_pan(s, 0, s->view_cells / 2); }
static void a_zoom_in(scene *s) { scene_zoom(s, 1); }
static void a_zoom_out(scene *s) { scene_zoom(s, -1); }
static void a_next(scene *s) { scene_next_filter(s, 1); }
static void a_prev(scene *s) { scene_next_filter(s, -1); }
static void a_fullscreen(scene *s) { s->fullscreen_toggle = true; }
static void a_screenshot(scene *s) { s->screenshot_request = true; }
static void a_quit(scene *s) { s->quit = true; }
static void a_pin(scene *s) { scene_pin(s); }
static void a_sweep(scene *s)
{
    if (s->sweep.shown)
        s->sweep.shown = false;
    else
        scene_sweep(s);
}
static void a_lesson_next(scene *s) { app_player_next(s); }
static void a_lesson_prev(scene *s) { app_player_prev(s); }
static void a_lesson_restart(scene *s) { app_player_restart(s); }
static void a_edit(scene *s) { scene_begin_edit(s, 0); }

#define FILTER(n)                                                                              \
    static void a_filter##n(scene *s) { scene_select_preset(s, n - 1); }
FILTER(1) FILTER(2) FILTER(3) FILTER(4) FILTER(5) FILTER(6) FILTER(7) FILTER(8) FILTER(9)

static const app_action actions[] = {
    {"play", "Space", "play or pause the CPU, one output at a time", scene_play, {{' ', 0}}, 0},
    {"tap", "T", "one tap forward (one product)", scene_tap, {{'t', 0}}, 0},
    {"step", "\xE2\x86\x92  PageDown", "one output forward", scene_step,
     {{PLAT_KEY_RIGHT, 0}, {PLAT_KEY_PAGE_DOWN, 0}}, 0},
    {"back", "\xE2\x86\x90  PageUp", "one output back", scene_back, {{PLAT_KEY_LEFT, 0}, {PLAT_KEY_PAGE_UP, 0}}, 0},
    {"faster", "\xE2\x86\x91", "faster (up to 8192 outputs a second)", scene_faster, {{PLAT_KEY_UP, 0}}, 0},
    {"slower", "\xE2\x86\x93", "slower (down to one output a second)", scene_slower, {{PLAT_KEY_DOWN, 0}}, 0},
    {"finish", "Enter  End", "finish the CPU walk now", scene_finish, {{'\r', 0}, {PLAT_KEY_END, 0}}, 0},
    {"restart", "R  Home", "start the CPU walk again", scene_restart, {{'r', 0}, {PLAT_KEY_HOME, 0}}, 0},
    {"gpu", "G", "launch on the GPU: every output at once", scene_launch_gpu, {{'g', 0}}, 100},
    {"sweep", "W", "size sweep: every engine, 4\xC3\x97" "4 to 4096\xC3\x97" "4096", a_sweep,
     {{'w', 0}}, 3},
    {"apply-again", "A", "apply the filter again to the output", scene_apply_again, {{'a', 0}}, 100},
    {"chain", "X", "time 1000 dependent passes on a 4\xC3\x97" "4 image", scene_chain, {{'x', 0}}, 3},
    {"too-big", "Y", "open an image too big for the GPU", scene_too_big,
     {{'y', 0}}, 3},
    {"threads", "V", "thread view: the block and thread of each output", scene_toggle_threads,
     {{'v', 0}}, 0},
    {"gpu-kernel", "N", "GPU kernel: tiled or naive (CUDA)", scene_next_gpu_kernel, {{'n', 0}}, 20},
    {"gpu-engine", "U", "GPU engine: CUDA or OpenGL compute", scene_next_gpu_engine,
     {{'u', 0}}, 10},
    {"gpu-result", "C", "GPU result: no copy, bulk copy, per pixel",
     scene_next_gpu_result, {{'c', 0}}, 30},
    {"next-filter", "K", "next filter", a_next, {{'k', 0}}, 0},
    {"prev-filter", "Shift+K", "previous filter", a_prev, {{'k', SHIFT}}, 0},
    {"filter-1", "1 \xE2\x80\xA6 9", "a preset filter by its number (or click its name)", a_filter1, {{'1', 0}}, 0},
    {"filter-2", NULL, NULL, a_filter2, {{'2', 0}}, 0},
    {"filter-3", NULL, NULL, a_filter3, {{'3', 0}}, 0},
    {"filter-4", NULL, NULL, a_filter4, {{'4', 0}}, 0},
    {"filter-5", NULL, NULL, a_filter5, {{'5', 0}}, 0},
    {"filter-6", NULL, NULL, a_filter6, {{'6', 0}}, 0},
    {"filter-7", NULL, NULL, a_filter7, {{'7', 0}}, 0},
    {"filter-8", NULL, NULL, a_filter8, {{'8', 0}}, 0},
    {"filter-9", NULL, NULL, a_filter9, {{'9', 0}}, 0},
    {"edit-kernel", "E", "edit the kernel (or click a cell): Tab next, Enter applies", a_edit,
     {{'e', 0}}, 0},
    {"border", "M", "border mode: zero, clamp, mirror, wrap", scene_next_border, {{'m', 0}}, 0},
    {"flip", "F", "flip the kernel: true convolution or cross-correlation", scene_toggle_flip, {{'f', 0}}, 0},
    {"display", "D", "negative values: clamp, absolute, signed (zero is grey)", scene_next_display, {{'d', 0}}, 0},
    {"zoom-in", "+  wheel", "zoom in (fewer, larger cells)", a_zoom_in, {{'+', 0}, {'=', 0}}, 0},
    {"zoom-out", "-  wheel", "zoom out", a_zoom_out, {{'-', 0}}, 0},
    {"pan-left", "Shift+\xE2\x86\x90", "pan (or drag a grid, or click the thumbnail)", a_left,
     {{PLAT_KEY_LEFT, SHIFT}}, 0},
    {"pan-right", NULL, NULL, a_right, {{PLAT_KEY_RIGHT, SHIFT}}, 0},
    {"pan-up", NULL, NULL, a_up, {{PLAT_KEY_UP, SHIFT}}, 0},
    {"pan-down", NULL, NULL, a_down, {{PLAT_KEY_DOWN, SHIFT}}, 0},
    {"pin", "click", "pin the output under the mouse (click again to unpin)", a_pin, {{0, 0}}, 0},
    {"lessons", "L", "the lessons: pick by number or click", scene_toggle_menu, {{'l', 0}}, 100},
    {"lesson-next", "\xE2\x86\x92  PageDown", "in a lesson: the next step",
     a_lesson_next, {{0, 0}}, 0},
    {"lesson-prev", "\xE2\x86\x90  PageUp", "in a lesson: the step before", a_lesson_prev, {{0, 0}}, 0},
    {"lesson-restart", "Home", "in a lesson: back to its first step", a_lesson_restart, {{0, 0}}, 0},
    {"help", "F1  ?", "this help", scene_toggle_help, {{PLAT_KEY_F1, 0}, {'?', 0}, {'?', SHIFT}}, 0},
    {"blank", "B", "blank the screen (any key brings it back)", scene_toggle_blank, {{'b', 0}}, 0},
    {"text-size", "Z", "text size: 100%, 125%, 150%, 200%", scene_next_text_scale, {{'z', 0}}, 0},
    {"fullscreen", "F11", "fullscreen", a_fullscreen, {{PLAT_KEY_F11, 0}}, 10},
    {"screenshot", "S", "save a screenshot (a new file, never overwriting)", a_screenshot, {{'s', 0}}, 5},
    {"escape", "Esc", "close what is open; quit when nothing is", scene_escape, {{PLAT_KEY_ESCAPE, 0}}, 0},
    {"quit", "Q", "quit", a_quit, {{'q', 0}}, 0},
};

#define ACTION_COUNT (sizeof actions / sizeof actions[0])

size_t app_action_count(void)
{
    return ACTION_COUNT;
}

const app_action *app_action_at(size_t i)
{
    return i < ACTION_COUNT ? &actions[i] : NULL;
}

const app_action *app_action_find(const char *name)
{
    for (size_t i = 0; i < ACTION_COUNT; ++i)
        if (strcmp(actions[i].name, name) == 0)
            return &actions[i];
    return NULL;
}

const app_action *app_action_for_key(int key, unsigned mods)
{
    for (size_t i = 0; i < ACTION_COUNT; ++i)
        for (int k = 0; k < 3; ++k)
            if (actions[i].key[k].code && actions[i].key[k].code == key &&
                (actions[i].key[k].mods & SHIFT) == (mods & SHIFT))
                return &actions[i];
    /* a shifted key without a binding of its own does what the key does */
    return (mods & SHIFT) ? app_action_for_key(key, mods & ~(unsigned)SHIFT) : NULL;
}

bool app_action_word(const char *word, const app_action **a, long *times)
{
    char name[64];
    const char *star = strchr(word, '*');
    size_t n = star ? (size_t)(star - word) : strlen(word);
    long most;

    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), word);
    *a = app_action_find(name);
    if (!*a)
        return err_set("action '%s' is not known; the actions are those of the window's help (F1), such as step, "
                       "gpu, threads, filter-3", name);
    most = (*a)->most ? (*a)->most : APP_ACTION_MOST;
    *times = 1;
    if (star) {
        char *end;
        *times = strtol(star + 1, &end, 10);
        if (*end || end == star + 1 || *times < 1 || *times > most)
            return err_set("action '%s' has a bad count '%s'; write %s*N with N from 1 to %ld", name, star + 1,
                           name, most);
    }
    return true;
}

bool app_tally_word(app_tally *t, const char *word, const app_action **a, long *times)
{
    size_t i;
    long most;
    if (!app_action_word(word, a, times))
        return false;
    i = (size_t)(*a - actions);
    most = (*a)->most ? (*a)->most : APP_ACTION_MOST;
    if (i >= sizeof t->total / sizeof t->total[0])
        return err_set("action '%s' is past the tally's end", (*a)->name);
    t->total[i] += *times;
    if (t->total[i] > most)
        return err_set("action '%s' would run %ld times in one script; at most %ld", (*a)->name, t->total[i], most);
    return true;
}

/* Work in output pixels one script may ask of apply-again: each pass
 * convolves the whole image on the CPU and the GPU. */
#define APPLY_AGAIN_MOST_PIXELS (1LL << 28)

/* The next word of a script ("name" or "name*N"), words parted by commas
 * and spaces; false at the end. */
static bool next_word(const char **p, char *word, size_t size)
{
    size_t n = 0;
    while (**p == ',' || **p == ' ')
        ++*p;
    while (**p && **p != ',' && **p != ' ' && n + 1 < size)
        word[n++] = *(*p)++;
    word[n] = '\0';
    return n > 0;
}

/* The whole script checked before any of it runs: every word known, every
 * action within its bound for one script, apply-again within its pixels. */
static bool check_script(const scene *s, const char *script)
{
    app_tally tally;
    char word[64];
    const char *p = script;
    long long pixels = (long long)s->img.luma.w * s->img.luma.h, passes = 0;

    memset(&tally, 0, sizeof tally);
    while (next_word(&p, word, sizeof word)) {
        const app_action *a;
        long times;
        if (!app_tally_word(&tally, word, &a, &times))
            return false;
        if (a->run == scene_apply_again)
            passes += times;
    }
    if (passes * pixels > APPLY_AGAIN_MOST_PIXELS) {
        long long most = APPLY_AGAIN_MOST_PIXELS / (pixels > 0 ? pixels : 1);
        return err_set("apply-again would convolve a %dx%d image %lld times in one script; at most %lld passes at "
                       "this size", s->img.luma.w, s->img.luma.h, passes, most < 1 ? 1 : most);
    }
    return true;
}

bool app_run_script(scene *s, const char *script)
{
    char word[64];
    const char *p = script;
    if (!check_script(s, script))
        return false;
    while (next_word(&p, word, sizeof word)) {
        const app_action *a;
        long times;
        app_action_word(word, &a, &times); /* checked above */
        while (times-- > 0) {
            a->run(s);
            app_player_saw(s, a->name); /* as when the learner does it */
        }
        /* what the window would do between frames */
        scene_measure(s);
    }
    return true;
}
