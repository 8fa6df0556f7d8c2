/* gpu_phase.h - the GPU phase: every output at once. The GPU engine and its
 * teaching switches (kernel, result path, block shape, memory budget), the
 * GL buffer it presents into, the device it reported, and the waves its
 * grid runs in. gpu_phase.c and gpu_memory.c are the only writers of
 * scene.gpu; a run under a budget the image does not fit goes tile by tile
 * (gpu_tiles.h, the same feature's third file). */
#ifndef CONVIS_GPU_PHASE_H
#define CONVIS_GPU_PHASE_H

#include "scene_types.h"

#define SCENE_GPU_PULSE_MS 700.0 /* the GPU result's outputs light up this long */
#define SCENE_WAVES_MS 1500.0    /* the waves of a run are shown one after another over this long at most */
#define SCENE_BLOCK_SHAPES 5     /* 16x16, 8x8, 32x8, 32x32, 24x24 */
#define SCENE_BUDGET_COUNT 6     /* off, 1, 4, 16, 64, 256 MiB */

typedef struct scene_gpu {
    scene_engine eng;  /* the best GPU engine here (cuda, else gl) and its last measurement */
    bool stale;        /* its figure (and, in the GPU phase, its result) is for other settings */
    eng_kernel kernel; /* tiled or naive */
    eng_result result; /* interop (into a GL buffer), one bulk copy, one copy per pixel */
    int block_shape;   /* index of the block shape (16x16, 8x8, 32x8, 32x32, 24x24) */
    /* Memory is finite: the device memory the learner lets the GPU have
     * ("pretend it has 1 MiB"; 0: all it has). An image whose two buffers
     * need more runs in tiles that fit (gpu_tiles.h). */
    long long budget;
    unsigned buffer; /* the GL buffer the GPU presents into (0: none yet) */
    size_t buffer_bytes;
    bool presented;         /* the GPU result on screen came through buffer */
    unsigned long runs;     /* counts the measured runs: a new result to show */
    eng_device_info device; /* read after each run */
    bool device_known;
    double shown_at; /* clock (ms) when the result appeared */
    /* The last run in one piece of this image, filter and engine, kept when
     * tiles run: what the tiles are compared with (lesson 6). */
    eng_timing whole;
    bool whole_known;
    int unfit_w, unfit_h; /* the image size last refused as too large for the device (0: none) */
} scene_gpu;

void scene_launch_gpu(scene *s);       /* every output at once */
void scene_next_gpu_kernel(scene *s);  /* tiled <-> naive */
void scene_next_gpu_result(scene *s);  /* interop -> bulk copy -> copy per pixel */
void scene_next_gpu_engine(scene *s);  /* cuda <-> gl, where both run */
void scene_next_block_shape(scene *s); /* J: 16x16 -> 8x8 -> 32x8 -> 32x32 -> 24x24 */
/* The next memory budget: off -> 1 MiB -> 4 -> 16 -> 64 -> 256 MiB -> off;
 * or a budget of `bytes` (0: off). The notice says what it means for the
 * image; a GPU result shown is made again under it. */
void scene_next_budget(scene *s);
void scene_set_budget(scene *s, long long bytes);

/* The block shape in use (bdx x bdy). */
void scene_block_dims(const scene *s, int *bdx, int *bdy);
/* The GPU engine's block size from its last run (16x16 before any), and
 * its grid: blocks across and down (before any run: blocks over the image). */
void scene_block_size(const scene *s, int *bx, int *by);
void scene_gpu_grid(const scene *s, long *gx, long *gy, int *bx, int *by);

/* The waves the grid runs in: its blocks over the units (SMs) times the
 * blocks one unit holds at once, as the engine reports them (CUDA's
 * occupancy calculator); 0 where that is not known (drawn all at once).
 * *per_wave: the blocks of a wave. */
int scene_gpu_waves(const scene *s, long *per_wave);
/* When output (x, y) lights up after the result appears, in ms: its
 * block's wave times the time a wave is given (the schedule's shape, not a
 * recording of the hardware's order). */
double scene_gpu_light_at(const scene *s, int x, int y);

long long scene_budget_at(int i);            /* bytes of budget i (0: off) */
long long scene_image_bytes(const scene *s); /* on the device: two buffers of 4 bytes a pixel */
/* The most pixels the GPU engine can convolve (8 bytes each on the device),
 * from its free memory and buffer limit; -1 when neither is known yet. */
long long scene_gpu_max_pixels(const scene *s);
/* That limit in words: a count of pixels, in any shape, with a 4:3 photo
 * of the most whole 4x3 steps that fit as an example ("33,554,432 pixels
 * (for example a 4:3 photo of 6,688×5,016)"); false while it is not known. */
bool scene_gpu_largest_text(const scene *s, char *buf, size_t size);
/* Whether this image fits the GPU in one piece, as its device says now:
 * its one buffer within the driver's limit, the input's and output's
 * within the memory free; false with the sentence, its sizes in full
 * ("a 6689×5017 image needs 134,234,852 bytes (128 MiB) in one buffer;
 * llvmpipe allows 134,217,728 bytes (128 MiB)") in `why`. True where the
 * device says neither. */
bool scene_gpu_fits(const scene *s, char *why, size_t size);
/* The GPU's run of this image was refused because it does not fit, and
 * has not run since. */
bool scene_gpu_unfit(const scene *s);
/* The bytes tiles are planned for: the budget, or what the device can hold
 * when that is less; and whether the GPU phase runs in tiles. */
long long scene_tile_budget(const scene *s);
bool scene_needs_tiles(const scene *s);

/* The pixels of the image too-big would open: just over what the GPU can
 * hold, of the image's own aspect; 0 when that is over convis's own limit; the limit itself while
 * the GPU has not run. scene_too_big opens it. */
long long scene_too_big_pixels(const scene *s);
void scene_too_big(scene *s);

/* For the features that run the GPU engine: its switches for a run on
 * result path r (the block shape in use, the barrier on); and a figure made
 * again if one was shown (a run left other switches). */
void scene_gpu_options(scene *s, eng_result r);
void scene_gpu_restale(scene *s);

/* For gpu_tiles.c, the phase's second file: a result emptied to be made
 * again tile by tile (the GL buffer and what the engine held for the
 * whole image go); a tile landed; all of them done with their phases
 * added up; a run that failed (`why`, and the banner's sentence). */
void scene_gpu_tiles_began(scene *s);
void scene_gpu_tile_landed(scene *s);
void scene_gpu_took(scene *s, const eng_timing *t);
void scene_gpu_failed(scene *s, const char *why, const char *banner);

#endif
