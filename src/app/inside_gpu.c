/* inside_gpu.c - Inside the GPU (inside_gpu.h): one block's life in the
 * tiled kernel, what both kernels ask of the memory (counted), and the
 * missing barrier (simulated, then run on the GPU engine). The only writer
 * of scene.inside. */
#include "scene_feature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conv.h"
#include "core/err.h"
#include "format.h"
#include "i18n.h"

/* Both kernels' traffic on the image, block shape and border shown (a few
 * milliseconds: the edges' blocks one by one). */
static void count(scene *s)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    s->inside.counted =
        s->img.luma.px && kw_count(s->img.luma.w, s->img.luma.h, bdx, bdy, s->opt.border, &s->inside.counts);
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
    if (!s->gpu.eng.engine) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, _("no GPU engine: %s"), s->gpu.eng.why);
        return;
    }
    if (!eng_class_of(s->gpu.eng.engine)->race_demo) {
        snprintf(s->inside.gpu_why, sizeof s->inside.gpu_why, _("%s has no tiled kernel to run without its barrier"),
                 scene_engine_label(&s->gpu.eng));
        return;
    }
    if (scene_needs_tiles(s)) {
        snprintf(
            s->inside.gpu_why, sizeof s->inside.gpu_why,
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
    snprintf(s->inside.gpu_label, sizeof s->inside.gpu_label, "%s", scene_engine_label(&s->gpu.eng));
    job = (eng_job){&s->img.luma, &out, scene_params(s)};
    conv_reference(&s->img.luma, &job.params, &ref);
    before = eng_options_of(s->gpu.eng.engine);
    o = before;
    o.kernel = ENG_KERNEL_TILED;
    o.result = ENG_RESULT_BULK;
    o.no_barrier = true;
    scene_block_dims(s, &o.block_x, &o.block_y);
    if (eng_set_options(s->gpu.eng.engine, &o)) {
        for (int r = 0; r < SCENE_RACE_RUNS; ++r) {
            eng_timing t;
            long long wrong = 0;
            for (long i = 0; i < (long)w * h; ++i)
                out.px[i] = -12345.0f; /* a value no output has */
            if (!eng_run(s->gpu.eng.engine, &job, &t)) {
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
    eng_set_options(s->gpu.eng.engine, &before); /* with the barrier again, as it was */
    ++s->inside.gpu_generation;
    img_plane_free(&ref);
    img_plane_free(&out);
}

bool scene_race_same(const scene *s)
{
    for (int i = 1; i < s->inside.gpu_runs; ++i)
        if (s->inside.gpu_wrong[i] != s->inside.gpu_wrong[0])
            return false;
    return true;
}

void scene_race_summary(const scene *s, char *buf, size_t size)
{
    int runs = s->inside.gpu_runs;
    char count[32], list[SCENE_RACE_RUNS * 32] = "";
    size_t n = 0;
    if (size)
        buf[0] = '\0';
    if (runs == 0)
        return;
    fmt_count(s->inside.gpu_wrong[0], count, sizeof count);
    if (scene_race_same(s) && s->inside.gpu_wrong[0] == 0 && runs == 1)
        snprintf(buf, size, "%s",
                 _("the run got no output wrong: every cell happened to be stored before it was read; still a bug"));
    else if (scene_race_same(s) && s->inside.gpu_wrong[0] == 0)
        snprintf(buf, size,
                 _("none of the %d runs got an output wrong: every cell happened to be stored before it was read; "
                   "still a bug"),
                 runs);
    else if (runs == 1)
        snprintf(buf, size, _("the one run got %s outputs wrong"), count);
    else if (scene_race_same(s))
        snprintf(buf, size,
                 _("each of the %d runs got %s outputs wrong: on this machine the race happened the same way each "
                   "time"),
                 runs, count);
    else {
        for (int i = 0; i < runs && n < sizeof list; ++i) {
            fmt_count(s->inside.gpu_wrong[i], count, sizeof count);
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", count);
        }
        snprintf(buf, size, _("the runs got %s outputs wrong: the count changed with the order the warps ran in"),
                 list);
    }
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
    scene_touch(s);
}

static void block_close(scene *s)
{
    if (s->area == SCENE_AREA_INSIDE)
        scene_show(s, SCENE_AREA_GRIDS);
    scene_touch(s);
}

void scene_block_life(scene *s)
{
    if (!s->img.luma.px)
        return;
    if (s->area != SCENE_AREA_INSIDE) {
        scene_show(s, SCENE_AREA_INSIDE);
        aim(s);
        count(s);
        enter(s, SCENE_BLOCK_LOAD);
    } else if (s->inside.stage < SCENE_BLOCK_NO_BARRIER_GPU) {
        enter(s, s->inside.stage + 1);
    } else {
        block_close(s);
    }
}

void scene_next_block_warp(scene *s)
{
    int bdx, bdy, warps;
    scene_block_dims(s, &bdx, &bdy);
    warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    s->inside.thread = ((s->inside.thread / KW_WARP + 1) % warps) * KW_WARP;
    if (s->inside.thread >= bdx * bdy)
        s->inside.thread = 0;
    scene_touch(s);
}

void scene_block_pick(scene *s, int thread)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    if (thread >= 0 && thread < bdx * bdy) {
        s->inside.thread = thread;
        scene_touch(s);
    }
}

double scene_block_progress(const scene *s)
{
    double length = s->inside.stage == SCENE_BLOCK_LOAD      ? SCENE_BLOCK_LOAD_MS
                    : s->inside.stage == SCENE_BLOCK_COMPUTE ? SCENE_BLOCK_COMPUTE_MS
                                                             : 0.0;
    double t;
    if (length <= 0 || scene_settling(s))
        return 1.0;
    t = (scene_now(s) - s->inside.stage_at) / length;
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* The request (iteration * warps + warp) at which cell (col, row) is
 * stored, and by which thread; -1 for none. From the load loop's own cell
 * function (kw_tile_cell), as kw_count and kw_warp_trace walk it. */
static int cell_request(int bdx, int bdy, int col, int row, int *thread)
{
    int warps = (bdx * bdy + KW_WARP - 1) / KW_WARP, iterations = kw_tile_iterations(bdx, bdy);
    for (int it = 0; it < iterations; ++it) {
        int c0, r0, c, r, tx, ty;
        kw_tile_cell(0, 0, it, bdx, bdy, &c0, &r0); /* where thread 0 stores: the iteration's offset */
        tx = col - c0, ty = row - r0;
        if (tx >= 0 && tx < bdx && ty >= 0 && ty < bdy && kw_tile_cell(tx, ty, it, bdx, bdy, &c, &r) && c == col &&
            r == row) {
            *thread = ty * bdx + tx;
            return it * warps + *thread / KW_WARP;
        }
    }
    *thread = -1;
    return -1;
}

int scene_block_warp_request(const scene *s)
{
    int bdx, bdy, rd, r, cd, c, warps, warp = s->inside.thread / KW_WARP, it;
    scene_block_dims(s, &bdx, &bdy);
    warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    scene_block_loading(s, &rd, &r, &cd, &c);
    it = rd > warp ? (rd - 1 - warp) / warps : 0; /* its last issued, or its first to come */
    return it * warps + warp;
}

bool scene_block_cell_in_request(const scene *s, int col, int row, int request)
{
    int bdx, bdy, thread;
    scene_block_dims(s, &bdx, &bdy);
    return request >= 0 && cell_request(bdx, bdy, col, row, &thread) == request;
}

void scene_block_loading(const scene *s, int *requests_done, int *requests, int *cells_done, int *cells)
{
    int bdx, bdy, warps;
    scene_block_dims(s, &bdx, &bdy);
    warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    *requests = kw_tile_iterations(bdx, bdy) * warps;
    *cells = (bdx + 2) * (bdy + 2);
    *requests_done = s->inside.stage == SCENE_BLOCK_LOAD ? (int)(scene_block_progress(s) * *requests + 0.5) : *requests;
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

/* ---- its row of the feature table ------------------------------------------- */

/* What is drawn of the block follows the image, the border and the block
 * shape: the block of the output looked at, counted again. */
static void changed(scene *s, scene_change what)
{
    if (!scene_change_input(what) && what != SCENE_CHANGE_BLOCK_SHAPE)
        return;
    s->inside.counted = false;
    if (s->area != SCENE_AREA_INSIDE)
        return;
    count(s);
    if (what == SCENE_CHANGE_BLOCK_SHAPE) {
        aim(s);
        enter(s, s->inside.stage);
    }
}

static void free_inside(scene *s)
{
    free(s->inside.gpu_heat);
    s->inside.gpu_heat = NULL;
}

static bool animating(const scene *s, double now)
{
    (void)now;
    return s->area == SCENE_AREA_INSIDE && scene_block_progress(s) < 1.0;
}

static void play_out(scene *s)
{
    s->inside.stage_at = scene_now(s) - 2 * (SCENE_BLOCK_LOAD_MS + SCENE_BLOCK_COMPUTE_MS);
}

/* The counts, as --print-state gives them. */
static void state_counts(const kw_counts *k, FILE *f)
{
    fprintf(f, "count_blocks=%lld\ncount_warps=%lld\ncount_wasted=%lld\n", k->blocks, k->warps, k->wasted);
    fprintf(f, "count_naive_loads_per_output=%.4f\ncount_tiled_loads_per_output=%.4f\n",
            (double)k->naive.loads / (double)k->outputs, (double)k->tiled.loads / (double)k->outputs);
    fprintf(f, "count_naive_sectors_per_request=%.4f\ncount_tiled_sectors_per_request=%.4f\n",
            k->naive.requests ? (double)k->naive.sectors / (double)k->naive.requests : 0.0,
            k->tiled.requests ? (double)k->tiled.sectors / (double)k->tiled.requests : 0.0);
    fprintf(f, "count_naive_bytes=%lld\ncount_tiled_bytes=%lld\ncount_min_bytes=%lld\n", k->naive.sectors * KW_SECTOR,
            k->tiled.sectors * KW_SECTOR, 4 * k->outputs);
    fprintf(f, "count_shared_read_passes=%d\ncount_shared_store_passes=%d\n", k->tiled.worst_read_passes,
            k->tiled.worst_store_passes);
}

/* The block's stage, what its load has stored, the counted traffic of both
 * kernels and the missing barrier. */
static void state(const scene *s, FILE *f)
{
    static const char *const stages[SCENE_BLOCK_STAGES] = {"load", "barrier", "compute", "no-barrier",
                                                           "no-barrier-gpu"};
    int bdx, bdy, rd, r, cd, c;
    scene_block_dims(s, &bdx, &bdy);
    fprintf(f, "inside=%d\nblock_shape=%dx%d\n", s->area == SCENE_AREA_INSIDE, bdx, bdy);
    if (s->area != SCENE_AREA_INSIDE)
        return;
    scene_block_loading(s, &rd, &r, &cd, &c);
    fprintf(f, "block_stage=%s\nblock=%d,%d\nblock_thread=%d\nblock_warp=%d\n", stages[s->inside.stage], s->inside.bx,
            s->inside.by, s->inside.thread, s->inside.thread / KW_WARP);
    fprintf(f, "block_requests=%d/%d\nblock_cells_loaded=%d/%d\nblock_waiting=%d\n", rd, r, cd, c,
            s->inside.stage == SCENE_BLOCK_BARRIER ? bdx * bdy : 0);
    if (s->inside.counted)
        state_counts(&s->inside.counts, f);
    if (s->inside.stage == SCENE_BLOCK_NO_BARRIER)
        fprintf(f, "race_seed=%u\nrace_can=%d\nrace_raced=%d\n", s->inside.race_seed, s->inside.race.can_count,
                s->inside.race.raced_count);
    if (s->inside.stage == SCENE_BLOCK_NO_BARRIER_GPU) {
        fprintf(f, "race_gpu_runs=%d\nrace_gpu_wrong=", s->inside.gpu_runs);
        for (int i = 0; i < s->inside.gpu_runs; ++i)
            fprintf(f, "%s%lld", i ? "," : "", s->inside.gpu_wrong[i]);
        fprintf(f, "\nrace_gpu_why=%s\n", s->inside.gpu_why);
    }
}

const scene_feature scene_inside_feature = {
    .name = "inside",
    .free = free_inside,
    .changed = changed,
    .animating = animating,
    .play_out = play_out,
    .state = state,
};
