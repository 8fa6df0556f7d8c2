/* layout_checks.c - the checks of a frame's text and places to click that
 * test_layout and test_room share (layout_checks.h). */
#include "layout_checks.h"

#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "data.h"
#include "engine_host.h"
#include "render/text.h"
#include "settings.h"

/* A machine without a GPU engine, as one whose OpenGL is too old for
 * compute shaders (MESA_GL_VERSION_OVERRIDE=3.3) and which has no CUDA
 * device: the GPU engines do not open, each saying why in as many words as
 * such a machine's drivers do; the CPU engines open as on this one. */
static eng_engine *open_no_gpu(void *user, const char *name, char *why, size_t size)
{
    if (strcmp(name, "cuda") == 0) {
        snprintf(why, size, "no CUDA device: cudaGetDeviceCount says no CUDA-capable device is detected here");
        return NULL;
    }
    if (strcmp(name, "gl") == 0) {
        snprintf(why, size,
                 "the compute shaders need OpenGL 4.3; this context is OpenGL 3.3 (Core Profile) Mesa "
                 "22.3.6, on llvmpipe (LLVM 15.0.6, 256 bits)");
        return NULL;
    }
    return app_host_open_engine(user, name, why, size);
}

static bool start(app_window *win, const char *lang, const char *lesson, const char *kernel, bool no_gpu)
{
    app_options opt;
    scene_host host = app_window_host(win);
    char path[4096];
    if (no_gpu)
        host.open_engine = open_no_gpu;
    app_options_default(&opt, kernel ? kernel : APP_DEFAULT_KERNEL);
    opt.display = IMG_DISPLAY_ABS; /* as the window opens */
    app_init(&win->app, &host, &opt, lang);
    win->app_ready = true;
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    return scene_open_image(&win->app.s, path) && (!lesson || app_lesson_start(&win->app, lesson));
}

bool lc_app_start(app_window *win, const char *lang, const char *lesson, const char *kernel)
{
    return start(win, lang, lesson, kernel, false);
}

bool lc_app_start_no_gpu(app_window *win, const char *lang, const char *lesson)
{
    return start(win, lang, lesson, NULL, true);
}

/* The problems of the frame's text boxes within a w x h window, printed
 * (at most five); returns how many. */
int check_boxes(const char *what, int w, int h, int *runs)
{
    const rnd_text_box *b;
    int dropped, n = rnd_text_boxes(&b, &dropped), bad = 0;
    *runs = n;
    if (dropped > 0) {
        printf("  %s: %d runs of text not recorded\n", what, dropped);
        ++bad;
    }
    for (int i = 0; i < n; ++i) {
        if (b[i].x < -1 || b[i].y < -1 || b[i].x + b[i].w > (float)w + 1 || b[i].y + b[i].h > (float)h + 1) {
            if (bad < 5)
                printf("  %s: outside the window: \"%s\" at %.0f,%.0f %.0fx%.0f\n", what, b[i].text, b[i].x, b[i].y,
                       b[i].w, b[i].h);
            ++bad;
        }
        for (int j = i + 1; j < n; ++j) {
            float ox, oy;
            /* a notice lies over nothing, on any layer: not a control's words, not the banner's */
            if (b[i].layer != b[j].layer && b[i].role != VIEW_TEXT_NOTICE && b[j].role != VIEW_TEXT_NOTICE)
                continue;
            ox = (b[i].x + b[i].w < b[j].x + b[j].w ? b[i].x + b[i].w : b[j].x + b[j].w) -
                 (b[i].x > b[j].x ? b[i].x : b[j].x);
            oy = (b[i].y + b[i].h < b[j].y + b[j].h ? b[i].y + b[i].h : b[j].y + b[j].h) -
                 (b[i].y > b[j].y ? b[i].y : b[j].y);
            if (ox > 2 && oy > 2) {
                if (bad < 5)
                    printf("  %s: \"%s\" (%.0f,%.0f %.0fx%.0f) overlaps \"%s\" (%.0f,%.0f %.0fx%.0f)\n", what,
                           b[i].text, b[i].x, b[i].y, b[i].w, b[i].h, b[j].text, b[j].x, b[j].y, b[j].w, b[j].h);
                ++bad;
            }
        }
    }
    return bad;
}

/* The places to click the frame listed, each hit at its middle: the hit
 * test must give that place's action (and index), not one drawn over it.
 * Prints the problems (at most three); returns how many. */
int check_targets(const char *what, const view *v)
{
    view_target t[128];
    int n = view_targets(v, t, 128), bad = 0;
    for (int i = 0; i < n; ++i) {
        view_hit hit = view_hit_test(v, t[i].x + t[i].w / 2, t[i].y + t[i].h / 2);
        if (hit.act.action && strcmp(hit.act.action->name, t[i].action) == 0 &&
            (t[i].arg < 0 || hit.act.arg == t[i].arg))
            continue;
        if (bad++ < 3)
            printf("  %s: target %s,%d at %d,%d %dx%d: a click there gives %s,%d\n", what, t[i].action, t[i].arg,
                   t[i].x, t[i].y, t[i].w, t[i].h, hit.act.action ? hit.act.action->name : "nothing", hit.act.arg);
    }
    return bad;
}
