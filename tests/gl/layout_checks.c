/* layout_checks.c - the checks of a frame's text and places to click that
 * test_layout and test_room share (layout_checks.h). */
#include "layout_checks.h"

#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "data.h"
#include "render/text.h"
#include "settings.h"

bool lc_app_start(app_window *win, const char *lang, const char *lesson, const char *kernel)
{
    app_options opt;
    scene_host host = app_window_host(win);
    char path[4096];
    app_options_default(&opt, kernel ? kernel : APP_DEFAULT_KERNEL);
    opt.display = IMG_DISPLAY_ABS; /* as the window opens */
    app_init(&win->app, &host, &opt, lang);
    win->app_ready = true;
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    return scene_open_image(&win->app.s, path) && (!lesson || app_lesson_start(&win->app, lesson));
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
            if (b[i].layer != b[j].layer)
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
