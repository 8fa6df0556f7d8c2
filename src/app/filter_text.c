/* filter_text.c - the filter's placeholders (filter_text.h). */
#include "filter_text.h"

#include <stdio.h>

#include "compute/kernel_any.h"
#include "core/err.h"
#include "format.h"
#include "i18n.h"
#include "scene.h"

void app_filter_name(const app *a, char *buf, size_t size)
{
    const filt_kernel *k = &a->s.opt.kernel;
    snprintf(buf, size, _("%s, %d\xC3\x97%d"), _(filt_kind_title(k)), k->kw, k->kh);
}

void app_filter_taps(const app *a, char *buf, size_t size)
{
    fmt_count((long long)a->s.opt.kernel.kw * a->s.opt.kernel.kh, buf, size);
}

/* One interior block of the GPU's block shape counted for the filter shown;
 * false with the reason in buf. */
static bool count_block(const app *a, kwa_block *b, char *buf, size_t size)
{
    int bx, by;
    scene_block_size(&a->s, &bx, &by);
    if (kwa_count(a->s.opt.kernel.kw, a->s.opt.kernel.kh, bx, by, b))
        return true;
    snprintf(buf, size, "(%s)", err_msg());
    return false;
}

void app_tile_reuse(const app *a, char *buf, size_t size)
{
    kwa_block b;
    char reads[32];
    if (!count_block(a, &b, buf, size))
        return;
    fmt_count(b.reads, reads, sizeof reads);
    snprintf(buf, size,
             _("a %d\xC3\x97%d block loads a %d\xC3\x97%d tile, %d cells of it halo (%.0f%%); its %d outputs read %s "
               "taps from it: %.1f reads a cell loaded (counted)"),
             b.bdx, b.bdy, b.tile_w, b.tile_h, b.halo_cells, 100.0 * b.halo_cells / b.tile_cells, b.bdx * b.bdy, reads,
             kwa_tile_efficiency(&b));
}

void app_input_tile_idle(const app *a, char *buf, size_t size)
{
    kwa_block b;
    if (!count_block(a, &b, buf, size))
        return;
    snprintf(buf, size,
             _("an input tile of %d\xC3\x97%d threads computes %d outputs; %d of its %d threads (%.0f%%) load a cell "
               "and then idle (counted)"),
             b.bdx, b.bdy, b.input_outputs, b.input_idle, b.threads, 100.0 * b.input_idle / b.threads);
}

void app_filter_sweep_growth(const app *a, char *buf, size_t size)
{
    scene_filter_sweep_growth(&a->s, buf, size);
}

void app_filter_sweep_roofline(const app *a, char *buf, size_t size)
{
    scene_filter_sweep_roofline(&a->s, buf, size);
}

void app_filter_sweep_separable(const app *a, char *buf, size_t size)
{
    scene_filter_sweep_separable(&a->s, buf, size);
}

void app_layer(const app *a, char *buf, size_t size)
{
    scene_channels_layer_text(&a->s, buf, size);
}

void app_layer_copies(const app *a, char *buf, size_t size)
{
    scene_channels_copies_text(&a->s, buf, size);
}

void app_layer_ways(const app *a, char *buf, size_t size)
{
    scene_channels_ways_text(&a->s, buf, size);
}

void app_layer_library(const app *a, char *buf, size_t size)
{
    scene_channels_library_text(&a->s, buf, size);
}
