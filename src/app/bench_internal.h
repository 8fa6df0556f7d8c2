/* bench_internal.h - what the files of `convis bench` share, and only they:
 * the table of measured cells.
 *
 *   bench.c         the command line, measuring, the command itself
 *   bench_report.c  the figures derived from the cells, as text, CSV or JSON
 *   bench_roofline.c  the roofs and each engine's point
 *   bench_fft.c     --fft: the filter through the FFT at each size, and where it beats the 2-D loop
 *   bench_layer.c   --layer: a layer's three ways on each engine at each size */
#ifndef CONVIS_BENCH_INTERNAL_H
#define CONVIS_BENCH_INTERNAL_H

#include <stdbool.h>

#include "compute/engine.h"
#include "settings.h"

#define BENCH_MAX_SIZES 16
#define BENCH_MAX_KSIZES 16
#define BENCH_MAX_ENGINES 12 /* rows: an engine, or an engine's kernel */
#define BENCH_MAX_REPS 25
#define BENCH_STEADY 0.03

typedef enum bench_format { BENCH_TEXT, BENCH_CSV, BENCH_JSON } bench_format;

/* One measured cell: an engine (or the copy) at one size. */
typedef struct bench_cell {
    bool ran;
    char why[256];         /* when it did not */
    double median, lo, hi; /* ms */
    int reps;
    double phase[ENG_PHASE_COUNT]; /* ms; < 0: no such phase */
    /* CPU engines: the threads that ran a band in the last timed run at
     * this size (eng_timing.threads: cpu-par runs a small image on one,
     * fewer than its pool); 0 on a GPU and for the copy */
    int threads;
} bench_cell;

typedef struct bench {
    int sizes[BENCH_MAX_SIZES], size_count;
    const eng_class *cls[BENCH_MAX_ENGINES];
    int kernel[BENCH_MAX_ENGINES];     /* the eng_kernel of an engine with a choice, else -1 */
    char label[BENCH_MAX_ENGINES][40]; /* "cpu-par", "gl naive" */
    char description[BENCH_MAX_ENGINES][320];
    char unavailable[BENCH_MAX_ENGINES][256]; /* "" when it runs here */
    int engine_count;
    double budget_ms;
    int ksizes[BENCH_MAX_KSIZES], ksize_count; /* --ksize: one bench a size; 0: the -k filter alone */
    bench_format format;
    app_options opt;
    const char *image;
    bench_cell copy[BENCH_MAX_SIZES];
    bench_cell cell[BENCH_MAX_ENGINES][BENCH_MAX_SIZES];
    /* the second-core check, made before the sizes when a CPU engine runs
     * (threads 0: not made) */
    eng_cores cores;
    /* each engine's roofs, measured on its device (bench_roofline.c) */
    eng_roofs roofs[BENCH_MAX_ENGINES];
    bool roofs_ok[BENCH_MAX_ENGINES];
    char roofs_why[BENCH_MAX_ENGINES][256];
    /* --fft: the filter through the FFT (compute/fft.h) at each size, one
     * thread, its plans apart (bench_fft.c) */
    bool fft;
    bench_cell fft_cell[BENCH_MAX_SIZES];
    double fft_plan_ms[BENCH_MAX_SIZES];
    int fft_nw[BENCH_MAX_SIZES], fft_nh[BENCH_MAX_SIZES];
    /* --layer (bench_layer.c): the layers' list, --math, and whether
     * --sizes was given (a layer's default sizes are smaller) */
    const char *layer;
    eng_layer_math math;
    bool sizes_given;
} bench;

/* The figures of `count` measured benches (one a filter size, --ksize) on
 * standard output: a table each for people, CSV (a row for each filter,
 * engine and size) or one JSON object. */
void bench_print_text(const bench *b, int count);
void bench_print_csv(const bench *b, int count);
void bench_print_json(const bench *b, int count);

#endif
