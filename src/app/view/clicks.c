/* clicks.c - the places to click, recorded while drawing: each panel adds
 * its rectangles, their actions and how a point inside gives the action's
 * argument as it draws them, so what a click means is read from what the
 * frame shows. The window's hit test and --print-state's targets read this
 * one list; where two places overlap, the one added last, drawn on top,
 * wins. */
#include "view_internal.h"

#include <math.h>

void vw_clicks_clear(view *v)
{
    v->click_count = 0;
}

void vw_click_add(view *v, vw_click c)
{
    if (v->click_count < VW_MAX_CLICKS && c.r.w > 0 && c.r.h > 0)
        v->clicks[v->click_count++] = c;
}

void vw_click_button(view *v, rect r, const app_action *action, int arg)
{
    vw_click_add(v, (vw_click){.r = r, .action = action, .arg = arg, .map = VW_MAP_NONE});
}

void vw_click_cover(view *v, rect r)
{
    vw_click_add(v, (vw_click){.r = r, .action = NULL, .map = VW_MAP_NONE});
}

/* What a point inside place c means: false when it means nothing (a cell
 * of a grid past the image's edge, the halo around a block's threads). */
static bool map_point(const vw_click *c, float x, float y, view_hit *hit)
{
    int cx, cy;
    hit->act = app_act_of(c->action);
    switch (c->map) {
    case VW_MAP_NONE:
        if (c->arg >= 0)
            hit->act.arg = c->arg;
        return true;
    case VW_MAP_CELL:
        cx = c->x0 + (int)floorf((x - c->r.x) / c->cell);
        cy = c->y0 + (int)floorf((y - c->r.y) / c->cell);
        if (cx < 0 || cy < 0 || cx >= c->cols || cy >= c->rows)
            return false;
        break;
    case VW_MAP_PIXEL:
        cx = (int)((x - c->r.x) / c->r.w * (float)c->cols);
        cy = (int)((y - c->r.y) / c->r.h * (float)c->rows);
        cx = cx < c->cols ? cx : c->cols - 1;
        cy = cy < c->rows ? cy : c->rows - 1;
        break;
    case VW_MAP_THREAD:
        cx = (int)((x - c->r.x) / c->cell) - 1; /* a ring of halo cells around the threads */
        cy = (int)((y - c->r.y) / c->cell) - 1;
        if (cx < 0 || cy < 0 || cx >= c->cols || cy >= c->rows)
            return false;
        hit->act.arg = cy * c->cols + cx;
        return true;
    case VW_MAP_TAP:
        cx = (int)floorf((x - c->r.x) / c->cell);
        cy = (int)floorf((y - c->r.y) / c->cell);
        if (cx < 0 || cy < 0 || cx >= c->cols || cy >= c->rows)
            return false;
        hit->act.arg = cy * c->cols + cx;
        return true;
    default: return false;
    }
    hit->act.x = hit->x = cx;
    hit->act.y = hit->y = cy;
    hit->hovers = c->hovers;
    return true;
}

view_hit view_hit_test(const view *v, int px, int py)
{
    view_hit none = {{NULL, 0, -1, -1, NULL}, false, false, -1, -1, 0};
    float x = (float)px, y = (float)py;
    for (int i = v->click_count - 1; i >= 0; --i) {
        const vw_click *c = &v->clicks[i];
        view_hit hit = none;
        if (!vw_inside(c->r, x, y))
            continue;
        if (!c->action || !map_point(c, x, y, &hit))
            return none; /* the topmost place here runs nothing */
        hit.pans = c->pans;
        hit.cell = c->cell;
        return hit;
    }
    return none;
}

/* Whether rectangle a lies wholly inside b. */
static bool within(rect a, rect b)
{
    return a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
}

int view_targets(const view *v, view_target *out, int max)
{
    int n = 0;
    for (int i = 0; i < v->click_count && n < max; ++i) {
        const vw_click *c = &v->clicks[i];
        bool covered = false;
        if (!c->action)
            continue;
        for (int j = i + 1; j < v->click_count && !covered; ++j)
            covered = within(c->r, v->clicks[j].r); /* a click there runs the later one */
        if (covered)
            continue;
        /* whole pixels inside the rectangle; the index only where the
         * place gives one of its own */
        out[n++] = (view_target){c->action->name,    c->map == VW_MAP_NONE && c->arg >= 0 ? c->arg : -1,
                                 (int)ceilf(c->r.x), (int)ceilf(c->r.y),
                                 (int)c->r.w - 1,    (int)c->r.h - 1};
    }
    return n;
}
