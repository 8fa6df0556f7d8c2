/* settings.h - what a convolution is computed and shown with: the filter,
 * the border rule, the flip, how negative values are shown, and the image
 * limits. The command line fills it (cli.c), the scene holds it (scene.h).
 * Plain data over core types. */
#ifndef CONVIS_SETTINGS_H
#define CONVIS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/conv.h"
#include "core/filter.h"
#include "core/image.h"

typedef struct app_options {
    filt_kernel kernel;
    conv_border border;
    bool flip;
    int stride, dilation; /* 1.. CONV_MAX_STRIDE, CONV_MAX_DILATION */
    conv_padding padding;
    img_display display;
    img_limits limits;
} app_options;

#define APP_DEFAULT_KERNEL "sobel-x" /* the window's first filter: an edge, negative on one side */

/* The defaults: `kernel_name` (a preset), clamp border, no flip, negative
 * values clamped, the default image limits. */
void app_options_default(app_options *o, const char *kernel_name);

/* The parameters the options give: the filter (flipped when asked), the
 * border rule and the geometry. */
conv_params app_options_params(const app_options *o);

/* "stride 2, dilation 1, valid" (untranslated words of the options), or ""
 * on the plain geometry. */
void app_geometry_text(const app_options *o, char *buf, size_t size);

#endif
