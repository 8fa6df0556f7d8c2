/* scene_region.c - the scene's core: the region of the image the grids show
 * (zoom, pan), and the output looked at (hovered, pinned, or the walk's). */
#include "scene_feature.h"

void scene_view_at(scene *s, int x, int y)
{
    int w = s->img.luma.w, h = s->img.luma.h, n = s->view_cells;
    s->view_x = x > w - n ? w - n : x;
    s->view_y = y > h - n ? h - n : y;
    if (s->view_x < 0)
        s->view_x = 0;
    if (s->view_y < 0)
        s->view_y = 0;
}

void scene_pan(scene *s, int dx, int dy)
{
    scene_view_at(s, s->view_x + dx, s->view_y + dy);
}

void scene_center_on(scene *s, int x, int y)
{
    scene_view_at(s, x - s->view_cells / 2, y - s->view_cells / 2);
}

void scene_note_fit(scene *s, int fit)
{
    s->view_fit = fit;
}

/* Zooms from what the window shows, where it said how many cells it has
 * room for with their values (view_fit): at the usual region or closer it
 * shows no more than that. Closer is fewer cells than shown; farther from a
 * region cut to what fits is past the usual region, to the picture, and
 * farther to a region that would not fit is the usual region (around the
 * window): every press changes what is seen, and + then - comes back. */
void scene_zoom(scene *s, int step)
{
    int cx = s->view_x + s->view_cells / 2, cy = s->view_y + s->view_cells / 2;
    static const int steps[] = {4, 6, 8, 12, 16, 20, 24, 32, 48, 64};
    int fit = s->view_fit;
    bool cut = fit > 0 && fit < s->view_cells && s->view_cells <= SCENE_DEFAULT_CELLS;
    int i = 0, n, cur = cut ? fit : s->view_cells;
    while (i < 9 && steps[i] < cur)
        ++i;
    if (step > 0)
        n = steps[i > 0 ? i - 1 : 0];
    else if (cut)
        n = steps[6]; /* past the usual region: the picture */
    else {
        n = steps[i < 9 && steps[i] == cur ? i + 1 : i];
        if (fit > 0 && n >= fit && n < SCENE_DEFAULT_CELLS)
            n = SCENE_DEFAULT_CELLS;
    }
    if (n < SCENE_MIN_CELLS)
        n = SCENE_MIN_CELLS;
    if (n > SCENE_MAX_CELLS)
        n = SCENE_MAX_CELLS;
    s->view_cells = n;
    scene_center_on(s, cx, cy);
}

void scene_hover(scene *s, bool over, int x, int y)
{
    if (s->pinned)
        return;
    s->hovering = over && x >= 0 && y >= 0 && x < s->img.luma.w && y < s->img.luma.h;
    s->hover_x = x;
    s->hover_y = y;
}

void scene_pin(scene *s)
{
    if (s->pinned)
        s->pinned = false;
    else if (s->hovering)
        s->pinned = true;
}

void scene_pin_at(scene *s, int x, int y)
{
    bool same = s->pinned && s->hover_x == x && s->hover_y == y;
    s->pinned = false;
    scene_hover(s, true, x, y);
    if (!same)
        scene_pin(s);
}

void scene_unpin(scene *s)
{
    s->pinned = false;
}

void scene_focus(const scene *s, int *x, int *y, bool *from_stepper)
{
    if (s->hovering || s->pinned) {
        *x = s->hover_x;
        *y = s->hover_y;
        *from_stepper = false;
    } else if (s->phase == SCENE_PHASE_CPU) {
        *x = conv_stepper_x(&s->walk.stepper);
        *y = conv_stepper_y(&s->walk.stepper);
        *from_stepper = true;
    } else { /* the GPU did them all: explain the first one in view */
        *x = s->view_x;
        *y = s->view_y;
        *from_stepper = false;
    }
}
