/* scene.c - the model's life and its state changes: init and free, images,
 * the lesson's stash, the walk, the GPU phase's switches, the settings, the
 * region shown, and the questions the view and the narration ask.
 * Measuring and the experiments are in scene_work.c. */
#define _POSIX_C_SOURCE 200809L
#include "scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "i18n.h"
#include "core/timing.h"
#include "worker.h"

/* Opens engine `name` through the host; on failure e->why holds the bare
 * reason. */
static void open_engine(scene *s, scene_engine *e, const char *name)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->engine = s->host.open_engine(s->host.user, name, e->why, sizeof e->why);
    e->hardware = eng_hardware_of(e->engine);
}

double scene_now(const scene *s)
{
    return s->host.now_ms ? s->host.now_ms(s->host.user) : tim_now_ms();
}

/* The result path goes back to one this GPU engine has. */
void scene_clamp_gpu_result(scene *s)
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
    s->area = SCENE_AREA_GRIDS;
    s->chart = SCENE_CHART_TIMING;
    s->inside.shape = 0;
    s->mem_budget = 0;
    scene_tiles_end(s);
}

void scene_init(scene *s, const scene_host *host, const app_options *opt)
{
    memset(s, 0, sizeof *s);
    s->host = *host;
    s->chain.ms[0] = s->chain.ms[1] = -1;
    open_engine(s, &s->seq, "cpu-seq");
    open_engine(s, &s->simd, "cpu-simd");
    open_engine(s, &s->par, "cpu-par");
    /* the best GPU engine here: CUDA, else OpenGL compute */
    open_engine(s, &s->gpu, "cuda");
    if (!s->gpu.engine) {
        char cuda_why[256];
        snprintf(cuda_why, sizeof cuda_why, "%s", s->gpu.why);
        open_engine(s, &s->gpu, "gl");
        if (s->gpu.engine)
            snprintf(s->gpu.note, sizeof s->gpu.note, _("CUDA is not used: %s"), cuda_why);
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
        s->wsimd = s->host.open_engine(s->host.user, "cpu-simd", why, sizeof why);
        if (s->wseq && s->wpar && s->wsimd)
            s->worker = worker_start();
        s->worker_tag = -1;
    }
}


/* Lets go of the GL buffer (the engine first). */
void scene_free_buffer(scene *s)
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
    free(s->inside.gpu_heat);
    s->inside.gpu_heat = NULL;
    worker_stop(s->worker); /* after the run under way, if any */
    eng_close(s->wseq);
    eng_close(s->wpar);
    eng_close(s->wsimd);
    scene_task_end(s);
    scene_tiles_end(s);
    scene_free_buffer(s); /* the GL context is still current here */
    eng_close(s->seq.engine);
    eng_close(s->par.engine);
    eng_close(s->simd.engine);
    eng_close(s->gpu.engine);
    img_free(&s->img);
    img_plane_free(&s->cpu_out);
    img_plane_free(&s->gpu_out);
}

conv_params scene_params(const scene *s)
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
void scene_settings_changed(scene *s)
{
    conv_params p = scene_params(s);
    bool gpu_shown = s->gpu.measured || s->phase == SCENE_PHASE_GPU;
    if (!s->img.luma.px)
        return;
    if (s->tiles.on && gpu_shown)
        scene_tiles_interrupt(s); /* the tiles run again, for the new settings */
    else if (s->tiles.on)
        scene_tiles_end(s);
    if (s->task.kind != SCENE_TASK_NONE)
        scene_cancel(s); /* a sweep or chain measures one filter, not two */
    conv_stepper_init(&s->stepper, &s->img.luma, &p, &s->cpu_out);
    ++s->measure_gen; /* what the measuring thread is doing is for the old settings */
    redo_from(s, 0);
    s->owed_taps = 0;
    s->seq_stale = s->simd_stale = s->par_stale = true;
    s->seq.measured = s->simd.measured = s->par.measured = false;
    /* once the GPU has run, its bar and (in the GPU phase) its result follow
     * every change, measured right after the CPU engines */
    if (gpu_shown)
        s->gpu_stale = true;
    s->gpu.measured = false;
}

void scene_say_error(scene *s, const char *text)
{
    snprintf(s->banner, sizeof s->banner, "%s", text);
    s->banner_gpu = false;
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
    scene_settings_changed(s);
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
    st->block_shape = s->inside.shape;
    st->gpu_result = s->gpu_result;
    st->mem_budget = s->mem_budget;
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
    s->inside.shape = st->block_shape;
    s->gpu_result = st->gpu_result;
    s->mem_budget = st->mem_budget;
    scene_clamp_gpu_result(s); /* the lesson may have switched the GPU engine */
    s->area = SCENE_AREA_GRIDS;
    s->chart = SCENE_CHART_TIMING;
    if (scene_adopt_image(s, &img, name)) {
        s->passes = passes;
        scene_view_at(s, st->view_x, st->view_y);
    }
    memset(st, 0, sizeof *st);
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
    return (s->playing && s->phase == SCENE_PHASE_CPU) || (s->area == SCENE_AREA_INSIDE && scene_block_progress(s) < 1.0) ||
           (s->phase == SCENE_PHASE_GPU && now - s->gpu_shown_at < scene_gpu_light_ms(s)) ||
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
    if (!scene_measure_gpu(s))
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
    if (!s->gpu.engine) {
        scene_notice(s, _("naive and tiled are a GPU engine's two kernels, and this machine has no GPU engine"));
        return;
    }
    if (!eng_has_kernels(eng_class_of(s->gpu.engine))) {
        scene_notice(s, _("naive and tiled are a GPU engine's two kernels; this one has a single kernel"));
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
            scene_notice(s, _("one copy per pixel is a path of the CUDA engine; this GPU engine has the other two"));
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
        snprintf(msg, sizeof msg, _("the %s engine cannot run here: %s"), other, next.why);
        scene_notice(s, msg);
        return;
    }
    if (s->tiles.on)
        scene_tiles_interrupt(s); /* they run again on the new engine */
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
    scene_clamp_gpu_result(s);
    if (s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
    snprintf(msg, sizeof msg, _("the GPU phase now runs on %s"), eng_description(s->gpu.engine));
    scene_notice(s, msg);
}

/* ---- settings ------------------------------------------------------------- */

void scene_select_preset(scene *s, int index)
{
    if (index < 0 || (size_t)index >= filt_preset_count())
        return;
    s->preset = index;
    s->opt.kernel = *filt_preset((size_t)index);
    scene_settings_changed(s);
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
    snprintf(s->opt.kernel.title, sizeof s->opt.kernel.title, "%s", N_("Custom kernel"));
    s->preset = -1;
    scene_settings_changed(s);
}

void scene_next_border(scene *s)
{
    s->opt.border = (conv_border)((s->opt.border + 1) % CONV_BORDER_COUNT);
    scene_settings_changed(s);
}

void scene_toggle_flip(scene *s)
{
    s->opt.flip = !s->opt.flip;
    scene_settings_changed(s);
}

void scene_next_display(scene *s)
{
    s->opt.display = (img_display)((s->opt.display + 1) % IMG_DISPLAY_COUNT);
    redo_from(s, 0); /* the thumbnail's grey levels change */
}

/* ---- what is shown ---------------------------------------------------------- */

void scene_show(scene *s, scene_area area)
{
    if (area < 0 || area >= SCENE_AREA_COUNT)
        return;
    s->area = area;
    if (area == SCENE_AREA_SWEEP)
        s->chart = SCENE_CHART_TIMING;
}

void scene_show_chart(scene *s, scene_chart chart)
{
    if (chart < 0 || chart >= SCENE_CHART_COUNT)
        return;
    s->chart = chart;
    if (chart == SCENE_CHART_CHAIN && s->area == SCENE_AREA_SWEEP)
        s->area = SCENE_AREA_GRIDS;
}

bool scene_close_shown(scene *s)
{
    if (s->area != SCENE_AREA_GRIDS)
        s->area = SCENE_AREA_GRIDS;
    else if (s->chart != SCENE_CHART_TIMING)
        s->chart = SCENE_CHART_TIMING;
    else
        return false;
    return true;
}

const char *scene_area_name(scene_area area)
{
    static const char *const names[SCENE_AREA_COUNT] = {"grids", "large", "inside", "sweep"};
    return area >= 0 && area < SCENE_AREA_COUNT ? names[area] : "?";
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
        snprintf(buf, size, ngettext("%s after %d pass", "%s after %d passes", (unsigned long)s->passes), s->image_name,
                 s->passes);
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

const char *scene_engine_label(const scene_engine *e)
{
    if (e->hardware == ENG_HW_SOFTWARE)
        return strcmp(e->name, "gl") == 0 ? _("gl (software)") : _("GPU (software)");
    if (e->hardware == ENG_HW_VIRTUAL)
        return strcmp(e->name, "gl") == 0 ? _("gl (virtual)") : _("GPU (virtual)");
    return e->name;
}
