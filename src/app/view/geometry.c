/* geometry.c - the geometry view (, . /), in the grids' place: a piece of
 * the image as an image of its own with its padding ring, the output whose
 * size the stride, dilation and padding give, one output's taps in turn,
 * and the whole image's figures on each engine. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../format.h"

/* The input cells drawn along an axis: from the first tap any output reads
 * (or 0) to the last (or the piece's end). */
static void input_span(int n, int outs, int stride, int pad, int extent, int *lo, int *hi)
{
    *lo = -pad < 0 ? -pad : 0;
    *hi = (outs - 1) * stride - pad + extent - 1;
    *hi = *hi > n - 1 ? *hi : n - 1;
}

static void value_in(view *v, rnd_font *f, float value, rect r, rnd_color fill)
{
    char buf[32];
    if (!f)
        return;
    fmt_cell(value, buf, sizeof buf);
    if (vw_text_w(f, buf) <= r.w * 0.92f)
        vw_text_center(f, buf, r, vw_alpha(vw_ink_for(fill), 0.9f));
    (void)v;
}

/* The piece and its output, side by side in `box`. */
static void draw_piece(view *v, const scene *s, const conv_params *p, rect box)
{
    const geometry_state *g = &s->geometry;
    const layout *L = &v->L;
    int ex = p->dilation * (p->kw - 1) + 1, ey = p->dilation * (p->kh - 1) + 1;
    int x0, x1, y0, y1, ax = (int)(g->at % g->out_n), ay = (int)(g->at / g->out_n);
    int cx = ax * p->stride - p->pad_x, cy = ay * p->stride - p->pad_y, cols, rows, px;
    float c, gx, gy, ox, thick;
    rnd_font *f;
    input_span(g->n, g->out_n, p->stride, p->pad_x, ex, &x0, &x1);
    input_span(g->n, g->out_m, p->stride, p->pad_y, ey, &y0, &y1);
    cols = x1 - x0 + 1, rows = y1 - y0 + 1;
    c = fminf((box.w - 2 * L->pad) / (float)(cols + g->out_n + 2), box.h / (float)(rows > g->out_m ? rows : g->out_m));
    c = fminf(c, 4.0f * L->line);
    px = (int)(c * 0.34f);
    f = px >= L->least_px ? view_font_px(v, px) : NULL;
    thick = fmaxf(2.0f, c * 0.08f);
    gx = box.x + L->pad, gy = box.y;
    for (int j = y0; j <= y1; ++j)
        for (int i = x0; i <= x1; ++i) {
            rect r = {gx + (float)(i - x0) * c, gy + (float)(j - y0) * c, c - 1, c - 1};
            bool inside = i >= 0 && j >= 0 && i < g->n && j < g->n;
            float val = conv_sample(g->piece, g->n, g->n, i, j, p->border);
            uint8_t level = img_display_byte(val, IMG_DISPLAY_CLAMP);
            rnd_color fill = inside ? vw_cell_color(level, BLUE) : vw_mix(vw_cell_color(level, (rnd_color){0.7f, 0.7f, 0.7f, 1}), BG, 0.25f);
            rnd_rect(r.x, r.y, r.w, r.h, fill);
            if (!inside)
                vw_dashed_frame(r.x + 1, r.y + 1, r.w - 2, r.h - 2, fmaxf(1.0f, c * 0.05f), DIM);
            value_in(v, f, val, r, fill);
        }
    rnd_frame(gx + (float)(0 - x0) * c - 2, gy + (float)(0 - y0) * c - 2, (float)g->n * c + 3, (float)g->n * c + 3, 2,
              BLUE);
    /* the window's extent, then its taps */
    rnd_frame(gx + (float)(cx - x0) * c, gy + (float)(cy - y0) * c, (float)ex * c - 1, (float)ey * c - 1, 1,
              vw_alpha(WINDOW, 0.6f));
    for (int j = 0; j < p->kh; ++j)
        for (int i = 0; i < p->kw; ++i)
            rnd_frame(gx + (float)(cx + i * p->dilation - x0) * c + 1, gy + (float)(cy + j * p->dilation - y0) * c + 1,
                      c - 3, c - 3, thick, WINDOW);
    /* the output */
    ox = gx + (float)(cols + 2) * c;
    for (int j = 0; j < g->out_m; ++j)
        for (int i = 0; i < g->out_n; ++i) {
            rect r = {ox + (float)i * c, gy + (float)j * c, c - 1, c - 1};
            long at = (long)j * g->out_n + i;
            float val = g->piece_out[at];
            rnd_color fill = at <= g->at ? vw_cell_color(img_display_byte(val, s->opt.display), GREEN) : PANEL;
            rnd_rect(r.x, r.y, r.w, r.h, at <= g->at ? fill : vw_mix(BG, PANEL, 0.5f));
            if (at <= g->at)
                value_in(v, f, val, r, fill);
        }
    rnd_frame(ox - 2, gy - 2, (float)g->out_n * c + 3, (float)g->out_m * c + 3, 2, GREEN);
    rnd_frame(ox + (float)ax * c + 1, gy + (float)ay * c + 1, c - 3, c - 3, thick, WINDOW);
    {
        char buf[600];
        float y = gy + (float)(rows > g->out_m ? rows : g->out_m) * c + 0.3f * L->pad;
        snprintf(buf, sizeof buf, _("input: the image's top-left %d\xC3\x97%d (blue), as an image of its own; dashed "
                                    "grey: the padding, read by the border rule (%s)"),
                 g->n, g->n, C_("border", conv_border_name((conv_border)p->border)));
        vw_text_fit(v, v->small, buf, gx, y, box.w - 2 * L->pad, DIM);
        snprintf(buf, sizeof buf, _("output: %d\xC3\x97%d (green); amber: output (%d, %d) and the %d taps it reads"),
                 g->out_n, g->out_m, ax, ay, p->kw * p->kh);
        vw_text_fit(v, v->small, buf, gx, y + vw_lh(v->small), box.w - 2 * L->pad, DIM);
    }
}

/* The whole image's figures: one line an engine. */
static void draw_table(view *v, const scene *s, float x, float y, float w)
{
    const geometry_state *g = &s->geometry;
    float ls = vw_lh(v->small);
    char buf[800], ms[32], n[32], total[32];
    int plain_w = s->geometry.w, plain_h = s->geometry.h;
    fmt_count((long long)g->out_w * g->out_h, n, sizeof n);
    fmt_count((long long)plain_w * plain_h, total, sizeof total);
    snprintf(buf, sizeof buf,
             _("The whole image, %d\xC3\x97%d \xE2\x86\x92 %d\xC3\x97%d: %s outputs (stride 1 and same padding: %s)"),
             g->w, g->h, g->out_w, g->out_h, n, total);
    vw_text_fit(v, v->small, buf, x, y, w, TEXT);
    for (int k = 0; k < GEOM_ENGINES; ++k) {
        float ly = y + (float)(k + 1) * ls * 1.15f;
        const char *name = scene_geometry_engine(s, k);
        vw_text_fit(v, v->small, name, x + ls, ly, 9 * ls, TEXT);
        if (g->ms[k] >= 0) {
            fmt_ms(g->ms[k], ms, sizeof ms);
            char runs[64];
            if (g->reps[k] == 1)
                snprintf(runs, sizeof runs, "%s", _("a single run"));
            else
                snprintf(runs, sizeof runs, _("the median of %d runs"), g->reps[k]);
            if (g->differ[k] == 0)
                snprintf(buf, sizeof buf, _("%s (%s); every output the reference's bits"), ms, runs);
            else {
                fmt_count(g->differ[k], n, sizeof n);
                snprintf(buf, sizeof buf, _("%s (%s); %s outputs differ from the reference"), ms, runs, n);
            }
        } else if (g->why[k][0])
            snprintf(buf, sizeof buf, _("not run: %s"), g->why[k]);
        else
            snprintf(buf, sizeof buf, "%s", g->out_w > 0 && g->out_h > 0 ? _("measuring\xE2\x80\xA6")
                                                                      : _("nothing to run: no output"));
        vw_text_fit(v, v->small, buf, x + 10 * ls, ly, w - 10 * ls, g->differ[k] > 0 ? WINDOW : DIM);
    }
}

void vw_draw_geometry(view *v, const app *a, rect box)
{
    const scene *s = &a->s;
    const geometry_state *g = &s->geometry;
    const layout *L = &v->L;
    conv_params p = scene_geometry_params(s);
    int ex = p.dilation * (p.kw - 1) + 1, ey = p.dilation * (p.kh - 1) + 1;
    float ls = vw_lh(v->small), table_h = ls * 1.15f * (GEOM_ENGINES + 1) + 0.5f * L->pad, x = box.x + 0.5f * L->pad;
    char buf[800];

    rnd_rect(box.x, box.y, box.w, box.h, PANEL);
    snprintf(buf, sizeof buf,
             _("Geometry (, stride  . dilation  / padding  Esc: back): stride %d, dilation %d, %s padding; %s, "
               "%d\xC3\x97%d"),
             p.stride, p.dilation, C_("padding", conv_padding_name((conv_padding)p.padding)), _(filt_kind_title(&s->opt.kernel)),
             p.kw, p.kh);
    vw_text_fit(v, v->small, buf, x, box.y + 0.3f * L->pad, box.w - L->pad, TEXT);
    snprintf(buf, sizeof buf,
             _("output (x, y) lays its window's corner on input (%d\xC2\xB7x \xE2\x88\x92 %d, %d\xC2\xB7y \xE2\x88\x92 "
               "%d), its taps %d apart: the window spans %d\xC3\x97%d pixels"),
             p.stride, p.pad_x, p.stride, p.pad_y, p.dilation, ex, ey);
    vw_text_fit(v, v->small, buf, x, box.y + 0.3f * L->pad + ls * 1.1f, box.w - L->pad, DIM);
    {
        rect piece = {box.x, box.y + ls * 2.6f + 0.3f * L->pad, box.w, box.h - table_h - ls * 5.2f};
        if (g->out_n > 0 && g->out_m > 0)
            draw_piece(v, s, &p, piece);
        else {
            if (ex + 4 > GEOM_PIECE_MAX || ey + 4 > GEOM_PIECE_MAX)
                snprintf(buf, sizeof buf,
                         _("This window spans %d\xC3\x97%d pixels: too wide to draw on a piece of at most %d\xC3\x97%d; "
                           "the whole image's figures are below."),
                         ex, ey, GEOM_PIECE_MAX, GEOM_PIECE_MAX);
            else
                snprintf(buf, sizeof buf, "%s", _("No whole window fits the piece: valid padding leaves no output."));
            vw_text_fit(v, v->small, buf, x, piece.y + ls, box.w - L->pad, TEXT);
        }
    }
    draw_table(v, s, x, box.y + box.h - table_h, box.w - L->pad);
}
