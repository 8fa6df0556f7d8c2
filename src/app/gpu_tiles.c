/* gpu_tiles.c - the GPU phase in tiles (gpu_tiles.h): the only writer of
 * scene.tiles. compute/tiles.h plans and runs a tile; this file runs them
 * one a slice, paced so the window draws each as it completes. */
#include "scene_feature.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "format.h"
#include "i18n.h"

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
    snprintf(buf, size, _("%d tiles of %d×%d"), tile_count(&s->tiles.plan), s->tiles.plan.tile_w, s->tiles.plan.tile_h);
}

void scene_tiles_end(scene *s)
{
    if (scene_task_is(s, SCENE_FEATURE_TILES))
        scene_task_end(s);
    img_plane_free(&s->tiles.up);
    img_plane_free(&s->tiles.down);
    s->tiles.on = false;
    s->tiles.done = 0;
}

bool scene_tiles_start(scene *s)
{
    tile_plan plan;
    char banner[512];
    conv_params p = scene_params(s);
    if (!tile_plan_make(s->img.luma.w, s->img.luma.h, &p, scene_tile_budget(s), &plan)) {
        scene_tiles_end(s); /* no plan: nothing of an older one stays */
        snprintf(banner, sizeof banner, _("the GPU phase cannot run in tiles: %s"), err_msg());
        scene_gpu_failed(s, err_msg(), banner);
        return false;
    }
    /* under the budget the engine holds one tile's buffers, and the result
     * reaches the screen through the host */
    scene_task_start(s, SCENE_FEATURE_TILES, tile_count(&plan));
    scene_gpu_tiles_began(s);
    s->tiles.on = true;
    s->tiles.plan = plan;
    s->tiles.done = 0;
    memset(&s->tiles.sum, 0, sizeof s->tiles.sum);
    s->tiles.next_at = scene_now(s);
    memset(s->gpu_out.px, 0, sizeof(float) * (size_t)s->gpu_out.w * (size_t)s->gpu_out.h);
    scene_touch(s);
    return true;
}

/* ---- its row of the feature table ------------------------------------------- */

/* Runs the next tile, once its turn on screen has come (waiting). */
static void slice(scene *s, double budget_ms)
{
    eng_job job = {&s->img.luma, &s->gpu_out, scene_params(s)};
    int n = tile_count(&s->tiles.plan), i = s->tiles.done;
    double pace = SCENE_TILE_PACE_MS / n;
    eng_timing t;
    (void)budget_ms;
    if (pace < SCENE_TILE_MIN_PACE_MS) /* one tile a frame at least: each is seen as it completes */
        pace = SCENE_TILE_MIN_PACE_MS;
    if (!tile_run(s->gpu.eng.engine, &job, &s->tiles.plan, i, &s->tiles.up, &s->tiles.down, &t)) {
        char banner[512];
        snprintf(banner, sizeof banner, _("the GPU phase failed on tile %d of %d: %s"), i + 1, n, err_msg());
        scene_gpu_failed(s, err_msg(), banner);
        scene_tiles_end(s);
        return;
    }
    s->tiles.ms[i] = eng_total_ms(&t);
    tile_timing_add(&s->tiles.sum, &t);
    scene_task_step(s);
    s->tiles.done = i + 1;
    s->tiles.next_at = scene_now(s) + (pace < 400 ? pace : 400);
    scene_gpu_tile_landed(s);
    if (s->tiles.done == n) {
        eng_timing sum = s->tiles.sum;
        sum.total_px = (long long)s->img.luma.w * s->img.luma.h;
        scene_gpu_took(s, &sum);
        img_plane_free(&s->tiles.up);
        img_plane_free(&s->tiles.down);
        scene_task_end(s);
    }
}

static bool waiting(const scene *s)
{
    return !scene_settling(s) && scene_now(s) < s->tiles.next_at;
}

/* Tiles under way stop and go with the GPU phase (Esc, other long work):
 * no half result stays on screen; Esc says how far they came. */
static void cancel(scene *s, bool asked)
{
    char msg[128];
    snprintf(msg, sizeof msg, _("stopped after %d of %d tiles"), s->tiles.done, tile_count(&s->tiles.plan));
    if (asked)
        scene_notice(s, msg);
    scene_tiles_end(s);
    scene_set_phase(s, SCENE_PHASE_CPU);
}

/* Tiles under way, or shown, are for old settings: none counts as done
 * until they run again (the GPU phase makes its result stale); without a
 * result shown they go. */
static void changed(scene *s, scene_change what)
{
    if (!s->tiles.on || !(scene_change_input(what) || what == SCENE_CHANGE_BUDGET || what == SCENE_CHANGE_GPU_ENGINE))
        return;
    if (scene_change_input(what) && !(s->gpu.eng.measured || s->phase == SCENE_PHASE_GPU)) {
        scene_tiles_end(s);
        return;
    }
    if (scene_task_is(s, SCENE_FEATURE_TILES))
        scene_task_end(s);
    s->tiles.done = 0;
}

static void reset(scene *s)
{
    scene_tiles_end(s);
}

static void state(const scene *s, FILE *f)
{
    fprintf(f, "tiles=%d\ntiles_done=%d\ntile_w=%d\ntile_h=%d\n", s->tiles.on ? tile_count(&s->tiles.plan) : 0,
            s->tiles.on ? s->tiles.done : 0, s->tiles.on ? s->tiles.plan.tile_w : 0,
            s->tiles.on ? s->tiles.plan.tile_h : 0);
}

const scene_feature scene_tiles_feature = {
    .name = "tiles",
    .free = scene_tiles_end,
    .reset = reset,
    .changed = changed,
    .slice = slice,
    .waiting = waiting,
    .cancel = cancel,
    .state = state,
};

void scene_tiles_vs_whole(const scene *s, char *buf, size_t size)
{
    char whole[32], r[32];
    eng_verdict v;
    size_t n;
    if (!s->tiles.on || !s->gpu.eng.measured || !s->gpu.whole_known) {
        snprintf(buf, size, "%s", _("(no run in one piece and one in tiles of this image to compare)"));
        return;
    }
    v = eng_compare_timings(&s->gpu.eng.timing, &s->gpu.whole);
    fmt_ms(eng_total_ms(&s->gpu.whole), whole, sizeof whole);
    fmt_ratio(v.ratio, 1.0, r, sizeof r);
    switch (v.kind) {
    case ENG_FASTER: snprintf(buf, size, _("in tiles it was %s faster than in one piece (%s)"), r, whole); break;
    case ENG_SLOWER: snprintf(buf, size, _("in tiles it was %s slower than in one piece (%s)"), r, whole); break;
    case ENG_SAME: snprintf(buf, size, _("in tiles it took about as long as in one piece (%s)"), whole); break;
    default:
        snprintf(buf, size, _("in tiles and in one piece (%s) it was %s apart, too few runs to tell which was faster"),
                 whole, r);
    }
    n = strlen(buf);
    snprintf(buf + n, size - n, "%s", fmt_runs_note(&v));
}
