/* geometry.h - the geometry view (`,` `.` `/`): stride, dilation and
 * padding as conv_arithmetic draws them, on a small piece of the image
 * taken as an image of its own (the input with its padding ring, the output
 * of the size that follows, one output's taps spaced out by the dilation,
 * in turn), and the whole image (at most GEOM_SIDE a side) convolved with
 * that geometry on cpu-seq, cpu-par and the GPU engine: each timed, each
 * output compared bit for bit with the reference. The rest of the window
 * keeps the plain geometry. geometry.c is the only writer of
 * scene.geometry. */
#ifndef CONVIS_GEOMETRY_H
#define CONVIS_GEOMETRY_H

#include "core/conv.h"
#include "scene_types.h"

#define GEOM_ENGINES 3     /* 0 cpu-seq, 1 cpu-par, 2 the GPU engine */
#define GEOM_SIDE 256      /* the image measured: the image, scaled down to this a side when larger */
#define GEOM_PIECE_MIN 7   /* the piece drawn: the window's extent and 4, in 7..15 a side */
#define GEOM_PIECE_MAX 15
#define GEOM_WINDOW_MAX 3  /* the keys step stride and dilation through 1..3 (the command line takes up to 8) */
#define GEOM_STEP_MS 700.0 /* the piece's walk: one output this long */
/* the piece's output: full padding adds the extent less one */
#define GEOM_PIECE_OUT (GEOM_PIECE_MAX + GEOM_PIECE_MAX - 1)

typedef struct geometry_state {
    int stride, dilation; /* 1..CONV_MAX_STRIDE, 1..CONV_MAX_DILATION */
    int padding;          /* a conv_padding */
    /* the piece: the image's top-left n x n pixels, and its output with
     * the scene's filter, border and this geometry (out_n x out_m, 0 when
     * no window fits); `at` the output the walk is on, for at_ms so far */
    int n, out_n, out_m;
    float piece[GEOM_PIECE_MAX * GEOM_PIECE_MAX];
    float piece_out[GEOM_PIECE_OUT * GEOM_PIECE_OUT];
    long at;
    double at_ms;
    /* the whole image: w x h in, out_w x out_h out; each engine's median
     * (< 0: not measured), its runs, its outputs that are not the
     * reference's bits (-1: not compared), or why it did not run */
    int w, h, out_w, out_h;
    double ms[GEOM_ENGINES];
    int reps[GEOM_ENGINES];
    long differ[GEOM_ENGINES];
    char why[GEOM_ENGINES][200];
    int next;      /* the engine the task measures next */
    bool stale;    /* the figures are for other settings: measured again while shown */
    img_plane ref; /* the reference's output of the whole image, for the comparisons */
} geometry_state;

/* The three keys: the next stride, dilation (1, 2, 3, 1 ...) or padding
 * (same, valid, full); each shows the view and measures again. */
void scene_next_stride(scene *s);
void scene_next_dilation(scene *s);
void scene_next_padding(scene *s);
/* The geometry from the command line (out of range: clamped), shown. */
void scene_set_geometry(scene *s, int stride, int dilation, int padding);

/* The parameters the geometry view uses: the scene's, with its geometry. */
conv_params scene_geometry_params(const scene *s);

/* The engine names of its table. */
const char *scene_geometry_engine(const scene *s, int k);

#endif
