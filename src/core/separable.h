/* separable.h - a filter of rank 1 as a row pass and a column pass, and the
 * distance in ULPs between two results.
 *
 * A kw x kh filter whose matrix is the outer product col * row runs as two
 * 1-D passes: tmp(x, y) = sum_i row[i] * in(x + i - kw/2, y), then
 * out(x, y) = (sum_j col[j] * tmp(x, y + j - kh/2)) / divisor, each sum in
 * tap order from 0.0f, every read through conv_sample's border rule (the
 * rule maps x and y apart, so the column pass reading tmp by it is the
 * 2-D rule). kw + kh taps an output against kw * kh. The sums are ordered
 * differently from conv_pixel's, so the result is not bit-equal to the
 * reference: sep_diff says by how much. */
#ifndef CONVIS_SEPARABLE_H
#define CONVIS_SEPARABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "conv_pixel.h"
#include "image.h"

/* Largest residual allowed for a filter that is not all integers, relative
 * to its largest weight: max |col[j]*row[i] - w[j][i]| <= SEP_TOLERANCE * max|w|. */
#define SEP_TOLERANCE 1e-6

typedef struct sep_factors {
    float row[CONV_MAX_SIDE]; /* kw of them */
    float col[CONV_MAX_SIDE]; /* kh of them */
    int kw, kh;
    bool exact;      /* integer weights, integer factors, their product the matrix exactly */
    double residual; /* max |col*row - w| relative to max |w| (0 when exact) */
} sep_factors;

/* Whether the weights of p (a kw x kh window) are of rank 1: exactly for a
 * matrix of integers, within SEP_TOLERANCE otherwise. False with a sentence
 * (err_msg) saying why not. */
bool sep_factor(const conv_params *p, sep_factors *out);

/* The two passes; tmp (the intermediate image) and out have in's size. */
void sep_run(const img_plane *in, const conv_params *p, const sep_factors *f, img_plane *tmp, img_plane *out);

/* The distance in ULPs of two floats: their bits mapped to one ordered line
 * (negatives below -0, which is one below +0: conv_same's distinct
 * results are at least 1 apart), 0 for two NaNs, SEP_ULP_NAN for a NaN
 * against a number. */
#define SEP_ULP_NAN UINT64_MAX
uint64_t sep_ulp_distance(float a, float b);

typedef struct sep_diff {
    uint64_t max_ulp; /* SEP_ULP_NAN when a NaN met a number */
    long differ;      /* outputs not conv_same */
    long total;
    double max_abs; /* largest |a - b| over outputs both numbers */
} sep_diff;

/* Compares a against b (same size); map (NULL, or their size) gets each
 * output's ULP distance as a float (INFINITY for a NaN against a number). */
sep_diff sep_compare(const img_plane *a, const img_plane *b, img_plane *map);

#endif
