/* layer_mock.c - the CUDA stand-in's layer kernels (kernels/layer.h) and
 * cuBLAS (the part src/compute/cuda_layer.c calls), on the CPU.
 *
 * The launchers run the bodies of kernels/layer_body.h over the whole grid
 * after the work queued before them on the stream (as roofs_mock.c does),
 * so events recorded around them span them. The GEMM stands in for a
 * library's as a library computes, not as ours: its sums in four partial
 * sums (r mod 4, as a vector unit keeps them) added pairwise at the end,
 * so its results differ from the ordered GEMM's in the last bits, as a real
 * library's do; in CUBLAS_TF32_TENSOR_OP_MATH its inputs are first rounded
 * to TF32 (10 bits after the point, to nearest even), as tensor cores
 * round them; cublasGemmEx reads FP16 inputs. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/layer.h"

static bool shape_ok(const layer_shape *s)
{
    return s->c_in >= 1 && s->c_out >= 1 && s->k >= 1 && s->ow >= 1 && s->oh >= 1 && s->w >= 1 && s->h >= 1;
}

int layer_launch_direct(const float *in, const float *w, const float *bias, float *out, const layer_shape *s,
                        void *stream)
{
    if (!shape_ok(s))
        return (int)cudaErrorInvalidConfiguration;
    cudaStreamSynchronize((cudaStream_t)stream);
    for (int o = 0; o < s->c_out; ++o)
        for (long q = 0; q < (long)s->ow * s->oh; ++q)
            out[(long)o * s->ow * s->oh + q] = layer_direct_at(in, w, bias, s, o, (int)(q % s->ow), (int)(q / s->ow));
    return 0;
}

int layer_launch_im2col(const float *in, float *col, const layer_shape *s, void *stream)
{
    long n = (long)s->ow * s->oh, rows = (long)s->c_in * s->k * s->k;
    if (!shape_ok(s))
        return (int)cudaErrorInvalidConfiguration;
    cudaStreamSynchronize((cudaStream_t)stream);
    for (long r = 0; r < rows; ++r)
        for (long q = 0; q < n; ++q)
            col[r * n + q] = layer_im2col_at(in, s, r, q);
    return 0;
}

int layer_launch_gemm(const float *w, const float *col, const float *bias, float *out, const layer_shape *s,
                      void *stream)
{
    long n = (long)s->ow * s->oh, rows = (long)s->c_in * s->k * s->k;
    if (!shape_ok(s))
        return (int)cudaErrorInvalidConfiguration;
    cudaStreamSynchronize((cudaStream_t)stream);
    for (int o = 0; o < s->c_out; ++o)
        for (long q = 0; q < n; ++q)
            out[(long)o * n + q] = layer_gemm_at(w, col, bias, rows, n, o, q);
    return 0;
}

int layer_launch_add_bias(const float *bias, float *out, const layer_shape *s, void *stream)
{
    long n = (long)s->ow * s->oh;
    if (!shape_ok(s))
        return (int)cudaErrorInvalidConfiguration;
    cudaStreamSynchronize((cudaStream_t)stream);
    for (int o = 0; o < s->c_out; ++o)
        for (long q = 0; q < n; ++q)
            out[(long)o * n + q] += bias[o];
    return 0;
}

/* IEEE half, round to nearest even (finite inputs of a layer: no NaN). */
static uint16_t to_half(float f)
{
    uint32_t x;
    int e;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    float a = fabsf(f);
    if (a >= 65520.0f)
        return sign | 0x7c00u;
    if (a < ldexpf(1.0f, -24) / 2)
        return sign;
    frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    if (e < -13)   /* subnormal: steps of 2^-24 */
        return sign | (uint16_t)lrintf(a * ldexpf(1.0f, 24));
    {
        float scaled = ldexpf(a, 11 - e); /* 1024 .. 2048 */
        long m = lrintf(scaled);
        if (m == 2048)
            m = 1024, ++e;
        return sign | (uint16_t)(((e + 14) << 10) | (m - 1024));
    }
}

static float from_half(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? INFINITY : ldexpf((float)(m + 1024), e - 25);
    return h & 0x8000u ? -v : v;
}

int layer_launch_to_half(const float *src, void *half, size_t n, void *stream)
{
    uint16_t *dst = half;
    if (n == 0)
        return (int)cudaErrorInvalidConfiguration;
    cudaStreamSynchronize((cudaStream_t)stream);
    for (size_t i = 0; i < n; ++i)
        dst[i] = to_half(src[i]);
    return 0;
}

/* ---- cuBLAS ----------------------------------------------------------------- */

struct cublasContext {
    cudaStream_t stream;
    cublasMath_t mode;
};

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    *handle = calloc(1, sizeof **handle);
    return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version)
{
    (void)handle;
    *version = 130000; /* what the stand-in says: 13.0 */
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream)
{
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    handle->mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusString(cublasStatus_t status)
{
    return status == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "a cuBLAS error (the stand-in's)";
}

/* TF32: 10 bits after the point, to nearest even. */
static float to_tf32(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    x = (x + 0xfffu + ((x >> 13) & 1u)) & ~0x1fffu;
    memcpy(&f, &x, 4);
    return f;
}

typedef float (*reader)(const void *m, long i, bool tf32);

static float read_f32(const void *m, long i, bool tf32)
{
    float v = ((const float *)m)[i];
    return tf32 ? to_tf32(v) : v;
}

static float read_f16(const void *m, long i, bool tf32)
{
    (void)tf32;
    return from_half(((const uint16_t *)m)[i]);
}

/* C (m x n, column-major, ldc) = A (m x k, lda) B (k x n, ldb), no transposes:
 * four partial sums, added pairwise. */
static void gemm(cublasHandle_t h, int m, int n, int k, const void *a, int lda, const void *b, int ldb, float *c,
                 int ldc, reader read)
{
    bool tf32 = h->mode == CUBLAS_TF32_TENSOR_OP_MATH;
    cudaStreamSynchronize(h->stream);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            float part[4] = {0, 0, 0, 0};
            for (int r = 0; r < k; ++r)
                part[r % 4] += read(a, (long)r * lda + i, tf32) * read(b, (long)j * ldb + r, tf32);
            c[(long)j * ldc + i] = (part[0] + part[1]) + (part[2] + part[3]);
        }
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                              int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                              const float *beta, float *C, int ldc)
{
    if (transa != CUBLAS_OP_N || transb != CUBLAS_OP_N || *alpha != 1.0f || *beta != 0.0f)
        return CUBLAS_STATUS_NOT_SUPPORTED; /* what convis asks for, and nothing else */
    gemm(handle, m, n, k, A, lda, B, ldb, C, ldc, read_f32);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    if (transa != CUBLAS_OP_N || transb != CUBLAS_OP_N || *(const float *)alpha != 1.0f ||
        *(const float *)beta != 0.0f || Atype != CUDA_R_16F || Btype != CUDA_R_16F || Ctype != CUDA_R_32F ||
        computeType != CUBLAS_COMPUTE_32F)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    gemm(handle, m, n, k, A, lda, B, ldb, C, ldc, read_f16);
    return CUBLAS_STATUS_SUCCESS;
}
