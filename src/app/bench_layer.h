/* bench_layer.h - `convis bench --layer` (bench_layer.c): a layer's three
 * ways on every engine that computes layers, at each size. */
#ifndef CONVIS_BENCH_LAYER_H
#define CONVIS_BENCH_LAYER_H

#include "bench_internal.h"
#include "core/layer.h"

#define BENCH_MAX_LAYERS 8

typedef struct layer_cell {
    bool ran;
    char why[256];         /* when it did not */
    double median, lo, hi; /* ms */
    int reps;
    double unroll_ms;      /* the last run's unrolling */
    long long extra_bytes; /* the unrolled matrix */
    double input_u;        /* the library's inputs' unit roundoff (0: fp32) */
    char how[128];
    long differ, over; /* outputs not the direct loop's bits; past the tolerance */
    double max_diff;
} layer_cell;

typedef struct layer_bench {
    app_options opt; /* border, geometry */
    const char *image;
    int channels;
    eng_layer_math math; /* --math: the library way's */
    int sizes[BENCH_MAX_SIZES], size_count;
    double budget_ms;
    bench_format format;
    layer_filters layer[BENCH_MAX_LAYERS];
    int layer_count;
    const eng_class *cls[BENCH_MAX_ENGINES];
    char label[BENCH_MAX_ENGINES][40];
    char description[BENCH_MAX_ENGINES][320];
    char unavailable[BENCH_MAX_ENGINES][256];
    int engine_count;
    eng_roofs roofs[BENCH_MAX_ENGINES]; /* each engine's roofs, measured on its device */
    bool roofs_ok[BENCH_MAX_ENGINES];
    layer_cell cell[BENCH_MAX_LAYERS][BENCH_MAX_ENGINES][ENG_LAYER_WAY_COUNT][BENCH_MAX_SIZES];
} layer_bench;

/* Measures every layer, engine, way and size; false with err_msg when there
 * is no memory for a size's tensors. */
bool bench_measure_layers(layer_bench *lb, const layer_tensor *source);

/* Counted operations a byte of a way; GFLOP/s of a cell; the smallest size
 * from which way w beat direct on engine k at every larger one (-1: none). */
double bench_layer_intensity(const layer_filters *f, eng_layer_way w);
double bench_layer_gflops(const layer_bench *lb, int l, int i, const layer_cell *c);
int bench_layer_overtakes(const layer_bench *lb, int l, int k, eng_layer_way w, double *ratio);

void bench_print_layers(const layer_bench *lb);
void bench_print_layers_csv(const layer_bench *lb);
void bench_print_layers_json(const layer_bench *lb);

/* bench --layer LIST from bench's parsed settings: the layers named (a
 * preset or a file each, parted by commas), for `channels` channels. An
 * exit status. */
int bench_layer_main(const bench *b, const char *list, eng_layer_math math, bool sizes_given, const char *image_path);

#endif
