/* layer_body.h - the bodies of a convolution layer's CUDA kernels
 * (kernels/layer.cu) as functions of explicit indices, host-and-device code
 * under nvcc, plain C under gcc: the CUDA stand-in (tests/mock/layer_mock.c)
 * runs the same functions on the CPU.
 *
 * The sums are core/layer.c's, in its order: output o at (x, y) adds, from
 * 0.0f, the products of channel c's tap (i, j) for c, then j, then i, then
 * the bias; the unrolled matrix's row c*K*K + j*K + i is that tap, and the
 * ordered GEMM adds its rows in order. So direct and im2col + GEMM are the
 * direct loop's bits on the CPU, with --fmad=false (no fused multiply-add). */
#ifndef CONVIS_LAYER_BODY_H
#define CONVIS_LAYER_BODY_H

#include "../src/core/conv_pixel.h"

/* A layer's shape, passed by value to every kernel. */
typedef struct layer_shape {
    int c_in, c_out, k; /* channels in, filters, window side */
    int w, h;           /* the input planes */
    int ow, oh;         /* the output planes */
    conv_params p;      /* border and geometry (kw = kh = k; weights unused) */
} layer_shape;

/* Output o at (x, y), the direct way: every channel's window read where it
 * is (global memory), C_in * K^2 products. w: c_out x c_in x k x k. */
CONVIS_HD static inline float layer_direct_at(const float *in, const float *w, const float *bias,
                                              const layer_shape *s, int o, int x, int y)
{
    float sum = 0.0f;
    int x0 = x * s->p.stride - s->p.pad_x, y0 = y * s->p.stride - s->p.pad_y, d = s->p.dilation;
    long plane = (long)s->w * s->h;
    for (int c = 0; c < s->c_in; ++c) {
        const float *wc = w + ((long)o * s->c_in + c) * s->k * s->k, *src = in + c * plane;
        for (int j = 0, t = 0; j < s->k; ++j)
            for (int i = 0; i < s->k; ++i, ++t)
                sum += conv_product(conv_sample(src, s->w, s->h, x0 + i * d, y0 + j * d, s->p.border), wc[t]);
    }
    return sum + bias[o];
}

/* The unrolled matrix's element (row r, column q): what output q = y*ow + x
 * reads at tap r = c*K*K + j*K + i. */
CONVIS_HD static inline float layer_im2col_at(const float *in, const layer_shape *s, long r, long q)
{
    int kk = s->k * s->k, c = (int)(r / kk), t = (int)(r % kk), x = (int)(q % s->ow), y = (int)(q / s->ow);
    int d = s->p.dilation;
    return conv_sample(in + (long)c * s->w * s->h, s->w, s->h, x * s->p.stride - s->p.pad_x + (t % s->k) * d,
                       y * s->p.stride - s->p.pad_y + (t / s->k) * d, s->p.border);
}

/* The ordered GEMM's output (o, q): rows C_in*K*K of `col` (n columns)
 * against filter o's weights, in order, from 0.0f, then the bias. */
CONVIS_HD static inline float layer_gemm_at(const float *w, const float *col, const float *bias, long rows, long n,
                                            int o, long q)
{
    float sum = 0.0f;
    const float *wo = w + (long)o * rows;
    for (long r = 0; r < rows; ++r)
        sum += conv_product(col[r * n + q], wo[r]);
    return sum + bias[o];
}

#endif
