// conv3x3.cu - the CUDA convolution kernels and their launchers.
//
// Each __global__ kernel is a thin wrapper that passes the CUDA built-ins to a
// body written as a function of explicit indices (conv3x3_body.h), so the CPU
// can walk the very same indexing in a test. The arithmetic of one output is
// conv_pixel.h's (CONVIS_HD), shared with the CPU engines.
#include <cuda_runtime.h>
#include <limits.h>

#include "conv3x3.h"
#include "conv3x3_body.h"

// The filter of the tiled kernel: read by every thread of a warp at the same
// address, which the constant cache serves in one transaction.
__constant__ conv_params c_params;

__global__ void conv3x3_naive(const float *in, float *out, int w, int h, conv_params p)
{
    conv3x3_naive_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, in, out, w, h, &p);
}

__global__ void conv3x3_tiled(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    extern __shared__ float tile[]; // conv3x3_tile_words(blockDim.x, blockDim.y), see the launcher
    conv3x3_tile_load_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, in, w, h,
                           c_params.border, tile);
    __syncthreads(); // every slot loaded before any thread reads its neighbours'
    conv3x3_tile_compute_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, tile, out, w, h,
                              c_params.weight, c_params.divisor);
}

// The tiled kernel for the windows other than 3x3 and the geometries other
// than the plain one: the tile the span of the block's windows (a halo of
// kw/2 columns and kh/2 rows on the plain geometry), the products added in
// tap order (conv3x3_body.h). The window and its geometry come as
// arguments, the ow x oh output's size too, the weights from __constant__
// memory (961 floats at most: 3.8 KB of the 64 KB).
__global__ void conv_tiled_any(const float *__restrict__ in, float *__restrict__ out, int w, int h, int ow, int oh,
                               convk_geo g)
{
    extern __shared__ float tile[]; // convg_tile_words(blockDim.x, blockDim.y, &g), see the launcher
    convg_tile_load_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, &g, in, w, h,
                         c_params.border, tile);
    __syncthreads(); // every slot loaded before any thread reads its neighbours'
    convg_tile_compute_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, &g, tile, out, ow,
                            oh, c_params.weight, c_params.divisor);
}

// The tiled kernel without its barrier: only to show what the barrier
// prevents (a warp may read a tile cell before the warp that loads it has);
// never for a result anyone uses.
__global__ void conv3x3_tiled_unsynced(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    extern __shared__ float tile[];
    conv3x3_tile_load_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, in, w, h,
                           c_params.border, tile);
    conv3x3_tile_compute_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y, tile, out, w, h,
                              c_params.weight, c_params.divisor);
}

// Fills the block's shared memory with NaN and ends. Launched before the
// tiled kernel without its barrier, with the same shared size, so that a
// tile cell read before its warp has stored it holds NaN: without it, the
// block that ran on the same multiprocessor slot in the previous identical
// launch may have left the very values the read needs, and the race would
// not show. The stores are volatile, so the compiler keeps them though
// nothing reads them. No body in conv3x3_body.h: it computes nothing.
__global__ void conv3x3_poison_shared()
{
    extern __shared__ float tile[];
    volatile float *cell = tile;
    int words = conv3x3_tile_words(blockDim.x, blockDim.y), threads = blockDim.x * blockDim.y;
    for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < words; i += threads)
        cell[i] = __int_as_float(0x7fc00000); // a quiet NaN
}

__global__ void conv3x3_copy(const float *__restrict__ in, float *__restrict__ out, size_t n)
{
    conv3x3_copy_body(blockIdx.x, threadIdx.x, blockDim.x, in, out, n);
}

// Blocks of at least one thread, none more than a CUDA block can have on a
// side, and a grid of at most 2^31 - 1 blocks across and 65535 down: the
// checks that come before any division by the block's size.
static bool shape_ok(int w, int h, int block_x, int block_y)
{
    return w >= 1 && h >= 1 && block_x >= 1 && block_y >= 1 && block_x <= 1024 && block_y <= 1024 &&
           conv3x3_blocks(h, block_y) <= 65535;
}

extern "C" int conv3x3_launch_naive(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x,
                                    int block_y, void *stream)
{
    int ow = conv_out_w(p, w), oh = conv_out_h(p, h);
    if (!shape_ok(w, h, block_x, block_y) || !shape_ok(ow, oh, block_x, block_y))
        return (int)cudaErrorInvalidConfiguration;
    dim3 block(block_x, block_y);
    dim3 grid(conv3x3_blocks(ow, block_x), conv3x3_blocks(oh, block_y));
    conv3x3_naive<<<grid, block, 0, (cudaStream_t)stream>>>(d_in, d_out, w, h, *p);
    return (int)cudaGetLastError();
}

extern "C" size_t conv3x3_tiled_shared_bytes(int block_x, int block_y)
{
    if (block_x < 1 || block_y < 1)
        return 0;
    return sizeof(float) * (size_t)conv3x3_tile_words(block_x, block_y);
}

static size_t shared_bytes(int block_x, int block_y, const convk_geo *g)
{
    if (block_x < 1 || block_y < 1 || block_x > 1024 || block_y > 1024 || !convk_geo_ok(g))
        return 0;
    return sizeof(float) * (size_t)convg_tile_words(block_x, block_y, g);
}

extern "C" size_t conv3x3_tiled_shared_bytes_k(int block_x, int block_y, int kw, int kh)
{
    convk_geo g = convk_geo_plain(kw, kh);
    return shared_bytes(block_x, block_y, &g);
}

extern "C" size_t conv_tiled_shared_bytes_geo(int block_x, int block_y, const conv_params *p)
{
    convk_geo g = convk_geo_of(p);
    return shared_bytes(block_x, block_y, &g);
}

extern "C" int conv3x3_set_filter(const conv_params *p, void *stream)
{
    return (int)cudaMemcpyToSymbolAsync(c_params, p, sizeof *p, 0, cudaMemcpyHostToDevice, (cudaStream_t)stream);
}

extern "C" int conv3x3_launch_tiled(const float *d_in, float *d_out, int w, int h, int block_x, int block_y,
                                    void *stream)
{
    if (!shape_ok(w, h, block_x, block_y))
        return (int)cudaErrorInvalidConfiguration;
    dim3 block(block_x, block_y);
    dim3 grid(conv3x3_blocks(w, block_x), conv3x3_blocks(h, block_y));
    conv3x3_tiled<<<grid, block, conv3x3_tiled_shared_bytes(block_x, block_y), (cudaStream_t)stream>>>(d_in, d_out, w,
                                                                                                       h);
    return (int)cudaGetLastError();
}

// conv_tiled_any over an ow x oh output with geometry g.
static int launch_any(const float *d_in, float *d_out, int w, int h, int ow, int oh, const convk_geo *g, int block_x,
                      int block_y, void *stream)
{
    if (!shape_ok(w, h, block_x, block_y) || !shape_ok(ow, oh, block_x, block_y))
        return (int)cudaErrorInvalidConfiguration;
    if (!convk_geo_ok(g))
        return (int)cudaErrorInvalidValue;
    dim3 block(block_x, block_y);
    dim3 grid(conv3x3_blocks(ow, block_x), conv3x3_blocks(oh, block_y));
    conv_tiled_any<<<grid, block, shared_bytes(block_x, block_y, g), (cudaStream_t)stream>>>(d_in, d_out, w, h, ow, oh,
                                                                                          *g);
    return (int)cudaGetLastError();
}

extern "C" int conv3x3_launch_tiled_k(const float *d_in, float *d_out, int w, int h, int kw, int kh, int block_x,
                                      int block_y, void *stream)
{
    convk_geo g = convk_geo_plain(kw, kh);
    if (kw == 3 && kh == 3)
        return conv3x3_launch_tiled(d_in, d_out, w, h, block_x, block_y, stream);
    return launch_any(d_in, d_out, w, h, w, h, &g, block_x, block_y, stream);
}

extern "C" int conv_launch_tiled_geo(const float *d_in, float *d_out, int w, int h, const conv_params *p, int block_x,
                                     int block_y, void *stream)
{
    convk_geo g = convk_geo_of(p);
    if (conv_plain(p))
        return conv3x3_launch_tiled_k(d_in, d_out, w, h, p->kw, p->kh, block_x, block_y, stream);
    return launch_any(d_in, d_out, w, h, conv_out_w(p, w), conv_out_h(p, h), &g, block_x, block_y, stream);
}

extern "C" int conv3x3_launch_tiled_unsynced(const float *d_in, float *d_out, int w, int h, int block_x, int block_y,
                                             void *stream)
{
    if (!shape_ok(w, h, block_x, block_y))
        return (int)cudaErrorInvalidConfiguration;
    dim3 block(block_x, block_y);
    dim3 grid(conv3x3_blocks(w, block_x), conv3x3_blocks(h, block_y));
    conv3x3_tiled_unsynced<<<grid, block, conv3x3_tiled_shared_bytes(block_x, block_y), (cudaStream_t)stream>>>(
        d_in, d_out, w, h);
    return (int)cudaGetLastError();
}

extern "C" int conv3x3_launch_poison_shared(int block_x, int block_y, int blocks, void *stream)
{
    if (block_x < 1 || block_y < 1 || block_x > 1024 || block_y > 1024 || blocks < 1)
        return (int)cudaErrorInvalidConfiguration;
    dim3 block(block_x, block_y);
    conv3x3_poison_shared<<<blocks, block, conv3x3_tiled_shared_bytes(block_x, block_y), (cudaStream_t)stream>>>();
    return (int)cudaGetLastError();
}

extern "C" int conv3x3_max_block_threads(int tiled, int *threads)
{
    cudaFuncAttributes a;
    cudaError_t e = tiled == 2 ? cudaFuncGetAttributes(&a, conv_tiled_any)
                    : tiled    ? cudaFuncGetAttributes(&a, conv3x3_tiled)
                               : cudaFuncGetAttributes(&a, conv3x3_naive);
    *threads = e == cudaSuccess ? a.maxThreadsPerBlock : 0;
    return (int)e;
}

extern "C" int conv3x3_blocks_per_sm(int tiled, int block_x, int block_y, int *blocks)
{
    cudaError_t e;
    *blocks = 0;
    if (block_x < 1 || block_y < 1 || block_x * block_y > 1024)
        return (int)cudaErrorInvalidConfiguration;
    e = tiled ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, conv3x3_tiled, block_x * block_y,
                                                              conv3x3_tiled_shared_bytes(block_x, block_y))
              : cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, conv3x3_naive, block_x * block_y, 0);
    return (int)e;
}

extern "C" int conv3x3_launch_copy(const float *d_in, float *d_out, size_t n, int block, void *stream)
{
    if (block < 1 || block > 1024)
        return (int)cudaErrorInvalidConfiguration;
    size_t blocks = (n + (size_t)block - 1) / (size_t)block;
    if (blocks > (size_t)INT_MAX)
        return (int)cudaErrorInvalidConfiguration;
    if (n == 0)
        return (int)cudaSuccess;
    conv3x3_copy<<<(unsigned)blocks, block, 0, (cudaStream_t)stream>>>(d_in, d_out, n);
    return (int)cudaGetLastError();
}
