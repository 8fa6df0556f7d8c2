/* actions.h - every named thing a person can do in the window, with its
 * keys and its line in the help overlay. Keys, scripted actions (--do) and
 * lessons all go through this one table. */
#ifndef CONVIS_ACTIONS_H
#define CONVIS_ACTIONS_H

#include <stddef.h>

#include "scene.h"

typedef struct app_key {
    int code;           /* a platform key (platform.h) */
    unsigned mods;      /* PLAT_MOD_* that must be held (shift matters, others not) */
} app_key;

typedef struct app_action {
    const char *name;   /* for scripts: "play", "gpu", "filter-3" */
    const char *keys;   /* for people: "Space" */
    const char *help;   /* one line */
    void (*run)(scene *s);
    app_key key[3];
    int most;           /* the most times one script word may repeat it (0: APP_ACTION_MOST) */
} app_action;

/* How often a script word may repeat a cheap action ("step*45"). */
#define APP_ACTION_MOST 10000

/* One script word, "name" or "name*N": the action and N (1 without a
 * count). False with a sentence for an unknown name, or a count that is no
 * number or over what the action allows (app_action.most). */
bool app_action_word(const char *word, const app_action **a, long *times);

/* How often each action has run in one script so far: a --do, or the
 * actions of one lesson step, whose words together may run each action at
 * most app_action.most times. Zero it before the first word. */
typedef struct app_tally {
    long total[128];
} app_tally;

/* app_action_word, then the word's count added to the tally: false with a
 * sentence when that takes the action over its bound for one script. */
bool app_tally_word(app_tally *t, const char *word, const app_action **a, long *times);

size_t app_action_count(void);
const app_action *app_action_at(size_t i);
const app_action *app_action_find(const char *name);

/* The action bound to a key press, or NULL. */
const app_action *app_action_for_key(int key, unsigned mods);

/* Runs a script of actions: names separated by commas or spaces, each
 * optionally repeated as name*N ("gpu,threads,step*40"). Stops at the first
 * unknown name and returns false with err_msg() naming it. */
bool app_run_script(scene *s, const char *script);

#endif
