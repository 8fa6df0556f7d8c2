/* bench_fft.c - `convis bench --fft`: the filter through the FFT
 * (compute/fft.h) at each size, and, across --ksize's filters, where it
 * starts to beat the direct 2-D loop. The FFT's cost grows with the image
 * (n log n), not with the filter's taps, so past some filter size it wins;
 * which size, on this machine, only a measurement says. */
#include "bench_fft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/fft.h"
#include "core/err.h"
#include "core/tr.h"
#include "format.h"
#include "record.h"

static int by_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One size: a warm-up, then timed runs (bench's rule). */
static void measure_size(bench *b, int i, const img_plane *in)
{
    bench_cell *c = &b->fft_cell[i];
    conv_params p = app_options_params(&b->opt);
    double ms[BENCH_MAX_REPS], plans[BENCH_MAX_REPS], spent = 0;
    img_plane out;
    fft_timing t;
    int n = 0;
    memset(c, 0, sizeof *c);
    if (!img_plane_alloc(&out, in->w, in->h)) {
        snprintf(c->why, sizeof c->why, "%s", err_msg());
        return;
    }
    if (!fft_convolve(in, &p, &out, &t)) { /* the warm-up, or why it cannot run */
        snprintf(c->why, sizeof c->why, "%s", err_msg());
        img_plane_free(&out);
        return;
    }
    while (n < BENCH_MAX_REPS && (n < 1 || spent < b->budget_ms) && fft_convolve(in, &p, &out, &t)) {
        ms[n] = t.run_ms, plans[n] = t.plan_ms;
        spent += t.run_ms + t.plan_ms, ++n;
        if (n >= 3) { /* three that agree within BENCH_STEADY */
            double s[BENCH_MAX_REPS];
            memcpy(s, ms, sizeof(double) * (size_t)n);
            qsort(s, (size_t)n, sizeof s[0], by_ms);
            if (s[2] <= s[0] * (1 + BENCH_STEADY))
                break;
        }
    }
    img_plane_free(&out);
    if (n == 0) { /* the warm-up ran, the first timed run did not */
        snprintf(c->why, sizeof c->why, "%s", err_msg());
        return;
    }
    qsort(ms, (size_t)n, sizeof ms[0], by_ms);
    qsort(plans, (size_t)n, sizeof plans[0], by_ms);
    c->ran = n > 0, c->reps = n, c->median = ms[n / 2], c->lo = ms[0], c->hi = ms[n - 1];
    for (int ph = 0; ph < ENG_PHASE_COUNT; ++ph)
        c->phase[ph] = -1;
    c->phase[ENG_COMPUTE] = c->median;
    c->threads = 1;
    b->fft_plan_ms[i] = plans[n / 2], b->fft_nw[i] = t.nw, b->fft_nh[i] = t.nh;
}

void bench_measure_fft(bench *b, const img_plane *source)
{
    for (int i = 0; i < b->size_count; ++i) {
        img_plane in;
        if (!img_plane_scaled(source, b->sizes[i], b->sizes[i], &in)) {
            snprintf(b->fft_cell[i].why, sizeof b->fft_cell[i].why, "%s", err_msg());
            continue;
        }
        measure_size(b, i, &in);
        img_plane_free(&in);
    }
}

/* The row of the engine labelled `label`, or -1. */
static int row_of(const bench *b, const char *label)
{
    for (int k = 0; k < b->engine_count; ++k)
        if (strcmp(b->label[k], label) == 0 && b->cell[k][0].ran)
            return k;
    return -1;
}

/* Whether the FFT beat row k at size i: its slowest run faster than the
 * engine's fastest. */
static bool beat(const bench *b, int k, int i)
{
    return k >= 0 && b->fft_cell[i].ran && b->cell[k][i].ran && b->fft_cell[i].hi < b->cell[k][i].lo;
}

/* The bench with the filter of the smallest taps, or -1. Benches in the
 * order of their taps, whatever the order --ksize gave them in. */
static int run_in_order(const bench *runs, int count, int rank)
{
    int order[BENCH_MAX_KSIZES];
    for (int r = 0; r < count; ++r) {
        int j = r;
        for (; j > 0 && runs[order[j - 1]].opt.kernel.kw * runs[order[j - 1]].opt.kernel.kh >
                            runs[r].opt.kernel.kw * runs[r].opt.kernel.kh;
             --j)
            order[j] = order[j - 1];
        order[j] = r;
    }
    return rank >= 0 && rank < count ? order[rank] : -1;
}

/* The bench of the smallest filter from which the FFT beat row `label` at
 * size i at every larger filter too; -1 when it did not at the largest. */
static int crossover(const bench *runs, int count, const char *label, int i)
{
    int from = -1;
    for (int rank = count - 1; rank >= 0; --rank) {
        int r = run_in_order(runs, count, rank);
        if (!beat(&runs[r], row_of(&runs[r], label), i))
            break;
        from = r;
    }
    return from;
}

void bench_print_fft(const bench *runs, int count)
{
    int i = runs[0].size_count - 1;
    static const char *const against[] = {"cpu-simd", "cpu-par"};
    printf(_("\nThrough the FFT (%s, float, one CPU thread), --fft: the median of its transforms' runs; its plans apart "
             "(FFTW_ESTIMATE).\n"),
           fft_version()[0] ? fft_version() : "FFTW");
    for (int r = 0; r < count; ++r)
        for (int s = 0; s < runs[r].size_count; ++s) {
            const bench_cell *c = &runs[r].fft_cell[s];
            char ms[32], plan[32];
            printf("  %-18s %5dx%-5d ", runs[r].opt.kernel.name, runs[r].sizes[s], runs[r].sizes[s]);
            if (!c->ran) {
                printf("%s\n", c->why);
                continue;
            }
            fmt_ms(c->median, ms, sizeof ms), fmt_ms(runs[r].fft_plan_ms[s], plan, sizeof plan);
            printf(_("%s (%d reps; transforms %dx%d, plans %s more)"), ms, c->reps, runs[r].fft_nw[s],
                   runs[r].fft_nh[s], plan);
            for (int a = 0; a < 2; ++a) {
                int k = row_of(&runs[r], against[a]);
                if (k >= 0 && runs[r].cell[k][s].ran) {
                    double e = runs[r].cell[k][s].median, ratio = e / c->median;
                    char em[32];
                    fmt_ms(e, em, sizeof em);
                    if (ratio >= 1)
                        printf(_("; %s %s, the FFT %.2fx faster"), against[a], em, ratio);
                    else
                        printf(_("; %s %s, the FFT %.2fx slower"), against[a], em, 1 / ratio);
                }
            }
            putchar('\n');
        }
    if (count < 2)
        return;
    for (int a = 0; a < 2; ++a) {
        int from = crossover(runs, count, against[a], i);
        if (from >= 0)
            printf(_("At %dx%d the FFT on one thread beat %s from %dx%d up, every larger filter too (measured: its "
                     "slowest run under the engine's fastest).\n"),
                   runs[0].sizes[i], runs[0].sizes[i], against[a], runs[from].opt.kernel.kw, runs[from].opt.kernel.kh);
        else if (row_of(&runs[run_in_order(runs, count, count - 1)], against[a]) >= 0)
            printf(_("At %dx%d the FFT on one thread was not clearly ahead of %s (its slowest run under the engine's "
                     "fastest) at the largest filter measured.\n"),
                   runs[0].sizes[i], runs[0].sizes[i], against[a]);
    }
}

void bench_json_fft(const bench *runs, int count)
{
    bool first = true;
    printf(",\n  \"fft\": [");
    for (int r = 0; r < count; ++r)
        for (int s = 0; s < runs[r].size_count; ++s) {
            const bench_cell *c = &runs[r].fft_cell[s];
            printf("%s\n    {\"filter\": ", first ? "" : ",");
            first = false;
            rec_json_string(stdout, runs[r].opt.kernel.name);
            printf(", \"size\": %d, ", runs[r].sizes[s]);
            if (!c->ran) {
                printf("\"error\": ");
                rec_json_string(stdout, c->why);
                printf("}");
                continue;
            }
            printf("\"median_ms\": %.6g, \"min_ms\": %.6g, \"max_ms\": %.6g, \"reps\": %d, \"plan_ms\": %.6g, "
                   "\"transform\": [%d, %d]}",
                   c->median, c->lo, c->hi, c->reps, runs[r].fft_plan_ms[s], runs[r].fft_nw[s], runs[r].fft_nh[s]);
        }
    printf("\n  ]");
}
