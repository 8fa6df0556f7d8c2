/* filter_text.h - the filter's placeholders for the lessons (narration.c's
 * table lists them): the filter shown and its products an output, what one
 * block of the tiled strategies loads for it (counted by kernel_any.c, for
 * the GPU's block shape), and the filter sweep's growth (sweep.c's words). */
#ifndef CONVIS_FILTER_TEXT_H
#define CONVIS_FILTER_TEXT_H

#include <stddef.h>

#include "app.h"

void app_filter_name(const app *a, char *buf, size_t size);         /* {filter}: "Box blur, 7×7" */
void app_filter_taps(const app *a, char *buf, size_t size);         /* {taps}: products an output, "49" */
void app_tile_reuse(const app *a, char *buf, size_t size);          /* {tile_reuse}: the output tile, its halo, reads a cell */
void app_input_tile_idle(const app *a, char *buf, size_t size);     /* {input_tile_idle}: PMPP's input tile's idle threads */
void app_filter_sweep_growth(const app *a, char *buf, size_t size); /* {filter_sweep_growth} */
void app_filter_sweep_separable(const app *a, char *buf, size_t size); /* {filter_sweep_separable} */
void app_filter_sweep_roofline(const app *a, char *buf, size_t size);  /* {filter_sweep_roofline} */
/* the channels view's (channels.h): {layer}, {layer_copies}, {layer_ways}, {layer_library} */
void app_layer(const app *a, char *buf, size_t size);
void app_layer_copies(const app *a, char *buf, size_t size);
void app_layer_ways(const app *a, char *buf, size_t size);
void app_layer_library(const app *a, char *buf, size_t size);

#endif
