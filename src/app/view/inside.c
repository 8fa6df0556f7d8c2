/* inside.c - inside the GPU (O): one block of the tiled kernel, its tile
 * drawn cell by cell through its stages (loaded warp request by request,
 * the barrier, the nine reads, the missing barrier simulated), beside one
 * warp's memory instructions and both kernels' traffic on the whole image,
 * counted from the kernels' index functions (compute/kernel_walk.h). Every
 * figure says whether it is counted, simulated or measured. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../format.h"

/* Where the block's tile goes and the size of a cell, inside `box`. */
static void tile_box(const scene *s, rect box, rect *tile, float *cell)
{
    int bdx, bdy;
    scene_block_dims(s, &bdx, &bdy);
    *cell = fminf(box.w / (float)(bdx + 2), box.h / (float)(bdy + 2));
    *tile = (rect){box.x, box.y, *cell * (float)(bdx + 2), *cell * (float)(bdy + 2)};
}

static const char *const legends[SCENE_BLOCK_STAGES] = {
    N_("blue: stored in the tile · dark: not yet · amber: the last request · the dashed ring: the halo · white: "
       "the cells stored by the load step of the warp looked at"),
    N_("amber: threads waiting at the barrier · every cell of the tile stored"),
    N_("green: outputs written · magenta: the nine cells read by the thread looked at"),
    N_("bright amber: read a cell too early in this run · dim: could, in another order"),
    N_("the whole image: amber where an output came out wrong, brighter in more of the runs"),
};

/* What the picture's colours mean; no picture when nothing ran. */
static const char *legend_text(const scene *s)
{
    if (s->inside.stage == SCENE_BLOCK_NO_BARRIER_GPU && s->inside.gpu_runs == 0)
        return N_("no picture: nothing ran without the barrier");
    return legends[s->inside.stage];
}

/* The left part of the grids' place, for the tile, below its caption and
 * above its legend. */
static rect left_box(const view *v, const scene *s)
{
    const layout *L = &v->L;
    float cap = L->line + vw_lh(v->small) + 0.4f * L->pad, w = L->sweep.w * 0.42f;
    float legend = rnd_text_wrapped(v->small, _(legend_text(s)), 0, 0, w, DIM, false) + 0.3f * L->pad;
    return (rect){L->sweep.x, L->sweep.y + cap, w, L->sweep.h - cap - legend};
}

static void cell_rect(rect tile, float cell, int col, int row, rnd_color c)
{
    float g = cell > 6 ? 1.0f : 0.0f; /* a hairline between cells where they are large enough */
    rnd_rect(tile.x + (float)col * cell, tile.y + (float)row * cell, cell - g, cell - g, c);
}

/* The stage's heading; the last one when nothing ran says so (there is no
 * picture under it then, and nothing measured). */
static const char *stage_text(const scene *s)
{
    int stage = s->inside.stage;
    if (stage == SCENE_BLOCK_NO_BARRIER_GPU && s->inside.gpu_runs == 0)
        return s->gpu.eng.engine
                   ? N_("without the barrier, on the GPU engine: not run (the reason is beside), so nothing is measured")
                   : N_("without the barrier, on the GPU engine: this machine has none, so nothing ran or was measured");

    static const char *const text[SCENE_BLOCK_STAGES] = {
        N_("1. load: each warp copies its share of the tile, with its one-pixel halo, from global memory into "
           "shared memory"),
        N_("2. barrier: every thread waits until the last load of the block is done"),
        N_("3. compute: each thread reads its nine values from the tile (shared memory) and writes one output"),
        N_("without the barrier (simulated): warps run ahead and read tile cells no warp has written yet"),
        N_("without the barrier, run on the GPU engine: each result compared with the reference (measured)"),
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
    if (stage == SCENE_BLOCK_LOAD) { /* the warp looked at: the cells its load request stores */
        int request = scene_block_warp_request(s);
        for (int row = 0; row < bdy + 2; ++row)
            for (int col = 0; col < bdx + 2; ++col)
                if (scene_block_cell_in_request(s, col, row, request))
                    rnd_frame(tile.x + (float)col * cell, tile.y + (float)row * cell, cell, cell, 1, WHITE);
    } else { /* the warp looked at: its threads (32 in a row of the block's numbering), their outputs */
        for (int i = 0; i < KW_WARP; ++i) {
            int t = warp * KW_WARP + i;
            if (t < bdx * bdy)
                rnd_frame(tile.x + (float)(t % bdx + 1) * cell, tile.y + (float)(t / bdx + 1) * cell, cell, cell, 1,
                          WHITE);
        }
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
    rnd_text_wrapped(v->small, _(legend_text(s)), tile.x, tile.y + tile.h + 0.3f * v->L.pad,
                     v->L.sweep.w * 0.42f, DIM, true);
}

/* A column of lines that stops where the room ends, with a line that says
 * so (the hint line keeps the bottom). */
typedef struct column {
    view *v;
    float x, y, w, bottom;
    bool full;
} column;

static bool put(column *c, const char *text, rnd_color color)
{
    float lh = vw_lh(c->v->small);
    if (c->full)
        return false;
    if (c->y + 2 * lh > c->bottom) {
        vw_text_fit(c->v, c->v->small, _("(more than there is room for: a larger window, or Z for smaller text)"), c->x,
                    c->y, c->w, FAINT);
        c->y += lh;
        c->full = true;
        return false;
    }
    vw_text_fit(c->v, c->v->small, text, c->x, c->y, c->w, color);
    c->y += lh;
    return true;
}

/* One warp's instructions for the stage shown. */
static void draw_warp(column *c, const scene *s)
{
    int bdx, bdy, warp = s->inside.thread / KW_WARP, n, naive_lanes = 0, reads = 0, most = 0, least = 99, warps;
    kw_request r[KW_MAX_REQUESTS];
    char line[320];
    long long naive_sectors = 0;
    scene_block_dims(s, &bdx, &bdy);
    warps = (bdx * bdy + KW_WARP - 1) / KW_WARP;
    n = kw_warp_trace(s->img.luma.w, s->img.luma.h, bdx, bdy, s->opt.border, s->inside.bx, s->inside.by, warp, r);
    snprintf(line, sizeof line, _("warp %d: threads %d…%d, one instruction for all 32 at once; thread %d looked at"),
             warp, warp * KW_WARP, warp * KW_WARP + KW_WARP - 1, s->inside.thread);
    put(c, line, TEXT);
    for (int i = 0; i < n; ++i) {
        const kw_request *q = &r[i];
        if (q->kind == KW_NAIVE_LOAD) {
            naive_sectors += q->sectors;
            naive_lanes += q->lanes;
        } else if (q->kind == KW_TILED_READ && q->lanes) {
            ++reads;
            most = q->passes > most ? q->passes : most;
            least = q->passes < least ? q->passes : least;
        } else if (q->kind == KW_TILED_LOAD && s->inside.stage == SCENE_BLOCK_LOAD && i + 1 < n && r[i + 1].lanes > 0) {
            /* a load step and its stores into the tile, on one line */
            snprintf(line, sizeof line,
                     _("load step %d: %d lanes, elements %lld…%lld, 32-byte sectors: %d; into the tile, passes: %d"),
                     q->step + 1, r[i + 1].lanes, q->first, q->last, q->sectors, r[i + 1].passes);
            put(c, line, q->step == scene_block_warp_request(s) / warps ? TEXT : DIM); /* the one framed */
        } else if (q->kind == KW_OUT_STORE && q->lanes &&
                   (s->inside.stage == SCENE_BLOCK_COMPUTE || s->inside.stage == SCENE_BLOCK_NO_BARRIER)) {
            if (reads) {
                if (least == most)
                    snprintf(line, sizeof line,
                             ngettext("nine reads from the tile: %d pass each over the 32 banks",
                                      "nine reads from the tile: %d passes each over the 32 banks",
                                      (unsigned long)most),
                             most);
                else
                    snprintf(line, sizeof line, _("nine reads from the tile: %d to %d passes each over the 32 banks"),
                             least, most);
                put(c, line, DIM);
            }
            snprintf(line, sizeof line, _("write: %d outputs, %d sectors of 32 B"), q->lanes, q->sectors);
            put(c, line, DIM);
        }
    }
    if (s->inside.stage == SCENE_BLOCK_BARRIER)
        put(c, _("no memory instruction: the warp waits at __syncthreads() (barrier() in GLSL)"), DIM);
    snprintf(line, sizeof line,
             _("the naive kernel, same warp: 9 load instructions, %d loads by its lanes, %lld sectors"), naive_lanes,
             naive_sectors);
    put(c, line, DIM);
}

/* Both kernels on the whole image, counted. */
static void draw_counts(column *c, const scene *s)
{
    const kw_counts *k = s->inside.counted ? &s->inside.counts : NULL; /* the scene counts them */
    char line[320], a[48], b[48], d[48];
    if (!k)
        return;
    snprintf(line, sizeof line, _("The whole image, %d×%d: counted from the kernel's index functions"), k->w, k->h);
    put(c, line, TEXT);
    snprintf(line, sizeof line, _("global loads an output: naive %.2f · tiled %.2f"),
             (double)k->naive.loads / (double)k->outputs, (double)k->tiled.loads / (double)k->outputs);
    put(c, line, DIM);
    snprintf(line, sizeof line, _("32-byte sectors a warp request: naive %.2f · tiled %.2f (4 is 32 floats in a row)"),
             k->naive.requests ? (double)k->naive.sectors / (double)k->naive.requests : 0.0,
             k->tiled.requests ? (double)k->tiled.sectors / (double)k->tiled.requests : 0.0);
    put(c, line, DIM);
    fmt_bytes(k->naive.sectors * KW_SECTOR, a, sizeof a);
    fmt_bytes(k->tiled.sectors * KW_SECTOR, b, sizeof b);
    fmt_bytes(4 * k->outputs, d, sizeof d);
    /* the loads' sectors at L1: what the warps ask for, not what crosses to
     * DRAM, where a cache that holds the image leaves each byte read once */
    snprintf(line, sizeof line, _("requested at L1 (32-byte sectors of global loads): naive %s · tiled %s"), a, b);
    put(c, line, DIM);
    snprintf(line, sizeof line, _("at best, memory sees each byte once: %s read, %s written"), d, d);
    put(c, line, DIM);
    snprintf(
        line, sizeof line,
        ngettext("shared memory (tiled), at worst: %d pass over the 32 banks a read, %d a store (1: no bank conflict)",
                 "shared memory (tiled), at worst: %d passes over the 32 banks a read, %d a store (1: no bank "
                 "conflict)",
                 (unsigned long)k->tiled.worst_read_passes),
        k->tiled.worst_read_passes, k->tiled.worst_store_passes);
    put(c, line, DIM);
    fmt_count(k->blocks, a, sizeof a);
    fmt_count(k->warps, b, sizeof b);
    fmt_count(k->wasted, d, sizeof d);
    snprintf(line, sizeof line, _("grid: %s blocks of %d×%d, %s warps; %s threads with no output (past the edges)"), a,
             k->bdx, k->bdy, b, d);
    put(c, line, k->wasted > 0 ? WINDOW : DIM);
}

/* What the GPU engine here says of the schedule: measured where it ran. */
static void draw_engine(column *c, const scene *s)
{
    char line[320], t[48];
    if (!s->gpu.eng.engine) {
        put(c, _("no GPU engine here: the figures above are counted, nothing is measured"), FAINT);
        return;
    }
    if (s->gpu.eng.measured) {
        fmt_ms(eng_total_ms(&s->gpu.eng.timing), t, sizeof t);
        snprintf(line, sizeof line, _("measured: %s, %s kernel, blocks of %d×%d: %s"), scene_engine_label(&s->gpu.eng),
                 C_("kernel", eng_kernel_name(s->gpu.kernel)), s->gpu.eng.timing.launch.block_x,
                 s->gpu.eng.timing.launch.block_y, t);
        put(c, line, TEXT);
    }
    if (s->gpu.device_known && s->gpu.device.compute_units > 0 && s->gpu.device.blocks_per_unit > 0) {
        long per_wave;
        int waves = scene_gpu_waves(s, &per_wave);
        snprintf(line, sizeof line,
                 _("%d SMs × %d blocks at once each (the CUDA runtime's occupancy for this kernel and shape): "
                   "%ld blocks a wave, waves for the image: %d"),
                 s->gpu.device.compute_units, s->gpu.device.blocks_per_unit, per_wave, waves > 0 ? waves : 1);
    } else if (s->gpu.device_known && s->gpu.device.compute_units > 0)
        snprintf(line, sizeof line,
                 _("%d multiprocessors: they run the blocks a few at a time each, in waves, not all at once"),
                 s->gpu.device.compute_units);
    else if (s->gpu.device_known && s->gpu.device.subgroup > 0)
        snprintf(line, sizeof line, _("work groups of 16×16; the driver runs subgroups of %d invocations together"),
                 s->gpu.device.subgroup);
    else
        snprintf(line, sizeof line, _("work groups of 16×16; the driver reports no subgroup size"));
    put(c, line, DIM);
}

/* The runs without the barrier on the GPU engine: in how many each output
 * came out wrong, over the whole image, fitted into `box`. */
static void draw_heat(view *v, const scene *s, rect box)
{
    int w = s->inside.heat_w, h = s->inside.heat_h;
    rect r;
    if (!s->inside.gpu_heat || s->inside.gpu_runs == 0 || w < 1 || h < 1)
        return;
    if (w != s->img.luma.w || h != s->img.luma.h)
        return;                                    /* runs of another image */
    if (v->heat_for != s->inside.gpu_generation) { /* a new set of runs: its picture, once */
        int step = (w > THUMB_MAX || h > THUMB_MAX) ? (w > h ? w : h) / THUMB_MAX + 1 : 1;
        img_rgba pic = {(w + step - 1) / step, (h + step - 1) / step, NULL};
        pic.px = calloc((size_t)pic.w * (size_t)pic.h, 4);
        if (!pic.px)
            return;
        for (int y = 0; y < pic.h; ++y)
            for (int x = 0; x < pic.w; ++x) {
                int most = 0;
                for (int j = y * step; j < (y + 1) * step && j < h; ++j) /* the worst pixel it covers */
                    for (int i = x * step; i < (x + 1) * step && i < w; ++i)
                        most = s->inside.gpu_heat[(long)j * w + i] > most ? s->inside.gpu_heat[(long)j * w + i] : most;
                unsigned char *p = pic.px + 4 * ((size_t)y * pic.w + x);
                float t = most ? 0.35f + 0.65f * (float)most / (float)s->inside.gpu_runs : 0.0f;
                rnd_color c = most ? vw_mix(BG, WINDOW, t) : (rnd_color){0.16f, 0.17f, 0.20f, 1};
                p[0] = (unsigned char)(c.r * 255), p[1] = (unsigned char)(c.g * 255), p[2] = (unsigned char)(c.b * 255);
                p[3] = 255;
            }
        rnd_texture_set(&v->heat, &pic);
        free(pic.px);
        v->heat_for = s->inside.gpu_generation;
    }
    r = vw_thumb_fit(s, box);
    rnd_image(&v->heat, r.x, r.y, r.w, r.h, WHITE, false);
    rnd_frame(r.x - 1, r.y - 1, r.w + 2, r.h + 2, 1, DIM);
}

/* Text wrapped to the column's width, a few lines, where there is room. */
static void put_wrapped(column *c, const char *text, rnd_color color)
{
    float h = rnd_text_wrapped(c->v->small, text, 0, 0, c->w, color, false);
    if (c->full)
        return;
    if (c->y + h + vw_lh(c->v->small) > c->bottom) {
        put(c, text, color); /* says there is no room */
        return;
    }
    rnd_text_wrapped(c->v->small, text, c->x, c->y, c->w, color, true);
    c->y += h;
}

/* The runs without the barrier on the GPU engine: the outputs wrong in
 * each, whole, and whether they changed from run to run. */
static void draw_gpu_runs(column *c, const scene *s)
{
    char line[320];
    if (s->inside.gpu_runs == 0) {
        snprintf(line, sizeof line, _("not run: %s"), s->inside.gpu_why);
        put_wrapped(c, line, TEXT);
        return;
    }
    snprintf(line, sizeof line,
             ngettext("measured on %s, %d run, compared with the reference:",
                      "measured on %s, %d runs, each compared with the reference:", (unsigned long)s->inside.gpu_runs),
             s->inside.gpu_label, s->inside.gpu_runs);
    put(c, line, TEXT);
    scene_race_summary(s, line, sizeof line);
    put_wrapped(c, line, TEXT);
    put(c, _("before each run, shared memory filled with NaN: no tile left from the run before"), DIM);
}

/* What the stage shown has done: the load's requests and cells, the
 * threads at the barrier, the races simulated or run. */
static void draw_stage(column *c, const scene *s)
{
    int bdx, bdy;
    char line[320];
    scene_block_dims(s, &bdx, &bdy);
    if (s->inside.stage == SCENE_BLOCK_LOAD || s->inside.stage == SCENE_BLOCK_BARRIER) {
        int rd, r, cd, cells;
        scene_block_loading(s, &rd, &r, &cd, &cells);
        if (s->inside.stage == SCENE_BLOCK_BARRIER)
            snprintf(line, sizeof line, _("all %d cells stored; %d threads wait at the barrier"), cells, bdx * bdy);
        else
            snprintf(line, sizeof line, _("%d of %d warp requests issued · %d of %d tile cells stored (%d halo)"), rd,
                     r, cd, cells, cells - bdx * bdy);
        put(c, line, TEXT);
    } else if (s->inside.stage == SCENE_BLOCK_NO_BARRIER_GPU) {
        draw_gpu_runs(c, s);
    } else if (s->inside.stage == SCENE_BLOCK_NO_BARRIER) {
        snprintf(line, sizeof line,
                 _("simulated, schedule %u: %d of %d outputs read a cell before it was written; %d could"),
                 s->inside.race_seed, s->inside.race.raced_count, bdx * bdy, s->inside.race.can_count);
        put(c, line, TEXT);
        put(c, _("(the outputs that read a cell another warp stores; on a GPU a race may or may not show)"), DIM);
    }
}

/* The column right of the tile: the stage's figures, the warp's
 * instructions (what the stage's narration reads), then the counts for the
 * whole image and the engine's; the keys at the bottom. */
static void draw_column(view *v, const scene *s, rect box)
{
    const layout *L = &v->L;
    const char *hint = _("O: next stage · Shift+O: next warp · J: block shape · click a thread · Esc: back");
    float hint_h;
    column c;
    c.v = v;
    c.x = box.x + box.w + 1.5f * L->pad;
    c.w = L->sweep.x + L->sweep.w - c.x;
    c.y = box.y;
    c.full = false;
    hint_h = rnd_text_wrapped(v->small, hint, 0, 0, c.w, FAINT, false);
    c.bottom = L->sweep.y + L->sweep.h - hint_h - 0.3f * L->pad;
    draw_stage(&c, s);
    c.y += 0.4f * L->pad;
    draw_warp(&c, s);
    c.y += 0.4f * L->pad;
    draw_counts(&c, s);
    draw_engine(&c, s);
    rnd_text_wrapped(v->small, hint, c.x, c.bottom + 0.3f * L->pad, c.w, FAINT, true);
}

void vw_draw_inside(view *v, const app *a)
{
    const scene *s = &a->s;
    const layout *L = &v->L;
    rect tile, box = left_box(v, s);
    float cell;
    int bdx, bdy, gx, gy;
    char line[320];

    scene_block_dims(s, &bdx, &bdy);
    gx = (s->img.luma.w + bdx - 1) / bdx;
    gy = (s->img.luma.h + bdy - 1) / bdy;
    snprintf(line, sizeof line, _("Inside the GPU: block (%d, %d) of %d×%d, %d×%d threads (J: another shape)"),
             s->inside.bx, s->inside.by, gx, gy, bdx, bdy);
    vw_text_fit(v, v->font, line, L->sweep.x, L->sweep.y, L->sweep.w, TEXT);
    if (!filt_is_3x3(&s->opt.kernel)) { /* its tile, halo and counts are the 3x3 kernels' */
        snprintf(line, sizeof line,
                 _("Inside the GPU follows the 3×3 kernels, so it shows 3×3 filters; this filter is %d×%d. Choose a "
                   "3×3 filter (keys 1 to 9) to look inside a block, or Esc to go back."),
                 s->opt.kernel.kw, s->opt.kernel.kh);
        rnd_text_wrapped(v->font, line, L->sweep.x, L->sweep.y + 2 * L->line, L->sweep.w, WINDOW, true);
        return;
    }
    vw_text_fit(v, v->small, _(stage_text(s)), L->sweep.x, L->sweep.y + L->line, L->sweep.w, WINDOW);
    tile_box(s, box, &tile, &cell);
    if (s->inside.stage == SCENE_BLOCK_NO_BARRIER_GPU) {
        draw_heat(v, s, box);
        tile = (rect){box.x, box.y, box.w, box.h};
    } else {
        draw_tile(s, tile, cell);
        /* a click on a thread of the block looks at it */
        vw_click_add(v, (vw_click){.r = tile,
                                   .action = app_action_of(ACT_BLOCK_PICK),
                                   .map = VW_MAP_THREAD,
                                   .cols = bdx,
                                   .rows = bdy,
                                   .cell = cell});
    }
    draw_legend(v, s, tile);
    draw_column(v, s, box);
}
