/* chain.h - the chain (X): a thousand dependent passes on a 4x4 image, each
 * started by the host and read back, on cpu-seq and on the GPU: where the
 * GPU loses. chain.c is the only writer of scene.chain. */
#ifndef CONVIS_CHAIN_H
#define CONVIS_CHAIN_H

#include "scene_types.h"

#define SCENE_CHAIN_LENGTH 1000

typedef struct chain_state {
    int length;   /* passes timed (0: never run) */
    double ms[2]; /* cpu-seq, GPU; < 0 not measured */
    /* the chain under way */
    int engine;       /* 0: cpu-seq, 1: the GPU */
    int pass;         /* passes done by it (-1: the warm-up next) */
    double engine_ms; /* its time so far */
    img_plane a, b;   /* the two 4x4 planes */
} chain_state;

void scene_chain(scene *s); /* starts the chain; again: hides its panel */

#endif
