#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "actions.h"
#include "state.h"
#include "cli.h"
#include "core/err.h"
#include "core/timing.h"
#include "gif.h"
#include "i18n.h"
#include "narration.h"
#include "quiz.h"
#include "kernel_lab.h"
#include "render/render.h"
#include "render/text.h"

#define REPORT_SPEED 256.0 /* outputs a second while --report-frames plays */

/* Saves the frame drawn last (w x h) as PNG `path`; never overwrites. */
static bool app_capture_save(int w, int h, const char *path)
{
    img_rgba frame;
    bool ok;
    if (!rnd_read_frame(w, h, &frame))
        return false;
    ok = img_write_rgba_png(path, &frame, true);
    free(frame.px);
    return ok;
}

void app_capture_screenshot(app_window *w, int width, int height)
{
    char name[128], stamp[32], msg[512];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 1; n < 100; ++n) {
        if (n == 1)
            snprintf(name, sizeof name, "convis-%s.png", stamp);
        else
            snprintf(name, sizeof name, "convis-%s-%d.png", stamp, n);
        if (app_capture_save(width, height, name)) {
            char *full = realpath(name, NULL);
            snprintf(msg, sizeof msg, _("saved the screen as %s"), full ? full : name);
            free(full);
            scene_notice(&w->app.s, msg);
            return;
        }
        if (err_last_kind() != ERR_EXISTS)
            break;
    }
    snprintf(msg, sizeof msg, _("cannot save a screenshot: %s"), err_msg());
    scene_say_error(&w->app.s, msg);
}

/* ---- a GIF of the window, live (Shift+S) ---- */

#define LIVE_GIF_FRAME_MS 100.0  /* ten frames a second */
#define LIVE_GIF_MOST_MS 60000.0 /* and a minute at most */

static struct {
    gif_writer *g;
    char path[160];
    double next, started;
} live_gif;

bool app_capture_gif_recording(void)
{
    return live_gif.g != NULL;
}

static void live_stop(app_window *w)
{
    char msg[512];
    int frames = gif_frames(live_gif.g);
    if (gif_close(live_gif.g)) {
        char *full = realpath(live_gif.path, NULL);
        snprintf(msg, sizeof msg, _("saved the GIF as %s (%d frames, %.1f s)"), full ? full : live_gif.path, frames,
                 frames * LIVE_GIF_FRAME_MS / 1000.0);
        free(full);
        scene_notice(&w->app.s, msg);
    } else {
        snprintf(msg, sizeof msg, _("cannot save the GIF: %s"), err_msg());
        scene_say_error(&w->app.s, msg);
    }
    live_gif.g = NULL;
    plat_set_title(w->win, "convis");
}

void app_capture_gif_toggle(app_window *w, int width, int height)
{
    char stamp[32], msg[512];
    time_t now = time(NULL);
    struct tm tm;
    if (live_gif.g) {
        live_stop(w);
        return;
    }
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 1; n < 100 && !live_gif.g; ++n) {
        if (n == 1)
            snprintf(live_gif.path, sizeof live_gif.path, "convis-%s.gif", stamp);
        else
            snprintf(live_gif.path, sizeof live_gif.path, "convis-%s-%d.gif", stamp, n);
        live_gif.g = gif_open(live_gif.path, width, height, (int)LIVE_GIF_FRAME_MS);
        if (!live_gif.g && err_last_kind() != ERR_EXISTS)
            break;
    }
    if (!live_gif.g) {
        snprintf(msg, sizeof msg, _("cannot record a GIF: %s"), err_msg());
        scene_say_error(&w->app.s, msg);
        return;
    }
    live_gif.next = live_gif.started = tim_now_ms();
    /* said in the window's title, not in the window: it is what is recorded */
    plat_set_title(w->win, _("convis · recording a GIF (Shift+S stops it)"));
}

bool app_capture_gif_due(void)
{
    return live_gif.g && tim_now_ms() >= live_gif.next;
}

void app_capture_gif_frame(app_window *w, int width, int height)
{
    img_rgba frame;
    double now = tim_now_ms();
    bool ok;
    if (!live_gif.g || now < live_gif.next)
        return;
    if (!rnd_read_frame(width, height, &frame))
        return;
    /* the frame for every tick since the last, so the GIF keeps time */
    ok = true;
    do {
        ok = ok && gif_frame(live_gif.g, frame.px);
        live_gif.next += LIVE_GIF_FRAME_MS;
    } while (ok && live_gif.next <= now);
    free(frame.px);
    if (!ok) {
        char msg[512];
        snprintf(msg, sizeof msg, _("cannot record a GIF: %s"), err_msg());
        gif_abort(live_gif.g);
        live_gif.g = NULL;
        plat_set_title(w->win, "convis");
        scene_say_error(&w->app.s, msg);
    } else if (now - live_gif.started >= LIVE_GIF_MOST_MS) {
        live_stop(w);
    }
}

void app_capture_gif_end(app_window *w)
{
    if (live_gif.g)
        live_stop(w);
}

#define STILL_PLAY_MS 3000.0 /* a still of a playing walk shows it this far on */

/* The state a still shows: the work done, the GPU's light faded, and a
 * playing walk some seconds on (what a person sees who reads the step). */
static void settle_for_still(app *a)
{
    scene_settle(&a->s);
    app_lab_settle(a); /* the lab's check under way, done */
    scene_play_out(&a->s);
    /* the walk plays: as the window shows it a few seconds on, in frames (a
     * frame's step is bounded, as after a stall) */
    for (double t = 0; a->s.walk.playing && t < STILL_PLAY_MS; t += 1000.0 / 60)
        scene_update(&a->s, 1000.0 / 60);
}

int app_capture_still(app_window *w, const char *path)
{
    int width, height;
    settle_for_still(&w->app);
    rnd_text_record(true); /* where the text goes, for --print-state */
    app_frame(w, &width, &height);
    rnd_text_record(false);
    if (rnd_gl_error())
        fprintf(stderr, _("convis: an OpenGL error while drawing\n"));
    if (!app_capture_save(width, height, path)) {
        app_error("cannot save the screenshot: %s", err_msg());
        return app_exit_of_error(APP_EXIT_INPUT);
    }
    printf(_("saved %s (%dx%d)\n"), path, width, height);
    return APP_EXIT_OK;
}

/* What the step shown waits for, done as the learner would (the key it
 * asks for, through app_do): true when it was done; the wait is over
 * either way. */
static bool do_awaited(app *a)
{
    const lsn_step *st = lsn_player_current(&a->player);
    const app_action *act = a->player.waiting && st ? app_action_find(st->wait) : NULL;
    bool done = act && act->takes == APP_ARG_NONE;
    if (done)
        app_do(a, app_act_of(act));
    a->player.waiting = false;
    if (lsn_player_asking(&a->player)) { /* a question: its answer shown, as after two wrong answers */
        app_quiz_reveal(a);
        done = true;
    }
    return done;
}

void app_capture_next_step(app *a)
{
    do_awaited(a);
    app_do(a, app_act_id(ACT_LESSON_NEXT));
}

/* The pictures of a step, NN its number: step-NN.png, and for a step that
 * waits step-NN-after.png. */
static void step_picture_name(char *buf, size_t size, int step, bool after)
{
    snprintf(buf, size, after ? "step-%02d-after.png" : "step-%02d.png", step);
}

/* After a failed run over the steps: removes the pictures it saved in `dir`
 * (its list), nothing that was there before. */
static void remove_saved(const char *dir, char (*saved)[32], int count)
{
    char path[4096];
    for (int i = 0; i < count; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, saved[i]);
        unlink(path);
    }
}

/* Draws the app as a still and saves it as dir/name, as the step's picture;
 * false with the sentence said and *rc set. */
static bool save_step(app_window *w, const char *dir, const char *name, app_step_shot *shot, int *rc)
{
    const char *gl_err;
    char path[4096];
    settle_for_still(&w->app);
    app_frame(w, &shot->width, &shot->height);
    gl_err = rnd_gl_error();
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!app_capture_save(shot->width, shot->height, path)) {
        app_error("cannot save step %d: %s", shot->step, err_msg());
        *rc = app_exit_of_error(APP_EXIT_INPUT);
        return false;
    }
    if (gl_err) {
        app_error("an OpenGL error (%s) while drawing step %d", gl_err, shot->step);
        *rc = APP_EXIT_ENV;
        return false;
    }
    return true;
}

/* The step shown as a learner reads it: its picture, the narration and
 * hint the window shows with it, its image; then, where it waits, the
 * awaited action done through app_do and the picture after. */
static bool shoot_step(app_window *w, const char *dir, app_step_shot *shot, char (*saved)[32], int *count, int *rc)
{
    app *a = &w->app;
    step_picture_name(shot->before, sizeof shot->before, shot->step, false);
    shot->after[0] = '\0';
    if (!save_step(w, dir, shot->before, shot, rc))
        return false;
    snprintf(saved[(*count)++], 32, "%s", shot->before);
    app_narration(a, shot->narration, sizeof shot->narration);
    app_hint(a, shot->hint, sizeof shot->hint);
    app_notes(a, APP_NOTES_STEP, shot->notes, sizeof shot->notes);
    snprintf(shot->image, sizeof shot->image, "%s", a->s.image_name);
    shot->image_w = a->s.img.luma.w, shot->image_h = a->s.img.luma.h;
    if (!(a->player.waiting || lsn_player_asking(&a->player)) || !do_awaited(a))
        return true; /* nothing to wait for, or nothing a script can do for the learner */
    step_picture_name(shot->after, sizeof shot->after, shot->step, true);
    if (!save_step(w, dir, shot->after, shot, rc))
        return false;
    snprintf(saved[(*count)++], 32, "%s", shot->after);
    return true;
}

int app_capture_steps(app_window *w, const char *dir, app_step_seen seen, void *user)
{
    app *a = &w->app;
    int steps = a->player.lesson.step_count, rc = APP_EXIT_OK, count = 0;
    char(*saved)[32] = malloc(sizeof *saved * 2 * (size_t)(steps > 0 ? steps : 1));
    app_step_shot *shot = malloc(sizeof *shot);
    if (!saved || !shot) {
        free(saved);
        free(shot);
        app_error("out of memory");
        return APP_EXIT_ENV;
    }
    for (int i = 0; i < steps && app_in_lesson(a); ++i) {
        memset(shot, 0, sizeof *shot);
        shot->step = i + 1, shot->steps = steps;
        if (!shoot_step(w, dir, shot, saved, &count, &rc))
            break;
        if (seen && (rc = seen(user, shot)) != APP_EXIT_OK)
            break;
        app_capture_next_step(a);
    }
    if (rc != APP_EXIT_OK)
        remove_saved(dir, saved, count);
    free(saved);
    free(shot);
    return rc;
}

/* --render-steps: where each step's pictures went. */
static int say_step(void *user, const app_step_shot *shot)
{
    const char *dir = user;
    printf(_("%s/%s: step %d of %d\n"), dir, shot->before, shot->step, shot->steps);
    if (shot->after[0])
        printf(_("%s/%s: step %d of %d, once the learner has done what it waits for\n"), dir, shot->after, shot->step,
               shot->steps);
    return APP_EXIT_OK;
}

int app_capture_render_steps(app_window *w, const char *dir)
{
    int rc;
    bool made_dir;
    /* the folder itself, in a folder that is there: no tree of new folders
     * wherever a path points */
    made_dir = mkdir(dir, 0777) == 0;
    if (!made_dir && errno != EEXIST) {
        int e = errno;
        app_error("cannot make the folder '%s' for the steps: %s%s", dir, strerror(e),
                  e == ENOENT ? _(" (the folder it goes in must exist)") : "");
        return err_kind_of_errno(e) == ERR_ENV ? APP_EXIT_ENV : APP_EXIT_INPUT;
    }
    rc = app_capture_steps(w, dir, say_step, (void *)dir);
    if (rc != APP_EXIT_OK && made_dir)
        rmdir(dir); /* only when empty: whatever else came there stays */
    return rc;
}

int app_capture_gif(app_window *w, const char *path, int seconds, int fps, bool steps)
{
    app *a = &w->app;
    int width = 0, height = 0, gif_w = 0, gif_h = 0, per_step = seconds * fps;
    int step_count = steps && app_in_lesson(a) ? a->player.lesson.step_count : 1, frames = per_step * step_count;
    double dt = 1000.0 / fps;
    gif_writer *g = NULL;
    struct stat st;
    if (frames > APP_GIF_MOST_FRAMES) { /* --gif-steps: the seconds and rate are per step */
        app_error("%d steps of %d frames each make %d frames, over the %d a GIF may have; lower --gif-seconds or "
                  "--gif-fps",
                  step_count, per_step, frames, APP_GIF_MOST_FRAMES);
        return APP_EXIT_USAGE;
    }
    if (lstat(path, &st) == 0) { /* said before the work (gif_open refuses it again, for sure) */
        app_error("'%s' already exists; convis does not overwrite it", path);
        return APP_EXIT_INPUT;
    }
    scene_settle(&a->s); /* the figures are there from the first frame */
    for (int i = 0; i < frames; ++i) {
        img_rgba frame;
        bool ok;
        app_frame(w, &width, &height);
        if (!rnd_read_frame(width, height, &frame)) {
            app_error("cannot read frame %d back: %s", i + 1, err_msg());
            gif_abort(g);
            return APP_EXIT_ENV;
        }
        if (g && (width != gif_w || height != gif_h)) { /* the window changed size: the GIF cannot */
            free(frame.px);
            app_error("the window changed size while recording %s (%dx%d, then %dx%d)", path, gif_w, gif_h, width,
                      height);
            gif_abort(g);
            return APP_EXIT_ENV;
        }
        gif_w = width, gif_h = height;
        if (!g && !(g = gif_open(path, width, height, (int)(dt + 0.5)))) {
            free(frame.px);
            app_error("%s", err_msg());
            return app_exit_of_error(APP_EXIT_INPUT);
        }
        ok = gif_frame(g, frame.px);
        free(frame.px);
        if (!ok) {
            app_error("%s", err_msg());
            gif_abort(g);
            return app_exit_of_error(APP_EXIT_INPUT);
        }
        /* the next frame's moment: the walk, the work (tiles, the measuring
         * thread's figures) and the fading light move on by dt */
        w->clock_ms += dt;
        scene_update(&a->s, dt);
        scene_work(&a->s, 50.0);
        if (step_count > 1 && (i + 1) % per_step == 0 && i + 1 < frames) {
            app_capture_next_step(a); /* each step of the lesson in turn, `seconds` each */
            scene_settle(&a->s);
        }
    }
    if (!gif_close(g)) {
        app_error("%s", err_msg());
        return app_exit_of_error(APP_EXIT_INPUT);
    }
    printf(_("wrote %s: %d frames of %dx%d, %d s at %d frames a second, %lld KiB\n"), path, frames, width, height,
           seconds * step_count, fps, stat(path, &st) == 0 ? (long long)st.st_size / 1024 : -1LL);
    return APP_EXIT_OK;
}

int app_capture_report_frames(app_window *w, int frames, double load_start, double loaded)
{
    app *a = &w->app;
    scene *s = &a->s;
    double *ms = malloc(sizeof *ms * (size_t)frames), last, shown, measured;
    tim_stats st;
    int width, height;
    if (!ms) {
        app_error("out of memory");
        return APP_EXIT_ENV;
    }
    app_frame(w, &width, &height);
    plat_swap(w->win);
    rnd_finish();
    shown = tim_now_ms();
    scene_settle(s);
    measured = tim_now_ms();
    printf("image=%s\nimage_size=%dx%d\nload_ms=%.1f\nfirst_frame_ms=%.1f\nmeasure_ms=%.1f\n", s->image_name,
           s->img.luma.w, s->img.luma.h, loaded - load_start, shown - load_start, measured - shown);
    plat_set_vsync(w->win, false);
    scene_set_speed(s, REPORT_SPEED);
    if (!s->walk.playing)
        app_do(a, app_act_id(ACT_PLAY));
    last = tim_now_ms();
    for (int i = 0; i < frames; ++i) {
        plat_event ev;
        double now;
        while (plat_next_event(w->win, 0, &ev))
            ;
        now = tim_now_ms();
        scene_update(s, now - last);
        app_frame(w, &width, &height);
        plat_swap(w->win);
        rnd_finish();
        ms[i] = tim_now_ms() - now;
        last = now;
    }
    st = tim_stats_of(ms, (size_t)frames);
    printf("frames=%d\nwindow=%dx%d\nframe_median_ms=%.3f\nframe_p95_ms=%.3f\nframe_max_ms=%.3f\n", frames, width,
           height, st.median, st.p95, st.max);
    printf("renderer=%s\n", rnd_gl_description());
    free(ms);
    return APP_EXIT_OK;
}

#define VIEW_MAX_CUT_PRINTED 64

void app_capture_print_state(const app_window *w)
{
    int live[4][4], n;
    view_target targets[64];
    app_print_state(&w->app, stdout);
    n = w->view ? view_live_regions(w->view, live, 4) : 0;
    for (int i = 0; i < n; ++i)
        printf("live_region=%d,%d,%d,%d\n", live[i][0], live[i][1], live[i][2], live[i][3]);
    if (w->view) {
        int gx, gy, gn, fit;
        view_grid_cells(w->view, &gx, &gy, &gn, &fit);
        printf("grid_cells=%d,%d,%d\ngrid_fit=%d\n", gx, gy, gn, fit);
    }
    n = w->view ? view_targets(w->view, targets, 64) : 0;
    for (int i = 0; i < n; ++i)
        printf("target=%s,%d,%d,%d,%d,%d\n", targets[i].action, targets[i].arg, targets[i].x, targets[i].y,
               targets[i].w, targets[i].h);
    {
        /* the text of the last frame drawn for a still: where each run went */
        const rnd_text_box *b;
        int dropped;
        n = rnd_text_boxes(&b, &dropped);
        printf("text_dropped=%d\n", dropped);
        for (int i = 0; i < n; ++i)
            printf("text=%d,%d,%d,%d,%d,%s\n", (int)b[i].x, (int)b[i].y, (int)(b[i].w + 0.5f), (int)(b[i].h + 0.5f),
                   b[i].layer, b[i].text);
    }
    if (w->view) {
        /* text cut with an ellipsis, whole; and what the pointer shows of it */
        view_cut cut[VIEW_MAX_CUT_PRINTED];
        n = view_cut_texts(w->view, cut, VIEW_MAX_CUT_PRINTED);
        for (int i = 0; i < n; ++i)
            printf("cut=%d,%d,%d,%d,%s\n", cut[i].x, cut[i].y, cut[i].w, cut[i].h, cut[i].text);
        printf("tooltip=%s\n", view_tooltip(w->view));
    }
    fflush(stdout);
}
