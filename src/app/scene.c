#define _POSIX_C_SOURCE 200809L
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"
#include "worker.h"

#define TIMING_BUDGET_MS 150.0 /* time spent measuring one engine after a change */
#define SWEEP_BUDGET_MS 60.0   /* ... and one engine at one size of the sweep */
#define PER_PIXEL_BUDGET_MS 60.0 /* copies one pixel at a time for this long, then extrapolates */

/* What a job of the measuring thread is for (worker_result.tag). */
enum { TAG_SEQ = 0, TAG_PAR = 1, TAG_SWEEP = 100 /* + size * 3 + engine */ };

/* Opens engine `name` through the host; on failure e->why holds the bare
 * reason. */
static void open_engine(scene *s, scene_engine *e, const char *name)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->engine = s->host.open_engine(s->host.user, name, e->why, sizeof e->why);
}

double scene_now(const scene *s)
{
    return s->host.now_ms ? s->host.now_ms(s->host.user) : tim_now_ms();
}

/* The result path goes back to one this GPU engine has. */
static void clamp_gpu_result(scene *s)
{
    if (s->gpu_result == ENG_RESULT_INTEROP && (!s->gpu.engine || !eng_can_present(s->gpu.engine)))
        s->gpu_result = ENG_RESULT_BULK;
    if (s->gpu_result == ENG_RESULT_PER_PIXEL && (!s->gpu.engine || !eng_has_options(eng_class_of(s->gpu.engine))))
        s->gpu_result = ENG_RESULT_BULK;
}

/* Settings that a lesson starts from and that a new scene has. */
static void reset_settings(scene *s, const app_options *opt)
{
    s->opt = *opt;
    s->preset = -1;
    for (size_t i = 0; i < filt_preset_count(); ++i)
        if (strcmp(filt_preset(i)->name, opt->kernel.name) == 0)
            s->preset = (int)i;
    s->speed = SCENE_DEFAULT_SPEED;
    s->view_cells = SCENE_DEFAULT_CELLS;
    s->view_x = s->view_y = 0;
    s->thread_view = false;
    s->hovering = s->pinned = false;
    s->gpu_kernel = ENG_KERNEL_TILED;
    s->gpu_result = s->gpu.engine && eng_can_present(s->gpu.engine) ? ENG_RESULT_INTEROP : ENG_RESULT_BULK;
    s->sweep.shown = s->chain.shown = false;
}

void scene_init(scene *s, const scene_host *host, const app_options *opt)
{
    memset(s, 0, sizeof *s);
    s->host = *host;
    s->chain.ms[0] = s->chain.ms[1] = -1;
    open_engine(s, &s->seq, "cpu-seq");
    open_engine(s, &s->par, "cpu-par");
    /* the best GPU engine here: CUDA, else OpenGL compute */
    open_engine(s, &s->gpu, "cuda");
    if (!s->gpu.engine) {
        char cuda_why[256];
        snprintf(cuda_why, sizeof cuda_why, "%s", s->gpu.why);
        open_engine(s, &s->gpu, "gl");
        if (s->gpu.engine)
            snprintf(s->gpu.note, sizeof s->gpu.note, "CUDA is not used: %s", cuda_why);
        else {
            char gl_why[256];
            snprintf(gl_why, sizeof gl_why, "%s", s->gpu.why);
            snprintf(s->gpu.why, sizeof s->gpu.why, "no GPU engine: CUDA: %s; OpenGL: %s", cuda_why, gl_why);
        }
    }
    reset_settings(s, opt);
    /* the CPU engines' measurements run on a thread of their own, with
     * engines of their own; without it, here between frames */
    {
        char why[256];
        s->wseq = s->host.open_engine(s->host.user, "cpu-seq", why, sizeof why);
        s->wpar = s->host.open_engine(s->host.user, "cpu-par", why, sizeof why);
        if (s->wseq && s->wpar)
            s->worker = worker_start();
        s->worker_tag = -1;
    }
}

static void task_end(scene *s);

/* Lets go of the GL buffer (the engine first). */
static void free_buffer(scene *s)
{
    if (!s->gpu_buffer)
        return;
    if (s->gpu.engine)
        eng_forget_buffer(s->gpu.engine, s->gpu_buffer);
    if (s->host.buffer_free)
        s->host.buffer_free(s->host.user, &s->gpu_buffer);
    s->gpu_buffer = 0;
    s->gpu_buffer_bytes = 0;
}

void scene_free(scene *s)
{
    worker_stop(s->worker); /* after the run under way, if any */
    eng_close(s->wseq);
    eng_close(s->wpar);
    task_end(s);
    free_buffer(s); /* the GL context is still current here */
    eng_close(s->seq.engine);
    eng_close(s->par.engine);
    eng_close(s->gpu.engine);
    img_free(&s->img);
    img_plane_free(&s->cpu_out);
    img_plane_free(&s->gpu_out);
}

static conv_params params_of(const scene *s)
{
    return conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
}

/* Outputs from `from` on may differ from what the view drew. */
static void redo_from(scene *s, long from)
{
    ++s->cpu_redo;
    s->cpu_redo_from = from;
}

/* The filter, border or image changed: the walk starts again, the timings and
 * the GPU result are stale. */
static void settings_changed(scene *s)
{
    conv_params p = params_of(s);
    if (!s->img.luma.px)
        return;
    if (s->task.kind != SCENE_TASK_NONE)
        scene_cancel(s); /* a sweep or chain measures one filter, not two */
    conv_stepper_init(&s->stepper, &s->img.luma, &p, &s->cpu_out);
    ++s->measure_gen; /* what the measuring thread is doing is for the old settings */
    redo_from(s, 0);
    s->owed_taps = 0;
    s->seq_stale = s->par_stale = true;
    s->seq.measured = s->par.measured = false;
    /* once the GPU has run, its bar and (in the GPU phase) its result follow
     * every change, measured right after the CPU engines */
    if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
    s->gpu.measured = false;
}

void scene_say_error(scene *s, const char *text)
{
    snprintf(s->banner, sizeof s->banner, "%s", text);
}

void scene_notice(scene *s, const char *text)
{
    snprintf(s->notice, sizeof s->notice, "%s", text);
    s->notice_at = scene_now(s);
}

bool scene_adopt_image(scene *s, img_image *img, const char *name)
{
    img_plane cpu, gpu;
    if (!img_plane_alloc(&cpu, img->luma.w, img->luma.h))
        goto fail;
    if (!img_plane_alloc(&gpu, img->luma.w, img->luma.h)) {
        img_plane_free(&cpu);
        goto fail;
    }
    if (s->task.kind != SCENE_TASK_NONE)
        scene_cancel(s); /* its figures were for the image going away */
    img_free(&s->img);
    img_plane_free(&s->cpu_out);
    img_plane_free(&s->gpu_out);
    s->img = *img;
    s->cpu_out = cpu;
    s->gpu_out = gpu;
    ++s->image_generation;
    snprintf(s->image_name, sizeof s->image_name, "%s", name);
    s->phase = SCENE_PHASE_CPU;
    s->playing = false;
    s->pinned = s->hovering = false;
    s->view_x = s->view_y = 0; /* where the walk starts */
    s->passes = 0;
    settings_changed(s);
    return true;
fail:
    img_free(img);
    scene_say_error(s, err_msg());
    return false;
}

bool scene_open_image(scene *s, const char *path)
{
    img_image img;
    const char *slash = strrchr(path, '/');

    if (!img_load(path, &s->opt.limits, &img)) {
        scene_say_error(s, err_msg());
        return false;
    }
    if (!scene_adopt_image(s, &img, slash ? slash + 1 : path))
        return false;
    s->banner[0] = '\0';
    return true;
}

void scene_stash_settings(scene *s, scene_stash *st, const app_options *defaults)
{
    img_image copy;
    bool copied;
    if (s->task.kind != SCENE_TASK_NONE)
        scene_cancel(s);
    st->opt = s->opt;
    st->preset = s->preset;
    st->img = s->img; /* the stash's from now on */
    snprintf(st->image_name, sizeof st->image_name, "%s", s->image_name);
    st->passes = s->passes;
    st->speed = s->speed;
    st->view_x = s->view_x;
    st->view_y = s->view_y;
    st->view_cells = s->view_cells;
    st->thread_view = s->thread_view;
    st->gpu_kernel = s->gpu_kernel;
    st->gpu_result = s->gpu_result;
    st->held = true;
    /* the scene goes on with a copy (or with none when there is no room:
     * the lesson's own image comes next, or the banner says why) */
    copied = s->img.luma.px && img_copy(&s->img, &copy);
    if (s->img.luma.px && !copied)
        scene_say_error(s, err_msg());
    memset(&s->img, 0, sizeof s->img);
    reset_settings(s, defaults);
    if (copied)
        scene_adopt_image(s, &copy, st->image_name);
}

void scene_unstash(scene *s, scene_stash *st)
{
    img_image img;
    int passes;
    char name[256];
    if (!st->held)
        return;
    img = st->img;
    passes = st->passes;
    snprintf(name, sizeof name, "%s", st->image_name);
    s->opt = st->opt;
    s->preset = st->preset;
    s->speed = st->speed;
    s->view_cells = st->view_cells;
    s->thread_view = st->thread_view;
    s->gpu_kernel = st->gpu_kernel;
    s->gpu_result = st->gpu_result;
    clamp_gpu_result(s); /* the lesson may have switched the GPU engine */
    s->sweep.shown = s->chain.shown = false;
    if (scene_adopt_image(s, &img, name)) {
        s->passes = passes;
        scene_view_at(s, st->view_x, st->view_y);
    }
    memset(st, 0, sizeof *st);
}

/* ---- measuring ------------------------------------------------------------ */

/* Times an engine on `job` on this thread (worker_measure). */
static void measure_engine(scene_engine *e, const eng_job *job, unsigned gl_buffer, double budget_ms)
{
    e->measured = false;
    if (!e->engine)
        return;
    if (!worker_measure(e->engine, job, gl_buffer, budget_ms, &e->timing, e->why, sizeof e->why))
        return;
    e->why[0] = '\0';
    e->measured = true;
}

/* A CPU engine's figures have come (from the measuring thread or this one). */
static void took_cpu(scene *s, scene_engine *e, bool ok, const eng_timing *t, const char *why)
{
    e->measured = ok;
    if (ok) {
        e->timing = *t;
        e->why[0] = '\0';
    } else {
        snprintf(e->why, sizeof e->why, "%s", why);
    }
    if (e == &s->par && ok)
        s->cpu_bands = t->launch.bands;
    ++s->updates;
}

/* Gives the measuring thread a copy of `src` to measure engine `e` on;
 * false when it is busy or there is no room (then nothing was given). */
static bool cpu_job(scene *s, eng_engine *e, const img_plane *src, double budget_ms, int tag)
{
    img_plane copy;
    if (!img_plane_alloc(&copy, src->w, src->h))
        return false;
    memcpy(copy.px, src->px, sizeof(float) * (size_t)src->w * (size_t)src->h);
    if (!worker_submit(s->worker, e, &copy, params_of(s), budget_ms, tag, s->measure_gen)) {
        img_plane_free(&copy);
        return false;
    }
    s->worker_tag = tag;
    return true;
}

/* Measures a CPU engine on the image shown: on the measuring thread when
 * there is one (the result comes later, scene_work), else here, into a
 * scratch plane (the walk's own output shows only what the walk has done). */
static void measure_cpu(scene *s, scene_engine *e)
{
    img_plane scratch;
    eng_job job;
    if (s->worker) {
        if (cpu_job(s, e == &s->seq ? s->wseq : s->wpar, &s->img.luma, TIMING_BUDGET_MS,
                    e == &s->seq ? TAG_SEQ : TAG_PAR))
            return;
        if (e == &s->seq) /* not given: again at the next slice */
            s->seq_stale = true;
        else
            s->par_stale = true;
        return;
    }
    if (!img_plane_alloc(&scratch, s->img.luma.w, s->img.luma.h)) {
        scene_say_error(s, err_msg());
        return;
    }
    job = (eng_job){&s->img.luma, &scratch, params_of(s)};
    measure_engine(e, &job, 0, TIMING_BUDGET_MS);
    img_plane_free(&scratch);
    if (e == &s->par && e->measured)
        s->cpu_bands = e->timing.launch.bands;
    ++s->updates;
}

/* Sets the GPU engine's teaching switches for a run with result path r. */
static void gpu_options(scene *s, eng_result r)
{
    eng_options o = eng_options_of(s->gpu.engine);
    o.kernel = s->gpu_kernel;
    o.result = r;
    o.per_pixel_budget_ms = PER_PIXEL_BUDGET_MS;
    eng_set_options(s->gpu.engine, &o);
}

/* Runs the GPU engine on the whole image and measures it, on the result path
 * chosen. The interop path computes into a GL buffer that the window shows
 * as it is; the grids' numbers come from one more run, to the host, that
 * the chart does not count. */
static bool measure_gpu(scene *s)
{
    eng_job job = {&s->img.luma, &s->gpu_out, params_of(s)};
    size_t bytes = (size_t)s->img.luma.w * (size_t)s->img.luma.h * sizeof(float);
    eng_timing unused;

    if (!s->gpu.engine) {
        scene_notice(s, s->gpu.why);
        return false;
    }
    s->gpu_presented = false;
    if (s->gpu_result == ENG_RESULT_INTEROP && eng_can_present(s->gpu.engine) && s->host.buffer_ensure) {
        gpu_options(s, ENG_RESULT_BULK);
        if (!eng_run(s->gpu.engine, &job, &unused)) {
            snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
            goto failed;
        }
        if (s->gpu_buffer && s->gpu_buffer_bytes != bytes)
            free_buffer(s); /* the engine lets go first */
        if (!s->host.buffer_ensure(s->host.user, &s->gpu_buffer, bytes)) {
            snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
            goto failed;
        }
        s->gpu_buffer_bytes = bytes;
        gpu_options(s, ENG_RESULT_INTEROP);
        job.out = NULL;
        measure_engine(&s->gpu, &job, s->gpu_buffer, TIMING_BUDGET_MS);
        s->gpu_presented = s->gpu.measured;
    } else {
        gpu_options(s, s->gpu_result == ENG_RESULT_INTEROP ? ENG_RESULT_BULK : s->gpu_result);
        measure_engine(&s->gpu, &job, 0, TIMING_BUDGET_MS);
    }
    if (!s->gpu.measured)
        goto failed;
    ++s->gpu_runs;
    s->gpu_device_known = eng_device(s->gpu.engine, &s->gpu_device);
    return true;
failed:
    s->gpu.measured = false;
    snprintf(s->banner, sizeof s->banner, "the GPU phase failed: %s", s->gpu.why);
    s->phase = SCENE_PHASE_CPU;
    return false;
}

long scene_cpu_done(const scene *s)
{
    return s->img.luma.px ? conv_stepper_done_count(&s->stepper) : 0;
}

/* Keeps the stepper's current output inside the region shown. */
static void follow_stepper(scene *s)
{
    int x = conv_stepper_x(&s->stepper), y = conv_stepper_y(&s->stepper);
    int n = s->view_cells;
    if (x < s->view_x || x >= s->view_x + n || y < s->view_y || y >= s->view_y + n)
        scene_view_at(s, x - x % n, y - y % n);
}

void scene_update(scene *s, double dt_ms)
{
    long taps;
    if (!s->playing || s->phase != SCENE_PHASE_CPU || !s->img.luma.px)
        return;
    if (dt_ms > 250)
        dt_ms = 250; /* after a stall, do not jump ahead */
    s->owed_taps += s->speed * 9.0 * dt_ms / 1000.0;
    taps = (long)s->owed_taps;
    s->owed_taps -= (double)taps;
    while (taps-- > 0) {
        if (!conv_stepper_tap(&s->stepper)) {
            s->playing = false;
            break;
        }
    }
    follow_stepper(s);
}

bool scene_animating(const scene *s)
{
    double now = scene_now(s);
    return (s->playing && s->phase == SCENE_PHASE_CPU) ||
           (s->phase == SCENE_PHASE_GPU && now - s->gpu_shown_at < SCENE_GPU_PULSE_MS) ||
           (s->notice[0] && now - s->notice_at < SCENE_NOTICE_MS);
}

/* ---- the walk ------------------------------------------------------------ */

static bool cpu_phase(scene *s)
{
    if (!s->img.luma.px)
        return false;
    if (s->phase != SCENE_PHASE_CPU) {
        s->phase = SCENE_PHASE_CPU; /* stepping goes back to the walk */
        s->pinned = false;
    }
    return true;
}

void scene_play(scene *s)
{
    if (!cpu_phase(s))
        return;
    if (conv_stepper_done(&s->stepper)) {
        conv_stepper_restart(&s->stepper);
        redo_from(s, 0);
    }
    s->playing = !s->playing;
}

void scene_tap(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->playing = false;
    conv_stepper_tap(&s->stepper);
    follow_stepper(s);
}

void scene_step(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->playing = false;
    conv_stepper_output(&s->stepper);
    follow_stepper(s);
}

void scene_back(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->playing = false;
    conv_stepper_back(&s->stepper);
    redo_from(s, s->stepper.index);
    follow_stepper(s);
}

void scene_faster(scene *s)
{
    s->speed = s->speed * 2 > SCENE_MAX_SPEED ? SCENE_MAX_SPEED : s->speed * 2;
}

void scene_slower(scene *s)
{
    s->speed = s->speed / 2 < SCENE_MIN_SPEED ? SCENE_MIN_SPEED : s->speed / 2;
}

void scene_finish(scene *s)
{
    if (!cpu_phase(s))
        return;
    s->playing = false;
    conv_stepper_finish(&s->stepper);
}

void scene_restart(scene *s)
{
    if (!s->img.luma.px)
        return;
    s->phase = SCENE_PHASE_CPU;
    s->playing = false;
    s->pinned = false;
    conv_stepper_restart(&s->stepper);
    redo_from(s, 0);
    follow_stepper(s);
}

/* ---- the GPU phase -------------------------------------------------------- */

void scene_launch_gpu(scene *s)
{
    if (!s->img.luma.px)
        return;
    s->playing = false;
    s->gpu_stale = false;
    if (!measure_gpu(s))
        return;
    s->phase = SCENE_PHASE_GPU;
    s->gpu_shown_at = scene_now(s);
}

void scene_toggle_threads(scene *s)
{
    s->thread_view = !s->thread_view;
}

void scene_next_gpu_kernel(scene *s)
{
    if (!s->gpu.engine || !eng_has_options(eng_class_of(s->gpu.engine))) {
        scene_notice(s, "naive and tiled are the CUDA engine's two kernels; this GPU engine has one");
        return;
    }
    s->gpu_kernel = s->gpu_kernel == ENG_KERNEL_TILED ? ENG_KERNEL_NAIVE : ENG_KERNEL_TILED;
    if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
}

void scene_next_gpu_result(scene *s)
{
    eng_result r = s->gpu_result;
    bool options = s->gpu.engine && eng_has_options(eng_class_of(s->gpu.engine));
    bool present = s->gpu.engine && eng_can_present(s->gpu.engine) && s->host.buffer_ensure;
    /* interop -> one bulk copy -> one copy per pixel -> interop, skipping
     * what this engine cannot do */
    for (int i = 0; i < ENG_RESULT_COUNT; ++i) {
        r = r == ENG_RESULT_INTEROP ? ENG_RESULT_BULK : r == ENG_RESULT_BULK ? ENG_RESULT_PER_PIXEL : ENG_RESULT_INTEROP;
        if (r == ENG_RESULT_PER_PIXEL && !options) {
            scene_notice(s, "one copy per pixel is a path of the CUDA engine; this GPU engine has the other two");
            continue;
        }
        if (r == ENG_RESULT_INTEROP && !present)
            continue;
        break;
    }
    s->gpu_result = r;
    if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
}

void scene_next_gpu_engine(scene *s)
{
    const char *other = strcmp(s->gpu.name, "cuda") == 0 ? "gl" : "cuda";
    scene_engine next;
    char msg[400];
    open_engine(s, &next, other);
    if (!next.engine) {
        snprintf(msg, sizeof msg, "the %s engine cannot run here: %s", other, next.why);
        scene_notice(s, msg);
        return;
    }
    if (s->task.kind != SCENE_TASK_NONE)
        scene_cancel(s); /* it may be running the engine going away */
    if (s->gpu.engine) {
        if (s->gpu_buffer) /* the old engine lets go of the GL buffer first */
            eng_forget_buffer(s->gpu.engine, s->gpu_buffer);
        eng_close(s->gpu.engine);
    }
    s->gpu = next;
    s->gpu_device_known = false;
    s->gpu_presented = false;
    clamp_gpu_result(s);
    if (s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
    snprintf(msg, sizeof msg, "the GPU phase now runs on %s", eng_description(s->gpu.engine));
    scene_notice(s, msg);
}

/* ---- settings ------------------------------------------------------------- */

void scene_select_preset(scene *s, int index)
{
    if (index < 0 || (size_t)index >= filt_preset_count())
        return;
    s->preset = index;
    s->opt.kernel = *filt_preset((size_t)index);
    settings_changed(s);
}

void scene_next_filter(scene *s, int step)
{
    int n = (int)filt_preset_count();
    int i = s->preset < 0 ? (step > 0 ? 0 : n - 1) : ((s->preset + step) % n + n) % n;
    scene_select_preset(s, i);
}

void scene_set_weight(scene *s, int tap, float value)
{
    if (tap < 0 || tap > 8 || !isfinite(value))
        return;
    s->opt.kernel.weight[tap] = value;
    snprintf(s->opt.kernel.name, sizeof s->opt.kernel.name, "custom");
    snprintf(s->opt.kernel.title, sizeof s->opt.kernel.title, "Custom kernel");
    s->preset = -1;
    settings_changed(s);
}

void scene_next_border(scene *s)
{
    s->opt.border = (conv_border)((s->opt.border + 1) % CONV_BORDER_COUNT);
    settings_changed(s);
}

void scene_toggle_flip(scene *s)
{
    s->opt.flip = !s->opt.flip;
    settings_changed(s);
}

void scene_next_display(scene *s)
{
    s->opt.display = (img_display)((s->opt.display + 1) % IMG_DISPLAY_COUNT);
    redo_from(s, 0); /* the thumbnail's grey levels change */
}

/* ---- the region shown -------------------------------------------------------- */

void scene_view_at(scene *s, int x, int y)
{
    int w = s->img.luma.w, h = s->img.luma.h, n = s->view_cells;
    s->view_x = x > w - n ? w - n : x;
    s->view_y = y > h - n ? h - n : y;
    if (s->view_x < 0)
        s->view_x = 0;
    if (s->view_y < 0)
        s->view_y = 0;
}

void scene_pan(scene *s, int dx, int dy)
{
    scene_view_at(s, s->view_x + dx, s->view_y + dy);
}

void scene_center_on(scene *s, int x, int y)
{
    scene_view_at(s, x - s->view_cells / 2, y - s->view_cells / 2);
}

void scene_zoom(scene *s, int step)
{
    int cx = s->view_x + s->view_cells / 2, cy = s->view_y + s->view_cells / 2;
    static const int steps[] = {4, 6, 8, 12, 16, 20, 24, 32, 48, 64};
    int i = 0, n;
    while (i < 9 && steps[i] < s->view_cells)
        ++i;
    n = steps[step > 0 ? (i > 0 ? i - 1 : 0) : (i < 9 ? i + 1 : 9)];
    if (n < SCENE_MIN_CELLS)
        n = SCENE_MIN_CELLS;
    if (n > SCENE_MAX_CELLS)
        n = SCENE_MAX_CELLS;
    s->view_cells = n;
    scene_center_on(s, cx, cy);
}

void scene_hover(scene *s, bool over, int x, int y)
{
    if (s->pinned)
        return;
    s->hovering = over && x >= 0 && y >= 0 && x < s->img.luma.w && y < s->img.luma.h;
    s->hover_x = x;
    s->hover_y = y;
}

void scene_pin(scene *s)
{
    if (s->pinned)
        s->pinned = false;
    else if (s->hovering)
        s->pinned = true;
}

/* ---- experiments ---------------------------------------------------------------- */

/* The current image scaled to n x n (nearest pixel), as a plane. */
static bool scaled_square(const scene *s, int n, img_plane *out)
{
    int w = s->img.luma.w, h = s->img.luma.h;
    if (!img_plane_alloc(out, n, n))
        return false;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            out->px[(long)y * n + x] = s->img.luma.px[(long)(y * (long)h / n) * w + (long)x * w / n];
    return true;
}

/* Starts long work of `kind` (what was under way stops first). */
static void task_start(scene *s, scene_task_kind kind, int total)
{
    task_end(s);
    s->task.kind = kind;
    s->task.total = total;
    s->playing = false;
}

static void task_end(scene *s)
{
    if (s->worker && s->worker_tag >= TAG_SWEEP) { /* a size of a sweep no longer wanted */
        worker_discard(s->worker);
        s->worker_tag = -1;
    }
    img_plane_free(&s->task.a);
    img_plane_free(&s->task.b);
    memset(&s->task, 0, sizeof s->task);
}

void scene_sweep(scene *s)
{
    if (s->sweep.shown && s->task.kind != SCENE_TASK_SWEEP) {
        s->sweep.shown = false; /* W again hides the chart */
        return;
    }
    if (!s->img.luma.px || s->task.kind == SCENE_TASK_SWEEP)
        return;
    task_start(s, SCENE_TASK_SWEEP, SCENE_SWEEP_SIZES * 3);
    s->sweep.count = 0;
    s->sweep.shown = true;
    s->chain.shown = false;
    for (int i = 0, n = 4; i < SCENE_SWEEP_SIZES; ++i, n *= 4) {
        s->sweep.size[i] = n;
        for (int k = 0; k < 3; ++k)
            s->sweep.ms[k][i] = -1;
    }
}

/* The sweep's cursor moves past one engine at one size. */
static void sweep_next(scene *s)
{
    scene_task *t = &s->task;
    if (++t->k == 3) {
        t->k = 0;
        ++t->i;
    }
}

/* One engine at one size of the sweep: the CPU engines on the measuring
 * thread (their figure comes later, scene_work), the GPU here. */
static void sweep_slice(scene *s)
{
    scene_task *t = &s->task;
    scene_engine *e[3] = {&s->seq, &s->par, &s->gpu};
    int n = s->sweep.size[t->i];
    img_plane in, out;

    if (t->i == SCENE_SWEEP_SIZES) {
        task_end(s);
        return;
    }
    if (!scaled_square(s, n, &in)) {
        sweep_next(s);
        ++t->done;
        return;
    }
    if (t->k < 2 && s->worker) {
        bool given = cpu_job(s, t->k == 0 ? s->wseq : s->wpar, &in, SWEEP_BUDGET_MS, TAG_SWEEP + t->i * 3 + t->k);
        img_plane_free(&in);
        if (given)
            sweep_next(s);
        return;
    }
    if (t->k == 2 && s->gpu.engine)
        gpu_options(s, ENG_RESULT_BULK); /* the sweep's GPU times include copying the result back */
    if (img_plane_alloc(&out, n, n)) {
        eng_job job = {&in, &out, params_of(s)};
        scene_engine probe = *e[t->k]; /* the engines' own figures stay for the image shown */
        measure_engine(&probe, &job, 0, SWEEP_BUDGET_MS);
        if (probe.measured)
            s->sweep.ms[t->k][t->i] = eng_total_ms(&probe.timing);
        img_plane_free(&out);
    }
    img_plane_free(&in);
    if (t->k == 2 && (s->gpu.measured || s->phase == SCENE_PHASE_GPU))
        s->gpu_stale = true; /* the GPU's switches went back to bulk: measure what is shown again */
    ++t->done;
    ++s->updates;
    if (t->k == 2)
        s->sweep.count = t->i + 1;
    sweep_next(s);
    if (t->i == SCENE_SWEEP_SIZES)
        task_end(s);
}

void scene_chain(scene *s)
{
    if (s->chain.shown && s->task.kind != SCENE_TASK_CHAIN) {
        s->chain.shown = false; /* X again hides the panel */
        return;
    }
    if (!s->img.luma.px || s->task.kind == SCENE_TASK_CHAIN)
        return;
    task_start(s, SCENE_TASK_CHAIN, 2 * SCENE_CHAIN_LENGTH);
    if (!scaled_square(s, 4, &s->task.a) || !img_plane_alloc(&s->task.b, 4, 4)) {
        scene_say_error(s, err_msg());
        task_end(s);
        return;
    }
    s->chain.length = SCENE_CHAIN_LENGTH;
    s->chain.ms[0] = s->chain.ms[1] = -1;
    s->chain.shown = true;
    s->sweep.shown = false;
    s->task.pass = -1; /* the warm-up run first */
}

/* Passes of the chain for about budget_ms: each pass reads the one before;
 * the host starts every pass and gets its result back, as a program that
 * loops over the steps does. Only the passes are timed, not the frames
 * drawn between slices. */
static void chain_slice(scene *s, double budget_ms)
{
    scene_task *t = &s->task;
    scene_engine *e = t->k == 0 ? &s->seq : &s->gpu;
    conv_params p = params_of(s);
    double start = tim_now_ms(), t0;
    bool ok = e->engine != NULL;

    if (ok && t->k == 1)
        gpu_options(s, ENG_RESULT_BULK);
    t0 = tim_now_ms();
    while (ok && t->pass < SCENE_CHAIN_LENGTH) {
        bool odd = t->pass > 0 && t->pass % 2; /* the warm-up (pass -1) goes a -> b, as pass 0 does */
        eng_job job = {odd ? &t->b : &t->a, odd ? &t->a : &t->b, p};
        eng_timing tm;
        if (!eng_run(e->engine, &job, &tm)) {
            ok = false;
            break;
        }
        if (t->pass < 0) { /* the warm-up, not timed */
            t->pass = 0;
            t0 = tim_now_ms();
            continue;
        }
        ++t->pass;
        ++t->done;
        ++s->updates;
        if (tim_now_ms() - start > budget_ms)
            break;
    }
    t->ms += tim_now_ms() - t0;
    if (ok && t->pass < SCENE_CHAIN_LENGTH)
        return;
    s->chain.ms[t->k] = ok ? t->ms : -1;
    if (t->k == 1) {
        if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
            s->gpu_stale = true;
        task_end(s);
        return;
    }
    t->k = 1;
    t->pass = -1;
    t->ms = 0;
    t->done = SCENE_CHAIN_LENGTH;
    img_plane_free(&t->a); /* the GPU starts from the image too */
    if (!scaled_square(s, 4, &t->a)) {
        scene_say_error(s, err_msg());
        task_end(s);
    }
}

void scene_apply_again(scene *s)
{
    img_plane out;
    img_image next;
    eng_job job;
    eng_timing t;
    char msg[600];
    int passes = s->passes + 1;
    if (!s->img.luma.px || !s->par.engine)
        return;
    if (!img_plane_alloc(&out, s->img.luma.w, s->img.luma.h))
        goto failed;
    job = (eng_job){&s->img.luma, &out, params_of(s)};
    if (!eng_run(s->par.engine, &job, &t) || !img_from_plane(&out, &next)) {
        img_plane_free(&out);
        goto failed;
    }
    img_plane_free(&out);
    /* the new input replaces the old; the title stays, the passes count */
    snprintf(msg, sizeof msg, "%s", s->image_name);
    if (scene_adopt_image(s, &next, msg))
        s->passes = passes;
    return;
failed:
    snprintf(msg, sizeof msg, "cannot apply the filter again: %s", err_msg());
    scene_say_error(s, msg);
}

long long scene_gpu_max_pixels(const scene *s)
{
    const eng_device_info *d = &s->gpu_device;
    long long most = -1;
    if (!s->gpu_device_known)
        return -1;
    if (d->memory_free > 0) /* what convis holds now is free again for a new image */
        most = (d->memory_free + d->memory_engine) / 8;
    if (d->max_buffer > 0 && (most < 0 || d->max_buffer / 4 < most))
        most = d->max_buffer / 4; /* one float buffer must hold the image */
    return most;
}

void scene_too_big(scene *s)
{
    long long most = scene_gpu_max_pixels(s), limit = s->opt.limits.max_pixels;
    int side;
    img_plane big;
    img_image img;
    char msg[256];
    if (!s->img.luma.px)
        return;
    if (most < 0) {
        scene_notice(s, "launch the GPU phase first (G): how much it can hold is read from it");
        return;
    }
    side = 1;
    while ((long long)side * side <= most)
        side *= 2; /* the first power of two over it */
    if ((long long)side * side > limit || side > s->opt.limits.max_side) {
        snprintf(msg, sizeof msg, "an image too large for this GPU (%d\xC3\x97%d) is over convis's own limit of "
                 "%lld pixels: every image convis opens fits here", side, side, limit);
        scene_notice(s, msg);
        return;
    }
    if (!scaled_square(s, side, &big)) {
        scene_say_error(s, err_msg());
        return;
    }
    if (!img_from_plane(&big, &img)) {
        img_plane_free(&big);
        scene_say_error(s, err_msg());
        return;
    }
    img_plane_free(&big);
    snprintf(msg, sizeof msg, "a %d\xC3\x97%d test image", side, side);
    scene_adopt_image(s, &img, msg);
}

int scene_sweep_crossover(const scene *s)
{
    /* the smallest size from which the GPU is faster at every size measured */
    int from = 0;
    for (int i = s->sweep.count - 1; i >= 0; --i) {
        if (!(s->sweep.ms[2][i] >= 0 && s->sweep.ms[1][i] >= 0 && s->sweep.ms[2][i] < s->sweep.ms[1][i]))
            break;
        from = s->sweep.size[i];
    }
    return from;
}

/* ---- work ----------------------------------------------------------------------------- */

/* One slice of measuring what is stale: one engine. */
static void measure_slice(scene *s)
{
    if (s->seq_stale) {
        s->seq_stale = false;
        measure_cpu(s, &s->seq);
    } else if (s->par_stale) {
        s->par_stale = false;
        measure_cpu(s, &s->par);
    } else if (s->gpu_stale) {
        s->gpu_stale = false;
        measure_gpu(s);
        ++s->updates;
    }
}

/* Takes the measuring thread's result, if one came: for the settings and
 * image still shown, or dropped. */
static void take_result(scene *s)
{
    worker_result r;
    if (!s->worker || !worker_poll(s->worker, &r))
        return;
    s->worker_tag = -1;
    if (r.gen != s->measure_gen)
        return;
    if (r.tag == TAG_SEQ || r.tag == TAG_PAR) {
        took_cpu(s, r.tag == TAG_SEQ ? &s->seq : &s->par, r.ok, &r.timing, r.why);
    } else if (r.tag >= TAG_SWEEP && s->task.kind == SCENE_TASK_SWEEP) {
        int i = (r.tag - TAG_SWEEP) / 3, k = (r.tag - TAG_SWEEP) % 3;
        if (r.ok && i < SCENE_SWEEP_SIZES && k < 3)
            s->sweep.ms[k][i] = eng_total_ms(&r.timing);
        ++s->task.done;
        ++s->updates;
    }
}

bool scene_waiting(const scene *s)
{
    return s->worker && worker_busy(s->worker);
}

bool scene_work(scene *s, double budget_ms)
{
    double start = tim_now_ms();
    if (!s->img.luma.px) {
        s->seq_stale = s->par_stale = s->gpu_stale = false;
        return false;
    }
    do {
        take_result(s);
        if (scene_waiting(s))
            return true; /* the measuring thread has it: the window goes on */
        switch (s->task.kind) {
        case SCENE_TASK_SWEEP:
            sweep_slice(s);
            break;
        case SCENE_TASK_CHAIN:
            chain_slice(s, budget_ms);
            break;
        default:
            if (!scene_stale(s))
                return false;
            measure_slice(s);
            break;
        }
    } while (tim_now_ms() - start < budget_ms);
    return scene_busy(s) || scene_stale(s) || scene_waiting(s);
}

void scene_settle(scene *s)
{
    for (;;) {
        if (scene_waiting(s))
            worker_wait(s->worker);
        if (!scene_work(s, 1e9) && !scene_waiting(s))
            break;
    }
    take_result(s);
}

bool scene_stale(const scene *s)
{
    return s->seq_stale || s->par_stale || s->gpu_stale;
}

bool scene_busy(const scene *s)
{
    return s->task.kind == SCENE_TASK_SWEEP || s->task.kind == SCENE_TASK_CHAIN;
}

void scene_progress(const scene *s, int *done, int *total)
{
    *done = s->task.done;
    *total = s->task.total;
}

void scene_cancel(scene *s)
{
    if (s->task.kind == SCENE_TASK_SWEEP && (s->gpu.measured || s->phase == SCENE_PHASE_GPU))
        s->gpu_stale = true; /* its switches may have gone to bulk */
    if (s->task.kind == SCENE_TASK_CHAIN && s->task.k == 1 && (s->gpu.measured || s->phase == SCENE_PHASE_GPU))
        s->gpu_stale = true;
    task_end(s);
}

/* ---- questions ------------------------------------------------------------------------ */

void scene_focus(const scene *s, int *x, int *y, bool *from_stepper)
{
    if (s->hovering || s->pinned) {
        *x = s->hover_x;
        *y = s->hover_y;
        *from_stepper = false;
    } else if (s->phase == SCENE_PHASE_CPU) {
        *x = conv_stepper_x(&s->stepper);
        *y = conv_stepper_y(&s->stepper);
        *from_stepper = true;
    } else { /* the GPU did them all: explain the first one in view */
        *x = s->view_x;
        *y = s->view_y;
        *from_stepper = false;
    }
}

void scene_block_size(const scene *s, int *bx, int *by)
{
    const eng_launch *l = &s->gpu.timing.launch;
    *bx = l->block_x > 0 ? l->block_x : ENG_DEFAULT_BLOCK;
    *by = l->block_y > 0 ? l->block_y : ENG_DEFAULT_BLOCK;
}

void scene_title(const scene *s, char *buf, size_t size)
{
    if (s->passes > 0)
        snprintf(buf, size, "%s after %d pass%s", s->image_name, s->passes, s->passes == 1 ? "" : "es");
    else
        snprintf(buf, size, "%s", s->image_name);
}

void scene_gpu_grid(const scene *s, long *gx, long *gy, int *bx, int *by)
{
    const eng_launch *l = &s->gpu.timing.launch;
    scene_block_size(s, bx, by);
    *gx = l->grid_x > 0 ? l->grid_x : (s->img.luma.w + *bx - 1) / *bx;
    *gy = l->grid_y > 0 ? l->grid_y : (s->img.luma.h + *by - 1) / *by;
}
