/* tiles.h - an image too large for a device's memory, convolved in tiles
 * that fit. The plan cuts the OUTPUT into tiles; for each tile, the input
 * its outputs read goes up, the engine computes, the result comes down
 * (eng_run, host to host). The result equals the untiled one bit for bit:
 * the gathered input holds what the border rule reads past the image's edge
 * (conv_sample) and the image's own pixels elsewhere, so every output of
 * the tile reads the values it reads in the whole image, and the engine's
 * arithmetic is the same.
 *
 * On the plain geometry (stride 1, dilation 1, same) a tile of w x h
 * outputs goes up with a halo of the window's reach, (w + kw - 1) x
 * (h + kh - 1) floats, and the engine computes an output of the same size
 * (the halo's outputs are dropped): 8 bytes a gathered cell. On any other
 * geometry it goes up as exactly the input its windows cover,
 * ((w-1)*stride + extent) x ((h-1)*stride + extent), run with 'valid'
 * padding so the engine computes just the tile's w x h outputs. The plan
 * picks the largest tiles that fit a budget, near square, then evens them
 * out. */
#ifndef CONVIS_TILES_H
#define CONVIS_TILES_H

#include <stdbool.h>

#include "engine.h"

#define TILE_MAX_COUNT 1024 /* a plan of more tiles is refused */

/* What of the filter the tiles depend on (conv_params, less the weights). */
typedef struct tile_window {
    int kw, kh, stride, dilation, pad_x, pad_y;
    bool plain; /* conv_plain */
} tile_window;

tile_window tile_window_of(const conv_params *p);

typedef struct tile_plan {
    int w, h;       /* the output (the image's size on the plain geometry) */
    int in_w, in_h; /* the image */
    tile_window window;
    int tile_w, tile_h; /* outputs a tile; the last column and row may be smaller */
    int cols, rows;
    long long budget; /* the bytes it was made for */
} tile_plan;

/* Device bytes for a whole w x h image: the input and the output, 4 bytes
 * a pixel. */
long long tile_image_bytes(const conv_params *p, int w, int h);

/* Device bytes for a tile of w x h outputs, halo included (see the top). */
long long tile_bytes(const tile_window *g, int w, int h);

/* Plans tiles of at most `budget` device bytes over the output of an in_w x
 * in_h image under p. False with a sentence (err_msg) when not even a
 * one-pixel tile fits, there is no output, or more than TILE_MAX_COUNT tiles
 * would be needed. */
bool tile_plan_make(int in_w, int in_h, const conv_params *p, long long budget, tile_plan *plan);

int tile_count(const tile_plan *p);

/* Tile i's outputs: x, y, w, h in the output (row by row, left to right). */
void tile_rect(const tile_plan *p, int i, int *x, int *y, int *w, int *h);

/* The tile an output pixel belongs to. */
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
