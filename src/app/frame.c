#include "frame.h"

#include <stdio.h>

#include "compute/engine.h"
#include "core/timing.h"
#include "engine_host.h"
#include "render/render.h"
#include "render/text.h"

static bool buffer_ensure(void *user, unsigned *buffer, size_t bytes)
{
    (void)user;
    return rnd_buffer_ensure(buffer, bytes);
}

static void buffer_free(void *user, unsigned *buffer)
{
    (void)user;
    rnd_buffer_free(buffer);
}

static double window_now(void *user)
{
    const app_window *w = user;
    return w->clock_virtual ? w->clock_ms : tim_now_ms();
}

scene_host app_window_host(app_window *w)
{
    scene_host h = {app_host_open_engine, buffer_ensure, buffer_free, window_now, w};
    return h;
}

void app_frame(app_window *w, int *width, int *height)
{
    plat_drawable_size(w->win, width, height);
    if (w->record_text)
        rnd_text_record(true);
    view_draw(w->view, &w->app, *width, *height);
    if (w->record_text)
        rnd_text_record(false);
    app_note_shown(w);
}

void app_note_shown(app_window *w)
{
    int x, y, n, fit;
    view_grid_cells(w->view, &x, &y, &n, &fit);
    scene_note_fit(&w->app.s, fit);
}

void app_measure(app_window *w)
{
    int width, height;
    plat_drawable_size(w->win, &width, &height);
    view_measure(w->view, &w->app, width, height);
    app_note_shown(w);
}
