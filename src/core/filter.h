/* filter.h - filters of any odd size up to CONV_MAX_SIDE a side: the 3x3
 * presets, the presets that take a size (box:5, motion:9, sobel-x:5,
 * sobel-y:5, gaussian:1.5, log:1.4, unsharp:1) and kernels written as text. */
#ifndef CONVIS_FILTER_H
#define CONVIS_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "conv_pixel.h"

typedef struct filt_kernel {
    char name[32];               /* preset name ("sobel-x", "box:5") or "custom" */
    char title[48];              /* for people ("Sobel X (vertical edges)") */
    float weight[CONV_MAX_TAPS]; /* row-major, top-left first, as written: kw*kh of them */
    float divisor;               /* the weighted sum is divided by this; never 0 */
    int kw, kh;                  /* columns and rows: odd, 1..CONV_MAX_SIDE */
} filt_kernel;

/* The 3x3 presets, in a fixed order (the window's chips). */
size_t filt_preset_count(void);
const filt_kernel *filt_preset(size_t i);

/* Reads a filter from text: a 3x3 preset's name (case-insensitive); a
 * preset that takes a side K (odd): box:K (K x K ones), motion:K (a row of K
 * ones: a horizontal blur), sobel-x:K and sobel-y:K (3 to 15: OpenCV's
 * Sobel, binomial smoothing times a derivative, integers); or a standard
 * deviation S (0.2 to 5, on 2*ceil(3S)+1 a side): gaussian:S (the normal
 * density divided by its sum), log:S (the Laplacian of Gaussian, centre
 * positive, less its mean, its positive weights adding up to 4), unsharp:S
 * (twice the pixel less gaussian:S); or a matrix
 * "a b c; d e f; g h i" of any odd number of rows and of columns up to
 * CONV_MAX_SIDE, rows separated by ';', numbers by spaces or commas, every
 * row as long, and an optional "/ divisor" at the end. On failure leaves a
 * sentence (err_msg) that says what is wrong and shows the expected form. */
bool filt_parse(const char *text, filt_kernel *out);

/* The filter's kind at side k (odd, 1 to CONV_MAX_SIDE): box:K, motion:K,
 * sobel-x:K, sobel-y:K, or for the kinds of a standard deviation (gaussian,
 * log, unsharp) the one whose side is k (the deviation (k - 1) / 6, so k
 * from 3). The 3x3 presets box, gaussian, sobel-x and sobel-y are of their
 * kinds. False with a sentence (err_msg) for a filter of another kind, which
 * has one size, or a size out of its kind's range. */
bool filt_of_size(const filt_kernel *kind, int k, filt_kernel *out);

/* The title of the filter's kind, for a sentence about any of its sizes
 * (untranslated, as the titles are): "Box blur" for box and box:K,
 * "Gaussian blur", "Laplacian of Gaussian"...; another filter's own title. */
const char *filt_kind_title(const filt_kernel *k);

/* Whether the filter is the 3x3 window the window's views draw. */
bool filt_is_3x3(const filt_kernel *k);

/* The kernel rotated by 180 degrees (what true convolution applies). */
filt_kernel filt_flipped(const filt_kernel *k);

/* Writes its rows, "a b c; d e f; g h i" (and " / d" when the divisor is
 * not 1): text filt_parse reads back as the same filter. */
void filt_format(const filt_kernel *k, char *buf, size_t size);

/* The form filt_parse accepts, for messages and --help. */
const char *filt_expected_form(void);

#endif
