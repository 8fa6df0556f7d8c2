/* apply_separable.c - `convis apply --separable`: the filter, when it is of
 * rank 1, run again as a row pass and a column pass on one CPU thread, and
 * how far that result is from the engine's, in ULPs (core/separable.h); and
 * `--fft`: the filter run again through the FFT (compute/fft.h), the same
 * way. The results are never said to be equal unless every output has the
 * same bits. */
#include "apply_separable.h"

#include <stdio.h>

#include "core/err.h"
#include "core/separable.h"
#include "compute/fft.h"
#include "core/timing.h"
#include "core/tr.h"
#include "format.h"

#define TIMED_RUNS 5

/* The median of TIMED_RUNS times (sorted in place). */
static double median(double *ms)
{
    for (int a = 1; a < TIMED_RUNS; ++a)
        for (int b = a; b > 0 && ms[b] < ms[b - 1]; --b) {
            double x = ms[b];
            ms[b] = ms[b - 1], ms[b - 1] = x;
        }
    return ms[TIMED_RUNS / 2];
}

static void factors_text(const float *v, int n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; ++i)
        used += (size_t)snprintf(buf + used, size - used, "%s%g", i ? " " : "", (double)v[i]);
}

/* How far another way's result is from the engine's: the same bits, or
 * how many outputs differ, by how many ULPs and how much at most. */
static void print_difference(const sep_diff *d, const char *why)
{
    char differ[32], total[32];
    fmt_count(d->differ, differ, sizeof differ), fmt_count(d->total, total, sizeof total);
    if (d->differ == 0)
        printf(_("  against the engine's result: the same bits in all %s outputs\n"), total);
    else if (d->max_ulp == SEP_ULP_NAN)
        printf(_("  against the engine's result: %s of %s outputs differ, a NaN against a number among them\n"), differ,
               total);
    else
        printf(_("  against the engine's result: %s of %s outputs differ, by %llu ULPs at most (%.3g in value): %s\n"),
               differ, total, (unsigned long long)d->max_ulp, d->max_abs, why);
}

bool app_apply_separable(const img_plane *in, const conv_params *p, const img_plane *direct, const char *map_path,
                         const char *input_path)
{
    sep_factors f;
    img_plane tmp = {0}, two = {0}, map = {0};
    char row[256], col[256];
    double t0, ms, runs[TIMED_RUNS];
    sep_diff d;
    bool ok = true;
    if (!sep_factor(p, &f)) {
        printf(_("  separable: not run: %s\n"), err_msg());
        return true;
    }
    if (!img_plane_alloc(&tmp, in->w, in->h) || !img_plane_alloc(&two, in->w, in->h) ||
        !img_plane_alloc(&map, in->w, in->h)) {
        img_plane_free(&tmp), img_plane_free(&two);
        return false;
    }
    sep_run(in, p, &f, &tmp, &two); /* the warm-up: the planes' pages touched, the caches filled */
    for (int r = 0; r < TIMED_RUNS; ++r) {
        t0 = tim_now_ms();
        sep_run(in, p, &f, &tmp, &two);
        runs[r] = tim_now_ms() - t0;
    }
    ms = median(runs);
    d = sep_compare(direct, &two, &map);
    factors_text(f.row, f.kw, row, sizeof row), factors_text(f.col, f.kh, col, sizeof col);
    printf(_("  separable: row [%s] then column [%s]%s: %d taps an output against %d, %.3f ms on one CPU thread "
             "(the median of %d runs after a warm-up, monotonic clock)\n"),
           row, col, f.exact ? _(", exactly") : _(", within the tolerance"), f.kw + f.kh, f.kw * f.kh, ms, TIMED_RUNS);
    print_difference(&d, _("the sums are added in another order"));
    if (map_path) {
        ok = img_write(map_path, &map, IMG_DISPLAY_CLAMP, input_path);
        if (ok)
            printf(_("  wrote %s: each output's distance in ULPs (0 where the bits are the same)\n"), map_path);
    }
    img_plane_free(&tmp), img_plane_free(&two), img_plane_free(&map);
    return ok;
}

bool app_apply_fft(const img_plane *in, const conv_params *p, const img_plane *direct)
{
    img_plane out = {0};
    fft_timing t;
    double runs[TIMED_RUNS] = {0}, plans[TIMED_RUNS] = {0};
    char why[200];
    sep_diff d;
    if (!fft_available(why, sizeof why)) {
        printf(_("  fft: not run: %s\n"), why);
        return true;
    }
    if (!img_plane_alloc(&out, in->w, in->h))
        return false;
    if (!fft_convolve(in, p, &out, &t)) { /* the warm-up, or why it cannot run */
        printf(_("  fft: not run: %s\n"), err_msg());
        img_plane_free(&out);
        return true;
    }
    for (int r = 0; r < TIMED_RUNS; ++r) {
        if (!fft_convolve(in, p, &out, &t)) { /* the warm-up ran, this did not: no figure to give */
            printf(_("  fft: not run: %s\n"), err_msg());
            img_plane_free(&out);
            return true;
        }
        runs[r] = t.run_ms, plans[r] = t.plan_ms;
    }
    t.run_ms = median(runs), t.plan_ms = median(plans);
    d = sep_compare(direct, &out, NULL);
    printf(_("  fft: %dx%d transforms (%s, float, one CPU thread): %.3f ms, its plans %.3f ms more (the median of %d "
             "runs after a warm-up, monotonic clock)\n"),
           t.nw, t.nh, fft_version(), t.run_ms, t.plan_ms, TIMED_RUNS);
    print_difference(&d, _("each output comes from the whole image's transforms, rounded otherwise"));
    img_plane_free(&out);
    return true;
}
