/* roofline.c - the filter sweep's roofline, beside its chart: for each
 * engine, its two roofs as measured on its device (a copy, and a kernel of
 * the convolution's multiply-then-add), and its points at the sweep's
 * sides, the operations a byte it counts across against the rate its
 * compute phase was measured at up, both on log scales. As the filter
 * grows the points move right. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>

/* The plot: its place and the decades it spans. */
typedef struct roof_plot {
    float x0, x1, y0, y1;
    double xlo, xhi, ylo, yhi; /* operations a byte, GFLOP/s */
} roof_plot;

static float px_of(const roof_plot *p, double intensity)
{
    return p->x0 + (float)(log10(intensity / p->xlo) / log10(p->xhi / p->xlo)) * (p->x1 - p->x0);
}

static float py_of(const roof_plot *p, double gflops)
{
    return p->y1 - (float)(log10(gflops / p->ylo) / log10(p->yhi / p->ylo)) * (p->y1 - p->y0);
}

/* A dotted line between two points of the plot, kept inside it. */
static void dots(const roof_plot *p, float ax, float ay, float bx, float by, rnd_color c, int every)
{
    int steps = (int)(fmaxf(fabsf(bx - ax), fabsf(by - ay)) / 2) + 1;
    for (int j = 0; j <= steps; j += every) {
        float x = ax + (bx - ax) * (float)j / (float)steps, y = ay + (by - ay) * (float)j / (float)steps;
        if (x >= p->x0 && x <= p->x1 && y >= p->y0 && y <= p->y1)
            rnd_rect(x - 1, y - 1, 2, 2, c);
    }
}

/* The span of the points and the roofs, in whole decades. */
static bool plot_range(const scene *s, roof_plot *p)
{
    const sweep_state *st = &s->filter_sweep;
    double xlo = 1e30, xhi = 0, ylo = 1e30, yhi = 0, in, g;
    for (int k = 0; k < SCENE_SWEEP_ENGINES; ++k) {
        for (int i = 0; i < st->count; ++i)
            if (scene_filter_sweep_point(s, k, i, &in, &g)) {
                xlo = fmin(xlo, in), xhi = fmax(xhi, in), ylo = fmin(ylo, g), yhi = fmax(yhi, g);
            }
        if (st->roofs_ok[k]) {
            yhi = fmax(yhi, st->roofs[k].compute_gflops);
            xhi = fmax(xhi, st->roofs[k].compute_gflops / st->roofs[k].memory_gb_s);
        }
    }
    if (!(yhi > 0) || !(xhi > 0))
        return false;
    p->xlo = pow(10, floor(log10(xlo))), p->xhi = pow(10, ceil(log10(xhi * 1.5)));
    p->ylo = pow(10, floor(log10(ylo))), p->yhi = pow(10, ceil(log10(yhi * 1.2)));
    return p->xhi > p->xlo && p->yhi > p->ylo && isfinite(p->xhi) && isfinite(p->yhi);
}

static void axes(view *v, const roof_plot *p)
{
    char buf[32];
    float ls = vw_lh(v->small), last = -1e9f;
    for (double x = p->xlo; x <= p->xhi * 1.0001; x *= 10) {
        float X = px_of(p, x), w;
        rnd_rect(X, p->y0, 1, p->y1 - p->y0, (rnd_color){0.3f, 0.32f, 0.36f, 1});
        snprintf(buf, sizeof buf, "%g", x);
        w = vw_text_w(v->small, buf);
        if (X - w / 2 < last + 0.5f * ls) /* crowded: this decade's label left out */
            continue;
        rnd_text(v->small, buf, X - w / 2, p->y1 + 0.1f * ls, DIM);
        last = X + w / 2;
    }
    last = 1e9f;
    for (double y = p->ylo; y <= p->yhi * 1.0001; y *= 10) {
        float Y = py_of(p, y);
        rnd_rect(p->x0, Y, p->x1 - p->x0, 1, (rnd_color){0.3f, 0.32f, 0.36f, 1});
        if (last - Y < 1.05f * ls) /* crowded: every other decade */
            continue;
        snprintf(buf, sizeof buf, "%g", y);
        rnd_text(v->small, buf, p->x0 - vw_text_w(v->small, buf) - 0.3f * ls, Y - ls / 2, DIM);
        last = Y;
    }
}

/* Engine k's roofs (dotted: memory rising to the ridge, then compute) and
 * its points from the smallest side to the largest. */
static void engine(view *v, const scene *s, const roof_plot *p, int k)
{
    const sweep_state *st = &s->filter_sweep;
    rnd_color c = vw_sweep_color(k);
    float ls = vw_lh(v->small), lx = 0, ly = 0;
    double in, g;
    bool have = false;
    if (st->roofs_ok[k]) {
        double bw = st->roofs[k].memory_gb_s, top = st->roofs[k].compute_gflops, ridge = top / bw;
        double from = fmax(p->xlo, p->ylo / bw);
        dots(p, px_of(p, from), py_of(p, bw * from), px_of(p, ridge), py_of(p, top), vw_alpha(c, 0.85f), 2);
        dots(p, px_of(p, ridge), py_of(p, top), p->x1, py_of(p, top), vw_alpha(c, 0.85f), 2);
    }
    for (int i = 0; i < st->count; ++i) {
        float x, y;
        if (!scene_filter_sweep_point(s, k, i, &in, &g))
            continue;
        x = px_of(p, in), y = py_of(p, g);
        if (have)
            dots(p, lx, ly, x, y, c, 1);
        vw_sweep_marker(k, x, y, 0.3f * ls, c);
        lx = x, ly = y, have = true;
    }
}

void vw_draw_roofline(view *v, const app *a, rect box)
{
    const scene *s = &a->s;
    const sweep_state *st = &s->filter_sweep;
    const layout *L = &v->L;
    float ls = vw_lh(v->small), x = box.x + 0.5f * L->pad, w = box.w - L->pad, legend_y, top;
    roof_plot p;
    char buf[600];
    double in, g;
    rnd_rect(box.x, box.y, box.w, box.h, PANEL);
    vw_text_fit(v, v->small, _("Roofline, measured: each engine's points from 3\xC3\x97" "3 to 15\xC3\x97" "15"), x,
                box.y + 0.3f * L->pad, w, TEXT);
    legend_y = box.y + box.h - ls * (SCENE_SWEEP_ENGINES * 1.1f + 0.3f);
    top = box.y + ls * 1.8f;
    if (legend_y - ls * 1.4f - top < 3 * ls) /* too short for the legend too: the plot alone, its colours the chart's */
        legend_y = box.y + box.h + 0.2f * ls;
    if (legend_y - ls * 1.4f - box.y - ls * 4.0f >= 3 * ls) { /* the axes in words, where the plot keeps its room */
        vw_text_fit(v, v->small,
                    _("across: operations a byte, counted (2K\xC2\xB2+1 an output over its 8 bytes); up: GFLOP/s of "
                      "the compute phase"),
                    x, box.y + ls * 1.4f, w, DIM);
        vw_text_fit(v, v->small,
                    _("dotted: its roofs, a copy (memory) and a multiply-then-add kernel (compute), timed on its "
                      "device"),
                    x, box.y + ls * 2.5f, w, DIM);
        top = box.y + ls * 4.0f;
    }
    if (!plot_range(s, &p)) {
        vw_text_fit(v, v->small, _("measuring\xE2\x80\xA6"), x, top, w, DIM);
        return;
    }
    p.x0 = box.x + vw_text_w(v->small, "1000 ") + L->pad;
    p.x1 = box.x + box.w - L->pad;
    p.y0 = top;
    p.y1 = legend_y - ls * 1.4f;
    if (p.y1 - p.y0 < 3 * ls)
        return;
    axes(v, &p);
    for (int k = 0; k < SCENE_SWEEP_ENGINES; ++k)
        engine(v, s, &p, k);
    if (scene_filter_sweep_point(s, SWEEP_SEQ, 0, &in, &g)) /* where the sides start and end */
        rnd_text(v->small, "3\xC3\x97" "3", px_of(&p, in) - vw_text_w(v->small, "3\xC3\x97" "3") / 2,
                 py_of(&p, g) - 1.5f * ls, DIM);
    if (st->count > 1 && scene_filter_sweep_point(s, SWEEP_SEQ, st->count - 1, &in, &g)) {
        snprintf(buf, sizeof buf, "%d\xC3\x97%d", st->size[st->count - 1], st->size[st->count - 1]);
        rnd_text(v->small, buf, fminf(px_of(&p, in), p.x1 - vw_text_w(v->small, buf)), py_of(&p, g) - 1.5f * ls, DIM);
    }
    for (int row = 0; row < SCENE_SWEEP_ENGINES && legend_y < box.y + box.h; ++row) { /* the legend: each engine's roofs in figures */
        static const int order[SCENE_SWEEP_ENGINES] = {SWEEP_SEQ, SWEEP_SIMD, SWEEP_PAR, SWEEP_GPU};
        int k = order[row];
        float y = legend_y + (float)row * ls * 1.1f;
        rnd_color c = vw_sweep_color(k);
        rnd_rect(x, y + 0.3f * ls, 0.6f * ls, 0.6f * ls, c);
        if (st->roofs_ok[k])
            snprintf(buf, sizeof buf, _("%s: %.3g GB/s, %.3g GFLOP/s"), vw_sweep_engine(s, k),
                     st->roofs[k].memory_gb_s, st->roofs[k].compute_gflops);
        else if (st->roofs_why[k][0])
            snprintf(buf, sizeof buf, _("%s: roofs not measured: %s"), vw_sweep_engine(s, k), st->roofs_why[k]);
        else
            snprintf(buf, sizeof buf, _("%s: roofs not measured yet"), vw_sweep_engine(s, k));
        vw_text_fit(v, v->small, buf, x + 0.9f * ls, y, w - 0.9f * ls, TEXT);
    }
}
