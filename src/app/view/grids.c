/* grids.c - the input grid (blue) with the filter's window over it, the output
 * grid (green), and in thread view who computes each output. */
#include "view_internal.h"
#include "../quiz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"

rnd_color vw_cell_color(uint8_t g, rnd_color hue)
{
    rnd_color dark = {0.03f, 0.04f, 0.07f, 1};
    rnd_color light = vw_mix(hue, WHITE, 0.35f);
    return vw_mix(dark, light, (float)g / 255.0f);
}

rnd_color vw_ink_for(rnd_color c)
{
    float y = 0.299f * c.r + 0.587f * c.g + 0.114f * c.b;
    return y > 0.5f ? BLACK : WHITE;
}

void vw_cell_rect(const layout *L, rect grid, const scene *s, int x, int y, rect *r)
{
    (void)s;
    r->x = grid.x + (float)(x - L->vx) * L->cell;
    r->y = grid.y + (float)(y - L->vy) * L->cell;
    r->w = r->h = L->cell;
}

static bool in_view(const layout *L, const scene *s, int x, int y)
{
    return x >= L->vx && y >= L->vy && x < L->vx + L->vn && y < L->vy + L->vn && x < s->img.luma.w && y < s->img.luma.h;
}

/* A value in its cell r, in ink: a whole number at the grid's digits'
 * size; a value too wide for its cell at that size is drawn smaller, down
 * to the least size a room reads; wider still, abbreviated (k, M, G: 1.2k,
 * -35k, 4M), the fewest digits that fit. */
static void draw_value(view *v, float val, rect r, rnd_color ink)
{
    static const char *const suffix[] = {"k", "M", "G"};
    const layout *L = &v->L;
    float room = r.w * 0.9f;
    rnd_font *f = view_font_px(v, L->digit_px);
    char buf[32];
    int role = rnd_text_role(VIEW_TEXT_VALUE), k = 0;
    fmt_cell(val, buf, sizeof buf);
    if (vw_text_w(f, buf) > room)
        f = view_font_px(v, L->least_px);
    while (k < 2 && fabs((double)val) >= pow(1000.0, k + 2))
        ++k;
    for (; k < 3 && vw_text_w(f, buf) > room && fabs((double)val) >= 1000.0; ++k) {
        double q = (double)val / pow(1000.0, k + 1);
        if (fabs(q) >= 999.5 && k < 2)
            continue; /* 999,999 is 1.0M, not 1000k */
        snprintf(buf, sizeof buf, fabs(q) < 9.95 ? "%.1f%s" : "%.0f%s", q, suffix[k]);
        if (vw_text_w(f, buf) > room)
            snprintf(buf, sizeof buf, "%.0f%s", q, suffix[k]);
    }
    vw_text_center(f, buf, r, ink);
    rnd_text_role(role);
}

/* The part of a grid's place (`area`, from cell (L->vx, L->vy)) that
 * holds the image's cells: all of it, or less where the image ends first
 * (a small image zoomed out). Its frame goes round that, not the place. */
static rect shown_cells(const layout *L, rect area, const scene *s)
{
    float w = (float)(s->img.luma.w - L->vx) * L->cell, h = (float)(s->img.luma.h - L->vy) * L->cell;
    return (rect){area.x, area.y, fmaxf(0.0f, fminf(area.w, w)), fmaxf(0.0f, fminf(area.h, h))};
}

void view_grid_frames(const view *v, const app *a, float input[4], float output[4], float *cell)
{
    rect i = shown_cells(&v->L, v->L.input_cells, &a->s), o = shown_cells(&v->L, v->L.output, &a->s);
    input[0] = i.x, input[1] = i.y, input[2] = i.w, input[3] = i.h;
    output[0] = o.x, output[1] = o.y, output[2] = o.w, output[3] = o.h;
    *cell = v->L.cell;
}

/* The input grid: the region shown (L->input_cells) and the ring of cells
 * around it, which the outputs at the region's edge read too. A ring cell
 * inside the image is drawn dimmer; a cell outside the image, one step
 * past its edge, shows what the border rule reads there, in grey (no
 * channel's hue) with a dashed frame, the mode named under the grid. */
static void draw_input_grid(view *v, const scene *s)
{
    const layout *L = &v->L;
    const img_plane *in = &s->img.luma;
    int n = L->vn;

    for (int j = -1; j <= n; ++j)
        for (int i = -1; i <= n; ++i) {
            int x = L->vx + i, y = L->vy + j;
            bool inside = x >= 0 && y >= 0 && x < in->w && y < in->h;
            bool ring = i < 0 || j < 0 || i >= n || j >= n;
            float val;
            rect r;
            rnd_color c;
            if (x < -1 || y < -1 || x > in->w || y > in->h)
                continue; /* more than one step outside: nothing reads it */
            val = conv_sample(in->px, in->w, in->h, x, y, s->opt.border);
            vw_cell_rect(L, L->input_cells, s, x, y, &r);
            if (inside) {
                c = vw_cell_color(img_display_byte(val, IMG_DISPLAY_CLAMP), BLUE);
                if (ring)
                    c = vw_mix(c, BG, 0.45f);
                rnd_rect(r.x, r.y, r.w - 1, r.h - 1, c);
            } else {
                c = vw_cell_color(img_display_byte(val, IMG_DISPLAY_CLAMP), (rnd_color){0.7f, 0.7f, 0.7f, 1});
                c = vw_mix(c, BG, 0.25f);
                rnd_rect(r.x, r.y, r.w - 1, r.h - 1, c);
                vw_dashed_frame(r.x + 1, r.y + 1, r.w - 3, r.h - 3, fmaxf(1.0f, L->cell * 0.05f), DIM);
            }
            if (L->digit_px > 0)
                draw_value(v, val, r, vw_alpha(vw_ink_for(c), inside && !ring ? 0.9f : 0.7f));
        }
    {
        rect f = shown_cells(L, L->input_cells, s);
        rnd_frame(f.x - 2, f.y - 2, f.w + 4, f.h + 4, 2, BLUE);
    }
}

/* Whether the input grid shows cells outside the image. */
static bool outside_in_view(const layout *L, const scene *s)
{
    return L->vx == 0 || L->vy == 0 || L->vx + L->vn >= s->img.luma.w || L->vy + L->vn >= s->img.luma.h;
}

/* The shaded window, the filter's kw x kh cells around the output (or the
 * hovered receptive field), over the input, clipped to the grid. */
static void draw_window(view *v, const scene *s, int ox, int oy, int taps_done, rnd_color c, bool shade)
{
    const layout *L = &v->L;
    float t = fmaxf(2.0f, L->cell * 0.08f);
    int kw = s->opt.kernel.kw, kh = s->opt.kernel.kh;
    rect r;
    if (v->hide_window)
        return;
    vw_cell_rect(L, L->input_cells, s, ox - kw / 2, oy - kh / 2, &r);
    r.w = (float)kw * L->cell;
    r.h = (float)kh * L->cell;
    {
        /* clip to the grid: the window may hang over the image's edge */
        float x0 = fmaxf(r.x, L->input.x), y0 = fmaxf(r.y, L->input.y);
        float x1 = fminf(r.x + r.w, L->input.x + L->input.w), y1 = fminf(r.y + r.h, L->input.y + L->input.h);
        if (x1 <= x0 || y1 <= y0)
            return;
        if (shade)
            rnd_rect(x0, y0, x1 - x0, y1 - y0, vw_alpha(c, 0.22f));
        /* the taps done so far, brighter */
        for (int tap = 0; tap < taps_done && tap < kw * kh; ++tap) {
            rect tr;
            vw_cell_rect(L, L->input_cells, s, ox + tap % kw - kw / 2, oy + tap / kw - kh / 2, &tr);
            if (vw_inside(L->input, tr.x + 1, tr.y + 1))
                rnd_frame(tr.x + 1, tr.y + 1, tr.w - 3, tr.h - 3, fmaxf(1.0f, t * 0.6f), vw_alpha(c, 0.8f));
        }
        rnd_clip(L->input.x - t, L->input.y - t, L->input.w + 2 * t, L->input.h + 2 * t);
        rnd_frame(r.x, r.y, r.w, r.h, t, c);
        rnd_clip(0, 0, 0, 0);
    }
}

/* Thread view: which worker computes output (x, y). In the CPU phase, the
 * cpu-par band of outputs (in raster order) that holds it; in the
 * GPU phase, the block of GPU threads. Returns its colour. */
rnd_color vw_owner_color(const scene *s, int x, int y, int bx, int by)
{
    if (s->phase == SCENE_PHASE_CPU) {
        long total = (long)s->img.luma.w * s->img.luma.h, idx = (long)y * s->img.luma.w + x;
        return BLOCK_COLOR[eng_band_of(total, s->measure.bands, idx) % 8];
    }
    {
        int lx, ly, tile;
        scene_launch_at(s, x, y, &lx, &ly, &tile); /* in tiles: the block of its tile's launch */
        return BLOCK_COLOR[(lx / bx + 3 * (ly / by) + 5 * (tile > 0 ? tile : 0)) % 8];
    }
}

/* Whether a block's edge runs between outputs a and b (neighbours on a row
 * or a column): another block, or another tile. */
static bool block_edge(const scene *s, int ax, int ay, int bxo, int byo, int bx, int by)
{
    int alx, aly, at, blx, bly, bt;
    scene_launch_at(s, ax, ay, &alx, &aly, &at);
    scene_launch_at(s, bxo, byo, &blx, &bly, &bt);
    return at != bt || alx / bx != blx / bx || aly / by != bly / by;
}

static void draw_output_grid(view *v, const scene *s, double now_ms)
{
    const layout *L = &v->L;
    int n = L->vn, bx, by;
    bool gpu = s->phase == SCENE_PHASE_GPU;
    long done = scene_cpu_done(s);
    float pulse;

    scene_block_size(s, &bx, &by);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int x = L->vx + i, y = L->vy + j;
            long idx = (long)y * s->img.luma.w + x;
            rect r;
            rnd_color c;
            float val;
            if (x >= s->img.luma.w || y >= s->img.luma.h)
                continue;
            vw_cell_rect(L, L->output, s, x, y, &r);
            double light = gpu ? now_ms - s->gpu.shown_at - scene_gpu_light_at(s, x, y) : 0.0;
            if (gpu ? !scene_gpu_done_at(s, x, y) || light < 0 : idx >= done) {
                /* not computed yet (or its tile not yet, or its wave not yet) */
                rnd_rect(r.x, r.y, r.w - 1, r.h - 1, (rnd_color){0.07f, 0.08f, 0.09f, 1});
                if (s->thread_view)
                    rnd_rect(r.x, r.y, r.w - 1, r.h - 1, vw_alpha(vw_owner_color(s, x, y, bx, by), 0.25f));
                continue;
            }
            val = gpu ? s->gpu_out.px[idx] : s->cpu_out.px[idx];
            if (s->thread_view)
                c = vw_mix(vw_owner_color(s, x, y, bx, by), BLACK,
                           0.55f * (1.0f - img_display_byte(val, s->opt.display) / 255.0f));
            else
                c = vw_cell_color(img_display_byte(val, s->opt.display), GREEN);
            rnd_rect(r.x, r.y, r.w - 1, r.h - 1, c);
            pulse = gpu ? (float)(1.0 - light / SCENE_GPU_PULSE_MS) : 0.0f;
            if (pulse > 0)
                rnd_rect(r.x, r.y, r.w - 1, r.h - 1, vw_alpha(WHITE, 0.8f * pulse));
            if (L->digit_px > 0)
                draw_value(v, val, r, vw_alpha(vw_ink_for(c), 0.9f));
        }
    if (s->thread_view && gpu) { /* block borders */
        float t = fmaxf(2.0f, L->cell * 0.08f);
        for (int x = L->vx; x <= L->vx + n && x <= s->img.luma.w; ++x)
            if (x == 0 || x == s->img.luma.w || block_edge(s, x - 1, L->vy, x, L->vy, bx, by))
                rnd_rect(L->output.x + (float)(x - L->vx) * L->cell - t / 2, L->output.y, t,
                         fminf(L->output.h, (float)(s->img.luma.h - L->vy) * L->cell), WHITE);
        for (int y = L->vy; y <= L->vy + n && y <= s->img.luma.h; ++y)
            if (y == 0 || y == s->img.luma.h || block_edge(s, L->vx, y - 1, L->vx, y, bx, by))
                rnd_rect(L->output.x, L->output.y + (float)(y - L->vy) * L->cell - t / 2,
                         fminf(L->output.w, (float)(s->img.luma.w - L->vx) * L->cell), t, WHITE);
    }
    if (gpu && s->tiles.on) { /* the tiles' edges */
        const tile_plan *tp = &s->tiles.plan;
        float t = fmaxf(2.0f, L->cell * 0.12f);
        for (int x = L->vx; x <= L->vx + n && x < s->img.luma.w; ++x)
            if (x % tp->tile_w == 0 && x > 0)
                vw_dashed_frame(L->output.x + (float)(x - L->vx) * L->cell - t / 2, L->output.y, t,
                                fminf(L->output.h, (float)(s->img.luma.h - L->vy) * L->cell), t, WINDOW);
        for (int y = L->vy; y <= L->vy + n && y < s->img.luma.h; ++y)
            if (y % tp->tile_h == 0 && y > 0)
                vw_dashed_frame(L->output.x, L->output.y + (float)(y - L->vy) * L->cell - t / 2,
                                fminf(L->output.w, (float)(s->img.luma.w - L->vx) * L->cell), t, t, WINDOW);
    }
    {
        rect f = shown_cells(L, L->output, s);
        rnd_frame(f.x - 2, f.y - 2, f.w + 4, f.h + 4, 2, GREEN);
    }
}

void vw_draw_grids(view *v, const scene *s, bool hide_window, double now_ms)
{
    v->hide_window = hide_window; /* a question asks where it is: draw_window draws none */
    const layout *L = &v->L;
    char buf[160];
    int fx, fy;
    bool from_stepper;

    {
        /* which pixels, whole; then what they are, as far as there is room */
        float y = L->input.y - vw_lh(v->small) - 0.4f * L->pad - 3, head_w, room;
        char tail[160];
        snprintf(buf, sizeof buf, "%s (%d\xE2\x80\xA6%d, %d\xE2\x80\xA6%d)", vw_T(v, "Input: pixels"), L->vx,
                 (L->vx + L->vn < s->img.luma.w ? L->vx + L->vn : s->img.luma.w) - 1, L->vy,
                 (L->vy + L->vn < s->img.luma.h ? L->vy + L->vn : s->img.luma.h) - 1);
        snprintf(tail, sizeof tail, "%s%s%s%s", L->vn < s->view_cells ? " \xC2\xB7 " : "",
                 L->vn < s->view_cells ? vw_T(v, "around the window") : "", outside_in_view(L, s) ? " \xC2\xB7 " : "",
                 outside_in_view(L, s) ? vw_T(v, "dashed: outside the image (border rule)") : "");
        head_w = fminf(vw_text_w(v->small, buf), L->input.w);
        vw_text_fit(v, v->small, buf, L->input.x, y, L->input.w, BLUE);
        room = L->input.w - head_w;
        if (tail[0] && room > 3 * vw_lh(v->small))
            vw_text_fit(v, v->small, tail, L->input.x + head_w, y, room, BLUE);
    }
    snprintf(buf, sizeof buf, "%s (%s)%s", vw_T(v, "Output"),
             vw_T(v, s->phase == SCENE_PHASE_GPU ? vw_gpu_grid_title(s) : N_("one at a time, on the CPU")),
             s->thread_view ? vw_T(v, ": thread view") : "");
    vw_text_fit(v, v->small, buf, L->output.x, L->input.y - vw_lh(v->small) - 0.4f * L->pad - 3, L->output.w, GREEN);

    draw_input_grid(v, s);
    draw_output_grid(v, s, now_ms);
    /* a drag on either grid pans; a click on an output pins it, and the
     * pointer over one shows its arithmetic; the input grid's corner cell
     * is the ring's, one before the view */
    vw_click_add(v, (vw_click){.r = L->input,
                               .action = app_action_of(ACT_VIEW_AT),
                               .map = VW_MAP_CELL,
                               .x0 = L->vx - 1,
                               .y0 = L->vy - 1,
                               .cols = s->img.luma.w,
                               .rows = s->img.luma.h,
                               .cell = L->cell,
                               .pans = true});
    vw_click_add(v, (vw_click){.r = L->output,
                               .action = app_action_of(ACT_PIN),
                               .map = VW_MAP_CELL,
                               .x0 = L->vx,
                               .y0 = L->vy,
                               .cols = s->img.luma.w,
                               .rows = s->img.luma.h,
                               .cell = L->cell,
                               .pans = true,
                               .hovers = true});

    scene_focus(s, &fx, &fy, &from_stepper);
    if (s->phase == SCENE_PHASE_CPU) {
        int sx = conv_stepper_x(&s->walk.stepper), sy = conv_stepper_y(&s->walk.stepper);
        rect r;
        draw_window(v, s, sx, sy, s->walk.stepper.taps, WINDOW, true);
        if (in_view(L, s, sx, sy)) {
            vw_cell_rect(L, L->output, s, sx, sy, &r);
            rnd_frame(r.x, r.y, r.w, r.h, fmaxf(2.0f, L->cell * 0.1f), WINDOW);
        }
    }
    if (s->phase == SCENE_PHASE_GPU && !s->hovering && !s->pinned && in_view(L, s, fx, fy)) {
        rect r;
        draw_window(v, s, fx, fy, 0, WINDOW, false);
        vw_cell_rect(L, L->output, s, fx, fy, &r);
        rnd_frame(r.x, r.y, r.w, r.h, fmaxf(2.0f, L->cell * 0.1f), WINDOW);
    }
    if (!from_stepper && (s->hovering || s->pinned)) {
        rect r;
        draw_window(v, s, fx, fy, 0, HOVER, false);
        if (in_view(L, s, fx, fy)) {
            vw_cell_rect(L, L->output, s, fx, fy, &r);
            rnd_frame(r.x - 1, r.y - 1, r.w + 2, r.h + 2, fmaxf(2.0f, L->cell * 0.1f), HOVER);
        }
    }
}

void vw_grid_answer_clicks(view *v, const app *a)
{
    const layout *L = &v->L;
    const lsn_ask *q = app_quiz_open_ask(a);
    bool out;
    if (!q || q->kind != LSN_ASK_CLICK)
        return;
    out = app_fact_on_output(q->fact);
    vw_click_add(v, (vw_click){.r = out ? L->output : L->input,
                               .action = app_action_of(ACT_ANSWER_AT),
                               .map = VW_MAP_CELL,
                               .x0 = out ? L->vx : L->vx - 1,
                               .y0 = out ? L->vy : L->vy - 1,
                               .cols = a->s.img.luma.w,
                               .rows = a->s.img.luma.h,
                               .cell = L->cell});
}
