/* window_loop.c - the window at work: its loop turns events into actions (a
 * key through the action table, a click through the view's hit test, both
 * run by app_do), advances the animation, does long work in slices between
 * frames, and draws with app_frame. */
#include "window_loop.h"

#include <stdlib.h>

#include "actions.h"
#include "capture.h"
#include "cli.h"
#include "core/timing.h"
#include "platform/platform.h"

#define WORK_SLICE_MS 12.0  /* long work between two frames, at most about this (one engine run at least) */
#define WAIT_MS 20          /* while the measuring thread works, events are awaited this long */
#define MEASURING_FRAME_MS 250.0 /* ... and frames drawn at most this often */

/* A press on a grid: a click (pins an output) or a drag (pans). */
typedef struct input {
    bool pressed, moved;
    int down_x, down_y, view_x0, view_y0;
    view_hit down;
} input;

static void mouse_down(app_window *w, input *in, const plat_event *ev)
{
    view_hit hit = view_hit_test(w->view, &w->app, ev->x, ev->y);
    in->pressed = false;
    if (ev->button != 1)
        return;
    if (hit.grid) { /* wait: a drag pans, a click acts when the button comes up */
        in->pressed = true;
        in->moved = false;
        in->down = hit;
        in->down_x = ev->x;
        in->down_y = ev->y;
        in->view_x0 = w->app.s.view_x;
        in->view_y0 = w->app.s.view_y;
        return;
    }
    app_do(&w->app, hit.act);
}

static void mouse_move(app_window *w, input *in, const plat_event *ev)
{
    view_hit hit;
    app_act act;
    if (in->pressed && ev->button) {
        float cell = view_cell_px(w->view);
        if (abs(ev->x - in->down_x) + abs(ev->y - in->down_y) > 4)
            in->moved = true;
        if (in->moved) {
            act = app_act_id(ACT_VIEW_AT);
            act.x = in->view_x0 + (int)((float)(in->down_x - ev->x) / cell);
            act.y = in->view_y0 + (int)((float)(in->down_y - ev->y) / cell);
            app_do(&w->app, act);
        }
        return;
    }
    view_pointer(w->view, ev->x, ev->y);
    hit = view_hit_test(w->view, &w->app, ev->x, ev->y);
    act = app_act_id(ACT_HOVER);
    act.x = hit.output ? hit.x : -1;
    act.y = hit.output ? hit.y : -1;
    if (act.x >= 0 || w->app.s.hovering)
        app_do(&w->app, act);
}

static void mouse_up(app_window *w, input *in, const plat_event *ev)
{
    view_hit hit = view_hit_test(w->view, &w->app, ev->x, ev->y);
    if (in->pressed && !in->moved && hit.grid && hit.output && in->down.output)
        app_do(&w->app, hit.act);
    in->pressed = false;
}

/* Handles one event; returns true when the frame must be drawn again. */
static bool handle(app_window *w, input *in, const plat_event *ev)
{
    app *a = &w->app;
    app_act act;
    switch (ev->type) {
    case PLAT_EVENT_QUIT:
        a->quit = true;
        return false;
    case PLAT_EVENT_KEY:
        app_do(a, app_act_for_key(a, ev->key, ev->mods));
        break;
    case PLAT_EVENT_DROP:
        act = app_act_id(ACT_OPEN);
        act.text = ev->path;
        app_do(a, act);
        break;
    case PLAT_EVENT_MOUSE_DOWN:
        mouse_down(w, in, ev);
        break;
    case PLAT_EVENT_MOUSE_MOVE:
        mouse_move(w, in, ev);
        break;
    case PLAT_EVENT_MOUSE_UP:
        mouse_up(w, in, ev);
        break;
    case PLAT_EVENT_WHEEL:
        app_do(a, app_act_id(ev->wheel > 0 ? ACT_ZOOM_IN : ACT_ZOOM_OUT));
        break;
    case PLAT_EVENT_LEAVE:
        view_pointer(w->view, -1, -1);
        act = app_act_id(ACT_HOVER);
        app_do(a, act);
        break;
    default:
        break;
    }
    if (a->fullscreen_request) {
        a->fullscreen_request = false;
        plat_toggle_fullscreen(w->win);
    }
    return true;
}

int app_window_run(app_window *w)
{
    app *a = &w->app;
    input in = {0};
    bool dirty = true, shown_once = false, holding = false;
    double last = tim_now_ms(), drawn_at = 0;
    int width, height;

    while (!a->quit) {
        plat_event ev;
        double now = tim_now_ms();
        bool animating = scene_animating(&a->s), working;

        scene_update(&a->s, now - last);
        last = now;
        /* while the measuring thread times the CPU engines, frames are few:
         * drawing (on a software renderer, on the same cores) would slow
         * what it measures */
        if (app_capture_gif_due())
            dirty = true; /* a GIF's frame is due: drawn whatever else holds */
        if ((dirty || animating) && scene_measuring(&a->s) && now - drawn_at < MEASURING_FRAME_MS &&
            !app_capture_gif_recording())
            holding = true;
        else if (dirty || animating) {
            holding = false;
            drawn_at = now;
            app_frame(w, &width, &height);
            if (a->screenshot_request) {
                a->screenshot_request = false;
                app_capture_screenshot(w, width, height);
            }
            if (a->gif_request) {
                a->gif_request = false;
                app_capture_gif_toggle(w, width, height);
            }
            app_capture_gif_frame(w, width, height);
            plat_swap(w->win);
            dirty = false;
            shown_once = true;
        }
        /* measuring and the long experiments: a slice between frames, once
         * the change is on screen, so events are read between slices; while
         * the measuring thread works, the window waits for events a little
         * (and draws what changed), not taking the CPU it measures */
        working = shown_once && (scene_busy(&a->s) || scene_stale(&a->s) || scene_waiting(&a->s) || app_step_due(a));
        if (working) {
            unsigned long seen = a->s.updates;
            bool step_due = app_step_due(a);
            app_work(a, WORK_SLICE_MS); /* a lesson step's actions left too, one slice at a time */
            if (a->s.updates != seen || step_due)
                dirty = true;
        }
        if (plat_next_event(w->win,
                            working ? (scene_waiting(&a->s) ? WAIT_MS : 0)
                            : animating || holding || app_capture_gif_recording() ? 1
                                                                                  : 250,
                            &ev)) {
            do
                dirty |= handle(w, &in, &ev);
            while (!a->quit && plat_next_event(w->win, 0, &ev));
        }
        if (a->screenshot_request || a->gif_request)
            dirty = true;
    }
    app_capture_gif_end(w); /* a GIF still recording is saved */
    return APP_EXIT_OK;
}
