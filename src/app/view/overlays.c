/* overlays.c - what covers the frame: the lesson menu, the help (made from
 * the action table), the notice, the progress of long work. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../action_table.h"

/* The menu of lessons, over everything, one row each. */
void vw_draw_menu(view *v, const app *a)
{
    const layout *L = &v->L;
    float x = 2 * L->pad, y = L->pad;
    rnd_text_layer(); /* over the frame */
    rnd_rect(0, 0, L->W, L->H, (rnd_color){0.05f, 0.05f, 0.07f, 0.97f});
    vw_click_cover(v, (rect){0, 0, L->W, L->H}); /* what it lies over takes no clicks */
    rnd_text(v->big, _("Lessons (L or Esc closes this)"), x, y, TEXT);
    y += vw_lh(v->big) + L->pad;
    if (a->lesson_count == 0)
        rnd_text(v->font, _("No lessons found in the lessons folder for this language."), x, y, DIM);
    for (int i = 0; i < a->lesson_count; ++i) {
        char num[8];
        rect row = {x - 0.5f * L->pad, y - 0.2f * L->pad, L->W - 3 * L->pad, L->line * 1.4f};
        if (app_in_lesson(a) && strcmp(a->lesson_path, a->lessons[i].path) == 0)
            rnd_rect(row.x, row.y, row.w, row.h, PANEL);
        vw_click_button(v, row, app_action_of(ACT_PICK_LESSON), i); /* a click starts it */
        snprintf(num, sizeof num, "%d", i + 1);
        rnd_text(v->font, num, x, y, WINDOW);
        vw_text_fit(v, v->font, a->lessons[i].title, x + 3 * L->pad, y, L->W - 6 * L->pad, TEXT);
        y += L->line * 1.4f;
    }
}

/* The help's text, as much as fits: two columns of every key and what it
 * does, then a paragraph on the mouse; in a smaller font where the window
 * is short for the text size, so that nothing runs off the window. */
void vw_draw_help(view *v)
{
    const layout *L = &v->L;
    static const char mouse[] = N_("Mouse: hover an output to see its 3×3 inputs and arithmetic; click to pin it. "
                                   "Drag a grid or click a thumbnail to move; the wheel zooms. Click a kernel cell and "
                                   "type a number (Enter applies, Tab moves on). Click a filter's name to choose it. "
                                   "Drop an image file on the window to open it.");
    float x = 2 * L->pad, y, col_w = (L->W - 4 * L->pad) / 2, key_w = 0, top, row;
    size_t n = app_action_count(), shown = 0, half;
    rnd_font *f = v->font, *small = v->small;
    rnd_text_layer(); /* over the frame */

    rnd_rect(0, 0, L->W, L->H, (rnd_color){0.05f, 0.05f, 0.07f, 0.97f});
    vw_click_cover(v, (rect){0, 0, L->W, L->H}); /* what it lies over takes no clicks */
    rnd_text(v->big, _("Every key (F1, ? or Esc closes this)"), x, L->pad, TEXT);
    for (size_t i = 0; i < n; ++i)
        shown += app_action_at(i)->help != NULL;
    half = (shown + 1) / 2;
    top = L->pad * 2 + vw_lh(v->big);
    /* the window's font, or one smaller in proportion to what does not fit
     * (a few tries at most: each opens two font sizes) */
    {
        int px = rnd_font_line_height(v->font) * 100 / 130;
        for (int tries = 0;; ++tries) {
            float need;
            f = view_font_px(v, px);
            small = view_font_px(v, px * 82 / 100);
            row = vw_lh(f) * 1.15f;
            need = top + (float)half * row + L->pad +
                   rnd_text_wrapped(small, _(mouse), 0, 0, L->W - 4 * L->pad, DIM, false) + L->pad;
            if (need <= L->H || px <= 8 || tries == 4)
                break;
            px = (int)((float)px * (L->H - top) / (need - top) * 0.97f);
        }
    }
    key_w = 0;
    for (size_t i = 0; i < n; ++i)
        if (app_action_at(i)->help)
            key_w = fmaxf(key_w, vw_text_w(f, _(app_action_at(i)->keys)) + 1.5f * L->pad);
    y = top;
    shown = 0;
    for (size_t i = 0; i < n; ++i) {
        const app_action *a = app_action_at(i);
        float cx;
        if (!a->help)
            continue;
        cx = x + (shown >= half ? col_w : 0);
        if (shown == half)
            y = top;
        rnd_text(f, _(a->keys), cx, y, WINDOW); /* key names as printed; words ("click") translated */
        vw_text_fit(v, f, _(a->help), cx + key_w, y, col_w - key_w - L->pad, TEXT);
        y += row;
        ++shown;
    }
    y = top + (float)half * row + L->pad;
    rnd_text_wrapped(small, _(mouse), x, y, L->W - 4 * L->pad, DIM, true);
}

/* A notice, for a few seconds after what it answers: under the title and
 * the banner, in a place the layout makes for it (L->notice), pushing the
 * chips and the grids down meanwhile; the width of the window, wrapped,
 * whole (cut to a line, its whole text under the pointer, where the window
 * is too short: L->top_cut): never over the banner, a control, the grids,
 * the chart, nor the lesson's narration, which the step may be reading. */
float vw_notice_height(view *v, const scene *s)
{
    const layout *L = &v->L;
    if (!s->notice[0] || scene_now(s) - s->notice_at >= SCENE_NOTICE_MS)
        return 0;
    if (L->top_cut)
        return vw_lh(v->small) + 0.6f * L->pad;
    return rnd_text_wrapped(v->small, s->notice, 0, 0, L->W - 4 * L->pad, TEXT, false) + 0.6f * L->pad;
}

void vw_draw_notice(view *v, const scene *s)
{
    const layout *L = &v->L;
    float w = L->notice.w, th = L->notice.h, y = L->notice.y;
    int role;
    if (th <= 0 || !s->notice[0])
        return;
    rnd_rect(L->notice.x, y, w, th, (rnd_color){0.20f, 0.22f, 0.28f, 1});
    rnd_frame(L->notice.x, y, w, th, 1, WINDOW);
    role = rnd_text_role(VIEW_TEXT_NOTICE);
    if (L->top_cut) /* the window too short for it whole: its whole text under the pointer */
        vw_text_fit(v, v->small, s->notice, 2 * L->pad, y + 0.3f * L->pad, w - 2 * L->pad, TEXT);
    else
        rnd_text_wrapped(v->small, s->notice, 2 * L->pad, y + 0.3f * L->pad, w - 2 * L->pad, TEXT, true);
    rnd_text_role(role);
}

/* Long work under way: what it is, a bar of how far it is, and how to stop
 * it, over the chart where its result will show. */
void vw_draw_progress(view *v, const scene *s)
{
    const layout *L = &v->L;
    const char *what = s->task.busy == SCENE_FEATURE_SWEEP          ? _("Size sweep")
                       : s->task.busy == SCENE_FEATURE_FILTER_SWEEP ? _("Filter sweep")
                       : s->task.busy == SCENE_FEATURE_CHAIN ? _("Chain of dependent passes")
                                                             : _("GPU in tiles");
    char buf[160];
    int done, total;
    float x = L->chart.x + 0.5f * L->pad, w = L->chart.w - L->pad, y = L->chart.y + L->chart.h - 2.6f * vw_lh(v->small);
    if (!scene_busy(s))
        return;
    rnd_text_layer(); /* over the chart */
    scene_progress(s, &done, &total);
    snprintf(buf, sizeof buf,
             s->task.busy == SCENE_FEATURE_TILES ? _("%s: measuring, %d of %d tiles \xC2\xB7 Esc stops it")
                                                 : _("%s: measuring, %d of %d runs \xC2\xB7 Esc stops it"),
             what, done, total);
    rnd_rect(L->chart.x, y - 0.3f * L->pad, L->chart.w, L->chart.y + L->chart.h - y + 0.3f * L->pad, PANEL);
    vw_text_fit(v, v->small, buf, x, y, w, TEXT);
    y += vw_lh(v->small) + 0.2f * L->pad;
    rnd_frame(x, y, w, 0.8f * vw_lh(v->small), 1, WINDOW);
    if (total > 0)
        rnd_rect(x + 2, y + 2, (w - 4) * (float)done / (float)total, 0.8f * vw_lh(v->small) - 4, WINDOW);
}
