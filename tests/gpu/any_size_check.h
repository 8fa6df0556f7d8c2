/* any_size_check.h - the CUDA engine on filters of every size, for
 * tests/gpu/test_cuda_engine.c (on a GPU, and on the CPU stand-in):
 *   - windows 1x1, 1x7, 7x1, 3x5, 5x3, 5x5, 9x1 (motion:9) and 31x31 with
 *     weights that are not symmetric (so a flip changes them), on odd sizes
 *     and on images smaller than the window, every border rule, flipped and
 *     not, the naive and the tiled kernel in blocks of 16x16, 32x8, 7x5 (a
 *     width whose tile rows are not padded) and 1x64: every run the
 *     reference's bit for bit, and the reference the independent one's;
 *   - a 3x3 filter between larger ones, so the window in __constant__
 *     memory changes back and forth;
 *   - a tile that does not fit the shared memory of a block (31x31 in blocks
 *     of 1024x1) and the tiled kernel without its barrier on 5x5: refused in
 *     a sentence, and the engine still runs after. */
#ifndef CONVIS_ANY_SIZE_CHECK_H
#define CONVIS_ANY_SIZE_CHECK_H

#include <stdio.h>
#include <string.h>

#include "../unit/check.h"
#include "../unit/independent.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/filter.h"

/* A kw x kh filter with weights from `seed` between -1 and 1 (none of them
 * mirror another) and a divisor that is not a power of two. */
static filt_kernel any_size_filter(int kw, int kh, unsigned seed)
{
    filt_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "custom");
    k.kw = kw;
    k.kh = kh;
    ind_fill(k.weight, (size_t)kw * kh, seed);
    for (int t = 0; t < kw * kh; ++t)
        k.weight[t] = k.weight[t] / 128.0f - 1.0f;
    k.divisor = 3.0f;
    return k;
}

static bool any_size_options(eng_engine *e, eng_kernel kernel, int bx, int by, bool no_barrier)
{
    eng_options o;
    memset(&o, 0, sizeof o);
    o.kernel = kernel;
    o.result = ENG_RESULT_BULK;
    o.block_x = bx;
    o.block_y = by;
    o.no_barrier = no_barrier;
    if (!eng_set_options(e, &o)) {
        CHECK(false, "options %s %dx%d: %s", eng_kernel_name(kernel), bx, by, err_msg());
        return false;
    }
    return true;
}

static void check_any_size(eng_engine *e)
{
    static const int windows[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {5, 3}, {5, 5}, {3, 3}, {0, 0}, {31, 31}};
    static const int dims[][2] = {{1, 1}, {2, 9}, {3, 5}, {17, 33}, {33, 17}, {40, 9}, {64, 48}};
    static const struct {
        eng_kernel kernel;
        int bx, by;
    } configs[] = {{ENG_KERNEL_NAIVE, 16, 16}, {ENG_KERNEL_TILED, 16, 16}, {ENG_KERNEL_NAIVE, 32, 8},
                   {ENG_KERNEL_TILED, 32, 8},  {ENG_KERNEL_TILED, 7, 5},   {ENG_KERNEL_TILED, 1, 64}};
    long runs = 0, exact = 0;

    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
        int w = dims[d][0], h = dims[d][1];
        long n = (long)w * h;
        img_plane in, ref, out;
        float *want = malloc(sizeof *want * (size_t)n);
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        ind_fill(in.px, (size_t)n, (unsigned)d + 70);
        for (size_t f = 0; f < sizeof windows / sizeof windows[0]; ++f) {
            filt_kernel k = any_size_filter(windows[f][0], windows[f][1], (unsigned)f + 7);
            if (windows[f][0] == 0)
                CHECK(filt_parse("motion:9", &k), "motion:9: %s", err_msg());
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    eng_job job = {&in, &out, conv_params_make(&k, (conv_border)b, flip)};
                    conv_reference(&in, &job.params, &ref);
                    ind_convolve_any(in.px, w, h, k.weight, k.kw, k.kh, k.divisor, b, flip, want);
                    CHECK(conv_count_different(ref.px, want, n) == 0, "reference == independent: %dx%d on %dx%d", k.kw,
                          k.kh, w, h);
                    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; ++c) {
                        eng_timing t;
                        if (!any_size_options(e, configs[c].kernel, configs[c].bx, configs[c].by, false))
                            continue;
                        for (long i = 0; i < n; ++i)
                            out.px[i] = -12345.0f;
                        if (!eng_run(e, &job, &t)) {
                            CHECK(false, "%dx%d filter on %dx%d, %s kernel %dx%d: %s", k.kw, k.kh, w, h,
                                  eng_kernel_name(configs[c].kernel), configs[c].bx, configs[c].by, err_msg());
                            continue;
                        }
                        ++runs;
                        exact += conv_count_different(out.px, ref.px, n) == 0;
                        CHECK(conv_count_different(out.px, ref.px, n) == 0,
                              "%dx%d filter on %dx%d, border %d, flip %d, %s kernel %dx%d: %ld outputs differ from "
                              "the reference",
                              k.kw, k.kh, w, h, b, flip, eng_kernel_name(configs[c].kernel), configs[c].bx,
                              configs[c].by, conv_count_different(out.px, ref.px, n));
                        CHECK(t.launch.grid_x == (w + configs[c].bx - 1) / configs[c].bx &&
                                  t.launch.grid_y == (h + configs[c].by - 1) / configs[c].by &&
                                  t.launch.block_x == configs[c].bx && t.launch.block_y == configs[c].by,
                              "%dx%d filter: the launch's grid and blocks", k.kw, k.kh);
                    }
                }
        }
        free(want);
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
    printf("filters of every size: %ld runs, %ld of them equal to the reference bit for bit\n", runs, exact);
    CHECK(runs > 0 && exact == runs, "every size: %ld of %ld runs bit for bit", exact, runs);

    { /* what the tiled kernel refuses, in a sentence; the engine runs on */
        img_plane in, ref, out;
        eng_timing t;
        filt_kernel k31 = any_size_filter(31, 31, 3), k5 = any_size_filter(5, 5, 4);
        eng_job job = {&in, &out, conv_params_make(&k31, CONV_BORDER_MIRROR, false)};
        img_plane_alloc(&in, 45, 37);
        img_plane_alloc(&ref, 45, 37);
        img_plane_alloc(&out, 45, 37);
        ind_fill(in.px, 45 * 37, 5);
        if (any_size_options(e, ENG_KERNEL_TILED, 1024, 1, false))
            CHECK(!eng_run(e, &job, &t) &&
                      strstr(err_msg(), "31\xC3\x97"
                                        "31 filter for 1024x1 blocks needs") &&
                      strstr(err_msg(), "bytes of shared memory") && strstr(err_msg(), "the naive kernel"),
                  "a tile larger than a block's shared memory: '%s'", err_msg());
        conv_reference(&in, &job.params, &ref);
        if (any_size_options(e, ENG_KERNEL_NAIVE, 1024, 1, false))
            CHECK(eng_run(e, &job, &t) && conv_count_different(out.px, ref.px, 45 * 37) == 0,
                  "the naive kernel in the same blocks runs it: %s", err_msg());
        job.params = conv_params_make(&k5, CONV_BORDER_CLAMP, true);
        if (any_size_options(e, ENG_KERNEL_TILED, 16, 16, true))
            CHECK(!eng_run(e, &job, &t) &&
                      strstr(err_msg(), "without its barrier runs 3\xC3\x97"
                                        "3 filters at stride 1 only") &&
                      strstr(err_msg(), "5\xC3\x97"
                                        "5"),
                  "the race demo on a 5x5 filter: '%s'", err_msg());
        conv_reference(&in, &job.params, &ref);
        if (any_size_options(e, ENG_KERNEL_TILED, 16, 16, false))
            CHECK(eng_run(e, &job, &t) && conv_count_different(out.px, ref.px, 45 * 37) == 0,
                  "after the refusals, the tiled kernel runs 5x5: %s", err_msg());
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
    any_size_options(e, ENG_KERNEL_TILED, 0, 0, false);
}

#endif
