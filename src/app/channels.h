/* channels.h - the channels view (Shift+C): the image in colour, its
 * channels as planes of their own, and a layer of filters over them
 * (core/layer.h): the scene's filter on each channel (the photo in colour),
 * edges in four orientations, colour opponents, a blur per channel. It
 * shows one output as the sum over the channels of K² products each, the
 * layer's outputs as small pictures, the unrolled matrix (im2col) of a
 * piece with one input pixel lit in every place it was copied, and the
 * whole image (at most CHAN_SIDE a side) computed the three ways on
 * cpu-seq, cpu-par and the GPU engine: each timed, its extra memory
 * counted against the memory budget, each compared with the direct loop.
 * channels.c is the only writer of scene.channels. */
#ifndef CONVIS_CHANNELS_H
#define CONVIS_CHANNELS_H

#include "core/layer.h"
#include "scene_types.h"

#define CHAN_LAYERS 4      /* colour, edges, opponent, blur */
#define CHAN_ENGINES 3     /* 0 cpu-seq, 1 cpu-par, 2 the GPU engine */
#define CHAN_SIDE 256      /* the image computed: scaled down to this a side when larger */
#define CHAN_PIECE 5       /* the piece unrolled: 5x5 outputs, their windows 7x7 inputs */
#define CHAN_PIECE_IN (CHAN_PIECE + 2)
#define CHAN_COL_ROWS (3 * LAYER_MAX_K * LAYER_MAX_K) /* the piece's matrix: up to 3 channels of K x K taps ... */
#define CHAN_COL_COLS (CHAN_PIECE * CHAN_PIECE) /* ... for each of its outputs */

typedef struct channels_state {
    int layer;        /* 0 colour (the scene's filter on each channel), 1 edges, 2 opponent, 3 blur */
    layer_filters f;  /* it, for the image's channels (f.w NULL: none; why says why) */
    char why[256];    /* why there is no layer for this image ("opponent needs colour") */
    layer_tensor in;  /* the image's channels (3 colour, 1 grey), at most CHAN_SIDE a side */
    layer_tensor out; /* the layer's outputs, by the direct loop */
    /* the piece: inputs (px, py) .. + CHAN_PIECE_IN of the image scaled, its
     * outputs' windows unrolled (col_rows x CHAN_COL_COLS), the input pixel
     * lit (pick_x, pick_y, in the piece), and the output whose sum is shown */
    int px, py, col_rows;
    float col[CHAN_COL_ROWS * CHAN_COL_COLS];
    int pick_x, pick_y;
    /* each engine's each way (eng_layer_way): median ms (< 0: not
     * measured), runs, the unrolled matrix's bytes, outputs not the direct
     * loop's bits, past the tolerance, the largest difference, why not run */
    double ms[CHAN_ENGINES][ENG_LAYER_WAY_COUNT];
    int reps[CHAN_ENGINES][ENG_LAYER_WAY_COUNT];
    long long extra[CHAN_ENGINES][ENG_LAYER_WAY_COUNT];
    long differ[CHAN_ENGINES][ENG_LAYER_WAY_COUNT], over[CHAN_ENGINES][ENG_LAYER_WAY_COUNT];
    double max_diff[CHAN_ENGINES][ENG_LAYER_WAY_COUNT];
    double lo[CHAN_ENGINES][ENG_LAYER_WAY_COUNT], hi[CHAN_ENGINES][ENG_LAYER_WAY_COUNT]; /* the runs' spread */
    char cell_why[CHAN_ENGINES][ENG_LAYER_WAY_COUNT][160];
    unsigned long made; /* counts the layers and images made: what the view drew is for one */
    int next;   /* the cell the task measures next: engine * ways + way */
    bool stale; /* the figures are for other settings: measured again while shown */
} channels_state;

/* Shift+C: shows the view; shown, the next layer. */
void scene_next_layer(scene *s);
/* A click on the piece: input pixel (x, y) of it lit in the matrix. */
void scene_channel_pick(scene *s, int x, int y);

/* The layer's name, for people ("colour: box on each channel"), and the
 * engine names of its table. */
const char *scene_channels_engine(const scene *s, int k);

/* The lessons' words (channels.c), in the language in force:
 * {layer}: the layer shown ("edges: 3 channels in → 4 filters of 3×3×3, 27 products an output");
 * {layer_copies}: what the unrolled matrix copies and its memory;
 * {layer_ways}: each matrix product against direct, on cpu-par and the GPU engine (the one rule);
 * {layer_library}: the library's outputs against the direct loop's, on the engines it ran. */
void scene_channels_layer_text(const scene *s, char *buf, size_t size);
void scene_channels_copies_text(const scene *s, char *buf, size_t size);
void scene_channels_ways_text(const scene *s, char *buf, size_t size);
void scene_channels_library_text(const scene *s, char *buf, size_t size);

#endif
