/* window.c - the teaching window: the command line, the main loop. It opens
 * the window, turns events into actions (a key through the action table, a
 * click through the view's hit test, both run by app_do), advances the
 * animation, does long work in slices between frames, and draws with
 * app_frame. The runs that end by themselves are in capture.c. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "actions.h"
#include "capture.h"
#include "cli.h"
#include "core/err.h"
#include "core/timing.h"
#include "data.h"
#include "frame.h"
#include "i18n.h"
#include "lessons.h"
#include "platform/platform.h"
#include "render/render.h"

#define DEFAULT_KERNEL "sobel-x"
#define WORK_SLICE_MS 12.0  /* long work between two frames, at most about this (one engine run at least) */
#define WAIT_MS 20          /* while the measuring thread works, events are awaited this long */
#define MEASURING_FRAME_MS 250.0 /* ... and frames drawn at most this often */

typedef struct window_args {
    const char *image, *screenshot, *script, *lesson, *render_steps, *lang, *record, *gif;
    int gif_seconds, gif_fps;
    bool gif_steps;
    int width, height;
    bool display_given, print_state;
    int report_frames;
} window_args;

static int parse(int argc, char **argv, window_args *a, app_options *opt)
{
    memset(a, 0, sizeof *a);
    a->width = 1280;
    a->height = 720;
    a->gif_seconds = 5;
    a->gif_fps = 10;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i], *v;
        const app_option *o;
        int kind = app_next_option(argc, argv, &i, APP_FOR_ALL | APP_FOR_WINDOW, &o, &v), taken;
        if (kind < 0)
            return APP_EXIT_USAGE;
        if (kind == 0) {
            if (a->image) {
                app_error("the window opens one image, but '%s' came after '%s'", arg, a->image);
                return APP_EXIT_USAGE;
            }
            a->image = arg;
            continue;
        }
        if (o->id == OPT_DISPLAY)
            a->display_given = true;
        taken = app_take_shared_option(o, v, opt);
        if (taken < 0)
            return APP_EXIT_USAGE;
        if (taken)
            continue;
        switch (o->id) {
        case OPT_SCREENSHOT:
            a->screenshot = v;
            break;
        case OPT_LANG:
            if (!app_lang_known(v)) {
                app_error("option '--lang' takes en, zh or another language with lessons/<lang>/ or po/<lang>.po, "
                          "not '%s'", v);
                return APP_EXIT_USAGE;
            }
            a->lang = v;
            break;
        case OPT_LESSON:
            a->lesson = v;
            break;
        case OPT_RECORD:
            a->record = v;
            break;
        case OPT_RENDER_STEPS:
            a->render_steps = v;
            break;
        case OPT_DO:
            a->script = v;
            break;
        case OPT_PRINT_STATE:
            a->print_state = true;
            break;
        case OPT_GIF:
            a->gif = v;
            break;
        case OPT_GIF_STEPS:
            a->gif_steps = true;
            break;
        case OPT_GIF_SECONDS:
        case OPT_GIF_FPS: {
            long long n;
            if (!app_parse_count(o->name, v, o->id == OPT_GIF_SECONDS ? 60 : 30, &n))
                return APP_EXIT_USAGE;
            *(o->id == OPT_GIF_SECONDS ? &a->gif_seconds : &a->gif_fps) = (int)n;
            break;
        }
        case OPT_REPORT_FRAMES: {
            long long n;
            if (!app_parse_count(o->name, v, 100000, &n))
                return APP_EXIT_USAGE;
            a->report_frames = (int)n;
            break;
        }
        case OPT_WINDOW: {
            char extra;
            if (sscanf(v, "%dx%d%c", &a->width, &a->height, &extra) != 2 || a->width < 320 || a->height < 240 ||
                a->width > 7680 || a->height > 4320) {
                app_error("option '--window' takes a size such as 1280x720 (from 320x240 to 7680x4320), not '%s'",
                          v);
                return APP_EXIT_USAGE;
            }
            break;
        }
        default:
            break;
        }
    }
    if (a->gif_steps && (!a->gif || !a->lesson)) {
        app_error("--gif-steps records a lesson's steps: convis lesson FILE --gif FILE.gif --gif-steps");
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

/* ---- the command line: convis lesson ... ---------------------------------- */

static int check_files(int argc, char **argv)
{
    int bad = 0;
    if (argc == 0) {
        app_error("lesson --check: no file; usage: convis lesson --check FILE...");
        return APP_EXIT_USAGE;
    }
    for (int i = 0; i < argc; ++i) {
        lsn_lesson l;
        if (!app_lesson_load(argv[i], &l)) {
            fprintf(stderr, "%s\n", err_msg());
            ++bad;
            continue;
        }
        printf(ngettext("%s: ok, \"%s\", %d step\n", "%s: ok, \"%s\", %d steps\n", (unsigned long)l.step_count), argv[i],
               l.title, l.step_count);
        lsn_free(&l);
    }
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}

int app_lesson_main(int argc, char **argv)
{
    char **args;
    int n = 0, file = -1, rc;

    if (argc >= 1 && strcmp(argv[0], "--check") == 0)
        return check_files(argc - 1, argv + 1);
    for (int i = 0; i < argc; ++i) {
        if (argv[i][0] == '-' && argv[i][1]) {
            const app_option *o = app_option_named(argv[i], APP_FOR_ALL | APP_FOR_WINDOW);
            if (o && o->value)
                ++i;
            continue;
        }
        file = i;
        break;
    }
    if (file < 0) {
        app_error("lesson: no lesson file; usage: convis lesson FILE [OPTIONS], or convis lesson --check FILE...");
        return APP_EXIT_USAGE;
    }
    /* the window, with --lesson FILE in place of FILE */
    args = malloc(sizeof *args * (size_t)(argc + 2));
    if (!args) {
        app_error("out of memory");
        return APP_EXIT_INPUT;
    }
    args[n++] = "--lesson";
    args[n++] = argv[file];
    for (int i = 0; i < argc; ++i)
        if (i != file)
            args[n++] = argv[i];
    rc = app_window_main(n, args);
    free(args);
    return rc;
}

/* ---- events ---------------------------------------------------------------- */

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

/* ---- running ---------------------------------------------------------------- */

static int run_loop(app_window *w)
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
        working = shown_once && (scene_busy(&a->s) || scene_stale(&a->s) || scene_waiting(&a->s));
        if (working) {
            unsigned long seen = a->s.updates;
            scene_work(&a->s, WORK_SLICE_MS);
            if (a->s.updates != seen)
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

int app_window_main(int argc, char **argv)
{
    window_args args;
    app_options opt;
    app_window w;
    scene_host host;
    char path[4096];
    double load_start, loaded;
    int rc;

    memset(&w, 0, sizeof w);
    app_options_default(&opt, DEFAULT_KERNEL);
    rc = parse(argc, argv, &args, &opt);
    if (rc != APP_EXIT_OK)
        return rc;
    if (!args.display_given)
        opt.display = IMG_DISPLAY_ABS; /* edges are negative on one side */

    /* A run that ends by itself (a screenshot, frames to report, a lesson's
     * steps to render) may draw offscreen where there is no display; the
     * interactive window needs one, or it would run unseen. */
    w.win = plat_open("convis", args.width, args.height,
                      args.screenshot || args.render_steps || args.report_frames || args.gif ? PLAT_WINDOW_OFFSCREEN
                                                                                             : 0);
    if (!w.win) {
        app_error("%s%s", err_msg(),
                  plat_has_display() ? "" : _(" (or render a picture offscreen with --screenshot FILE)"));
        return APP_EXIT_INPUT;
    }
    {
        int dw, dh;
        plat_window_size(w.win, &dw, &dh);
        if (dw < args.width || dh < args.height)
            fprintf(stderr, _("convis: the window is %dx%d, not %dx%d: the display has no more room\n"), dw, dh,
                    args.width, args.height);
    }
    if (strcmp(plat_video_driver(), "offscreen") == 0)
        fprintf(stderr, _("convis: no display: drawing offscreen through EGL (SDL's %s video driver)\n"),
                plat_video_driver());
    rc = APP_EXIT_INPUT;
    snprintf(path, sizeof path, "%s/shaders", app_data_dir());
    if (!rnd_init(path)) {
        app_error("%s", err_msg());
        goto close_window;
    }
    w.view = view_create();
    if (!w.view) {
        app_error("%s", err_msg());
        goto stop_render;
    }
    w.clock_virtual = args.gif != NULL; /* a GIF's frames are spaced in its own time */
    w.record_text = args.print_state;
    host = app_window_host(&w);
    app_init(&w.app, &host, &opt, args.lang);
    w.app_ready = true;
    load_start = tim_now_ms();
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    if (args.image && !scene_open_image(&w.app.s, args.image))
        app_error("%s", w.app.s.banner);
    if (!args.image || !w.app.s.img.luma.px) {
        char banner[512];
        snprintf(banner, sizeof banner, "%s", w.app.s.banner);
        if (!scene_open_image(&w.app.s, path)) {
            app_error("the sample image is missing too: %s", err_msg());
            goto free_app;
        }
        if (banner[0]) {
            char msg[600];
            snprintf(msg, sizeof msg, _("%s; showing the sample image"), banner);
            scene_say_error(&w.app.s, msg);
        }
    }
    loaded = tim_now_ms();
    if (args.record) {
        if (!rec_read(args.record, &w.app.record)) {
            app_error("%s", err_msg());
            goto free_app;
        }
        w.app.has_record = true;
    }
    if (args.lesson && !app_lesson_start(&w.app, args.lesson)) {
        app_error("%s", err_msg());
        goto free_app;
    }
    if (args.script && !app_run_script(&w.app, args.script)) {
        app_error("--do: %s", err_msg());
        rc = APP_EXIT_USAGE;
        goto free_app;
    }

    if (args.screenshot) {
        rc = app_capture_still(&w, args.screenshot);
    } else if (args.gif) {
        rc = app_capture_gif(&w, args.gif, args.gif_seconds, args.gif_fps, args.gif_steps);
    } else if (args.render_steps) {
        if (!app_in_lesson(&w.app)) {
            app_error("--render-steps needs a lesson: convis lesson --render-steps DIR FILE");
            rc = APP_EXIT_USAGE;
        } else {
            rc = app_capture_render_steps(&w, args.render_steps);
        }
    } else if (args.report_frames) {
        rc = app_capture_report_frames(&w, args.report_frames, load_start, loaded);
    } else {
        rc = run_loop(&w);
    }
    if (args.print_state)
        app_capture_print_state(&w);

free_app:
    app_free(&w.app);
    view_destroy(w.view);
stop_render:
    rnd_shutdown();
close_window:
    plat_close(w.win);
    return rc;
}
