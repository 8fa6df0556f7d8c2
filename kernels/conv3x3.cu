// conv3x3.cu - the CUDA convolution kernels and their launchers.
//
// Each __global__ kernel is a thin wrapper that passes the CUDA built-ins to a
// body written as a function of explicit indices (conv3x3_body.h), so the CPU
// can walk the very same indexing in a test.
#include <cuda_runtime.h>

#include "conv3x3.h"
#include "conv3x3_body.h"

__global__ void conv3x3_naive(const float *in, float *out, int w, int h, conv_params p)
{
    conv3x3_naive_body(blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, blockDim.x, blockDim.y,
                       in, out, w, h, &p);
}

extern "C" int conv3x3_launch_naive(const float *d_in, float *d_out, int w, int h,
                                    const conv_params *p, int block_x, int block_y, void *stream)
{
    dim3 block(block_x, block_y);
    dim3 grid(conv3x3_blocks(w, block_x), conv3x3_blocks(h, block_y));
    conv3x3_naive<<<grid, block, 0, (cudaStream_t)stream>>>(d_in, d_out, w, h, *p);
    return (int)cudaGetLastError();
}
