/* bench_roofline.h - the roofline of `convis bench` (bench_roofline.c). */
#ifndef CONVIS_BENCH_ROOFLINE_H
#define CONVIS_BENCH_ROOFLINE_H

#include "bench_internal.h"

/* An engine's point at size i: counted operations and intensity, the rate
 * measured, the roof under it at that intensity. valid: measured and roofs. */
typedef struct bench_point {
    double ops;        /* counted, an output */
    double intensity;  /* operations a byte, 8 bytes an output */
    double gflops;     /* measured */
    double memory_cap; /* memory roof times intensity */
    double cap;        /* the lower roof there */
    double share;      /* gflops / cap */
    bool by_memory, valid;
} bench_point;

void bench_measure_roofs(bench *b, int k, eng_engine *e);
bench_point bench_point_of(const bench *b, int k, int i);
void bench_print_roofline(const bench *b);
/* The roofline of one filter's bench as JSON objects of the "roofline"
 * list, after the ones before it (*first: none yet). */
void bench_json_roofline(const bench *b, bool *first);

#endif
