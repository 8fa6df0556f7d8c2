/* conv3x3.h - extern "C" launchers for the kernels in conv3x3.cu.
 * Only src/compute/ includes this. */
#ifndef CONVIS_CONV3X3_H
#define CONVIS_CONV3X3_H

#include "../src/core/conv_pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches the naive kernel on `stream` (a cudaStream_t, 0 for the default)
 * over a w x h image with blocks of block_x x block_y threads. d_in and d_out
 * are device pointers. Returns the launch's cudaError_t as an int (0 = ok);
 * the kernel itself runs asynchronously. */
int conv3x3_launch_naive(const float *d_in, float *d_out, int w, int h, const conv_params *p,
                         int block_x, int block_y, void *stream);

#ifdef __cplusplus
}
#endif

#endif
