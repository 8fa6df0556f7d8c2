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

/* Reads "WxH" into *w and *h: two whole numbers within the window's
 * bounds, nothing else (no overflow wraps a huge number into range). */
static bool parse_window_size(const char *text, int *w, int *h)
{
    long v[2];
    const char *p = text;
    for (int i = 0; i < 2; ++i) {
        char *end;
        if (*p < '0' || *p > '9')
            return false;
        errno = 0;
        v[i] = strtol(p, &end, 10);
        if (errno || *end != (i == 0 ? 'x' : '\0'))
            return false;
        p = end + 1;
    }
    if (v[0] < 320 || v[1] < 240 || v[0] > 7680 || v[1] > 4320)
        return false;
    *w = (int)v[0];
    *h = (int)v[1];
    return true;
}

/* Whether a script of actions (--do) has an action that is empty: none at
 * all, or two commas together, or a comma at an end, as lessons refuse. */
static bool script_has_empty_action(const char *script)
{
    const char *p = script;
    for (;;) {
        bool word = false;
        for (; *p && *p != ','; ++p)
            word |= *p != ' ' && *p != '\t';
        if (!word)
            return true;
        if (!*p)
            return false;
        ++p;
    }
}

/* Whether the word in the image's place looks like a command mistyped
 * ("export", "aply"): letters, digits and dashes only, and no such file. */
static bool looks_like_command(const char *word)
{
    struct stat st;
    for (const char *p = word; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return false;
    return lstat(word, &st) != 0 && errno == ENOENT;
}

/* The options that end the run with an output of their own: one at most. */
static int check_run_kind(const window_args *a)
{
    const char *given[4];
    int n = 0;
    if (a->screenshot)
        given[n++] = "--screenshot";
    if (a->gif)
        given[n++] = "--gif";
    if (a->render_steps)
        given[n++] = "--render-steps";
    if (a->report_frames)
        given[n++] = "--report-frames";
    if (n > 1) {
        app_error("options '%s' and '%s' each end the run with an output of their own; give one of them", given[0],
                  given[1]);
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

/* Whether the run ends by itself (a screenshot, a GIF, a lesson's steps,
 * frame times, or a script whose state is printed): then a failure is the
 * run's failure, with its exit status, never shown in a banner no one sees. */
static bool ends_by_itself(const window_args *a)
{
    return a->screenshot || a->gif || a->render_steps || a->report_frames || (a->print_state && a->script);
}

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
            if (script_has_empty_action(v)) {
                app_error("option '--do' has an empty action (nothing, two commas together, or a comma at an end); "
                          "write actions such as \"gpu,threads,step*40\"");
                return APP_EXIT_USAGE;
            }
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
            if (!parse_window_size(v, &a->width, &a->height)) {
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
    if (check_run_kind(a) != APP_EXIT_OK)
        return APP_EXIT_USAGE;
    if (a->gif_steps && (!a->gif || !a->lesson)) {
        app_error("--gif-steps records a lesson's steps: convis lesson FILE --gif FILE.gif --gif-steps");
        return APP_EXIT_USAGE;
    }
    if (a->render_steps && !a->lesson) {
        app_error("--render-steps needs a lesson: convis lesson --render-steps DIR FILE");
        return APP_EXIT_USAGE;
    }
    if (a->image && looks_like_command(a->image)) {
        app_error("unknown command or missing image '%s'; the commands are apply, bench, engines, kernels, lesson and "
                  "record (see 'convis --help')", a->image);
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
        char title[1024];
        if (!app_lesson_load(argv[i], &l)) {
            fprintf(stderr, "%s\n", err_msg());
            ++bad;
            continue;
        }
        err_shown(l.title, strlen(l.title), title, sizeof title); /* the file's escape sequences, shown escaped */
        printf(ngettext("%s: ok, \"%s\", %d step\n", "%s: ok, \"%s\", %d steps\n", (unsigned long)l.step_count), argv[i],
               title, l.step_count);
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
        if (file >= 0) { /* a lesson names its own images */
            app_error("lesson: plays one lesson file, but '%s' came after '%s'", argv[i], argv[file]);
            return APP_EXIT_USAGE;
        }
        file = i;
    }
    if (file < 0) {
        app_error("lesson: no lesson file; usage: convis lesson FILE [OPTIONS], or convis lesson --check FILE...");
        return APP_EXIT_USAGE;
    }
    /* the window, with --lesson FILE in place of FILE */
    args = malloc(sizeof *args * (size_t)(argc + 2));
    if (!args) {
        app_error("out of memory");
        return APP_EXIT_ENV;
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
    if (!w.win) { /* no display, or no OpenGL: the machine's */
        app_error("%s%s", err_msg(),
                  plat_has_display() ? "" : _(" (or render a picture offscreen with --screenshot FILE)"));
        return APP_EXIT_ENV;
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
    rc = APP_EXIT_ENV; /* the drawing's start fails on the machine's OpenGL, or for memory */
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
    rc = APP_EXIT_INPUT;
    w.clock_virtual = args.gif != NULL; /* a GIF's frames are spaced in its own time */
    w.record_text = args.print_state;
    host = app_window_host(&w);
    app_init(&w.app, &host, &opt, args.lang);
    w.app.step_slices = !ends_by_itself(&args); /* a person watches: Esc and quit answer between a step's actions */
    w.app_ready = true;
    load_start = tim_now_ms();
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    if (args.image && !scene_open_image(&w.app.s, args.image)) {
        app_error("%s", w.app.s.banner);
        if (ends_by_itself(&args))
            goto free_app; /* nothing made of the sample image in its place */
    }
    if (!args.image || !w.app.s.img.luma.px) {
        char banner[512];
        snprintf(banner, sizeof banner, "%s", w.app.s.banner);
        if (!scene_open_image(&w.app.s, path)) {
            /* missing only when it is: a sandbox that cannot work here
             * refuses the sample as it refused the image */
            struct stat st;
            if (stat(path, &st) != 0 && args.image)
                app_error("the sample image is missing too: %s", err_msg());
            else if (args.image)
                app_error("the sample image cannot be shown instead either: %s", err_msg());
            else
                app_error("%s", err_msg());
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
        rc = app_capture_render_steps(&w, args.render_steps);
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
