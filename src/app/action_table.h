/* action_table.h - every named thing a person can do in the window: its
 * name (for --do, lessons and their waits), its keys, its line in the help
 * overlay and `convis --help`, and how often one script may repeat it.
 * Plain data and lookups: actions.c runs them (app_do), the view lists them
 * and turns clicks into them, the lesson checker checks names against them. */
#ifndef CONVIS_ACTION_TABLE_H
#define CONVIS_ACTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* clang-format off */
typedef enum app_action_id {
    ACT_PLAY, ACT_TAP, ACT_STEP, ACT_BACK, ACT_FASTER, ACT_SLOWER, ACT_FINISH, ACT_RESTART,
    ACT_LESSON_NEXT, ACT_LESSON_PREV, ACT_LESSON_RESTART,
    ACT_GPU, ACT_SWEEP, ACT_FILTER_SWEEP, ACT_STRIDE, ACT_DILATION, ACT_PADDING, ACT_CHANNELS, ACT_CHANNEL_PICK, ACT_CHANNEL, ACT_APPLY_AGAIN, ACT_CHAIN, ACT_TOO_BIG, ACT_BUDGET, ACT_BUDGET_OFF,
    ACT_THREADS, ACT_BLOCK_LIFE, ACT_BLOCK_WARP, ACT_BLOCK_SHAPE, ACT_BLOCK_PICK,
    ACT_GPU_KERNEL, ACT_GPU_ENGINE, ACT_GPU_RESULT,
    ACT_NEXT_FILTER, ACT_PREV_FILTER, ACT_FILTER_SIZE, ACT_FILTER,
    ACT_EDIT_KERNEL, ACT_EDIT_KEY, ACT_BORDER, ACT_FLIP, ACT_DISPLAY,
    ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_PAN_LEFT, ACT_PAN_RIGHT, ACT_PAN_UP, ACT_PAN_DOWN,
    ACT_VIEW_AT, ACT_CENTER_ON, ACT_HOVER, ACT_PIN, ACT_LARGE,
    ACT_LESSONS, ACT_PICK_LESSON, ACT_LEAVE_LESSON, ACT_ANSWER, ACT_ANSWER_KEY, ACT_ANSWER_AT, ACT_NOTES, ACT_LAB, ACT_LAB_RIGHT,
    ACT_HELP, ACT_BLANK, ACT_TEXT_SIZE, ACT_PRESENTER, ACT_FULLSCREEN, ACT_SCREENSHOT, ACT_RECORD_GIF, ACT_OPEN,
    ACT_ESCAPE, ACT_QUIT,
    ACT_COUNT
} app_action_id;
/* clang-format on */

/* When a key is bound to an action. */
enum {
    APP_WHEN_ALWAYS = 0,
    APP_WHEN_LESSON, /* only while a lesson plays (it then comes first) */
};

/* What an action takes besides its name (app_act). */
enum {
    APP_ARG_NONE = 0, /* nothing: a script word may name it */
    APP_ARG_XY,       /* a cell of the image (x, y): clicks and drags */
    APP_ARG_INDEX,    /* an index (arg): a lesson of the menu, a kernel cell, a key */
    APP_ARG_PATH,     /* a file (text): a dropped image */
};

typedef struct app_key {
    int code;      /* a platform key (platform.h) */
    unsigned mods; /* PLAT_MOD_* that must be held (shift matters, others not) */
} app_key;

typedef struct app_action {
    app_action_id id;
    const char *name; /* for scripts: "play", "gpu", "filter-3" */
    const char *keys; /* for people: "Space"; NULL: listed with the entry before */
    const char *help; /* one line; NULL: not listed */
    int arg;          /* the argument it always takes (filter-3: preset 2) */
    int takes;        /* APP_ARG_*: what a click gives it besides */
    app_key key[3];
    int when; /* APP_WHEN_* */
    int most; /* the most times one script may run it (0: APP_ACTION_MOST) */
} app_action;

/* How often a script may repeat a cheap action ("step*45"). */
#define APP_ACTION_MOST 10000

size_t app_action_count(void);
const app_action *app_action_at(size_t i);
const app_action *app_action_find(const char *name);
const app_action *app_action_of(app_action_id id); /* the first entry with this id */
const app_action *app_action_filter(int preset);   /* "filter-N" for preset N-1, or NULL */

/* The action bound to a key press, or NULL; in_lesson selects the lesson's
 * page keys (→ ← PageDown PageUp Home) over the walk's. */
const app_action *app_action_for_key(int key, unsigned mods, bool in_lesson);

/* Whether the action steers the lessons or the program (turns a page,
 * leaves, quits, saves a file) rather than the scene: a lesson's steps may
 * not do it, only wait for it. */
bool app_action_steers(const app_action *a);

/* One script word, "name" or "name*N": the action and N (1 without a
 * count). False with a sentence for an unknown name, an action that needs a
 * click's position, or a count that is no number or over what the action
 * allows (app_action.most). */
bool app_action_word(const char *word, const app_action **a, long *times);

/* How often each action has run in one script so far: a --do, or the
 * actions of one lesson step, whose words together may run each action at
 * most app_action.most times; and their work on whole images, bounded by
 * its size: each apply-again and gpu convolves the whole image once, its
 * pixels a pass, APP_SCRIPT_MOST_WORK in all (too-big makes the image
 * larger on the way). Zero it before the first word, then set pixels and
 * too_big. */
typedef struct app_tally {
    long total[128];
    long long pixels;  /* the image's pixels where the script has got to (0: not known) */
    long long too_big; /* the pixels of the image too-big opens, at most (0: it opens none) */
    long long work;    /* pixel-passes so far */
} app_tally;

/* The most pixel-passes of apply-again and gpu one script may ask: 64
 * passes at 2048x2048, 4 at convis's default limit of 8192x8192. */
#define APP_SCRIPT_MOST_WORK (1LL << 28)

/* app_action_word, then the word's count added to the tally: false with a
 * sentence when that takes the action over its bound for one script, or
 * the script's work on whole images over APP_SCRIPT_MOST_WORK. */
bool app_tally_word(app_tally *t, const char *word, const app_action **a, long *times);

/* The next word of a script ("name" or "name*N"), words parted by commas
 * and spaces; false at the end. */
bool app_script_word(const char **p, char *word, size_t size);

/* Writes the actions with a help line, "  name   keys   help", for --help. */
void app_action_list(FILE *f);

#endif
