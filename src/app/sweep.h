/* sweep.h - the size sweep (W): the same filter on square images of growing
 * size, 4x4 to 4096x4096, on cpu-seq, cpu-simd, cpu-par and the GPU: where the GPU
 * starts to win. sweep.c is the only writer of scene.sweep. */
#ifndef CONVIS_SWEEP_H
#define CONVIS_SWEEP_H

#include "scene_types.h"

#define SCENE_SWEEP_SIZES 6 /* 4x4, 16x16, ... 4096x4096 */

/* The sweep's lines: its figures' first index. */
enum { SWEEP_SEQ, SWEEP_PAR, SWEEP_GPU, SWEEP_SIMD, SCENE_SWEEP_ENGINES };

typedef struct sweep_state {
    int count; /* sizes measured */
    int size[SCENE_SWEEP_SIZES];
    double ms[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES]; /* by SWEEP_SEQ...; < 0: not measured */
    double lo[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES],
        hi[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES]; /* the runs' fastest and slowest */
    int reps[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES];
    double phase[SCENE_SWEEP_ENGINES][SCENE_SWEEP_SIZES][ENG_PHASE_COUNT]; /* each phase's median; < 0: none */
    int at_size, at_engine;                                                /* where the sweep under way is */
    int job_size, job_engine; /* what the measuring thread measures for it */
} sweep_state;

void scene_sweep(scene *s); /* starts the sweep; again: hides its chart */

/* The smallest swept size from which on the GPU beat cpu-par at every
 * larger size too, or 0 when it did not. */
int scene_sweep_crossover(const scene *s);

#endif
