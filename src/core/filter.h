/* filter.h - 3x3 filters: the presets and custom kernels written as text. */
#ifndef CONVIS_FILTER_H
#define CONVIS_FILTER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct filt_kernel {
    char name[32];   /* preset name ("sobel-x") or "custom" */
    char title[48];  /* for people ("Sobel X (vertical edges)") */
    float weight[9]; /* row-major, top-left first, as written */
    float divisor;   /* the weighted sum is divided by this; never 0 */
} filt_kernel;

/* The presets, in a fixed order. */
size_t filt_preset_count(void);
const filt_kernel *filt_preset(size_t i);

/* Reads a filter from text: a preset's name (case-insensitive), or a 3x3
 * matrix "a b c; d e f; g h i" with rows separated by ';', numbers by spaces
 * or commas, and an optional "/ divisor" at the end. On failure leaves a
 * sentence (err_msg) that shows the expected form. */
bool filt_parse(const char *text, filt_kernel *out);

/* The kernel rotated by 180 degrees (what true convolution applies). */
filt_kernel filt_flipped(const filt_kernel *k);

/* Writes "a b c; d e f; g h i" (and " / d" when the divisor is not 1). */
void filt_format(const filt_kernel *k, char *buf, size_t size);

/* The form filt_parse accepts, for messages and --help. */
const char *filt_expected_form(void);

#endif
