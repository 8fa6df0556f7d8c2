#define _POSIX_C_SOURCE 200809L
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"
#include "engine_host.h"
#include "render/render.h"

#define TIMING_BUDGET_MS 150.0 /* time spent measuring one engine after a change */
#define GPU_PULSE_MS 700.0
#define PER_PIXEL_BUDGET_MS 60.0 /* copies one pixel at a time for this long, then extrapolates */

static void open_engine(scene_engine *e, const char *name)
{
    const eng_class *cls = eng_find(name);
    snprintf(e->name, sizeof e->name, "%s", name);
    if (!cls) {
        snprintf(e->why, sizeof e->why, "this build has no %s engine", name);
        return;
    }
    e->engine = app_engine_open(cls);
    if (!e->engine)
        snprintf(e->why, sizeof e->why, "%s", err_msg());
}

void scene_init(scene *s, const app_options *opt)
{
    memset(s, 0, sizeof *s);
    s->opt = *opt;
    s->preset = -1;
    for (size_t i = 0; i < filt_preset_count(); ++i)
        if (strcmp(filt_preset(i)->name, opt->kernel.name) == 0)
            s->preset = (int)i;
    s->speed = 4.0;
    s->view_cells = SCENE_DEFAULT_CELLS;
    s->edit_tap = -1;
    s->text_scale = 100;
    s->chain_ms[0] = s->chain_ms[1] = -1;
    {
        /* the language from the locale, as the C library reads it */
        const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
        snprintf(s->lang, sizeof s->lang, "en");
        for (int i = 0; i < 3; ++i) {
            const char *v = getenv(vars[i]);
            if (v && *v) {
                if (strncmp(v, "zh", 2) == 0)
                    snprintf(s->lang, sizeof s->lang, "zh");
                break;
            }
        }
    }
    open_engine(&s->seq, "cpu-seq");
    open_engine(&s->par, "cpu-par");
    /* the best GPU engine here: CUDA, else OpenGL compute */
    open_engine(&s->gpu, "cuda");
    if (!s->gpu.engine) {
        char cuda_why[256];
        const char *colon = strstr(s->gpu.why, "unavailable: ");
        snprintf(cuda_why, sizeof cuda_why, "%s", colon ? colon + 13 : s->gpu.why);
        s->gpu.why[0] = '\0';
        open_engine(&s->gpu, "gl");
        if (s->gpu.engine)
            snprintf(s->gpu.note, sizeof s->gpu.note, "CUDA is not used: %s", cuda_why);
        else {
            char gl_why[256];
            snprintf(gl_why, sizeof gl_why, "%s", s->gpu.why);
            snprintf(s->gpu.why, sizeof s->gpu.why, "no GPU engine: %s; %s", cuda_why, gl_why);
        }
    }
    s->gpu_kernel = ENG_KERNEL_TILED;
    s->gpu_result = s->gpu.engine && eng_can_present(s->gpu.engine) ? ENG_RESULT_INTEROP : ENG_RESULT_BULK;
}

void scene_free(scene *s)
{
    app_player_stop(s);
    if (s->gpu_buffer) { /* the GL context is still current here */
        eng_forget_buffer(s->gpu.engine, s->gpu_buffer);
        rnd_buffer_free(&s->gpu_buffer);
    }
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

/* The filter, border or image changed: the walk starts again, the timings and
 * the GPU result are stale. */
static void settings_changed(scene *s)
{
    conv_params p = params_of(s);
    if (!s->img.luma.px)
        return;
    conv_stepper_init(&s->stepper, &s->img.luma, &p, &s->cpu_out);
    s->cpu_dirty_from = 0;
    s->owed_taps = 0;
    s->timings_stale = true;
    s->seq.measured = s->par.measured = false;
    /* once the GPU has run, its bar and (in the GPU phase) its result follow
     * every change, measured right after the CPU engines */
    if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
    s->gpu.measured = false;
}

/* Makes `img` the image shown, titled `name`, with fresh output planes: the
 * walk starts again at its top-left corner. On failure the image shown stays,
 * `img` is freed, and err_msg() says why. */
static bool adopt_image(scene *s, img_image *img, const char *name)
{
    img_plane cpu, gpu;
    if (!img_plane_alloc(&cpu, img->luma.w, img->luma.h)) {
        img_free(img);
        return false;
    }
    if (!img_plane_alloc(&gpu, img->luma.w, img->luma.h)) {
        img_plane_free(&cpu);
        img_free(img);
        return false;
    }
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
}

bool scene_open_image(scene *s, const char *path)
{
    img_image img;
    const char *slash = strrchr(path, '/');

    if (!img_load(path, &s->opt.limits, &img) || !adopt_image(s, &img, slash ? slash + 1 : path)) {
        snprintf(s->banner, sizeof s->banner, "%s", err_msg());
        fprintf(stderr, "convis: %s\n", err_msg());
        return false;
    }
    s->banner[0] = '\0';
    return true;
}

/* Times an engine on the whole image: as many runs as fit in the budget
 * (1 to 9), the median of each phase. With gl_buffer, the runs present into
 * it (eng_present) instead of returning the result to the host. */
static void measure_engine(scene_engine *e, const eng_job *job, unsigned gl_buffer)
{
    eng_timing first;
    double total;
    int reps;
    bool ok;
    e->measured = false;
    if (!e->engine)
        return;
    ok = gl_buffer ? eng_present(e->engine, job, gl_buffer, &first) : eng_run(e->engine, job, &first);
    if (!ok) {
        snprintf(e->why, sizeof e->why, "%s", err_msg());
        return;
    }
    total = eng_total_ms(&first);
    reps = total > 0 ? (int)(TIMING_BUDGET_MS / total) : 9;
    reps = reps < 1 ? 1 : reps > 9 ? 9 : reps;
    ok = gl_buffer ? eng_measure_present(e->engine, job, gl_buffer, reps, &e->timing)
                   : eng_measure(e->engine, job, reps, &e->timing);
    if (!ok) {
        snprintf(e->why, sizeof e->why, "%s", err_msg());
        return;
    }
    e->why[0] = '\0';
    e->measured = true;
}

static bool measure_gpu(scene *s);

void scene_measure(scene *s)
{
    img_plane scratch;
    eng_job job;
    if (!s->img.luma.px)
        return;
    if (s->timings_stale) {
        /* the CPU engines write into a scratch plane: the walk's own output
         * must only show what the walk has done */
        if (!img_plane_alloc(&scratch, s->img.luma.w, s->img.luma.h)) {
            snprintf(s->banner, sizeof s->banner, "%s", err_msg());
            s->timings_stale = false;
            return;
        }
        job = (eng_job){&s->img.luma, &scratch, params_of(s)};
        measure_engine(&s->seq, &job, 0);
        measure_engine(&s->par, &job, 0);
        img_plane_free(&scratch);
        s->timings_stale = false;
    }
    if (s->gpu_stale) {
        s->gpu_stale = false;
        measure_gpu(s);
    }
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
    if (x < s->view_x || x >= s->view_x + n || y < s->view_y || y >= s->view_y + n) {
        s->view_x = x - x % n;
        s->view_y = y - y % n;
        scene_pan(s, 0, 0); /* clamp */
    }
}

void scene_update(scene *s, double now_ms, double dt_ms)
{
    long taps;
    (void)now_ms;
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

bool scene_animating(const scene *s, double now_ms)
{
    return (s->playing && s->phase == SCENE_PHASE_CPU) ||
           (s->phase == SCENE_PHASE_GPU && now_ms - s->gpu_shown_at < GPU_PULSE_MS) ||
           (s->notice[0] && now_ms - s->notice_at < 4000);
}

/* ---- actions ------------------------------------------------------------ */

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
    if (conv_stepper_done(&s->stepper))
        conv_stepper_restart(&s->stepper), s->cpu_dirty_from = 0;
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
    if (s->cpu_dirty_from > s->stepper.index)
        s->cpu_dirty_from = s->stepper.index;
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
    s->cpu_dirty_from = 0;
    follow_stepper(s);
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
    if (s->gpu_result == ENG_RESULT_INTEROP && eng_can_present(s->gpu.engine)) {
        gpu_options(s, ENG_RESULT_BULK);
        if (!eng_run(s->gpu.engine, &job, &unused)) {
            snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
            goto failed;
        }
        if (s->gpu_buffer && s->gpu_buffer_bytes != bytes) { /* the engine lets go first */
            eng_forget_buffer(s->gpu.engine, s->gpu_buffer);
            rnd_buffer_free(&s->gpu_buffer);
        }
        if (!rnd_buffer_ensure(&s->gpu_buffer, bytes)) {
            snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
            goto failed;
        }
        s->gpu_buffer_bytes = bytes;
        gpu_options(s, ENG_RESULT_INTEROP);
        job.out = NULL;
        measure_engine(&s->gpu, &job, s->gpu_buffer);
        s->gpu_presented = s->gpu.measured;
    } else {
        gpu_options(s, s->gpu_result == ENG_RESULT_INTEROP ? ENG_RESULT_BULK : s->gpu_result);
        measure_engine(&s->gpu, &job, 0);
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
    bool present = s->gpu.engine && eng_can_present(s->gpu.engine);
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

void scene_launch_gpu(scene *s)
{
    if (!s->img.luma.px)
        return;
    s->playing = false;
    s->gpu_stale = false;
    if (!measure_gpu(s))
        return;
    s->phase = SCENE_PHASE_GPU;
    s->gpu_shown_at = tim_now_ms();
}

void scene_toggle_threads(scene *s)
{
    s->thread_view = !s->thread_view;
}

void scene_select_preset(scene *s, int index)
{
    if (index < 0 || (size_t)index >= filt_preset_count())
        return;
    s->preset = index;
    s->opt.kernel = *filt_preset((size_t)index);
    s->edit_tap = -1;
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
    s->cpu_dirty_from = 0; /* the thumbnail's grey levels change */
}

void scene_pan(scene *s, int dx, int dy)
{
    int w = s->img.luma.w, h = s->img.luma.h, n = s->view_cells;
    s->view_x += dx;
    s->view_y += dy;
    if (s->view_x > w - n)
        s->view_x = w - n;
    if (s->view_y > h - n)
        s->view_y = h - n;
    if (s->view_x < 0)
        s->view_x = 0;
    if (s->view_y < 0)
        s->view_y = 0;
}

void scene_center_on(scene *s, int x, int y)
{
    s->view_x = x - s->view_cells / 2;
    s->view_y = y - s->view_cells / 2;
    scene_pan(s, 0, 0);
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

void scene_toggle_help(scene *s)
{
    s->help = !s->help;
}

void scene_toggle_menu(scene *s)
{
    s->menu = !s->menu;
    if (s->menu) {
        s->lesson_count = app_lesson_list(s->lang, s->lessons, APP_MAX_LESSONS);
        s->help = false;
    }
}

void scene_pick_lesson(scene *s, int i)
{
    if (i < 0 || i >= s->lesson_count)
        return;
    s->menu = false;
    app_player_start(s, s->lessons[i].path);
}

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

void scene_sweep(scene *s)
{
    scene_engine *e[3] = {&s->seq, &s->par, &s->gpu};
    int n = 4;
    if (!s->img.luma.px)
        return;
    s->playing = false;
    if (s->gpu.engine)
        gpu_options(s, ENG_RESULT_BULK); /* the sweep's GPU times include copying the result back */
    s->sweep.count = 0;
    for (int i = 0; i < SCENE_SWEEP_SIZES; ++i, n *= 4) {
        img_plane in, out;
        eng_job job;
        s->sweep.size[i] = n;
        for (int k = 0; k < 3; ++k)
            s->sweep.ms[k][i] = -1;
        if (!scaled_square(s, n, &in))
            break;
        if (!img_plane_alloc(&out, n, n)) {
            img_plane_free(&in);
            break;
        }
        job = (eng_job){&in, &out, params_of(s)};
        for (int k = 0; k < 3; ++k) {
            scene_engine probe = *e[k]; /* the engines' own figures stay for the image shown */
            measure_engine(&probe, &job, 0);
            if (probe.measured)
                s->sweep.ms[k][i] = eng_total_ms(&probe.timing);
        }
        img_plane_free(&in);
        img_plane_free(&out);
        s->sweep.count = i + 1;
    }
    s->sweep.shown = true;
    if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true; /* the GPU's switches went back to bulk: measure what is shown again */
}

void scene_apply_again(scene *s)
{
    img_plane out;
    img_image next;
    eng_job job;
    eng_timing t;
    char name[256], title[300];
    if (!s->img.luma.px || !s->par.engine)
        return;
    if (!img_plane_alloc(&out, s->img.luma.w, s->img.luma.h))
        return;
    job = (eng_job){&s->img.luma, &out, params_of(s)};
    if (!eng_run(s->par.engine, &job, &t) || !img_from_plane(&out, &next)) {
        snprintf(s->banner, sizeof s->banner, "cannot apply the filter again: %s", err_msg());
        img_plane_free(&out);
        return;
    }
    img_plane_free(&out);
    {
        /* the new input replaces the old; the title counts the passes */
        int passes = s->passes + 1;
        char *after;
        snprintf(name, sizeof name, "%s", s->image_name);
        if ((after = strstr(name, " after ")))
            *after = '\0';
        snprintf(title, sizeof title, "%s after %d pass%s", name, passes, passes == 1 ? "" : "es");
        if (!adopt_image(s, &next, title)) {
            snprintf(s->banner, sizeof s->banner, "cannot apply the filter again: %s", err_msg());
            return;
        }
        s->passes = passes;
    }
}

/* Times `n` passes of engine e on a tiny image, each pass reading the one
 * before; the host starts every pass and gets its result back, as a program
 * that loops over the steps does. */
static double chain_time(scene_engine *e, const img_plane *start, const conv_params *p, int n)
{
    img_plane a, b;
    eng_job job;
    eng_timing t;
    double t0, ms = -1;
    if (!e->engine || !img_plane_alloc(&a, start->w, start->h))
        return -1;
    if (!img_plane_alloc(&b, start->w, start->h)) {
        img_plane_free(&a);
        return -1;
    }
    memcpy(a.px, start->px, sizeof(float) * (size_t)start->w * start->h);
    job = (eng_job){&a, &b, *p};
    if (!eng_run(e->engine, &job, &t)) /* warm-up */
        goto done;
    t0 = tim_now_ms();
    for (int i = 0; i < n; ++i) {
        job.in = i % 2 ? &b : &a;
        job.out = i % 2 ? &a : &b;
        if (!eng_run(e->engine, &job, &t))
            goto done;
    }
    ms = tim_now_ms() - t0;
done:
    img_plane_free(&a);
    img_plane_free(&b);
    return ms;
}

void scene_chain(scene *s)
{
    img_plane tiny;
    conv_params p;
    if (!s->img.luma.px || !scaled_square(s, 4, &tiny))
        return;
    p = params_of(s);
    if (s->gpu.engine)
        gpu_options(s, ENG_RESULT_BULK);
    s->chain_length = SCENE_CHAIN_LENGTH;
    s->chain_ms[0] = chain_time(&s->seq, &tiny, &p, SCENE_CHAIN_LENGTH);
    s->chain_ms[1] = chain_time(&s->gpu, &tiny, &p, SCENE_CHAIN_LENGTH);
    img_plane_free(&tiny);
    if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
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
        snprintf(s->banner, sizeof s->banner, "%s", err_msg());
        return;
    }
    if (!img_from_plane(&big, &img)) {
        img_plane_free(&big);
        snprintf(s->banner, sizeof s->banner, "%s", err_msg());
        return;
    }
    img_plane_free(&big);
    snprintf(msg, sizeof msg, "a %d\xC3\x97%d test image", side, side);
    if (!adopt_image(s, &img, msg))
        snprintf(s->banner, sizeof s->banner, "%s", err_msg());
}

void scene_next_gpu_engine(scene *s)
{
    const char *other = strcmp(s->gpu.name, "cuda") == 0 ? "gl" : "cuda";
    scene_engine next;
    char msg[400];
    memset(&next, 0, sizeof next);
    open_engine(&next, other);
    if (!next.engine) {
        snprintf(msg, sizeof msg, "the %s engine cannot run here: %s", other, next.why);
        scene_notice(s, msg);
        return;
    }
    if (s->gpu.engine) {
        if (s->gpu_buffer) /* the old engine lets go of the GL buffer first */
            eng_forget_buffer(s->gpu.engine, s->gpu_buffer);
        eng_close(s->gpu.engine);
    }
    s->gpu = next;
    s->gpu_device_known = false;
    s->gpu_presented = false;
    if (s->gpu_result == ENG_RESULT_INTEROP && !eng_can_present(s->gpu.engine))
        s->gpu_result = ENG_RESULT_BULK;
    if (s->gpu_result == ENG_RESULT_PER_PIXEL && !eng_has_options(eng_class_of(s->gpu.engine)))
        s->gpu_result = ENG_RESULT_BULK;
    if (s->phase == SCENE_PHASE_GPU)
        s->gpu_stale = true;
    snprintf(msg, sizeof msg, "the GPU phase now runs on %s", eng_description(s->gpu.engine));
    scene_notice(s, msg);
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

void scene_toggle_blank(scene *s)
{
    s->blank = !s->blank;
}

void scene_next_text_scale(scene *s)
{
    static const int scales[] = {100, 125, 150, 200};
    int i = 0;
    while (i < 4 && scales[i] != s->text_scale)
        ++i;
    s->text_scale = scales[(i + 1) % 4];
}

void scene_hover(scene *s, bool over, int x, int y)
{
    if (s->pinned)
        return;
    s->hovering = over;
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

void scene_begin_edit(scene *s, int tap)
{
    s->edit_tap = tap;
    s->edit_text[0] = '\0';
}

void scene_edit_key(scene *s, int key)
{
    size_t n = strlen(s->edit_text);
    if (s->edit_tap < 0)
        return;
    if ((key >= '0' && key <= '9') || key == '-' || key == '.') {
        if (n + 1 < sizeof s->edit_text) {
            s->edit_text[n] = (char)key;
            s->edit_text[n + 1] = '\0';
        }
    } else if (key == '\b') {
        if (n)
            s->edit_text[n - 1] = '\0';
    } else if (key == '\r' || key == '\t') {
        char *end;
        float v = strtof(s->edit_text, &end);
        int next = key == '\t' ? (s->edit_tap + 1) % 9 : -1;
        if (n && !*end && isfinite(v))
            scene_set_weight(s, s->edit_tap, v);
        else if (n)
            scene_notice(s, "a kernel value must be a number such as -2, 0.5 or 4");
        s->edit_tap = -1;
        if (next >= 0)
            scene_begin_edit(s, next);
    } else if (key == 27) {
        s->edit_tap = -1;
    }
}

void scene_escape(scene *s)
{
    if (s->edit_tap >= 0)
        s->edit_tap = -1;
    else if (s->help)
        s->help = false;
    else if (s->menu)
        s->menu = false;
    else if (s->blank)
        s->blank = false;
    else if (s->pinned)
        s->pinned = false;
    else if (s->banner[0])
        s->banner[0] = '\0';
    else
        s->quit = true;
}

void scene_notice(scene *s, const char *text)
{
    snprintf(s->notice, sizeof s->notice, "%s", text);
    s->notice_at = tim_now_ms();
}

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

int scene_cpu_threads(const scene *s)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN), total = (long)s->img.luma.w * s->img.luma.h;
    if (n < 1)
        n = 1;
    if (n > 256) /* cpu-par's limit */
        n = 256;
    return (int)(n < total ? n : (total > 0 ? total : 1));
}

void scene_block_size(const scene *s, int *bx, int *by)
{
    const eng_launch *l = &s->gpu.timing.launch;
    *bx = l->block_x > 0 ? l->block_x : 16;
    *by = l->block_y > 0 ? l->block_y : 16;
}
