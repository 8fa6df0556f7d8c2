/* conv.h - convolution parameters and the reference implementation. */
#ifndef CONVIS_CONV_H
#define CONVIS_CONV_H

#include <stdbool.h>

#include "conv_pixel.h"
#include "filter.h"
#include "image.h"

/* Parameters as applied: the kernel's weights, rotated by 180 degrees when
 * flip is true (true convolution instead of cross-correlation). */
conv_params conv_params_make(const filt_kernel *k, conv_border border, bool flip);

/* "zero", "clamp", "mirror", "wrap". */
const char *conv_border_name(conv_border b);
bool conv_border_parse(const char *text, conv_border *out);

/* The reference: every output in raster order through conv_pixel, one after
 * another. `out` must have the size of `in` and must not alias it. */
void conv_reference(const img_plane *in, const conv_params *p, img_plane *out);

#endif
