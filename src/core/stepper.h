/* stepper.h - the sequential convolution, one tap at a time, for the eye.
 *
 * The stepper walks the outputs in raster order and, inside each output, the
 * window's kw*kh taps in tap order (conv_pixel.h). At every moment it exposes
 * the current output, how many of its taps are done, the input values under
 * the window, the products so far and their running sum. It computes through
 * conv_product and conv_finish, so a full walk writes the reference result bit
 * for bit.
 *
 * The stepper does no timing: the animation is not the measurement. */
#ifndef CONVIS_STEPPER_H
#define CONVIS_STEPPER_H

#include <stdbool.h>

#include "conv.h"

typedef struct conv_stepper {
    const img_plane *in;
    img_plane *out; /* each output is written when its last tap is done */
    conv_params params;
    long total;       /* outputs in the image: w * h */
    long index;       /* the current output, raster order (y*w + x) */
    int count;                    /* taps of the window: params.kw * params.kh */
    int taps;                     /* taps of the current output done, 0..count */
    float value[CONV_MAX_TAPS];   /* input values under the window, tap order */
    float product[CONV_MAX_TAPS]; /* products of the taps done (0 for the others) */
    float sum;        /* running sum of the products done */
} conv_stepper;

/* The input value that tap t of a kw x kh window at output (x, y) reads:
 * the pixel (x + t%kw - kw/2, y + t/kw - kh/2) by the border rule. */
static inline float conv_window_fetch(const float *in, int w, int h, int x, int y, int t, int kw, int kh, int border)
{
    return conv_sample(in, w, h, x + t % kw - kw / 2, y + t / kw - kh / 2, border);
}

/* Starts at output 0 with no tap done. `out` has the size of `in`. */
void conv_stepper_init(conv_stepper *s, const img_plane *in, const conv_params *p, img_plane *out);

/* Does the next tap (moving to the next output first when the current one is
 * complete). Returns false, doing nothing, when every output is done. */
bool conv_stepper_tap(conv_stepper *s);

/* Completes the current output (or, when it is complete, the next one).
 * Returns false when every output was already done. */
bool conv_stepper_output(conv_stepper *s);

/* Goes back one output: the previous output becomes current with no tap done.
 * When the current output has taps done, it is the one restarted. Returns
 * false at the first output with no tap done. */
bool conv_stepper_back(conv_stepper *s);

/* Completes every remaining output. */
void conv_stepper_finish(conv_stepper *s);

/* Back to output 0, no tap done (outputs already written stay in `out`). */
void conv_stepper_restart(conv_stepper *s);

/* Outputs complete so far (0..total). */
long conv_stepper_done_count(const conv_stepper *s);
bool conv_stepper_done(const conv_stepper *s);

/* The current output's coordinates. */
int conv_stepper_x(const conv_stepper *s);
int conv_stepper_y(const conv_stepper *s);

#endif
