/* conv.h - convolution parameters and the reference implementation. */
#ifndef CONVIS_CONV_H
#define CONVIS_CONV_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "conv_pixel.h"
#include "filter.h"
#include "image.h"

/* Parameters as applied: the kernel's weights, rotated by 180 degrees when
 * flip is true (true convolution instead of cross-correlation). */
conv_params conv_params_make(const filt_kernel *k, conv_border border, bool flip);

/* "zero", "clamp", "mirror", "wrap". */
const char *conv_border_name(conv_border b);
bool conv_border_parse(const char *text, conv_border *out);

/* The geometry (conv_params): stride 1..CONV_MAX_STRIDE, dilation
 * 1..CONV_MAX_DILATION, padding same, valid or full; pad_x, pad_y follow.
 * conv_params_make gives the plain one (1, 1, same). Out-of-range values
 * are clamped; conv_geometry_check says in a sentence why they are wrong. */
void conv_params_set_geometry(conv_params *p, int stride, int dilation, conv_padding padding);
bool conv_geometry_check(int stride, int dilation);

/* "same", "valid", "full". */
const char *conv_padding_name(conv_padding pad);
bool conv_padding_parse(const char *text, conv_padding *out);

/* The output's size for an input of in_w x in_h; false with a sentence when
 * there is no output (a valid window wider or taller than the image). */
bool conv_output_size(const conv_params *p, int in_w, int in_h, int *out_w, int *out_h);

/* The reference: every output in raster order through conv_pixel, one after
 * another. `out` must have the output's size (conv_out_w/h: the size of `in`
 * on the plain geometry) and must not alias it. */
void conv_reference(const img_plane *in, const conv_params *p, img_plane *out);

/* Whether two outputs are the same result: the one rule every bit-for-bit
 * comparison of results follows (the tests, pfm_equal, the GPU race shown in
 * the window). Their bits are equal, or both are NaN: a NaN has no one bit
 * pattern (a GPU writes its own canonical NaN, an x86 CPU writes 0xffc00000
 * or keeps the bits of the NaN it was given), and an input that overflows to
 * infinity and then NaN is the same result whichever engine computed it.
 * Every other value compares by its bits, so 0.0 and -0.0 are different
 * results (a division by them tells them apart). */
static inline bool conv_same(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y || (isnan(a) && isnan(b));
}

/* How many of the n outputs at `a` and `b` are not the same result
 * (conv_same): 0 when the two are equal bit for bit, NaN for NaN. */
long conv_count_different(const float *a, const float *b, long n);

#endif
