/* gpu_phase.c - the GPU phase (gpu_phase.h): the only writer of scene.gpu.
 * The engine and its switches, a run on the whole image on the result path
 * chosen (a run under a budget it does not fit is gpu_tiles.c's), the
 * device it reported and what follows from it (waves, how much it holds,
 * the image too big for it: gpu_memory.c). Contents: shapes and waves ·
 * runs · the switches · the feature's row. */
#include "scene_feature.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "i18n.h"

#define PER_PIXEL_BUDGET_MS 60.0 /* copies one pixel at a time for this long, then extrapolates */

/* ---- shapes and waves ---------------------------------------------------------- */

static void block_shape(int i, int *bdx, int *bdy)
{
    static const int shapes[SCENE_BLOCK_SHAPES][2] = {{16, 16}, {8, 8}, {32, 8}, {32, 32}, {24, 24}};
    i = i >= 0 && i < SCENE_BLOCK_SHAPES ? i : 0;
    *bdx = shapes[i][0];
    *bdy = shapes[i][1];
}

void scene_block_dims(const scene *s, int *bdx, int *bdy)
{
    block_shape(s->gpu.block_shape, bdx, bdy);
}

void scene_block_size(const scene *s, int *bx, int *by)
{
    const eng_launch *l = &s->gpu.eng.timing.launch;
    *bx = l->block_x > 0 ? l->block_x : ENG_DEFAULT_BLOCK;
    *by = l->block_y > 0 ? l->block_y : ENG_DEFAULT_BLOCK;
}

void scene_gpu_grid(const scene *s, long *gx, long *gy, int *bx, int *by)
{
    const eng_launch *l = &s->gpu.eng.timing.launch;
    scene_block_size(s, bx, by);
    *gx = l->grid_x > 0 ? l->grid_x : (s->img.luma.w + *bx - 1) / *bx;
    *gy = l->grid_y > 0 ? l->grid_y : (s->img.luma.h + *by - 1) / *by;
}

int scene_gpu_waves(const scene *s, long *per_wave)
{
    const eng_device_info *d = &s->gpu.device;
    long gx, gy;
    int bx, by;
    *per_wave = 0;
    if (!s->gpu.device_known || d->compute_units <= 0 || d->blocks_per_unit <= 0 || s->tiles.on)
        return 0;
    scene_gpu_grid(s, &gx, &gy, &bx, &by);
    *per_wave = (long)d->compute_units * d->blocks_per_unit;
    return (int)((gx * gy + *per_wave - 1) / *per_wave);
}

static double wave_ms(int waves)
{
    return waves > 1 ? SCENE_WAVES_MS / waves : 0.0;
}

double scene_gpu_light_at(const scene *s, int x, int y)
{
    long per_wave, gx, gy;
    int bx, by, waves = scene_gpu_waves(s, &per_wave);
    if (waves <= 1)
        return 0.0;
    scene_gpu_grid(s, &gx, &gy, &bx, &by);
    return (double)(((long)(y / by) * gx + x / bx) / per_wave) * wave_ms(waves); /* blocks in order of their index */
}

/* How long the result's lighting lasts: the waves and the pulse. */
static double light_ms(const scene *s)
{
    long per_wave;
    int waves = scene_gpu_waves(s, &per_wave);
    return SCENE_GPU_PULSE_MS + (waves > 1 ? waves * wave_ms(waves) : 0.0);
}

/* ---- runs ---------------------------------------------------------------------- */

/* Lets go of the GL buffer (the engine first). */
static void free_buffer(scene *s)
{
    if (!s->gpu.buffer)
        return;
    if (s->gpu.eng.engine)
        eng_forget_buffer(s->gpu.eng.engine, s->gpu.buffer);
    if (s->host.buffer_free)
        s->host.buffer_free(s->host.user, &s->gpu.buffer);
    s->gpu.buffer = 0;
    s->gpu.buffer_bytes = 0;
}

/* The result path goes back to one this GPU engine has. */
static void clamp_result(scene *s)
{
    eng_engine *e = s->gpu.eng.engine;
    if (s->gpu.result == ENG_RESULT_INTEROP && (!e || !eng_can_present(e)))
        s->gpu.result = ENG_RESULT_BULK;
    if (s->gpu.result == ENG_RESULT_PER_PIXEL && (!e || !eng_has_options(eng_class_of(e))))
        s->gpu.result = ENG_RESULT_BULK;
}

void scene_gpu_options(scene *s, eng_result r)
{
    eng_options o = eng_options_of(s->gpu.eng.engine);
    o.kernel = s->gpu.kernel;
    o.no_barrier = false; /* only ever for the race shown inside the GPU (inside_gpu.c) */
    o.result = r;
    scene_block_dims(s, &o.block_x, &o.block_y); /* CUDA's block shape (J); GL's work groups are fixed */
    o.per_pixel_budget_ms = PER_PIXEL_BUDGET_MS;
    eng_set_options(s->gpu.eng.engine, &o);
}

void scene_gpu_restale(scene *s)
{
    if (s->gpu.eng.measured || s->phase == SCENE_PHASE_GPU)
        s->gpu.stale = true;
}

void scene_gpu_failed(scene *s, const char *why, const char *banner)
{
    char text[sizeof s->banner];
    snprintf(text, sizeof text, "%s", banner);
    if (why != s->gpu.eng.why)
        snprintf(s->gpu.eng.why, sizeof s->gpu.eng.why, "%s", why);
    s->gpu.eng.measured = false;
    scene_say_gpu_error(s, text);
    scene_set_phase(s, SCENE_PHASE_CPU);
}

void scene_gpu_tiles_began(scene *s)
{
    free_buffer(s);
    eng_trim(s->gpu.eng.engine);
    scene_gpu_options(s, ENG_RESULT_BULK);
    s->gpu.eng.measured = false;
    s->gpu.presented = false;
    ++s->gpu.runs; /* the view shows the empty result, then each tile */
}

void scene_gpu_tile_landed(scene *s)
{
    ++s->gpu.runs;
}

void scene_gpu_took(scene *s, const eng_timing *t)
{
    s->gpu.eng.timing = *t;
    s->gpu.eng.measured = true;
    s->gpu.eng.why[0] = '\0';
    scene_clear_gpu_error(s);
    s->gpu.device_known = eng_device(s->gpu.eng.engine, &s->gpu.device);
}

/* The run through the GL buffer: once to the host for the grids' numbers
 * (the chart does not count it), then measured into the buffer the window
 * shows as it is. False with gpu.eng.why. */
static bool run_interop(scene *s, eng_job job, size_t bytes)
{
    eng_timing unused;
    scene_gpu_options(s, ENG_RESULT_BULK);
    if (!eng_run(s->gpu.eng.engine, &job, &unused)) {
        snprintf(s->gpu.eng.why, sizeof s->gpu.eng.why, "%s", err_msg());
        return false;
    }
    if (s->gpu.buffer && s->gpu.buffer_bytes != bytes)
        free_buffer(s); /* the engine lets go first */
    if (!s->host.buffer_ensure(s->host.user, &s->gpu.buffer, bytes)) {
        snprintf(s->gpu.eng.why, sizeof s->gpu.eng.why, "%s", err_msg());
        return false;
    }
    s->gpu.buffer_bytes = bytes;
    scene_gpu_options(s, ENG_RESULT_INTEROP);
    job.out = NULL;
    scene_engine_measure(&s->gpu.eng, &job, s->gpu.buffer, TIMING_BUDGET_MS);
    s->gpu.presented = s->gpu.eng.measured;
    return s->gpu.eng.measured;
}

/* Runs and measures the GPU engine on the whole image, on the result path
 * chosen (in tiles under a budget it does not fit: gpu_tiles.c); on
 * failure the banner says why and the CPU phase stays. */
static bool measure_gpu(scene *s)
{
    eng_job job = {&s->img.luma, &s->gpu_out, scene_params(s)};
    size_t bytes = (size_t)s->img.luma.w * (size_t)s->img.luma.h * sizeof(float);
    char banner[sizeof s->banner], why[sizeof s->gpu.eng.why];
    bool ok;

    if (!s->gpu.eng.engine) {
        snprintf(banner, sizeof banner, _("no GPU engine here: %s"), s->gpu.eng.why);
        scene_notice(s, banner);
        return false;
    }
    if (scene_needs_tiles(s))
        return scene_tiles_start(s); /* tile by tile, in slices */
    scene_tiles_end(s);
    s->gpu.unfit_w = s->gpu.unfit_h = 0;
    if (!scene_gpu_fits(s, why, sizeof why)) { /* refused before it runs: the sizes, not the driver's error */
        snprintf(banner, sizeof banner, _("the GPU phase did not run: %s"), why);
        scene_gpu_failed(s, why, banner);
        s->gpu.unfit_w = s->img.luma.w, s->gpu.unfit_h = s->img.luma.h;
        return false;
    }
    s->gpu.presented = false;
    if (s->gpu.result == ENG_RESULT_INTEROP && eng_can_present(s->gpu.eng.engine) && s->host.buffer_ensure) {
        ok = run_interop(s, job, bytes);
    } else {
        scene_gpu_options(s, s->gpu.result == ENG_RESULT_INTEROP ? ENG_RESULT_BULK : s->gpu.result);
        scene_engine_measure(&s->gpu.eng, &job, 0, TIMING_BUDGET_MS);
        ok = s->gpu.eng.measured;
    }
    if (!ok) {
        snprintf(banner, sizeof banner, _("the GPU phase failed: %s"), s->gpu.eng.why);
        scene_gpu_failed(s, s->gpu.eng.why, banner);
        return false;
    }
    ++s->gpu.runs;
    s->gpu.whole = s->gpu.eng.timing; /* what a later run in tiles is compared with */
    s->gpu.whole_known = true;
    s->gpu.device_known = eng_device(s->gpu.eng.engine, &s->gpu.device);
    scene_clear_gpu_error(s);
    return true;
}

void scene_launch_gpu(scene *s)
{
    if (!s->img.luma.px)
        return;
    scene_changed(s, SCENE_CHANGE_LAUNCH);
    s->gpu.stale = false;
    if (!measure_gpu(s))
        return;
    s->gpu.shown_at = scene_now(s);
    scene_set_phase(s, SCENE_PHASE_GPU);
}

/* ---- the switches -------------------------------------------------------------- */

void scene_next_gpu_kernel(scene *s)
{
    s->gpu.whole_known = false;
    if (!s->gpu.eng.engine) {
        scene_notice(s, _("naive and tiled are a GPU engine's two kernels, and this machine has no GPU engine"));
        return;
    }
    if (!eng_has_kernels(eng_class_of(s->gpu.eng.engine))) {
        scene_notice(s, _("naive and tiled are a GPU engine's two kernels; this one has a single kernel"));
        return;
    }
    s->gpu.kernel = s->gpu.kernel == ENG_KERNEL_TILED ? ENG_KERNEL_NAIVE : ENG_KERNEL_TILED;
    scene_gpu_restale(s);
    scene_changed(s, SCENE_CHANGE_GPU);
}

void scene_next_gpu_result(scene *s)
{
    eng_result r = s->gpu.result;
    bool options = s->gpu.eng.engine && eng_has_options(eng_class_of(s->gpu.eng.engine));
    bool present = s->gpu.eng.engine && eng_can_present(s->gpu.eng.engine) && s->host.buffer_ensure;
    if (!s->gpu.eng.engine) {
        scene_notice(s, _("the result's three paths (C) are a GPU engine's, and this machine has no GPU engine"));
        return;
    }
    /* interop -> one bulk copy -> one copy per pixel -> interop, skipping
     * what this engine cannot do */
    for (int i = 0; i < ENG_RESULT_COUNT; ++i) {
        r = r == ENG_RESULT_INTEROP ? ENG_RESULT_BULK
            : r == ENG_RESULT_BULK  ? ENG_RESULT_PER_PIXEL
                                    : ENG_RESULT_INTEROP;
        if (r == ENG_RESULT_PER_PIXEL && !options) {
            scene_notice(s, _("one copy per pixel is a path of the CUDA engine; this GPU engine has the other two"));
            continue;
        }
        if (r == ENG_RESULT_INTEROP && !present)
            continue;
        break;
    }
    s->gpu.result = r;
    scene_gpu_restale(s);
    scene_changed(s, SCENE_CHANGE_GPU);
}

void scene_next_gpu_engine(scene *s)
{
    const char *other = strcmp(s->gpu.eng.name, "cuda") == 0 ? "gl" : "cuda";
    scene_engine next;
    char msg[400];
    s->gpu.whole_known = false;
    scene_open_engine(s, &next, other);
    if (!next.engine) {
        snprintf(msg, sizeof msg, _("the %s engine cannot run here: %s"), other, next.why);
        scene_notice(s, msg);
        return;
    }
    scene_changed(s, SCENE_CHANGE_GPU_ENGINE); /* what runs on the old one stops first */
    if (s->gpu.eng.engine) {
        if (s->gpu.buffer) /* the old engine lets go of the GL buffer first */
            eng_forget_buffer(s->gpu.eng.engine, s->gpu.buffer);
        eng_close(s->gpu.eng.engine);
    }
    s->gpu.eng = next;
    s->gpu.unfit_w = s->gpu.unfit_h = 0; /* refused by the other engine */
    s->gpu.device_known = false;
    s->gpu.presented = false;
    clamp_result(s);
    if (s->phase == SCENE_PHASE_GPU)
        s->gpu.stale = true;
    snprintf(msg, sizeof msg, _("the GPU phase now runs on %s"), eng_description(s->gpu.eng.engine));
    scene_notice(s, msg);
}

void scene_next_block_shape(scene *s)
{
    int bdx, bdy;
    char msg[320];
    s->gpu.whole_known = false;
    s->gpu.block_shape = (s->gpu.block_shape + 1) % SCENE_BLOCK_SHAPES;
    scene_block_dims(s, &bdx, &bdy);
    scene_changed(s, SCENE_CHANGE_BLOCK_SHAPE);
    if (s->gpu.eng.engine && strcmp(eng_class_of(s->gpu.eng.engine)->name, "cuda") == 0) {
        snprintf(msg, sizeof msg, _("blocks of %d×%d threads"), bdx, bdy);
        scene_gpu_restale(s); /* the CUDA engine runs with the new shape: measured again */
    } else {
        snprintf(msg, sizeof msg,
                 _("blocks of %d×%d threads: counted as CUDA would run them; this GPU engine's work groups "
                   "stay 16×16"),
                 bdx, bdy);
    }
    scene_notice(s, msg);
    scene_touch(s);
}

/* ---- its row of the feature table ------------------------------------------- */

/* The best GPU engine here: CUDA, else OpenGL compute, or why neither. */
static void init(scene *s)
{
    scene_engine *g = &s->gpu.eng;
    char cuda_why[sizeof g->why], gl_why[sizeof g->why];
    scene_open_engine(s, g, "cuda");
    if (g->engine)
        return;
    snprintf(cuda_why, sizeof cuda_why, "%s", g->why);
    scene_open_engine(s, g, "gl");
    if (g->engine) {
        snprintf(g->note, sizeof g->note, _("CUDA is not used: %s"), cuda_why);
        return;
    }
    snprintf(gl_why, sizeof gl_why, "%s", g->why);
    /* the why of each; where it is shown, its place says there is no GPU engine */
    snprintf(g->why, sizeof g->why, _("CUDA: %s; OpenGL: %s"), cuda_why, gl_why);
}

static void free_gpu(scene *s)
{
    free_buffer(s); /* the GL context is still current here */
    eng_close(s->gpu.eng.engine);
    s->gpu.eng.engine = NULL;
}

static void reset(scene *s)
{
    s->gpu.kernel = ENG_KERNEL_TILED;
    s->gpu.result = s->gpu.eng.engine && eng_can_present(s->gpu.eng.engine) ? ENG_RESULT_INTEROP : ENG_RESULT_BULK;
    s->gpu.block_shape = 0;
    s->gpu.budget = 0;
    s->gpu.unfit_w = s->gpu.unfit_h = 0;
}

static void keep(const scene *s, scene_stash *st)
{
    st->gpu_kernel = s->gpu.kernel;
    st->gpu_result = s->gpu.result;
    st->gpu_budget = s->gpu.budget;
    st->block_shape = s->gpu.block_shape;
}

static void restore(scene *s, const scene_stash *st)
{
    s->gpu.kernel = st->gpu_kernel;
    s->gpu.result = st->gpu_result;
    s->gpu.budget = st->gpu_budget;
    s->gpu.block_shape = st->block_shape;
    clamp_result(s); /* the lesson may have switched the GPU engine */
}

/* Once the GPU has run, its bar and (in the GPU phase) its result follow
 * every change, measured right after the CPU engines. */
static void changed(scene *s, scene_change what)
{
    bool shown = s->gpu.eng.measured || s->phase == SCENE_PHASE_GPU;
    if (!scene_change_input(what))
        return;
    /* a new image: what was due for the one before is not (it may never
     * have run on it) */
    s->gpu.stale = what == SCENE_CHANGE_IMAGE ? shown : s->gpu.stale || shown;
    s->gpu.eng.measured = false;
    s->gpu.whole_known = false;
}

static bool due(const scene *s)
{
    return s->gpu.stale && s->img.luma.px;
}

static void slice(scene *s, double budget_ms)
{
    (void)budget_ms;
    s->gpu.stale = false;
    measure_gpu(s);
    scene_touch(s);
}

static bool animating(const scene *s, double now)
{
    return s->phase == SCENE_PHASE_GPU && now - s->gpu.shown_at < light_ms(s);
}

static void play_out(scene *s)
{
    s->gpu.shown_at = scene_now(s) - 2 * light_ms(s);
}

static void state(const scene *s, FILE *f)
{
    const scene_engine *g = &s->gpu.eng;
    bool k = g->measured && g->timing.has_kernel;
    fprintf(f, "gpu_engine=%s\ngpu_available=%d\ngpu_measured=%d\n", g->name, g->engine != NULL, g->measured);
    if (g->engine)
        fprintf(f, "gpu_description=%s\n", eng_description(g->engine));
    fprintf(f, "gpu_kernel=%s\ngpu_result=%s\ngpu_presented=%d\ngpu_extrapolated=%d\n", eng_kernel_name(s->gpu.kernel),
            eng_result_name(s->gpu.result), s->gpu.presented, g->measured && g->timing.extrapolated);
    /* the kernel alone, measured apart from the phases (CUDA); -1 and 0 when not */
    fprintf(f, "gpu_kernel_alone_ms=%.4f\ngpu_kernel_launches=%d\ngpu_kernel_one_launch_ms=%.4f\n",
            k ? g->timing.kernel_ms : -1.0, k ? g->timing.kernel_launches : 0, k ? g->timing.kernel_one_ms : -1.0);
    fprintf(f, "gpu_ms=%.4f\n", g->measured ? eng_total_ms(&g->timing) : -1.0);
    if (s->gpu.device_known) {
        const eng_device_info *d = &s->gpu.device;
        fprintf(f, "gpu_device=%s\ngpu_present_path=%s\n", d->name, eng_present_path_name(d->present));
        fprintf(f,
                "gpu_memory_total=%lld\ngpu_memory_free=%lld\ngpu_memory_engine=%lld\ngpu_max_buffer=%lld\n"
                "gpu_subgroup=%d\n",
                d->memory_total, d->memory_free, d->memory_engine, d->max_buffer, d->subgroup);
    }
    fprintf(f, "mem_budget=%lld\nimage_bytes=%lld\n", s->gpu.budget, scene_image_bytes(s));
}

const scene_feature scene_gpu_feature = {
    .name = "gpu",
    .init = init,
    .free = free_gpu,
    .reset = reset,
    .keep = keep,
    .restore = restore,
    .changed = changed,
    .due = due,
    .slice = slice,
    .animating = animating,
    .play_out = play_out,
    .state = state,
};
