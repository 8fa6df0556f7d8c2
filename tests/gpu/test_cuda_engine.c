/* The CUDA engine against the reference, on a CUDA device. Exits 77 (ctest:
 * skipped) when this machine has none, saying why. */
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "../unit/independent.h"
#include "compute/engine.h"
#include "core/conv.h"
#include "core/err.h"

static const int sizes[][2] = {{1, 1}, {2, 2}, {3, 3}, {16, 16}, {17, 33}, {1, 4097}, {4097, 1}, {1000, 777}};

int main(void)
{
    char why[256];
    const eng_class *cls = eng_find("cuda");
    eng_engine *e;

    if (!eng_probe(cls, why, sizeof why)) {
        printf("skipped: cuda unavailable: %s\n", why);
        return 77;
    }
    e = eng_open(cls);
    CHECK(e != NULL, "open: %s", err_msg());
    if (!e)
        return CHECK_SUMMARY();
    printf("running on %s\n", eng_description(e));
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        img_plane in, ref, out;
        img_plane_alloc(&in, w, h);
        img_plane_alloc(&ref, w, h);
        img_plane_alloc(&out, w, h);
        ind_fill(in.px, (size_t)w * h, (unsigned)s + 40);
        for (size_t k = 0; k < filt_preset_count(); ++k)
            for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                for (int flip = 0; flip < 2; ++flip) {
                    eng_job job = {&in, &out, conv_params_make(filt_preset(k), (conv_border)b, flip)};
                    eng_timing t;
                    long bad = 0;
                    conv_reference(&in, &job.params, &ref);
                    CHECK(eng_run(e, &job, &t), "run: %s", err_msg());
                    CHECK(t.has[ENG_UPLOAD] && t.has[ENG_COMPUTE] && t.has[ENG_DOWNLOAD] &&
                              strcmp(t.clock, "cudaEvent") == 0, "phases");
                    CHECK(t.launch.grid_x == (w + 15) / 16 && t.launch.grid_y == (h + 15) / 16 &&
                              t.launch.block_x == 16 && t.launch.block_y == 16,
                          "%dx%d: launch %dx%d blocks of %dx%d, expected blocks of 16x16", w, h, t.launch.grid_x,
                          t.launch.grid_y, t.launch.block_x, t.launch.block_y);
                    for (long i = 0; i < (long)w * h; ++i)
                        bad += fabsf(out.px[i] - ref.px[i]) > 1e-5f * fmaxf(1.0f, fabsf(ref.px[i]));
                    CHECK(bad == 0, "%dx%d %s border %d flip %d: %ld pixels off", w, h, filt_preset(k)->name, b,
                          flip, bad);
                }
        img_plane_free(&in);
        img_plane_free(&ref);
        img_plane_free(&out);
    }
    eng_close(e);
    return CHECK_SUMMARY();
}
