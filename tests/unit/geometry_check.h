/* geometry_check.h - the check every engine's test makes of the geometry
 * (conv_params: stride, dilation, padding same/valid/full): for each kernel
 * the engine has, windows 3x3, 3x5, 5x5, 3x1 and 1x1 on odd and even sizes
 * (some smaller than the window's extent), strides 1 to 4, dilations 1 to 3,
 * the three paddings, the border rules in turn: every run gives the
 * output's size and equals the reference (conv_reference, itself held to a
 * hand-written one in test_conv) bit for bit. Include after check.h. */
#ifndef CONVIS_GEOMETRY_CHECK_H
#define CONVIS_GEOMETRY_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/filter.h"

static void geometry_check_kernel(eng_engine *e, const char *kernel, long *runs)
{
    static const char *const filters[] = {"box", "1 2 3; 4 5 6; 7 8 9; 1 0 1; 2 2 2 / 7", "box:5", "motion:3",
                                          "1 / 1"};
    static const int dims[][2] = {{1, 1}, {5, 5}, {6, 4}, {37, 29}, {70, 12}};
    for (size_t f = 0; f < sizeof filters / sizeof filters[0]; ++f) {
        filt_kernel k;
        CHECK(filt_parse(filters[f], &k), "'%s': %s", filters[f], err_msg());
        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
            int w = dims[d][0], h = dims[d][1];
            img_plane src, ref, res;
            img_plane_alloc(&src, w, h);
            for (long i = 0; i < (long)w * h; ++i)
                src.px[i] = (float)((i * 7919 + (long)f * 31 + (long)d) % 509) * 0.25f - 40.0f;
            for (int g = 0; g < 4 * 3 * 3; ++g) {
                int stride = 1 + g % 4, dil = 1 + g / 4 % 3, pad = g / 12, bd = (g + (int)f) % CONV_BORDER_COUNT, ow,
                    oh;
                conv_params p = conv_params_make(&k, (conv_border)bd, (g + (int)d) % 2 == 1);
                eng_job job;
                eng_timing t;
                conv_params_set_geometry(&p, stride, dil, (conv_padding)pad);
                if (conv_plain(&p) || !conv_output_size(&p, w, h, &ow, &oh))
                    continue; /* the plain geometry has its own tests; no output, nothing to compare */
                img_plane_alloc(&ref, ow, oh);
                img_plane_alloc(&res, ow, oh);
                conv_reference(&src, &p, &ref);
                for (long i = 0; i < (long)ow * oh; ++i)
                    res.px[i] = -12345.0f;
                job = (eng_job){&src, &res, p};
                if (!eng_run(e, &job, &t))
                    CHECK(false, "%s %s: %s on %dx%d, stride %d, dilation %d, %s: %s", eng_class_of(e)->name, kernel,
                          filters[f], w, h, stride, dil, conv_padding_name((conv_padding)pad), err_msg());
                else
                    CHECK(conv_count_different(ref.px, res.px, (long)ow * oh) == 0 &&
                              t.total_px == (long long)ow * oh,
                          "%s %s: %s on %dx%d, stride %d, dilation %d, %s, border %s: %ld of %dx%d outputs differ "
                          "from the reference",
                          eng_class_of(e)->name, kernel, filters[f], w, h, stride, dil,
                          conv_padding_name((conv_padding)pad), conv_border_name((conv_border)bd),
                          conv_count_different(ref.px, res.px, (long)ow * oh), ow, oh);
                ++*runs;
                img_plane_free(&ref);
                img_plane_free(&res);
            }
            img_plane_free(&src);
        }
    }
}

/* Every kernel of `e` (the tiled and the naive where it has both), then the
 * options it had put back to the default. Returns the runs compared. */
static long check_geometry_on(eng_engine *e)
{
    long runs = 0;
    if (!eng_has_kernels(eng_class_of(e))) {
        geometry_check_kernel(e, "", &runs);
        return runs;
    }
    for (int kernel = 0; kernel < ENG_KERNEL_COUNT; ++kernel) {
        eng_options o;
        memset(&o, 0, sizeof o);
        o.kernel = (eng_kernel)kernel;
        CHECK(eng_set_options(e, &o), "options: %s", err_msg());
        geometry_check_kernel(e, eng_kernel_name((eng_kernel)kernel), &runs);
    }
    {
        eng_options o;
        memset(&o, 0, sizeof o);
        eng_set_options(e, &o);
    }
    return runs;
}

/* A 31x31 box at stride 2 and dilation 8: a 16x16 block's (work group's)
 * windows span 271x271 cells, 293,764 bytes, past any GPU's shared memory
 * of a block. The tiled kernel refuses it in a sentence naming the
 * dilation and the naive kernel, which runs it equal to the reference. */
static void check_geometry_too_wide(eng_engine *e)
{
    static float px[40 * 300], res[40 * 300], want[40 * 300];
    img_plane in = {300, 40, px}, out = {0, 0, res}, ref = {0, 0, want};
    filt_kernel k;
    eng_options o;
    eng_timing t;
    eng_job job;
    for (int i = 0; i < 300 * 40; ++i)
        px[i] = (float)(i % 97);
    filt_parse("box:31", &k);
    job = (eng_job){&in, &out, conv_params_make(&k, CONV_BORDER_MIRROR, false)};
    conv_params_set_geometry(&job.params, 2, 8, CONV_PAD_SAME);
    out.w = ref.w = conv_out_w(&job.params, 300), out.h = ref.h = conv_out_h(&job.params, 40);
    conv_reference(&in, &job.params, &ref);
    memset(&o, 0, sizeof o); /* the tiled kernel, 16x16 */
    eng_set_options(e, &o);
    CHECK(!eng_run(e, &job, &t) && strstr(err_msg(), "dilation 8") && strstr(err_msg(), "naive kernel"),
          "31x31 at dilation 8 on the tiled kernel: '%s'", err_msg());
    o.kernel = ENG_KERNEL_NAIVE;
    eng_set_options(e, &o);
    CHECK(eng_run(e, &job, &t) && conv_count_different(res, want, (long)out.w * out.h) == 0,
          "31x31 at dilation 8 on the naive kernel: %s", err_msg());
    memset(&o, 0, sizeof o);
    eng_set_options(e, &o);
}

#endif
