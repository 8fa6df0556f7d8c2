/* charts.c - the timing chart (a bar per engine, split by phase), the size
 * sweep (time against size, log-log) and the chain's panel. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const char *names[3] = {"cpu-seq", "cpu-par", scene_engine_label(&s->gpu.eng)};
    rnd_color colors[3] = {PHASE_COLOR[ENG_COMPUTE], PHASE_COLOR[ENG_UPLOAD], PHASE_COLOR[ENG_PRESENT]};
    double lo = 1e30, hi = 0, lmin = log(4.0), lmax = log(4096.0);
    float x0, x1, y0, y1, legend_x, ls = vw_lh(v->small);
    int cross = scene_sweep_crossover(s);
    char buf[600];

    rnd_rect(box.x, box.y, box.w, box.h, PANEL);
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < s->sweep.count; ++i)
            if (s->sweep.ms[k][i] > 0) {
                lo = fmin(lo, s->sweep.ms[k][i]);
                hi = fmax(hi, s->sweep.ms[k][i]);
            }
    for (int k = 0; a->has_record && k < a->record.engine_count; ++k)
        for (int i = 0; i < a->record.engine[k].count; ++i) {
            lo = fmin(lo, a->record.engine[k].run[i].median_ms);
            hi = fmax(hi, a->record.engine[k].run[i].median_ms);
        }
    if (cross)
        snprintf(buf, sizeof buf, _("Size sweep (W hides it): %s beats cpu-par from %d\xC3\x97%d up"),
                 scene_engine_label(&s->gpu.eng), cross, cross);
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
    y0 += 0.5f * ls; /* the axis labels sit centred on their lines */
    if (!(lo > 0) || !(hi > 0) || !isfinite(hi) || (s->sweep.count < 2 && !a->has_record))
        return;
    lo = pow(10, floor(log10(lo)));
    hi = pow(10, ceil(log10(hi)));
    if (!(lo > 0) || !isfinite(hi) || hi <= lo)
        return;
    legend_x = box.x + box.w - fmaxf(vw_text_w(v->small, "cpu-seq "), vw_text_w(v->small, names[2])) -
               2 * L->pad;
    x0 = box.x + vw_text_w(v->small, "1000 ms ") + L->pad;
    x1 = legend_x - L->pad;
    y1 = box.y + box.h - ls * 1.3f;
#define X_AT(size) (x0 + (float)((log((double)(size)) - lmin) / (lmax - lmin)) * (x1 - x0))
#define Y_AT(ms) (y1 - (float)(log10((ms) / lo) / log10(hi / lo)) * (y1 - y0))
    /* axes: a line per power of ten, the sizes below */
    {
        float last_label = 1e9f;
        for (double t = lo; t <= hi * 1.0001; t *= 10) {
            float y = Y_AT(t);
            char label[32];
            rnd_rect(x0, y, x1 - x0, 1, (rnd_color){0.3f, 0.32f, 0.36f, 1});
            if (last_label - y < ls) /* crowded: every other power of ten */
                continue;
            if (t >= 1000)
                snprintf(label, sizeof label, "%g s", t / 1000);
            else if (t >= 1)
                snprintf(label, sizeof label, "%g ms", t);
            else
                snprintf(label, sizeof label, "%g \xC2\xB5s", t * 1000);
            rnd_text(v->small, label, box.x + 0.5f * L->pad, y - ls / 2, DIM);
            last_label = y;
        }
    }
    for (int size = 4; size <= 4096; size *= 4) {
        float x = X_AT(size);
        snprintf(buf, sizeof buf, "%d\xC2\xB2", size);
        rnd_text(v->small, buf, x - vw_text_w(v->small, buf) / 2, y1 + 0.2f * L->pad, DIM);
        if (size == cross) /* the crossover */
            rnd_rect(x - 1, y0, 2, y1 - y0, WHITE);
    }
    /* the recorded run first, under the live one */
    for (int k = 0; a->has_record && k < a->record.engine_count; ++k) {
        const rec_engine *e = &a->record.engine[k];
        int c = strcmp(e->name, "cpu-seq") == 0 ? 0 : strcmp(e->name, "cpu-par") == 0 ? 1 : 2;
        rnd_color col = vw_alpha(vw_mix(colors[c], WHITE, 0.3f), 0.8f);
        float px = 0, py = 0, m = 0.3f * ls;
        for (int i = 0; i < e->count; ++i) {
            float x = X_AT(e->run[i].size), y = Y_AT(e->run[i].median_ms);
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
    for (int k = 0; k < 3; ++k) {
        float px = 0, py = 0;
        bool have = false;
        for (int i = 0; i < s->sweep.count; ++i) {
            float x, y, m = 0.35f * ls;
            if (s->sweep.ms[k][i] <= 0)
                continue;
            x = X_AT(s->sweep.size[i]);
            y = Y_AT(s->sweep.ms[k][i]);
            if (have) { /* a line of small squares from the last point */
                int steps = (int)(fmaxf(fabsf(x - px), fabsf(y - py)) / 2) + 1;
                for (int j = 0; j <= steps; ++j)
                    rnd_rect(px + (x - px) * (float)j / (float)steps - 1, py + (y - py) * (float)j / (float)steps - 1,
                             2, 2, colors[k]);
            }
            /* markers differ in shape as well as colour */
            if (k == 0)
                rnd_rect(x - m, y - m, 2 * m, 2 * m, colors[k]);
            else if (k == 1)
                rnd_frame(x - m, y - m, 2 * m, 2 * m, 2, colors[k]);
            else {
                rnd_rect(x - m, y - 1, 2 * m, 3, colors[k]);
                rnd_rect(x - 1, y - m, 3, 2 * m, colors[k]);
            }
            px = x, py = y, have = true;
        }
        rnd_rect(legend_x, y0 + (float)k * ls * 1.2f + 0.3f * ls, 0.6f * ls, 0.6f * ls, colors[k]);
        rnd_text(v->small, names[k], legend_x + 0.9f * ls, y0 + (float)k * ls * 1.2f, TEXT);
    }
#undef X_AT
#undef Y_AT
}

/* "cpu-par 27.1× faster than cpu-seq", faster or slower only when every run
 * of one beat every run of the other, else "cpu-par ≈ cpu-seq (runs overlap)". */
static void short_compare(const char *a_name, const eng_timing *a, const char *b_name, const eng_timing *b,
                          char *buf, size_t size)
{
    int c = eng_compare(a, b);
    char r[32];
    fmt_ratio(eng_total_ms(a), eng_total_ms(b), r, sizeof r);
    if (!eng_comparable(a, b))
        snprintf(buf, size, _("%s vs %s: too few runs to tell"), a_name, b_name);
    else if (c == 0)
        snprintf(buf, size, _("%s \xE2\x89\x88 %s (their runs overlap)"), a_name, b_name);
    else
        snprintf(buf, size, c < 0 ? _("%s %s faster than %s") : _("%s %s slower than %s"), a_name, r, b_name);
}

/* The chain: the same passes one after another on a 4x4 image, each waiting
 * for the one before, on cpu-seq and on the GPU; a bar each, and the ratio
 * when both ran. */
static void draw_chain(view *v, const scene *s)
{
    const layout *L = &v->L;
    const char *label[2] = {"cpu-seq", scene_engine_label(&s->gpu.eng)};
    float y = L->chart.y, bar_h = vw_lh(v->small) * 0.95f,
          label_w = fmaxf(vw_text_w(v->small, "cpu-seq "), vw_text_w(v->small, label[1])) + L->pad;
    float x0 = L->chart.x + 0.5f * L->pad + label_w, width = L->chart.w - label_w - vw_text_w(v->small, " 999.99 ms ") - L->pad;
    double hi = fmax(s->chain.ms[0], s->chain.ms[1]);
    char buf[256], t[32], n[32];

    rnd_rect(L->chart.x, L->chart.y, L->chart.w, L->chart.h, PANEL);
    fmt_count(s->chain.length, n, sizeof n);
    snprintf(buf, sizeof buf, _("Chain (X hides it): %s dependent passes on a 4\xC3\x97" "4 image, each started by the host"),
             n);
    vw_text_fit(v, v->small, buf, L->chart.x + 0.5f * L->pad, y + 0.3f * L->pad, L->chart.w - L->pad, TEXT);
    y += vw_lh(v->small) + 0.5f * L->pad;
    for (int i = 0; i < 2; ++i) {
        rnd_text(v->small, label[i], L->chart.x + 0.5f * L->pad, y, TEXT);
        if (s->chain.ms[i] < 0) {
            rnd_text(v->small, scene_busy(s) ? _("measuring\xE2\x80\xA6") : _("did not run"), x0, y, FAINT);
        } else {
            float w = hi > 0 ? (float)(s->chain.ms[i] / hi) * width : 0;
            rnd_rect(x0, y, w, bar_h, PHASE_COLOR[i == 0 ? ENG_COMPUTE : ENG_OVERHEAD]);
            fmt_ms(s->chain.ms[i], t, sizeof t);
            rnd_text(v->small, t, x0 + w + 0.4f * L->pad, y, TEXT);
        }
        y += bar_h * 1.25f;
    }
    if (s->chain.ms[0] > 0 && s->chain.ms[1] > 0) {
        fmt_ratio(fmax(s->chain.ms[0], s->chain.ms[1]), fmin(s->chain.ms[0], s->chain.ms[1]), t, sizeof t);
        snprintf(buf, sizeof buf,
                 s->chain.ms[1] < s->chain.ms[0] ? _("%s %s faster than cpu-seq, measured once, the passes only")
                                                 : _("%s %s slower than cpu-seq, measured once, the passes only"),
                 scene_engine_label(&s->gpu.eng), t);
        vw_text_fit(v, v->small, buf, L->chart.x + 0.5f * L->pad, y, L->chart.w - L->pad, DIM);
    }
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
    const eng_device_info *d = &s->gpu.device;
    long long need = scene_image_bytes(s), cap = -1, used = 0;
    char buf[256], a1[32], a2[32], a3[32];
    float track_y, k, x;

    fmt_bytes(need, a1, sizeof a1);
    if (s->gpu.budget > 0) {
        cap = s->gpu.budget;
        fmt_bytes(cap, a2, sizeof a2);
        if (s->tiles.on && tile_count(&s->tiles.plan) > 0) {
            char t[64];
            scene_tiles_text(s, t, sizeof t);
            snprintf(buf, sizeof buf, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 budget %s (P): %s"), a1, a2, t);
        } else {
            snprintf(buf, sizeof buf, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 budget %s (P)%s"), a1, a2,
                     scene_needs_tiles(s) ? _(": G runs it in tiles") : _(": fits"));
        }
    } else if (s->gpu.device_known && d->memory_total > 0 && d->memory_free >= 0) {
        cap = d->memory_total;
        used = d->memory_total - d->memory_free - d->memory_engine;
        if (used < 0)
            used = 0;
        fmt_bytes(d->memory_free + d->memory_engine, a2, sizeof a2);
        fmt_bytes(d->memory_total, a3, sizeof a3);
        snprintf(buf, sizeof buf, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 %s free for it of %s"), a1, a2, a3);
    } else if (s->gpu.device_known && d->max_buffer > 0) {
        cap = 2 * d->max_buffer;
        fmt_bytes(d->max_buffer, a2, sizeof a2);
        snprintf(buf, sizeof buf, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 one buffer \xE2\x89\xA4 %s (no total reported)"),
                 a1, a2);
    } else {
        snprintf(buf, sizeof buf, _("image %s (2 buffers, 4 B a pixel) \xC2\xB7 %s"), a1,
                 s->gpu.eng.engine ? _("G reads the device's memory") : _("no GPU engine here"));
    }
    rnd_text(v->small, _("memory"), L->chart.x + 0.5f * L->pad, y, TEXT);
    vw_text_fit(v, v->small, buf, x0, y, L->chart.x + L->chart.w - x0 - 0.5f * L->pad, DIM);
    track_y = y + vw_lh(v->small) + 2;
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

void vw_draw_chart(view *v, const app *a)
{
    const scene *s = &a->s;
    if (s->chart == SCENE_CHART_CHAIN) {
        draw_chain(v, s);
        return;
    }
    const layout *L = &v->L;
    /* one core, one core with vector lanes, every core, the GPU */
    const scene_engine *e[4] = {&s->cpu[SCENE_CPU_SEQ], &s->cpu[SCENE_CPU_SIMD], &s->cpu[SCENE_CPU_PAR], &s->gpu.eng};
    const char *label[4] = {"cpu-seq", "cpu-simd", "cpu-par", scene_engine_label(&s->gpu.eng)};
    double lo = 1e30, hi = 0;
    bool log_scale, legend_on_top;
    float x0, y = L->chart.y, bar_h = vw_lh(v->small) * 0.9f,
              label_w = fmaxf(vw_text_w(v->small, "cpu-simd "), vw_text_w(v->small, label[3])) + L->pad, width;
    char buf[640], t[32];

    rnd_rect(L->chart.x, L->chart.y, L->chart.w, L->chart.h, PANEL);
    for (int i = 0; i < 4; ++i)
        if (e[i]->measured) {
            double total = eng_total_ms(&e[i]->timing);
            lo = fmin(lo, fmin(total, eng_total_min(&e[i]->timing)));
            hi = fmax(hi, fmax(total, eng_total_max(&e[i]->timing)));
        }
    lo = fmax(lo, 1e-6); /* a time too short for the clock reads 0 */
    log_scale = hi > 0 && hi / lo > 30;
    if (log_scale)
        lo = pow(10, floor(log10(lo)) - 0.3);
    snprintf(buf, sizeof buf, "%s %d\xC3\x97%d%s", vw_T(v, "Time for the whole"), s->img.luma.w, s->img.luma.h,
             log_scale ? _(" (log scale)") : "");
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
    {
        /* the legend of phases on the title's row, at its right, when it fits */
        float lw = 0, x;
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            lw += bar_h * 0.8f + vw_text_w(v->small, phase_word(p)) + L->pad;
        legend_on_top = !scene_noisy(s) && vw_text_w(v->small, buf) + lw + 1.5f * L->pad < L->chart.w;
        for (int p = 0, x_set = 0; legend_on_top && p < ENG_PHASE_COUNT; ++p) {
            if (!x_set)
                x = L->chart.x + L->chart.w - lw, x_set = 1;
            rnd_rect(x, y + 0.3f * L->pad + bar_h * 0.25f, bar_h * 0.6f, bar_h * 0.6f, PHASE_COLOR[p]);
            x += bar_h * 0.8f;
            x += rnd_text(v->small, phase_word(p), x, y + 0.3f * L->pad, DIM) + L->pad;
        }
    }
    y += vw_lh(v->small) + 0.5f * L->pad;
    x0 = L->chart.x + 0.5f * L->pad + label_w;
    width = L->chart.w - label_w - vw_text_w(v->small, " 999.99 ms ") - L->pad;
    for (int i = 0; i < 4; ++i) {
        float x = x0;
        rnd_text(v->small, label[i], L->chart.x + 0.5f * L->pad, y, e[i]->engine ? TEXT : FAINT);
        if (!e[i]->measured) {
            rnd_text(v->small,
                     !e[i]->engine ? _("unavailable here")
                     : i == 3      ? _("press G to launch")
                                   : _("measuring\xE2\x80\xA6"),
                     x0, y, FAINT);
            y += bar_h * 1.15f;
            continue;
        }
        if (log_scale) { /* one bar: the phases' shares of its length */
            double total = eng_total_ms(&e[i]->timing);
            float len = bar_len(total, lo, hi, true, width);
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                if (e[i]->timing.has[p] && e[i]->timing.ms[p] > 0) {
                    float w = (float)(e[i]->timing.ms[p] / total) * len;
                    rnd_rect(x, y, w, bar_h, PHASE_COLOR[p]);
                    x += w;
                }
        } else {
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                if (e[i]->timing.has[p] && e[i]->timing.ms[p] > 0) {
                    float w = bar_len(e[i]->timing.ms[p], lo, hi, false, width);
                    rnd_rect(x, y, w, bar_h, PHASE_COLOR[p]);
                    x += w;
                }
        }
        {
            /* the spread of the runs: a whisker from the fastest to the slowest */
            float wa = x0 + bar_len(eng_total_min(&e[i]->timing), lo, hi, log_scale, width);
            float wb = x0 + bar_len(eng_total_max(&e[i]->timing), lo, hi, log_scale, width);
            if (e[i]->timing.reps > 1 && wb - wa >= 1) {
                rnd_rect(wa, y + bar_h / 2 - 1, wb - wa, 2, TEXT);
                rnd_rect(wa, y + 2, 2, bar_h - 4, TEXT);
                rnd_rect(wb - 2, y + 2, 2, bar_h - 4, TEXT);
            }
            x = fmaxf(x, wb);
        }
        fmt_ms(eng_total_ms(&e[i]->timing), t, sizeof t);
        rnd_text(v->small, t, x + 0.4f * L->pad, y, TEXT);
        y += bar_h * 1.15f;
    }
    if (s->gpu.eng.engine || s->gpu.budget > 0)
        y = draw_memory_row(v, s, x0, width, y);
    /* ratios, and the legend of phases */
    buf[0] = '\0';
    if (s->cpu[SCENE_CPU_SEQ].measured && s->cpu[SCENE_CPU_SIMD].measured) /* the vector lanes' gain */
        short_compare("cpu-simd", &s->cpu[SCENE_CPU_SIMD].timing, "cpu-seq", &s->cpu[SCENE_CPU_SEQ].timing, buf, sizeof buf);
    if (s->cpu[SCENE_CPU_SIMD].measured && s->cpu[SCENE_CPU_PAR].measured) { /* the cores' gain */
        size_t n = strlen(buf);
        if (n)
            n += (size_t)snprintf(buf + n, sizeof buf - n, " \xC2\xB7 ");
        short_compare("cpu-par", &s->cpu[SCENE_CPU_PAR].timing, "cpu-simd", &s->cpu[SCENE_CPU_SIMD].timing, buf + n, sizeof buf - n);
    }
    if (s->gpu.eng.measured && s->gpu.eng.timing.extrapolated) {
        char m[32], t2[32];
        size_t n = strlen(buf);
        fmt_count(s->gpu.eng.timing.measured_px, m, sizeof m);
        fmt_count(s->gpu.eng.timing.total_px, t2, sizeof t2);
        snprintf(buf + n, sizeof buf - n, "%s%s: download extrapolated from %s of %s pixels", n ? " \xC2\xB7 " : "",
                 scene_engine_label(&s->gpu.eng), m, t2);
    } else if (s->gpu.eng.measured && s->cpu[SCENE_CPU_PAR].measured) {
        size_t n = strlen(buf);
        if (n && n + 4 < sizeof buf)
            n += (size_t)snprintf(buf + n, sizeof buf - n, " \xC2\xB7 ");
        short_compare(scene_engine_label(&s->gpu.eng), &s->gpu.eng.timing, "cpu-par", &s->cpu[SCENE_CPU_PAR].timing, buf + n, sizeof buf - n);
    }
    if (s->gpu.eng.measured && s->gpu.eng.timing.has_kernel) { /* its compute phase is one launch, latency and all */
        char each[32], one[32];
        size_t n = strlen(buf);
        fmt_ms(s->gpu.eng.timing.kernel_ms, each, sizeof each);
        fmt_ms(s->gpu.eng.timing.kernel_one_ms, one, sizeof one);
        if (n && n + 4 < sizeof buf)
            n += (size_t)snprintf(buf + n, sizeof buf - n, " \xC2\xB7 ");
        if (n + 1 < sizeof buf) /* a full line keeps what it has */
            snprintf(buf + n, sizeof buf - n,
                     _("%s, measured apart: the kernel alone, %d back-to-back launches: %s each; one launch after "
                       "idle: %s"),
                     scene_engine_label(&s->gpu.eng), s->gpu.eng.timing.kernel_launches, each, one);
    }
    y += rnd_text_wrapped(v->small, buf, L->chart.x + 0.5f * L->pad, y, L->chart.w - L->pad, TEXT, true);
    if (!legend_on_top) {
        float x = L->chart.x + 0.5f * L->pad;
        for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
            const char *name = phase_word(p);
            if (x + bar_h * 0.8f + vw_text_w(v->small, name) > L->chart.x + L->chart.w)
                x = L->chart.x + 0.5f * L->pad, y += vw_lh(v->small);
            rnd_rect(x, y + bar_h * 0.25f, bar_h * 0.6f, bar_h * 0.6f, PHASE_COLOR[p]);
            x += bar_h * 0.8f;
            x += rnd_text(v->small, name, x, y, DIM) + L->pad;
        }
    }
}
