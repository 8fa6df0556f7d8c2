/* charts.c - the timing chart (a bar per engine, split by phase, with the
 * memory gauge and the verdicts under it) and the chain's panel. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bound.h"
#include "../format.h"

/* A phase's name in the legend, in the window's language. */
static const char *phase_word(int p)
{
    static const char *const words[ENG_PHASE_COUNT] = {N_("upload"), N_("compute"), N_("download"), N_("present"),
                                                       N_("overhead")};
    return _(words[p]);
}

/* Length of a bar for t ms on a scale to `max` (log from `lo` when log). */
static float bar_len(double t, double lo, double max, bool log_scale, float width)
{
    if (t <= 0)
        return 0;
    if (!log_scale)
        return (float)(t / max) * width;
    if (t <= lo)
        return 2;
    return (float)(log10(t / lo) / log10(max / lo)) * width;
}

/* "cpu-par 27.1× faster than cpu-seq", by the one rule (eng_verdict_of). */
static void short_compare(const char *a_name, const eng_timing *a, const char *b_name, const eng_timing *b, char *buf,
                          size_t size)
{
    eng_verdict v = eng_compare_timings(a, b);
    fmt_verdict(FMT_SHORT, a_name, b_name, &v, buf, size);
}

/* The chain's panel, at (x, top) and w wide; returns its height, and draws
 * it when `draw` (else only measures, for the layout). Per engine (cpu-seq,
 * the GPU) the passes chained, each waiting for the one before, and the
 * same passes independent, one bar each on one scale, and under them what
 * the one rule says of the two; a last line says what each bar is. */
static float chain_panel(view *v, const scene *s, float x, float top, float w, bool draw)
{
    const layout *L = &v->L;
    const char *label[SCENE_CHAIN_ENGINES] = {"cpu-seq", scene_engine_label(&s->gpu.eng)},
               *kind[2] = {_("chained"), _("independent")};
    float y = top, lh = vw_lh(v->small), bar_h = lh * 0.95f, left = x + 0.5f * L->pad,
          label_w = fmaxf(vw_text_w(v->small, "cpu-seq "), vw_text_w(v->small, label[1])) + L->pad,
          kind_w = fmaxf(vw_text_w(v->small, kind[0]), vw_text_w(v->small, kind[1])) + L->pad;
    float x0 = left + label_w + kind_w, width = fmaxf(x + w - x0 - vw_text_w(v->small, " 999.99 ms "), 1.0f);
    double hi = 0;
    char buf[512], t[256], n[32];

    for (int i = 0; i < SCENE_CHAIN_ENGINES; ++i) /* one scale: the slowest run of all */
        hi = fmax(hi, fmax(s->chain.chained_runs[i].hi, s->chain.independent_runs[i].hi));
    fmt_count(s->chain.length, n, sizeof n);
    snprintf(buf, sizeof buf,
             _("Chain (X hides it): %s passes on a 4\xC3\x97"
               "4 image, two ways"),
             n);
    if (draw)
        vw_text_fit(v, v->small, buf, left, y + 0.3f * L->pad, w - L->pad, TEXT);
    y += lh + 0.5f * L->pad;
    for (int i = 0; i < SCENE_CHAIN_ENGINES; ++i) {
        if (draw)
            rnd_text(v->small, label[i], left, y, TEXT);
        for (int k = 0; k < 2 && draw; ++k) {
            const eng_spread *r = k ? &s->chain.independent_runs[i] : &s->chain.chained_runs[i];
            float yk = y + (float)k * bar_h * 1.15f;
            rnd_text(v->small, kind[k], left + label_w, yk, DIM);
            if (!r->runs) {
                rnd_text(v->small, scene_busy(s) ? _("measuring\xE2\x80\xA6") : _("did not run"), x0, yk, FAINT);
            } else {
                float bw = hi > 0 ? fmaxf((float)(r->ms / hi) * width, 2.0f) : 0,
                      end = hi > 0 ? fmaxf(bw, (float)(r->hi / hi) * width) : bw;
                rnd_rect(x0, yk, bw, bar_h, PHASE_COLOR[k == 0 ? ENG_OVERHEAD : ENG_COMPUTE]);
                if (r->hi > r->lo) /* the whisker: the fastest run to the slowest */
                    rnd_rect(x0 + (float)(r->lo / hi) * width, yk + 0.45f * bar_h,
                             (float)((r->hi - r->lo) / hi) * width, 0.1f * bar_h + 1.0f, TEXT);
                fmt_ms(r->ms, t, sizeof t);
                rnd_text(v->small, t, x0 + end + 0.4f * L->pad, yk, TEXT);
            }
        }
        y += 2 * bar_h * 1.15f;
        if (s->chain.chained_runs[i].runs && s->chain.independent_runs[i].runs) {
            scene_chain_wait_text(s, i, FMT_SHORT, t, sizeof t);
            y += rnd_text_wrapped(v->small, t, left + label_w, y, x + w - left - label_w - 0.5f * L->pad, DIM, draw);
        } else {
            y += lh;
        }
        y += 0.15f * lh;
    }
    snprintf(buf, sizeof buf,
             _("chained: each pass reads the one before, started and waited for by the host. independent: the same "
               "passes from the image, stacked, in one run. Bar: median of %d runs; line: fastest to slowest."),
             SCENE_CHAIN_REPS);
    y += rnd_text_wrapped(v->small, buf, left, y, w - L->pad, FAINT, draw);
    return y - top + 0.5f * L->pad;
}

/* The memory row's words; *cap, *used: the track's capacity and what others
 * use (cap -1: no track). */
static void memory_text(const scene *s, char *buf, size_t size, long long *cap_out, long long *used_out)
{
    const eng_device_info *d = &s->gpu.device;
    long long need = scene_image_bytes(s), cap = -1, used = 0;
    char a1[32], a2[32], a3[32];
    fmt_bytes(need, a1, sizeof a1);
    if (s->gpu.budget > 0) {
        cap = s->gpu.budget;
        fmt_bytes(cap, a2, sizeof a2);
        if (s->tiles.on && tile_count(&s->tiles.plan) > 0) {
            char t[64];
            scene_tiles_text(s, t, sizeof t);
            snprintf(buf, size, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 budget %s (P): %s"), a1, a2, t);
        } else {
            snprintf(buf, size, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 budget %s (P)%s"), a1, a2,
                     scene_needs_tiles(s) ? _(": G runs it in tiles") : _(": fits"));
        }
    } else if (s->gpu.device_known && d->memory_total > 0 && d->memory_free >= 0) {
        cap = d->memory_total;
        used = d->memory_total - d->memory_free - d->memory_engine;
        if (used < 0)
            used = 0;
        fmt_bytes(d->memory_free + d->memory_engine, a2, sizeof a2);
        fmt_bytes(d->memory_total, a3, sizeof a3);
        snprintf(buf, size, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 %s free for it of %s"), a1, a2, a3);
    } else if (s->gpu.device_known && d->max_buffer > 0) {
        cap = 2 * d->max_buffer;
        fmt_bytes(d->max_buffer, a2, sizeof a2);
        snprintf(buf, size,
                 _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 one buffer \xE2\x89\xA4 %s (no total reported)"), a1,
                 a2);
    } else {
        snprintf(buf, size, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 %s"), a1,
                 s->gpu.eng.engine ? _("G reads the device's memory") : _("no GPU engine here"));
    }
    *cap_out = cap;
    *used_out = used;
}

/* The memory gauge, one row under the bars: what the image needs on the
 * device (two buffers of 4 bytes a pixel) against what the device has (its
 * free and total memory, or the driver's limit for one buffer) or the
 * budget the learner set (P), in words and on a track: the capacity in
 * grey, what others use in a darker grey, the image's need in white, a
 * tick where the capacity ends (the need runs past it when it does not
 * fit). Returns the y under it. */
static float draw_memory_row(view *v, const scene *s, float x0, float width, float y)
{
    const layout *L = &v->L;
    long long need = scene_image_bytes(s), cap, used;
    char buf[256];
    float track_y, k, x;
    memory_text(s, buf, sizeof buf, &cap, &used);
    rnd_text(v->small, _("memory"), L->chart.x + 0.5f * L->pad, y, TEXT);
    /* wrapped: the chart is made as tall as its words (vw_chart_height) */
    track_y = y + rnd_text_wrapped(v->small, buf, x0, y, L->chart.x + L->chart.w - x0 - 0.5f * L->pad, DIM, true) + 2;
    if (cap > 0) {
        double scale = fmax((double)cap, (double)(used + need));
        k = (float)(width / scale);
        rnd_rect(x0, track_y, (float)cap * k, 3, FAINT);
        rnd_rect(x0, track_y, (float)used * k, 3, DIM);
        x = x0 + (float)used * k;
        rnd_rect(x, track_y - 1, fmaxf(2.0f, (float)need * k), 5, WHITE);
        rnd_rect(x0 + (float)cap * k - 1, track_y - 4, 2, 11, TEXT); /* where the capacity ends */
    }
    return track_y + 10;
}

/* The timing chart's engines: one core, one core with vector lanes, every
 * core, the GPU. */
enum { CHART_ENGINES = 4 };

/* The chart's scale: from the fastest run of any engine to the slowest, on
 * a log scale when they are far apart. Returns whether it is. */
static bool chart_scale(const scene_engine *const e[CHART_ENGINES], double bound, double *lo, double *hi)
{
    bool log_scale;
    *lo = 1e30, *hi = 0;
    for (int i = 0; i < CHART_ENGINES; ++i)
        if (e[i]->measured) {
            double total = eng_total_ms(&e[i]->timing);
            *lo = fmin(*lo, fmin(total, eng_total_min(&e[i]->timing)));
            *hi = fmax(*hi, fmax(total, eng_total_max(&e[i]->timing)));
        }
    if (bound > 0) /* the bound's row, down to a thousandth of the fastest run; below, its bar is at its least */
        *lo = fmin(*lo, *hi > 0 ? fmax(bound, *lo / 1000) : bound), *hi = fmax(*hi, bound);
    *lo = fmax(*lo, 1e-6); /* a time too short for the clock reads 0 */
    log_scale = *hi > 0 && *hi / *lo > 30;
    if (log_scale)
        *lo = pow(10, floor(log10(*lo)) - 0.3);
    return log_scale;
}

/* The chart's title, a warning beside it when the runs are noisy, else the
 * legend of phases on its row, at its right, when it fits. Returns whether
 * the legend went there. */
static void title_text(const view *v, const scene *s, bool log_scale, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d\xC3\x97%d%s", vw_T(v, "Time for the whole"), s->img.luma.w, s->img.luma.h,
             log_scale ? _(" (log scale)") : "");
}

/* The legend's width on one row, for bars bar_h high. */
static float legend_width(view *v, float bar_h)
{
    float lw = 0;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        lw += bar_h * 0.8f + vw_text_w(v->small, phase_word(p)) + v->L.pad;
    return lw;
}

/* Whether the legend goes on the title's row: the runs not noisy, and
 * room for both in a chart w wide. */
static bool legend_on_title_row(view *v, const scene *s, const char *title, float bar_h, float w)
{
    return !scene_noisy(s) && vw_text_w(v->small, title) + legend_width(v, bar_h) + 1.5f * v->L.pad < w;
}

static bool chart_title(view *v, const scene *s, bool log_scale, float bar_h)
{
    const layout *L = &v->L;
    float y = L->chart.y, lw = legend_width(v, bar_h), x;
    bool legend_on_top;
    char buf[256];
    title_text(v, s, log_scale, buf, sizeof buf);
    rnd_text(v->small, buf, L->chart.x + 0.5f * L->pad, y + 0.3f * L->pad, TEXT);
    if (scene_noisy(s)) { /* said beside the title, where the times are read */
        char noisy[96];
        float tx = L->chart.x + 0.5f * L->pad + vw_text_w(v->small, buf) + L->pad;
        if (s->measure.load >= 0)
            snprintf(noisy, sizeof noisy, _("noisy: the runs spread widely (load %.1f on %d cores)"), s->measure.load,
                     s->measure.cores);
        else
            snprintf(noisy, sizeof noisy, _("noisy: the runs spread widely"));
        vw_text_fit(v, v->small, noisy, tx, y + 0.3f * L->pad, L->chart.x + L->chart.w - tx - 0.5f * L->pad, WINDOW);
    }
    legend_on_top = legend_on_title_row(v, s, buf, bar_h, L->chart.w);
    for (int p = 0; legend_on_top && p < ENG_PHASE_COUNT; ++p) {
        int role = rnd_text_role(VIEW_TEXT_LEGEND);
        if (p == 0)
            x = L->chart.x + L->chart.w - lw;
        rnd_rect(x, y + 0.3f * L->pad + bar_h * 0.25f, bar_h * 0.6f, bar_h * 0.6f, PHASE_COLOR[p]);
        x += bar_h * 0.8f;
        x += rnd_text(v->small, phase_word(p), x, y + 0.3f * L->pad, DIM) + L->pad;
        rnd_text_role(role);
    }
    return legend_on_top;
}

/* Where the bars start and how long the longest is, on the chart's scale. */
typedef struct bars {
    float x0, width, h;
    double lo, hi;
    bool log_scale;
    bool unfit; /* the GPU's run was refused: the image does not fit it in one piece */
} bars;

void view_bar_geometry(const eng_timing *t, double lo, double hi, bool log_scale, float width,
                       float phase[ENG_PHASE_COUNT], float *fastest, float *slowest)
{
    /* the phases are each their runs' median, which need not add up to the
     * median run's total: they share the bar, the total sets its length */
    double sum = 0.0;
    float bar = bar_len(eng_total_ms(t), lo, hi, log_scale, width);
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        sum += t->has[p] && t->ms[p] > 0 ? t->ms[p] : 0.0;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        phase[p] = sum > 0 && t->has[p] && t->ms[p] > 0 ? (float)(t->ms[p] / sum) * bar : 0.0f;
    *fastest = bar_len(eng_total_min(t), lo, hi, log_scale, width);
    *slowest = bar_len(eng_total_max(t), lo, hi, log_scale, width);
}

/* Engine i's bar at y, split by phase (on a log scale, one bar the phases
 * share by their part of the time), the spread of its runs as a whisker,
 * and its time; or why it has none. Returns the y under it. */
static float draw_bar(view *v, const bars *b, const scene_engine *e, int i, const char *label, float y)
{
    const layout *L = &v->L;
    float x = b->x0, wa, wb, seg[ENG_PHASE_COUNT];
    char t[32];
    rnd_text(v->small, label, L->chart.x + 0.5f * L->pad, y, e->engine ? TEXT : FAINT);
    if (!e->measured) {
        rnd_text(v->small,
                 !e->engine           ? _("unavailable here")
                 : i == 3 && b->unfit ? _("did not fit in one piece")
                 : i == 3             ? _("press G to launch")
                                      : _("measuring\xE2\x80\xA6"),
                 b->x0, y, FAINT);
        return y + b->h * 1.15f;
    }
    view_bar_geometry(&e->timing, b->lo, b->hi, b->log_scale, b->width, seg, &wa, &wb);
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        if (seg[p] > 0) {
            rnd_rect(x, y, seg[p], b->h, PHASE_COLOR[p]);
            x += seg[p];
        }
    /* the spread of the runs: a whisker from the fastest to the slowest */
    wa += b->x0, wb += b->x0;
    if (e->timing.reps > 1 && wb - wa >= 1) {
        rnd_rect(wa, y + b->h / 2 - 1, wb - wa, 2, TEXT);
        rnd_rect(wa, y + 2, 2, b->h - 4, TEXT);
        rnd_rect(wb - 2, y + 2, 2, b->h - 4, TEXT);
    }
    x = fmaxf(x, wb);
    fmt_ms(eng_total_ms(&e->timing), t, sizeof t);
    rnd_text(v->small, t, x + 0.4f * L->pad, y, TEXT);
    return y + b->h * 1.15f;
}

/* Appends " · " to the text in buf when it has some and room for more;
 * returns its length. */
static size_t next_verdict(char *buf, size_t size)
{
    size_t n = strlen(buf);
    if (n && n + 4 < size)
        n += (size_t)snprintf(buf + n, size - n, " \xC2\xB7 ");
    return n;
}

/* The verdicts under the bars: what the vector lanes, the cores and the GPU
 * gained, an extrapolated download, and the kernel alone timed apart. */
static void verdicts(const scene *s, char *buf, size_t size)
{
    const scene_engine *seq = &s->cpu[SCENE_CPU_SEQ], *simd = &s->cpu[SCENE_CPU_SIMD], *par = &s->cpu[SCENE_CPU_PAR];
    const scene_engine *gpu = &s->gpu.eng;
    size_t n;
    buf[0] = '\0';
    if (seq->measured && simd->measured) /* the vector lanes' gain */
        short_compare("cpu-simd", &simd->timing, "cpu-seq", &seq->timing, buf, size);
    if (simd->measured && par->measured) { /* the cores' gain */
        n = strlen(buf);
        if (n)
            n += (size_t)snprintf(buf + n, size - n, " \xC2\xB7 ");
        short_compare("cpu-par", &par->timing, "cpu-simd", &simd->timing, buf + n, size - n);
    }
    if (gpu->measured && gpu->timing.extrapolated) {
        char m[32], t2[32];
        n = strlen(buf);
        fmt_count(gpu->timing.measured_px, m, sizeof m);
        fmt_count(gpu->timing.total_px, t2, sizeof t2);
        snprintf(buf + n, size - n, _("%s%s: download extrapolated from %s of %s pixels"), n ? " \xC2\xB7 " : "",
                 scene_engine_label(gpu), m, t2);
    } else if (gpu->measured && par->measured) {
        n = next_verdict(buf, size);
        short_compare(scene_engine_label(gpu), &gpu->timing, "cpu-par", &par->timing, buf + n, size - n);
    }
    if (gpu->measured && gpu->timing.has_kernel) { /* its compute phase is one launch, latency and all */
        char each[32], one[32];
        fmt_ms(gpu->timing.kernel_ms, each, sizeof each);
        fmt_ms(gpu->timing.kernel_one_ms, one, sizeof one);
        n = next_verdict(buf, size);
        if (n + 1 < size) /* a full line keeps what it has */
            snprintf(buf + n, size - n,
                     _("%s, measured apart: the kernel alone, %d back-to-back launches: %s each; one launch after "
                       "idle: %s"),
                     scene_engine_label(gpu), gpu->timing.kernel_launches, each, one);
    }
}

/* The legend of phases under the verdicts at (x0, y), in a chart w wide,
 * on as many rows as it needs; with draw false it only measures. Returns
 * its height. */
static float legend_below(view *v, float x0, float y, float w, float bar_h, bool draw)
{
    const layout *L = &v->L;
    float x = x0 + 0.5f * L->pad, top = y;
    int role = rnd_text_role(VIEW_TEXT_LEGEND);
    for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
        const char *name = phase_word(p);
        if (x + bar_h * 0.8f + vw_text_w(v->small, name) > x0 + w)
            x = x0 + 0.5f * L->pad, y += vw_lh(v->small);
        if (draw)
            rnd_rect(x, y + bar_h * 0.25f, bar_h * 0.6f, bar_h * 0.6f, PHASE_COLOR[p]);
        x += bar_h * 0.8f;
        x += (draw ? rnd_text(v->small, name, x, y, DIM) : vw_text_w(v->small, name)) + L->pad;
    }
    rnd_text_role(role);
    return y + vw_lh(v->small) - top;
}

/* The bound's row under the GPU's bar: a hollow bar to the least time the
 * fastest GPU of the datasheets could take, never filled like a measured
 * one, and its label. Returns the y under it. */
static float draw_bound_row(view *v, const bars *b, const bound_gpu *who, double ms, float y)
{
    const layout *L = &v->L;
    float len = fmaxf(2.0f, bar_len(ms, b->lo, b->hi, b->log_scale, b->width));
    char buf[160];
    rnd_text(v->small, _("bound"), L->chart.x + 0.5f * L->pad, y, DIM);
    rnd_frame(b->x0, y + 1, len, b->h - 2, 1, DIM);
    bound_row_text(who, ms, buf, sizeof buf);
    vw_text_fit(v, v->small, buf, b->x0 + len + 0.4f * L->pad, y, L->chart.x + L->chart.w - b->x0 - len - L->pad,
                DIM);
    return y + vw_lh(v->small); /* one line of text: the room a verdict's line kept may hold it */
}

/* The chart's height: with room kept for verdicts to come (`keep`), or as
 * tall as what it says now. */
static float chart_height(view *v, const app *a, float w, bool keep);

void vw_draw_chart(view *v, const app *a)
{
    const scene *s = &a->s;
    const layout *L = &v->L;
    const scene_engine *const e[CHART_ENGINES] = {&s->cpu[SCENE_CPU_SEQ], &s->cpu[SCENE_CPU_SIMD],
                                                  &s->cpu[SCENE_CPU_PAR], &s->gpu.eng};
    const char *label[CHART_ENGINES] = {"cpu-seq", "cpu-simd", "cpu-par", scene_engine_label(&s->gpu.eng)};
    float y = L->chart.y, label_w;
    bars b;
    bool legend_on_top;
    const bound_gpu *who;
    double bound;
    char buf[640];
    int role = rnd_text_role(VIEW_TEXT_CHART);

    if (s->chart == SCENE_CHART_CHAIN) {
        rnd_rect(L->chart.x, L->chart.y, L->chart.w, L->chart.h, PANEL);
        chain_panel(v, s, L->chart.x, L->chart.y, L->chart.w, true);
        rnd_text_role(role);
        return;
    }
    b.h = vw_lh(v->small) * 0.9f;
    label_w = fmaxf(vw_text_w(v->small, "cpu-simd "), vw_text_w(v->small, label[3])) + L->pad;
    rnd_rect(L->chart.x, L->chart.y, L->chart.w, L->chart.h, PANEL);
    /* the bound's row: kept in the chart's height, but in presenter mode
     * only where the chart has room for it (the lessons say the bounds in
     * words too) */
    bound = bound_least(s, &who);
    if (who && L->presenter && chart_height(v, a, L->chart.w, false) + vw_lh(v->small) > L->chart.h + 0.5f)
        who = NULL, bound = 0;
    b.log_scale = chart_scale(e, bound, &b.lo, &b.hi);
    legend_on_top = chart_title(v, s, b.log_scale, b.h);
    y += vw_lh(v->small) + 0.5f * L->pad;
    b.unfit = scene_gpu_unfit(s);
    b.x0 = L->chart.x + 0.5f * L->pad + label_w;
    b.width = L->chart.w - label_w - vw_text_w(v->small, " 999.99 ms ") - L->pad;
    for (int i = 0; i < CHART_ENGINES; ++i)
        y = draw_bar(v, &b, e[i], i, label[i], y);
    if (who)
        y = draw_bound_row(v, &b, who, bound, y);
    if (s->gpu.eng.engine || s->gpu.budget > 0)
        y = draw_memory_row(v, s, b.x0, b.width, y);
    verdicts(s, buf, sizeof buf);
    rnd_text_role(VIEW_TEXT_RATIO);
    y += rnd_text_wrapped(v->small, buf, L->chart.x + 0.5f * L->pad, y, L->chart.w - L->pad, TEXT, true);
    rnd_text_role(VIEW_TEXT_CHART);
    if (!legend_on_top)
        legend_below(v, L->chart.x, y, L->chart.w, b.h, true);
    rnd_text_role(role);
}

float vw_chart_height(view *v, const app *a, float w)
{
    return chart_height(v, a, w, true);
}

static float chart_height(view *v, const app *a, float w, bool keep)
{
    const bound_gpu *who;
    const scene *s = &a->s;
    const layout *L = &v->L;
    float ls = vw_lh(v->small), bar_h = ls * 0.9f, h, label_w;
    char buf[640];
    if (s->chart == SCENE_CHART_CHAIN)
        return chain_panel(v, s, 0, 0, w, false);
    h = ls + 0.5f * L->pad + CHART_ENGINES * bar_h * 1.15f;
    if (!L->presenter && bound_least(s, &who) > 0) /* the bound's row */
        h += ls;
    label_w = fmaxf(vw_text_w(v->small, "cpu-simd "), vw_text_w(v->small, scene_engine_label(&s->gpu.eng))) + L->pad;
    /* room kept for what measuring adds (the verdicts' lines, the noisy
     * warning that sends the legend under them), so that the grids keep
     * their size while the figures come in: only words longer than that
     * make the chart taller */
    if (s->gpu.eng.engine || s->gpu.budget > 0) {
        long long cap, used;
        memory_text(s, buf + 320, 320, &cap, &used);
        h += fmaxf(ls, rnd_text_wrapped(v->small, buf + 320, 0, 0, w - label_w - L->pad, DIM, false)) + 12;
    }
    title_text(v, s, true, buf, sizeof buf);
    if (keep || !legend_on_title_row(v, s, buf, bar_h, w)) /* kept: noisy runs send it down */
        h += legend_below(v, 0, 0, w, bar_h, false);
    verdicts(s, buf, sizeof buf);
    h += fmaxf(keep ? 3 * ls : ls, rnd_text_wrapped(v->small, buf, 0, 0, w - L->pad, TEXT, false));
    return h + 0.8f * L->pad;
}
