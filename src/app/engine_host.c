/* engine_host.c - the shaders folder and, for OpenGL engines, a context made
 * in a hidden window when none is current. See engine_host.h. */
#include "engine_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "data.h"
#include "platform/platform.h"

static plat_window *hidden;  /* the hidden window, once opened */
static bool hidden_tried;    /* opening it was tried (and failed when hidden is NULL) */
static char hidden_why[256]; /* why it could not be opened */

static void set_shader_dir(void)
{
    char dir[4200];
    if (eng_shader_dir())
        return;
    snprintf(dir, sizeof dir, "%s/shaders", app_data_dir());
    eng_set_shader_dir(dir);
}

/* Opens the hidden window, trying once; on failure `why` says why. */
static bool open_hidden_context(char *why, size_t size)
{
    if (!hidden_tried) {
        hidden_tried = true;
        if (!(hidden = plat_open("convis", 64, 64, PLAT_WINDOW_HIDDEN | PLAT_WINDOW_OFFSCREEN)))
            snprintf(hidden_why, sizeof hidden_why, "cannot create an OpenGL context: %s", err_msg());
    }
    if (!hidden)
        snprintf(why, size, "%s", hidden_why);
    return hidden != NULL;
}

bool app_engine_probe(const eng_class *cls, char *why, size_t size)
{
    set_shader_dir();
    /* A context current already (the window's, or ours) is the one to use,
     * even when it is too old: the engine then says so. */
    if (cls->needs_gl_context && !eng_gl_context_current() && !open_hidden_context(why, size))
        return false;
    return eng_probe(cls, why, size);
}

eng_engine *app_engine_open_reason(const eng_class *cls, char *why, size_t size)
{
    if (!app_engine_probe(cls, why, size)) {
        err_set("engine '%s' is unavailable: %s", cls->name, why);
        return NULL;
    }
    return eng_open_reason(cls, why, size);
}

eng_engine *app_host_open_engine(void *user, const char *name, char *why, size_t size)
{
    const eng_class *cls = eng_find(name);
    (void)user;
    if (!cls) {
        snprintf(why, size, "this build has no %s engine", name);
        return NULL;
    }
    return app_engine_open_reason(cls, why, size);
}

eng_engine *app_engine_open(const eng_class *cls)
{
    char why[256];
    return app_engine_open_reason(cls, why, sizeof why);
}

bool app_engine_host_offscreen(void)
{
    return hidden && strcmp(plat_video_driver(), "offscreen") == 0;
}

void app_engine_host_close(void)
{
    plat_close(hidden);
    hidden = NULL;
    hidden_tried = false;
}
