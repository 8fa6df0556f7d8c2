/* filter.h - filters of any odd size up to CONV_MAX_SIDE a side: the 3x3
 * presets, the presets that take a size (box:5, gaussian:1.5, motion:9) and
 * kernels written as text. */
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
 * preset that takes a size: box:K (K x K ones), gaussian:S (the normal
 * density of standard deviation S, 0.2 to 5, on 2*ceil(3S)+1 a side, divided
 * by its sum), motion:K (a row of K ones: a horizontal blur); or a matrix
 * "a b c; d e f; g h i" of any odd number of rows and of columns up to
 * CONV_MAX_SIDE, rows separated by ';', numbers by spaces or commas, every
 * row as long, and an optional "/ divisor" at the end. On failure leaves a
 * sentence (err_msg) that says what is wrong and shows the expected form. */
bool filt_parse(const char *text, filt_kernel *out);

/* The filter's kind at side k (odd, 1 to CONV_MAX_SIDE): box:K and
 * motion:K for a box or motion blur, or the gaussian whose side is k (its
 * standard deviation (k - 1) / 6, so k from 3). False with a sentence
 * (err_msg) for a filter of another kind, which has one size, or a size out
 * of range. */
bool filt_of_size(const filt_kernel *kind, int k, filt_kernel *out);

/* The title of the filter's kind, for a sentence about any of its sizes
 * (untranslated, as the titles are): "Box blur" for box and box:K,
 * "Gaussian blur", "Motion blur (horizontal)"; another filter's own title. */
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
