/* apply_separable.h - apply's --separable report (apply_separable.c). */
#ifndef CONVIS_APPLY_SEPARABLE_H
#define CONVIS_APPLY_SEPARABLE_H

#include <stdbool.h>

#include "core/conv.h"

/* Runs p as two passes over `in` when it is of rank 1 (else says why not,
 * and that is no failure), prints how far that is from `direct`, and writes
 * the map of ULP distances to map_path when given (never over input_path). False with err_msg when
 * memory runs out or the map cannot be written. */
bool app_apply_separable(const img_plane *in, const conv_params *p, const img_plane *direct, const char *map_path,
                         const char *input_path);

/* Runs p through the FFT over `in` (or says why it cannot: no FFTW,
 * another geometry; no failure), and prints its time and how far it is
 * from `direct`. False with err_msg when memory runs out. */
bool app_apply_fft(const img_plane *in, const conv_params *p, const img_plane *direct);

#endif
