/* thumbs.c - the whole input and output as thumbnails, where the grids are
 * on them, and in thread view the CPU bands or GPU blocks over the output. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"

/* The input's thumbnail made again for a new image, at most THUMB_MAX
 * pixels a side, and the output's pixels made room for. False when there
 * is no memory for them. */
static bool new_image(view *v, const scene *s)
{
    int w = s->img.luma.w, h = s->img.luma.h, step, tw, th;
    img_rgba small;
    step = (w > h ? w : h) / THUMB_MAX + 1;
    if ((w > h ? w : h) <= THUMB_MAX)
        step = 1;
    tw = (w + step - 1) / step;
    th = (h + step - 1) / step;
    small.w = tw;
    small.h = th;
    small.px = malloc((size_t)tw * th * 4);
    free(v->out_px.px);
    v->out_px = (img_rgba){tw, th, calloc((size_t)tw * th, 4)};
    if (!small.px || !v->out_px.px) {
        free(small.px);
        return false;
    }
    for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw; ++x)
            memcpy(small.px + 4 * ((size_t)y * tw + x), s->img.color.px + 4 * ((size_t)y * step * w + (size_t)x * step),
                   4);
    rnd_texture_set(&v->thumb_in, &small);
    free(small.px);
    v->thumb_step = step;
    v->thumb_image = s->image_generation;
    v->thumb_done = -1;
    return true;
}

/* The output's thumbnail brought up to the scene: the rows that changed
 * since the last frame, or all of them after any other change. */
static void refresh_thumbs(view *v, const scene *s)
{
    int w = s->img.luma.w, step, tw, th, y0 = 0;
    bool gpu = s->phase == SCENE_PHASE_GPU, full;
    long done = gpu ? (long)w * s->img.luma.h : scene_cpu_done(s);

    if (!s->img.luma.px || (v->thumb_image != s->image_generation && !new_image(v, s)))
        return;
    step = v->thumb_step;
    tw = v->out_px.w;
    th = v->out_px.h;
    if (v->thumb_done == done && v->thumb_phase == (int)s->phase && v->thumb_display == (int)s->opt.display &&
        v->thumb_gpu_at == s->gpu.shown_at && v->thumb_redo == s->walk.redo && v->thumb_gpu_runs == s->gpu.runs)
        return;
    /* rows to redo: from the first changed one to the walk's row, or all of
     * them after any other change */
    full = !(!gpu && v->thumb_phase == (int)s->phase && v->thumb_display == (int)s->opt.display && v->thumb_done >= 0 &&
             v->thumb_done <= done);
    if (!full) {
        long from = v->thumb_done;
        if (v->thumb_redo + 1 == s->walk.redo && s->walk.redo_from < from)
            from = s->walk.redo_from; /* outputs from there on changed since the last frame */
        else if (v->thumb_redo != s->walk.redo)
            from = 0; /* more than one change: all of it */
        y0 = (int)(from / w) / step;
    }
    for (int y = y0; y < th; ++y) {
        if (!full && y > y0 && (long)y * step * w > done)
            break; /* rows past the walk are dark already */
        for (int x = 0; x < tw; ++x) {
            long idx = (long)y * step * w + (long)x * step;
            uint8_t *px = v->out_px.px + 4 * ((size_t)y * tw + x);
            uint8_t g = 18; /* not computed yet: dark */
            if (gpu ? scene_gpu_done_at(s, x * step, y * step) : idx < done)
                g = img_display_byte(gpu ? s->gpu_out.px[idx] : s->cpu_out.px[idx], s->opt.display);
            px[0] = px[1] = px[2] = g;
            px[3] = 255;
        }
    }
    if (full || v->thumb_out.w != tw || v->thumb_out.h != th) {
        rnd_texture_set(&v->thumb_out, &v->out_px);
    } else { /* only the rows that changed */
        img_rgba rows = {tw, th - y0, v->out_px.px + 4 * (size_t)y0 * tw};
        rnd_texture_sub(&v->thumb_out, 0, y0, &rows);
    }
    v->thumb_done = done;
    v->thumb_phase = (int)s->phase;
    v->thumb_display = (int)s->opt.display;
    v->thumb_gpu_at = s->gpu.shown_at;
    v->thumb_redo = s->walk.redo;
    v->thumb_gpu_runs = s->gpu.runs; /* a new GPU result (after a change in the GPU phase) is drawn */
}

/* The image's rectangle inside a thumbnail box (aspect kept). */
rect vw_thumb_fit(const scene *s, rect box)
{
    float iw = (float)s->img.luma.w, ih = (float)s->img.luma.h;
    float k = fminf(box.w / iw, box.h / ih);
    rect r = {box.x + (box.w - iw * k) / 2, box.y + (box.h - ih * k) / 2, iw * k, ih * k};
    return r;
}

/* Thread view over the whole output: cpu-par's bands, or the GPU's
 * blocks, as translucent colours over the thumbnail rectangle r. */
static void draw_owners(const scene *s, rect r)
{
    int w = s->img.luma.w, h = s->img.luma.h, bx, by;
    float kx = r.w / (float)w, ky = r.h / (float)h;
    scene_block_size(s, &bx, &by);
    if (s->phase == SCENE_PHASE_CPU) {
        long total = (long)w * h;
        int n = s->measure.bands;
        for (int t = 0; t < n; ++t) { /* band t's outputs, as whole rows */
            long i0 = eng_band_first(total, n, t), i1 = eng_band_first(total, n, t + 1);
            float y0 = (float)(i0 / w), y1 = (float)((i1 + w - 1) / w);
            rnd_rect(r.x, r.y + y0 * ky, r.w, (y1 - y0) * ky, vw_alpha(BLOCK_COLOR[t % 8], 0.45f));
        }
    } else if (s->tiles.on) { /* each tile's own launch: blocks from its halo's corner */
        for (int t = 0; t < tile_count(&s->tiles.plan); ++t) {
            int tx, ty, tw, th;
            tile_rect(&s->tiles.plan, t, &tx, &ty, &tw, &th);
            if ((long)((tw + 2 + bx - 1) / bx) * ((th + 2 + by - 1) / by) * tile_count(&s->tiles.plan) > 20000)
                return;
            for (int y = ty - 1; y < ty + th; y += by)
                for (int x = tx - 1; x < tx + tw; x += bx) {
                    int x0 = x > tx ? x : tx, y0 = y > ty ? y : ty;
                    int x1 = x + bx < tx + tw ? x + bx : tx + tw, y1 = y + by < ty + th ? y + by : ty + th;
                    rnd_rect(r.x + (float)x0 * kx, r.y + (float)y0 * ky, (float)(x1 - x0) * kx, (float)(y1 - y0) * ky,
                             vw_alpha(vw_owner_color(s, x0, y0, bx, by), 0.45f));
                }
        }
    } else if ((long)((w + bx - 1) / bx) * ((h + by - 1) / by) <= 20000) {
        for (int y = 0; y < h; y += by)
            for (int x = 0; x < w; x += bx)
                rnd_rect(r.x + (float)x * kx, r.y + (float)y * ky, fminf((float)bx, (float)(w - x)) * kx,
                         fminf((float)by, (float)(h - y)) * ky,
                         vw_alpha(BLOCK_COLOR[(x / bx + 3 * (y / by)) % 8], 0.45f));
    }
}

/* The GPU phase in tiles, over the output thumbnail r: each tile's frame,
 * the ones to come darkened, the one just done in amber, and each done
 * tile's measured time where it fits. */
static void draw_tiles(view *v, const scene *s, rect r)
{
    const tile_plan *p = &s->tiles.plan;
    float k = r.w / (float)s->img.luma.w;
    bool running = s->task.busy == SCENE_FEATURE_TILES;
    for (int i = 0; i < tile_count(p); ++i) {
        int x, y, w, h;
        rect t;
        tile_rect(p, i, &x, &y, &w, &h);
        t = (rect){r.x + (float)x * k, r.y + (float)y * k, (float)w * k, (float)h * k};
        if (i >= s->tiles.done) {
            rnd_rect(t.x, t.y, t.w, t.h, vw_alpha(BG, 0.6f));
            vw_dashed_frame(t.x, t.y, t.w, t.h, 1, DIM);
            continue;
        }
        rnd_frame(t.x, t.y, t.w, t.h, running && i == s->tiles.done - 1 ? 2.0f : 1.0f,
                  running && i == s->tiles.done - 1 ? WINDOW : vw_alpha(WHITE, t.w < 16 ? 0.25f : 0.7f));
        {
            char ms[32];
            fmt_ms(s->tiles.ms[i], ms, sizeof ms);
            if (vw_text_w(v->small, ms) + 4 < t.w && vw_lh(v->small) + 2 < t.h) {
                float tw = vw_text_w(v->small, ms);
                rnd_rect(t.x + 2, t.y + 2, tw + 4, vw_lh(v->small), vw_alpha(BLACK, 0.6f));
                rnd_text(v->small, ms, t.x + 4, t.y + 2, WHITE);
            }
        }
    }
}

void vw_draw_picture(view *v, const scene *s, int which, rect r)
{
    const rnd_texture *tex = which ? &v->thumb_out : &v->thumb_in;
    refresh_thumbs(v, s);
    if (which == 1 && s->phase == SCENE_PHASE_GPU && s->gpu.presented) {
        /* the GPU's buffer as it is: it never came back to the host */
        if (v->plane_run != s->gpu.runs) {
            v->plane_ok = rnd_plane_from_buffer(&v->plane, s->gpu.buffer, s->img.luma.w, s->img.luma.h);
            v->plane_run = s->gpu.runs;
        }
        if (v->plane_ok)
            rnd_plane_image(&v->plane, r.x, r.y, r.w, r.h, (int)s->opt.display, true);
        else /* too big for a GL texture here: the copy that came back */
            rnd_image(tex, r.x, r.y, r.w, r.h, WHITE, true);
    } else {
        rnd_image(tex, r.x, r.y, r.w, r.h, WHITE, true);
    }
    rnd_frame(r.x - 1, r.y - 1, r.w + 2, r.h + 2, 1, which ? GREEN : BLUE);
    if (which == 1 && s->thread_view)
        draw_owners(s, r);
    if (which == 1 && s->phase == SCENE_PHASE_GPU && s->tiles.on)
        draw_tiles(v, s, r);
}

void vw_draw_thumbs(view *v, const scene *s)
{
    const layout *L = &v->L;
    rect boxes[2] = {L->thumb_in, L->thumb_out};

    if (L->thumb_in.h <= 0)
        return;
    rnd_text(v->small, vw_T(v, "Whole image"), L->thumb_in.x, L->thumb_in.y - vw_lh(v->small), DIM);
    for (int i = 0; i < 2; ++i) {
        rect r = vw_thumb_fit(s, boxes[i]);
        float k = r.w / (float)s->img.luma.w;
        vw_draw_picture(v, s, i, r);
        /* a click moves the grids to the pixel under it */
        vw_click_add(v, (vw_click){.r = r,
                                   .action = app_action_of(ACT_CENTER_ON),
                                   .map = VW_MAP_PIXEL,
                                   .cols = s->img.luma.w,
                                   .rows = s->img.luma.h});
        /* where the grids are */
        {
            int cw = L->vn < s->img.luma.w - L->vx ? L->vn : s->img.luma.w - L->vx;
            int ch = L->vn < s->img.luma.h - L->vy ? L->vn : s->img.luma.h - L->vy;
            rnd_frame(r.x + (float)L->vx * k - 1, r.y + (float)L->vy * k - 1, fmaxf(3, (float)cw * k) + 2,
                      fmaxf(3, (float)ch * k) + 2, 2, WINDOW);
        }
    }
}
