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
} app_action;

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
