/* inside.c - inside the GPU (O): one block of the tiled kernel, its tile
 * drawn cell by cell through its stages (loaded warp request by request,
 * the barrier, the nine reads, the missing barrier simulated), beside one
 * warp's memory instructions and both kernels' traffic on the whole image,
 * counted from the kernels' index functions (compute/kernel_walk.h). Every
 * figure says whether it is counted, simulated or measured. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>

#include "../format.h"

/* Where the block's tile goes and the size of a cell, inside `box`. */
static void tile_box(const scene *s, rect box, rect *tile, float *cell)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    *cell = fminf(box.w / (float)(bdx + 2), box.h / (float)(bdy + 2));
    *tile = (rect){box.x, box.y, *cell * (float)(bdx + 2), *cell * (float)(bdy + 2)};
}

/* The left part of the grids' place, for the tile, below its caption. */
static rect left_box(const view *v)
{
    const layout *L = &v->L;
    float cap = 2.2f * vw_lh(v->small) + 0.4f * L->pad, legend = 2.3f * vw_lh(v->small);
    return (rect){L->sweep.x, L->sweep.y + cap, L->sweep.w * 0.42f, L->sweep.h - cap - legend};
}

int vw_inside_thread_at(const view *v, const scene *s, float x, float y)
{
    rect tile;
    float cell;
    int bdx, bdy, col, row;
    if (!s->inside.shown)
        return -1;
    tile_box(s, left_box(v), &tile, &cell);
    scene_block_dims(s, &bdx, &bdy);
    if (!vw_inside(tile, x, y))
        return -1;
    col = (int)((x - tile.x) / cell) - 1;
    row = (int)((y - tile.y) / cell) - 1;
    return col >= 0 && col < bdx && row >= 0 && row < bdy ? row * bdx + col : -1;
}

static void cell_rect(rect tile, float cell, int col, int row, rnd_color c)
{
    float g = cell > 6 ? 1.0f : 0.0f; /* a hairline between cells where they are large enough */
    rnd_rect(tile.x + (float)col * cell, tile.y + (float)row * cell, cell - g, cell - g, c);
}

static const char *stage_text(int stage)
{
    static const char *const text[SCENE_BLOCK_STAGES] = {
        N_("1. load: each warp copies its share of the tile, with its one-pixel halo, from global memory into "
           "shared memory"),
        N_("2. barrier: every thread waits until the last load of the block is done"),
        N_("3. compute: each thread reads its nine values from the tile (shared memory) and writes one output"),
        N_("without the barrier (simulated): warps run ahead and read tile cells no warp has written yet"),
    };
    return text[stage];
}

/* The tile: its cells coloured by the stage, the warp looked at framed. */
static void draw_tile(const scene *s, rect tile, float cell)
{
    int bdx, bdy, rd, r, cd, c, warp = s->inside.thread / KW_WARP, stage = s->inside.stage;
    double p = scene_block_progress(s);
    scene_block_dims(s, &bdx, &bdy);
    scene_block_loading(s, &rd, &r, &cd, &c);
    rnd_rect(tile.x - 2, tile.y - 2, tile.w + 4, tile.h + 4, PANEL);
    for (int row = 0; row < bdy + 2; ++row)
        for (int col = 0; col < bdx + 2; ++col) {
            int thread;
            bool halo = row == 0 || col == 0 || row == bdy + 1 || col == bdx + 1;
            bool stored = scene_block_cell_stored(s, col, row, rd, &thread);
            bool latest = stage == SCENE_BLOCK_LOAD && stored && !scene_block_cell_stored(s, col, row, rd - 1, &thread);
            rnd_color color = !stored ? BG : halo ? vw_mix(BLUE, BG, 0.55f) : vw_mix(BLUE, BG, 0.2f);
            if (latest)
                color = WINDOW;
            if (!halo) {
                int t = (row - 1) * bdx + (col - 1), tw = t / KW_WARP, warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
                if (stage == SCENE_BLOCK_BARRIER)
                    color = vw_mix(WINDOW, BG, 0.55f);
                else if (stage == SCENE_BLOCK_COMPUTE && (double)tw < p * warps + 1e-9)
                    color = GREEN;
                else if (stage == SCENE_BLOCK_NO_BARRIER && s->inside.race.raced[t])
                    color = vw_mix(WINDOW, BG, 0.15f);
                else if (stage == SCENE_BLOCK_NO_BARRIER && s->inside.race.can_race[t])
                    color = vw_mix(WINDOW, BG, 0.7f);
            }
            cell_rect(tile, cell, col, row, color);
        }
    /* the inner outputs' edge and the halo around them */
    vw_dashed_frame(tile.x, tile.y, tile.w, tile.h, 1, DIM);
    rnd_frame(tile.x + cell, tile.y + cell, cell * (float)bdx, cell * (float)bdy, 1, TEXT);
    /* the warp looked at: its threads (32 in a row of the block's numbering) */
    for (int i = 0; i < KW_WARP; ++i) {
        int t = warp * KW_WARP + i;
        if (t < bdx * bdy)
            rnd_frame(tile.x + (float)(t % bdx + 1) * cell, tile.y + (float)(t / bdx + 1) * cell, cell, cell, 1, WHITE);
    }
    /* the thread looked at: in compute, its nine cells */
    {
        int tx = s->inside.thread % bdx, ty = s->inside.thread / bdx;
        if (stage == SCENE_BLOCK_COMPUTE || stage == SCENE_BLOCK_NO_BARRIER)
            rnd_frame(tile.x + (float)tx * cell - 1, tile.y + (float)ty * cell - 1, 3 * cell + 2, 3 * cell + 2, 2,
                      HOVER);
        rnd_frame(tile.x + (float)(tx + 1) * cell, tile.y + (float)(ty + 1) * cell, cell, cell, 2, HOVER);
    }
}

/* What the tile's colours mean in this stage, under it. */
static void draw_legend(view *v, const scene *s, rect tile)
{
    static const char *const legend[SCENE_BLOCK_STAGES] = {
        N_("blue: stored in the tile · dark: not yet · amber: the last request · the dashed ring: the halo · white: "
           "the warp looked at"),
        N_("amber: threads waiting at the barrier · every cell of the tile stored"),
        N_("green: outputs written · magenta: the nine cells the thread looked at reads"),
        N_("bright amber: read a cell too early in this run · dim: could, in another order"),
    };
    rnd_text_wrapped(v->small, _(legend[s->inside.stage]), tile.x, tile.y + tile.h + 0.3f * v->L.pad,
                     v->L.sweep.w * 0.42f, DIM, true);
}

/* One warp's instructions for the stage shown. */
static float draw_warp(view *v, const scene *s, float x, float y, float w)
{
    int bdx, bdy, warp = s->inside.thread / KW_WARP, n;
    kw_request r[KW_MAX_REQUESTS];
    char line[320];
    float lh = vw_lh(v->small);
    long long naive_sectors = 0;
    int naive_lanes = 0;
    scene_block_dims(s, &bdx, &bdy);
    n = kw_warp_trace(s->img.luma.w, s->img.luma.h, bdx, bdy, s->opt.border, s->inside.bx, s->inside.by, warp, r);
    snprintf(line, sizeof line, _("warp %d: threads %d…%d (32 consecutive, %s); thread %d looked at"), warp,
             warp * KW_WARP, warp * KW_WARP + KW_WARP - 1, _("a warp runs one instruction for all at once"),
             s->inside.thread);
    vw_text_fit(v, v->small, line, x, y, w, TEXT);
    y += lh;
    for (int i = 0; i < n; ++i) {
        const kw_request *q = &r[i];
        bool show = (s->inside.stage == SCENE_BLOCK_LOAD && (q->kind == KW_TILED_LOAD || q->kind == KW_TILED_STORE)) ||
                    ((s->inside.stage == SCENE_BLOCK_COMPUTE || s->inside.stage == SCENE_BLOCK_NO_BARRIER) &&
                     (q->kind == KW_TILED_READ || q->kind == KW_OUT_STORE));
        if (q->kind == KW_NAIVE_LOAD) {
            naive_sectors += q->sectors;
            naive_lanes += q->lanes;
        }
        if (!show || q->lanes == 0)
            continue;
        if (q->kind == KW_TILED_LOAD)
            snprintf(line, sizeof line,
                     ngettext("load step %d: %d lanes read elements %lld…%lld: %d sector of 32 B",
                              "load step %d: %d lanes read elements %lld…%lld: %d sectors of 32 B",
                              (unsigned long)q->sectors),
                     q->step + 1, q->lanes, q->first, q->last, q->sectors);
        else if (q->kind == KW_TILED_STORE)
            snprintf(line, sizeof line,
                     ngettext("   into the tile: %d lanes, %d pass over the 32 banks",
                              "   into the tile: %d lanes, %d passes over the 32 banks", (unsigned long)q->passes),
                     q->lanes, q->passes);
        else if (q->kind == KW_TILED_READ)
            snprintf(line, sizeof line,
                     ngettext("tap %d from the tile: %d lanes, words %lld…%lld, %d pass over the 32 banks",
                              "tap %d from the tile: %d lanes, words %lld…%lld, %d passes over the 32 banks",
                              (unsigned long)q->passes),
                     q->step + 1, q->lanes, q->first, q->last, q->passes);
        else
            snprintf(line, sizeof line, _("write: %d outputs, %d sectors of 32 B"), q->lanes, q->sectors);
        vw_text_fit(v, v->small, line, x, y, w, DIM);
        y += lh;
    }
    if (s->inside.stage == SCENE_BLOCK_BARRIER) {
        vw_text_fit(v, v->small, _("no memory instruction: the warp waits at __syncthreads() (barrier() in GLSL)"), x, y,
                    w, DIM);
        y += lh;
    }
    snprintf(line, sizeof line, _("the naive kernel, same warp: 9 loads from global memory, %d lanes, %lld sectors"),
             naive_lanes, naive_sectors);
    vw_text_fit(v, v->small, line, x, y, w, DIM);
    return y + lh;
}

/* The counts for the image, shape and border shown: made again when one
 * of them changes (a few milliseconds, the edges' blocks one by one). */
static const kw_counts *counts_of(view *v, const scene *s)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    if (!v->counted || v->counted_image != s->image_generation || v->counted_w != s->img.luma.w ||
        v->counted_h != s->img.luma.h || v->counted_bdx != bdx || v->counted_bdy != bdy ||
        v->counted_border != (int)s->opt.border) {
        v->counted = kw_count(s->img.luma.w, s->img.luma.h, bdx, bdy, s->opt.border, &v->counts);
        v->counted_image = s->image_generation;
        v->counted_w = s->img.luma.w, v->counted_h = s->img.luma.h;
        v->counted_bdx = bdx, v->counted_bdy = bdy, v->counted_border = (int)s->opt.border;
    }
    return v->counted ? &v->counts : NULL;
}

/* Both kernels on the whole image, counted. */
static float draw_counts(view *v, const scene *s, float x, float y, float w)
{
    const kw_counts *k = counts_of(v, s);
    float lh = vw_lh(v->small);
    char line[320], a[48], b[48], c[48];
    if (!k)
        return y;
    snprintf(line, sizeof line, _("The whole image, %d×%d: counted from the kernel's index functions"), k->w, k->h);
    vw_text_fit(v, v->small, line, x, y, w, TEXT);
    y += lh;
    snprintf(line, sizeof line, _("global loads an output: naive %.2f · tiled %.2f"),
             (double)k->naive.loads / (double)k->outputs, (double)k->tiled.loads / (double)k->outputs);
    vw_text_fit(v, v->small, line, x, y, w, DIM);
    y += lh;
    snprintf(line, sizeof line, _("32-byte sectors a warp request: naive %.2f · tiled %.2f (4 is 32 floats in a row)"),
             k->naive.requests ? (double)k->naive.sectors / (double)k->naive.requests : 0.0,
             k->tiled.requests ? (double)k->tiled.sectors / (double)k->tiled.requests : 0.0);
    vw_text_fit(v, v->small, line, x, y, w, DIM);
    y += lh;
    fmt_bytes(k->naive.sectors * KW_SECTOR, a, sizeof a);
    fmt_bytes(k->tiled.sectors * KW_SECTOR, b, sizeof b);
    fmt_bytes(4 * k->outputs, c, sizeof c);
    snprintf(line, sizeof line, _("read from global memory: naive %s · tiled %s (the image itself: %s)"), a, b, c);
    vw_text_fit(v, v->small, line, x, y, w, DIM);
    y += lh;
    snprintf(line, sizeof line, _("shared memory (tiled): %d pass a read, %d a store, at worst (1: no bank conflict)"),
             k->tiled.worst_read_passes, k->tiled.worst_store_passes);
    vw_text_fit(v, v->small, line, x, y, w, DIM);
    y += lh;
    fmt_count(k->blocks, a, sizeof a);
    fmt_count(k->warps, b, sizeof b);
    fmt_count(k->wasted, c, sizeof c);
    snprintf(line, sizeof line, _("grid: %s blocks of %d×%d, %s warps; %s threads with no output (past the edges)"), a,
             k->bdx, k->bdy, b, c);
    vw_text_fit(v, v->small, line, x, y, w, k->wasted > 0 ? WINDOW : DIM);
    return y + lh;
}

/* What the GPU engine here says of the schedule: measured where it ran. */
static float draw_engine(view *v, const scene *s, float x, float y, float w)
{
    char line[320], t[48];
    float lh = vw_lh(v->small);
    if (!s->gpu.engine) {
        vw_text_fit(v, v->small, _("no GPU engine here: the figures above are counted, nothing is measured"), x, y, w,
                    FAINT);
        return y + lh;
    }
    if (s->gpu.measured) {
        fmt_ms(eng_total_ms(&s->gpu.timing), t, sizeof t);
        snprintf(line, sizeof line, _("measured: %s, %s kernel, blocks of %d×%d: %s"), scene_engine_label(&s->gpu),
                 C_("kernel", eng_kernel_name(s->gpu_kernel)), s->gpu.timing.launch.block_x,
                 s->gpu.timing.launch.block_y, t);
        vw_text_fit(v, v->small, line, x, y, w, TEXT);
        y += lh;
    }
    if (s->gpu_device_known && s->gpu_device.compute_units > 0)
        snprintf(line, sizeof line,
                 _("%d multiprocessors: they run the blocks a few at a time each, in waves, not all at once"),
                 s->gpu_device.compute_units);
    else if (s->gpu_device_known && s->gpu_device.subgroup > 0)
        snprintf(line, sizeof line, _("work groups of 16×16; the driver runs subgroups of %d invocations together"),
                 s->gpu_device.subgroup);
    else
        snprintf(line, sizeof line, _("work groups of 16×16; the driver reports no subgroup size"));
    vw_text_fit(v, v->small, line, x, y, w, DIM);
    return y + lh;
}

void vw_draw_inside(view *v, const app *a)
{
    const scene *s = &a->s;
    layout *L = &v->L;
    rect tile, box = left_box(v);
    float cell, x, y, w, lh = vw_lh(v->small);
    int bdx, bdy, gx, gy;
    char line[320];

    scene_block_dims(s, &bdx, &bdy);
    gx = (s->img.luma.w + bdx - 1) / bdx;
    gy = (s->img.luma.h + bdy - 1) / bdy;
    snprintf(line, sizeof line, _("Inside the GPU: block (%d, %d) of %d×%d, %d×%d threads (J: another shape)"),
             s->inside.bx, s->inside.by, gx, gy, bdx, bdy);
    vw_text_fit(v, v->font, line, L->sweep.x, L->sweep.y, L->sweep.w, TEXT);
    vw_text_fit(v, v->small, _(stage_text(s->inside.stage)), L->sweep.x, L->sweep.y + L->line, L->sweep.w, WINDOW);
    tile_box(s, box, &tile, &cell);
    draw_tile(s, tile, cell);
    draw_legend(v, s, tile);

    x = box.x + box.w + 1.5f * L->pad;
    w = L->sweep.x + L->sweep.w - x;
    y = box.y;
    if (s->inside.stage == SCENE_BLOCK_LOAD || s->inside.stage == SCENE_BLOCK_BARRIER) {
        int rd, r, cd, c;
        scene_block_loading(s, &rd, &r, &cd, &c);
        snprintf(line, sizeof line, _("%d of %d warp requests issued · %d of %d tile cells stored (%d halo)"), rd, r,
                 cd, c, c - bdx * bdy);
        if (s->inside.stage == SCENE_BLOCK_BARRIER)
            snprintf(line, sizeof line, _("all %d cells stored; %d threads wait at the barrier"), c, bdx * bdy);
        vw_text_fit(v, v->small, line, x, y, w, TEXT);
        y += lh;
    } else if (s->inside.stage == SCENE_BLOCK_NO_BARRIER) {
        snprintf(line, sizeof line,
                 _("simulated, schedule %u: %d of %d outputs read a cell before it was written; %d could"),
                 s->inside.race_seed, s->inside.race.raced_count, bdx * bdy, s->inside.race.can_count);
        vw_text_fit(v, v->small, line, x, y, w, TEXT);
        y += lh;
        vw_text_fit(v, v->small,
                    _("(the outputs that read a cell another warp stores; on a GPU a race may or may not show)"), x, y,
                    w, DIM);
        y += lh;
    }
    y = draw_warp(v, s, x, y + 0.3f * L->pad, w);
    y = draw_counts(v, s, x, y + 0.5f * L->pad, w);
    y = draw_engine(v, s, x, y + 0.5f * L->pad, w);
    rnd_text_wrapped(v->small,
                     _("O: next stage · Shift+O: next warp · J: block shape · click a thread · Esc: back to the grids"),
                     x, fminf(y + 0.5f * L->pad, L->sweep.y + L->sweep.h - lh), w, FAINT, true);
}
