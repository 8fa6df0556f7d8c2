/* kernel_any.h - what one block of each tiled strategy PMPP teaches asks of
 * memory, for any window of kw x kh taps (each odd, 1..CONV_MAX_SIDE),
 * counted on the CPU from the strategies' index arithmetic. Plain geometry:
 * stride 1, dilation 1, same padding, and a block well inside the image (no
 * border rule reads zero), its outputs' top-left corner on a 128-byte line
 * of an image whose rows are a whole number of lines long, so that the
 * figures are those of every interior block of a wide image.
 *
 * Four strategies, each a block of bdx x bdy threads:
 * - naive (conv3x3_naive_body): each thread reads its kw*kh taps from
 *   global memory: kw*kh requests a warp;
 * - output tile (conv_tiled_any, kernels/conv3x3_body.h): the block loads a
 *   (bdx+kw-1) x (bdy+kh-1) tile, its outputs' inputs and their halo, in
 *   convk_tile_load_body's loop, then reads every tap from shared memory;
 * - input tile (PMPP's first tiled kernel): the block is the input tile,
 *   each thread loads one cell, and only (bdx-kw+1) x (bdy-kh+1) threads
 *   compute an output; the others idle. Its tile's origin is put on a line.
 * - halo through the cache (PMPP's last tiled kernel): only the block's own
 *   bdx x bdy inputs go to shared memory; a tap that falls in the halo is a
 *   global load (served by L1 when the neighbouring block brought it).
 * The last two are not kernels convis launches: their figures are counted
 * from the strategy's index arithmetic, written here (kernel_any.c) from
 * PMPP's code, rows of their tiles bdx words apart. The first two use
 * kernels/conv3x3_body.h's own functions. */
#ifndef CONVIS_KERNEL_ANY_H
#define CONVIS_KERNEL_ANY_H

#include <stdbool.h>

typedef struct kwa_mem {
    long long requests; /* global-load warp instructions (with an active lane) */
    long long sectors;  /* 32-byte sectors at L1 those requests touch, summed */
    long long loads;    /* global loads, counted per thread */
    long long shared_stores, shared_store_passes; /* warp stores into the tile, passes over the 32 banks */
    long long shared_reads, shared_read_passes;   /* warp reads of the tile, passes */
    int worst_read_passes;                        /* of one warp read */
} kwa_mem;

typedef struct kwa_block {
    int kw, kh, bdx, bdy, threads, warps;
    long long reads; /* the taps the block's outputs read: outputs * kw * kh */
    kwa_mem naive, tiled, input, cached;
    /* the output tile (conv_tiled_any) */
    int tile_w, tile_h, tile_stride, tile_cells, halo_cells;
    /* the input tile: threads that compute an output, and those that idle */
    int input_outputs, input_idle;
    /* halo through the cache: taps read from global memory (the halo) */
    long long cached_halo_loads;
    /* the weights in constant memory: a warp reads tap t's weight at one
     * address for all its lanes, one broadcast a tap; from global memory
     * each lane's read would be a load of its own */
    long long weight_broadcasts;   /* warps * kw * kh */
    long long weight_global_loads; /* threads * kw * kh */
} kwa_block;

/* Counts one interior block of each strategy. False with a sentence for a
 * window that is not odd 1..CONV_MAX_SIDE, a block over 1024 threads, or an
 * output tile over the 48 KiB of shared memory a block gets. */
bool kwa_count(int kw, int kh, int bdx, int bdy, kwa_block *out);

/* Useful loads over loads made, PMPP's ratio: the reads the block's outputs
 * make, over the tile cells the output tile loads (each cell loaded serves
 * that many reads); 0 for a count that failed. */
double kwa_tile_efficiency(const kwa_block *b);

#endif
