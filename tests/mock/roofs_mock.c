/* roofs_mock.c - the CUDA stand-in's compute roof kernel (kernels/roofs.h):
 * the same chains of x = x * a + b on the CPU, after the work queued before
 * it on the stream (so that events recorded around it span it). */
#include <cuda_runtime.h>

#include "../../kernels/roofs.h"

int roofs_launch_mul_add(float *d_sink, int blocks, int threads, int steps, float a, float b, void *stream)
{
    if (blocks < 1 || threads < 1 || threads > 1024 || steps < 0)
        return (int)cudaErrorInvalidConfiguration;
    cudaStreamSynchronize((cudaStream_t)stream);
    for (long id = 0; id < (long)blocks * threads; ++id) {
        float x[ROOFS_CHAINS], sum = 0.0f;
        for (int c = 0; c < ROOFS_CHAINS; ++c)
            x[c] = 1.0f + 0.001f * (float)c + 1e-6f * (float)(id & 255);
        for (int i = 0; i < steps; ++i)
            for (int c = 0; c < ROOFS_CHAINS; ++c)
                x[c] = x[c] * a + b;
        for (int c = 0; c < ROOFS_CHAINS; ++c)
            sum += x[c];
        d_sink[id] = sum;
    }
    return 0;
}
