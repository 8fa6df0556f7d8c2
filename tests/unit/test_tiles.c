/* Tiles under a memory budget (src/compute/tiles.c): plans against hand
 * values, every plan's tiles within the budget and covering the image once,
 * and the tiled result equal, bit for bit, to the untiled one for every
 * border mode, on sizes the tiles do not divide, through each CPU engine. */
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

static void check_plan_covers(int w, int h, long long budget)
{
    tile_plan p;
    char *seen;
    if (!tile_plan_make(w, h, budget, &p)) {
        CHECK(0, "%dx%d at %lld bytes: %s", w, h, budget, err_msg());
        return;
    }
    seen = calloc((size_t)w * h, 1);
    for (int i = 0; i < tile_count(&p); ++i) {
        int x, y, tw, th;
        tile_rect(&p, i, &x, &y, &tw, &th);
        CHECK(tw >= 1 && th >= 1, "%dx%d: tile %d is %dx%d", w, h, i, tw, th);
        CHECK(tile_bytes(tw, th) <= budget, "%dx%d: tile %d (%dx%d) needs %lld > %lld", w, h, i, tw, th,
              tile_bytes(tw, th), budget);
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

static void check_equal(const char *engine, int w, int h, long long budget, int border)
{
    const eng_class *cls = eng_find(engine);
    eng_engine *e = eng_open(cls);
    img_plane in = {0}, whole = {0}, tiled = {0};
    filt_kernel k;
    eng_timing t;
    tile_plan p;
    CHECK(e != NULL, "%s opens: %s", engine, err_msg());
    if (!e)
        return;
    img_plane_alloc(&in, w, h);
    img_plane_alloc(&whole, w, h);
    img_plane_alloc(&tiled, w, h);
    fill(&in, (unsigned)(w * 31 + h));
    filt_parse("1 2 -1; -3 5 2; 0.5 -2 1 / 3", &k);
    {
        eng_job job = {&in, &whole, conv_params_make(&k, (conv_border)border, false)};
        conv_reference(&in, &job.params, &whole);
        job.out = &tiled;
        CHECK(tile_plan_make(w, h, budget, &p), "plan %dx%d: %s", w, h, err_msg());
        CHECK(tile_run_all(e, &job, &p, &t), "%s runs %d tiles: %s", engine, tile_count(&p), err_msg());
        CHECK(conv_count_different(whole.px, tiled.px, (long)w * h) == 0,
              "%s, %dx%d, %s border, %d tiles of %dx%d: the tiled result differs from the untiled", engine, w, h,
              conv_border_name((conv_border)border), tile_count(&p), p.tile_w, p.tile_h);
        CHECK(t.reps == 1 && t.has[ENG_COMPUTE] && t.ms[ENG_COMPUTE] >= 0 && t.total_px == (long long)w * h,
              "%s: the tiles' timing is one summed run of the image", engine);
    }
    img_plane_free(&in);
    img_plane_free(&whole);
    img_plane_free(&tiled);
    eng_close(e);
}

int main(void)
{
    tile_plan p;

    /* hand values: 512x384 in 1 MiB. A square tile t needs 8 (t+2)^2 bytes:
     * t = 360 is the largest (8 * 362^2 = 1,048,352), so 2 x 2 tiles,
     * evened out to 256 x 192. */
    CHECK(tile_image_bytes(512, 384) == 1572864, "two float buffers of 512x384");
    CHECK(tile_bytes(256, 192) == 8LL * 258 * 194, "a tile with its halo, in and out");
    CHECK(tile_plan_make(512, 384, 1 << 20, &p), "%s", err_msg());
    CHECK(p.cols == 2 && p.rows == 2 && p.tile_w == 256 && p.tile_h == 192, "got %dx%d tiles of %dx%d", p.cols, p.rows,
          p.tile_w, p.tile_h);
    /* a wide image: the tile spans the height, and grows across */
    CHECK(tile_plan_make(1000, 10, 8LL * 12 * 202, &p), "%s", err_msg());
    CHECK(p.rows == 1 && p.tile_h == 10 && p.cols == 5 && p.tile_w == 200, "wide: %dx%d tiles of %dx%d", p.cols, p.rows,
          p.tile_w, p.tile_h);
    /* the smallest budget: one pixel and its halo, 2 x 9 floats */
    CHECK(tile_plan_make(3, 2, 72, &p) && tile_count(&p) == 6 && p.tile_w == 1, "one-pixel tiles");
    CHECK(!tile_plan_make(3, 2, 71, &p), "under one pixel's tile: refused");
    CHECK(strstr(err_msg(), "one-pixel tile") != NULL, "says why: %s", err_msg());
    CHECK(!tile_plan_make(4096, 4096, 64 << 10, &p), "too many tiles: refused");
    CHECK(strstr(err_msg(), "tiles") != NULL && strstr(err_msg(), "larger budget") != NULL, "says what to do: %s",
          err_msg());

    /* every plan within its budget, covering the image once */
    {
        int sizes[][2] = {{1, 1}, {7, 5}, {33, 17}, {64, 64}, {100, 3}, {3, 100}, {513, 385}};
        long long budgets[] = {72, 200, 1000, 4096, 30000, 1 << 20};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
            for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; ++b) {
                tile_plan q;
                if (tile_plan_make(sizes[i][0], sizes[i][1], budgets[b], &q))
                    check_plan_covers(sizes[i][0], sizes[i][1], budgets[b]);
                else
                    CHECK(strstr(err_msg(), "tiles") != NULL, "refused only for too many tiles: %s", err_msg());
            }
    }

    /* tiled == untiled, every border mode, each CPU engine */
    {
        const char *engines[] = {"cpu-seq", "cpu-simd", "cpu-par"};
        int sizes[][2] = {{1, 1}, {2, 3}, {7, 5}, {33, 17}, {100, 3}, {131, 67}};
        long long budgets[] = {72, 600, 5000, 40000};
        for (size_t e = 0; e < 3; ++e)
            for (int border = 0; border < CONV_BORDER_COUNT; ++border)
                for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
                    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; ++b) {
                        tile_plan q;
                        if (tile_plan_make(sizes[i][0], sizes[i][1], budgets[b], &q))
                            check_equal(engines[e], sizes[i][0], sizes[i][1], budgets[b], border);
                    }
    }
    return CHECK_SUMMARY();
}
