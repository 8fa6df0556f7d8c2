/* window_loop.c - the window at work: its loop turns events into actions (a
 * key through the action table, a click through the places to click the
 * frame drew, both run by app_do), advances the animation, does long work
 * in slices between frames, and draws with app_frame. */
#include "window_loop.h"

#include <stdlib.h>

#include "actions.h"
#include "capture.h"
#include "cli.h"
#include "core/timing.h"
#include "platform/platform.h"

#define WORK_SLICE_MS 12.0       /* long work between two frames, at most about this (one engine run at least) */
#define WAIT_MS 20               /* while the measuring thread works, events are awaited this long */
#define LAB_LOOK_MS 100          /* while the kernel lab is shown, events are awaited this long between its looks */
#define MEASURING_FRAME_MS 250.0 /* ... and frames drawn at most this often */
#define DRAG_PX 4                /* a press that moves further than this (across plus down) is a drag */

typedef struct loop {
    app_window *w;
    /* a press on a grid: a click (it acts on release) or a drag (it pans) */
    bool pressed, moved;
    int down_x, down_y, view_x0, view_y0;
    view_hit down;
    /* the app changed since the frame drawn last, whose places to click
     * the hit test reads; and that frame's size */
    bool stale;
    int width, height;
    int pointer_x, pointer_y; /* where the mouse is (negative: outside) */
} loop;

/* Draws the frame; then, where the grids moved under a still mouse (the
 * walk paged on, a key panned), the output hovered is the one now under it,
 * not the one it was over before (the next frame shows it). */
static void draw(loop *l)
{
    const scene *s = &l->w->app.s;
    app_frame(l->w, &l->width, &l->height);
    l->stale = false;
    if (s->hovering && !s->pinned && l->pointer_x >= 0) {
        view_hit hit = view_hit_test(l->w->view, l->pointer_x, l->pointer_y);
        app_act a = app_act_id(ACT_HOVER);
        a.x = hit.hovers ? hit.x : -1;
        a.y = hit.hovers ? hit.y : -1;
        if (a.x != s->hover_x || a.y != s->hover_y) {
            app_do(&l->w->app, a);
            l->stale = true;
        }
    }
}

/* What is under window pixel (x, y). The places to click are those the
 * last frame drew; an action since (a key's or a click's earlier in the
 * same batch of events, a zoom say), the walk moving the grids on, work
 * that finished, or another window size may have moved them or changed
 * what they mean. Then the frame is drawn again first, into the back
 * buffer, unseen (the loop's next frame draws over it before it is shown),
 * so that the hit test reads the app as it is. Hovering alone moves no
 * place: it changes only what the panels show of an output. */
static view_hit hit_at(loop *l, int x, int y)
{
    int width, height;
    plat_drawable_size(l->w->win, &width, &height);
    if (l->stale || width != l->width || height != l->height)
        draw(l);
    return view_hit_test(l->w->view, x, y);
}

/* Runs an action of the input; the places drawn may be out of date now. */
static void act(loop *l, app_act a)
{
    app_do(&l->w->app, a);
    l->stale = true;
}

static void mouse_down(loop *l, const plat_event *ev)
{
    view_hit hit = hit_at(l, ev->x, ev->y);
    l->pressed = false;
    if (ev->button != 1)
        return;
    if (hit.pans) { /* wait: a drag pans, a click acts when the button comes up */
        l->pressed = true;
        l->moved = false;
        l->down = hit;
        l->down_x = ev->x;
        l->down_y = ev->y;
        l->view_x0 = l->w->app.s.view_x;
        l->view_y0 = l->w->app.s.view_y;
        return;
    }
    act(l, hit.act);
}

static void mouse_move(loop *l, const plat_event *ev)
{
    view_hit hit;
    app_act a;
    if (l->pressed && ev->button) {
        if (abs(ev->x - l->down_x) + abs(ev->y - l->down_y) > DRAG_PX)
            l->moved = true;
        if (l->moved && l->down.cell > 0) { /* the grids follow the pointer, cell by cell */
            a = app_act_id(ACT_VIEW_AT);
            a.x = l->view_x0 + (int)((float)(l->down_x - ev->x) / l->down.cell);
            a.y = l->view_y0 + (int)((float)(l->down_y - ev->y) / l->down.cell);
            act(l, a);
        }
        return;
    }
    view_pointer(l->w->view, ev->x, ev->y);
    l->pointer_x = ev->x;
    l->pointer_y = ev->y;
    hit = hit_at(l, ev->x, ev->y);
    a = app_act_id(ACT_HOVER);
    a.x = hit.hovers ? hit.x : -1;
    a.y = hit.hovers ? hit.y : -1;
    if (a.x >= 0 || l->w->app.s.hovering)
        app_do(&l->w->app, a);
}

/* A press on a grid released where it was, unmoved, is a click there (a
 * pin on the output grid); the input grid's own action is the drag's. */
static void mouse_up(loop *l, const plat_event *ev)
{
    view_hit hit = hit_at(l, ev->x, ev->y);
    if (l->pressed && !l->moved && hit.pans && hit.act.action && hit.act.action == l->down.act.action &&
        hit.act.action->id != ACT_VIEW_AT)
        act(l, hit.act);
    l->pressed = false;
}

/* Handles one event; returns true when the frame must be drawn again. */
static bool handle(loop *l, const plat_event *ev)
{
    app *a = &l->w->app;
    app_act key;
    switch (ev->type) {
    case PLAT_EVENT_QUIT: a->quit = true; return false;
    case PLAT_EVENT_KEY: act(l, app_act_for_key(a, ev->key, ev->mods)); break;
    case PLAT_EVENT_DROP:
        key = app_act_id(ACT_OPEN);
        key.text = ev->path;
        act(l, key);
        break;
    case PLAT_EVENT_MOUSE_DOWN: mouse_down(l, ev); break;
    case PLAT_EVENT_MOUSE_MOVE: mouse_move(l, ev); break;
    case PLAT_EVENT_MOUSE_UP: mouse_up(l, ev); break;
    case PLAT_EVENT_WHEEL: act(l, app_act_id(ev->wheel > 0 ? ACT_ZOOM_IN : ACT_ZOOM_OUT)); break;
    case PLAT_EVENT_LEAVE:
        view_pointer(l->w->view, -1, -1);
        l->pointer_x = l->pointer_y = -1;
        app_do(a, app_act_id(ACT_HOVER));
        break;
    default: break;
    }
    if (a->fullscreen_request) {
        a->fullscreen_request = false;
        plat_toggle_fullscreen(l->w->win);
    }
    return true;
}

/* A frame, when one is due, with what it owes: a screenshot (S), a GIF
 * started or stopped (Shift+S) or its next frame; then shown. */
static void frame(loop *l)
{
    app_window *w = l->w;
    draw(l);
    if (w->app.screenshot_request) {
        w->app.screenshot_request = false;
        app_capture_screenshot(w, l->width, l->height);
    }
    if (w->app.gif_request) {
        w->app.gif_request = false;
        app_capture_gif_toggle(w, l->width, l->height);
    }
    app_capture_gif_frame(w, l->width, l->height);
    plat_swap(w->win);
}

int app_window_run(app_window *w)
{
    app *a = &w->app;
    loop l = {.w = w, .stale = true, .pointer_x = -1, .pointer_y = -1};
    bool dirty = true, shown_once = false, holding = false;
    double last = tim_now_ms(), drawn_at = 0;

    while (!a->quit) {
        plat_event ev;
        double now = tim_now_ms();
        bool animating = scene_animating(&a->s), working, lab;
        int view_x = a->s.view_x, view_y = a->s.view_y;

        scene_update(&a->s, now - last);
        last = now;
        l.stale |= a->s.view_x != view_x || a->s.view_y != view_y; /* the grids followed the walk */
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
            frame(&l);
            dirty = l.stale; /* the hover moved to what is under the mouse now: shown next */
            shown_once = true;
        }
        /* measuring and the long experiments: a slice between frames, once
         * the change is on screen, so events are read between slices; while
         * the measuring thread works, the window waits for events a little
         * (and draws what changed), not taking the CPU it measures */
        working = shown_once && (scene_busy(&a->s) || scene_stale(&a->s) || scene_waiting(&a->s) || app_step_due(a));
        lab = shown_once && a->lab.shown; /* the lab looks at its file and its check a few times a second */
        if (working || lab) {
            unsigned long seen = a->s.updates, checks = a->lab.generation;
            bool step_due = app_step_due(a), checking = a->lab.running;
            app_work(a, WORK_SLICE_MS); /* a lesson step's actions left too, one slice at a time */
            if (a->s.updates != seen || step_due || a->lab.generation != checks || a->lab.running != checking)
                dirty = l.stale = true;
        }
        if (plat_next_event(w->win,
                            working                                               ? (scene_waiting(&a->s) ? WAIT_MS : 0)
                            : animating || holding || app_capture_gif_recording() ? 1
                            : lab                                                 ? LAB_LOOK_MS
                                                                                  : 250,
                            &ev)) {
            do
                dirty |= handle(&l, &ev);
            while (!a->quit && plat_next_event(w->win, 0, &ev));
        }
        if (a->screenshot_request || a->gif_request)
            dirty = true;
    }
    app_capture_gif_end(w); /* a GIF still recording is saved */
    return APP_EXIT_OK;
}
