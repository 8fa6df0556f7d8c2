/* timing.h - a monotonic clock and statistics over repetitions.
 *
 * Every CPU phase in convis is timed with tim_now_ms(); a figure shown to a
 * user is the median of several repetitions (tim_stats), never one sample
 * unless it says so. */
#ifndef CONVIS_TIMING_H
#define CONVIS_TIMING_H

#include <stddef.h>

typedef struct tim_stats {
    size_t n;   /* number of samples */
    double min; /* milliseconds */
    double median;
    double p95; /* nearest-rank 95th percentile */
    double max;
} tim_stats;

/* Milliseconds on a monotonic clock (CLOCK_MONOTONIC); only differences mean
 * anything. */
double tim_now_ms(void);

/* Statistics of n samples (milliseconds). The samples are not modified.
 * With n == 0 every field is 0. */
tim_stats tim_stats_of(const double *samples, size_t n);

#endif
