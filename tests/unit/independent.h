/* independent.h - a second convolution, written apart from src/core, that the
 * tests hold the engines to. It works as one would on paper: copy the image
 * into a frame one pixel wider on every side, fill the frame by the border
 * rule (written here again, only for the one-pixel reach a 3x3 needs), then
 * take each 3x3 block's weighted sum. The kernel is rotated here, not by
 * filt_flipped, for true convolution. */
#ifndef CONVIS_TEST_INDEPENDENT_H
#define CONVIS_TEST_INDEPENDENT_H

#include <stdlib.h>

/* border: 0 zero, 1 clamp, 2 mirror (reflect-101), 3 wrap */
static inline int ind_source(int i, int n, int border)
{
    if (i >= 0 && i < n)
        return i;
    if (border == 0)
        return -1;
    if (border == 1)
        return i < 0 ? 0 : n - 1;
    if (border == 2) {
        if (n == 1)
            return 0;
        return i < 0 ? 1 : n - 2;
    }
    return i < 0 ? n - 1 : 0;
}

static inline void ind_convolve(const float *in, int w, int h, const float weight[9], float divisor, int border,
                                int flip, float *out)
{
    int pw = w + 2, ph = h + 2;
    float *pad = malloc(sizeof *pad * (size_t)pw * (size_t)ph);
    float k[3][3];

    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            k[j][i] = flip ? weight[(2 - j) * 3 + (2 - i)] : weight[j * 3 + i];
    for (int y = -1; y <= h; ++y) {
        for (int x = -1; x <= w; ++x) {
            int sx = ind_source(x, w, border), sy = ind_source(y, h, border);
            pad[(size_t)(y + 1) * pw + (x + 1)] = (sx < 0 || sy < 0) ? 0.0f : in[(size_t)sy * w + sx];
        }
    }
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            float sum = 0.0f;
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i)
                    sum += k[j][i] * pad[(size_t)(y + j) * pw + (x + i)];
            out[(size_t)y * w + x] = sum / divisor;
        }
    }
    free(pad);
}

/* Where a tap any distance outside an axis of n pixels reads, by the border
 * rule walked a step at a time: -1 for zero. */
static inline int ind_source_far(int i, int n, int border)
{
    if (border == 0)
        return i >= 0 && i < n ? i : -1;
    if (border == 1)
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    if (border == 3) {
        while (i < 0)
            i += n;
        while (i >= n)
            i -= n;
        return i;
    }
    if (n == 1)
        return 0;
    while (i < 0 || i >= n) /* mirror: reflect at the edges, the edge itself not repeated */
        i = i < 0 ? -i : 2 * (n - 1) - i;
    return i;
}

/* The same convolution for a window of kw x kh taps (odd each), on paper:
 * a frame as wide as the window's reach filled by the border rule, then each
 * window's weighted sum, row by row. */
static inline void ind_convolve_any(const float *in, int w, int h, const float *weight, int kw, int kh, float divisor,
                                    int border, int flip, float *out)
{
    int rx = kw / 2, ry = kh / 2, pw = w + 2 * rx, ph = h + 2 * ry, n = kw * kh;
    float *pad = malloc(sizeof *pad * (size_t)pw * (size_t)ph);
    for (int y = -ry; y < h + ry; ++y)
        for (int x = -rx; x < w + rx; ++x) {
            int sx = ind_source_far(x, w, border), sy = ind_source_far(y, h, border);
            pad[(size_t)(y + ry) * pw + (x + rx)] = (sx < 0 || sy < 0) ? 0.0f : in[(size_t)sy * w + sx];
        }
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float sum = 0.0f;
            for (int j = 0; j < kh; ++j)
                for (int i = 0; i < kw; ++i)
                    sum += (flip ? weight[n - 1 - (j * kw + i)] : weight[j * kw + i]) *
                           pad[(size_t)(y + j) * pw + (x + i)];
            out[(size_t)y * w + x] = sum / divisor;
        }
    free(pad);
}

/* With stride, dilation and padding as conv_arithmetic writes them: the
 * input padded by p = half the dilated extent (same), 0 (valid) or the
 * extent less one (full) on every side, by the border rule; the output
 * floor((n + 2p - extent) / stride) + 1 along each axis (written to *ow,
 * *oh, 0 when none), output o reading padded pixel o*stride + tap*dilation.
 * padding: 0 same, 1 valid, 2 full. */
static inline void ind_convolve_geometry(const float *in, int w, int h, const float *weight, int kw, int kh,
                                         float divisor, int border, int stride, int dilation, int padding, float *out,
                                         int *ow, int *oh)
{
    int ex = dilation * (kw - 1) + 1, ey = dilation * (kh - 1) + 1;
    int px = padding == 1 ? 0 : padding == 2 ? ex - 1 : (ex - 1) / 2;
    int py = padding == 1 ? 0 : padding == 2 ? ey - 1 : (ey - 1) / 2;
    int pw = w + 2 * px, ph = h + 2 * py;
    float *pad = malloc(sizeof *pad * (size_t)pw * (size_t)ph);
    *ow = pw >= ex ? (pw - ex) / stride + 1 : 0;
    *oh = ph >= ey ? (ph - ey) / stride + 1 : 0;
    for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
            int sx = ind_source_far(x - px, w, border), sy = ind_source_far(y - py, h, border);
            pad[(size_t)y * pw + x] = (sx < 0 || sy < 0) ? 0.0f : in[(size_t)sy * w + sx];
        }
    for (int y = 0; y < *oh; ++y)
        for (int x = 0; x < *ow; ++x) {
            float sum = 0.0f;
            for (int j = 0; j < kh; ++j)
                for (int i = 0; i < kw; ++i)
                    sum +=
                        weight[j * kw + i] * pad[(size_t)(y * stride + j * dilation) * pw + x * stride + i * dilation];
            out[(size_t)y * *ow + x] = sum / divisor;
        }
    free(pad);
}

/* Deterministic pseudo-random pixel values in 0..255 with fractions. */
static inline void ind_fill(float *px, size_t n, unsigned seed)
{
    unsigned s = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        px[i] = (float)(s >> 8 & 0xffff) / 256.0f;
    }
}

#endif
