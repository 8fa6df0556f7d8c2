/* check.h - the few assertions convis's C tests need. Each failed check
 * prints where and why; main ends with CHECK_SUMMARY(), which prints
 * "N passed, M failed" and returns the exit status. */
#ifndef CONVIS_CHECK_H
#define CONVIS_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            ++check_passed;                                                                                            \
        } else {                                                                                                       \
            ++check_failed;                                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                                   \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

/* |got - want| <= tol * max(1, |want|) */
#define CHECK_NEAR(got, want, tol, ...)                                                                                \
    CHECK(fabs((double)(got) - (double)(want)) <= (tol)*fmax(1.0, fabs((double)(want))), __VA_ARGS__)

#define CHECK_SUMMARY() (printf("%d passed, %d failed\n", check_passed, check_failed), check_failed ? 1 : 0)

#endif
