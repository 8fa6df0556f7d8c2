/* tiles_check.h - the check every GPU engine's test makes of tiles under a
 * memory budget (compute/tiles.h): the tiled result equals the engine's own
 * untiled result bit for bit, for every border mode, on sizes the tiles do
 * not divide; after eng_trim the engine holds no more than one tile's
 * buffers. Include after check.h. */
#ifndef CONVIS_TILES_CHECK_H
#define CONVIS_TILES_CHECK_H

#include <string.h>

#include "compute/engine.h"
#include "compute/tiles.h"
#include "core/err.h"

static void check_tiles_on(eng_engine *e)
{
    static const int sizes[][2] = {{1, 1}, {5, 3}, {37, 19}, {130, 67}, {300, 201}};
    static const long long budgets[] = {72, 3000, 20000, 150000};
    int runs = 0;
    for (int border = 0; border < CONV_BORDER_COUNT; ++border)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
            for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; ++b) {
                int w = sizes[i][0], h = sizes[i][1];
                img_plane in = {0}, whole = {0}, tiled = {0};
                filt_kernel k;
                tile_plan p;
                eng_timing t;
                conv_params cp;
                /* the 3x3 window, and a 5x5 one on every other size: its halo of two */
                filt_parse(i % 2 ? "1 2 3 -1 0; 0 -2 1 4 1; 2 2 -3 1 0; 1 0 1 0 1; -1 3 0 2 1 / 7"
                                 : "1 2 -1; -3 5 2; 0.5 -2 1 / 3",
                           &k);
                cp = conv_params_make(&k, (conv_border)border, false);
                if (!tile_plan_make(w, h, &cp, budgets[b], &p) || tile_count(&p) > 64)
                    continue; /* many one-pixel tiles prove nothing more, slowly */
                img_plane_alloc(&in, w, h);
                img_plane_alloc(&whole, w, h);
                img_plane_alloc(&tiled, w, h);
                for (long j = 0; j < (long)w * h; ++j)
                    in.px[j] = (float)((j * 7919 + border * 31) % 251) * 0.5f;
                {
                    eng_job job = {&in, &whole, cp};
                    CHECK(eng_run(e, &job, &t), "untiled %dx%d: %s", w, h, err_msg());
                    eng_trim(e);
                    job.out = &tiled;
                    CHECK(tile_run_all(e, &job, &p, &t), "%d tiles of %dx%d: %s", tile_count(&p), w, h, err_msg());
                    CHECK(conv_count_different(whole.px, tiled.px, (long)w * h) == 0,
                          "%s: %dx%d, %s border, %d tiles of %dx%d: tiled differs from untiled", eng_class_of(e)->name,
                          w, h, conv_border_name((conv_border)border), tile_count(&p), p.tile_w, p.tile_h);
                    {
                        eng_device_info d;
                        if (eng_device(e, &d))
                            CHECK(d.memory_engine <= budgets[b],
                                  "%s holds %lld bytes after tiles of a %lld-byte budget", eng_class_of(e)->name,
                                  d.memory_engine, budgets[b]);
                    }
                }
                ++runs;
                img_plane_free(&in);
                img_plane_free(&whole);
                img_plane_free(&tiled);
            }
    CHECK(runs > 20, "tiles checked in %d plans", runs);
}

#endif
