/* scene_work.c - the scene's measurements and experiments: timing each
 * engine (the CPU engines on the measuring thread, worker.c; the GPU here),
 * the size sweep and the chain in slices, apply again, the image too big
 * for the GPU, and scene_work, which does the pending part of all of it
 * between frames. Contents: measuring · experiments · work. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "i18n.h"
#include "core/timing.h"
#include "worker.h"

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
    {
        double load[1];
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        s->cpu_load = getloadavg(load, 1) == 1 ? load[0] : -1.0;
        s->cpu_cores = cores > 0 ? (int)cores : 1;
    }
    ++s->updates;
}

bool scene_noisy(const scene *s)
{
    const scene_engine *e[4] = {&s->seq, &s->simd, &s->par, &s->gpu};
    for (int i = 0; i < 4; ++i)
        if (e[i]->measured && e[i]->timing.reps > 2 &&
            eng_total_max(&e[i]->timing) - eng_total_min(&e[i]->timing) > 0.5 * eng_total_ms(&e[i]->timing))
            return true;
    return false;
}

/* Gives the measuring thread a copy of `src` to measure engine `e` on;
 * false when it is busy or there is no room (then nothing was given). */
static bool cpu_job(scene *s, eng_engine *e, const img_plane *src, double budget_ms, int tag)
{
    img_plane copy;
    if (!img_plane_alloc(&copy, src->w, src->h))
        return false;
    memcpy(copy.px, src->px, sizeof(float) * (size_t)src->w * (size_t)src->h);
    if (!worker_submit(s->worker, e, &copy, scene_params(s), budget_ms, tag, s->measure_gen)) {
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
        if (cpu_job(s, e == &s->seq ? s->wseq : e == &s->simd ? s->wsimd : s->wpar, &s->img.luma, TIMING_BUDGET_MS,
                    e == &s->seq ? TAG_SEQ : e == &s->simd ? TAG_SIMD : TAG_PAR))
            return;
        if (e == &s->seq) /* not given: again at the next slice */
            s->seq_stale = true;
        else
            *(e == &s->simd ? &s->simd_stale : &s->par_stale) = true;
        return;
    }
    if (!img_plane_alloc(&scratch, s->img.luma.w, s->img.luma.h)) {
        scene_say_error(s, err_msg());
        return;
    }
    job = (eng_job){&s->img.luma, &scratch, scene_params(s)};
    measure_engine(e, &job, 0, TIMING_BUDGET_MS);
    img_plane_free(&scratch);
    if (e == &s->par && e->measured)
        s->cpu_bands = e->timing.launch.bands;
    ++s->updates;
}

void scene_gpu_options(scene *s, eng_result r)
{
    eng_options o = eng_options_of(s->gpu.engine);
    o.kernel = s->gpu_kernel;
    o.no_barrier = false; /* only ever for the race shown inside the GPU (scene_inside.c) */
    o.result = r;
    scene_block_dims(s, &o.block_x, &o.block_y); /* CUDA's block shape (J); GL's work groups are fixed */
    o.per_pixel_budget_ms = PER_PIXEL_BUDGET_MS;
    eng_set_options(s->gpu.engine, &o);
}

/* Runs the GPU engine on the whole image and measures it, on the result path
 * chosen. The interop path computes into a GL buffer that the window shows
 * as it is; the grids' numbers come from one more run, to the host, that
 * the chart does not count. */
bool scene_measure_gpu(scene *s)
{
    eng_job job = {&s->img.luma, &s->gpu_out, scene_params(s)};
    size_t bytes = (size_t)s->img.luma.w * (size_t)s->img.luma.h * sizeof(float);
    eng_timing unused;

    if (!s->gpu.engine) {
        scene_notice(s, s->gpu.why);
        return false;
    }
    if (scene_needs_tiles(s))
        return scene_tiles_start(s); /* tile by tile, in slices (scene_work) */
    scene_tiles_end(s);
    s->gpu_presented = false;
    if (s->gpu_result == ENG_RESULT_INTEROP && eng_can_present(s->gpu.engine) && s->host.buffer_ensure) {
        scene_gpu_options(s, ENG_RESULT_BULK);
        if (!eng_run(s->gpu.engine, &job, &unused)) {
            snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
            goto failed;
        }
        if (s->gpu_buffer && s->gpu_buffer_bytes != bytes)
            scene_free_buffer(s); /* the engine lets go first */
        if (!s->host.buffer_ensure(s->host.user, &s->gpu_buffer, bytes)) {
            snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
            goto failed;
        }
        s->gpu_buffer_bytes = bytes;
        scene_gpu_options(s, ENG_RESULT_INTEROP);
        job.out = NULL;
        measure_engine(&s->gpu, &job, s->gpu_buffer, TIMING_BUDGET_MS);
        s->gpu_presented = s->gpu.measured;
    } else {
        scene_gpu_options(s, s->gpu_result == ENG_RESULT_INTEROP ? ENG_RESULT_BULK : s->gpu_result);
        measure_engine(&s->gpu, &job, 0, TIMING_BUDGET_MS);
    }
    if (!s->gpu.measured)
        goto failed;
    ++s->gpu_runs;
    s->gpu_device_known = eng_device(s->gpu.engine, &s->gpu_device);
    scene_gpu_succeeded(s);
    return true;
failed:
    s->gpu.measured = false;
    snprintf(s->banner, sizeof s->banner, _("the GPU phase failed: %s"), s->gpu.why);
    s->banner_gpu = true;
    s->phase = SCENE_PHASE_CPU;
    return false;
}

void scene_gpu_succeeded(scene *s)
{
    if (s->banner_gpu) /* what it said failed has now worked */
        s->banner[0] = '\0';
    s->banner_gpu = false;
}

/* ---- experiments ---------------------------------------------------------------- */

/* The current image scaled to n x n (nearest pixel), as a plane. */
/* A figure of the sweep: engine k at size i. */
static void sweep_took(scene *s, int k, int i, const eng_timing *t)
{
    s->sweep.ms[k][i] = eng_total_ms(t);
    s->sweep.lo[k][i] = eng_total_min(t);
    s->sweep.hi[k][i] = eng_total_max(t);
    s->sweep.reps[k][i] = t->reps;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        s->sweep.phase[k][i][p] = t->has[p] ? t->ms[p] : -1.0;
}

void scene_task_start(scene *s, scene_task_kind kind, int total)
{
    scene_tiles_abort(s); /* tiles under way give way to other work */
    scene_task_end(s);
    s->task.kind = kind;
    s->task.total = total;
    s->playing = false;
}

void scene_task_end(scene *s)
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
    if (s->area == SCENE_AREA_SWEEP && s->task.kind != SCENE_TASK_SWEEP) {
        scene_show(s, SCENE_AREA_GRIDS); /* W again hides the chart */
        return;
    }
    if (!s->img.luma.px || s->task.kind == SCENE_TASK_SWEEP)
        return;
    scene_task_start(s, SCENE_TASK_SWEEP, SCENE_SWEEP_SIZES * 3);
    s->sweep.count = 0;
    scene_show(s, SCENE_AREA_SWEEP);
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
        scene_task_end(s);
        return;
    }
    if (!img_plane_scaled(&s->img.luma, n, n, &in)) {
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
        scene_gpu_options(s, ENG_RESULT_BULK); /* the sweep's GPU times include copying the result back */
    if (img_plane_alloc(&out, n, n)) {
        eng_job job = {&in, &out, scene_params(s)};
        scene_engine probe = *e[t->k]; /* the engines' own figures stay for the image shown */
        measure_engine(&probe, &job, 0, SWEEP_BUDGET_MS);
        if (probe.measured)
            sweep_took(s, t->k, t->i, &probe.timing);
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
        scene_task_end(s);
}

void scene_chain(scene *s)
{
    if (s->chart == SCENE_CHART_CHAIN && s->task.kind != SCENE_TASK_CHAIN) {
        scene_show_chart(s, SCENE_CHART_TIMING); /* X again hides the panel */
        return;
    }
    if (!s->img.luma.px || s->task.kind == SCENE_TASK_CHAIN)
        return;
    scene_task_start(s, SCENE_TASK_CHAIN, 2 * SCENE_CHAIN_LENGTH);
    if (!img_plane_scaled(&s->img.luma, 4, 4, &s->task.a) || !img_plane_alloc(&s->task.b, 4, 4)) {
        scene_say_error(s, err_msg());
        scene_task_end(s);
        return;
    }
    s->chain.length = SCENE_CHAIN_LENGTH;
    s->chain.ms[0] = s->chain.ms[1] = -1;
    scene_show_chart(s, SCENE_CHART_CHAIN);
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
    conv_params p = scene_params(s);
    double start = tim_now_ms(), t0;
    bool ok = e->engine != NULL;

    if (ok && t->k == 1)
        scene_gpu_options(s, ENG_RESULT_BULK);
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
        scene_task_end(s);
        return;
    }
    t->k = 1;
    t->pass = -1;
    t->ms = 0;
    t->done = SCENE_CHAIN_LENGTH;
    img_plane_free(&t->a); /* the GPU starts from the image too */
    if (!img_plane_scaled(&s->img.luma, 4, 4, &t->a)) {
        scene_say_error(s, err_msg());
        scene_task_end(s);
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
    job = (eng_job){&s->img.luma, &out, scene_params(s)};
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
    snprintf(msg, sizeof msg, _("cannot apply the filter again: %s"), err_msg());
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

/* The side of the smallest square just over what the GPU can hold; 0
 * when that is not known (no GPU run yet). */
static int too_big_side(const scene *s)
{
    long long most = scene_gpu_max_pixels(s);
    int side;
    if (most < 0)
        return 0;
    side = (int)sqrt((double)most);
    while ((long long)side * side <= most)
        ++side;
    return side;
}

long long scene_too_big_pixels(const scene *s)
{
    long long side = too_big_side(s);
    if (side == 0)
        return s->opt.limits.max_pixels; /* not known yet: at most convis's own limit */
    if (side * side > s->opt.limits.max_pixels || side > s->opt.limits.max_side)
        return 0;
    return side * side;
}

void scene_too_big(scene *s)
{
    long long limit = s->opt.limits.max_pixels;
    int side = too_big_side(s);
    img_plane big;
    img_image img;
    char msg[256];
    if (!s->img.luma.px)
        return;
    if (side == 0) {
        scene_notice(s, _("launch the GPU phase first (G): how much it can hold is read from it"));
        return;
    }
    if ((long long)side * side > limit || side > s->opt.limits.max_side) {
        snprintf(msg, sizeof msg,
                 _("an image too large for this GPU (%d×%d) is over convis's own limit of %lld pixels: every image "
                   "convis opens fits here"),
                 side, side, limit);
        scene_notice(s, msg);
        return;
    }
    if (!img_plane_scaled(&s->img.luma, side, side, &big)) {
        scene_say_error(s, err_msg());
        return;
    }
    if (!img_from_plane(&big, &img)) {
        img_plane_free(&big);
        scene_say_error(s, err_msg());
        return;
    }
    img_plane_free(&big);
    snprintf(msg, sizeof msg, _("a %d×%d test image"), side, side);
    /* it opens in the CPU phase, the GPU not yet tried on it: G does that */
    s->phase = SCENE_PHASE_CPU;
    s->gpu.measured = false;
    scene_adopt_image(s, &img, msg);
}

int scene_sweep_crossover(const scene *s)
{
    /* the smallest size from which the GPU is faster at every size measured */
    int from = 0;
    for (int i = s->sweep.count - 1; i >= 0; --i) {
        if (!(s->sweep.ms[2][i] >= 0 && s->sweep.ms[1][i] >= 0 && s->sweep.hi[2][i] < s->sweep.lo[1][i]))
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
    } else if (s->simd_stale) {
        s->simd_stale = false;
        measure_cpu(s, &s->simd);
    } else if (s->par_stale) {
        s->par_stale = false;
        measure_cpu(s, &s->par);
    } else if (s->gpu_stale) {
        s->gpu_stale = false;
        scene_measure_gpu(s);
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
    if (r.tag == TAG_SEQ || r.tag == TAG_SIMD || r.tag == TAG_PAR) {
        took_cpu(s, r.tag == TAG_SEQ ? &s->seq : r.tag == TAG_SIMD ? &s->simd : &s->par, r.ok, &r.timing, r.why);
    } else if (r.tag >= TAG_SWEEP && s->task.kind == SCENE_TASK_SWEEP) {
        int i = (r.tag - TAG_SWEEP) / 3, k = (r.tag - TAG_SWEEP) % 3;
        if (r.ok && i < SCENE_SWEEP_SIZES && k < 3)
            sweep_took(s, k, i, &r.timing);
        ++s->task.done;
        ++s->updates;
    }
}

bool scene_measuring(const scene *s)
{
    return s->worker && worker_busy(s->worker);
}

bool scene_waiting(const scene *s)
{
    if (s->task.kind == SCENE_TASK_TILES && !s->settling && scene_now(s) < s->tiles.next_at)
        return true; /* the next tile waits for its turn on screen */
    return scene_measuring(s);
}

bool scene_work(scene *s, double budget_ms)
{
    double start = tim_now_ms();
    if (!s->img.luma.px) {
        s->seq_stale = s->simd_stale = s->par_stale = s->gpu_stale = false;
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
        case SCENE_TASK_TILES:
            if (!scene_tiles_slice(s))
                return true; /* the next tile's turn on screen has not come */
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
    s->settling = true;
    for (;;) {
        if (scene_waiting(s))
            worker_wait(s->worker);
        if (!scene_work(s, 1e9) && !scene_waiting(s))
            break;
    }
    take_result(s);
    s->settling = false;
}

bool scene_stale(const scene *s)
{
    return s->seq_stale || s->simd_stale || s->par_stale || s->gpu_stale;
}

bool scene_busy(const scene *s)
{
    return s->task.kind != SCENE_TASK_NONE;
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
    if (s->task.kind == SCENE_TASK_TILES) { /* the tiles stop: what they made is not the whole result */
        char msg[128];
        snprintf(msg, sizeof msg, _("stopped after %d of %d tiles"), s->tiles.done, tile_count(&s->tiles.plan));
        scene_notice(s, msg);
        scene_tiles_abort(s);
    }
    scene_task_end(s);
}

