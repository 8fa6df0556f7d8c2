/* bench_fft.h - `convis bench --fft` (bench_fft.c). */
#ifndef CONVIS_BENCH_FFT_H
#define CONVIS_BENCH_FFT_H

#include "bench_internal.h"

/* Measures the filter through the FFT at each of b's sizes, squares made
 * from source as the engines' are: a warm-up, then runs until the budget
 * is spent, 25 have run, or three agree within 3%; the median of their
 * transforms' time, the plans' time apart. A size that cannot run keeps
 * its reason (no FFTW, another geometry). */
void bench_measure_fft(bench *b, const img_plane *source);

/* The FFT's figures of `count` benches (one a filter size), beside the
 * one-thread 2-D loop (cpu-simd) and cpu-par at each size, and at the
 * largest size the smallest filter from which the FFT beat each of them
 * at every larger filter measured. */
void bench_print_fft(const bench *runs, int count);

/* The same as the JSON list "fft". */
void bench_json_fft(const bench *runs, int count);

#endif
