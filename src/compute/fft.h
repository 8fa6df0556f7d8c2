/* fft.h - a convolution through the fast Fourier transform, with FFTW
 * (single precision, one thread), where the build found it (CMake's
 * CONVIS_FFTW): the other way to fewer operations for a big filter. Its
 * cost grows with the image's transform, n log n, and not with the
 * filter's taps; its result is rounded differently from the direct sums
 * (every output touches every input through the transform), so it is
 * compared with the reference in ULPs, never said to be equal.
 *
 * The method: the image extended by the filter's reach on each side
 * through the border rule (conv_sample), and on to the next size whose
 * prime factors are 2 and 3 (and even), so that the transform's wrap around
 * reads nothing an output needs; its transform times the filter's
 * (reversed, for cross-correlation: the weights as conv_params holds
 * them); the inverse transform, scaled by 1 / (nw * nh); the outputs the
 * image's size, divided by the divisor. Plain geometry only (stride 1,
 * dilation 1, same padding). */
#ifndef CONVIS_FFT_H
#define CONVIS_FFT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/conv.h"
#include "core/image.h"

typedef struct fft_timing {
    int nw, nh;     /* the transforms' size: the image and the filter's reach, up to an even size of factors 2 and 3 */
    double plan_ms; /* FFTW's plans (FFTW_ESTIMATE: no trial runs) */
    double run_ms;  /* the fill, the transforms, the product and the inverse */
} fft_timing;

/* Whether this build has FFTW; false with the reason in why. */
bool fft_available(char *why, size_t size);

/* FFTW's version ("fftw-3.3.10"), or "" without it. */
const char *fft_version(void);

/* out (in's size) = in convolved by p through the FFT, timed. False with a
 * sentence (err_msg) without FFTW, for another geometry, or without
 * memory. */
bool fft_convolve(const img_plane *in, const conv_params *p, img_plane *out, fft_timing *t);

#endif
