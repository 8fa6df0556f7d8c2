/* gpu_tiles.h - the GPU phase in tiles: memory is finite, and an image whose
 * two buffers need more than the budget (gpu_phase.h) runs tile by tile
 * (compute/tiles.h plans them), one tile a slice, paced so the eye sees
 * each one land with its time. gpu_tiles.c is the only writer of
 * scene.tiles; it is the GPU phase's second file. */
#ifndef CONVIS_GPU_TILES_H
#define CONVIS_GPU_TILES_H

#include "compute/tiles.h"
#include "scene_types.h"

#define SCENE_TILE_PACE_MS 1600.0   /* a tiled run is spread over about this long on screen ... */
#define SCENE_TILE_MIN_PACE_MS 17.0 /* ... with a frame (at 60 Hz) for each tile at least */

typedef struct scene_tiles {
    bool on; /* the GPU result shown is (being) made in tiles */
    tile_plan plan;
    int done;                  /* tiles computed so far, in plan order */
    double ms[TILE_MAX_COUNT]; /* each tile's measured time (upload, compute, download) */
    eng_timing sum;            /* their phases added up */
    double next_at;            /* clock: when the next tile may start */
    img_plane up, down;        /* a tile with its halo, in and out (scratch) */
} scene_tiles;

/* Whether output (x, y) of the GPU result is computed yet (false only in a
 * tile still to come). */
bool scene_gpu_done_at(const scene *s, int x, int y);

/* Where output (x, y) is in the GPU's launch: its coordinates in the grid
 * of threads that computed it (in tiles: in its tile's grid, whose (0, 0)
 * is the halo's corner) and its tile (-1 when not in tiles). */
void scene_launch_at(const scene *s, int x, int y, int *lx, int *ly, int *tile);

/* "4 tiles of 256×192" (or in Chinese) for the tiles shown. */
void scene_tiles_text(const scene *s, char *buf, size_t size);

/* The tiled run against the last run in one piece of the same image, by
 * the one rule of comparison, with the time in one piece ("in tiles it was
 * 1.2× slower than in one piece (7.04 ms)"); says so when either has not
 * run: what lesson 6 compares. */
void scene_tiles_vs_whole(const scene *s, char *buf, size_t size);

/* For gpu_phase.c: starts a run in tiles (false with the banner when no
 * plan fits), and forgets the tiles (their scratch too). */
bool scene_tiles_start(scene *s);
void scene_tiles_end(scene *s);

#endif
