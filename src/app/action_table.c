/* action_table.c - the one table of actions (see action_table.h), its
 * lookups by name, key and id, and script words. */
#include "action_table.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "i18n.h"
#include "core/keys.h"

#define SHIFT PLAT_MOD_SHIFT
#define LESSON APP_WHEN_LESSON
#define XY APP_ARG_XY
#define INDEX APP_ARG_INDEX
#define PATH APP_ARG_PATH

/* In help order. Entries without keys or help are listed with the one
 * before (filter-2 ... filter-9) or not at all (what only a click does). */
/* clang-format off */
static const app_action actions[] = {
    {ACT_LESSON_NEXT, "lesson-next", "\xE2\x86\x92  PageDown", N_("in a lesson: the next step"), 0, 0,
     {{PLAT_KEY_RIGHT, 0}, {PLAT_KEY_PAGE_DOWN, 0}}, LESSON, 0},
    {ACT_LESSON_PREV, "lesson-prev", "\xE2\x86\x90  PageUp", N_("in a lesson: the step before"), 0, 0,
     {{PLAT_KEY_LEFT, 0}, {PLAT_KEY_PAGE_UP, 0}}, LESSON, 0},
    {ACT_LESSON_RESTART, "lesson-restart", "Home", N_("in a lesson: back to its first step"), 0, 0,
     {{PLAT_KEY_HOME, 0}}, LESSON, 0},
    {ACT_PLAY, "play", "Space", N_("play or pause the CPU, one output at a time"), 0, 0, {{' ', 0}}, 0, 0},
    {ACT_TAP, "tap", "T", N_("one tap forward (one product)"), 0, 0, {{'t', 0}}, 0, 0},
    {ACT_STEP, "step", "\xE2\x86\x92  PageDown", N_("one output forward"), 0, 0,
     {{PLAT_KEY_RIGHT, 0}, {PLAT_KEY_PAGE_DOWN, 0}}, 0, 0},
    {ACT_BACK, "back", "\xE2\x86\x90  PageUp", N_("one output back"), 0, 0, {{PLAT_KEY_LEFT, 0}, {PLAT_KEY_PAGE_UP, 0}}, 0,
     0},
    {ACT_FASTER, "faster", "\xE2\x86\x91", N_("faster (up to 8192 outputs a second)"), 0, 0, {{PLAT_KEY_UP, 0}}, 0, 0},
    {ACT_SLOWER, "slower", "\xE2\x86\x93", N_("slower (down to one output a second)"), 0, 0, {{PLAT_KEY_DOWN, 0}}, 0, 0},
    {ACT_FINISH, "finish", "Enter  End", N_("finish the CPU walk now"), 0, 0, {{'\r', 0}, {PLAT_KEY_END, 0}}, 0, 0},
    {ACT_RESTART, "restart", "R  Home", N_("start the CPU walk again"), 0, 0, {{'r', 0}, {PLAT_KEY_HOME, 0}}, 0, 0},
    {ACT_GPU, "gpu", "G", N_("launch on the GPU: every output at once"), 0, 0, {{'g', 0}}, 0, 100},
    {ACT_SWEEP, "sweep", "W", N_("size sweep: every engine, 4×4 to 4096×4096 (again: hide it)"), 0, 0,
     {{'w', 0}}, 0, 3},
    {ACT_FILTER_SWEEP, "filter-sweep", "Shift+W",
     N_("filter sweep: every engine, the same kind of filter 3×3 to 15×15 (again: hide it)"), 0, 0,
     {{'w', SHIFT}}, 0, 3},
    {ACT_STRIDE, "stride", ",", N_("geometry: the next stride (1, 2, 3): outputs every 1, 2 or 3 pixels"), 0, 0,
     {{',', 0}}, 0, 20},
    {ACT_DILATION, "dilation", ".", N_("geometry: the next dilation (1, 2, 3): the taps 1, 2 or 3 pixels apart"), 0,
     0, {{'.', 0}}, 0, 20},
    {ACT_PADDING, "padding", "/", N_("geometry: the next padding (same, valid, full); Esc: back to the grids"), 0, 0,
     {{'/', 0}}, 0, 20},
    {ACT_CHANNELS, "channels", "Shift+C",
     N_("channels: the image in colour and a layer of filters over its channels, three ways (again: the next layer)"),
     0, 0, {{'c', SHIFT}}, 0, 20},
    {ACT_CHANNEL_PICK, "channel-pick", NULL, NULL, 0, XY, {{0, 0}}, 0, 0},
    {ACT_CHANNEL, "channel", "H", N_("what the grids convolve: the luma, or a colour image's red, green or blue"), 0, 0,
     {{'h', 0}}, 0, 20},
    {ACT_APPLY_AGAIN, "apply-again", "A", N_("apply the filter again to the output"), 0, 0, {{'a', 0}}, 0, 100},
    {ACT_CHAIN, "chain", "X", N_("time 1000 passes on a 4×4 image, chained and independent (again: hide it)"), 0, 0,
     {{'x', 0}}, 0, 3},
    {ACT_TOO_BIG, "too-big", "Y", N_("open an image too big for the GPU"), 0, 0, {{'y', 0}}, 0, 3},
    {ACT_BUDGET, "memory-budget", "P", N_("pretend the GPU has less memory: off, 1, 4, 16, 64, 256 MiB (tiles)"), 0, 0,
     {{'p', 0}}, 0, 20},
    {ACT_BUDGET_OFF, "memory-budget-off", "Shift+P", N_("no memory budget: the GPU may use all it has"), 0, 0,
     {{'p', SHIFT}}, 0, 0},
    {ACT_THREADS, "threads", "V", N_("thread view: who computes each output (cpu-par's band and its thread, or the GPU's block and thread)"), 0, 0, {{'v', 0}}, 0, 0},
    {ACT_BLOCK_LIFE, "block-life", "O",
     N_("inside the GPU: one block of the tiled kernel, stage by stage (load, barrier, compute; no barrier: "
        "simulated, then run)"), 0, 0,
     {{'o', 0}}, 0, 20},
    {ACT_BLOCK_WARP, "block-warp", "Shift+O", N_("inside the GPU: the next warp of the block"), 0, 0, {{'o', SHIFT}}, 0,
     40},
    {ACT_BLOCK_SHAPE, "block-shape", "J", N_("block shape: 16×16, 8×8, 32×8, 32×32, 24×24"), 0, 0, {{'j', 0}}, 0, 20},
    {ACT_BLOCK_PICK, "block-pick", NULL, NULL, 0, INDEX, {{0, 0}}, 0, 0},
    {ACT_GPU_KERNEL, "gpu-kernel", "N", N_("GPU kernel: tiled (a shared-memory tile) or naive (nine global reads)"), 0, 0, {{'n', 0}}, 0, 20},
    {ACT_GPU_ENGINE, "gpu-engine", "U", N_("GPU engine: CUDA or OpenGL compute"), 0, 0, {{'u', 0}}, 0, 10},
    {ACT_GPU_RESULT, "gpu-result", "C", N_("GPU result: no copy, bulk copy, per pixel"), 0, 0, {{'c', 0}}, 0, 30},
    {ACT_NEXT_FILTER, "next-filter", "K", N_("next filter"), 0, 0, {{'k', 0}}, 0, 0},
    {ACT_PREV_FILTER, "prev-filter", "Shift+K", N_("previous filter"), 0, 0, {{'k', SHIFT}}, 0, 0},
    {ACT_FILTER_SIZE, "bigger-filter", "]", N_("a bigger filter of the same kind (box, motion, sobel, gaussian, log, unsharp), up to 31"), 2, 0,
     {{']', 0}}, 0, 0},
    {ACT_FILTER_SIZE, "smaller-filter", "[", N_("a smaller filter of the same kind"), -2, 0, {{'[', 0}}, 0,
     0},
    {ACT_FILTER, "filter-1", "1 \xE2\x80\xA6 9", N_("a preset filter by its number (or click its name)"), 0, 0,
     {{'1', 0}}, 0, 0},
    {ACT_FILTER, "filter-2", NULL, NULL, 1, 0, {{'2', 0}}, 0, 0},
    {ACT_FILTER, "filter-3", NULL, NULL, 2, 0, {{'3', 0}}, 0, 0},
    {ACT_FILTER, "filter-4", NULL, NULL, 3, 0, {{'4', 0}}, 0, 0},
    {ACT_FILTER, "filter-5", NULL, NULL, 4, 0, {{'5', 0}}, 0, 0},
    {ACT_FILTER, "filter-6", NULL, NULL, 5, 0, {{'6', 0}}, 0, 0},
    {ACT_FILTER, "filter-7", NULL, NULL, 6, 0, {{'7', 0}}, 0, 0},
    {ACT_FILTER, "filter-8", NULL, NULL, 7, 0, {{'8', 0}}, 0, 0},
    {ACT_FILTER, "filter-9", NULL, NULL, 8, 0, {{'9', 0}}, 0, 0},
    {ACT_EDIT_KERNEL, "edit-kernel", "E", N_("edit the kernel (or click a cell): Tab next, Enter applies"), 0, INDEX,
     {{'e', 0}}, 0, 0},
    {ACT_EDIT_KEY, "edit-key", NULL, NULL, 0, INDEX, {{0, 0}}, 0, 0},
    {ACT_BORDER, "border", "M", N_("border mode: zero, clamp, mirror, wrap (or click its chip)"), 0, 0, {{'m', 0}}, 0, 0},
    {ACT_FLIP, "flip", "F", N_("flip the kernel: true convolution or cross-correlation"), 0, 0, {{'f', 0}}, 0, 0},
    {ACT_DISPLAY, "display", "D", N_("negative values: clamp, absolute, signed (zero is grey)"), 0, 0, {{'d', 0}}, 0,
     0},
    {ACT_ZOOM_IN, "zoom-in", N_("+  wheel"), N_("zoom in (fewer, larger cells)"), 0, 0, {{'+', 0}, {'=', 0}}, 0, 0},
    {ACT_ZOOM_OUT, "zoom-out", N_("-  wheel"), N_("zoom out"), 0, 0, {{'-', 0}}, 0, 0},
    {ACT_PAN_LEFT, "pan-left", "Shift+\xE2\x86\x90", N_("pan (or drag a grid, or click the thumbnail)"), 0, 0,
     {{PLAT_KEY_LEFT, SHIFT}}, 0, 0},
    {ACT_PAN_RIGHT, "pan-right", NULL, NULL, 0, 0, {{PLAT_KEY_RIGHT, SHIFT}}, 0, 0},
    {ACT_PAN_UP, "pan-up", NULL, NULL, 0, 0, {{PLAT_KEY_UP, SHIFT}}, 0, 0},
    {ACT_PAN_DOWN, "pan-down", NULL, NULL, 0, 0, {{PLAT_KEY_DOWN, SHIFT}}, 0, 0},
    {ACT_VIEW_AT, "view-at", NULL, NULL, 0, XY, {{0, 0}}, 0, 0},
    {ACT_CENTER_ON, "center-on", NULL, NULL, 0, XY, {{0, 0}}, 0, 0},
    {ACT_HOVER, "hover", NULL, NULL, 0, XY, {{0, 0}}, 0, 0},
    {ACT_PIN, "pin", N_("click"), N_("pin the output under the mouse (click again to unpin)"), 0, 0, {{0, 0}}, 0, 0},
    {ACT_LARGE, "large-view", "I", N_("the whole input and output, large, side by side (or click its button)"), 0, 0,
     {{'i', 0}}, 0, 0},
    {ACT_LESSONS, "lessons", "L", N_("the lessons: pick by number or click"), 0, 0, {{'l', 0}}, 0, 100},
    {ACT_PICK_LESSON, "pick-lesson", NULL, NULL, 0, INDEX, {{0, 0}}, 0, 0},
    {ACT_LEAVE_LESSON, "leave-lesson", "Esc", N_("in a lesson: leave it, back to what you had"), 0, 0, {{0, 0}}, 0, 0},
    {ACT_ANSWER, "answer-1", N_("1 \xE2\x80\xA6 6  click"),
     N_("in a lesson's question: pick an option, type a number and Enter, or click a cell"), 0, 0, {{0, 0}}, 0, 2},
    {ACT_ANSWER, "answer-2", NULL, NULL, 1, 0, {{0, 0}}, 0, 2},
    {ACT_ANSWER, "answer-3", NULL, NULL, 2, 0, {{0, 0}}, 0, 2},
    {ACT_ANSWER, "answer-4", NULL, NULL, 3, 0, {{0, 0}}, 0, 2},
    {ACT_ANSWER, "answer-5", NULL, NULL, 4, 0, {{0, 0}}, 0, 2},
    {ACT_ANSWER, "answer-6", NULL, NULL, 5, 0, {{0, 0}}, 0, 2},
    {ACT_ANSWER_KEY, "answer-key", NULL, NULL, 0, INDEX, {{0, 0}}, 0, 0},
    {ACT_ANSWER_AT, "answer-at", NULL, NULL, 0, XY, {{0, 0}}, 0, 0},
    {ACT_LAB, "lab", "Shift+L",
     N_("the kernel lab: your GLSL kernel checked each time you save it (again: hide it)"), 0, 0, {{'l', SHIFT}}, 0,
     4},
    {ACT_LAB_RIGHT, "lab-right", NULL, NULL, 0, 0, {{0, 0}}, 0, 0}, /* what the lab does when a kernel is right:
                                                                        a lesson's step may wait for it */
    {ACT_NOTES, "notes", "Shift+N", N_("in a lesson: the teacher's notes for it and this step (again: hide them)"), 0,
     0, {{'n', SHIFT}}, 0, 0},
    {ACT_HELP, "help", "F1  ?", N_("this help"), 0, 0, {{PLAT_KEY_F1, 0}, {'?', 0}, {'?', SHIFT}}, 0, 0},
    {ACT_BLANK, "blank", "B", N_("blank the screen (any key brings it back)"), 0, 0, {{'b', 0}}, 0, 0},
    {ACT_TEXT_SIZE, "text-size", "Z", N_("text size: 100%, 125%, 150%, 200%"), 0, 0, {{'z', 0}}, 0, 0},
    {ACT_PRESENTER, "presenter", "F5", N_("presenter mode: what a room must read sized from the window's height; again: back"),
     0, 0, {{PLAT_KEY_F5, 0}}, 0, 0},
    {ACT_FULLSCREEN, "fullscreen", "F11", N_("fullscreen"), 0, 0, {{PLAT_KEY_F11, 0}}, 0, 10},
    {ACT_SCREENSHOT, "screenshot", "S", N_("save a screenshot (a new file, never overwriting)"), 0, 0, {{'s', 0}}, 0, 5},
    {ACT_RECORD_GIF, "record-gif", "Shift+S", N_("record the window as a GIF for slides; again: stop and save it"), 0, 0,
     {{'s', SHIFT}}, 0, 4},
    {ACT_OPEN, "open", N_("drop a file"), N_("open an image: drop it on the window"), 0, PATH, {{0, 0}}, 0, 0},
    {ACT_ESCAPE, "escape", "Esc", N_("close what is open or stop what runs; then leave the lesson; then quit"), 0, 0,
     {{PLAT_KEY_ESCAPE, 0}}, 0, 0},
    {ACT_QUIT, "quit", "Q", N_("quit"), 0, 0, {{'q', 0}}, 0, 0},
};
/* clang-format on */

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

const app_action *app_action_of(app_action_id id)
{
    for (size_t i = 0; i < ACTION_COUNT; ++i)
        if (actions[i].id == id)
            return &actions[i];
    return NULL;
}

const app_action *app_action_filter(int preset)
{
    for (size_t i = 0; i < ACTION_COUNT; ++i)
        if (actions[i].id == ACT_FILTER && actions[i].arg == preset)
            return &actions[i];
    return NULL;
}

static const app_action *for_key(int key, unsigned mods, bool lesson_keys)
{
    for (size_t i = 0; i < ACTION_COUNT; ++i) {
        if ((actions[i].when == APP_WHEN_LESSON) != lesson_keys)
            continue;
        for (int k = 0; k < 3; ++k)
            if (actions[i].key[k].code && actions[i].key[k].code == key &&
                (actions[i].key[k].mods & SHIFT) == (mods & SHIFT))
                return &actions[i];
    }
    return NULL;
}

const app_action *app_action_for_key(int key, unsigned mods, bool in_lesson)
{
    const app_action *a = in_lesson ? for_key(key, mods, true) : NULL;
    if (!a)
        a = for_key(key, mods, false);
    /* a shifted key without a binding of its own does what the key does
     * outside a lesson: Shift+PageDown steps the walk while PageDown turns
     * the lesson's page */
    if (!a && (mods & SHIFT))
        a = app_action_for_key(key, mods & ~(unsigned)SHIFT, false);
    return a;
}

bool app_action_steers(const app_action *a)
{
    switch (a->id) {
    case ACT_LESSON_NEXT:
    case ACT_LESSON_PREV:
    case ACT_LESSON_RESTART:
    case ACT_LESSONS:
    case ACT_PICK_LESSON:
    case ACT_LEAVE_LESSON:
    case ACT_ANSWER:
    case ACT_ESCAPE:
    case ACT_QUIT:
    case ACT_FULLSCREEN:
    case ACT_SCREENSHOT:
    case ACT_RECORD_GIF: return true;
    default: return false;
    }
}

bool app_action_word(const char *word, const app_action **a, long *times)
{
    char name[64], shown[200], count[100];
    const char *star = strchr(word, '*');
    size_t n = star ? (size_t)(star - word) : strlen(word);
    long most;

    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), word);
    *a = app_action_find(name);
    err_shown(word, n, shown, sizeof shown); /* the name as a message quotes it (from a lesson, a script) */
    if (!*a)
        return err_set("action '%s' is not known; the actions are listed by 'convis --help' and the window's help "
                       "(F1), such as step, gpu, threads, filter-3",
                       shown);
    if ((*a)->takes != APP_ARG_NONE && (*a)->id != ACT_EDIT_KERNEL)
        return err_set("action '%s' is what a click or a drop does; a script cannot give it a place", name);
    most = (*a)->most ? (*a)->most : APP_ACTION_MOST;
    *times = 1;
    if (star) {
        char *end;
        *times = strtol(star + 1, &end, 10);
        if (*end || end == star + 1 || *times < 1 || *times > most)
            return err_set("action '%s' has a bad count '%s'; write %s*N with N from 1 to %ld", name,
                           err_shown(star + 1, strlen(star + 1), count, sizeof count), name, most);
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
    if ((*a)->id == ACT_TOO_BIG && t->too_big > 0)
        t->pixels = t->too_big; /* the image from here on */
    if ((*a)->id == ACT_APPLY_AGAIN || (*a)->id == ACT_GPU) {
        t->work += *times * t->pixels;
        if (t->work > APP_SCRIPT_MOST_WORK)
            return err_set("%s*%ld would take one script's work on whole images to %lld pixel-passes (apply-again "
                           "and gpu each convolve the whole image, here %lld pixels, once a run); at most %lld",
                           (*a)->name, *times, t->work, t->pixels, (long long)APP_SCRIPT_MOST_WORK);
    }
    return true;
}

bool app_script_word(const char **p, char *word, size_t size)
{
    size_t n = 0;
    while (**p == ',' || **p == ' ')
        ++*p;
    while (**p && **p != ',' && **p != ' ' && n + 1 < size)
        word[n++] = *(*p)++;
    word[n] = '\0';
    return n > 0;
}

/* Whether a script may name the action (it needs no click's place). */
static bool scriptable(const app_action *a)
{
    return a->takes == APP_ARG_NONE || a->id == ACT_EDIT_KERNEL;
}

void app_action_list(FILE *f)
{
    for (size_t i = 0; i < ACTION_COUNT; ++i) {
        const app_action *a = &actions[i];
        char names[160];
        size_t n;
        if (!a->help || !scriptable(a))
            continue;
        /* the entries listed with it (filter-2 ... filter-9, pan-right ...) */
        n = (size_t)snprintf(names, sizeof names, "%s", a->name);
        for (size_t k = i + 1; k < ACTION_COUNT && !actions[k].help && scriptable(&actions[k]); ++k)
            if (n < sizeof names)
                n += (size_t)snprintf(names + n, sizeof names - n, ", %s", actions[k].name);
        if (strlen(names) > 15)
            fprintf(f, "  %s\n  %-15s %s\n", names, "", _(a->help));
        else
            fprintf(f, "  %-15s %s\n", names, _(a->help));
    }
}
