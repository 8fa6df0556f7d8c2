/* view.c - the view: creation, fonts, text helpers, the frame, the
 * regions tests read. */
#include "view_internal.h"
#include "../quiz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"
#include "core/linebreak.h"

static bool rasterize(void *user, uint32_t cp, img_rgba *out, int *advance)
{
    return plat_glyph_render(user, cp, out, advance);
}

/* A font of px pixels, opened on first use and kept. When the cache is
 * full, the font used longest ago goes, but never one of this frame's: the
 * text, the cells and the kernel may all be drawing with theirs. */
rnd_font *view_font_px(view *v, int px)
{
    sized_font *f;
    int victim = -1;
    if (px < 8)
        px = 8;
    for (int i = 0; i < v->nfonts; ++i)
        if (v->fonts[i].px == px) {
            v->fonts[i].used = v->frame;
            return v->fonts[i].rf;
        }
    if (v->nfonts == MAX_FONTS) {
        for (int i = 0; i < v->nfonts; ++i)
            if (v->fonts[i].used != v->frame && (victim < 0 || v->fonts[i].used < v->fonts[victim].used))
                victim = i;
        if (victim < 0) /* every font is in use this frame: make do with one */
            return v->fonts[0].rf;
        plat_font_close(v->fonts[victim].pf);
        rnd_font_destroy(v->fonts[victim].rf);
        v->fonts[victim] = v->fonts[--v->nfonts];
    }
    f = &v->fonts[v->nfonts];
    f->px = px;
    f->used = v->frame;
    f->pf = plat_font_open(v->lang, px);
    if (!f->pf)
        return v->nfonts ? v->fonts[0].rf : NULL;
    f->rf = rnd_font_create(px, plat_font_height(f->pf), rasterize, f->pf);
    if (!f->rf) {
        plat_font_close(f->pf);
        return v->nfonts ? v->fonts[0].rf : NULL;
    }
    ++v->nfonts;
    return f->rf;
}

view *view_create(void)
{
    view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    snprintf(v->lang, sizeof v->lang, "en");
    v->pointer_x = v->pointer_y = -1; /* no pointer until the mouse moves in */
    v->font = view_font_px(v, 18);
    if (!v->font) {
        free(v);
        return NULL;
    }
    return v;
}

void view_destroy(view *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->nfonts; ++i) {
        plat_font_close(v->fonts[i].pf);
        rnd_font_destroy(v->fonts[i].rf);
    }
    rnd_texture_free(&v->thumb_in);
    rnd_texture_free(&v->thumb_out);
    rnd_texture_free(&v->plane);
    rnd_texture_free(&v->heat);
    rnd_texture_free(&v->chan_in);
    for (int i = 0; i < LAYER_MAX_CHANNELS; ++i)
        rnd_texture_free(&v->chan_out[i]);
    free(v->out_px.px);
    free(v);
}

float vw_text_w(rnd_font *f, const char *s)
{
    return rnd_text_width(f, s);
}

float vw_lh(rnd_font *f)
{
    return (float)rnd_font_line_height(f);
}

/* Draws text, cut with an ellipsis where it would pass max_w; the whole
 * text is kept for the pointer to show (view_draw's tooltip). */
void vw_text_fit(view *v, rnd_font *f, const char *s, float x, float y, float max_w, rnd_color c)
{
    char buf[512];
    size_t n;
    if (vw_text_w(f, s) <= max_w) {
        rnd_text(f, s, x, y, c);
        return;
    }
    if (v->cut_count < VW_MAX_CUT) {
        v->cut[v->cut_count].r = (rect){x, y, max_w, vw_lh(f)};
        lb_copy(v->cut[v->cut_count].text, sizeof v->cut[0].text, s); /* cut, if at all, not inside a character */
        ++v->cut_count;
    }
    snprintf(buf, sizeof buf, "%s", s);
    n = strlen(buf);
    if (n > sizeof buf - 4) /* room for the ellipsis */
        n = sizeof buf - 4;
    while (n > 0) {
        do /* back up over a whole UTF-8 character */
            --n;
        while (n > 0 && ((unsigned char)buf[n] & 0xC0) == 0x80);
        memcpy(buf + n, "\xE2\x80\xA6", 4);
        if (vw_text_w(f, buf) <= max_w)
            break;
    }
    rnd_text(f, buf, x, y, c);
}

void vw_text_center(rnd_font *f, const char *s, rect r, rnd_color c)
{
    rnd_text(f, s, r.x + (r.w - vw_text_w(f, s)) / 2, r.y + (r.h - vw_lh(f)) / 2, c);
}

bool vw_inside(rect r, float x, float y)
{
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

rnd_color vw_mix(rnd_color a, rnd_color b, float t)
{
    return (rnd_color){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}

rnd_color vw_alpha(rnd_color c, float a)
{
    c.a = a;
    return c;
}

void vw_dashed_frame(float x, float y, float w, float h, float t, rnd_color c)
{
    float dash = fmaxf(2.0f, fminf(w, h) / 7.0f);
    for (float d = 0; d < w; d += 2 * dash) { /* top and bottom */
        float len = fminf(dash, w - d);
        rnd_rect(x + d, y, len, t, c);
        rnd_rect(x + d, y + h - t, len, t, c);
    }
    for (float d = 0; d < h; d += 2 * dash) { /* left and right */
        float len = fminf(dash, h - d);
        rnd_rect(x, y + d, t, len, c);
        rnd_rect(x + w - t, y + d, t, len, c);
    }
}

/* A chip: a rounded-looking button with a label; `on` draws it filled. */
void vw_chip(view *v, rect r, const char *label, bool on, rnd_color accent)
{
    rnd_rect(r.x, r.y, r.w, r.h, on ? vw_alpha(accent, 0.85f) : PANEL);
    rnd_frame(r.x, r.y, r.w, r.h, 1, on ? accent : FAINT);
    vw_text_center(v->small, label, r, on ? BLACK : TEXT);
}

void vw_preset_label(int i, char *buf, size_t size)
{
    snprintf(buf, size, "%d %s", i + 1, C_("filter", filt_preset((size_t)i)->name));
}

/* The window's own words in the app's language, from the catalogue. */
const char *vw_T(const view *v, const char *en)
{
    (void)v; /* the language is i18n's, set with the app's */
    return _(en);
}

const char *vw_gpu_title(const scene *s)
{
    switch (s->gpu.eng.hardware) {
    case ENG_HW_SOFTWARE: return N_("every output at once on a software GPU: this CPU");
    case ENG_HW_VIRTUAL: return N_("every output at once on a virtual GPU");
    default: {
        long per_wave;
        /* at once within a wave; a grid larger than the GPU holds runs in waves */
        return scene_gpu_waves(s, &per_wave) > 1 ? N_("every output at once within a wave, wave after wave, on the GPU")
                                                 : N_("every output at once on the GPU");
    }
    }
}

const char *vw_gpu_grid_title(const scene *s)
{
    switch (s->gpu.eng.hardware) {
    case ENG_HW_SOFTWARE: return N_("all at once, on a software GPU: this CPU");
    case ENG_HW_VIRTUAL: return N_("all at once, on a virtual GPU");
    default: {
        long per_wave;
        return scene_gpu_waves(s, &per_wave) > 1 ? N_("at once within each wave, on the GPU")
                                                 : N_("all at once, on the GPU");
    }
    }
}

int view_live_regions(const view *v, int (*rects)[4], int max)
{
    const layout *L = &v->L;
    float y, r[3][4];
    int n = 0, count = 2;
    if (!v->small || L->W <= 0) /* nothing drawn yet */
        return 0;
    /* the engine lines of the status block (below its first two lines), and
     * the whole chart */
    y = L->status.y + L->line + (float)rnd_font_line_height(v->small);
    r[0][0] = L->status.x, r[0][1] = y, r[0][2] = L->status.w, r[0][3] = L->play_button.y - y;
    r[1][0] = L->chart.x, r[1][1] = L->chart.y, r[1][2] = L->chart.w, r[1][3] = L->chart.h;
    if (L->sweep_shown) /* the size sweep, in the grids' place */
        r[2][0] = L->sweep.x, r[2][1] = L->sweep.y, r[2][2] = L->sweep.w, r[2][3] = L->sweep.h, count = 3;
    for (int i = 0; i < count && n < max; ++i, ++n)
        for (int k = 0; k < 4; ++k)
            rects[n][k] = (int)(k < 2 ? r[i][k] : r[i][k] + 1.5f) - (k < 2 ? 1 : -1);
    return n;
}

/* The whole of a text cut with an ellipsis, over everything, while the
 * pointer is on it: wrapped in a panel under the pointer, inside the window. */
static void draw_tooltip(view *v)
{
    const layout *L = &v->L;
    float px = v->pointer_x, py = v->pointer_y, w, h, x, y;
    const char *text = NULL;
    v->tooltip[0] = '\0';
    for (int i = v->cut_count - 1; i >= 0 && !text; --i)
        if (vw_inside(v->cut[i].r, px, py))
            text = v->cut[i].text;
    if (!text)
        return;
    snprintf(v->tooltip, sizeof v->tooltip, "%s", text);
    rnd_text_layer();
    w = fminf(vw_text_w(v->small, text), fminf(L->W - 3 * L->pad, 40 * L->line));
    h = rnd_text_wrapped(v->small, text, 0, 0, w, TEXT, false);
    x = fminf(fmaxf(px - w / 2, L->pad), L->W - L->pad - w - L->pad);
    y = py + 1.2f * L->line;
    if (y + h + L->pad > L->H)
        y = fmaxf(py - h - 1.2f * L->line, 0.5f * L->pad);
    rnd_rect(x - 0.5f * L->pad, y - 0.4f * L->pad, w + L->pad, h + 0.8f * L->pad, (rnd_color){0.05f, 0.05f, 0.07f, 1});
    rnd_frame(x - 0.5f * L->pad, y - 0.4f * L->pad, w + L->pad, h + 0.8f * L->pad, 1, DIM);
    rnd_text_wrapped(v->small, text, x, y, w, TEXT, true);
}

void view_draw(view *v, const app *a, int w, int h)
{
    const scene *s = &a->s;
    vw_clicks_clear(v); /* the panels add their places to click as they draw */
    if (a->blank) {
        rnd_begin(w, h, (rnd_color){0, 0, 0, 1});
        rnd_end();
        return;
    }
    view_layout(v, a, w, h);
    v->cut_count = 0;
    rnd_begin(w, h, BG);
    if (s->img.luma.px) {
        if (a->lab.shown) /* the lab, over whatever the area holds */
            vw_draw_lab(v, a, v->L.sweep);
        else
            switch (s->area) {
        case SCENE_AREA_LARGE: vw_draw_large(v, a); break;
        case SCENE_AREA_INSIDE: vw_draw_inside(v, a); break;
        case SCENE_AREA_SWEEP: vw_draw_sweep(v, a, v->L.sweep); break;
        case SCENE_AREA_FILTER_SWEEP: { /* the chart, and the roofline beside it */
            rect chart = v->L.sweep, roof;
            chart.w = floorf(v->L.sweep.w * 0.56f);
            roof = (rect){chart.x + chart.w + 0.5f * v->L.pad, chart.y, v->L.sweep.w - chart.w - 0.5f * v->L.pad,
                          chart.h};
            vw_draw_filter_sweep(v, a, chart);
            vw_draw_roofline(v, a, roof);
            break;
        }
        case SCENE_AREA_GEOMETRY: vw_draw_geometry(v, a, v->L.sweep); break;
        case SCENE_AREA_CHANNELS: vw_draw_channels(v, a, v->L.sweep); break;
        default:
            vw_draw_grids(v, s, app_quiz_hides_window(a), scene_now(s));
            vw_grid_answer_clicks(v, a);
            vw_draw_kernel(v, a);
            vw_draw_arithmetic(v, s);
            vw_draw_thumbs(v, s);
            break;
        }
        if (app_in_lesson(a))
            vw_draw_lesson(v, a);
        else
            vw_draw_status(v, s);
        vw_draw_buttons(v, a);
        vw_draw_chart(v, a);
    }
    vw_draw_top(v, s);
    vw_draw_notice(v, s);
    vw_draw_progress(v, s);
    if (a->menu || a->help)
        v->cut_count = 0; /* what lies under an overlay is not hovered */
    if (a->menu)
        vw_draw_menu(v, a);
    else if (a->help)
        vw_draw_help(v);
    draw_tooltip(v);
    rnd_end();
}

void view_pointer(view *v, int x, int y)
{
    v->pointer_x = (float)x;
    v->pointer_y = (float)y;
}

const char *view_tooltip(const view *v)
{
    return v->tooltip;
}

int view_cut_texts(const view *v, view_cut *out, int max)
{
    int n = 0;
    for (; n < v->cut_count && n < max; ++n)
        out[n] = (view_cut){(int)v->cut[n].r.x, (int)v->cut[n].r.y, (int)(v->cut[n].r.w + 0.5f),
                            (int)(v->cut[n].r.h + 0.5f), v->cut[n].text};
    return n;
}

float view_text_scale(const view *v)
{
    return v->L.text_scale;
}

void view_grid_cells(const view *v, int *x, int *y, int *n, int *fit)
{
    *x = v->L.vx;
    *y = v->L.vy;
    *n = v->L.vn;
    *fit = v->L.fit;
}

void view_measure(view *v, const app *a, int w, int h)
{
    view_layout(v, a, w, h);
}
