/* The launchers of kernels/conv3x3.cu on a CUDA device, without the engine:
 * two tiled launches queued back to back on one stream, each after its own
 * conv3x3_set_filter, with one synchronisation at the end: the filter in
 * __constant__ memory is stream-ordered, so each launch computes with its
 * own (bit for bit the reference's); the naive kernel beside them. And the
 * kernels' own block limits (conv3x3_max_block_threads) within the device's.
 * Exits 77 (skipped) without a CUDA device. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/conv3x3.h"
#include "../unit/check.h"
#include "../unit/independent.h"
#include "core/conv.h"
#include "core/filter.h"

#define CK(call)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e_ = (cudaError_t)(call);                                                                          \
        CHECK(e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(e_));                                             \
        if (e_ != cudaSuccess)                                                                                         \
            return CHECK_SUMMARY();                                                                                    \
    } while (0)

int main(void)
{
    enum { W = 333, H = 257 };
    const size_t n = (size_t)W * H, bytes = n * sizeof(float);
    int count = 0, tiled_max = 0, naive_max = 0;
    struct cudaDeviceProp prop;
    cudaStream_t stream;
    filt_kernel ka, kb;
    conv_params a, b;
    img_plane in, ref;
    float *d_in, *d_a, *d_b, *d_c, *got = malloc(bytes);

    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("skipped: no CUDA device\n");
        return 77;
    }
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, compute capability %d.%d, %d SMs\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount);
    CK(conv3x3_max_block_threads(1, &tiled_max));
    CK(conv3x3_max_block_threads(0, &naive_max));
    printf("kernels' own block limits: tiled %d, naive %d threads (device %d)\n", tiled_max, naive_max,
           prop.maxThreadsPerBlock);
    CHECK(tiled_max >= 256 && tiled_max <= prop.maxThreadsPerBlock && naive_max >= 256 &&
              naive_max <= prop.maxThreadsPerBlock,
          "the kernels take 16x16 blocks, and no more than the device allows");

    CHECK(filt_parse("sobel-x", &ka) && filt_parse("0.1 -0.7 1.3; 2.9 -0.3 0.45; -1.1 0.6 0.77 / 7", &kb), "filters");
    a = conv_params_make(&ka, CONV_BORDER_CLAMP, false);
    b = conv_params_make(&kb, CONV_BORDER_MIRROR, true);
    img_plane_alloc(&in, W, H);
    img_plane_alloc(&ref, W, H);
    ind_fill(in.px, n, 71);
    CK(cudaStreamCreate(&stream));
    CK(cudaMalloc((void **)&d_in, bytes));
    CK(cudaMalloc((void **)&d_a, bytes));
    CK(cudaMalloc((void **)&d_b, bytes));
    CK(cudaMalloc((void **)&d_c, bytes));
    CK(cudaMemcpy(d_in, in.px, bytes, cudaMemcpyHostToDevice));

    /* queued back to back; nothing waits until the end */
    CK(conv3x3_set_filter(&a, stream));
    CK(conv3x3_launch_tiled(d_in, d_a, W, H, 16, 16, stream));
    CK(conv3x3_set_filter(&b, stream));
    CK(conv3x3_launch_tiled(d_in, d_b, W, H, 32, 8, stream));
    CK(conv3x3_launch_naive(d_in, d_c, W, H, &a, 8, 32, stream));
    CK(cudaStreamSynchronize(stream));

    conv_reference(&in, &a, &ref);
    CK(cudaMemcpy(got, d_a, bytes, cudaMemcpyDeviceToHost));
    CHECK(conv_count_different(got, ref.px, (long)n) == 0,
          "the first tiled launch computed with its own filter, bit for bit");
    CK(cudaMemcpy(got, d_c, bytes, cudaMemcpyDeviceToHost));
    CHECK(conv_count_different(got, ref.px, (long)n) == 0, "the naive launch, bit for bit");
    conv_reference(&in, &b, &ref);
    CK(cudaMemcpy(got, d_b, bytes, cudaMemcpyDeviceToHost));
    CHECK(conv_count_different(got, ref.px, (long)n) == 0,
          "the second tiled launch computed with its own filter, bit for bit");

    cudaFree(d_in);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    cudaStreamDestroy(stream);
    img_plane_free(&in);
    img_plane_free(&ref);
    free(got);
    return CHECK_SUMMARY();
}
