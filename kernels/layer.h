/* layer.h - extern "C" launchers of a convolution layer's kernels
 * (kernels/layer.cu; their bodies in layer_body.h). Only src/compute/
 * and the CUDA stand-in (tests/mock/layer_mock.c) include this. Each
 * enqueues one kernel on `stream` (a cudaStream_t) and returns its launch's
 * cudaError_t as an int (0: cudaSuccess); a shape with no output is
 * cudaErrorInvalidConfiguration before anything is launched. Device
 * pointers: in (c_in planes of w x h), w (c_out x c_in x k x k), bias
 * (c_out), out (c_out planes of ow x oh), col (c_in*k*k rows of ow*oh). */
#ifndef CONVIS_KERNELS_LAYER_H
#define CONVIS_KERNELS_LAYER_H

#include <stddef.h>

#include "layer_body.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads a block of the layer's kernels along its outputs. */
#define LAYER_BLOCK 256

/* direct: a thread per output, a grid of (ow*oh / LAYER_BLOCK) x c_out blocks. */
int layer_launch_direct(const float *in, const float *w, const float *bias, float *out, const layer_shape *s,
                        void *stream);
/* im2col: a thread per element of the unrolled matrix, a row of the grid per row of it. */
int layer_launch_im2col(const float *in, float *col, const layer_shape *s, void *stream);
/* The ordered GEMM over `col`: a thread per output, its filter's weights in shared memory. */
int layer_launch_gemm(const float *w, const float *col, const float *bias, float *out, const layer_shape *s,
                      void *stream);
/* out[o][q] += bias[o] over the c_out planes of ow*oh: after a library's GEMM. */
int layer_launch_add_bias(const float *bias, float *out, const layer_shape *s, void *stream);
/* n floats to IEEE half (round to nearest even) for a half-precision GEMM:
 * `half` is n 16-bit values. */
int layer_launch_to_half(const float *src, void *half, size_t n, void *stream);

#ifdef __cplusplus
}
#endif

#endif
