/* scene_internal.h - what scene.c and scene_work.c share, and only they. */
#ifndef CONVIS_SCENE_INTERNAL_H
#define CONVIS_SCENE_INTERNAL_H

#include "scene.h"

#define TIMING_BUDGET_MS 150.0   /* time spent measuring one engine after a change */
#define SWEEP_BUDGET_MS 60.0     /* ... and one engine at one size of the sweep */
#define PER_PIXEL_BUDGET_MS 60.0 /* copies one pixel at a time for this long, then extrapolates */

/* What a job of the measuring thread is for (worker_result.tag). */
enum { TAG_SEQ = 0, TAG_PAR = 1, TAG_SIMD = 2, TAG_SWEEP = 100 /* + size * 3 + engine */ };

/* The convolution's parameters from the settings. */
conv_params scene_params(const scene *s);

/* The filter, border or image changed: the walk starts again, measurements
 * and experiments under way stop, the figures are stale. */
void scene_settings_changed(scene *s);

/* The result path goes back to one this GPU engine has. */
void scene_clamp_gpu_result(scene *s);

/* Lets go of the GL buffer (the engine first). */
void scene_free_buffer(scene *s);

/* Runs and measures the GPU engine on the image shown, on the result path
 * chosen; on failure the banner says why and the CPU phase stays. */
bool scene_measure_gpu(scene *s);

/* A GPU run succeeded: a banner about a GPU failure goes. */
void scene_gpu_succeeded(scene *s);

/* Starts long work of `kind` (what was under way stops first). */
void scene_task_start(scene *s, scene_task_kind kind, int total);

/* Sets the GPU engine's teaching switches for a run with result path r. */
void scene_gpu_options(scene *s, eng_result r);

/* scene_tiles.c: the GPU phase in tiles under the memory budget. Starts
 * it (false with the banner when no plan fits), and runs the next tile
 * (false when it waits for its turn on screen: tiles are paced so the
 * eye can follow them; scene_settle does not wait). */
bool scene_tiles_start(scene *s);
bool scene_tiles_slice(scene *s);
void scene_tiles_end(scene *s);     /* forgets the tiles (their scratch too) */
/* Tiles under way stop and go with the GPU phase (Esc, other long work): no
 * half result stays on screen. */
void scene_tiles_abort(scene *s);
/* Tiles under way, or shown, are for old settings: none counts as done
 * until they run again (the caller makes the GPU result stale). */
void scene_tiles_interrupt(scene *s);

/* Ends the long work under way (a sweep's size on the measuring thread is
 * dropped). */
void scene_task_end(scene *s);

#endif
