/* tiles.h - an image too large for a device's memory, convolved in tiles
 * that fit: for each tile, its input with a one-pixel halo goes up, the
 * engine computes, the result comes down (eng_run, host to host). The
 * result equals the untiled one bit for bit: a tile's halo holds what the
 * border rule reads at the image's edge (conv_sample) and the image's own
 * pixels elsewhere, so every output of the tile reads the nine values it
 * reads in the whole image, and the engine's arithmetic is the same.
 *
 * Device memory a tile needs: its input with the halo, (w+2) x (h+2)
 * floats, and an output of the same size (the engine computes the halo's
 * outputs too; they are dropped), 4 bytes a float. The plan picks the
 * largest tiles that fit a budget, near square, then evens them out. */
#ifndef CONVIS_TILES_H
#define CONVIS_TILES_H

#include <stdbool.h>

#include "engine.h"

#define TILE_MAX_COUNT 1024 /* a plan of more tiles is refused */

typedef struct tile_plan {
    int w, h;           /* the image */
    int tile_w, tile_h; /* outputs a tile; the last column and row may be smaller */
    int cols, rows;
    long long budget; /* the bytes it was made for */
} tile_plan;

/* Device bytes for a whole w x h image: two buffers of 4 bytes a pixel. */
long long tile_image_bytes(int w, int h);

/* Device bytes for a tile of w x h outputs, halo included (see the top). */
long long tile_bytes(int w, int h);

/* Plans tiles of at most `budget` device bytes over a w x h image. False
 * with a sentence (err_msg) when not even a one-pixel tile fits or more
 * than TILE_MAX_COUNT tiles would be needed. */
bool tile_plan_make(int w, int h, long long budget, tile_plan *p);

int tile_count(const tile_plan *p);

/* Tile i's outputs: x, y, w, h in the image (row by row, left to right). */
void tile_rect(const tile_plan *p, int i, int *x, int *y, int *w, int *h);

/* The tile an image pixel belongs to. */
int tile_of(const tile_plan *p, int x, int y);

/* One tile through the engine: gather into *up, eng_run into *down,
 * scatter into job->out. `up` and `down` are scratch planes the caller
 * keeps between tiles (zeroed at first; freed with img_plane_free). */
bool tile_run(eng_engine *e, const eng_job *job, const tile_plan *p, int i, img_plane *up, img_plane *down,
              eng_timing *timing);

/* Adds one tile's phases to a sum of tiles (start from a zeroed sum). */
void tile_timing_add(eng_timing *sum, const eng_timing *tile);

/* Every tile, one after another; `timing` is their sum. */
bool tile_run_all(eng_engine *e, const eng_job *job, const tile_plan *p, eng_timing *timing);

#endif
