/* scene_tiles.c - memory is finite: the memory budget the learner sets,
 * and the GPU phase in tiles when the image needs more than the budget
 * (compute/tiles.h does the tiling; this file runs it in slices, one tile
 * at a time, so the window draws each tile as it completes). */
#include "scene_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "format.h"
#include "i18n.h"

static const long long budgets[SCENE_BUDGET_COUNT] = {0, 1LL << 20, 4LL << 20, 16LL << 20, 64LL << 20, 256LL << 20};

long long scene_budget_at(int i)
{
    return i >= 0 && i < SCENE_BUDGET_COUNT ? budgets[i] : 0;
}

long long scene_image_bytes(const scene *s)
{
    return s->img.luma.px ? tile_image_bytes(s->img.luma.w, s->img.luma.h) : 0;
}

long long scene_tile_budget(const scene *s)
{
    long long most = scene_gpu_max_pixels(s), b = s->mem_budget;
    if (most > 0 && (b <= 0 || most * 8 < b))
        b = most * 8; /* both buffers of a tile must fit the device too */
    return b;
}

bool scene_needs_tiles(const scene *s)
{
    return s->img.luma.px && s->mem_budget > 0 && scene_image_bytes(s) > scene_tile_budget(s);
}

bool scene_gpu_done_at(const scene *s, int x, int y)
{
    if (!s->tiles.on || s->tiles.done >= tile_count(&s->tiles.plan))
        return true;
    return tile_of(&s->tiles.plan, x, y) < s->tiles.done;
}

void scene_launch_at(const scene *s, int x, int y, int *lx, int *ly, int *tile)
{
    int tx, ty, tw, th;
    *lx = x;
    *ly = y;
    *tile = -1;
    if (!s->tiles.on || s->phase != SCENE_PHASE_GPU || tile_count(&s->tiles.plan) < 1)
        return;
    *tile = tile_of(&s->tiles.plan, x, y);
    tile_rect(&s->tiles.plan, *tile, &tx, &ty, &tw, &th);
    *lx = x - tx + 1; /* the tile's grid starts at its halo */
    *ly = y - ty + 1;
}

void scene_tiles_text(const scene *s, char *buf, size_t size)
{
    snprintf(buf, size, _("%d tiles of %d×%d"), tile_count(&s->tiles.plan),
             s->tiles.plan.tile_w, s->tiles.plan.tile_h);
}

void scene_next_budget(scene *s)
{
    int i = 0;
    while (i < SCENE_BUDGET_COUNT && budgets[i] != s->mem_budget)
        ++i;
    scene_set_budget(s, budgets[(i + 1) % SCENE_BUDGET_COUNT]);
}

void scene_set_budget(scene *s, long long bytes)
{
    char msg[256], b[32], need[32];
    bool rerun = s->gpu.measured || s->phase == SCENE_PHASE_GPU || s->tiles.on;
    if (s->tiles.on)
        scene_tiles_interrupt(s); /* tiles under way stop, to run again under the new budget */
    s->mem_budget = bytes > 0 ? bytes : 0;
    fmt_bytes(s->mem_budget, b, sizeof b);
    fmt_bytes(scene_image_bytes(s), need, sizeof need);
    if (s->mem_budget == 0)
        snprintf(msg, sizeof msg, "%s", _("memory budget off: the GPU may use all the memory it has"));
    else if (scene_needs_tiles(s))
        snprintf(msg, sizeof msg,
                 _("memory budget %s (pretend the GPU has no more): this image needs %s, so the GPU works through it "
                   "in tiles"),
                 b, need);
    else
        snprintf(msg, sizeof msg, _("memory budget %s (pretend the GPU has no more): this image needs %s and fits"), b,
                 need);
    scene_notice(s, msg);
    if (rerun)
        s->gpu_stale = true; /* the GPU phase again, under the new budget */
    if (!scene_needs_tiles(s))
        scene_tiles_end(s);
}

void scene_tiles_abort(scene *s)
{
    if (s->task.kind != SCENE_TASK_TILES)
        return;
    scene_task_end(s);
    scene_tiles_end(s);
    s->phase = SCENE_PHASE_CPU;
}

void scene_tiles_interrupt(scene *s)
{
    if (s->task.kind == SCENE_TASK_TILES)
        scene_task_end(s);
    s->tiles.done = 0;
}

void scene_tiles_end(scene *s)
{
    img_plane_free(&s->tiles.up);
    img_plane_free(&s->tiles.down);
    s->tiles.on = false;
    s->tiles.done = 0;
}

bool scene_tiles_start(scene *s)
{
    tile_plan plan;
    if (!tile_plan_make(s->img.luma.w, s->img.luma.h, scene_tile_budget(s), &plan)) {
        scene_tiles_end(s); /* no plan: nothing of an older one stays */
        snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
        snprintf(s->banner, sizeof s->banner, _("the GPU phase cannot run in tiles: %s"), s->gpu.why);
        s->banner_gpu = true;
        s->gpu.measured = false;
        s->phase = SCENE_PHASE_CPU;
        return false;
    }
    /* what the engine held for the whole image goes: under the budget it
     * holds one tile's buffers, and the result reaches the screen through
     * the host */
    scene_free_buffer(s);
    eng_trim(s->gpu.engine);
    scene_gpu_options(s, ENG_RESULT_BULK);
    scene_task_start(s, SCENE_TASK_TILES, tile_count(&plan));
    s->tiles.on = true;
    s->tiles.plan = plan;
    s->tiles.done = 0;
    memset(&s->tiles.sum, 0, sizeof s->tiles.sum);
    s->tiles.next_at = scene_now(s);
    memset(s->gpu_out.px, 0, sizeof(float) * (size_t)s->gpu_out.w * (size_t)s->gpu_out.h);
    s->gpu.measured = false;
    s->gpu_presented = false;
    ++s->gpu_runs; /* the view shows the empty result, then each tile */
    ++s->updates;
    return true;
}

bool scene_tiles_slice(scene *s)
{
    eng_job job = {&s->img.luma, &s->gpu_out, scene_params(s)};
    int n = tile_count(&s->tiles.plan), i = s->tiles.done;
    double pace = SCENE_TILE_PACE_MS / n;
    eng_timing t;
    if (!s->settling && scene_now(s) < s->tiles.next_at)
        return false;
    if (pace < SCENE_TILE_MIN_PACE_MS) /* one tile a frame at least: each is seen as it completes */
        pace = SCENE_TILE_MIN_PACE_MS;
    if (!tile_run(s->gpu.engine, &job, &s->tiles.plan, i, &s->tiles.up, &s->tiles.down, &t)) {
        snprintf(s->gpu.why, sizeof s->gpu.why, "%s", err_msg());
        snprintf(s->banner, sizeof s->banner, _("the GPU phase failed on tile %d of %d: %s"), i + 1, n, s->gpu.why);
        s->banner_gpu = true;
        scene_task_end(s);
        scene_tiles_end(s);
        s->phase = SCENE_PHASE_CPU;
        return true;
    }
    s->tiles.ms[i] = eng_total_ms(&t);
    tile_timing_add(&s->tiles.sum, &t);
    s->tiles.done = ++s->task.done;
    s->tiles.next_at = scene_now(s) + (pace < 400 ? pace : 400);
    ++s->gpu_runs;
    ++s->updates;
    if (s->tiles.done == n) {
        s->gpu.timing = s->tiles.sum;
        s->gpu.timing.total_px = (long long)s->img.luma.w * s->img.luma.h;
        s->gpu.measured = true;
        s->gpu.why[0] = '\0';
        scene_gpu_succeeded(s);
        s->gpu_device_known = eng_device(s->gpu.engine, &s->gpu_device);
        img_plane_free(&s->tiles.up);
        img_plane_free(&s->tiles.down);
        scene_task_end(s);
    }
    return true;
}
