/* kernel.c - the kernel's nine cells (and the one being typed into), and
 * the arithmetic of the output looked at: nine products and their sum. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"

void vw_draw_kernel(view *v, const app *a)
{
    const scene *s = &a->s;
    const layout *L = &v->L;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    float kc = L->kernel.w / 3;
    /* the weights: a share of the cell, never under what a room reads */
    rnd_font *kf = view_font_px(v, (int)fmaxf(kc * 0.36f, (float)L->least_px));
    char buf[96], div[32];
    int role;

    snprintf(buf, sizeof buf, "%s: %s%s", vw_T(v, "Kernel"), _(s->opt.kernel.title),
             s->opt.flip ? _(" (flipped)") : "");
    vw_text_fit(v, v->small, buf, L->middle.x + fmaxf(0, L->middle.w - vw_text_w(v->small, buf)) / 2, L->middle.y,
                L->middle.w, TEXT);
    role = rnd_text_role(VIEW_TEXT_KERNEL);
    for (int t = 0; t < 9; ++t) {
        rect r = {L->kernel.x + (float)(t % 3) * kc, L->kernel.y + (float)(t / 3) * kc, kc - 2, kc - 2};
        bool editing = a->edit_tap == t;
        bool active = s->phase == SCENE_PHASE_CPU && !s->hovering && !s->pinned && t == s->walk.stepper.taps - 1;
        vw_click_button(v, r, app_action_of(ACT_EDIT_KERNEL), t); /* a click types into the cell */
        rnd_rect(r.x, r.y, r.w, r.h, editing ? (rnd_color){0.25f, 0.25f, 0.12f, 1} : PANEL);
        rnd_frame(r.x, r.y, r.w, r.h, active || editing ? 3 : 1, active || editing ? WINDOW : FAINT);
        if (editing) {
            snprintf(buf, sizeof buf, "%s_", a->edit_text);
            vw_text_center(kf, buf, r, WINDOW);
        } else {
            fmt_value(p.weight[t], buf, sizeof buf);
            vw_text_center(kf, buf, r, TEXT);
        }
    }
    rnd_text_role(role);
    if (p.divisor != 1.0f) {
        fmt_value(p.divisor, div, sizeof div);
        snprintf(buf, sizeof buf, "\xC3\xB7 %s", div);
        rnd_text(v->font, buf, L->kernel.x + L->kernel.w + 0.5f * L->pad, L->kernel.y + L->kernel.h / 2 - L->line / 2,
                 TEXT);
    }
}

/* Thread view in the GPU phase: the block and thread of output (fx, fy),
 * its global index and its warp (CUDA's word) or subgroup (GL's), of the
 * size the device reports. Returns the y under them. */
static float draw_gpu_thread(view *v, const scene *s, int fx, int fy, float y)
{
    const layout *L = &v->L;
    int sg = s->gpu.device_known && s->gpu.device.subgroup > 0 ? s->gpu.device.subgroup : 32;
    bool gl = s->gpu.device_known && strcmp(s->gpu.eng.name, "gl") == 0;
    long tid, gidx;
    int lx, ly, tile, bx, by;
    char line[256];
    scene_block_size(s, &bx, &by);
    scene_launch_at(s, fx, fy, &lx, &ly, &tile); /* in tiles: within its tile's launch */
    tid = (long)(ly % by) * bx + lx % bx;
    gidx = (long)fy * s->img.luma.w + fx;
    if (tile >= 0) { /* the index in its tile's launch, halo included */
        int tx, ty, tw, th;
        tile_rect(&s->tiles.plan, tile, &tx, &ty, &tw, &th);
        gidx = (long)ly * (tw + 2) + lx;
        snprintf(line, sizeof line, _("tile %d \xC2\xB7 block (%d, %d) \xC2\xB7 thread (%d, %d)"), tile + 1, lx / bx,
                 ly / by, lx % bx, ly % by);
    } else {
        snprintf(line, sizeof line, _("block (%d, %d) \xC2\xB7 thread (%d, %d)"), lx / bx, ly / by, lx % bx, ly % by);
    }
    vw_text_fit(v, v->small, line, L->arith.x, y, L->arith.w, TEXT);
    y += vw_lh(v->small);
    if (gl && s->gpu.device.subgroup > 0)
        snprintf(line, sizeof line, _("global index %ld \xC2\xB7 subgroup %ld of %d (the driver's size)"), gidx,
                 tid / sg, sg);
    else if (gl)
        snprintf(line, sizeof line, _("global index %ld \xC2\xB7 warp %ld, in NVIDIA's 32s (no size reported)"), gidx,
                 tid / 32);
    else
        snprintf(line, sizeof line, _("global index %ld \xC2\xB7 warp %ld of its block (%d threads)"), gidx, tid / sg,
                 sg);
    vw_text_fit(v, v->small, line, L->arith.x, y, L->arith.w, TEXT);
    return y + vw_lh(v->small);
}

/* Thread view: who computes output (fx, fy): cpu-par's band that holds it
 * and the thread that ran that band, or the GPU's block and thread.
 * Returns the y under it. */
static float draw_owner(view *v, const scene *s, int fx, int fy, float y)
{
    const layout *L = &v->L;
    rnd_font *f = v->small;
    char band[256], thread[256];
    if (s->phase == SCENE_PHASE_GPU)
        return draw_gpu_thread(v, s, fx, fy, y);
    if (!scene_cpu_owner_text(s, fx, fy, band, thread, sizeof band)) {
        vw_text_fit(v, f, _("cpu-par's bands: measuring\xE2\x80\xA6"), L->arith.x, y, L->arith.w, DIM);
        return y + 2 * vw_lh(f);
    }
    vw_text_fit(v, f, band, L->arith.x, y, L->arith.w, TEXT);
    y += vw_lh(f);
    vw_text_fit(v, f, thread, L->arith.x, y, L->arith.w, TEXT);
    return y + vw_lh(f);
}

/* The three rows of products, the first `taps` of them done, in a smaller
 * font if they would not fit, down to what a room reads; narrower still,
 * the products flow onto as many lines as they need. Returns the y under
 * them. */
static float draw_products(view *v, const float weight[9], const float value[9], int taps, float y)
{
    const layout *L = &v->L;
    rnd_font *f = v->small;
    char rows[3][3][64], a[32], b[32];
    float widest = 0;
    for (int t = 0; t < 9; ++t) {
        fmt_value(weight[t], a, sizeof a);
        fmt_value(value[t], b, sizeof b);
        snprintf(rows[t / 3][t % 3], sizeof rows[0][0], "%s(%s\xC3\x97%s)", t == 0 ? "  " : "+ ", a, b);
    }
    /* the widest row at the small font, then smaller in proportion until it fits */
    for (int px = rnd_font_px(v->small);; px = (int)((float)px * fminf(0.95f, L->arith.w / widest))) {
        if (px < L->least_px)
            px = L->least_px;
        f = view_font_px(v, px);
        widest = 0;
        for (int row = 0; row < 3; ++row) {
            float w = 0;
            for (int col = 0; col < 3; ++col)
                w += vw_text_w(f, rows[row][col]) + 0.3f * L->pad;
            widest = fmaxf(widest, w);
        }
        if (widest <= L->arith.w || px <= L->least_px)
            break;
    }
    {
        int role = rnd_text_role(VIEW_TEXT_KERNEL);
        bool flow = widest > L->arith.w;
        float x = L->arith.x;
        for (int t = 0; t < 9; ++t) {
            const char *item = rows[t / 3][t % 3];
            float w = vw_text_w(f, item);
            if (flow ? x > L->arith.x && x + w > L->arith.x + L->arith.w : t > 0 && t % 3 == 0)
                x = L->arith.x, y += vw_lh(f);
            x += rnd_text(f, item, x, y, t < taps ? TEXT : FAINT) + 0.3f * L->pad;
        }
        rnd_text_role(role);
        y += vw_lh(f);
    }
    return y;
}

float vw_draw_arithmetic(view *v, const scene *s)
{
    const layout *L = &v->L;
    int fx, fy, taps = 9;
    bool from_stepper;
    float value[9], product[9], sum = 0, y = L->arith.y;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    char line[256], a[32], b[32], c[32];

    if (!s->img.luma.px)
        return y;
    scene_focus(s, &fx, &fy, &from_stepper);
    for (int t = 0; t < 9; ++t) {
        value[t] = conv_fetch(s->img.luma.px, s->img.luma.w, s->img.luma.h, fx, fy, t, s->opt.border);
        product[t] = conv_product(value[t], p.weight[t]);
    }
    if (from_stepper)
        taps = s->walk.stepper.taps;
    for (int t = 0; t < taps; ++t)
        sum += product[t];

    if (from_stepper)
        snprintf(line, sizeof line, _("Output (%d, %d): tap %d of 9"), fx, fy, taps);
    else
        snprintf(line, sizeof line, _("Output (%d, %d)%s"), fx, fy,
                 s->pinned     ? _(", pinned")
                 : s->hovering ? _(", under the mouse")
                               : "");
    vw_text_fit(v, v->small, line, L->arith.x, y, L->arith.w, s->pinned || s->hovering ? HOVER : WINDOW);
    y += vw_lh(v->small);
    if (s->thread_view)
        y = draw_owner(v, s, fx, fy, y);
    y = draw_products(v, p.weight, value, taps, y);
    fmt_value(sum, a, sizeof a);
    if (taps < 9) {
        snprintf(line, sizeof line, _("running sum = %s"), a);
    } else if (p.divisor != 1.0f) {
        fmt_value(p.divisor, b, sizeof b);
        fmt_value(conv_finish(sum, p.divisor), c, sizeof c);
        snprintf(line, sizeof line, "= %s \xC3\xB7 %s = %s", a, b, c);
    } else {
        snprintf(line, sizeof line, "= %s", a);
    }
    rnd_text(v->font, line, L->arith.x, y + 0.2f * L->pad, taps < 9 ? DIM : GREEN);
    return y + 0.2f * L->pad + vw_lh(v->font);
}
