/* kernel.c - the kernel's cells, kw by kh (and the one being typed into), and
 * the arithmetic of the output looked at: its products and their sum. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"
#include "core/stepper.h"

/* The colour of a weight in a kernel too fine for its numbers: warm for
 * positive, blue for negative, the stronger the larger against the largest. */
static rnd_color heat_of(float w, float most)
{
    float t = most > 0 ? fminf(1.0f, fabsf(w) / most) : 0;
    rnd_color hot = w < 0 ? (rnd_color){0.30f, 0.55f, 1.0f, 1} : (rnd_color){1.0f, 0.62f, 0.20f, 1};
    return (rnd_color){PANEL.r + (hot.r - PANEL.r) * t, PANEL.g + (hot.g - PANEL.g) * t,
                       PANEL.b + (hot.b - PANEL.b) * t, 1};
}

/* Beside a heat map (no numbers in its cells): the weights' range, and the
 * cell being typed into with its column and row. */
static void draw_heat_notes(view *v, const app *a, const conv_params *p, float kc, rect grid)
{
    const layout *L = &v->L;
    float lo = p->weight[0], hi = p->weight[0], x = L->middle.x, w = grid.x - L->middle.x - 0.4f * L->pad;
    char buf[128], a1[32], a2[32];
    for (int t = 1; t < p->kw * p->kh; ++t)
        lo = fminf(lo, p->weight[t]), hi = fmaxf(hi, p->weight[t]);
    fmt_value(lo, a1, sizeof a1);
    fmt_value(hi, a2, sizeof a2);
    snprintf(buf, sizeof buf, _("weights %s to %s"), a1, a2);
    vw_text_fit(v, v->small, buf, x, grid.y, w, DIM);
    if (a->edit_tap >= 0) {
        snprintf(buf, sizeof buf, "(%d, %d) = %s_", a->edit_tap % p->kw, a->edit_tap / p->kw, a->edit_text);
        vw_text_fit(v, v->small, buf, x, grid.y + vw_lh(v->small), w, WINDOW);
    }
    (void)kc;
}

void vw_draw_kernel(view *v, const app *a)
{
    const scene *s = &a->s;
    const layout *L = &v->L;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    int kw = p.kw, kh = p.kh, n = kw * kh, side = kw > kh ? kw : kh;
    bool three = kw == 3 && kh == 3;
    float kc = L->kernel.w / (float)side, gap, most = 0, widest = 0;
    rnd_font *kf;
    rect grid;
    char buf[96], div[32];
    bool heat;
    int role;

    fmt_value(p.divisor, div, sizeof div);
    snprintf(buf, sizeof buf, "\xC3\xB7 %s", div);
    if (kw > kh) { /* a wide window (a row): its cells as large as the column holds beside the divisor, at most a 3x3's */
        float room = L->middle.w - 2 * (vw_text_w(v->font, buf) + L->pad);
        kc = fmaxf(kc, fminf(L->kernel.w / 3, room / (float)kw));
    }
    gap = kc > 12 ? 2 : 1;
    /* the cells centred on the kernel's square: they fill it along the longer side */
    grid = (rect){kw == kh ? L->kernel.x : L->kernel.x + (L->kernel.w - (float)kw * kc) / 2,
                  kh < side ? L->kernel.y + (L->kernel.h - (float)kh * kc) / 2 : L->kernel.y, (float)kw * kc,
                  (float)kh * kc};
    /* the weights: a share of the cell, never under what a room reads */
    kf = view_font_px(v, (int)fmaxf(kc * 0.36f, (float)L->least_px));

    snprintf(buf, sizeof buf, "%s: %s%s", vw_T(v, "Kernel"), _(s->opt.kernel.title),
             s->opt.flip ? _(" (flipped)") : "");
    if (!three) { /* a sized filter says its size */
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, " \xC2\xB7 %d\xC3\x97%d", kw, kh);
    }
    vw_text_fit(v, v->small, buf, L->middle.x + fmaxf(0, L->middle.w - vw_text_w(v->small, buf)) / 2, L->middle.y,
                L->middle.w, TEXT);
    /* numbers in the cells while the widest fits; past that a heat map */
    for (int t = 0; t < n; ++t) {
        fmt_value(p.weight[t], buf, sizeof buf);
        widest = fmaxf(widest, vw_text_w(kf, buf));
        most = fmaxf(most, fabsf(p.weight[t]));
    }
    heat = !three && (widest > kc - gap - 2 || vw_lh(kf) > kc - gap); /* the numbers would not fit their cells */
    if (!three)
        vw_click_add(v, (vw_click){.r = grid,
                                   .action = app_action_of(ACT_EDIT_KERNEL),
                                   .map = VW_MAP_TAP,
                                   .cols = kw,
                                   .rows = kh,
                                   .cell = kc}); /* a click types into the cell under it */
    role = rnd_text_role(VIEW_TEXT_KERNEL);
    for (int t = 0; t < n; ++t) {
        rect r = {grid.x + (float)(t % kw) * kc, grid.y + (float)(t / kw) * kc, kc - gap, kc - gap};
        bool editing = a->edit_tap == t;
        bool active = s->phase == SCENE_PHASE_CPU && !s->hovering && !s->pinned && t == s->walk.stepper.taps - 1;
        if (three)
            vw_click_button(v, r, app_action_of(ACT_EDIT_KERNEL), t); /* a click types into the cell */
        rnd_rect(r.x, r.y, r.w, r.h, editing ? (rnd_color){0.25f, 0.25f, 0.12f, 1} : heat ? heat_of(p.weight[t], most) : PANEL);
        if (!heat || active || editing)
            rnd_frame(r.x, r.y, r.w, r.h, active || editing ? (heat ? 2 : 3) : 1, active || editing ? WINDOW : FAINT);
        if (heat)
            continue;
        if (editing) {
            snprintf(buf, sizeof buf, "%s_", a->edit_text);
            vw_text_center(kf, buf, r, WINDOW);
        } else {
            fmt_value(p.weight[t], buf, sizeof buf);
            vw_text_center(kf, buf, r, TEXT);
        }
    }
    rnd_text_role(role);
    if (heat)
        draw_heat_notes(v, a, &p, kc, grid);
    if (p.divisor != 1.0f) {
        snprintf(buf, sizeof buf, "\xC3\xB7 %s", div);
        rnd_text(v->font, buf, fmaxf(grid.x + grid.w, L->kernel.x + L->kernel.w) + 0.5f * L->pad,
                 L->kernel.y + L->kernel.h / 2 - L->line / 2, TEXT);
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

/* The products of a 3x3 window in three rows, the first `taps` of them
 * done, in a smaller font if they would not fit, down to what a room reads;
 * narrower still, the products flow onto as many lines as they need. A
 * window of up to nine taps flows the same way; a larger one is summed up:
 * its first products, "…", the last one done, and how many there are.
 * Returns the y under them. */
static float draw_products(view *v, const conv_params *p, const float *value, int taps, float y)
{
    const layout *L = &v->L;
    rnd_font *f = v->small;
    int n = p->kw * p->kh, shown = 0, tap[9];
    bool rows = p->kw == 3 && p->kh == 3, cut = n > 9, flow;
    char item[9][64], a[32], b[32];
    float widest = 0, x = L->arith.x;
    if (!cut) {
        for (int t = 0; t < n; ++t)
            tap[shown++] = t;
    } else { /* the first three, then the last done past them (or the last of all, to come) */
        for (int t = 0; t < 3; ++t)
            tap[shown++] = t;
        tap[shown++] = -1;
        tap[shown++] = taps > 3 ? taps - 1 : n - 1;
    }
    for (int i = 0; i < shown; ++i) {
        int t = tap[i];
        if (t < 0) {
            snprintf(item[i], sizeof item[i], "+ \xE2\x80\xA6 +"); /* the products left out: not a cut text */
            continue;
        }
        fmt_value(p->weight[t], a, sizeof a);
        fmt_value(value[t], b, sizeof b);
        snprintf(item[i], sizeof item[i], "%s(%s\xC3\x97%s)", t == 0 ? "  " : i > 0 && tap[i - 1] < 0 ? "" : "+ ", a, b);
    }
    /* the widest row of three at the small font, then smaller in
     * proportion until it fits */
    for (int px = rnd_font_px(v->small);; px = (int)((float)px * fminf(0.95f, L->arith.w / widest))) {
        float w = 0;
        if (px < L->least_px)
            px = L->least_px;
        f = view_font_px(v, px);
        widest = 0;
        for (int i = 0; i < shown; ++i) {
            if (i > 0 && i % 3 == 0) /* three to a row (a 3x3 window's: a row of the kernel) */
                widest = fmaxf(widest, w), w = 0;
            w += vw_text_w(f, item[i]) + 0.3f * L->pad;
        }
        widest = fmaxf(widest, w);
        if (widest <= L->arith.w || px <= L->least_px)
            break;
    }
    {
        int role = rnd_text_role(VIEW_TEXT_KERNEL);
        flow = !rows || widest > L->arith.w;
        for (int i = 0; i < shown; ++i) {
            float w = vw_text_w(f, item[i]);
            if (flow ? x > L->arith.x && x + w > L->arith.x + L->arith.w : i > 0 && i % 3 == 0)
                x = L->arith.x, y += vw_lh(f);
            x += rnd_text(f, item[i], x, y, tap[i] >= 0 && tap[i] < taps ? TEXT : FAINT) + 0.3f * L->pad;
        }
        rnd_text_role(role);
        y += vw_lh(f);
    }
    if (cut) { /* how many: the window's size and its products */
        char line[128];
        snprintf(line, sizeof line, _("%d\xC3\x97%d window: %d products, %d done"), p->kw, p->kh, n, taps);
        vw_text_fit(v, v->small, line, L->arith.x, y, L->arith.w, DIM);
        y += vw_lh(v->small);
    }
    return y;
}

/* Whether the image shown has colours (looked at once an image: a grey one is read through). */
static bool image_has_colour(view *v, const scene *s)
{
    if (v->colour_image != s->image_generation + 1) {
        v->colour_image = s->image_generation + 1;
        v->colour_of = img_is_colour(&s->img);
    }
    return v->colour_of;
}

float vw_draw_arithmetic(view *v, const scene *s)
{
    const layout *L = &v->L;
    int fx, fy, taps, n;
    bool from_stepper;
    static float value[CONV_MAX_TAPS], product[CONV_MAX_TAPS]; /* the window under the output looked at */
    float sum = 0, y = L->arith.y;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    char line[256], a[32], b[32], c[32];

    if (!s->img.luma.px)
        return y;
    n = taps = p.kw * p.kh;
    scene_focus(s, &fx, &fy, &from_stepper);
    for (int t = 0; t < n; ++t) {
        value[t] = conv_window_fetch(s->img.luma.px, s->img.luma.w, s->img.luma.h, fx, fy, t, p.kw, p.kh,
                                     s->opt.border);
        product[t] = conv_product(value[t], p.weight[t]);
    }
    if (from_stepper)
        taps = s->walk.stepper.taps;
    for (int t = 0; t < taps; ++t)
        sum += product[t];

    if (from_stepper)
        snprintf(line, sizeof line, _("Output (%d, %d): tap %d of %d"), fx, fy, taps, n);
    else
        snprintf(line, sizeof line, _("Output (%d, %d)%s"), fx, fy,
                 s->pinned     ? _(", pinned")
                 : s->hovering ? _(", under the mouse")
                               : "");
    vw_text_fit(v, v->small, line, L->arith.x, y, L->arith.w, s->pinned || s->hovering ? HOVER : WINDOW);
    y += vw_lh(v->small);
    if (s->thread_view)
        y = draw_owner(v, s, fx, fy, y);
    y = draw_products(v, &p, value, taps, y);
    fmt_value(sum, a, sizeof a);
    if (taps < n) {
        snprintf(line, sizeof line, _("running sum = %s"), a);
    } else if (p.divisor != 1.0f) {
        fmt_value(p.divisor, b, sizeof b);
        fmt_value(conv_finish(sum, p.divisor), c, sizeof c);
        snprintf(line, sizeof line, "= %s \xC3\xB7 %s = %s", a, b, c);
    } else {
        snprintf(line, sizeof line, "= %s", a);
    }
    rnd_text(v->font, line, L->arith.x, y + 0.2f * L->pad, taps < n ? DIM : GREEN);
    y += 0.2f * L->pad + vw_lh(v->font);
    if (s->img.color.px && fx >= 0 && fy >= 0 && fx < s->img.color.w && fy < s->img.color.h &&
        y + vw_lh(v->small) <= L->arith.y + L->arith.h && !L->presenter && image_has_colour(v, s)) { /* the three values of the pixel, of which the grids show one */
        const uint8_t *px = s->img.color.px + 4 * ((long)fy * s->img.color.w + fx);
        static const char *const shown[4] = {N_("its luma"), N_("red"), N_("green"), N_("blue")};
        snprintf(line, sizeof line, _("pixel (%1$d, %2$d): red %3$d, green %4$d, blue %5$d; the grids: %6$s (H)"), fx,
                 fy, px[0], px[1], px[2], _(shown[s->channel]));
        vw_text_fit(v, v->small, line, L->arith.x, y, L->arith.w, DIM);
        y += vw_lh(v->small);
    }
    return y;
}
