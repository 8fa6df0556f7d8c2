/* Tiles under a memory budget (src/compute/tiles.c): plans against hand
 * values, every plan's tiles within the budget and covering the image once,
 * and the tiled result equal, bit for bit, to the untiled one for every
 * border mode, on sizes the tiles do not divide, through each CPU engine,
 * for 3x3, wider and rectangular windows and every geometry. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compute/engine.h"
#include "compute/tiles.h"
#include "core/err.h"

static void fill(img_plane *p, unsigned seed)
{
    for (long i = 0; i < (long)p->w * p->h; ++i) {
        seed = seed * 1103515245u + 12345u;
        p->px[i] = (float)((seed >> 16) % 256) + (float)((seed >> 8) % 7) * 0.125f;
    }
}

/* The window and geometry the checks below run (set in main). */
static const char *filter_text = "1 2 -1; -3 5 2; 0.5 -2 1 / 3";
static int g_stride = 1, g_dilation = 1;
static conv_padding g_padding = CONV_PAD_SAME;

static conv_params params_for(int border)
{
    filt_kernel k;
    conv_params p;
    filt_parse(filter_text, &k);
    p = conv_params_make(&k, (conv_border)border, false);
    conv_params_set_geometry(&p, g_stride, g_dilation, g_padding);
    return p;
}

static void check_plan_covers(int in_w, int in_h, long long budget)
{
    tile_plan p;
    conv_params cp = params_for(0);
    tile_window g = tile_window_of(&cp);
    int w = conv_out_w(&cp, in_w), h = conv_out_h(&cp, in_h);
    char *seen;
    if (!tile_plan_make(in_w, in_h, &cp, budget, &p)) {
        CHECK(0, "%dx%d at %lld bytes: %s", w, h, budget, err_msg());
        return;
    }
    seen = calloc((size_t)w * h, 1);
    for (int i = 0; i < tile_count(&p); ++i) {
        int x, y, tw, th;
        tile_rect(&p, i, &x, &y, &tw, &th);
        CHECK(tw >= 1 && th >= 1, "%dx%d: tile %d is %dx%d", w, h, i, tw, th);
        CHECK(tile_bytes(&g, tw, th) <= budget, "%dx%d: tile %d (%dx%d) needs %lld > %lld", w, h, i, tw, th,
              tile_bytes(&g, tw, th), budget);
        for (int yy = y; yy < y + th; ++yy)
            for (int xx = x; xx < x + tw; ++xx) {
                ++seen[(long)yy * w + xx];
                if (tile_of(&p, xx, yy) != i) {
                    CHECK(tile_of(&p, xx, yy) == i, "%dx%d: pixel %d,%d in tile %d, tile_of says %d", w, h, xx, yy, i,
                          tile_of(&p, xx, yy));
                    yy = y + th;
                    break;
                }
            }
    }
    for (long i = 0; i < (long)w * h; ++i)
        if (seen[i] != 1) {
            CHECK(seen[i] == 1, "%dx%d at %lld: pixel %ld covered %d times", w, h, budget, i, seen[i]);
            break;
        }
    free(seen);
}

static void check_equal(const char *engine, int in_w, int in_h, long long budget, int border)
{
    const eng_class *cls = eng_find(engine);
    eng_engine *e = eng_open(cls);
    img_plane in = {0}, whole = {0}, tiled = {0};
    eng_timing t;
    tile_plan p;
    eng_job job = {&in, &whole, params_for(border)};
    int w = conv_out_w(&job.params, in_w), h = conv_out_h(&job.params, in_h);
    CHECK(e != NULL, "%s opens: %s", engine, err_msg());
    if (!e)
        return;
    img_plane_alloc(&in, in_w, in_h);
    img_plane_alloc(&whole, w, h);
    img_plane_alloc(&tiled, w, h);
    fill(&in, (unsigned)(in_w * 31 + in_h));
    {
        conv_reference(&in, &job.params, &whole);
        job.out = &tiled;
        CHECK(tile_plan_make(in_w, in_h, &job.params, budget, &p), "plan %dx%d: %s", in_w, in_h, err_msg());
        CHECK(tile_run_all(e, &job, &p, &t), "%s runs %d tiles: %s", engine, tile_count(&p), err_msg());
        CHECK(conv_count_different(whole.px, tiled.px, (long)w * h) == 0,
              "%s, '%s' s%d d%d %s on %dx%d, %s border, %d tiles of %dx%d: the tiled result differs from the untiled",
              engine, filter_text, g_stride, g_dilation, conv_padding_name(g_padding), in_w, in_h,
              conv_border_name((conv_border)border), tile_count(&p), p.tile_w, p.tile_h);
        CHECK(t.reps == 1 && t.has[ENG_COMPUTE] && t.ms[ENG_COMPUTE] >= 0 && t.total_px == (long long)w * h,
              "%s: the tiles' timing is one summed run of the image", engine);
    }
    img_plane_free(&in);
    img_plane_free(&whole);
    img_plane_free(&tiled);
    eng_close(e);
}

/* Every plan within its budget and covering the output once; the tiled
 * result equal to the untiled, every border, each CPU engine: for the
 * window and geometry set. */
static void check_all(void)
{
    {
        int sizes[][2] = {{1, 1}, {7, 5}, {33, 17}, {64, 64}, {100, 3}, {3, 100}, {513, 385}};
        long long budgets[] = {72, 200, 1000, 4096, 30000, 1 << 20};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
            for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; ++b) {
                tile_plan q;
                conv_params cp = params_for(0);
                if (tile_plan_make(sizes[i][0], sizes[i][1], &cp, budgets[b], &q))
                    check_plan_covers(sizes[i][0], sizes[i][1], budgets[b]);
                else
                    CHECK(strstr(err_msg(), "tiles") != NULL || strstr(err_msg(), "no output") != NULL ||
                              strstr(err_msg(), "one-pixel tile") != NULL,
                          "refused only for too many tiles, no output or too small a budget: %s", err_msg());
            }
    }
    {
        const char *engines[] = {"cpu-seq", "cpu-simd", "cpu-par"};
        int sizes[][2] = {{1, 1}, {2, 3}, {7, 5}, {33, 17}, {100, 3}, {131, 67}};
        long long budgets[] = {72, 600, 5000, 40000};
        int runs = 0;
        for (size_t e = 0; e < 3; ++e)
            for (int border = 0; border < CONV_BORDER_COUNT; ++border)
                for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
                    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; ++b) {
                        tile_plan q;
                        conv_params cp = params_for(border);
                        if (tile_plan_make(sizes[i][0], sizes[i][1], &cp, budgets[b], &q) && tile_count(&q) <= 400) {
                            check_equal(engines[e], sizes[i][0], sizes[i][1], budgets[b], border);
                            ++runs;
                        }
                    }
        CHECK(runs >= 24, "'%s' s%d d%d: tiles checked in %d plans", filter_text, g_stride, g_dilation, runs);
    }
}

int main(void)
{
    tile_plan p;
    conv_params p3 = params_for(0), p5;
    tile_window g3 = tile_window_of(&p3), g5, gs;

    /* hand values: 512x384 in 1 MiB. A square tile t needs 8 (t+2)^2 bytes:
     * t = 360 is the largest (8 * 362^2 = 1,048,352), so 2 x 2 tiles,
     * evened out to 256 x 192. */
    CHECK(tile_image_bytes(&p3, 512, 384) == 1572864, "two float buffers of 512x384");
    CHECK(tile_bytes(&g3, 256, 192) == 8LL * 258 * 194, "a tile with its halo, in and out");
    CHECK(tile_plan_make(512, 384, &p3, 1 << 20, &p), "%s", err_msg());
    CHECK(p.cols == 2 && p.rows == 2 && p.tile_w == 256 && p.tile_h == 192, "got %dx%d tiles of %dx%d", p.cols, p.rows,
          p.tile_w, p.tile_h);
    /* a wide image: the tile spans the height, and grows across */
    CHECK(tile_plan_make(1000, 10, &p3, 8LL * 12 * 202, &p), "%s", err_msg());
    CHECK(p.rows == 1 && p.tile_h == 10 && p.cols == 5 && p.tile_w == 200, "wide: %dx%d tiles of %dx%d", p.cols, p.rows,
          p.tile_w, p.tile_h);
    /* the smallest budget: one pixel and its halo, 2 x 9 floats */
    CHECK(tile_plan_make(3, 2, &p3, 72, &p) && tile_count(&p) == 6 && p.tile_w == 1, "one-pixel tiles");
    CHECK(!tile_plan_make(3, 2, &p3, 71, &p), "under one pixel's tile: refused");
    CHECK(strstr(err_msg(), "one-pixel tile") != NULL, "says why: %s", err_msg());
    CHECK(!tile_plan_make(4096, 4096, &p3, 64 << 10, &p), "too many tiles: refused");
    CHECK(strstr(err_msg(), "tiles") != NULL && strstr(err_msg(), "larger budget") != NULL, "says what to do: %s",
          err_msg());
    /* a 5x5 window: a halo of two a side, 8 (t+4)^2 bytes a square tile */
    filter_text = "box:5";
    p5 = params_for(0), g5 = tile_window_of(&p5);
    CHECK(tile_bytes(&g5, 256, 192) == 8LL * 260 * 196 && tile_bytes(&g5, 1, 1) == 8 * 25, "5x5: the halo is two");
    /* stride 2, dilation 2, valid, 3x3: a tile of 10x10 outputs reads 9*2+5 = 23 a side, writes 100 */
    filter_text = "box", g_stride = 2, g_dilation = 2, g_padding = CONV_PAD_VALID;
    p5 = params_for(0), gs = tile_window_of(&p5);
    CHECK(tile_bytes(&gs, 10, 10) == 4LL * (23 * 23 + 100), "strided: %lld", tile_bytes(&gs, 10, 10));
    CHECK(tile_image_bytes(&p5, 41, 21) == 4LL * (41 * 21 + 19 * 9), "strided image: in and a 19x9 out");
    CHECK(!tile_plan_make(4, 4, &p5, 1 << 20, &p) && strstr(err_msg(), "no output"), "no output: %s", err_msg());
    g_stride = g_dilation = 1, g_padding = CONV_PAD_SAME;

    {
        static const struct {
            const char *filter;
            int stride, dilation;
            conv_padding padding;
        } cases[] = {
            {"1 2 -1; -3 5 2; 0.5 -2 1 / 3", 1, 1, CONV_PAD_SAME},
            {"1 2 3 -1 0; 0 -2 1 4 1; 2 2 -3 1 0; 1 0 1 0 1; -1 3 0 2 1 / 7", 1, 1, CONV_PAD_SAME},
            {"1 2 3; 0 1 -1; 4 0 2; 1 1 1; -2 0 1", 1, 1, CONV_PAD_SAME},
            {"1 2 -1; -3 5 2; 0.5 -2 1 / 3", 2, 1, CONV_PAD_SAME},
            {"1 2 -1; -3 5 2; 0.5 -2 1 / 3", 1, 2, CONV_PAD_VALID},
            {"box:5", 3, 2, CONV_PAD_FULL},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            filter_text = cases[c].filter, g_stride = cases[c].stride, g_dilation = cases[c].dilation;
            g_padding = cases[c].padding;
            check_all();
        }
    }
    return CHECK_SUMMARY();
}
