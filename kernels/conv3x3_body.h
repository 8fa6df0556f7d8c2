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
 * One thread per output of the conv_out_w x conv_out_h output (the input's
 * size on the plain geometry), kw*kh reads from global memory (conv_pixel:
 * nine for 3x3, any window and geometry alike). */
CONVIS_HD static inline void conv3x3_naive_body(int bx, int by, int tx, int ty, int bdx, int bdy, const float *in,
                                                float *out, int w, int h, const conv_params *p)
{
    int x, y, ow = conv_out_w(p, w);
    if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, ow, conv_out_h(p, h), &x, &y))
        out[(long)y * ow + x] = conv_pixel(in, w, h, x, y, p);
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

/* ---- the tiled kernel, any window -------------------------------------------
 * The same two steps for a window of kw x kh taps (each odd, 1 to
 * CONV_MAX_SIDE): the tile is (bdx + kw - 1) x (bdy + kh - 1) cells, the
 * outputs' inputs and a halo of kw/2 columns and kh/2 rows around them, and
 * cell (col, row) holds the input at (bx*bdx + col - kw/2, by*bdy + row - kh/2)
 * through the border rule. Step 2 adds the kw*kh products in tap order from
 * 0.0f and divides: conv_pixel_any's operations in its order, so the result
 * is the reference's bit for bit. Rows are laid out as for 3x3: an odd
 * multiple of bdx apart when bdx is a power of two below 32 (the smallest
 * that holds a row), so every read of a warp still takes one pass, whatever
 * the tap; other widths keep bdx + kw - 1. The 3x3 functions below are these
 * with kw = kh = 3 (their compute step keeps conv_combine's fixed count). */

/* ---- the tiled kernel, any window and any geometry --------------------------
 * With a stride and a dilation (conv_params) the tile is the span the
 * block's windows cover: (bdx - 1)*stride + (kw - 1)*dilation + 1 columns by
 * (bdy - 1)*stride + (kh - 1)*dilation + 1 rows, cell (col, row) holding the
 * input at (bx*bdx*stride - pad_x + col, by*bdy*stride - pad_y + row)
 * through the border rule; tap (i, j) of thread (tx, ty) is the cell
 * (tx*stride + i*dilation, ty*stride + j*dilation), which holds the input
 * conv_pixel_any reads for that tap. On the plain geometry (stride 1,
 * dilation 1, pad kw/2 and kh/2) these are the functions above, cell for
 * cell: the convk_ ones below are these with that geometry. */
typedef struct convk_geo {
    int kw, kh, stride, dilation, pad_x, pad_y;
} convk_geo;

CONVIS_HD static inline convk_geo convk_geo_plain(int kw, int kh)
{
    convk_geo g;
    g.kw = kw, g.kh = kh, g.stride = 1, g.dilation = 1, g.pad_x = kw / 2, g.pad_y = kh / 2;
    return g;
}

CONVIS_HD static inline convk_geo convk_geo_of(const conv_params *p)
{
    convk_geo g;
    g.kw = p->kw, g.kh = p->kh, g.stride = p->stride, g.dilation = p->dilation, g.pad_x = p->pad_x, g.pad_y = p->pad_y;
    return g;
}

/* Whether the tiled kernel takes geometry g: odd sides of 1 to
 * CONV_MAX_SIDE, a stride and a dilation in their ranges, the overhang at
 * most the window's extent less one (full padding's). */
CONVIS_HD static inline bool convk_geo_ok(const convk_geo *g)
{
    return g->kw >= 1 && g->kh >= 1 && g->kw <= CONV_MAX_SIDE && g->kh <= CONV_MAX_SIDE && g->kw % 2 == 1 &&
           g->kh % 2 == 1 && g->stride >= 1 && g->stride <= CONV_MAX_STRIDE && g->dilation >= 1 &&
           g->dilation <= CONV_MAX_DILATION && g->pad_x >= 0 && g->pad_y >= 0 &&
           g->pad_x <= g->dilation * (g->kw - 1) && g->pad_y <= g->dilation * (g->kh - 1);
}

/* Columns and rows of the tile that hold inputs. */
CONVIS_HD static inline int convg_tile_w(int bdx, const convk_geo *g)
{
    return (bdx - 1) * g->stride + (g->kw - 1) * g->dilation + 1;
}

CONVIS_HD static inline int convg_tile_h(int bdy, const convk_geo *g)
{
    return (bdy - 1) * g->stride + (g->kh - 1) * g->dilation + 1;
}

/* Words from one row of the tile to the next in shared memory. */
CONVIS_HD static inline int convg_tile_stride(int bdx, const convk_geo *g)
{
    int need = convg_tile_w(bdx, g), m;
    if (bdx < 1 || bdx >= 32 || (bdx & (bdx - 1)) != 0)
        return need;
    m = (need + bdx - 1) / bdx;
    return (m % 2 ? m : m + 1) * bdx;
}

CONVIS_HD static inline int convg_tile_words(int bdx, int bdy, const convk_geo *g)
{
    return convg_tile_stride(bdx, g) * convg_tile_h(bdy, g);
}

CONVIS_HD static inline int convg_tile_index(int col, int row, int bdx, const convk_geo *g)
{
    return row * convg_tile_stride(bdx, g) + col;
}

/* The input element that cell (col, row) of block (bx, by)'s tile holds: its
 * index in the w x h image, or -1 where the border rule reads zero. */
CONVIS_HD static inline long convg_tile_source(int bx, int by, int col, int row, int bdx, int bdy, const convk_geo *g,
                                               int w, int h, int border)
{
    int sx = conv_border_index(bx * bdx * g->stride - g->pad_x + col, w, border);
    int sy = conv_border_index(by * bdy * g->stride - g->pad_y + row, h, border);
    return sx < 0 || sy < 0 ? -1 : (long)sy * w + sx;
}

/* Step 1: thread (tx, ty) of block (bx, by) loads its share of the tile:
 * cells col = tx, tx + bdx, ... and row = ty, ty + bdy, ..., row by row. */
CONVIS_HD static inline void convg_tile_load_body(int bx, int by, int tx, int ty, int bdx, int bdy, const convk_geo *g,
                                                  const float *in, int w, int h, int border, float *tile)
{
    for (int row = ty; row < convg_tile_h(bdy, g); row += bdy)
        for (int col = tx; col < convg_tile_w(bdx, g); col += bdx) {
            long src = convg_tile_source(bx, by, col, row, bdx, bdy, g, w, h, border);
            tile[convg_tile_index(col, row, bdx, g)] = src < 0 ? 0.0f : in[src];
        }
}

/* Step 2, once the whole tile is loaded: output (bx*bdx + tx, by*bdy + ty)
 * of the ow x oh output, its tap (i, j) the cell (tx*stride + i*dilation,
 * ty*stride + j*dilation); weight holds kw*kh taps. */
CONVIS_HD static inline void convg_tile_compute_body(int bx, int by, int tx, int ty, int bdx, int bdy,
                                                     const convk_geo *g, const float *tile, float *out, int ow, int oh,
                                                     const float *weight, float divisor)
{
    int x, y, t = 0;
    float sum = 0.0f;
    if (!conv3x3_output_of(bx, by, tx, ty, bdx, bdy, ow, oh, &x, &y))
        return;
    for (int j = 0; j < g->kh; ++j)
        for (int i = 0; i < g->kw; ++i, ++t)
            sum += conv_product(
                tile[convg_tile_index(tx * g->stride + i * g->dilation, ty * g->stride + j * g->dilation, bdx, g)],
                weight[t]);
    out[(long)y * ow + x] = conv_finish(sum, divisor);
}

/* ---- the tiled kernel, any window, the plain geometry ---------------------- */

CONVIS_HD static inline int convk_tile_w(int bdx, int kw)
{
    convk_geo g = convk_geo_plain(kw, 1);
    return convg_tile_w(bdx, &g);
}

CONVIS_HD static inline int convk_tile_h(int bdy, int kh)
{
    convk_geo g = convk_geo_plain(1, kh);
    return convg_tile_h(bdy, &g);
}

CONVIS_HD static inline int convk_tile_stride(int bdx, int kw)
{
    convk_geo g = convk_geo_plain(kw, 1);
    return convg_tile_stride(bdx, &g);
}

CONVIS_HD static inline int convk_tile_words(int bdx, int bdy, int kw, int kh)
{
    convk_geo g = convk_geo_plain(kw, kh);
    return convg_tile_words(bdx, bdy, &g);
}

CONVIS_HD static inline int convk_tile_index(int col, int row, int bdx, int kw)
{
    convk_geo g = convk_geo_plain(kw, 1);
    return convg_tile_index(col, row, bdx, &g);
}

CONVIS_HD static inline long convk_tile_source(int bx, int by, int col, int row, int bdx, int bdy, int kw, int kh,
                                               int w, int h, int border)
{
    convk_geo g = convk_geo_plain(kw, kh);
    return convg_tile_source(bx, by, col, row, bdx, bdy, &g, w, h, border);
}

CONVIS_HD static inline void convk_tile_load_body(int bx, int by, int tx, int ty, int bdx, int bdy, int kw, int kh,
                                                  const float *in, int w, int h, int border, float *tile)
{
    convk_geo g = convk_geo_plain(kw, kh);
    convg_tile_load_body(bx, by, tx, ty, bdx, bdy, &g, in, w, h, border, tile);
}

CONVIS_HD static inline void convk_tile_compute_body(int bx, int by, int tx, int ty, int bdx, int bdy, int kw, int kh,
                                                     const float *tile, float *out, int w, int h, const float *weight,
                                                     float divisor)
{
    convk_geo g = convk_geo_plain(kw, kh);
    convg_tile_compute_body(bx, by, tx, ty, bdx, bdy, &g, tile, out, w, h, weight, divisor);
}

/* ---- the tiled kernel, 3x3 ------------------------------------------------- */

CONVIS_HD static inline int conv3x3_tile_w(int bdx)
{
    return convk_tile_w(bdx, 3);
}

CONVIS_HD static inline int conv3x3_tile_h(int bdy)
{
    return convk_tile_h(bdy, 3);
}

CONVIS_HD static inline int conv3x3_tile_stride(int bdx)
{
    return convk_tile_stride(bdx, 3);
}

CONVIS_HD static inline int conv3x3_tile_words(int bdx, int bdy)
{
    return convk_tile_words(bdx, bdy, 3, 3);
}

CONVIS_HD static inline int conv3x3_tile_index(int col, int row, int bdx)
{
    return convk_tile_index(col, row, bdx, 3);
}

CONVIS_HD static inline long conv3x3_tile_source(int bx, int by, int col, int row, int bdx, int bdy, int w, int h,
                                                 int border)
{
    return convk_tile_source(bx, by, col, row, bdx, bdy, 3, 3, w, h, border);
}

CONVIS_HD static inline void conv3x3_tile_load_body(int bx, int by, int tx, int ty, int bdx, int bdy, const float *in,
                                                    int w, int h, int border, float *tile)
{
    convk_tile_load_body(bx, by, tx, ty, bdx, bdy, 3, 3, in, w, h, border, tile);
}

/* Step 2 of the 3x3 tile: the nine cells around (tx + 1, ty + 1), through
 * conv_combine. */
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
