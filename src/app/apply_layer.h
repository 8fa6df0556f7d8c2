/* apply_layer.h - apply's colour and layer paths (apply_layer.c). */
#ifndef CONVIS_APPLY_LAYER_H
#define CONVIS_APPLY_LAYER_H

#include <stdbool.h>

#include "settings.h"
#include "compute/engine.h"
#include "core/layer.h"

/* --color: each of the tensor's channels (1 or 3) through engine e, `reps`
 * runs each, into out[c] (the output's size); false with err_msg. */
bool app_apply_colour(eng_engine *e, const layer_tensor *in, const conv_params *p, int reps, img_plane out[3],
                      eng_timing timing[3]);
/* Its line: each channel's time, or that the image is grey. */
void app_print_colour(const layer_tensor *in, const eng_timing timing[3]);

typedef struct app_layer_request {
    const app_options *opt; /* border, geometry, display, limits */
    const char *input, *output, *spec, *engine;
    eng_layer_way way;
    eng_layer_math math;
    int reps;
} app_layer_request;

/* apply --layer: loads the image (its colours when it has them) and the
 * layer, computes it, writes OUT-0 ... and says what it measured and how
 * it compares with the direct loop. An exit status (APP_EXIT_*). */
int app_apply_layer(const app_layer_request *r);

#endif
