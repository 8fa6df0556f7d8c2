/* layout.c - where everything goes in a w x h window at the text size
 * chosen. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void vw_banner_text(const scene *s, char *buf, size_t size)
{
    snprintf(buf, size, _("⚠  %s   (Esc closes this)"), s->banner);
}

#define GRID_SHARE 0.33f /* of the window's height, for the grids at least, whatever the text size */

void view_layout(view *v, const app *a, int W, int H)
{
    const scene *s = &a->s;
    layout *L = &v->L;
    float u = (float)H / 720.0f, ts = (float)a->text_scale / 100.0f;
    float top, bottom_h, grid, mid_x, mid_w, y, kc, middle_need;
    int base = (int)(17.0f * (u < 0.75f ? 0.75f : u) * ts + 0.5f);

    ++v->frame;
    if (strcmp(v->lang, app_lang(a)) != 0) { /* another language: fonts that cover it */
        for (int i = 0; i < v->nfonts; ++i) {
            plat_font_close(v->fonts[i].pf);
            rnd_font_destroy(v->fonts[i].rf);
        }
        v->nfonts = 0;
        snprintf(v->lang, sizeof v->lang, "%s", app_lang(a));
    }
    /* The text size asked for (Z), as far as the window has room for it:
     * the grids keep at least GRID_SHARE of the height, else the text is
     * made smaller by Z's own steps (never under 100%), so nothing overlaps. */
    for (;;) {
        v->font = view_font_px(v, base);
        v->small = view_font_px(v, base * 82 / 100);
        v->big = view_font_px(v, base * 135 / 100);
        L->W = (float)W;
        L->H = (float)H;
        L->u = u;
        L->pad = 10 * u;
        L->line = vw_lh(v->font);

        L->title = (rect){0, 0, L->W, vw_lh(v->big) + L->pad};
        /* an error banner, when there is one, sits under the title and pushes
         * everything below it down: it never covers what it talks about */
        L->banner = (rect){0, L->title.h, L->W, 0};
        if (s->banner[0]) {
            char text[640];
            vw_banner_text(s, text, sizeof text);
            L->banner.h = rnd_text_wrapped(v->font, text, 0, 0, L->W - 2 * L->pad, TEXT, false) + 0.6f * L->pad;
        }
        L->chips = (rect){L->pad, L->banner.y + L->banner.h, L->W - 2 * L->pad, vw_lh(v->small) + 0.8f * L->pad};
        {
            /* the chips flow left to right onto as many rows as they need */
            float x = L->pad, cy = L->chips.y, cw, gap = 0.5f * L->pad, ch = vw_lh(v->small) + 0.5f * L->pad;
            float row = vw_lh(v->small) + 0.8f * L->pad, right;
            for (int i = 0; i < 9; ++i) {
                char label[48];
                vw_preset_label(i, label, sizeof label);
                cw = vw_text_w(v->small, label) + L->pad * 1.4f;
                if (x > L->pad && x + cw > L->W - L->pad)
                    x = L->pad, cy += row;
                L->preset[i] = (rect){x, cy, cw, ch};
                x += cw + gap;
            }
            /* border / flip / display: right-aligned on the same row when they
         * fit, each as wide as its longest words in the language shown */
        {
            char border_w[64];
            float bw = 0, fw;
            for (int b = 0; b < CONV_BORDER_COUNT; ++b) {
                snprintf(border_w, sizeof border_w, vw_T(v, "border: %s"), C_("border", conv_border_name((conv_border)b)));
                bw = fmaxf(bw, vw_text_w(v->small, border_w));
            }
            fw = fmaxf(vw_text_w(v->small, vw_T(v, "true convolution")),
                       vw_text_w(v->small, vw_T(v, "cross-correlation")));
            float dw = vw_text_w(v->small, vw_T(v, "display: signed (0 = grey)"));
            right = bw + fw + dw + 3 * L->pad + 2 * gap;
            if (x + right > L->W - L->pad)
                cy += row;
            cw = dw + L->pad;
            L->display = (rect){L->W - L->pad - cw, cy, cw, ch};
            cw = fw + L->pad;
            L->flip = (rect){L->display.x - gap - cw, cy, cw, ch};
            cw = bw + L->pad;
            L->border = (rect){L->flip.x - gap - cw, cy, cw, ch};
        }
        L->chips.h = cy + row - L->chips.y;
        }
        top = L->chips.y + L->chips.h + vw_lh(v->small) + 0.6f * L->pad + 3;
        /* below the grids: a status line, five small lines, the buttons */
        bottom_h = L->line + (app_in_lesson(a) ? 8 : 6) * vw_lh(v->small) + 2.2f * L->pad;
        /* ... and beside them the chart: its title, four bars, the memory
         * row, two lines of verdicts and the legend */
        bottom_h = fmaxf(bottom_h, 10.2f * vw_lh(v->small) + 1.5f * L->pad);
        grid = L->H - top - bottom_h - L->pad;
        /* the middle column beside the grids must hold the kernel's label,
         * its cells at their smallest and the arithmetic (below) */
        middle_need = vw_lh(v->small) + 0.3f * L->pad + 3 * vw_lh(v->small) + 0.6f * L->pad +
                      (s->thread_view ? 7 : 5) * vw_lh(v->small) + L->line + 0.9f * L->pad;
        if ((grid >= GRID_SHARE * L->H && grid >= middle_need) || ts <= 1.0f)
            break;
        ts = ts > 1.5f ? 1.5f : ts > 1.25f ? 1.25f : 1.0f; /* the next smaller of Z's sizes */
        base = (int)(17.0f * (u < 0.75f ? 0.75f : u) * ts + 0.5f);
    }
    L->text_scale = ts;
    if (grid > (L->W - 4 * L->pad) * 0.36f)
        grid = (L->W - 4 * L->pad) * 0.36f;
    if (grid < 40)
        grid = 40;
    /* the input grid shows one cell more on every side than the output
     * grid: every pixel the shown outputs read, the border's included */
    L->cell = grid / (float)(s->view_cells + 2);
    grid = L->cell * (float)(s->view_cells + 2);
    L->input = (rect){L->pad, top, grid, grid};
    L->input_cells = (rect){L->pad + L->cell, top + L->cell, grid - 2 * L->cell, grid - 2 * L->cell};
    L->output = (rect){L->W - L->pad - L->input_cells.w, L->input_cells.y, L->input_cells.w, L->input_cells.h};

    /* the middle column, top to bottom: the kernel's label and cells, the
     * arithmetic, the thumbnails' label and the thumbnails; the kernel
     * shrinks, then the thumbnails go, when the column is short */
    mid_x = L->input.x + grid + 1.5f * L->pad;
    mid_w = L->output.x - 1.5f * L->pad - mid_x;
    L->middle = (rect){mid_x, top - vw_lh(v->small) - 0.2f * L->pad, mid_w, grid + vw_lh(v->small)};
    {
        float arith_h = (s->thread_view ? 7 : 5) * vw_lh(v->small) + L->line + 0.6f * L->pad;
        float thumb_h = fminf(grid * 0.30f, mid_w * 0.5f * 0.75f);
        float thumb_w = mid_w / 2 - 0.5f * L->pad;
        float room = grid - 0.3f * L->pad - arith_h;
        kc = fminf(mid_w / 5.0f, (room - thumb_h - vw_lh(v->small) - 0.6f * L->pad) / 3);
        if (kc < 1.6f * vw_lh(v->small)) { /* no room for thumbnails */
            thumb_h = 0;
            kc = fminf(mid_w / 5.0f, (room - 0.6f * L->pad) / 3);
        }
        if (kc < vw_lh(v->small))
            kc = vw_lh(v->small);
        y = L->middle.y + vw_lh(v->small) + 0.3f * L->pad;
        L->kernel = (rect){mid_x + (mid_w - 3 * kc) / 2, y, 3 * kc, 3 * kc};
        y += 3 * kc + 0.6f * L->pad;
        L->thumb_in = (rect){mid_x, top + grid - thumb_h, thumb_w, thumb_h};
        L->thumb_out = (rect){mid_x + mid_w - thumb_w, top + grid - thumb_h, thumb_w, thumb_h};
        L->arith = (rect){mid_x, y, mid_w, (thumb_h > 0 ? L->thumb_in.y - vw_lh(v->small) : top + grid) - y};
    }
    /* the size sweep, when shown, takes the grids' place: all of it */
    L->sweep = (rect){L->input.x, L->middle.y, L->output.x + L->output.w - L->input.x,
                      L->input.y + L->input.h - L->middle.y};
    L->sweep_shown = s->area == SCENE_AREA_SWEEP && s->img.luma.px;
    L->status = (rect){L->pad, top + grid + L->pad, L->W * 0.48f, bottom_h};
    L->chart = (rect){L->W * 0.50f, top + grid + L->pad, L->W * 0.50f - L->pad, L->H - (top + grid + L->pad) - L->pad};
    {
        /* the buttons, with their words where the row has room, shorter
         * where it has not: never into the chart */
        static const char *const gpu_words[3][2] = {
            {N_("G  launch on the GPU"), N_("G  launch on the software GPU")}, {N_("G  GPU"), N_("G  GPU")}, {"G", "G"}};
        static const char *const large_words[3] = {N_("I  large picture"), N_("I  large"), "I"};
        float room = L->chart.x - L->pad, pw = vw_text_w(v->small, vw_T(v, "Space  pause")) + L->pad * 1.5f, bw, lw;
        int k = 0;
        for (;; ++k) {
            L->gpu_label = vw_T(v, gpu_words[k][s->gpu.eng.hardware == ENG_HW_SOFTWARE]);
            L->large_label = vw_T(v, large_words[k]);
            bw = vw_text_w(v->small, L->gpu_label) + L->pad * 1.5f;
            lw = vw_text_w(v->small, L->large_label) + L->pad * 1.5f;
            if (k == 2 || L->pad * 3 + pw + bw + lw <= room)
                break;
        }
        L->play_button = (rect){L->pad, L->status.y + L->line + (app_in_lesson(a) ? 7 : 5) * vw_lh(v->small) + 0.6f * L->pad,
                                pw, vw_lh(v->small) + 0.6f * L->pad};
        L->gpu_button = (rect){L->pad * 2 + pw, L->play_button.y, bw, L->play_button.h};
        L->large_button = (rect){L->gpu_button.x + bw + L->pad, L->play_button.y, lw, L->play_button.h};
        L->keys_hint = L->large_button.x + lw + L->pad + vw_text_w(v->small, vw_T(v, "F1 or ?  every key")) <= room;
    }
}
