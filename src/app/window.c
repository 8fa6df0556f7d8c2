/* window.c - the teaching window's command line: its options, the lesson
 * command, and the start (the window, the drawing, the app, the image, the
 * lesson and the script), then the run: the loop a person uses
 * (window_loop.c) or one of the runs that end by themselves (capture.c). */
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
#include "handout.h"
#include "i18n.h"
#include "lessons.h"
#include "quiz.h"
#include "kernel_lab.h"
#include "platform/platform.h"
#include "render/render.h"
#include "settings.h"
#include "window_loop.h"

typedef struct window_args {
    const char *image, *screenshot, *script, *lesson, *render_steps, *handout, *lang, *record, *gif, *attempts, *lab;
    int gif_seconds, gif_fps;
    bool gif_steps;
    int width, height;
    bool display_given, print_state, presenter;
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
    const char *given[5];
    int n = 0;
    if (a->screenshot)
        given[n++] = "--screenshot";
    if (a->gif)
        given[n++] = "--gif";
    if (a->render_steps)
        given[n++] = "--render-steps";
    if (a->report_frames)
        given[n++] = "--report-frames";
    if (a->handout)
        given[n++] = "handout";
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
    return a->screenshot || a->gif || a->render_steps || a->handout || a->report_frames ||
           (a->print_state && a->script);
}

/* Takes one option of the window's own (o, with its value v); false, with
 * a sentence said, when its value will not do. */
static bool take_option(window_args *a, const app_option *o, const char *v)
{
    long long n;
    switch (o->id) {
    case OPT_SCREENSHOT: a->screenshot = v; break;
    case OPT_LESSON: a->lesson = v; break;
    case OPT_RECORD: a->record = v; break;
    case OPT_RENDER_STEPS: a->render_steps = v; break;
    case OPT_HANDOUT: a->handout = v; break;
    case OPT_PRINT_STATE: a->print_state = true; break;
    case OPT_GIF: a->gif = v; break;
    case OPT_GIF_STEPS: a->gif_steps = true; break;
    case OPT_PRESENTER: a->presenter = true; break;
    case OPT_ATTEMPTS: a->attempts = v; break;
    case OPT_LAB: a->lab = v; break;
    case OPT_LANG:
        if (!app_lang_known(v)) {
            app_error("option '--lang' takes en, zh or another language with lessons/<lang>/ or po/<lang>.po, "
                      "not '%s'",
                      v);
            return false;
        }
        a->lang = v;
        break;
    case OPT_DO:
        if (script_has_empty_action(v)) {
            app_error("option '--do' has an empty action (nothing, two commas together, or a comma at an end); "
                      "write actions such as \"gpu,threads,step*40\"");
            return false;
        }
        a->script = v;
        break;
    case OPT_GIF_SECONDS:
    case OPT_GIF_FPS:
        if (!app_parse_count(o->name, v, o->id == OPT_GIF_SECONDS ? 60 : 30, &n))
            return false;
        *(o->id == OPT_GIF_SECONDS ? &a->gif_seconds : &a->gif_fps) = (int)n;
        break;
    case OPT_REPORT_FRAMES:
        if (!app_parse_count(o->name, v, 100000, &n))
            return false;
        a->report_frames = (int)n;
        break;
    case OPT_WINDOW:
        if (!parse_window_size(v, &a->width, &a->height)) {
            app_error("option '--window' takes a size such as 1280x720 (from 320x240 to 7680x4320), not '%s'", v);
            return false;
        }
        break;
    default: break;
    }
    return true;
}

/* The options taken together: one run kind, what each needs beside it, and
 * no command mistyped in the image's place. False with a sentence said. */
static bool args_agree(const window_args *a)
{
    if (check_run_kind(a) != APP_EXIT_OK)
        return false;
    if (a->gif_steps && (!a->gif || !a->lesson)) {
        app_error("--gif-steps records a lesson's steps: convis lesson FILE --gif FILE.gif --gif-steps");
        return false;
    }
    if (a->render_steps && !a->lesson) {
        app_error("--render-steps needs a lesson: convis lesson --render-steps DIR FILE");
        return false;
    }
    if (a->image && looks_like_command(a->image)) {
        app_error("unknown command or missing image '%s'; the commands are apply, bench, engines, handout, kernels, "
                  "lesson and record (see 'convis --help')",
                  a->image);
        return false;
    }
    return true;
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
        if (taken < 0 || (!taken && !take_option(a, o, v)))
            return APP_EXIT_USAGE;
    }
    return args_agree(a) ? APP_EXIT_OK : APP_EXIT_USAGE;
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
        printf(ngettext("%s: ok, \"%s\", %d step\n", "%s: ok, \"%s\", %d steps\n", (unsigned long)l.step_count),
               argv[i], title, l.step_count);
        lsn_free(&l);
    }
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}

/* Whether the lesson at `path` can play on an image given with it: one
 * that opens an image of its own at its start would hide it at once, so it
 * is refused with a sentence (a lesson that does not load is left to the
 * window to say so, as without an image). */
bool app_lesson_plays_on_image(const char *path, const char *image)
{
    lsn_lesson l;
    char shown[256];
    bool own;
    if (!app_lesson_load(path, &l))
        return true;
    own = l.image != NULL;
    if (own) /* the name from the file, its control characters escaped */
        app_error("lesson: '%s' opens its own image (%s) as it starts, so '%s' would not be seen; a lesson that "
                  "names no image plays on yours, such as lessons/en/08-your-own-image.yaml",
                  path, err_shown(l.image, strlen(l.image), shown, sizeof shown), image);
    lsn_free(&l);
    return !own;
}

int app_lesson_main(int argc, char **argv)
{
    char **args;
    int n = 0, file = -1, image = -1, rc;

    if (argc >= 1 && strcmp(argv[0], "--check") == 0)
        return check_files(argc - 1, argv + 1);
    for (int i = 0; i < argc; ++i) {
        if (argv[i][0] == '-' && argv[i][1]) {
            const app_option *o = app_option_named(argv[i], APP_FOR_ALL | APP_FOR_WINDOW);
            if (o && o->value)
                ++i;
            continue;
        }
        if (image >= 0) {
            app_error("lesson: plays one lesson file on at most one image, but '%s' came after '%s'", argv[i],
                      argv[image]);
            return APP_EXIT_USAGE;
        }
        if (file >= 0)
            image = i; /* the window opens it; the lesson plays on it */
        else
            file = i;
    }
    if (file < 0) {
        app_error("lesson: no lesson file; usage: convis lesson FILE [OPTIONS], or convis lesson --check FILE...");
        return APP_EXIT_USAGE;
    }
    if (image >= 0 && !app_lesson_plays_on_image(argv[file], argv[image]))
        return APP_EXIT_USAGE;
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

/* The window, with a sentence on stderr where it is smaller than asked or
 * drawn offscreen. A run that ends by itself (a screenshot, frames to
 * report, a lesson's steps to render) may draw offscreen where there is no
 * display; the interactive window needs one, or it would run unseen. False
 * with the sentence said. */
static bool open_window(app_window *w, const window_args *args)
{
    int dw, dh;
    w->win = plat_open("convis", args->width, args->height,
                       args->screenshot || args->render_steps || args->handout || args->report_frames || args->gif
                           ? PLAT_WINDOW_OFFSCREEN
                           : 0);
    if (!w->win) { /* no display, or no OpenGL: the machine's */
        app_error("%s%s", err_msg(),
                  plat_has_display() || ends_by_itself(args)
                      ? ""
                      : _(" (or render a picture offscreen with --screenshot FILE)"));
        return false;
    }
    plat_window_size(w->win, &dw, &dh);
    if (dw < args->width || dh < args->height)
        fprintf(stderr, _("convis: the window is %dx%d, not %dx%d: the display has no more room\n"), dw, dh,
                args->width, args->height);
    if (strcmp(plat_video_driver(), "offscreen") == 0)
        fprintf(stderr, _("convis: no display: drawing offscreen through EGL (SDL's %s video driver)\n"),
                plat_video_driver());
    return true;
}

/* The image asked for, or the sample image in its place (with a banner
 * saying why, where a person watches); false with a sentence said when
 * neither opens. */
static bool open_image(app_window *w, const window_args *args)
{
    char path[4096], banner[512];
    struct stat st;
    if (args->image && !scene_open_image(&w->app.s, args->image)) {
        app_error("%s", w->app.s.banner);
        if (ends_by_itself(args))
            return false; /* nothing made of the sample image in its place */
    }
    if (args->image && w->app.s.img.luma.px)
        return true;
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    snprintf(banner, sizeof banner, "%s", w->app.s.banner);
    if (!scene_open_image(&w->app.s, path)) {
        /* missing only when it is: a sandbox that cannot work here refuses
         * the sample as it refused the image */
        if (stat(path, &st) != 0 && args->image)
            app_error("the sample image is missing too: %s", err_msg());
        else if (args->image)
            app_error("the sample image cannot be shown instead either: %s", err_msg());
        else
            app_error("%s", err_msg());
        return false;
    }
    if (banner[0]) {
        char msg[600];
        snprintf(msg, sizeof msg, _("%s; showing the sample image"), banner);
        scene_say_error(&w->app.s, msg);
    }
    return true;
}

/* What the run starts from besides the image: a recorded run, a lesson,
 * the script's actions. Returns the exit status of what failed, or 0. */
static int prepare(app_window *w, const window_args *args)
{
    app_measure(w);
    if (args->record) {
        if (!rec_read(args->record, &w->app.record)) {
            app_error("%s", err_msg());
            return APP_EXIT_INPUT;
        }
        w->app.has_record = true;
    }
    if (args->lesson && !app_lesson_start(&w->app, args->lesson)) {
        app_error("%s", err_msg());
        return APP_EXIT_INPUT;
    }
    if (args->script && !app_run_script(&w->app, args->script)) {
        app_error("--do: %s", err_msg());
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

/* The run: one that ends by itself, or the loop a person uses; then the
 * state, when asked for. */
static int run(app_window *w, const window_args *args, double load_start, double loaded)
{
    int rc;
    if (args->screenshot)
        rc = app_capture_still(w, args->screenshot);
    else if (args->gif)
        rc = app_capture_gif(w, args->gif, args->gif_seconds, args->gif_fps, args->gif_steps);
    else if (args->render_steps)
        rc = app_capture_render_steps(w, args->render_steps);
    else if (args->handout)
        rc = app_handout_write(w, args->handout);
    else if (args->report_frames)
        rc = app_capture_report_frames(w, args->report_frames, load_start, loaded);
    else
        rc = app_window_run(w);
    if (args->print_state)
        app_capture_print_state(w);
    return rc;
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
    app_options_default(&opt, APP_DEFAULT_KERNEL);
    rc = parse(argc, argv, &args, &opt);
    if (rc != APP_EXIT_OK)
        return rc;
    if (!args.display_given)
        opt.display = IMG_DISPLAY_ABS; /* edges are negative on one side */
    if (!open_window(&w, &args))
        return APP_EXIT_ENV;
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
    w.app.presenter = args.presenter;
    if (args.lab) { /* the learner's own file, opened at once */
        snprintf(w.app.lab.path, sizeof w.app.lab.path, "%s", args.lab);
        app_lab_toggle(&w.app);
    }
    if (!args.attempts) {
        if (!ends_by_itself(&args)) /* a still, a GIF, a handout: no learner answers */
            app_attempts_default(w.app.quiz.attempts, sizeof w.app.quiz.attempts);
    } else if (strcmp(args.attempts, "none") != 0)
        snprintf(w.app.quiz.attempts, sizeof w.app.quiz.attempts, "%s", args.attempts);
    w.app.step_slices = !ends_by_itself(&args); /* a person watches: Esc and quit answer between a step's actions */
    w.app_ready = true;
    load_start = tim_now_ms();
    if (!open_image(&w, &args))
        goto free_app;
    loaded = tim_now_ms();
    rc = prepare(&w, &args);
    if (rc == APP_EXIT_OK)
        rc = run(&w, &args, load_start, loaded);

free_app:
    app_free(&w.app);
    view_destroy(w.view);
stop_render:
    rnd_shutdown();
close_window:
    plat_close(w.win);
    return rc;
}
