/* The reference, the stepper, cpu-seq, cpu-par and the CUDA kernel's
 * indexing, on odd sizes, against the independent convolution; cpu-par's
 * pool with any number of threads; the rule results are compared by
 * (conv_same: NaN for NaN, everything else by its bits). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3_body.h"
#include "check.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/stepper.h"
#include "core/timing.h"
#include "independent.h"

static const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {17, 33}, {33, 17}, {1, 4097}, {4097, 1}, {64, 48}};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static img_plane make_input(int w, int h, unsigned seed)
{
    img_plane p;
    img_plane_alloc(&p, w, h);
    ind_fill(p.px, (size_t)w * h, seed);
    return p;
}

static void test_reference_vs_independent(void)
{
    for (size_t s = 0; s < NSIZES; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        img_plane in = make_input(w, h, (unsigned)s), out;
        float *want = malloc(sizeof *want * (size_t)w * h);
        img_plane_alloc(&out, w, h);
        for (size_t k = 0; k < filt_preset_count(); ++k) {
            const filt_kernel *kern = filt_preset(k);
            for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
                for (int flip = 0; flip < 2; ++flip) {
                    conv_params p = conv_params_make(kern, (conv_border)b, flip);
                    long bad = 0;
                    conv_reference(&in, &p, &out);
                    ind_convolve(in.px, w, h, kern->weight, kern->divisor, b, flip, want);
                    for (long i = 0; i < (long)w * h; ++i)
                        bad += fabsf(out.px[i] - want[i]) > 1e-5f * fmaxf(1.0f, fabsf(want[i]));
                    CHECK(bad == 0, "%dx%d %s border %s flip %d: %ld pixels differ", w, h, kern->name,
                          conv_border_name((conv_border)b), flip, bad);
                }
            }
        }
        free(want);
        img_plane_free(&in);
        img_plane_free(&out);
    }
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The rule results are compared by (conv_same): NaNs of any sign and
 * payload are the same result (CUDA's canonical 0x7fffffff, x86's default
 * 0xffc00000, a quiet NaN with a payload, a signalling one); every other
 * value by its bits, so 0.0 and -0.0 differ, and so do the infinities. A
 * result that overflowed to NaN on one engine and the reference counts as
 * equal. */
static void test_same_result(void)
{
    const uint32_t nans[] = {0x7fffffffu, 0xffc00000u, 0x7fc00001u, 0x7fa00000u, 0xffffffffu};
    float inf = from_bits(0x7f800000u), a[4], b[4];
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; ++i)
        for (size_t j = 0; j < sizeof nans / sizeof nans[0]; ++j)
            CHECK(conv_same(from_bits(nans[i]), from_bits(nans[j])), "NaN 0x%08x and NaN 0x%08x: the same result",
                  (unsigned)nans[i], (unsigned)nans[j]);
    CHECK(!conv_same(0.0f, from_bits(0x80000000u)) && !conv_same(from_bits(0x80000000u), 0.0f),
          "0.0 and -0.0: different results (their bits)");
    CHECK(conv_same(0.0f, 0.0f) && conv_same(from_bits(0x80000000u), from_bits(0x80000000u)), "0.0 and 0.0, -0.0 "
                                                                                              "and -0.0: the same");
    CHECK(conv_same(inf, inf) && !conv_same(inf, -inf), "infinity: the same as itself, not as -infinity");
    CHECK(!conv_same(from_bits(0x7fc00000u), inf) && !conv_same(1.0f, from_bits(0x7fc00000u)),
          "NaN and infinity, 1 and NaN: different");
    CHECK(!conv_same(1.0f, from_bits(0x3f800001u)), "1 and the next float: different");
    a[0] = 1.0f, b[0] = 1.0f;
    a[1] = from_bits(0x7fffffffu), b[1] = from_bits(0xffc00000u);
    a[2] = 0.0f, b[2] = from_bits(0x80000000u);
    a[3] = inf, b[3] = inf;
    CHECK(conv_count_different(a, b, 4) == 1 && conv_count_different(a, b, 2) == 0,
          "conv_count_different counts the signed zero only");
}

/* An asymmetric kernel: true convolution equals cross-correlation with the
 * kernel rotated by hand, and differs from plain cross-correlation. */
static void test_flip(void)
{
    img_plane in = make_input(17, 33, 7), a, b;
    filt_kernel k, rotated;
    conv_params pa, pb;
    long differ = 0;
    img_plane_alloc(&a, 17, 33);
    img_plane_alloc(&b, 17, 33);
    filt_parse("1 2 3; 4 5 6; 7 8 10 / 3", &k);
    filt_parse("10 8 7; 6 5 4; 3 2 1 / 3", &rotated);
    for (int border = 0; border < CONV_BORDER_COUNT; ++border) {
        pa = conv_params_make(&k, (conv_border)border, true);
        pb = conv_params_make(&rotated, (conv_border)border, false);
        conv_reference(&in, &pa, &a);
        conv_reference(&in, &pb, &b);
        CHECK(conv_count_different(a.px, b.px, (long)17 * 33) == 0, "flip == rotated kernel, border %d", border);
        pb = conv_params_make(&k, (conv_border)border, false);
        conv_reference(&in, &pb, &b);
        differ = 0;
        for (int i = 0; i < 17 * 33; ++i)
            differ += a.px[i] != b.px[i];
        CHECK(differ > 17 * 33 / 2, "flipped differs from not flipped (%ld of %d pixels)", differ, 17 * 33);
    }
    img_plane_free(&in);
    img_plane_free(&a);
    img_plane_free(&b);
}

static void test_stepper(void)
{
    for (size_t s = 0; s < NSIZES; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        img_plane in = make_input(w, h, 100 + (unsigned)s), ref, out;
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        for (size_t k = 0; k < filt_preset_count(); ++k) {
            for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
                conv_params p = conv_params_make(filt_preset(k), (conv_border)b, k % 2);
                conv_stepper st;
                long taps = 0;
                conv_reference(&in, &p, &ref);
                memset(out.px, 0xff, sizeof(float) * (size_t)w * h);
                conv_stepper_init(&st, &in, &p, &out);
                while (conv_stepper_tap(&st))
                    ++taps;
                CHECK(taps == 9L * w * h, "%dx%d: %ld taps", w, h, taps);
                CHECK(conv_stepper_done(&st) && conv_stepper_done_count(&st) == (long)w * h, "done");
                CHECK(conv_count_different(ref.px, out.px, (long)w * h) == 0,
                      "%dx%d %s border %d: stepper != reference bit for bit", w, h, filt_preset(k)->name, b);
            }
        }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
}

/* What the stepper exposes while it walks. */
static void test_stepper_state(void)
{
    float px[12] = {1, 2, 4, 8, 3, 5, 7, 9, 0, 6, 2, 1}, o[12];
    img_plane in = {4, 3, px}, out = {4, 3, o};
    filt_kernel k;
    conv_params p;
    conv_stepper st;

    filt_parse("sobel-x", &k);
    p = conv_params_make(&k, CONV_BORDER_ZERO, false);
    conv_stepper_init(&st, &in, &p, &out);
    CHECK(st.index == 0 && st.taps == 0 && conv_stepper_done_count(&st) == 0, "starts at 0");
    /* window of (0,0) with zero border: 0 0 0 / 0 1 2 / 0 3 5 */
    CHECK(st.value[4] == 1 && st.value[5] == 2 && st.value[8] == 5 && st.value[0] == 0, "window values");
    for (int t = 0; t < 6; ++t)
        conv_stepper_tap(&st);
    /* taps 0..5: 0 + 0 + 0 + 0 + 0 + 2*2 = 4 */
    CHECK(st.taps == 6 && st.sum == 4.0f && st.product[5] == 4.0f, "after 6 taps sum %g", st.sum);
    conv_stepper_output(&st);
    CHECK(st.taps == 9 && st.sum == 9.0f && o[0] == 9.0f && conv_stepper_done_count(&st) == 1, "output 0 = 9");
    conv_stepper_tap(&st);
    CHECK(st.index == 1 && st.taps == 1 && conv_stepper_x(&st) == 1 && conv_stepper_y(&st) == 0, "moved on");
    CHECK(conv_stepper_back(&st) && st.index == 1 && st.taps == 0, "back restarts the current output");
    CHECK(conv_stepper_back(&st) && st.index == 0 && st.taps == 0 && conv_stepper_done_count(&st) == 0,
          "back again goes to the previous output");
    CHECK(!conv_stepper_back(&st), "cannot go before the first output");
    for (int i = 0; i < 5; ++i)
        conv_stepper_output(&st);
    CHECK(st.index == 4 && conv_stepper_x(&st) == 0 && conv_stepper_y(&st) == 1, "raster order wraps rows");
    conv_stepper_finish(&st);
    CHECK(conv_stepper_done(&st) && !conv_stepper_tap(&st) && !conv_stepper_output(&st), "finished");
    conv_stepper_restart(&st);
    CHECK(st.index == 0 && st.taps == 0, "restart");
}

static void test_engines(void)
{
    eng_engine *seq = eng_open(eng_find("cpu-seq"));
    eng_engine *par = eng_open(eng_find("cpu-par"));
    CHECK(seq && par, "CPU engines open: %s", err_msg());
    CHECK(eng_find("no-such") == NULL, "unknown engine");
    if (!seq || !par)
        return;
    for (size_t s = 0; s < NSIZES; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        img_plane in = make_input(w, h, 200 + (unsigned)s), ref, a, b;
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&a, w, h);
        img_plane_alloc(&b, w, h);
        for (size_t k = 0; k < filt_preset_count(); ++k) {
            for (int bd = 0; bd < CONV_BORDER_COUNT; ++bd) {
                eng_job job = {&in, &a, conv_params_make(filt_preset(k), (conv_border)bd, k % 2)};
                eng_timing t;
                long bad = 0;
                conv_reference(&in, &job.params, &ref);
                CHECK(eng_run(seq, &job, &t) && t.has[ENG_COMPUTE] && t.ms[ENG_COMPUTE] >= 0, "seq runs");
                CHECK(conv_count_different(ref.px, a.px, (long)w * h) == 0, "cpu-seq == reference");
                job.out = &b;
                CHECK(eng_run(par, &job, &t) && t.has[ENG_COMPUTE] && !t.has[ENG_UPLOAD], "par runs");
                for (long i = 0; i < (long)w * h; ++i)
                    bad += fabsf(b.px[i] - ref.px[i]) > 1e-5f * fmaxf(1.0f, fabsf(ref.px[i]));
                CHECK(bad == 0, "cpu-par %dx%d %s border %d: %ld pixels off", w, h, filt_preset(k)->name, bd, bad);
            }
        }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&a);
        img_plane_free(&b);
    }
    {
        img_plane in = make_input(300, 200, 9), out;
        eng_job job = {&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
        eng_timing t;
        img_plane_alloc(&out, 300, 200);
        CHECK(eng_measure(par, &job, 5, &t) && t.reps == 5 && eng_total_ms(&t) > 0, "measure");
        CHECK(strcmp(t.clock, "monotonic clock") == 0, "clock named");
        img_plane_free(&in);
        img_plane_free(&out);
    }
    CHECK(strstr(eng_description(par), "CPU") != NULL, "describes itself: %s", eng_description(par));
    eng_close(seq);
    eng_close(par);
}

/* Filters of every odd size, square and not: the reference equals the
 * independent convolution, and cpu-seq, cpu-simd and cpu-par equal the
 * reference bit for bit, on images smaller and larger than the window, for
 * every border rule, flipped and not. */
static void test_any_size(void)
{
    static const char *const filters[] = {"1 / 1",
                                          "box:5",
                                          "motion:7",
                                          "1; 2; 3; 4; 5 / 15",
                                          "gaussian:1.2",
                                          "box:31",
                                          "-1 0.5 2 0 1; 3 -2 0 1 1; 0 0 4 0 0 / 3"};
    static const int dims[][2] = {{1, 1}, {3, 5}, {17, 33}, {40, 9}, {64, 48}};
    eng_engine *e[3] = {eng_open(eng_find("cpu-seq")), eng_open(eng_find("cpu-simd")), eng_open(eng_find("cpu-par"))};
    CHECK(e[0] && e[1] && e[2], "CPU engines open: %s", err_msg());
    for (size_t f = 0; f < sizeof filters / sizeof filters[0] && e[0] && e[1] && e[2]; ++f) {
        filt_kernel k;
        CHECK(filt_parse(filters[f], &k), "'%s': %s", filters[f], err_msg());
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
            int w = dims[d][0], h = dims[d][1];
            img_plane in = make_input(w, h, 40 + (unsigned)(f * 7 + d)), ref, out;
            float *want = malloc(sizeof *want * (size_t)w * (size_t)h);
            img_plane_alloc(&ref, w, h);
            img_plane_alloc(&out, w, h);
            for (int bd = 0; bd < CONV_BORDER_COUNT; ++bd)
                for (int flip = 0; flip < 2; ++flip) {
                    eng_job job = {&in, &out, conv_params_make(&k, (conv_border)bd, flip)};
                    conv_reference(&in, &job.params, &ref);
                    ind_convolve_any(in.px, w, h, k.weight, k.kw, k.kh, k.divisor, bd, flip, want);
                    CHECK(conv_count_different(ref.px, want, (long)w * h) == 0,
                          "reference == independent: %s (%dx%d) on %dx%d, border %d, flip %d", filters[f], k.kw, k.kh,
                          w, h, bd, flip);
                    for (int i = 0; i < 3; ++i) {
                        eng_timing t;
                        CHECK(eng_run(e[i], &job, &t), "%s runs %s", eng_class_of(e[i])->name, err_msg());
                        CHECK(conv_count_different(ref.px, out.px, (long)w * h) == 0,
                              "%s == reference: %s (%dx%d) on %dx%d, border %d, flip %d", eng_class_of(e[i])->name,
                              filters[f], k.kw, k.kh, w, h, bd, flip);
                    }
                }
            free(want);
            img_plane_free(&in);
            img_plane_free(&ref);
            img_plane_free(&out);
        }
    }
    for (int i = 0; i < 3; ++i)
        eng_close(e[i]);
    { /* every engine built runs every size; one that is not built runs none, and says why */
        filt_kernel k3, k5;
        conv_params p3, p5;
        filt_parse("box", &k3), filt_parse("box:5", &k5);
        p3 = conv_params_make(&k3, CONV_BORDER_CLAMP, false), p5 = conv_params_make(&k5, CONV_BORDER_CLAMP, false);
        for (size_t i = 0; i < eng_count(); ++i) {
            const eng_class *c = eng_class_at(i);
            bool built = c->run != NULL; /* cuda is a stand-in that says why where it is not built */
            CHECK(eng_runs_size(c, &p3) && eng_runs_size(c, &p5) == built, "%s: 3x3 %d, 5x5 %d", c->name,
                  eng_runs_size(c, &p3), eng_runs_size(c, &p5));
        }
    }
}

/* Stride, dilation and padding, conv_arithmetic's pictures by hand on a
 * 5x5 image of 1..25 and a 3x3 box, then every CPU engine against the
 * reference and the reference against the independent convolution over
 * strides, dilations, paddings, borders and windows. */
static void test_geometry(void)
{
    static const char *const filters[] = {"box", "box:5", "1 2 3; 4 5 6; 7 8 9; 1 0 1; 2 2 2 / 7", "motion:3", "1 / 1"};
    static const int dims[][2] = {{1, 1}, {5, 5}, {6, 4}, {37, 29}, {70, 12}};
    eng_engine *e[3] = {eng_open(eng_find("cpu-seq")), eng_open(eng_find("cpu-simd")), eng_open(eng_find("cpu-par"))};
    float px[25], got[49];
    img_plane in = {5, 5, px}, out = {0, 0, got};
    filt_kernel box;
    conv_params p;
    int ow, oh;
    for (int i = 0; i < 25; ++i)
        px[i] = (float)(i + 1);
    filt_parse("1 1 1; 1 1 1; 1 1 1", &box);
    p = conv_params_make(&box, CONV_BORDER_ZERO, false);
    conv_params_set_geometry(&p, 2, 1, CONV_PAD_SAME); /* 3x3 outputs, the first at input (0, 0) */
    CHECK(conv_out_w(&p, 5) == 3 && conv_out_h(&p, 5) == 3, "stride 2, same: 3x3");
    out.w = out.h = 3, conv_reference(&in, &p, &out);
    CHECK(got[0] == 16 && got[1] == 2 + 3 + 4 + 7 + 8 + 9 && got[4] == 7 + 8 + 9 + 12 + 13 + 14 + 17 + 18 + 19,
          "stride 2: %g %g %g", (double)got[0], (double)got[1], (double)got[4]);
    conv_params_set_geometry(&p, 1, 1, CONV_PAD_VALID);
    CHECK(conv_out_w(&p, 5) == 3, "valid: 3 a side");
    out.w = out.h = 3, conv_reference(&in, &p, &out);
    CHECK(got[0] == 63 && got[8] == 13 + 14 + 15 + 18 + 19 + 20 + 23 + 24 + 25, "valid: %g %g", (double)got[0],
          (double)got[8]);
    conv_params_set_geometry(&p, 1, 2, CONV_PAD_VALID); /* extent 5: one output, taps at 0, 2, 4 */
    CHECK(conv_out_w(&p, 5) == 1 && conv_out_h(&p, 4) == 0, "dilation 2, valid: 1, and none from 4 rows");
    out.w = out.h = 1, conv_reference(&in, &p, &out);
    CHECK(got[0] == 1 + 3 + 5 + 11 + 13 + 15 + 21 + 23 + 25, "dilated: %g", (double)got[0]);
    CHECK(!conv_output_size(&p, 5, 4, &ow, &oh) && strstr(err_msg(), "no output"), "no output: %s", err_msg());
    conv_params_set_geometry(&p, 1, 1, CONV_PAD_FULL);
    CHECK(conv_out_w(&p, 5) == 7 && p.pad_x == 2, "full: 7 a side");
    out.w = out.h = 7, conv_reference(&in, &p, &out);
    CHECK(got[0] == 1 && got[48] == 25 && got[8] == 1 + 2 + 6 + 7, "full: %g %g %g", (double)got[0], (double)got[48],
          (double)got[8]);
    CHECK(!conv_geometry_check(0, 1) && !conv_geometry_check(1, CONV_MAX_DILATION + 1) && conv_geometry_check(8, 8),
          "geometry limits");

    for (size_t f = 0; f < sizeof filters / sizeof filters[0] && e[0] && e[1] && e[2]; ++f) {
        filt_kernel k;
        CHECK(filt_parse(filters[f], &k), "'%s': %s", filters[f], err_msg());
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
            int w = dims[d][0], h = dims[d][1];
            img_plane src = make_input(w, h, 90 + (unsigned)(f * 5 + d)), ref = {0}, res = {0};
            for (int g = 0; g < 4 * 3 * 3; ++g) {
                int stride = 1 + g % 4, dil = 1 + g / 4 % 3, pad = g / 12, bd = (g + (int)f) % CONV_BORDER_COUNT;
                float *want = malloc(sizeof *want * (size_t)(w + 2 * 31 * 3) * (size_t)(h + 2 * 31 * 3));
                eng_job job;
                p = conv_params_make(&k, (conv_border)bd, false);
                conv_params_set_geometry(&p, stride, dil, (conv_padding)pad);
                ind_convolve_geometry(src.px, w, h, p.weight, k.kw, k.kh, k.divisor, bd, stride, dil, pad, want, &ow,
                                      &oh);
                CHECK(conv_out_w(&p, w) == ow && conv_out_h(&p, h) == oh, "%s on %dx%d, s%d d%d %s: %dx%d, paper %dx%d",
                      filters[f], w, h, stride, dil, conv_padding_name((conv_padding)pad), conv_out_w(&p, w),
                      conv_out_h(&p, h), ow, oh);
                if (ow > 0 && oh > 0) {
                    img_plane_alloc(&ref, ow, oh), img_plane_alloc(&res, ow, oh);
                    conv_reference(&src, &p, &ref);
                    CHECK(conv_count_different(ref.px, want, (long)ow * oh) == 0,
                          "reference == paper: %s %dx%d s%d d%d %s b%d", filters[f], w, h, stride, dil,
                          conv_padding_name((conv_padding)pad), bd);
                    job = (eng_job){&src, &res, p};
                    for (int i = 0; i < 3; ++i) {
                        eng_timing t;
                        memset(res.px, 0xff, sizeof(float) * (size_t)ow * oh);
                        CHECK(eng_run(e[i], &job, &t) && conv_count_different(ref.px, res.px, (long)ow * oh) == 0,
                              "%s == reference: %s %dx%d s%d d%d %s b%d", eng_class_of(e[i])->name, filters[f], w, h,
                              stride, dil, conv_padding_name((conv_padding)pad), bd);
                    }
                    img_plane_free(&ref), img_plane_free(&res);
                } else {
                    eng_timing t;
                    job = (eng_job){&src, NULL, p};
                    CHECK(!conv_output_size(&p, w, h, &ow, &oh), "no output, said");
                    (void)t;
                }
                free(want);
            }
            img_plane_free(&src);
        }
    }
    { /* an output of the wrong size is refused, in a sentence with the sizes */
        img_plane src = make_input(8, 8, 3), small = {0};
        eng_job job;
        eng_timing t;
        img_plane_alloc(&small, 8, 8);
        p = conv_params_make(&box, CONV_BORDER_ZERO, false);
        conv_params_set_geometry(&p, 2, 1, CONV_PAD_SAME);
        job = (eng_job){&src, &small, p};
        CHECK(!eng_run(e[0], &job, &t) && strstr(err_msg(), "4x4"), "wrong output size refused: %s", err_msg());
        img_plane_free(&src), img_plane_free(&small);
    }
    for (int i = 0; i < 3; ++i)
        eng_close(e[i]);
}

/* Each CPU engine's roofs: measured, positive, on its own threads and
 * lanes, the vector engines' compute roof above the scalar one's. */
static void test_roofs(void)
{
    static const char *const names[] = {"cpu-seq", "cpu-simd", "cpu-par"};
    eng_roofs r[3];
    for (int i = 0; i < 3; ++i) {
        eng_engine *e = eng_open(eng_find(names[i]));
        CHECK(e && eng_measure_roofs(e, &r[i]), "%s: roofs measured: %s", names[i], err_msg());
        CHECK(r[i].memory_gb_s > 0.05 && r[i].memory_gb_s < 10000 && r[i].compute_gflops > 0.01 &&
                  r[i].compute_gflops < 100000 && r[i].clock && r[i].how[0],
              "%s: %.2f GB/s, %.2f GFLOP/s (%s)", names[i], r[i].memory_gb_s, r[i].compute_gflops, r[i].how);
        CHECK(r[i].threads == (i == 2 ? eng_par_threads() : 1) && r[i].lanes == (i == 0 ? 1 : 8),
              "%s: %d threads, %d lanes", names[i], r[i].threads, r[i].lanes);
        eng_close(e);
    }
    CHECK(r[1].compute_gflops > r[0].compute_gflops, "eight lanes out-compute one: %.2f > %.2f", r[1].compute_gflops,
          r[0].compute_gflops);
}

/* The threads of this process, from /proc (0 where it cannot be read). */
static int thread_count(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* cpu-par's pool: with any number of threads (CONVIS_CPU_THREADS, more than
 * this machine's cores too), results equal to the reference bit for bit on
 * odd sizes, 1xN and Nx1 among them, large enough for every thread to get a
 * band; thousands of runs in a row, the size changing between them; and
 * no thread left once the engine is closed. */
static void test_pool(void)
{
    static const int pool_sizes[][2] = {{1, 196615}, {196615, 1}, {513, 511}, {300, 301}, {3, 3}, {1, 1}};
    static const char *const threads[] = {"1", "2", "3", "7"};
    int before = thread_count();
    for (size_t n = 0; n < sizeof threads / sizeof threads[0]; ++n) {
        eng_engine *par;
        setenv("CONVIS_CPU_THREADS", threads[n], 1);
        par = eng_open(eng_find("cpu-par"));
        CHECK(par != NULL, "cpu-par with %s threads: %s", threads[n], err_msg());
        if (!par)
            continue;
        for (size_t s = 0; s < sizeof pool_sizes / sizeof pool_sizes[0]; ++s) {
            int w = pool_sizes[s][0], h = pool_sizes[s][1];
            img_plane in = make_input(w, h, 300 + (unsigned)s), ref, out;
            eng_job job = {&in, &out,
                           conv_params_make(filt_preset(s % filt_preset_count()), (conv_border)(s % 4), s % 2)};
            eng_timing t;
            img_plane_alloc(&ref, w, h);
            img_plane_alloc(&out, w, h);
            conv_reference(&in, &job.params, &ref);
            CHECK(eng_run(par, &job, &t) && conv_count_different(out.px, ref.px, (long)w * h) == 0,
                  "%s threads, %dx%d: equal to the reference bit for bit (%d bands)", threads[n], w, h, t.launch.bands);
            img_plane_free(&in);
            img_plane_free(&ref);
            img_plane_free(&out);
        }
        if (strcmp(threads[n], "3") == 0) {
            /* 3000 runs, the size changing every 500: each result still whole */
            long wrong = 0;
            for (int r = 0; r < 3000; ++r) {
                int w = 400 + (r / 500) * 7, h = 200 + (r / 500) * 3; /* over 64 Ki outputs: several bands */
                static img_plane in, ref, out;
                eng_job job;
                eng_timing t;
                if (r % 500 == 0) {
                    img_plane_free(&in);
                    img_plane_free(&ref);
                    img_plane_free(&out);
                    in = make_input(w, h, (unsigned)r);
                    img_plane_alloc(&ref, w, h);
                    img_plane_alloc(&out, w, h);
                    job = (eng_job){&in, &ref, conv_params_make(filt_preset(3), CONV_BORDER_MIRROR, false)};
                    conv_reference(&in, &job.params, &ref);
                }
                job = (eng_job){&in, &out, conv_params_make(filt_preset(3), CONV_BORDER_MIRROR, false)};
                memset(out.px, 0, sizeof(float) * (size_t)w * h);
                wrong += !eng_run(par, &job, &t) || t.launch.bands < 2 ||
                         conv_count_different(out.px, ref.px, (long)w * h) != 0;
                if (r == 2999) {
                    img_plane_free(&in);
                    img_plane_free(&ref);
                    img_plane_free(&out);
                }
            }
            CHECK(wrong == 0, "3000 runs on 3 threads, 6 sizes: %ld wrong or on one band", wrong);
        }
        eng_close(par);
    }
    unsetenv("CONVIS_CPU_THREADS");
    CHECK(before > 0 && thread_count() == before, "no thread left after closing: %d threads, %d before", thread_count(),
          before);
}

/* The CUDA kernel's indexing, walked on the CPU: every output is covered by
 * exactly one thread of the grid, and the naive body computes the reference. */
static void test_kernel_indexing(void)
{
    static const int blocks[][2] = {{16, 16}, {32, 8}, {1, 1}, {7, 5}};
    for (size_t s = 0; s < NSIZES; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        img_plane in = make_input(w, h, 300 + (unsigned)s), ref, out;
        unsigned char *count = calloc((size_t)w * h, 1);
        conv_params p = conv_params_make(filt_preset(5), CONV_BORDER_MIRROR, false);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        conv_reference(&in, &p, &ref);
        for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; ++bi) {
            int bdx = blocks[bi][0], bdy = blocks[bi][1];
            int gx = conv3x3_blocks(w, bdx), gy = conv3x3_blocks(h, bdy);
            long once = 0;
            memset(count, 0, (size_t)w * h);
            CHECK((long)gx * bdx >= w && (long)(gx - 1) * bdx < w, "grid x covers %d with %d", w, bdx);
            for (int by = 0; by < gy; ++by)
                for (int bx = 0; bx < gx; ++bx)
                    for (int ty = 0; ty < bdy; ++ty)
                        for (int tx = 0; tx < bdx; ++tx) {
                            int x, y;
                            if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y))
                                ++count[(size_t)y * w + x];
                            conv3x3_naive_body(bx, by, tx, ty, bdx, bdy, in.px, out.px, w, h, &p);
                        }
            for (long i = 0; i < (long)w * h; ++i)
                once += count[i] == 1;
            CHECK(once == (long)w * h, "%dx%d blocks %dx%d: %ld of %ld outputs written once", w, h, bdx, bdy, once,
                  (long)w * h);
            CHECK(conv_count_different(ref.px, out.px, (long)w * h) == 0, "naive body == reference");
        }
        free(count);
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
    /* every read stays inside the image or reads zero */
    for (int n = 1; n <= 9; ++n)
        for (int b = 0; b < CONV_BORDER_COUNT; ++b)
            for (int i = -1; i <= n; ++i) {
                int j = conv_border_index(i, n, b);
                CHECK(j == -1 ? b == CONV_BORDER_ZERO : (j >= 0 && j < n), "n=%d b=%d i=%d -> %d", n, b, i, j);
            }
}

/* A run reports the threads it really used, and which ran each band, and says so: cpu-par with two
 * threads runs an image of one band (up to eng_par_band_outputs outputs) on
 * one thread, and its description of that run says one; a larger image
 * runs on two bands, and a run whose second band went to the pool's thread
 * says two. cpu-seq: one. */
static void test_threads_used(void)
{
    long small_side = 100, one_band = eng_par_band_outputs();
    eng_engine *par, *seq;
    setenv("CONVIS_CPU_THREADS", "2", 1);
    par = eng_open(eng_find("cpu-par"));
    seq = eng_open(eng_find("cpu-seq"));
    CHECK(par && seq && eng_par_threads() == 2, "cpu-par and cpu-seq open, cpu-par with 2 threads: %s", err_msg());
    if (par && seq) {
        img_plane in = make_input((int)small_side, (int)small_side, 41), out;
        eng_job job = {&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
        eng_timing t;
        int two = 0, wrong = 0;
        char two_text[320] = "";
        img_plane_alloc(&out, in.w, in.h);
        CHECK(small_side * small_side <= one_band, "%ld outputs fit one band of %ld", small_side * small_side,
              one_band);
        CHECK(eng_measure(par, &job, 3, &t) && t.threads == 1 && t.launch.bands == 1 && t.launch.band_thread[0] == 0,
              "a %ldx%ld image on cpu-par: one thread used (%d), one band (%d)", small_side, small_side, t.threads,
              t.launch.bands);
        CHECK(strstr(eng_run_description(par, &t), "1 of its 2 threads") != NULL,
              "its run is described as one thread: '%s'", eng_run_description(par, &t));
        CHECK(strstr(eng_description(par), "2 threads") != NULL, "the engine still has two: '%s'",
              eng_description(par));
        CHECK(eng_run(seq, &job, &t) && t.threads == 1 &&
                  strcmp(eng_run_description(seq, &t), eng_description(seq)) == 0,
              "cpu-seq: one thread (%d), described as ever", t.threads);
        img_plane_free(&in);
        img_plane_free(&out);

        in = make_input(1024, 512, 42); /* 8 bands' worth: two, one a thread */
        img_plane_alloc(&out, in.w, in.h);
        job = (eng_job){&in, &out, conv_params_make(filt_preset(1), CONV_BORDER_CLAMP, false)};
        for (int r = 0; r < 200; ++r) {
            if (!eng_run(par, &job, &t) || t.launch.bands != 2 || t.threads < 1 || t.threads > 2 ||
                t.launch.band_thread[0] != 0 || t.launch.band_thread[1] != t.threads - 1)
                ++wrong; /* band 1 on thread 1 when both threads ran, else on thread 0 with band 0 */
            else if (t.threads == 2 && !two++)
                snprintf(two_text, sizeof two_text, "%s", eng_run_description(par, &t));
        }
        CHECK(wrong == 0,
              "1024x512 on cpu-par: two bands, one or two threads used, each band's thread said, in every run (%d "
              "wrong)",
              wrong);
        CHECK(two > 0 && strstr(two_text, "2 threads") && !strstr(two_text, "of its"),
              "some runs used both threads (%d of 200), said as '%s'", two, two_text);
        img_plane_free(&in);
        img_plane_free(&out);
    }
    eng_close(par);
    eng_close(seq);
    unsetenv("CONVIS_CPU_THREADS");
}

/* The second-core check: the threads it ran, a figure between none and all
 * of them, in a few milliseconds. */
static void test_cores_check(void)
{
    for (int n = 1; n <= 3; ++n) {
        eng_cores c;
        double t0 = tim_now_ms(), ms;
        bool ok = eng_cores_check(n, &c);
        ms = tim_now_ms() - t0;
        CHECK(ok && c.threads == n && c.worth > 0 && c.worth <= n && c.one_ms > 0 && c.wall_ms > 0,
              "%d threads: %.2f cores' worth (one %.3f ms, all %.3f ms)", n, c.worth, c.one_ms, c.wall_ms);
        CHECK(ms < 250, "the check with %d threads took %.1f ms: a few", n, ms);
    }
}

int main(void)
{
    test_reference_vs_independent();
    test_same_result();
    test_flip();
    test_stepper();
    test_stepper_state();
    test_engines();
    test_any_size();
    test_geometry();
    test_roofs();
    test_pool();
    test_threads_used();
    test_cores_check();
    test_kernel_indexing();
    return CHECK_SUMMARY();
}
