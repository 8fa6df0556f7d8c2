// roofs.cu - the CUDA engine's compute roof (src/compute/cuda_roofs.c): the
// convolution's arithmetic alone, a multiply then an add, in ROOFS_CHAINS
// independent chains a thread so that each SM has work while a chain waits
// for its last result. Built with --fmad=false (CMakeLists.txt): the multiply
// and the add stay two instructions, as in the conv kernels.
#include <cuda_runtime.h>

#include "roofs.h"

__global__ void roofs_mul_add(float *sink, int steps, float a, float b)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    float x[ROOFS_CHAINS];
#pragma unroll
    for (int c = 0; c < ROOFS_CHAINS; ++c)
        x[c] = 1.0f + 0.001f * (float)c + 1e-6f * (float)(id & 255);
    for (int i = 0; i < steps; ++i) {
#pragma unroll
        for (int c = 0; c < ROOFS_CHAINS; ++c)
            x[c] = x[c] * a + b;
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < ROOFS_CHAINS; ++c)
        sum += x[c];
    sink[id] = sum;
}

extern "C" int roofs_launch_mul_add(float *d_sink, int blocks, int threads, int steps, float a, float b, void *stream)
{
    if (blocks < 1 || threads < 1 || threads > 1024 || steps < 0)
        return (int)cudaErrorInvalidConfiguration;
    roofs_mul_add<<<blocks, threads, 0, (cudaStream_t)stream>>>(d_sink, steps, a, b);
    return (int)cudaGetLastError();
}
