/* conv_pixel.h - the arithmetic of one output pixel, in exactly one place.
 *
 * Every engine (cpu-seq, cpu-par, the CUDA kernels) and the stepper compute an
 * output through these inline functions, so they agree bit for bit wherever
 * the compiler keeps the order of operations (no fast-math, no FMA
 * contraction; see CMakeLists.txt). The GLSL compute shader is the one other
 * copy and a test holds it equal to this one.
 *
 * Conventions
 * - Images are row-major float planes, w columns by h rows, index y*w + x.
 * - A window of kw columns by kh rows (each odd, 1 to CONV_MAX_SIDE) has its
 *   taps numbered 0..kw*kh-1 in reading order: tap t looks at the input pixel
 *   (x + t%kw - kw/2, y + t/kw - kh/2) and multiplies it by weight[t]. The
 *   window's filters are 3x3: taps 0..8 at (x + t%3 - 1, y + t/3 - 1).
 *   This is cross-correlation; true convolution is the same with the weights
 *   rotated by 180 degrees, done once when the parameters are made
 *   (conv_params_make), never per pixel.
 * - out = (p0 + p1 + ... + p(n-1)) / divisor, summed in tap order from 0.0f.
 *
 * This header includes nothing of the project but convis_hd.h so that nvcc can
 * compile it into device code. */
#ifndef CONVIS_CONV_PIXEL_H
#define CONVIS_CONV_PIXEL_H

#include <stdbool.h>

#include "convis_hd.h"

/* How a tap that falls outside the image reads a value. */
typedef enum conv_border {
    CONV_BORDER_ZERO = 0, /* outside reads 0 */
    CONV_BORDER_CLAMP,    /* replicate the edge pixel: aaa|abcd|ddd */
    CONV_BORDER_MIRROR,   /* reflect-101, edge not repeated: cb|abcd|cb */
    CONV_BORDER_WRAP,     /* periodic: cd|abcd|ab */
    CONV_BORDER_COUNT
} conv_border;

#define CONV_MAX_SIDE 31 /* a filter's widest and tallest */
#define CONV_MAX_TAPS (CONV_MAX_SIDE * CONV_MAX_SIDE)

/* How far the window may hang over the image's edges, as conv_arithmetic
 * draws it: `same` centres the window on every input pixel (the output is
 * the input's size at stride 1; the taps past the edge read by the border
 * rule), `valid` keeps the whole window inside (the output shrinks by the
 * window's extent less one), `full` lets it overlap by one pixel at least
 * (the output grows by as much; the taps past the edge read by the border
 * rule, zero by default). */
typedef enum conv_padding { CONV_PAD_SAME = 0, CONV_PAD_VALID, CONV_PAD_FULL, CONV_PAD_COUNT } conv_padding;

#define CONV_MAX_STRIDE 8
#define CONV_MAX_DILATION 8

/* The parameters of one convolution, as applied: weights already flipped
 * when true convolution was asked for. A plain struct, copyable to a device.
 *
 * Geometry: output (ox, oy) lays its window's top-left tap on the input at
 * (ox*stride - pad_x, oy*stride - pad_y), and tap (i, j) of it at that plus
 * (i*dilation, j*dilation). The window's extent is dilation*(k-1)+1 a side;
 * pad_x, pad_y follow from the padding (conv_params_set_geometry): half the
 * extent for same, 0 for valid, the extent less one for full. Stride 1,
 * dilation 1 and same are "plain": today's window, output the size of the
 * input, tap t at (x + t%kw - kw/2, y + t/kw - kh/2). */
typedef struct conv_params {
    float divisor;               /* never 0 */
    int border;                  /* a conv_border */
    int kw, kh;                  /* the window: odd, 1..CONV_MAX_SIDE */
    int stride, dilation;        /* 1..CONV_MAX_STRIDE, 1..CONV_MAX_DILATION */
    int padding;                 /* a conv_padding */
    int pad_x, pad_y;            /* the window's overhang left and top (see above) */
    float weight[CONV_MAX_TAPS]; /* tap order, see above; kw*kh of them (the small fields first: one
                                    cache line holds them and a 3x3 window's weights) */
} conv_params;

/* The offset of tap t (0..8) of a 3x3 window from the output pixel: the
 * window's filters, and the 3x3 kernels' tiles. */
/* Whether the geometry is the plain one (see conv_params). */
CONVIS_HD static inline bool conv_plain(const conv_params *p)
{
    return p->stride == 1 && p->dilation == 1 && p->padding == CONV_PAD_SAME;
}

/* The outputs along an axis of n input pixels for a window of k taps: 0
 * when a valid window does not fit. */
CONVIS_HD static inline int conv_out_len(int n, int k, int stride, int dilation, int padding)
{
    int extent = dilation * (k - 1) + 1;
    int span = padding == CONV_PAD_VALID ? n - extent : padding == CONV_PAD_FULL ? n + extent - 2 : n - 1;
    return span < 0 ? 0 : span / stride + 1;
}

CONVIS_HD static inline int conv_out_w(const conv_params *p, int in_w)
{
    return conv_out_len(in_w, p->kw, p->stride, p->dilation, p->padding);
}

CONVIS_HD static inline int conv_out_h(const conv_params *p, int in_h)
{
    return conv_out_len(in_h, p->kh, p->stride, p->dilation, p->padding);
}

CONVIS_HD static inline int conv_tap_dx(int t)
{
    return t % 3 - 1;
}
CONVIS_HD static inline int conv_tap_dy(int t)
{
    return t / 3 - 1;
}

/* Maps a coordinate i on an axis of n pixels (n >= 1) into [0, n) by the
 * border rule, or returns -1 when the tap reads zero. */
CONVIS_HD static inline int conv_border_index(int i, int n, int border)
{
    if (i >= 0 && i < n)
        return i;
    switch (border) {
    case CONV_BORDER_CLAMP: return i < 0 ? 0 : n - 1;
    case CONV_BORDER_MIRROR: {
        int period;
        if (n == 1)
            return 0;
        period = 2 * (n - 1);
        i %= period;
        if (i < 0)
            i += period;
        return i < n ? i : period - i;
    }
    case CONV_BORDER_WRAP: i %= n; return i < 0 ? i + n : i;
    default: return -1;
    }
}

/* The value the border rule gives position (x, y), inside the image or out. */
CONVIS_HD static inline float conv_sample(const float *in, int w, int h, int x, int y, int border)
{
    int sx = conv_border_index(x, w, border);
    int sy = conv_border_index(y, h, border);
    if (sx < 0 || sy < 0)
        return 0.0f;
    return in[(long)sy * w + sx];
}

/* The input value that tap t of a 3x3 window at output (x, y) reads. */
CONVIS_HD static inline float conv_fetch(const float *in, int w, int h, int x, int y, int t, int border)
{
    return conv_sample(in, w, h, x + conv_tap_dx(t), y + conv_tap_dy(t), border);
}

/* One tap's product, and the end of an output: the two arithmetic steps. */
CONVIS_HD static inline float conv_product(float value, float weight)
{
    return value * weight;
}

CONVIS_HD static inline float conv_finish(float sum, float divisor)
{
    return sum / divisor;
}

/* One output from the nine values under a 3x3 window. */
CONVIS_HD static inline float conv_combine(const float value[9], const float weight[9], float divisor)
{
    float sum = 0.0f;
    for (int t = 0; t < 9; ++t)
        sum += conv_product(value[t], weight[t]);
    return conv_finish(sum, divisor);
}

/* Output (x, y) of the convolution of the w x h plane `in`, any window,
 * its products added in tap order: a 3x3 one through conv_combine, whose
 * fixed count the compiler unrolls, the others row by row, the same
 * operations in the same order. */
CONVIS_HD static inline float conv_pixel_3x3(const float *in, int w, int h, int x, int y, const conv_params *p)
{
    float value[9];
    for (int t = 0; t < 9; ++t)
        value[t] = conv_fetch(in, w, h, x, y, t, p->border);
    return conv_combine(value, p->weight, p->divisor);
}

/* Any window and any geometry: output (x, y) of an input of w x h (the
 * output's own size is conv_out_w/h). On the plain geometry the taps are
 * those of conv_pixel_3x3 for a 3x3 window, in the same order. */
CONVIS_HD static inline float conv_pixel_any(const float *in, int w, int h, int x, int y, const conv_params *p)
{
    float sum = 0.0f;
    int x0 = x * p->stride - p->pad_x, y0 = y * p->stride - p->pad_y, d = p->dilation, t = 0;
    for (int j = 0; j < p->kh; ++j)
        for (int i = 0; i < p->kw; ++i, ++t)
            sum += conv_product(conv_sample(in, w, h, x0 + i * d, y0 + j * d, p->border), p->weight[t]);
    return conv_finish(sum, p->divisor);
}

CONVIS_HD static inline float conv_pixel(const float *in, int w, int h, int x, int y, const conv_params *p)
{
    return p->kw == 3 && p->kh == 3 && conv_plain(p) ? conv_pixel_3x3(in, w, h, x, y, p)
                                                     : conv_pixel_any(in, w, h, x, y, p);
}

#endif
