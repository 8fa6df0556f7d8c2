/* layer.cu - a convolution layer's kernels (kernels/layer.h): direct,
 * im2col and the ordered GEMM, their bodies layer_body.h's. */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "layer.h"

static long long outputs_of(const layer_shape *s)
{
    return (long long)s->ow * s->oh;
}

static bool valid(const layer_shape *s)
{
    return s->c_in >= 1 && s->c_out >= 1 && s->k >= 1 && s->ow >= 1 && s->oh >= 1 && s->w >= 1 && s->h >= 1 &&
           (outputs_of(s) + LAYER_BLOCK - 1) / LAYER_BLOCK <= 0x7fffffffLL && s->c_out <= 65535 &&
           (long long)s->c_in * s->k * s->k <= 65535;
}

__global__ void layer_direct_kernel(const float *in, const float *w, const float *bias, float *out, layer_shape s)
{
    long q = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int o = blockIdx.y;
    if (q < (long)s.ow * s.oh)
        out[(long)o * s.ow * s.oh + q] = layer_direct_at(in, w, bias, &s, o, (int)(q % s.ow), (int)(q / s.ow));
}

__global__ void layer_im2col_kernel(const float *in, float *col, layer_shape s)
{
    long q = (long)blockIdx.x * blockDim.x + threadIdx.x, n = (long)s.ow * s.oh, r = blockIdx.y;
    if (q < n)
        col[r * n + q] = layer_im2col_at(in, &s, r, q);
}

/* The weights of filter blockIdx.y in shared memory (at most 64 channels
 * of 7 x 7: 3136 floats), read by every thread as the sum goes. */
__global__ void layer_gemm_kernel(const float *w, const float *col, const float *bias, float *out, layer_shape s)
{
    extern __shared__ float wo[];
    long rows = (long)s.c_in * s.k * s.k, n = (long)s.ow * s.oh, q = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int o = blockIdx.y;
    float sum = 0.0f;
    for (long r = threadIdx.x; r < rows; r += blockDim.x)
        wo[r] = w[(long)o * rows + r];
    __syncthreads();
    if (q >= n)
        return;
    for (long r = 0; r < rows; ++r)
        sum += conv_product(col[r * n + q], wo[r]);
    out[(long)o * n + q] = sum + bias[o];
}

__global__ void layer_add_bias_kernel(const float *bias, float *out, layer_shape s)
{
    long q = (long)blockIdx.x * blockDim.x + threadIdx.x, n = (long)s.ow * s.oh;
    if (q < n)
        out[(long)blockIdx.y * n + q] += bias[blockIdx.y];
}

__global__ void layer_to_half_kernel(const float *src, __half *dst, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = __float2half_rn(src[i]);
}

extern "C" int layer_launch_direct(const float *in, const float *w, const float *bias, float *out, const layer_shape *s,
                                   void *stream)
{
    if (!valid(s))
        return (int)cudaErrorInvalidConfiguration;
    dim3 grid((unsigned)((outputs_of(s) + LAYER_BLOCK - 1) / LAYER_BLOCK), (unsigned)s->c_out);
    layer_direct_kernel<<<grid, LAYER_BLOCK, 0, (cudaStream_t)stream>>>(in, w, bias, out, *s);
    return (int)cudaGetLastError();
}

extern "C" int layer_launch_im2col(const float *in, float *col, const layer_shape *s, void *stream)
{
    if (!valid(s))
        return (int)cudaErrorInvalidConfiguration;
    dim3 grid((unsigned)((outputs_of(s) + LAYER_BLOCK - 1) / LAYER_BLOCK), (unsigned)(s->c_in * s->k * s->k));
    layer_im2col_kernel<<<grid, LAYER_BLOCK, 0, (cudaStream_t)stream>>>(in, col, *s);
    return (int)cudaGetLastError();
}

extern "C" int layer_launch_gemm(const float *w, const float *col, const float *bias, float *out, const layer_shape *s,
                                 void *stream)
{
    if (!valid(s))
        return (int)cudaErrorInvalidConfiguration;
    dim3 grid((unsigned)((outputs_of(s) + LAYER_BLOCK - 1) / LAYER_BLOCK), (unsigned)s->c_out);
    size_t shared = sizeof(float) * (size_t)s->c_in * s->k * s->k;
    layer_gemm_kernel<<<grid, LAYER_BLOCK, shared, (cudaStream_t)stream>>>(w, col, bias, out, *s);
    return (int)cudaGetLastError();
}

extern "C" int layer_launch_add_bias(const float *bias, float *out, const layer_shape *s, void *stream)
{
    if (!valid(s))
        return (int)cudaErrorInvalidConfiguration;
    dim3 grid((unsigned)((outputs_of(s) + LAYER_BLOCK - 1) / LAYER_BLOCK), (unsigned)s->c_out);
    layer_add_bias_kernel<<<grid, LAYER_BLOCK, 0, (cudaStream_t)stream>>>(bias, out, *s);
    return (int)cudaGetLastError();
}

extern "C" int layer_launch_to_half(const float *src, void *half, size_t n, void *stream)
{
    if (n == 0)
        return (int)cudaErrorInvalidConfiguration;
    layer_to_half_kernel<<<(unsigned)((n + LAYER_BLOCK - 1) / LAYER_BLOCK), LAYER_BLOCK, 0, (cudaStream_t)stream>>>(
        src, (__half *)half, n);
    return (int)cudaGetLastError();
}
