/* conv3x3_body.h - the body of the convolution kernels as functions of
 * explicit indices.
 *
 * A __global__ kernel calls these with blockIdx, threadIdx and blockDim; a
 * CPU test calls them for every block and thread of a grid and checks that
 * each output is written exactly once and that no read leaves the image.
 * Plain C under gcc, host-and-device code under nvcc. */
#ifndef CONVIS_CONV3X3_BODY_H
#define CONVIS_CONV3X3_BODY_H

#include "../src/core/conv_pixel.h"

/* The output pixel that thread (tx, ty) of block (bx, by) computes, with
 * blocks of bdx x bdy threads; false when it falls outside the w x h image
 * (the grid is rounded up to whole blocks). */
CONVIS_HD static inline int conv3x3_output_of(int bx, int by, int tx, int ty, int bdx, int bdy,
                                              int w, int h, int *x, int *y)
{
    *x = bx * bdx + tx;
    *y = by * bdy + ty;
    return *x < w && *y < h;
}

/* The naive kernel: one thread per output, nine reads from global memory. */
CONVIS_HD static inline void conv3x3_naive_body(int bx, int by, int tx, int ty, int bdx, int bdy,
                                                const float *in, float *out, int w, int h,
                                                const conv_params *p)
{
    int x, y;
    if (conv3x3_output_of(bx, by, tx, ty, bdx, bdy, w, h, &x, &y))
        out[(long)y * w + x] = conv_pixel(in, w, h, x, y, p);
}

/* Blocks needed along an axis of n pixels with blocks of b threads. */
CONVIS_HD static inline int conv3x3_blocks(int n, int b)
{
    return (n + b - 1) / b;
}

#endif
