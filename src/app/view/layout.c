/* layout.c - where everything goes in a w x h window at the text size
 * chosen: the rules (one table of named proportions), then the layout made
 * from them top to bottom, the title and chips, the grids, the middle
 * column beside them, and under them the status, the buttons and the
 * chart. */
#include "view_internal.h"

#include "../narration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout's rules. The padding (pad) and the text follow the window's
 * height; lengths below are in pads, in lines of the small font (small
 * lines) or of the normal one (lines), unless they say otherwise. */
static const struct layout_rules {
    /* text and padding */
    float design_h;         /* the height the rules are made at: u = H / design_h */
    float text_px;          /* the normal text at u = 1 and 100%, in pixels */
    float text_min_u;       /* the text follows the window's height down to this u, no further */
    int small_pct, big_pct; /* the small font and the title's, in percent of the normal one */
    float pad_px;           /* the padding at u = 1, in pixels */
    float grid_share;       /* of the height, the grids' at least, or the text is made smaller */
    /* what a room reads: in presenter mode the text follows the window's
     * height alone, and no text is smaller than room_share of it */
    float presenter_share; /* presenter mode's normal text, of the height */
    float room_share;      /* the least text (and grid digits) in presenter mode, of the height */
    int readable_px;       /* the least digits a grid shows otherwise, in pixels */
    /* the values in the grids' cells */
    const char *widest;  /* the widest value a cell is made to hold at its digits' size */
    float value_w_share; /* a value's text at most this share of its cell's width */
    float value_h_share; /* its digits' size at most this share of the cell's height */
    /* the top: the title, the banner, the chips */
    float banner_pad;   /* under the banner's text */
    float chip_h;       /* a chip's height beyond a small line */
    float chip_row;     /* a row of chips, beyond a small line */
    float chip_words;   /* a filter chip's width beyond its words */
    float option_words; /* the border, flip and display chips' width beyond their words */
    float chip_gap;     /* between two chips */
    float caption_pad;  /* the grids' captions above them: a small line, this, */
    float caption_px;   /* ... and this many pixels */
    /* the grids */
    int ring;           /* cells the input grid shows beyond the output's on each side */
    float grid_w_share; /* each grid's side at most this share of the width ... */
    float side_pads;    /* ... less this many pads (the margins and the gaps) */
    float grid_min_px;  /* each grid's side at least, in pixels */
    /* the middle column, between the grids */
    float middle_gap;       /* between it and either grid */
    float middle_up;        /* it starts a small line and this above the grids (the kernel's label) */
    float kernel_label;     /* under the kernel's label */
    float kernel_cols;      /* a kernel cell at most the column's width over this */
    float kernel_below;     /* under the kernel's cells */
    float kernel_thumbs;    /* a kernel cell, in small lines, at least this with the thumbnails */
    float middle_spare;     /* in pads, with the label, the cells at a small line and the
                             * arithmetic: the room the column needs, or the text is made smaller */
    int arith_lines;        /* the arithmetic: a line, and small lines, */
    int arith_thread_lines; /* ... in thread view, */
    float arith_pad;        /* ... and this */
    float thumb_share;      /* a thumbnail's height at most this share of the grids', */
    float thumb_aspect;     /* ... and of half the column's width at this height over width */
    float thumb_gap;        /* each thumbnail's half of the gap between them */
    /* the bottom: the status, the buttons, the chart */
    int status_lines;   /* above the buttons: the status line, then small lines, */
    int lesson_lines;   /* ... in a lesson's panel */
    float status_pad;   /* the block's padding beyond its lines and the buttons' row */
    float chart_lines;  /* the chart's height at least: small lines, */
    float chart_pad;    /* ... and this */
    float status_share; /* of the width, the status block's */
    float chart_x;      /* the chart starts at this share of the width, to the right margin */
    float button_words; /* a button's width beyond its words */
    float button_pad;   /* above the buttons, and their height beyond a small line */
} R = {
    .design_h = 720.0f,
    .text_px = 17.0f,
    .text_min_u = 0.75f,
    .small_pct = 82,
    .big_pct = 135,
    .pad_px = 10.0f,
    .grid_share = 0.33f,
    .presenter_share = 0.029f,
    .room_share = 0.022f,
    .readable_px = 11,
    .widest = "-888",
    .value_w_share = 0.84f,
    .value_h_share = 0.5f,
    .banner_pad = 0.6f,
    .chip_h = 0.5f,
    .chip_row = 0.8f,
    .chip_words = 1.4f,
    .option_words = 1.0f,
    .chip_gap = 0.5f,
    .caption_pad = 0.6f,
    .caption_px = 3.0f,
    .ring = 1,
    .grid_w_share = 0.36f,
    .side_pads = 4.0f,
    .grid_min_px = 40.0f,
    .middle_gap = 1.5f,
    .middle_up = 0.2f,
    .kernel_label = 0.3f,
    .kernel_cols = 5.0f,
    .kernel_below = 0.6f,
    .kernel_thumbs = 1.6f,
    .middle_spare = 0.9f,
    .arith_lines = 5,
    .arith_thread_lines = 7,
    .arith_pad = 0.6f,
    .thumb_share = 0.30f,
    .thumb_aspect = 0.75f,
    .thumb_gap = 0.5f,
    .status_lines = 5,
    .lesson_lines = 7,
    .status_pad = 2.2f,
    .chart_lines = 10.2f,
    .chart_pad = 1.5f,
    .status_share = 0.48f,
    .chart_x = 0.50f,
    .button_words = 1.5f,
    .button_pad = 0.6f,
};

void vw_banner_text(const scene *s, char *buf, size_t size)
{
    snprintf(buf, size, _("⚠  %s   (Esc closes this)"), s->banner);
}

/* The normal text's pixels at scale u of the window and text size ts. */
static int text_px(float u, float ts)
{
    return (int)(R.text_px * (u < R.text_min_u ? R.text_min_u : u) * ts + 0.5f);
}

/* The least text a room reads in a window H pixels high, in pixels. */
static int room_px(int H)
{
    return (int)ceilf(R.room_share * (float)H);
}

/* The three fonts for normal text of `base` pixels, and the padding; in
 * presenter mode the small font no smaller than a room reads. */
static void set_text(view *v, int base, int W, int H, float u, bool presenter)
{
    layout *L = &v->L;
    int small = base * R.small_pct / 100;
    if (presenter && small < room_px(H))
        small = room_px(H);
    v->font = view_font_px(v, base);
    v->small = view_font_px(v, small);
    v->big = view_font_px(v, base * R.big_pct / 100);
    L->W = (float)W;
    L->H = (float)H;
    L->u = u;
    L->pad = R.pad_px * u;
    L->line = vw_lh(v->font);
    L->presenter = presenter;
    L->least_px = presenter ? room_px(H) : R.readable_px;
}

/* Border, flip and display: right-aligned on the chips' last row when they
 * fit after the filters (which end at x), else on a row of their own; each
 * as wide as its longest words in the language shown. Returns their row. */
static float place_options(view *v, float x, float cy, float row, float ch, float gap)
{
    layout *L = &v->L;
    char border_w[64];
    float bw = 0, fw, dw, cw;
    for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
        snprintf(border_w, sizeof border_w, vw_T(v, "border: %s"), C_("border", conv_border_name((conv_border)b)));
        bw = fmaxf(bw, vw_text_w(v->small, border_w));
    }
    fw = fmaxf(vw_text_w(v->small, vw_T(v, "true convolution")), vw_text_w(v->small, vw_T(v, "cross-correlation")));
    dw = vw_text_w(v->small, vw_T(v, "display: signed (0 = grey)"));
    if (x + (bw + fw + dw + 3 * (R.option_words * L->pad) + 2 * gap) > L->W - L->pad)
        cy += row;
    cw = dw + R.option_words * L->pad;
    L->display = (rect){L->W - L->pad - cw, cy, cw, ch};
    cw = fw + R.option_words * L->pad;
    L->flip = (rect){L->display.x - gap - cw, cy, cw, ch};
    cw = bw + R.option_words * L->pad;
    L->border = (rect){L->flip.x - gap - cw, cy, cw, ch};
    return cy;
}

/* The title, the banner and the notice (when there are), and the chips; returns the
 * grids' top, under their captions. */
static float place_top(view *v, const scene *s)
{
    layout *L = &v->L;
    float ls = vw_lh(v->small), x = L->pad, cy, gap = R.chip_gap * L->pad, ch = ls + R.chip_h * L->pad;
    float row = ls + R.chip_row * L->pad;

    L->title = (rect){0, 0, L->W, vw_lh(v->big) + L->pad};
    /* an error banner, when there is one, sits under the title and pushes
     * everything below it down: it never covers what it talks about */
    L->banner = (rect){0, L->title.h, L->W, 0};
    if (s->banner[0]) {
        char text[640];
        vw_banner_text(s, text, sizeof text);
        L->banner.h =
            (L->top_cut ? vw_lh(v->font) : rnd_text_wrapped(v->font, text, 0, 0, L->W - 2 * L->pad, TEXT, false)) +
            R.banner_pad * L->pad;
    }
    /* a notice, while it shows, has its own place under the banner and
     * pushes the chips down: it covers neither the banner nor a control */
    L->notice = (rect){L->pad, L->banner.y + L->banner.h, L->W - 2 * L->pad, vw_notice_height(v, s)};
    L->chips = (rect){L->pad, L->notice.y + L->notice.h, L->W - 2 * L->pad, row};
    if (L->presenter) { /* decoration gives way: the kernel's label names the filter */
        memset(L->preset, 0, sizeof L->preset);
        L->border = L->flip = L->display = (rect){0, 0, 0, 0};
        L->chips.h = 0;
        return L->chips.y + ls + R.caption_pad * L->pad + R.caption_px;
    }
    /* the filters' chips flow left to right onto as many rows as they need */
    cy = L->chips.y;
    for (int i = 0; i < 9; ++i) {
        char label[48];
        float cw;
        vw_preset_label(i, label, sizeof label);
        cw = vw_text_w(v->small, label) + L->pad * R.chip_words;
        if (x > L->pad && x + cw > L->W - L->pad)
            x = L->pad, cy += row;
        L->preset[i] = (rect){x, cy, cw, ch};
        x += cw + gap;
    }
    cy = place_options(v, x, cy, row, ch, gap);
    L->chips.h = cy + row - L->chips.y;
    return L->chips.y + L->chips.h + ls + R.caption_pad * L->pad + R.caption_px;
}

/* The arithmetic's height: its lines, more in thread view. */
static float arith_height(const view *v, const scene *s)
{
    return (float)(s->thread_view ? R.arith_thread_lines : R.arith_lines) * vw_lh(v->small) + v->L.line +
           R.arith_pad * v->L.pad;
}

/* The lines of the status block above the buttons, in small lines: the
 * status's, or in a lesson the narration's at the small font (as many as
 * it wraps into, at least the panel's usual) and the hint's. */
static float status_lines(view *v, const app *a)
{
    char text[4096];
    float ls = vw_lh(v->small), need;
    if (!app_in_lesson(a))
        return (float)R.status_lines;
    app_narration(a, text, sizeof text);
    need = rnd_text_wrapped(v->small, text, 0, 0, v->L.W * R.status_share, TEXT, false) / ls + 1;
    return fmaxf((float)R.lesson_lines, ceilf(need));
}

/* The height under the grids: the status block (a status line, its small
 * lines, the buttons' row) or, when taller, the chart beside it (its title,
 * four bars, the memory row, two lines of verdicts and the legend). */
static float bottom_height(view *v, const app *a)
{
    layout *L = &v->L;
    float status;
    L->status_rows = status_lines(v, a);
    status = L->line + (L->status_rows + 1) * vw_lh(v->small) + R.status_pad * L->pad;
    return fmaxf(fmaxf(status, R.chart_lines * vw_lh(v->small) + R.chart_pad * L->pad),
                 vw_chart_height(v, a, L->W * (1.0f - R.chart_x) - L->pad));
}

/* The grids' side and top, and the height under them, at the text size
 * asked for (Z) as far as the window has room for it: the grids keep at
 * least R.grid_share of the height and the middle column the room it needs,
 * else the text is made smaller by Z's own steps (never under 100%), and
 * at 100% the banner and the notice are cut to a line each, so nothing
 * overlaps. */
static float fit_text(view *v, const app *a, int W, int H, float *top, float *bottom_h)
{
    const scene *s = &a->s;
    layout *L = &v->L;
    float u = (float)H / R.design_h, ts = a->presenter ? 1.0f : (float)a->text_scale / 100.0f, grid, ls, middle_need;
    L->top_cut = false;
    for (;;) {
        set_text(v, a->presenter ? (int)(R.presenter_share * (float)H + 0.5f) : text_px(u, ts), W, H, u, a->presenter);
        *top = place_top(v, s);
        *bottom_h = bottom_height(v, a);
        grid = L->H - *top - *bottom_h - L->pad;
        /* the middle column beside the grids must hold the kernel's label,
         * its cells at their smallest and the arithmetic (below) */
        ls = vw_lh(v->small);
        middle_need = ls + R.kernel_label * L->pad + 3 * ls + R.kernel_below * L->pad +
                      (float)(s->thread_view ? R.arith_thread_lines : R.arith_lines) * ls + L->line +
                      R.middle_spare * L->pad;
        if ((grid >= R.grid_share * L->H && grid >= middle_need) ||
            (ts <= 1.0f && (L->top_cut || L->banner.h + L->notice.h <= 0)))
            break;
        if (ts > 1.0f)
            ts = ts > 1.5f ? 1.5f : ts > 1.25f ? 1.25f : 1.0f; /* the next smaller of Z's sizes */
        else
            L->top_cut = true; /* then the banner and the notice give a line each */
    }
    L->text_scale = ts;
    return grid;
}

/* The output the grids page to: the pinned one, else the walk's in the
 * CPU phase, else the region's first. */
static void grid_focus(const scene *s, int *x, int *y)
{
    if (s->pinned) {
        *x = s->hover_x, *y = s->hover_y;
    } else if (s->phase == SCENE_PHASE_CPU) {
        *x = conv_stepper_x(&s->walk.stepper), *y = conv_stepper_y(&s->walk.stepper);
    } else {
        *x = s->view_x, *y = s->view_y;
    }
}

/* Of the region's `region` cells from `from`, the `n` shown: the page of n
 * that holds `at`, kept inside the region; the page shown before (`was`,
 * of as many cells) while it still holds `at`, so that a click or the walk
 * never moves the cells under the pointer while what they look at is in
 * view. */
static int page_of(int from, int region, int n, int at, int was, int was_n)
{
    int first;
    if (was_n == n && at >= was && at < was + n && was >= from && was + n <= from + region)
        return was;
    if (at < from)
        at = from;
    if (at >= from + region)
        at = from + region - 1;
    first = from + (at - from) / n * n;
    return first + n > from + region ? from + region - n : first;
}

/* The cells the grids show, and their digits' size. The region's cells
 * (the zoom) when their values are readable; where the grids are about
 * values (zoomed no further out than the usual region) but short of room,
 * fewer, larger cells: the page of the region that holds the walk's window
 * (or the pinned output), which the caption names. Zoomed out further, the
 * region's cells, with digits only where they are readable. */
static void choose_cells(view *v, const scene *s, float grid)
{
    layout *L = &v->L;
    rnd_font *f = view_font_px(v, L->least_px);
    float per_px = vw_text_w(f, R.widest) / (float)L->least_px; /* the widest value's width at 1 px */
    float cell_min = fmaxf(per_px * (float)L->least_px / R.value_w_share, (float)L->least_px / R.value_h_share);
    int fit = (int)(grid / cell_min) - 2 * R.ring, n = s->view_cells, fx, fy;
    L->values = s->view_cells <= SCENE_DEFAULT_CELLS;
    L->fit = fit < 1 ? 1 : fit;
    if (L->values && fit < n)
        n = fit < 1 ? 1 : fit;
    L->cell = grid / (float)(n + 2 * R.ring);
    L->digit_px = (int)fminf(L->cell * R.value_w_share / per_px, L->cell * R.value_h_share);
    if (L->digit_px < L->least_px)
        L->digit_px = 0; /* no digits too small to read */
    grid_focus(s, &fx, &fy);
    L->vx = page_of(s->view_x, s->view_cells, n, fx, L->vx, L->vn);
    L->vy = page_of(s->view_y, s->view_cells, n, fy, L->vy, L->vn);
    L->vn = n;
}

/* The two grids at the top's left and right, each `grid` at the most; the
 * input grid shows R.ring cells more on every side than the output grid:
 * every pixel the shown outputs read, the border's included. Returns the
 * input grid's side. */
static float place_grids(view *v, const scene *s, float top, float grid)
{
    layout *L = &v->L;
    float most = (L->W - R.side_pads * L->pad) * R.grid_w_share;
    if (grid > most)
        grid = most;
    if (grid < R.grid_min_px)
        grid = R.grid_min_px;
    choose_cells(v, s, grid);
    grid = L->cell * (float)(L->vn + 2 * R.ring);
    L->input = (rect){L->pad, top, grid, grid};
    L->input_cells = (rect){L->pad + L->cell, top + L->cell, grid - 2 * L->cell, grid - 2 * L->cell};
    L->output = (rect){L->W - L->pad - L->input_cells.w, L->input_cells.y, L->input_cells.w, L->input_cells.h};
    return grid;
}

/* The middle column, top to bottom: the kernel's label and cells, the
 * arithmetic, the thumbnails' label and the thumbnails; the kernel
 * shrinks, then the thumbnails go, when the column is short. */
static void place_middle(view *v, const scene *s, float top, float grid)
{
    layout *L = &v->L;
    float ls = vw_lh(v->small), mid_x = L->input.x + grid + R.middle_gap * L->pad;
    float mid_w = L->output.x - R.middle_gap * L->pad - mid_x;
    float thumb_h = L->presenter ? 0 : fminf(grid * R.thumb_share, mid_w * 0.5f * R.thumb_aspect);
    float thumb_w = mid_w / 2 - R.thumb_gap * L->pad;
    float room = grid - R.kernel_label * L->pad - arith_height(v, s), kc, y;

    L->middle = (rect){mid_x, top - ls - R.middle_up * L->pad, mid_w, grid + ls};
    kc = fminf(mid_w / R.kernel_cols, (room - thumb_h - ls - R.kernel_below * L->pad) / 3);
    if (thumb_h <= 0 || kc < R.kernel_thumbs * ls) { /* no room for thumbnails (or presenter mode) */
        thumb_h = 0;
        kc = fminf(mid_w / R.kernel_cols, (room - R.kernel_below * L->pad) / 3);
    }
    if (kc < ls)
        kc = ls;
    y = L->middle.y + ls + R.kernel_label * L->pad;
    L->kernel = (rect){mid_x + (mid_w - 3 * kc) / 2, y, 3 * kc, 3 * kc};
    y += 3 * kc + R.kernel_below * L->pad;
    L->thumb_in = (rect){mid_x, top + grid - thumb_h, thumb_w, thumb_h};
    L->thumb_out = (rect){mid_x + mid_w - thumb_w, top + grid - thumb_h, thumb_w, thumb_h};
    L->arith = (rect){mid_x, y, mid_w, (thumb_h > 0 ? L->thumb_in.y - ls : top + grid) - y};
}

/* The buttons under the status lines, with their words where the row has
 * room, shorter where it has not: never into the chart. */
static void place_buttons(view *v, const app *a)
{
    static const char *const gpu_words[3][2] = {
        {N_("G  launch on the GPU"), N_("G  launch on the software GPU")}, {N_("G  GPU"), N_("G  GPU")}, {"G", "G"}};
    static const char *const large_words[3] = {N_("I  large picture"), N_("I  large"), "I"};
    layout *L = &v->L;
    float room = L->chart.x - L->pad, pw = vw_text_w(v->small, vw_T(v, "Space  pause")) + L->pad * R.button_words;
    float bw, lw, ls = vw_lh(v->small);
    for (int k = 0;; ++k) {
        L->gpu_label = vw_T(v, gpu_words[k][a->s.gpu.eng.hardware == ENG_HW_SOFTWARE]);
        L->large_label = vw_T(v, large_words[k]);
        bw = vw_text_w(v->small, L->gpu_label) + L->pad * R.button_words;
        lw = vw_text_w(v->small, L->large_label) + L->pad * R.button_words;
        if (k == 2 || L->pad * 3 + pw + bw + lw <= room)
            break;
    }
    L->play_button = (rect){L->pad, L->status.y + L->line + L->status_rows * ls + R.button_pad * L->pad, pw,
                            ls + R.button_pad * L->pad};
    L->gpu_button = (rect){L->pad * 2 + pw, L->play_button.y, bw, L->play_button.h};
    L->large_button = (rect){L->gpu_button.x + bw + L->pad, L->play_button.y, lw, L->play_button.h};
    L->keys_hint =
        !L->presenter && L->large_button.x + lw + L->pad + vw_text_w(v->small, vw_T(v, "F1 or ?  every key")) <= room;
}

void view_layout(view *v, const app *a, int W, int H)
{
    const scene *s = &a->s;
    layout *L = &v->L;
    float top, bottom_h, grid, below;

    ++v->frame;
    if (strcmp(v->lang, app_lang(a)) != 0) { /* another language: fonts that cover it */
        for (int i = 0; i < v->nfonts; ++i) {
            plat_font_close(v->fonts[i].pf);
            rnd_font_destroy(v->fonts[i].rf);
        }
        v->nfonts = 0;
        snprintf(v->lang, sizeof v->lang, "%s", app_lang(a));
    }
    grid = fit_text(v, a, W, H, &top, &bottom_h);
    grid = place_grids(v, s, top, grid);
    place_middle(v, s, top, grid);
    /* the size sweep, when shown, takes the grids' place: all of it */
    L->sweep =
        (rect){L->input.x, L->middle.y, L->output.x + L->output.w - L->input.x, L->input.y + L->input.h - L->middle.y};
    L->sweep_shown =
        (s->area == SCENE_AREA_SWEEP || s->area == SCENE_AREA_FILTER_SWEEP || s->area == SCENE_AREA_GEOMETRY ||
         s->area == SCENE_AREA_CHANNELS) &&
        s->img.luma.px;
    below = top + grid + L->pad;
    L->status = (rect){L->pad, below, L->W * R.status_share, bottom_h};
    L->chart = (rect){L->W * R.chart_x, below, L->W * (1.0f - R.chart_x) - L->pad, L->H - below - L->pad};
    place_buttons(v, a);
}
