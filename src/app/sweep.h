/* sweep.h - the size sweep (W): the same filter on square images of growing
 * size, 4x4 to 4096x4096, on cpu-seq, cpu-simd, cpu-par and the GPU: where the GPU
 * starts to win. And the filter sweep (Shift+W): the image shown (at most
 * SWEEP_FILTER_SIDE a side) with the same kind of filter growing, 3x3 to
 * 15x15: one core's time grows with the products, K x K an output, a
 * GPU's far less while its memory, not its arithmetic, sets the pace.
 * sweep.c is the only writer of scene.sweep and scene.filter_sweep. */
#ifndef CONVIS_SWEEP_H
#define CONVIS_SWEEP_H

#include "core/filter.h"
#include "scene_types.h"

#define SCENE_SWEEP_SIZES 6 /* 4x4, 16x16, ... 4096x4096; or sides 3, 5, 7, 9, 11, 15 */
#define SWEEP_FILTER_SIDE 512 /* the filter sweep's image: the one shown, scaled down to this */

/* The sweep's lines: its figures' first index. */
enum { SWEEP_SEQ, SWEEP_PAR, SWEEP_GPU, SWEEP_SIMD, SCENE_SWEEP_ENGINES };

typedef struct sweep_state {
    int count;                   /* points measured */
    int size[SCENE_SWEEP_SIZES]; /* the image's side, or (the filter sweep) the filter's */
    double ms[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES]; /* by SWEEP_SEQ...; < 0: not measured */
    double lo[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES],
        hi[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES]; /* the runs' fastest and slowest */
    int reps[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES];
    double phase[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES][ENG_PHASE_COUNT]; /* each phase's median; < 0: none */
    int at_size, at_engine;                                                /* where the sweep under way is */
    int job_size, job_engine; /* what the measuring thread measures for it */
    filt_kernel kind;         /* the filter sweep's kind of filter: box or gaussian, K x K */
    int w, h;                 /* and its image's size */
    /* the filter sweep's two passes (core/separable.h, one thread), after
     * the engines at each point: the median time (< 0: not run), and their
     * result against the engines' (cpu-par's, bit-equal to the reference) */
    double sep_ms[SCENE_SWEEP_SIZES];
    unsigned long long sep_max_ulp[SCENE_SWEEP_SIZES]; /* SEP_ULP_NAN: a NaN met a number */
    long sep_differ[SCENE_SWEEP_SIZES], sep_total[SCENE_SWEEP_SIZES];
    /* the filter sweep's roofline: each engine's two roofs, measured on its
     * own device after the points (eng_measure_roofs), or why not */
    eng_roofs roofs[SCENE_SWEEP_ENGINES];
    bool roofs_ok[SCENE_SWEEP_ENGINES];
    char roofs_why[SCENE_SWEEP_ENGINES][160];
} sweep_state;

void scene_sweep(scene *s);        /* starts the sweep; again: hides its chart */
void scene_filter_sweep(scene *s); /* starts the filter sweep; again: hides its chart */

/* How each engine's time grew across the filter sweep
 * ({filter_sweep_growth}): "from 3×3 to 15×15, 25× the products: cpu-seq
 * took 21.4× as long, cpu-par 17.9×, gl 1.3×"; or that it has not run. */
void scene_filter_sweep_growth(const scene *s, char *buf, size_t size);

/* The two passes against one core's vectorised 2-D loop (cpu-simd) at the
 * sweep's largest side ({filter_sweep_separable}): "at 15×15, 30 taps an
 * output against 225: the two passes on one thread took 2.1 ms, cpu-simd
 * (...) 9.8 ms; 150,321 of 196,608 outputs differ from the 2-D result, by 9
 * ULPs at most"; or not run. */
void scene_filter_sweep_separable(const scene *s, char *buf, size_t size);

/* Engine k's point on the roofline at the filter sweep's side i: the
 * operations an output, counted (2 K^2 + 1, as the bounds count them: a
 * multiply and an add a tap, a division), over the 8 bytes an output must at
 * least move (its input read once, its output written), and the rate its
 * measured compute phase gives; false when that side was not measured. */
bool scene_filter_sweep_point(const scene *s, int k, int i, double *intensity, double *gflops);

/* cpu-par's and the GPU's moves on the roofline ({filter_sweep_roofline}):
 * "cpu-par went from 2.38 operations a byte at 3×3 to 56.4 at 15×15 and
 * from 34.1 to 9.3 GFLOP/s, under roofs of 11.4 GB/s and 40.5 GFLOP/s (the
 * ridge at 3.55 operations a byte); gl ..."; or not measured yet. */
void scene_filter_sweep_roofline(const scene *s, char *buf, size_t size);

/* The smallest swept size from which on the GPU beat cpu-par at every
 * larger size too, or 0 when it did not. */
int scene_sweep_crossover(const scene *s);

/* The GPU's time against one plain core's (cpu-seq) from 64x64 up, where a
 * launch no longer hides the work ({sweep_gpu_vs_seq}): "from 64×64 up it
 * took 1.1× to 3.4× one plain core's time", or faster, or both. */
void scene_sweep_gpu_vs_seq(const scene *s, char *buf, size_t size);

/* Whether the GPU beat cpu-par at any swept size. */
bool scene_sweep_gpu_ever_ahead(const scene *s);

#endif
