/* scene_inside.c - inside the GPU: one block's life in the tiled kernel,
 * the block shape, what the kernels ask of the memory (counted), and the
 * missing barrier (simulated). See scene.h, "inside the GPU". */
#include "scene.h"
#include "scene_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conv.h"
#include "core/err.h"

#include "i18n.h"

static const int shapes[SCENE_BLOCK_SHAPES][2] = {{16, 16}, {8, 8}, {32, 8}, {32, 32}, {24, 24}};

void scene_block_shape(int i, int *bdx, int *bdy)
{
    if (i < 0 || i >= SCENE_BLOCK_SHAPES)
        i = 0;
    *bdx = shapes[i][0];
    *bdy = shapes[i][1];
}

void scene_block_dims(const scene *s, int *bdx, int *bdy)
{
    scene_block_shape(s->inside.shape, bdx, bdy);
}

/* The block of the output looked at (hovered, pinned, or the walk's). */
static void aim(scene *s)
{
    int fx, fy, bdx, bdy;
    bool from_stepper;
    scene_block_dims(s, &bdx, &bdy);
    scene_focus(s, &fx, &fy, &from_stepper);
    s->inside.bx = fx / bdx;
    s->inside.by = fy / bdy;
    s->inside.thread = (fy % bdy) * bdx + fx % bdx;
}

static void run_race(scene *s)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    kw_race_run(bdx, bdy, false, s->inside.race_seed, &s->inside.race);
}

/* The tiled kernel without its barrier on the GPU engine, SCENE_RACE_RUNS
 * times, each result compared with the reference: how many outputs came
 * out wrong in each run, and where (measured, not simulated). */
static void run_gpu_race(scene *s)
{
    int w = s->img.luma.w, h = s->img.luma.h;
    img_plane ref, out;
    eng_options o, before;
    eng_job job;
    s->inside.gpu_runs = 0;
    s->inside.gpu_why[0] = '\0';
    if (!s->gpu.engine) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, "%s", s->gpu.why);
        return;
    }
    if (!eng_class_of(s->gpu.engine)->race_demo) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, _("%s has no tiled kernel to run without its barrier"),
                 scene_engine_label(&s->gpu));
        return;
    }
    if (scene_needs_tiles(s)) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why,
                 _("the image needs tiles under the memory budget; without the barrier it runs whole only (P: no budget)"));
        return;
    }
    if (scene_busy(s)) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, _("other work is under way; try again when it is done"));
        return;
    }
    free(s->inside.gpu_heat);
    s->inside.gpu_heat = calloc((size_t)w * (size_t)h, 1);
    if (!s->inside.gpu_heat || !img_plane_alloc(&ref, w, h)) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, "%s", _("out of memory"));
        return;
    }
    if (!img_plane_alloc(&out, w, h)) {
        img_plane_free(&ref);
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, "%s", _("out of memory"));
        return;
    }
    s->inside.heat_w = w, s->inside.heat_h = h;
    snprintf(s->inside.gpu_label, sizeof s->inside.gpu_label, "%s", scene_engine_label(&s->gpu));
    job = (eng_job){&s->img.luma, &out, scene_params(s)};
    conv_reference(&s->img.luma, &job.params, &ref);
    before = eng_options_of(s->gpu.engine);
    o = before;
    o.kernel = ENG_KERNEL_TILED;
    o.result = ENG_RESULT_BULK;
    o.no_barrier = true;
    scene_block_dims(s, &o.block_x, &o.block_y);
    if (eng_set_options(s->gpu.engine, &o)) {
        for (int r = 0; r < SCENE_RACE_RUNS; ++r) {
            eng_timing t;
            long long wrong = 0;
            for (long i = 0; i < (long)w * h; ++i)
                out.px[i] = -12345.0f; /* a value no output has */
            if (!eng_run(s->gpu.engine, &job, &t)) {
                snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, "%s", err_msg());
                break;
            }
            for (long i = 0; i < (long)w * h; ++i)
                if (!conv_same(out.px[i], ref.px[i])) {
                    ++wrong;
                    ++s->inside.gpu_heat[i];
                }
            s->inside.gpu_wrong[s->inside.gpu_runs++] = wrong;
        }
    } else {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, "%s", err_msg());
    }
    eng_set_options(s->gpu.engine, &before); /* with the barrier again, as it was */
    ++s->inside.gpu_generation;
    img_plane_free(&ref);
    img_plane_free(&out);
}

static void enter(scene *s, int stage)
{
    s->inside.stage = stage;
    s->inside.stage_at = scene_now(s);
    if (stage == SCENE_BLOCK_NO_BARRIER) {
        ++s->inside.race_seed; /* another schedule each time */
        run_race(s);
    }
    if (stage == SCENE_BLOCK_NO_BARRIER_GPU)
        run_gpu_race(s);
    ++s->updates;
}

void scene_block_life(scene *s)
{
    if (!s->img.luma.px)
        return;
    if (s->area != SCENE_AREA_INSIDE) {
        scene_show(s, SCENE_AREA_INSIDE);
        aim(s);
        enter(s, SCENE_BLOCK_LOAD);
    } else if (s->inside.stage < SCENE_BLOCK_NO_BARRIER_GPU) {
        enter(s, s->inside.stage + 1);
    } else {
        scene_block_close(s);
    }
}

void scene_block_close(scene *s)
{
    if (s->area == SCENE_AREA_INSIDE)
        scene_show(s, SCENE_AREA_GRIDS);
    ++s->updates;
}

void scene_next_block_shape(scene *s)
{
    int bdx, bdy;
    s->inside.shape = (s->inside.shape + 1) % SCENE_BLOCK_SHAPES;
    scene_block_dims(s, &bdx, &bdy);
    if (s->area == SCENE_AREA_INSIDE) {
        aim(s);
        enter(s, s->inside.stage);
    }
    if (s->gpu.engine && strcmp(eng_class_of(s->gpu.engine)->name, "cuda") == 0) {
        char msg[160];
        snprintf(msg, sizeof msg, _("blocks of %d×%d threads"), bdx, bdy);
        scene_notice(s, msg);
        if (s->gpu.measured || s->phase == SCENE_PHASE_GPU)
            s->gpu_stale = true; /* the CUDA engine runs with the new shape: measured again */
    } else {
        char msg[320];
        snprintf(msg, sizeof msg,
                 _("blocks of %d×%d threads: counted as CUDA would run them; this GPU engine's work groups "
                   "stay 16×16"),
                 bdx, bdy);
        scene_notice(s, msg);
    }
    ++s->updates;
}

void scene_next_block_warp(scene *s)
{
    int bdx, bdy, warps;
    scene_block_dims(s, &bdx, &bdy);
    warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    s->inside.thread = ((s->inside.thread / KW_WARP + 1) % warps) * KW_WARP;
    if (s->inside.thread >= bdx * bdy)
        s->inside.thread = 0;
    ++s->updates;
}

void scene_block_pick(scene *s, int thread)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    if (thread >= 0 && thread < bdx * bdy) {
        s->inside.thread = thread;
        ++s->updates;
    }
}

double scene_block_progress(const scene *s)
{
    double length = s->inside.stage == SCENE_BLOCK_LOAD      ? SCENE_BLOCK_LOAD_MS
                    : s->inside.stage == SCENE_BLOCK_COMPUTE ? SCENE_BLOCK_COMPUTE_MS
                                                             : 0.0;
    double t;
    if (length <= 0 || s->settling)
        return 1.0;
    t = (scene_now(s) - s->inside.stage_at) / length;
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* The request (iteration * warps + warp) at which cell (col, row) is
 * stored, and by which thread; -1 for none. */
static int cell_request(int bdx, int bdy, int col, int row, int *thread)
{
    int warps = (bdx * bdy + KW_WARP - 1) / KW_WARP, iterations = kw_tile_iterations(bdx, bdy);
    for (int it = 0; it < iterations; ++it) {
        /* the cell's thread in this iteration: tx = col - ci*bdx, ty = row - ri*bdy */
        int cols = (bdx + 2 + bdx - 1) / bdx, ci = it % cols, ri = it / cols;
        int tx = col - ci * bdx, ty = row - ri * bdy;
        if (tx >= 0 && tx < bdx && ty >= 0 && ty < bdy) {
            *thread = ty * bdx + tx;
            return it * warps + *thread / KW_WARP;
        }
    }
    *thread = -1;
    return -1;
}

void scene_block_loading(const scene *s, int *requests_done, int *requests, int *cells_done, int *cells)
{
    int bdx, bdy, warps;
    scene_block_dims(s, &bdx, &bdy);
    warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    *requests = kw_tile_iterations(bdx, bdy) * warps;
    *cells = (bdx + 2) * (bdy + 2);
    *requests_done = s->inside.stage == SCENE_BLOCK_LOAD ? (int)(scene_block_progress(s) * *requests + 0.5)
                                                         : *requests;
    *cells_done = 0;
    for (int row = 0; row < bdy + 2; ++row)
        for (int col = 0; col < bdx + 2; ++col) {
            int thread, r = cell_request(bdx, bdy, col, row, &thread);
            *cells_done += r >= 0 && r < *requests_done;
        }
}

bool scene_block_cell_stored(const scene *s, int col, int row, int requests_done, int *thread)
{
    int bdx, bdy, r;
    scene_block_dims(s, &bdx, &bdy);
    r = cell_request(bdx, bdy, col, row, thread);
    return r >= 0 && r < requests_done;
}

/* ---- waves --------------------------------------------------------------------- */

int scene_gpu_waves(const scene *s, long *per_wave)
{
    long gx, gy;
    int bx, by;
    *per_wave = 0;
    if (!s->gpu_device_known || s->gpu_device.compute_units <= 0 || s->gpu_device.blocks_per_unit <= 0 || s->tiles.on)
        return 0;
    scene_gpu_grid(s, &gx, &gy, &bx, &by);
    *per_wave = (long)s->gpu_device.compute_units * s->gpu_device.blocks_per_unit;
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

double scene_gpu_light_ms(const scene *s)
{
    long per_wave;
    int waves = scene_gpu_waves(s, &per_wave);
    return SCENE_GPU_PULSE_MS + (waves > 1 ? waves * wave_ms(waves) : 0.0);
}
