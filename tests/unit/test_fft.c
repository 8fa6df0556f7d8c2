/* test_fft.c - the convolution through the FFT against the reference: every
 * border rule, filters that are symmetric and ones that are not (the
 * cross-correlation's orientation), rectangular windows, images smaller
 * than the window, within a bound of float rounding; another geometry
 * refused. Without FFTW: refused in a sentence. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "compute/fft.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/filter.h"

/* The largest |fft - reference| allowed: float rounding through transforms
 * of this size, relative to the largest output the filter can make. */
static double bound_of(const conv_params *p, float most)
{
    double sum = 0;
    for (int t = 0; t < p->kw * p->kh; ++t)
        sum += fabs(p->weight[t]);
    return 2e-5 * most * sum / fabs(p->divisor) + 1e-6;
}

static void check_one(const char *filter, conv_border border, int w, int h, bool flip)
{
    filt_kernel k;
    img_plane in, ref, got;
    fft_timing t;
    conv_params p;
    double worst = 0, bound;
    CHECK(filt_parse(filter, &k), "%s: %s", filter, err_msg());
    p = conv_params_make(&k, border, flip);
    img_plane_alloc(&in, w, h), img_plane_alloc(&ref, w, h), img_plane_alloc(&got, w, h);
    for (int i = 0; i < w * h; ++i)
        in.px[i] = (float)((i * 37 + (i / w) * 11) % 256); /* no symmetry to hide a flipped filter */
    conv_reference(&in, &p, &ref);
    CHECK(fft_convolve(&in, &p, &got, &t), "%s %dx%d: %s", filter, w, h, err_msg());
    CHECK(t.nw >= w + k.kw - 1 && t.nh >= h + k.kh - 1 && t.nw <= 2 * (w + k.kw - 1) && t.run_ms >= 0 && t.plan_ms >= 0,
          "%s %dx%d: transforms %dx%d", filter, w, h, t.nw, t.nh);
    for (int i = 0; i < w * h; ++i)
        worst = fmax(worst, fabs((double)got.px[i] - ref.px[i]));
    bound = bound_of(&p, 255.0f);
    CHECK(worst <= bound, "%s, %s border%s, %dx%d: off by %g, over %g", filter, conv_border_name(border),
          flip ? ", flipped" : "", w, h, worst, bound);
    img_plane_free(&in), img_plane_free(&ref), img_plane_free(&got);
}

/* fft_convolve refuses an 8x8 box:3 at `stride` with a sentence holding `want`. */
static void check_refused(int stride, const char *want)
{
    filt_kernel k;
    img_plane in, out;
    fft_timing t;
    conv_params p;
    filt_parse("box:3", &k);
    p = conv_params_make(&k, CONV_BORDER_CLAMP, false);
    conv_params_set_geometry(&p, stride, 1, CONV_PAD_SAME);
    img_plane_alloc(&in, 8, 8), img_plane_alloc(&out, 8, 8);
    memset(in.px, 0, sizeof(float) * 64);
    CHECK(!fft_convolve(&in, &p, &out, &t) && strstr(err_msg(), want), "stride %d refused: %s", stride, err_msg());
    img_plane_free(&in), img_plane_free(&out);
}

int main(void)
{
    char why[200];
    static const char *const filters[] = {"box:5",   "gaussian:1.5", "sobel-x",      "sharpen", "motion:9",
                                          "1 2 3; 4 5 6; 7 8 10 / 3", "1; -2; 3; 4; 5; 6; -7", "emboss", "box:31"};
    static const int sizes[][2] = {{17, 33}, {33, 17}, {1, 1}, {40, 3}, {64, 48}};
    if (!fft_available(why, sizeof why)) {
        CHECK(strstr(why, "FFTW") != NULL, "without FFTW, the reason: %s", why);
        check_refused(1, "FFTW");
        return CHECK_SUMMARY();
    }
    CHECK(strstr(fft_version(), "fftw") != NULL, "the version: %s", fft_version());
    for (size_t f = 0; f < sizeof filters / sizeof filters[0]; ++f)
        for (int b = 0; b < CONV_BORDER_COUNT; ++b)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
                check_one(filters[f], (conv_border)b, sizes[s][0], sizes[s][1], false);
    check_one("1 2 3; 4 5 6; 7 8 10 / 3", CONV_BORDER_MIRROR, 29, 31, true);
    check_refused(2, "stride 2");
    return CHECK_SUMMARY();
}
