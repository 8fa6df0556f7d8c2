#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double tim_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted samples, p in (0, 100]. */
static double nearest_rank(const double *sorted, size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

tim_stats tim_stats_of(const double *samples, size_t n)
{
    tim_stats s = {0};
    double small[64];
    double *sorted;

    if (n == 0)
        return s;
    sorted = n <= 64 ? small : malloc(n * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    s.n = n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    s.p95 = nearest_rank(sorted, n, 95.0);
    if (sorted != small)
        free(sorted);
    return s;
}
