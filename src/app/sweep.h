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

/* The GPU's time against one plain core's (cpu-seq) from 64x64 up, where a
 * launch no longer hides the work ({sweep_gpu_vs_seq}): "from 64×64 up it
 * took 1.1× to 3.4× one plain core's time", or faster, or both. */
void scene_sweep_gpu_vs_seq(const scene *s, char *buf, size_t size);

/* Whether the GPU beat cpu-par at any swept size. */
bool scene_sweep_gpu_ever_ahead(const scene *s);

#endif
