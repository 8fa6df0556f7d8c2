/* window.c - the teaching window: the main loop. It opens the window, turns
 * events into scene actions (actions.c), advances the animation, measures
 * what is stale, and draws through view.c. For tests and scripts it can run
 * a list of actions, save one frame, print the scene's state, or report frame
 * times. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "actions.h"
#include "cli.h"
#include "core/err.h"
#include "core/timing.h"
#include "data.h"
#include "player.h"
#include "platform/platform.h"
#include "render/render.h"
#include "scene.h"
#include "view.h"

#define DEFAULT_KERNEL "sobel-x"
#define REPORT_SPEED 256.0 /* outputs a second while --report-frames plays */

typedef struct window_args {
    const char *image, *screenshot, *script, *lesson, *render_steps, *lang;
    int width, height;
    bool display_given, print_state;
    int report_frames;
} window_args;

static int parse(int argc, char **argv, window_args *a, app_options *opt)
{
    memset(a, 0, sizeof *a);
    a->width = 1280;
    a->height = 720;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        int taken;
        if (strcmp(arg, "--display") == 0)
            a->display_given = true;
        taken = app_parse_shared_option(argc, argv, &i, opt);
        if (taken < 0)
            return APP_EXIT_USAGE;
        if (taken)
            continue;
        if (strcmp(arg, "--screenshot") == 0) {
            if (!(a->screenshot = app_option_value(argc, argv, &i)))
                return APP_EXIT_USAGE;
        } else if (strcmp(arg, "--lang") == 0) {
            if (!(a->lang = app_option_value(argc, argv, &i)))
                return APP_EXIT_USAGE;
            if (strcmp(a->lang, "en") != 0 && strcmp(a->lang, "zh") != 0) {
                app_error("option '--lang' takes en or zh, not '%s'", a->lang);
                return APP_EXIT_USAGE;
            }
        } else if (strcmp(arg, "--lesson") == 0) {
            if (!(a->lesson = app_option_value(argc, argv, &i)))
                return APP_EXIT_USAGE;
        } else if (strcmp(arg, "--render-steps") == 0) {
            if (!(a->render_steps = app_option_value(argc, argv, &i)))
                return APP_EXIT_USAGE;
        } else if (strcmp(arg, "--do") == 0) {
            if (!(a->script = app_option_value(argc, argv, &i)))
                return APP_EXIT_USAGE;
        } else if (strcmp(arg, "--print-state") == 0) {
            a->print_state = true;
        } else if (strcmp(arg, "--report-frames") == 0) {
            const char *v = app_option_value(argc, argv, &i);
            long long n;
            if (!v || !app_parse_count(arg, v, 100000, &n))
                return APP_EXIT_USAGE;
            a->report_frames = (int)n;
        } else if (strcmp(arg, "--window") == 0) {
            const char *v = app_option_value(argc, argv, &i);
            char extra;
            if (!v)
                return APP_EXIT_USAGE;
            if (sscanf(v, "%dx%d%c", &a->width, &a->height, &extra) != 2 || a->width < 320 ||
                a->height < 240 || a->width > 7680 || a->height > 4320) {
                app_error("option '--window' takes a size such as 1280x720 (from 320x240 to 7680x4320), not '%s'",
                          v);
                return APP_EXIT_USAGE;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            app_error("unknown option or command '%s'; see 'convis --help'", arg);
            return APP_EXIT_USAGE;
        } else if (a->image) {
            app_error("the window opens one image, but '%s' came after '%s'", arg, a->image);
            return APP_EXIT_USAGE;
        } else {
            a->image = arg;
        }
    }
    return APP_EXIT_OK;
}

/* ---- state, for tests ------------------------------------------------------ */

static void print_state(const scene *s, const view *v)
{
    int fx, fy, live[4][4], n;
    bool from_stepper;
    scene_focus(s, &fx, &fy, &from_stepper);
    printf("phase=%s\n", s->phase == SCENE_PHASE_GPU ? "gpu" : "cpu");
    printf("output=%ld\nx=%d\ny=%d\ntaps=%d\n", s->stepper.index, conv_stepper_x(&s->stepper),
           conv_stepper_y(&s->stepper), s->stepper.taps);
    printf("done=%ld\ntotal=%ld\n", scene_cpu_done(s), (long)s->img.luma.w * s->img.luma.h);
    printf("playing=%d\nspeed=%g\n", s->playing, s->speed);
    printf("image=%s\nwidth=%d\nheight=%d\n", s->image_name, s->img.luma.w, s->img.luma.h);
    printf("filter=%s\nborder=%s\nflip=%d\ndisplay=%s\n", s->opt.kernel.name, conv_border_name(s->opt.border),
           s->opt.flip, img_display_name(s->opt.display));
    printf("weights=");
    for (int t = 0; t < 9; ++t)
        printf("%g%s", (double)s->opt.kernel.weight[t], t < 8 ? "," : "\n");
    printf("thread_view=%d\nview_x=%d\nview_y=%d\nview_cells=%d\n", s->thread_view, s->view_x, s->view_y,
           s->view_cells);
    printf("focus_x=%d\nfocus_y=%d\nhovering=%d\npinned=%d\n", fx, fy, s->hovering, s->pinned);
    printf("gpu_engine=%s\ngpu_available=%d\ngpu_measured=%d\n", s->gpu.name, s->gpu.engine != NULL,
           s->gpu.measured);
    if (s->gpu.engine)
        printf("gpu_description=%s\n", eng_description(s->gpu.engine));
    printf("gpu_kernel=%s\ngpu_result=%s\ngpu_presented=%d\ngpu_extrapolated=%d\n", eng_kernel_name(s->gpu_kernel),
           eng_result_name(s->gpu_result), s->gpu_presented, s->gpu.measured && s->gpu.timing.extrapolated);
    if (s->gpu_device_known)
        printf("gpu_device=%s\ngpu_present_path=%s\n", s->gpu_device.name,
               eng_present_path_name(s->gpu_device.present));
    printf("cpu_seq_measured=%d\ncpu_par_measured=%d\n", s->seq.measured, s->par.measured);
    printf("passes=%d\nchain_cpu_ms=%.3f\nchain_gpu_ms=%.3f\n", s->passes, s->chain_ms[0], s->chain_ms[1]);
    printf("sweep_shown=%d\nsweep_sizes=%d\nsweep_crossover=%d\n", s->sweep.shown, s->sweep.count,
           scene_sweep_crossover(s));
    printf("menu=%d\nlessons_found=%d\nlang=%s\n", s->menu, s->lesson_count, s->lang);
    if (s->player.active)
        printf("lesson=%s\nlesson_step=%d\nlesson_steps=%d\nlesson_waiting=%d\n", s->player.path, s->player.step + 1,
               s->player.lesson.step_count, s->player.waiting);
    printf("help=%d\nblank=%d\ntext_scale=%d\nedit_tap=%d\n", s->help, s->blank, s->text_scale, s->edit_tap);
    printf("banner=%s\nnotice=%s\n", s->banner, s->notice);
    n = v ? view_live_regions(v, s, live, 4) : 0;
    for (int i = 0; i < n; ++i)
        printf("live_region=%d,%d,%d,%d\n", live[i][0], live[i][1], live[i][2], live[i][3]);
    fflush(stdout);
}

/* ---- screenshots ----------------------------------------------------------- */

static bool save_frame(int w, int h, const char *path)
{
    img_rgba frame;
    bool ok;
    if (!rnd_read_frame(w, h, &frame))
        return false;
    ok = img_write_rgba_png(path, &frame, true);
    free(frame.px);
    return ok;
}

/* Saves the frame under a new name in the current folder: never overwrites. */
static void screenshot(scene *s, int w, int h)
{
    char name[128], stamp[32], msg[256];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 1; n < 100; ++n) {
        if (n == 1)
            snprintf(name, sizeof name, "convis-%s.png", stamp);
        else
            snprintf(name, sizeof name, "convis-%s-%d.png", stamp, n);
        if (save_frame(w, h, name)) {
            char *full = realpath(name, NULL);
            snprintf(msg, sizeof msg, "saved the screen as %s", full ? full : name);
            free(full);
            scene_notice(s, msg);
            return;
        }
        if (!strstr(err_msg(), "already exists"))
            break;
    }
    snprintf(msg, sizeof msg, "cannot save a screenshot: %s", err_msg());
    snprintf(s->banner, sizeof s->banner, "%s", msg);
}

/* ---- events ---------------------------------------------------------------- */

typedef struct input {
    bool dragging, moved;
    int down_x, down_y, view_x0, view_y0;
    view_hit down;
} input;

static void key(scene *s, int code, unsigned mods)
{
    const app_action *a;
    if (s->edit_tap >= 0) { /* typing a kernel value: other keys do nothing meanwhile */
        if ((code >= '0' && code <= '9') || code == '-' || code == '.' || code == '\b' || code == '\r' ||
            code == '\t' || code == PLAT_KEY_ESCAPE)
            scene_edit_key(s, code == PLAT_KEY_ESCAPE ? 27 : code);
        return;
    }
    if (s->blank) { /* any key brings the screen back */
        s->blank = false;
        return;
    }
    if (s->menu && code >= '1' && code <= '9') { /* the menu of lessons: a number picks one */
        scene_pick_lesson(s, code - '1');
        return;
    }
    if (s->player.active && !(mods & PLAT_MOD_SHIFT)) { /* a lesson: arrows and clickers turn its pages */
        if (code == PLAT_KEY_RIGHT || code == PLAT_KEY_PAGE_DOWN) {
            app_player_next(s);
            return;
        }
        if (code == PLAT_KEY_LEFT || code == PLAT_KEY_PAGE_UP) {
            app_player_prev(s);
            return;
        }
        if (code == PLAT_KEY_HOME) { /* the lesson from its first step */
            app_player_restart(s);
            return;
        }
    }
    a = app_action_for_key(code, mods);
    if (a) {
        a->run(s);
        app_player_saw(s, a->name);
    }
}

static void mouse_down(scene *s, view *v, input *in, const plat_event *ev)
{
    view_hit hit = view_hit_test(v, s, ev->x, ev->y);
    in->down = hit;
    in->down_x = ev->x;
    in->down_y = ev->y;
    in->moved = false;
    in->dragging = false;
    if (ev->button != 1)
        return;
    switch (hit.kind) {
    case VIEW_HIT_LESSON:
        scene_pick_lesson(s, hit.index);
        break;
    case VIEW_HIT_PRESET: {
        char name[16];
        scene_select_preset(s, hit.index);
        snprintf(name, sizeof name, "filter-%d", hit.index + 1);
        app_player_saw(s, name);
        break;
    }
    case VIEW_HIT_BORDER:
        scene_next_border(s);
        break;
    case VIEW_HIT_FLIP:
        scene_toggle_flip(s);
        break;
    case VIEW_HIT_DISPLAY:
        scene_next_display(s);
        break;
    case VIEW_HIT_GPU_BUTTON:
        scene_launch_gpu(s);
        app_player_saw(s, "gpu");
        break;
    case VIEW_HIT_PLAY_BUTTON:
        scene_play(s);
        app_player_saw(s, "play");
        break;
    case VIEW_HIT_KERNEL_CELL:
        scene_begin_edit(s, hit.index);
        break;
    case VIEW_HIT_THUMB:
        scene_center_on(s, hit.x, hit.y);
        break;
    case VIEW_HIT_INPUT_CELL:
    case VIEW_HIT_OUTPUT_CELL:
        in->dragging = true;
        in->view_x0 = s->view_x;
        in->view_y0 = s->view_y;
        break;
    default:
        break;
    }
}

static void mouse_move(scene *s, view *v, input *in, const plat_event *ev)
{
    view_hit hit;
    if (in->dragging && ev->button) {
        float cell = view_cell_px(v);
        int dx = (int)((float)(in->down_x - ev->x) / cell), dy = (int)((float)(in->down_y - ev->y) / cell);
        if (abs(ev->x - in->down_x) + abs(ev->y - in->down_y) > 4)
            in->moved = true;
        if (in->moved) {
            s->view_x = in->view_x0;
            s->view_y = in->view_y0;
            scene_pan(s, dx, dy);
        }
        return;
    }
    hit = view_hit_test(v, s, ev->x, ev->y);
    scene_hover(s, hit.kind == VIEW_HIT_OUTPUT_CELL, hit.x, hit.y);
}

static void mouse_up(scene *s, view *v, input *in, const plat_event *ev)
{
    view_hit hit = view_hit_test(v, s, ev->x, ev->y);
    if (in->dragging && !in->moved && hit.kind == VIEW_HIT_OUTPUT_CELL && in->down.kind == VIEW_HIT_OUTPUT_CELL) {
        if (s->pinned) {
            scene_pin(s); /* unpin, then pin where the click is */
            scene_hover(s, true, hit.x, hit.y);
            if (hit.x != in->down.x || hit.y != in->down.y)
                scene_pin(s);
        } else {
            scene_hover(s, true, hit.x, hit.y);
            scene_pin(s);
        }
    }
    in->dragging = false;
}

/* Handles one event; returns true when the frame must be drawn again. */
static bool handle(scene *s, view *v, plat_window *win, input *in, const plat_event *ev)
{
    switch (ev->type) {
    case PLAT_EVENT_QUIT:
        s->quit = true;
        return false;
    case PLAT_EVENT_KEY:
        key(s, ev->key, ev->mods);
        break;
    case PLAT_EVENT_DROP:
        scene_open_image(s, ev->path);
        break;
    case PLAT_EVENT_MOUSE_DOWN:
        mouse_down(s, v, in, ev);
        break;
    case PLAT_EVENT_MOUSE_MOVE:
        mouse_move(s, v, in, ev);
        break;
    case PLAT_EVENT_MOUSE_UP:
        mouse_up(s, v, in, ev);
        break;
    case PLAT_EVENT_WHEEL:
        scene_zoom(s, ev->wheel > 0 ? 1 : -1);
        break;
    case PLAT_EVENT_LEAVE:
        scene_hover(s, false, 0, 0);
        break;
    default:
        break;
    }
    if (s->fullscreen_toggle) {
        s->fullscreen_toggle = false;
        plat_toggle_fullscreen(win);
    }
    return true;
}

/* ---- running ---------------------------------------------------------------- */

/* Frame times while the CPU walk plays, after measuring how long the image
 * took from the start of loading to its first frame on screen. */
static int report_frames(scene *s, view *v, plat_window *win, int frames, double load_start, double loaded)
{
    double *ms = malloc(sizeof *ms * (size_t)frames), last, shown, measured;
    tim_stats st;
    int w, h;
    if (!ms) {
        app_error("out of memory");
        return APP_EXIT_INPUT;
    }
    plat_drawable_size(win, &w, &h);
    view_draw(v, s, w, h, tim_now_ms());
    plat_swap(win);
    rnd_finish();
    shown = tim_now_ms();
    scene_measure(s);
    measured = tim_now_ms();
    printf("image=%s\nimage_size=%dx%d\nload_ms=%.1f\nfirst_frame_ms=%.1f\nmeasure_ms=%.1f\n", s->image_name,
           s->img.luma.w, s->img.luma.h, loaded - load_start, shown - load_start, measured - shown);
    plat_set_vsync(win, false);
    s->speed = REPORT_SPEED;
    if (!s->playing)
        scene_play(s);
    last = tim_now_ms();
    for (int i = 0; i < frames; ++i) {
        plat_event ev;
        double now;
        while (plat_next_event(win, 0, &ev))
            ;
        now = tim_now_ms();
        scene_update(s, now, now - last);
        plat_drawable_size(win, &w, &h);
        view_draw(v, s, w, h, now);
        plat_swap(win);
        rnd_finish();
        ms[i] = tim_now_ms() - now;
        last = now;
    }
    st = tim_stats_of(ms, (size_t)frames);
    printf("frames=%d\nwindow=%dx%d\nframe_median_ms=%.3f\nframe_p95_ms=%.3f\nframe_max_ms=%.3f\n", frames, w, h,
           st.median, st.p95, st.max);
    printf("renderer=%s\n", rnd_gl_description());
    free(ms);
    return APP_EXIT_OK;
}

/* One screenshot per lesson step, DIR/step-01.png and on: each step as the
 * learner sees it once its measurements are done (waits are passed over). */
static int render_steps(scene *s, view *v, plat_window *win, const char *dir)
{
    int w, h;
    char path[4096];
    /* the folder itself, in a folder that is there: no tree of new folders
     * wherever a path points */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        app_error("cannot make the folder '%s' for the steps: %s%s", dir, strerror(errno),
                  errno == ENOENT ? " (the folder it goes in must exist)" : "");
        return APP_EXIT_INPUT;
    }
    for (int i = 0; i < s->player.lesson.step_count; ++i) {
        const char *gl_err;
        scene_measure(s);
        s->gpu_shown_at -= 1e6; /* past the GPU's pulse */
        plat_drawable_size(win, &w, &h);
        view_draw(v, s, w, h, tim_now_ms());
        gl_err = rnd_gl_error();
        snprintf(path, sizeof path, "%s/step-%02d.png", dir, i + 1);
        if (!save_frame(w, h, path)) {
            app_error("cannot save step %d: %s", i + 1, err_msg());
            return APP_EXIT_INPUT;
        }
        printf("%s: step %d of %d%s\n", path, i + 1, s->player.lesson.step_count,
               gl_err ? ", with an OpenGL error" : "");
        if (gl_err) {
            app_error("an OpenGL error (%s) while drawing step %d", gl_err, i + 1);
            return APP_EXIT_INPUT;
        }
        if (s->player.waiting) { /* do what the learner is asked to do */
            const app_action *a = app_action_find(s->player.lesson.steps[i].wait);
            if (a) {
                a->run(s);
                app_player_saw(s, a->name);
            }
            s->player.waiting = false;
        }
        app_player_next(s);
    }
    return APP_EXIT_OK;
}

static int run_loop(scene *s, view *v, plat_window *win)
{
    input in = {0};
    bool dirty = true, shown_once = false;
    double last = tim_now_ms();
    int w, h;

    while (!s->quit) {
        plat_event ev;
        double now = tim_now_ms();
        bool animating = scene_animating(s, now);

        scene_update(s, now, now - last);
        last = now;
        if (dirty || animating) {
            plat_drawable_size(win, &w, &h);
            view_draw(v, s, w, h, now);
            if (s->screenshot_request) {
                s->screenshot_request = false;
                screenshot(s, w, h);
            }
            plat_swap(win);
            dirty = false;
            shown_once = true;
        }
        /* measuring a big image takes a while: only after it is on screen */
        if (shown_once && (s->timings_stale || s->gpu_stale)) {
            scene_measure(s);
            dirty = true;
            continue;
        }
        if (plat_next_event(win, animating ? 1 : 250, &ev)) {
            do
                dirty |= handle(s, v, win, &in, &ev);
            while (!s->quit && plat_next_event(win, 0, &ev));
        }
        if (s->screenshot_request)
            dirty = true;
    }
    return APP_EXIT_OK;
}

int app_window_main(int argc, char **argv)
{
    window_args a;
    app_options opt;
    scene s;
    view *v = NULL;
    plat_window *win;
    char path[4096];
    double load_start, loaded;
    int rc;

    app_options_default(&opt, DEFAULT_KERNEL);
    rc = parse(argc, argv, &a, &opt);
    if (rc != APP_EXIT_OK)
        return rc;
    if (!a.display_given)
        opt.display = IMG_DISPLAY_ABS; /* edges are negative on one side */

    /* A run that ends by itself (a screenshot, frames to report, a lesson's
     * steps to render) may draw offscreen where there is no display; the
     * interactive window needs one, or it would run unseen. */
    win = plat_open("convis", a.width, a.height,
                    a.screenshot || a.render_steps || a.report_frames ? PLAT_WINDOW_OFFSCREEN : 0);
    if (!win) {
        app_error("%s%s", err_msg(),
                  plat_has_display() ? "" : " (or render a picture offscreen with --screenshot FILE)");
        return APP_EXIT_INPUT;
    }
    {
        int dw, dh;
        plat_window_size(win, &dw, &dh);
        if (dw < a.width || dh < a.height)
            fprintf(stderr, "convis: the window is %dx%d, not %dx%d: the display has no more room\n", dw, dh,
                    a.width, a.height);
    }
    if (strcmp(plat_video_driver(), "offscreen") == 0)
        fprintf(stderr, "convis: no display: drawing offscreen through EGL (SDL's %s video driver)\n",
                plat_video_driver());
    rc = APP_EXIT_INPUT;
    snprintf(path, sizeof path, "%s/shaders", app_data_dir());
    if (!rnd_init(path)) {
        app_error("%s", err_msg());
        goto close_window;
    }
    v = view_create();
    if (!v) {
        app_error("%s", err_msg());
        goto stop_render;
    }
    scene_init(&s, &opt);
    load_start = tim_now_ms();
    snprintf(path, sizeof path, "%s/assets/sample.png", app_data_dir());
    if (!a.image || !scene_open_image(&s, a.image)) {
        char banner[512];
        snprintf(banner, sizeof banner, "%s", s.banner);
        if (!scene_open_image(&s, path)) {
            app_error("the sample image is missing too: %s", err_msg());
            goto free_scene;
        }
        if (banner[0])
            snprintf(s.banner, sizeof s.banner, "%s; showing the sample image", banner);
    }
    loaded = tim_now_ms();
    if (a.lang)
        snprintf(s.lang, sizeof s.lang, "%s", a.lang);
    if (a.lesson && !app_player_start(&s, a.lesson)) {
        app_error("%s", err_msg());
        rc = APP_EXIT_INPUT;
        goto free_scene;
    }
    if (a.script && !app_run_script(&s, a.script)) {
        app_error("--do: %s", err_msg());
        rc = APP_EXIT_USAGE;
        goto free_scene;
    }

    if (a.screenshot) {
        int w, h;
        scene_measure(&s);
        s.gpu_shown_at -= 1e6; /* a still picture shows the GPU result after its pulse */
        plat_drawable_size(win, &w, &h);
        view_draw(v, &s, w, h, tim_now_ms());
        if (rnd_gl_error())
            fprintf(stderr, "convis: an OpenGL error while drawing\n");
        if (!save_frame(w, h, a.screenshot)) {
            app_error("cannot save the screenshot: %s", err_msg());
            goto free_scene;
        }
        printf("saved %s (%dx%d)\n", a.screenshot, w, h);
        rc = APP_EXIT_OK;
    } else if (a.render_steps) {
        if (!s.player.active) {
            app_error("--render-steps needs a lesson: convis lesson --render-steps DIR FILE");
            rc = APP_EXIT_USAGE;
        } else {
            rc = render_steps(&s, v, win, a.render_steps);
        }
    } else if (a.report_frames) {
        rc = report_frames(&s, v, win, a.report_frames, load_start, loaded);
    } else {
        rc = run_loop(&s, v, win);
    }
    if (a.print_state)
        print_state(&s, v);

free_scene:
    scene_free(&s);
    view_destroy(v);
stop_render:
    rnd_shutdown();
close_window:
    plat_close(win);
    return rc;
}
