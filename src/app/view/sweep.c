/* sweep.c - the size sweep (W), in the grids' place: time against image
 * size, both on log scales, the live run and a recorded one; and the
 * filter sweep (Shift+W): time, on a log scale, against the filter's side. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../bound.h"

/* The sweep's plot: where its axes are and what they span. */
typedef struct plot {
    float x0, x1, y0, y1; /* the plot's left, right, top and bottom */
    double lo, hi;        /* the times at its bottom and top, on a log scale */
    double lmin, lmax;    /* the logarithms of the sizes at its left and right (or the sides, linear) */
    bool linear;          /* the filter sweep: sides across as they are */
} plot;

/* Where an image of size x size pixels (a filter of that side) goes across,
 * and a time of ms up. */
static float plot_x(const plot *p, int size)
{
    double x = p->linear ? (double)size : log((double)size);
    return p->x0 + (float)((x - p->lmin) / (p->lmax - p->lmin)) * (p->x1 - p->x0);
}

static float plot_y(const plot *p, double ms)
{
    return p->y1 - (float)(log10(ms / p->lo) / log10(p->hi / p->lo)) * (p->y1 - p->y0);
}

/* Whether the sweep draws bounds: no GPU of this machine's was measured,
 * and no recorded one is drawn instead. */
static bool sweep_bounds(const app *a)
{
    return bound_stands_in(&a->s) && !(a->has_record && strcmp(a->record.gpu_kind, "GPU") == 0);
}

/* GPU g's bound for the sweep's size x size image: the sweep's GPU copies
 * the image in and the result back. */
static double bound_at(const scene *s, int g, int size)
{
    bound_work w = bound_conv_work((long long)size * size, s->opt.kernel.kw * s->opt.kernel.kh, true);
    return bound_time_of(bound_gpu_at(g), &w).ms;
}

/* The sweep's times and the recorded run's, from the shortest to the
 * longest; the bounds' too, down to a third of the shortest of those (the
 * bounds of small images go far below any measured time, and say nothing
 * there: the chart does not follow them). */
static void sweep_range(const app *a, double *lo, double *hi)
{
    const scene *s = &a->s;
    *lo = 1e30, *hi = 0;
    for (int k = 0; k < SCENE_SWEEP_ENGINES; ++k)
        for (int i = 0; i < s->sweep.count; ++i)
            if (s->sweep.ms[k][i] > 0) {
                *lo = fmin(*lo, s->sweep.ms[k][i]);
                *hi = fmax(*hi, s->sweep.ms[k][i]);
            }
    for (int k = 0; a->has_record && k < a->record.engine_count; ++k)
        for (int i = 0; i < a->record.engine[k].count; ++i) {
            *lo = fmin(*lo, a->record.engine[k].run[i].median_ms);
            *hi = fmax(*hi, a->record.engine[k].run[i].median_ms);
        }
    if (sweep_bounds(a) && *hi > 0) {
        double floor_ms = *lo / 3, least = *lo;
        for (int g = 0; g < bound_gpu_count(); ++g)
            for (int size = 4; size <= 4096; size *= 4) {
                least = fmin(least, bound_at(&a->s, g, size));
                *hi = fmax(*hi, bound_at(&a->s, g, size));
            }
        *lo = fmax(least, floor_ms);
    }
}

/* The sweep's title (the crossover, when there is one) and the recorded
 * run's label; returns the plot's top. */
static float sweep_title(view *v, const app *a, rect box, int cross)
{
    const scene *s = &a->s;
    const layout *L = &v->L;
    float ls = vw_lh(v->small), y0;
    char buf[600];
    if (!s->gpu.eng.engine)
        snprintf(buf, sizeof buf, _("Size sweep (W hides it): the CPU engines up to %d\xC3\x97%d; no GPU engine here"),
                 s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0,
                 s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0);
    else if (cross)
        snprintf(buf, sizeof buf, _("Size sweep (W hides it): %s beats cpu-par from %d\xC3\x97%d up"),
                 scene_engine_label(&s->gpu.eng), cross, cross);
    else if (!scene_sweep_gpu_ever_ahead(s))
        snprintf(buf, sizeof buf, _("Size sweep (W hides it): %s is never ahead of cpu-par up to %d\xC3\x97%d"),
                 scene_engine_label(&s->gpu.eng), s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0,
                 s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0);
    else
        snprintf(buf, sizeof buf, _("Size sweep (W hides it): %s does not stay ahead of cpu-par up to %d\xC3\x97%d"),
                 scene_engine_label(&s->gpu.eng), s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0,
                 s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0);
    vw_text_fit(v, v->small, buf, box.x + 0.5f * L->pad, box.y + 0.3f * L->pad, box.w - L->pad, TEXT);
    y0 = box.y + ls * 1.4f;
    if (a->has_record) { /* what the dashed lines are */
        char label[480];
        rec_label(&a->record, label, sizeof label);
        snprintf(buf, sizeof buf, _("dashed, hollow: %s"), label);
        vw_text_fit(v, v->small, buf, box.x + 0.5f * L->pad, y0, box.w - L->pad, DIM);
        y0 += ls * 1.1f;
    }
    if (sweep_bounds(a)) { /* what the dotted lines are */
        vw_text_fit(v, v->small,
                    _("dotted, grey: bounds, from the datasheets, not measured: the least time a real GPU could take"),
                    box.x + 0.5f * L->pad, y0, box.w - L->pad, DIM);
        y0 += ls * 1.1f;
    } else if (a->has_record && strcmp(a->record.gpu_kind, "GPU") == 0 && bound_stands_in(&a->s)) {
        vw_text_fit(v, v->small, _("no bounds drawn: the recorded run was measured on a real GPU"),
                    box.x + 0.5f * L->pad, y0, box.w - L->pad, DIM);
        y0 += ls * 1.1f;
    }
    return y0 + 0.5f * ls; /* the axis labels sit centred on their lines */
}

/* The time axis: a line per power of ten, labelled at the left. */
static void draw_time_axis(view *v, const plot *p, rect box)
{
    const layout *L = &v->L;
    float last_label = 1e9f, ls = vw_lh(v->small);
    char buf[32];
    for (double t = p->lo; t <= p->hi * 1.0001; t *= 10) {
        float y = plot_y(p, t);
        rnd_rect(p->x0, y, p->x1 - p->x0, 1, (rnd_color){0.3f, 0.32f, 0.36f, 1});
        if (last_label - y < ls) /* crowded: every other power of ten */
            continue;
        if (t >= 1000)
            snprintf(buf, sizeof buf, "%g s", t / 1000);
        else if (t >= 1)
            snprintf(buf, sizeof buf, "%g ms", t);
        else
            snprintf(buf, sizeof buf, "%g \xC2\xB5s", t * 1000);
        rnd_text(v->small, buf, box.x + 0.5f * L->pad, y - ls / 2, DIM);
        last_label = y;
    }
}

/* The axes: the time's, the sizes below, the crossover. */
static void draw_axes(view *v, const plot *p, rect box, int cross)
{
    char buf[32];
    draw_time_axis(v, p, box);
    for (int size = 4; size <= 4096; size *= 4) {
        float x = plot_x(p, size);
        snprintf(buf, sizeof buf, "%d\xC2\xB2", size);
        rnd_text(v->small, buf, x - vw_text_w(v->small, buf) / 2, p->y1 + 0.2f * v->L.pad, DIM);
        if (size == cross) /* the crossover */
            rnd_rect(x - 1, p->y0, 2, p->y1 - p->y0, WHITE);
    }
}

/* The recorded run, in dashed lines with hollow markers, lighter. */
static void draw_recorded(view *v, const app *a, const plot *p, const rnd_color colors[SCENE_SWEEP_ENGINES])
{
    float ls = vw_lh(v->small);
    for (int k = 0; a->has_record && k < a->record.engine_count; ++k) {
        const rec_engine *e = &a->record.engine[k];
        int c = strcmp(e->name, "cpu-seq") == 0    ? SWEEP_SEQ
                : strcmp(e->name, "cpu-par") == 0  ? SWEEP_PAR
                : strcmp(e->name, "cpu-simd") == 0 ? SWEEP_SIMD
                                                   : SWEEP_GPU;
        rnd_color col = vw_alpha(vw_mix(colors[c], WHITE, 0.3f), 0.8f);
        float px = 0, py = 0, m = 0.3f * ls;
        for (int i = 0; i < e->count; ++i) {
            float x = plot_x(p, e->run[i].size), y = plot_y(p, e->run[i].median_ms);
            if (i > 0) { /* dashes from the last point */
                int steps = (int)(fmaxf(fabsf(x - px), fabsf(y - py)) / 2) + 1;
                for (int j = 0; j <= steps; ++j)
                    if ((j / 3) % 2 == 0)
                        rnd_rect(px + (x - px) * (float)j / (float)steps - 1,
                                 py + (y - py) * (float)j / (float)steps - 1, 2, 2, col);
            }
            rnd_frame(x - m, y - m, 2 * m, 2 * m, 1, col);
            px = x, py = y;
        }
    }
}

/* The bounds: a dotted grey line per GPU of the datasheets, cut where it
 * leaves the chart at its bottom, its name beside its right end (moved down out
 * of the way of the one above and of the engines' legend). */
static void draw_bounds(view *v, const app *a, const plot *p, float label_x, float below_legend)
{
    float ls = vw_lh(v->small), end_y[8], labels[8], last_label = below_legend - ls;
    int order[8], count = bound_gpu_count() < 8 ? bound_gpu_count() : 8;
    rnd_color col = vw_alpha(DIM, 0.9f);
    if (!sweep_bounds(a))
        return;
    for (int g = 0; g < count; ++g) {
        float px = 0, py = 0;
        for (int size = 4; size <= 4096; size *= 4) {
            float x = plot_x(p, size), y = plot_y(p, bound_at(&a->s, g, size)); /* below the chart when small */
            if (size > 4 && (y <= p->y1 || py <= p->y1)) { /* dots from the last point, cut at the bottom */
                int steps = (int)(fmaxf(fabsf(x - px), fabsf(y - py)) / 2) + 1;
                for (int j = 0; j <= steps; j += 3) {
                    float dx = px + (x - px) * (float)j / (float)steps, dy = py + (y - py) * (float)j / (float)steps;
                    if (dy <= p->y1)
                        rnd_rect(dx - 1, dy - 1, 2, 2, col);
                }
            }
            px = x, py = y;
        }
        end_y[g] = py, order[g] = g;
    }
    for (int i = 1; i < count; ++i) /* the names from the top down, by where their lines end */
        for (int j = i; j > 0 && end_y[order[j]] < end_y[order[j - 1]]; --j) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    /* beside the chart under the legend, each under the one above and all
     * above the sizes under the chart */
    if (below_legend + (float)count * ls <= p->y1 + 0.2f * v->L.pad) {
        for (int i = 0; i < count; ++i)
            labels[i] = last_label = fmaxf(end_y[order[i]] - 0.5f * ls, last_label + ls);
        for (int i = count - 1; i >= 0; --i)
            labels[i] = fminf(labels[i], (i == count - 1 ? p->y1 + 0.2f * v->L.pad : labels[i + 1]) - ls);
        for (int i = 0; i < count; ++i)
            rnd_text(v->small, bound_gpu_at(order[i])->short_name, label_x, labels[i], DIM);
        return;
    }
    /* no room there: in the chart at its right edge, over the lines' ends,
     * one name for lines that end within a line of text of each other */
    last_label = p->y0 - ls;
    for (int i = 0; i < count;) {
        char names[256] = "";
        size_t n = 0;
        int j = i;
        for (; j < count && end_y[order[j]] - end_y[order[i]] < ls; ++j)
            n += (size_t)snprintf(names + n, n < sizeof names ? sizeof names - n : 0, "%s%s", j > i ? ", " : "",
                                  bound_gpu_at(order[j])->short_name);
        rnd_text(v->small, names, p->x1 - vw_text_w(v->small, names) - 4,
                 fmaxf(end_y[order[i]] - 1.1f * ls, last_label + ls), DIM);
        last_label = fmaxf(end_y[order[i]] - 1.1f * ls, last_label + ls);
        i = j;
    }
}

/* Engine k's live line: small squares between its points, and markers
 * that differ in shape as well as colour. */
void vw_sweep_marker(int k, float x, float y, float m, rnd_color color)
{
    if (k == SWEEP_SEQ)
        rnd_rect(x - m, y - m, 2 * m, 2 * m, color);
    else if (k == SWEEP_PAR)
        rnd_frame(x - m, y - m, 2 * m, 2 * m, 2, color);
    else if (k == SWEEP_SIMD) { /* a diamond's outline: two short bars each way */
        rnd_rect(x - m, y - 1, 2 * m, 2, color);
        rnd_frame(x - 0.6f * m, y - 0.6f * m, 1.2f * m, 1.2f * m, 1, color);
    } else {
        rnd_rect(x - m, y - 1, 2 * m, 3, color);
        rnd_rect(x - 1, y - m, 3, 2 * m, color);
    }
}

static void draw_series(const int *size, const double *ms, int count, const plot *p, int k, rnd_color color, float ls)
{
    float px = 0, py = 0;
    bool have = false;
    for (int i = 0; i < count; ++i) {
        float x, y, m = 0.35f * ls;
        if (ms[i] <= 0)
            continue;
        x = plot_x(p, size[i]);
        y = plot_y(p, ms[i]);
        if (have) { /* a line of small squares from the last point */
            int steps = (int)(fmaxf(fabsf(x - px), fabsf(y - py)) / 2) + 1;
            for (int j = 0; j <= steps; ++j)
                rnd_rect(px + (x - px) * (float)j / (float)steps - 1, py + (y - py) * (float)j / (float)steps - 1, 2, 2,
                         color);
        }
        vw_sweep_marker(k, x, y, m, color);
        px = x, py = y, have = true;
    }
}

static void draw_live(const sweep_state *st, const plot *p, int k, rnd_color color, float ls)
{
    draw_series(st->size, st->ms[k], st->count, p, k, color, ls);
}

/* The engines' names and colours, in the order of the legend. */
static const int legend_order[SCENE_SWEEP_ENGINES] = {SWEEP_SEQ, SWEEP_SIMD, SWEEP_PAR, SWEEP_GPU};

rnd_color vw_sweep_color(int k)
{
    return PHASE_COLOR[k == SWEEP_SEQ ? ENG_COMPUTE : k == SWEEP_PAR ? ENG_UPLOAD : k == SWEEP_GPU ? ENG_PRESENT : ENG_DOWNLOAD];
}

const char *vw_sweep_engine(const scene *s, int k)
{
    return k == SWEEP_SEQ ? "cpu-seq" : k == SWEEP_PAR ? "cpu-par" : k == SWEEP_SIMD ? "cpu-simd" : scene_engine_label(&s->gpu.eng);
}

/* The width of the legend's names. */
static float legend_width(view *v, const scene *s)
{
    return fmaxf(vw_text_w(v->small, "cpu-simd "), vw_text_w(v->small, vw_sweep_engine(s, SWEEP_GPU)));
}

/* Each engine's live line, and its name in the legend at legend_x from the plot's top down. */
static void draw_engines(view *v, const scene *s, const sweep_state *st, const plot *p, float legend_x)
{
    float ls = vw_lh(v->small);
    for (int row = 0; row < SCENE_SWEEP_ENGINES; ++row) {
        int k = legend_order[row];
        draw_live(st, p, k, vw_sweep_color(k), ls);
        rnd_rect(legend_x, p->y0 + (float)row * ls * 1.2f + 0.3f * ls, 0.6f * ls, 0.6f * ls, vw_sweep_color(k));
        rnd_text(v->small, vw_sweep_engine(s, k), legend_x + 0.9f * ls, p->y0 + (float)row * ls * 1.2f, TEXT);
    }
}

/* The size sweep: time against image size, both on log scales, one line per
 * engine with its own marker shape (square, hollow square, cross), and the
 * size from which the GPU beat cpu-par marked. A recorded run (--record) is
 * drawn beside it in dashed lines with hollow markers, and labelled with its
 * machine and date: never mixed with the live one. It is drawn large, in
 * `box` (the grids' place), while the timing chart stays in its own. */
void vw_draw_sweep(view *v, const app *a, rect box)
{
    const scene *s = &a->s;
    const layout *L = &v->L;
    rnd_color colors[SCENE_SWEEP_ENGINES];
    plot p = {.lmin = log(4.0), .lmax = log(4096.0)};
    float legend_x, legend_w, ls = vw_lh(v->small);
    int cross = scene_sweep_crossover(s);

    for (int k = 0; k < SCENE_SWEEP_ENGINES; ++k)
        colors[k] = vw_sweep_color(k);
    rnd_rect(box.x, box.y, box.w, box.h, PANEL);
    sweep_range(a, &p.lo, &p.hi);
    p.y0 = sweep_title(v, a, box, cross);
    if (!(p.lo > 0) || !(p.hi > 0) || !isfinite(p.hi) || (s->sweep.count < 2 && !a->has_record))
        return;
    p.lo = pow(10, floor(log10(p.lo)));
    p.hi = pow(10, ceil(log10(p.hi)));
    if (!(p.lo > 0) || !isfinite(p.hi) || p.hi <= p.lo)
        return;
    legend_w = legend_width(v, s);
    for (int g = 0; sweep_bounds(a) && g < bound_gpu_count(); ++g)
        legend_w = fmaxf(legend_w, vw_text_w(v->small, bound_gpu_at(g)->short_name) - 0.9f * ls);
    legend_x = box.x + box.w - legend_w - 2 * L->pad;
    p.x0 = box.x + vw_text_w(v->small, "1000 ms ") + L->pad;
    p.x1 = legend_x - L->pad;
    p.y1 = box.y + box.h - ls * 1.3f;
    draw_axes(v, &p, box, cross);
    draw_bounds(v, a, &p, legend_x, p.y0 + (float)SCENE_SWEEP_ENGINES * ls * 1.2f + 0.3f * ls);
    draw_recorded(v, a, &p, colors); /* the recorded run first, under the live one */
    draw_engines(v, s, &s->sweep, &p, legend_x);
}

/* The K x K line: cpu-seq's first time grown as the products, the time
 * at side k. 0 when cpu-seq has no first time. */
static double products_line(const sweep_state *st, int k)
{
    double t0 = st->ms[SWEEP_SEQ][0];
    return st->count > 0 && t0 > 0 ? t0 * (double)(k * k) / (double)(st->size[0] * st->size[0]) : 0;
}

/* The filter sweep: time, on a log scale, against the filter's side, one
 * line per engine as in the size sweep, and a dotted grey line of the
 * products an output (K x K, counted) through cpu-seq's first time: what a
 * time grows as when the arithmetic sets the pace. */
void vw_draw_filter_sweep(view *v, const app *a, rect box)
{
    const scene *s = &a->s;
    const sweep_state *st = &s->filter_sweep;
    const layout *L = &v->L;
    plot p = {.lmin = 3, .lmax = 15, .linear = true, .lo = 1e30, .hi = 0};
    float legend_x, ls = vw_lh(v->small), px = 0, py = 0;
    char buf[400];

    rnd_rect(box.x, box.y, box.w, box.h, PANEL);
    snprintf(buf, sizeof buf, _("Filter sweep (Shift+W hides it): %s from 3\xC3\x97" "3 to 15\xC3\x97" "15, on this image at %d\xC3\x97%d"),
             _(filt_kind_title(&st->kind)), st->w, st->h);
    vw_text_fit(v, v->small, buf, box.x + 0.5f * L->pad, box.y + 0.3f * L->pad, box.w - L->pad, TEXT);
    p.y0 = box.y + ls * 1.8f;
    if (box.h - ls * 4.0f - ls * 1.3f >= (float)(SCENE_SWEEP_ENGINES + 1) * ls * 1.2f) {
        /* what the lines are, where the legend's five rows still fit under them (not in presenter mode on a
         * short window: the K² line is labelled on the plot, the vermilion one in the legend) */
        vw_text_fit(v, v->small,
                    _("dotted, grey: K\xC2\xB2, the products an output (counted), drawn through cpu-seq's first time: "
                      "the time's growth when the arithmetic sets the pace"),
                    box.x + 0.5f * L->pad, box.y + ls * 1.4f, box.w - L->pad, DIM);
        vw_text_fit(v, v->small,
                    _("vermilion: two passes, a row then a column, one thread, cpu-simd's lanes: 2K taps an output, "
                      "not K\xC2\xB2"),
                    box.x + 0.5f * L->pad, box.y + ls * 2.5f, box.w - L->pad, VERMILION);
        p.y0 = box.y + ls * 4.0f;
    }
    for (int i = 0; i < st->count; ++i) {
        for (int k = 0; k < SCENE_SWEEP_ENGINES; ++k)
            if (st->ms[k][i] > 0)
                p.lo = fmin(p.lo, st->ms[k][i]), p.hi = fmax(p.hi, st->ms[k][i]);
        if (st->sep_ms[i] > 0)
            p.lo = fmin(p.lo, st->sep_ms[i]), p.hi = fmax(p.hi, st->sep_ms[i]);
    }
    if (st->count < 2 || !(p.hi > 0))
        return;
    p.hi = fmax(p.hi, products_line(st, st->size[st->count - 1]));
    p.lo = pow(10, floor(log10(p.lo)));
    p.hi = pow(10, ceil(log10(p.hi)));
    if (!(p.lo > 0) || !isfinite(p.hi) || p.hi <= p.lo)
        return;
    legend_x = box.x + box.w - fmaxf(legend_width(v, s), vw_text_w(v->small, _("two passes"))) - 2 * L->pad;
    p.x0 = box.x + vw_text_w(v->small, "1000 ms ") + L->pad;
    p.x1 = legend_x - L->pad;
    p.y1 = box.y + box.h - ls * 1.3f;
    draw_time_axis(v, &p, box);
    for (int i = 0; i < SCENE_SWEEP_SIZES; ++i) { /* the sides below */
        float x = plot_x(&p, st->size[i]);
        snprintf(buf, sizeof buf, "%d\xC3\x97%d", st->size[i], st->size[i]);
        rnd_text(v->small, buf, x - vw_text_w(v->small, buf) / 2, p.y1 + 0.2f * L->pad, DIM);
    }
    for (int k = st->size[0]; k <= st->size[st->count - 1]; ++k) { /* the products' line, dotted */
        float x = plot_x(&p, k), y = plot_y(&p, products_line(st, k));
        if (k > st->size[0]) {
            int steps = (int)(fmaxf(fabsf(x - px), fabsf(y - py)) / 2) + 1;
            for (int j = 0; j <= steps; j += 3)
                rnd_rect(px + (x - px) * (float)j / (float)steps - 1, py + (y - py) * (float)j / (float)steps - 1, 2,
                         2, vw_alpha(DIM, 0.9f));
        }
        px = x, py = y;
    }
    {
        int k = st->size[st->count - 1] - 2; /* the label above the line, short of its end and its markers */
        rnd_text(v->small, "K\xC2\xB2", plot_x(&p, k) - vw_text_w(v->small, "K\xC2\xB2") / 2,
                 fmaxf(plot_y(&p, products_line(st, k)) - 1.4f * ls, p.y0), DIM); /* inside the plot, under the words */
    }
    draw_engines(v, s, st, &p, legend_x);
    /* the two passes, vermilion, below the engines in the legend */
    draw_series(st->size, st->sep_ms, st->count, &p, SWEEP_SIMD, VERMILION, ls);
    rnd_rect(legend_x, p.y0 + (float)SCENE_SWEEP_ENGINES * ls * 1.2f + 0.3f * ls, 0.6f * ls, 0.6f * ls, VERMILION);
    rnd_text(v->small, _("two passes"), legend_x + 0.9f * ls, p.y0 + (float)SCENE_SWEEP_ENGINES * ls * 1.2f, TEXT);
}
