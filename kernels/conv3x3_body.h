/* conv3x3_body.h - the bodies of the CUDA kernels as functions of explicit
 * indices (docs/ARCHITECTURE.md, section 1).
 *
 * A __global__ kernel calls these with blockIdx, threadIdx and blockDim; a
 * CPU test (tests/unit/test_kernel_index.c) calls them for every block and
 * thread of a grid and checks that each output is written exactly once, that
 * every tile slot holds what the border rule says, and that no read leaves
 * the image. Plain C under gcc, host-and-device code under nvcc. The
 * arithmetic of one output is conv_pixel.h's, never repeated here. */
#ifndef CONVIS_CONV3X3_BODY_H
#define CONVIS_CONV3X3_BODY_H

#include <stddef.h>

#include "../src/core/conv_pixel.h"

/* Blocks needed along an axis of n pixels with blocks of b threads. */
CONVIS_HD static inline int conv3x3_blocks(int n, int b)
{
    return (int)(((long)n + b - 1) / b);
}

/* The output pixel that thread (tx, ty) of block (bx, by) computes, with
 * blocks of bdx x bdy threads; false when it falls outside the w x h image
 * (the grid is rounded up to whole blocks). */
CONVIS_HD static inline int conv3x3_output_of(int bx, int by, int tx, int ty, int bdx, int bdy, int w, int h, int *x,
                                              int *y)
{
    *x = bx * bdx + tx;
    *y = by * bdy + ty;
    return *x < w && *y < h;
}

/* ---- the naive kernel ------------------------------------------------------
 * One thread per output, nine reads from global memory (conv_pixel). */
CONVIS_HD static inline void conv3x3_naive_body(int bx, int by, int tx, int ty, int bdx, int bdy, const float *in,
                                                float *out, int w, int h, const conv_params *p)
{
    int x, y;
    if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y))
        out[(long)y * w + x] = conv_pixel(in, w, h, x, y, p);
}

/* ---- the tiled kernel ------------------------------------------------------
 * A block of bdx x bdy threads computes bdx x bdy outputs from a tile of
 * (bdx + 2) x (bdy + 2) inputs in shared memory: the inputs under its
 * outputs and a one-pixel halo around them. It runs in two steps with a
 * barrier (__syncthreads) between them:
 *
 *   1. load: thread (tx, ty) fills the tile cells (col, row) with
 *      col = tx, tx + bdx, ... < bdx + 2 and row = ty, ty + bdy, ... < bdy + 2,
 *      row by row: first the cell under its own output's top-left
 *      neighbour, then (for the threads at the block's right and bottom
 *      edges) the halo's far columns and rows. Cell (col, row) holds the
 *      input at (bx*bdx + col - 1, by*bdy + row - 1), mapped into the image
 *      by the border rule (conv_border_index), or 0 where the rule reads
 *      zero. Neighbouring threads read neighbouring inputs (coalesced), and
 *      no index is divided.
 *   2. compute: thread (tx, ty) takes the nine cells around (tx + 1, ty + 1)
 *      and combines them (conv_combine).
 *
 * Tap t of output (x, y) then reads the cell at column tx + 1 + dx, row
 * ty + 1 + dy, whose input is (x + dx, y + dy) through the border rule:
 * exactly what conv_fetch reads, so both kernels equal the reference bit for
 * bit. Threads past the image's edge load too (every thread must reach the
 * barrier) and compute nothing.
 *
 * Shared memory is 32 banks of 4-byte words; a warp's read takes as many
 * passes (wavefronts) as the most distinct words it asks of one bank. A
 * warp is 32 consecutive threads (ty*bdx + tx), so with bdx = 16 it spans
 * two rows of the block. With rows bdx + 2 = 18 words apart, lanes 30 and 31
 * would meet lanes 0 and 1 in their banks: two passes for each of the nine
 * reads. Rows are therefore laid out `stride` words apart, an odd multiple
 * of bdx when bdx is a power of two below 32 (16 -> 48, 8 -> 24, 2 -> 6):
 * the rows a warp spans then start in distinct groups of bdx banks, and
 * every read and every load of the default blocks takes one pass
 * (tests/unit/test_kernel_index.c counts them). Other widths keep bdx + 2. */

/* Columns and rows of the tile that hold inputs. */
CONVIS_HD static inline int conv3x3_tile_w(int bdx)
{
    return bdx + 2;
}

CONVIS_HD static inline int conv3x3_tile_h(int bdy)
{
    return bdy + 2;
}

/* Words from one row of the tile to the next in shared memory. */
CONVIS_HD static inline int conv3x3_tile_stride(int bdx)
{
    return bdx >= 1 && bdx < 32 && (bdx & (bdx - 1)) == 0 ? 3 * bdx : bdx + 2;
}

/* Words of shared memory the tile takes. */
CONVIS_HD static inline int conv3x3_tile_words(int bdx, int bdy)
{
    return conv3x3_tile_stride(bdx) * conv3x3_tile_h(bdy);
}

/* The word that holds cell (col, row). */
CONVIS_HD static inline int conv3x3_tile_index(int col, int row, int bdx)
{
    return row * conv3x3_tile_stride(bdx) + col;
}

/* The input element that cell (col, row) of block (bx, by)'s tile holds: its
 * index in the w x h image, or -1 where the border rule reads zero. */
CONVIS_HD static inline long conv3x3_tile_source(int bx, int by, int col, int row, int bdx, int bdy, int w, int h,
                                                 int border)
{
    int sx = conv_border_index(bx * bdx + col - 1, w, border);
    int sy = conv_border_index(by * bdy + row - 1, h, border);
    return sx < 0 || sy < 0 ? -1 : (long)sy * w + sx;
}

/* Step 1: thread (tx, ty) of block (bx, by) loads its share of the tile. */
CONVIS_HD static inline void conv3x3_tile_load_body(int bx, int by, int tx, int ty, int bdx, int bdy, const float *in,
                                                    int w, int h, int border, float *tile)
{
    for (int row = ty; row < conv3x3_tile_h(bdy); row += bdy)
        for (int col = tx; col < conv3x3_tile_w(bdx); col += bdx) {
            long src = conv3x3_tile_source(bx, by, col, row, bdx, bdy, w, h, border);
            tile[conv3x3_tile_index(col, row, bdx)] = src < 0 ? 0.0f : in[src];
        }
}

/* Step 2, once the whole tile is loaded: thread (tx, ty) of block (bx, by)
 * computes its output from the tile. */
CONVIS_HD static inline void conv3x3_tile_compute_body(int bx, int by, int tx, int ty, int bdx, int bdy,
                                                       const float *tile, float *out, int w, int h,
                                                       const float weight[9], float divisor)
{
    int x, y;
    float value[9];
    if (!conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y))
        return;
    for (int t = 0; t < 9; ++t)
        value[t] = tile[conv3x3_tile_index(tx + 1 + conv_tap_dx(t), ty + 1 + conv_tap_dy(t), bdx)];
    out[(long)y * w + x] = conv_combine(value, weight, divisor);
}

/* ---- the copy kernel -------------------------------------------------------
 * out[i] = in[i] over n floats, one thread each on a one-dimensional grid:
 * the benchmark's yardstick for what the memory can move (4 bytes read and
 * 4 written per element, as the convolution needs at least). */
CONVIS_HD static inline void conv3x3_copy_body(long bx, int tx, int bdx, const float *in, float *out, size_t n)
{
    size_t i = (size_t)bx * (size_t)bdx + (size_t)tx;
    if (i < n)
        out[i] = in[i];
}

#endif
