/* inside_gpu.h - Inside the GPU (O): one block of the tiled kernel in
 * stages (its tile loaded warp by warp, the barrier, the nine reads from
 * the tile), then the same without its barrier, simulated and run on the
 * GPU engine; with what both kernels ask of the memory, counted
 * (compute/kernel_walk.h). inside_gpu.c is the only writer of scene.inside. */
#ifndef CONVIS_INSIDE_GPU_H
#define CONVIS_INSIDE_GPU_H

#include "compute/kernel_walk.h"
#include "scene_types.h"

#define SCENE_RACE_RUNS 5          /* runs of the tiled kernel without its barrier on the GPU */
#define SCENE_BLOCK_LOAD_MS 2400.0 /* the load stage's animation */
#define SCENE_BLOCK_COMPUTE_MS 1500.0

typedef enum scene_block_stage {
    SCENE_BLOCK_LOAD,           /* each warp's loads into the tile, in the kernel's order */
    SCENE_BLOCK_BARRIER,        /* every thread waits until the last load is done */
    SCENE_BLOCK_COMPUTE,        /* each thread's nine reads of the tile and its one write */
    SCENE_BLOCK_NO_BARRIER,     /* the same without the barrier: a simulated schedule */
    SCENE_BLOCK_NO_BARRIER_GPU, /* ... run on the GPU engine, its results compared with the reference */
    SCENE_BLOCK_STAGES
} scene_block_stage;

typedef struct scene_inside {
    int stage;          /* a scene_block_stage */
    double stage_at;    /* clock: when the stage began (its animation) */
    int bx, by;         /* the block looked at */
    int thread;         /* the thread looked at in it, ty*bdx + tx */
    kw_race race;       /* the missing barrier, on this block shape */
    unsigned race_seed; /* the schedule simulated (another each time) */
    /* both kernels' traffic on the image, block shape and border shown
     * (counted when the view opens or what it depends on changes) */
    bool counted;
    kw_counts counts;
    /* the missing barrier on the GPU engine: runs of the tiled kernel
     * without it, each compared with the reference */
    int gpu_runs;                         /* made (0: none; see gpu_why) */
    long long gpu_wrong[SCENE_RACE_RUNS]; /* outputs that differ, run by run */
    unsigned char *gpu_heat;              /* w*h: in how many runs each output was wrong */
    int heat_w, heat_h;
    char gpu_why[512];            /* why it did not run */
    char gpu_label[64];           /* what ran it: "gl (software)", "cuda" */
    unsigned long gpu_generation; /* counts the sets of runs (the view's picture of them) */
} scene_inside;

/* O: opens the view on the block of the output looked at, at its load
 * stage; again: the next stage, then closed. */
void scene_block_life(scene *s);
void scene_next_block_warp(scene *s);        /* Shift+O: the next warp of the block looked at */
void scene_block_pick(scene *s, int thread); /* a click on a thread of the block */
/* How far the stage's animation is, 0..1 (1 when it has none). */
double scene_block_progress(const scene *s);
/* The load stage so far: the warp requests issued (iteration by iteration,
 * warp by warp, as the kernel's loop runs) of all of them, and the tile's
 * cells stored of all of them. */
void scene_block_loading(const scene *s, int *requests_done, int *requests, int *cells_done, int *cells);
/* Whether tile cell (col, row) is stored once `requests_done` requests have
 * been issued, and by which thread. */
bool scene_block_cell_stored(const scene *s, int col, int row, int requests_done, int *thread);
/* The runs without the barrier on the GPU engine: whether every run got
 * the same count of outputs wrong, and what they measured in a sentence
 * (the counts whole, and whether they changed from run to run). */
bool scene_race_same(const scene *s);
void scene_race_summary(const scene *s, char *buf, size_t size);
/* The load request of the warp looked at now: the last it has issued, or
 * its first while it has issued none (iteration * warps + warp). */
int scene_block_warp_request(const scene *s);
/* Whether tile cell (col, row) is one that `request` stores. */
bool scene_block_cell_in_request(const scene *s, int col, int row, int request);

#endif
