/* conv3x3.h - extern "C" launchers for the kernels in conv3x3.cu.
 * Only src/compute/ (and the GPU benchmark in tests/gpu/) include this.
 *
 * Each launcher enqueues one kernel on `stream` (a cudaStream_t, 0 for the
 * default stream) and returns at once; the kernel runs asynchronously. The
 * return value is a cudaError_t as an int (0 = cudaSuccess): the error of the
 * launch itself, read with cudaGetLastError right after it. d_in and d_out
 * are device pointers to w*h floats (row-major) that do not overlap. A
 * block with fewer than one or more than 1024 threads on a side, or an image
 * of no pixels, is cudaErrorInvalidConfiguration before anything is
 * launched or divided. */
#ifndef CONVIS_CONV3X3_H
#define CONVIS_CONV3X3_H

#include <stddef.h>

#include "../src/core/conv_pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The naive kernel: one thread per output, kw*kh reads from global memory
 * (nine for 3x3), the parameters passed by value: any window. Blocks of
 * block_x x block_y threads. */
int conv3x3_launch_naive(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x, int block_y,
                         void *stream);

/* The tiled kernel: each block loads a (block_x + 2) x (block_y + 2) tile
 * of the input (its outputs' inputs and their halo) into shared memory, then
 * computes from it, with the filter (weights, divisor, border) that
 * conv3x3_set_filter last put in __constant__ memory on the same stream. */
int conv3x3_launch_tiled(const float *d_in, float *d_out, int w, int h, int block_x, int block_y, void *stream);

/* The tiled kernel for a window of kw x kh taps (each odd, 1 to
 * CONV_MAX_SIDE; else cudaErrorInvalidValue before anything is launched),
 * with a tile of (block_x + kw - 1) x (block_y + kh - 1) cells,
 * conv3x3_tiled_shared_bytes_k bytes of dynamic shared memory. kw and kh
 * must be the window of the filter conv3x3_set_filter last put in
 * __constant__ memory. A 3x3 window launches conv3x3_launch_tiled's kernel;
 * the others one that adds the kw*kh products in tap order. A tile larger
 * than the shared memory the device gives a block fails at its launch: the
 * engine checks first (src/compute/cuda.c). */
int conv3x3_launch_tiled_k(const float *d_in, float *d_out, int w, int h, int kw, int kh, int block_x, int block_y,
                           void *stream);

/* The tiled kernel for any window and any geometry (p's stride, dilation
 * and padding; else cudaErrorInvalidValue), over the conv_out_w x
 * conv_out_h output, its tile the span of a block's windows,
 * conv_tiled_shared_bytes_geo bytes: conv3x3_launch_tiled_k's kernels on
 * the plain geometry. p's weights must be those conv3x3_set_filter last put
 * in __constant__ memory. */
int conv_launch_tiled_geo(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x, int block_y,
                          void *stream);

/* The tiled kernel without its __syncthreads(): a race, launched only to
 * show what the barrier prevents (its result is compared, never used). */
int conv3x3_launch_tiled_unsynced(const float *d_in, float *d_out, int w, int h, int block_x, int block_y,
                                  void *stream);

/* Fills the shared memory of `blocks` blocks of block_x x block_y threads,
 * conv3x3_tiled_shared_bytes(block_x, block_y) each as the tiled kernel's,
 * with NaN (a one-dimensional grid; blocks < 1 is
 * cudaErrorInvalidConfiguration). Launched on the same stream before
 * conv3x3_launch_tiled_unsynced, with at least as many blocks as the
 * multiprocessors hold at once, so that a cell read too early holds NaN
 * rather than what the same block of an identical earlier launch left. */
int conv3x3_launch_poison_shared(int block_x, int block_y, int blocks, void *stream);

/* Makes `p` the filter of the tiled launches that follow on `stream`: a
 * cudaMemcpyToSymbolAsync into __constant__ memory, ordered in the stream
 * (two launches queued back to back with a set_filter between them each see
 * their own filter). The constant is one per program: launches on other
 * streams must not overlap a change (convis uses one stream). Call it when
 * the filter changed, not before every launch: it is a host-to-device copy. */
int conv3x3_set_filter(const conv_params *p, void *stream);

/* Shared memory one block of the tiled kernel uses, in bytes (0 for a block
 * with no threads): for a 3x3 window, and for kw x kh (0 for a window that
 * is not odd and 1..CONV_MAX_SIDE on each side). */
size_t conv3x3_tiled_shared_bytes(int block_x, int block_y);
size_t conv3x3_tiled_shared_bytes_k(int block_x, int block_y, int kw, int kh);
/* The same for p's window and geometry (0 for one the kernel does not take). */
size_t conv_tiled_shared_bytes_geo(int block_x, int block_y, const conv_params *p);

/* The most threads a block of the tiled (tiled == 1: the 3x3 one; 2: the
 * one of the other windows) or naive (0) kernel can have on the current
 * device, as its registers allow (cudaFuncGetAttributes); may be less than
 * the device's own limit. */
int conv3x3_max_block_threads(int tiled, int *threads);

/* How many blocks of block_x x block_y threads of the tiled (tiled != 0)
 * or naive kernel one multiprocessor holds at once on the current device,
 * as the CUDA runtime's occupancy calculator says for its registers and
 * shared memory (cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
int conv3x3_blocks_per_sm(int tiled, int block_x, int block_y, int *blocks);

/* The copy kernel: d_out[i] = d_in[i] for n floats, blocks of `block`
 * threads on a one-dimensional grid. The yardstick of the benchmark. */
int conv3x3_launch_copy(const float *d_in, float *d_out, size_t n, int block, void *stream);

#ifdef __cplusplus
}
#endif

#endif
