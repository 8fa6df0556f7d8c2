/* chain.h - the chain (X): a thousand passes of the filter over a 4x4 image,
 * on cpu-seq and on the GPU, measured two ways on each:
 *
 *   chained      each pass reads the one before, started by the host and its
 *                result taken back before the next can start;
 *   independent  the same number of passes, each from the image, none
 *                waiting for another: the copies of the image stacked into
 *                one image and convolved in one run.
 *
 * Same engine, same size, same passes: what differs is the waiting. chain.c
 * is the only writer of scene.chain. */
#ifndef CONVIS_CHAIN_H
#define CONVIS_CHAIN_H

#include "core/image.h"
#include "format.h"
#include "scene_types.h"

#define SCENE_CHAIN_LENGTH 1000
#define SCENE_CHAIN_SIDE 4    /* the image is SIDE x SIDE */
#define SCENE_CHAIN_ENGINES 2 /* 0: cpu-seq, 1: the GPU */
#define SCENE_CHAIN_REPS 3    /* timed runs each way (after an untimed warm-up), as the one rule needs */

typedef struct chain_state {
    int length; /* passes in each run, either way (0: never run) */
    /* each way's runs on each engine: the median, fastest, slowest and how
     * many (runs 0: not measured); ms and independent_ms are the medians,
     * < 0 when not measured */
    eng_spread chained_runs[SCENE_CHAIN_ENGINES], independent_runs[SCENE_CHAIN_ENGINES];
    double ms[SCENE_CHAIN_ENGINES];             /* chained */
    double independent_ms[SCENE_CHAIN_ENGINES]; /* the same passes independent */
    img_plane result[SCENE_CHAIN_ENGINES];      /* the chain's last output, 4x4 (kept until X runs again) */
    img_plane independent[SCENE_CHAIN_ENGINES]; /* the independent passes' outputs, one 4x4 under another */
    /* the chain under way */
    int engine;                      /* 0: cpu-seq, 1: the GPU */
    int rep;                         /* its timed runs done */
    int pass;                        /* passes done in this run (-1: the warm-up next) */
    double engine_ms;                /* this run's time so far */
    double rep_ms[SCENE_CHAIN_REPS]; /* the runs' times */
    img_plane start, a, b;           /* the image, 4x4, and the two planes the passes go between */
} chain_state;

void scene_chain(scene *s); /* starts the chain; again: hides its panel */

/* The stack the independent passes run on: `n` copies of `in` (w x h), one
 * under another, each with a row above and a row below that hold what the
 * border rule reads there (conv_sample), so that one convolution of the
 * stack, w x n*(h+2), gives every copy exactly the outputs of one pass over
 * `in`; the border rows' own outputs are thrown away. */
bool scene_chain_stack(const img_plane *in, int n, int border, img_plane *out);

/* The copies' outputs from a convolved stack, border rows dropped: w x n*h. */
bool scene_chain_unstack(const img_plane *stack, int n, int h, img_plane *out);

/* The chain's figures in words, for its panel and the lessons:
 * "12.3 ms", or "(press X to measure first)". */
void scene_chain_ms_text(const scene *s, int engine, bool independent, char *buf, size_t size);

/* The chained passes against the independent ones on `engine`, by the one
 * rule (eng_verdict_of), worded by fmt_verdict: "the chain was 41.2×
 * slower than the independent passes (from a single run)". */
void scene_chain_wait_text(const scene *s, int engine, fmt_style style, char *buf, size_t size);

#endif
