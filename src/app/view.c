/* view.c - the teaching window's picture of a scene.
 *
 *   +---------------------------------------------------------------+
 *   | convis  phase                          image, size   (banner)  |
 *   | [1 identity] [2 box] ... [9 outline]   border  flip  display    |
 *   | input grid (blue)  | kernel, arithmetic | output grid (green)   |
 *   |                    | thumbnails         |                       |
 *   | CPU walk status, engines                | timing chart          |
 *   +---------------------------------------------------------------+
 *
 * Colours follow DESIGN.md section 5: input blue, output green, the 3x3
 * window a shaded frame; meaning is never carried by red versus green. */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "platform/platform.h"
#include "render/render.h"
#include "render/text.h"

typedef struct rect {
    float x, y, w, h;
} rect;

static const rnd_color BG = {0.10f, 0.11f, 0.13f, 1};
static const rnd_color PANEL = {0.14f, 0.15f, 0.18f, 1};
static const rnd_color TEXT = {0.93f, 0.94f, 0.95f, 1};
static const rnd_color DIM = {0.62f, 0.65f, 0.70f, 1};
static const rnd_color FAINT = {0.40f, 0.42f, 0.46f, 1};
static const rnd_color BLUE = {0.35f, 0.62f, 1.00f, 1};
static const rnd_color GREEN = {0.40f, 0.85f, 0.45f, 1};
static const rnd_color WINDOW = {1.00f, 0.85f, 0.25f, 1};   /* the 3x3 window: amber */
static const rnd_color HOVER = {0.95f, 0.45f, 0.95f, 1};    /* the hovered receptive field: magenta */
static const rnd_color BANNER_BG = {0.55f, 0.12f, 0.10f, 1};
static const rnd_color WHITE = {1, 1, 1, 1};
static const rnd_color BLACK = {0, 0, 0, 1};
/* phases of the timing chart */
static const rnd_color PHASE_COLOR[ENG_PHASE_COUNT] = {
    {0.90f, 0.60f, 0.00f, 1}, /* upload: orange */
    {0.34f, 0.71f, 0.91f, 1}, /* compute: sky blue */
    {0.80f, 0.47f, 0.65f, 1}, /* download: reddish purple */
    {0.00f, 0.62f, 0.45f, 1}, /* present: bluish green */
    {0.55f, 0.55f, 0.58f, 1}, /* overhead: grey */
};
/* blocks in thread view: the Okabe-Ito palette, told apart by lightness too */
static const rnd_color BLOCK_COLOR[8] = {
    {0.90f, 0.62f, 0.00f, 1}, {0.34f, 0.71f, 0.91f, 1}, {0.00f, 0.62f, 0.45f, 1}, {0.94f, 0.89f, 0.26f, 1},
    {0.00f, 0.45f, 0.70f, 1}, {0.84f, 0.37f, 0.00f, 1}, {0.80f, 0.47f, 0.65f, 1}, {0.60f, 0.60f, 0.60f, 1},
};

#define MAX_FONTS 12
#define THUMB_MAX 1024 /* thumbnails are downsampled to at most this many pixels a side */

typedef struct sized_font {
    int px;
    unsigned long used;     /* the frame that last used it */
    plat_font *pf;
    rnd_font *rf;
} sized_font;

typedef struct layout {
    float W, H, u, pad, line;
    rect title, banner, chips, input, output, middle, kernel, arith, thumb_in, thumb_out, status, chart;
    rect preset[9], border, flip, display, gpu_button, play_button;
    rect lesson_row[APP_MAX_LESSONS];
    int lesson_rows;    /* rows of the lesson menu drawn (0: no menu) */
    float cell;         /* grid cell size in pixels */
} layout;

struct view {
    sized_font fonts[MAX_FONTS];
    int nfonts;
    unsigned long frame;            /* frames drawn (and layouts made) */
    char lang[8];                   /* the fonts cover this language */
    rnd_font *font, *small, *big;
    layout L;
    /* thumbnails */
    rnd_texture thumb_in, thumb_out;
    rnd_texture plane;              /* the GPU's result, from its GL buffer */
    unsigned long plane_run;        /* which GPU run the plane shows (scene's gpu_runs) */
    bool plane_ok;
    img_rgba out_px;
    int thumb_step;                 /* image pixels per thumbnail pixel */
    unsigned long thumb_image;      /* which image the thumbnails show (scene's generation) */
    long thumb_done;                /* outputs shown in the output thumbnail */
    int thumb_phase, thumb_display;
    double thumb_gpu_at;
};

/* ---- fonts ---------------------------------------------------------------- */

static bool rasterize(void *user, uint32_t cp, img_rgba *out, int *advance)
{
    return plat_glyph_render(user, cp, out, advance);
}

/* A font of px pixels, opened on first use and kept. When the cache is
 * full, the font used longest ago goes, but never one of this frame's: the
 * text, the cells and the kernel may all be drawing with theirs. */
static rnd_font *font_px(view *v, int px)
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
    f->rf = rnd_font_create(plat_font_height(f->pf), rasterize, f->pf);
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
    v->font = font_px(v, 18);
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
    free(v->out_px.px);
    free(v);
}

int view_live_regions(const view *v, const scene *s, int (*rects)[4], int max)
{
    const layout *L = &v->L;
    float y, r[2][4];
    int n = 0;
    (void)s;
    if (!v->small || L->W <= 0) /* nothing drawn yet */
        return 0;
    /* the engine lines of the status block (below its first two lines), and
     * the whole chart */
    y = L->status.y + L->line + (float)rnd_font_line_height(v->small);
    r[0][0] = L->status.x, r[0][1] = y, r[0][2] = L->status.w, r[0][3] = L->play_button.y - y;
    r[1][0] = L->chart.x, r[1][1] = L->chart.y, r[1][2] = L->chart.w, r[1][3] = L->chart.h;
    for (int i = 0; i < 2 && n < max; ++i, ++n)
        for (int k = 0; k < 4; ++k)
            rects[n][k] = (int)(k < 2 ? r[i][k] : r[i][k] + 1.5f) - (k < 2 ? 1 : -1);
    return n;
}

float view_cell_px(const view *v)
{
    return v->L.cell;
}

/* ---- small drawing helpers ----------------------------------------------- */

static float text_w(rnd_font *f, const char *s)
{
    return rnd_text_width(f, s);
}

static float lh(rnd_font *f)
{
    return (float)rnd_font_line_height(f);
}

/* Draws text, cut with an ellipsis where it would pass max_w. */
static void text_fit(rnd_font *f, const char *s, float x, float y, float max_w, rnd_color c)
{
    char buf[512];
    size_t n;
    if (text_w(f, s) <= max_w) {
        rnd_text(f, s, x, y, c);
        return;
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
        if (text_w(f, buf) <= max_w)
            break;
    }
    rnd_text(f, buf, x, y, c);
}

static void text_center(rnd_font *f, const char *s, rect r, rnd_color c)
{
    rnd_text(f, s, r.x + (r.w - text_w(f, s)) / 2, r.y + (r.h - lh(f)) / 2, c);
}

static bool inside(rect r, float x, float y)
{
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

static rnd_color mix(rnd_color a, rnd_color b, float t)
{
    return (rnd_color){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}

static rnd_color alpha(rnd_color c, float a)
{
    c.a = a;
    return c;
}

/* A chip: a rounded-looking button with a label; `on` draws it filled. */
static void chip(view *v, rect r, const char *label, bool on, rnd_color accent)
{
    rnd_rect(r.x, r.y, r.w, r.h, on ? alpha(accent, 0.85f) : PANEL);
    rnd_frame(r.x, r.y, r.w, r.h, 1, on ? accent : FAINT);
    text_center(v->small, label, r, on ? BLACK : TEXT);
}

/* "1,234,567" */
static void thousands(long n, char *buf, size_t size)
{
    char raw[32];
    int len, out = 0;
    snprintf(raw, sizeof raw, "%ld", n < 0 ? -n : n);
    len = (int)strlen(raw);
    if (n < 0 && out + 1 < (int)size)
        buf[out++] = '-';
    for (int i = 0; i < len && out + 2 < (int)size; ++i) {
        buf[out++] = raw[i];
        if ((len - i - 1) % 3 == 0 && i < len - 1)
            buf[out++] = ',';
    }
    buf[out] = '\0';
}

/* A value as a cell or the arithmetic shows it: whole numbers plainly,
 * others with one decimal. */
static void value_text(float v, char *buf, size_t size)
{
    if (v == floorf(v) && fabsf(v) < 1e7f)
        snprintf(buf, size, "%.0f", (double)v);
    else if (fabsf(v) >= 1000)
        snprintf(buf, size, "%.0f", (double)v);
    else
        snprintf(buf, size, "%.1f", (double)v);
    if (strcmp(buf, "-0") == 0 || strcmp(buf, "-0.0") == 0)
        snprintf(buf, size, "0");
}

/* A value in a grid cell: rounded to a whole number, to fit. */
static void cell_text(float v, char *buf, size_t size)
{
    snprintf(buf, size, "%.0f", (double)v);
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, size, "0");
}

static void ms_text(double ms, char *buf, size_t size)
{
    if (ms >= 1000)
        snprintf(buf, size, "%.2f s", ms / 1000);
    else if (ms >= 10)
        snprintf(buf, size, "%.1f ms", ms);
    else if (ms >= 0.1)
        snprintf(buf, size, "%.2f ms", ms);
    else
        snprintf(buf, size, "%.1f \xC2\xB5s", ms * 1000);
}

/* The window's own words in the scene's language: English as written, or
 * Simplified Chinese from this table. Not inlined: GCC would otherwise warn
 * that most of the comparisons with a constant string are false. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static const char *T(const scene *s, const char *en)
{
    static const char *const zh[][2] = {
        {"every output at once on the GPU", "\xE5\x9C\xA8 GPU \xE4\xB8\x8A\xE5\x90\x8C\xE6\x97\xB6\xE8\xAE\xA1\xE7\xAE\x97\xE6\x89\x80\xE6\x9C\x89\xE8\xBE\x93\xE5\x87\xBA"},
        {"one output at a time on the CPU", "\xE5\x9C\xA8 CPU \xE4\xB8\x8A\xE4\xB8\x80\xE6\xAC\xA1\xE7\xAE\x97\xE4\xB8\x80\xE4\xB8\xAA\xE8\xBE\x93\xE5\x87\xBA"},
        {"Whole image", "\xE6\x95\xB4\xE5\xB9\x85\xE5\x9B\xBE\xE5\x83\x8F"},
        {"Input: pixels", "\xE8\xBE\x93\xE5\x85\xA5\xEF\xBC\x9A\xE5\x83\x8F\xE7\xB4\xA0"},
        {"Output", "\xE8\xBE\x93\xE5\x87\xBA"},
        {"all at once, on the GPU", "\xE5\x9C\xA8 GPU \xE4\xB8\x8A\xE5\x90\x8C\xE6\x97\xB6"},
        {"one at a time, on the CPU", "\xE5\x9C\xA8 CPU \xE4\xB8\x8A\xE9\x80\x90\xE4\xB8\xAA"},
        {": thread view", "\xEF\xBC\x9A\xE7\xBA\xBF\xE7\xA8\x8B\xE8\xA7\x86\xE5\x9B\xBE"},
        {"Kernel", "\xE5\x8D\xB7\xE7\xA7\xAF\xE6\xA0\xB8"},
        {"Space  pause", "\xE7\xA9\xBA\xE6\xA0\xBC  \xE6\x9A\x82\xE5\x81\x9C"},
        {"Space  play", "\xE7\xA9\xBA\xE6\xA0\xBC  \xE6\x92\xAD\xE6\x94\xBE"},
        {"G  launch on the GPU", "G  \xE5\x9C\xA8 GPU \xE4\xB8\x8A\xE8\xBF\x90\xE8\xA1\x8C"},
        {"F1 or ?  every key", "F1 \xE6\x88\x96 ?  \xE6\x89\x80\xE6\x9C\x89\xE6\x8C\x89\xE9\x94\xAE"},
        {"Time for the whole", "\xE6\x95\xB4\xE5\xB9\x85\xE5\x9B\xBE\xE5\x83\x8F\xE7\x9A\x84\xE6\x97\xB6\xE9\x97\xB4"},
    };
    if (strcmp(s->lang, "zh") == 0)
        for (size_t i = 0; i < sizeof zh / sizeof zh[0]; ++i)
            if (strcmp(en, zh[i][0]) == 0)
                return zh[i][1];
    return en;
}

/* ---- layout ---------------------------------------------------------------- */

static void banner_text(const scene *s, char *buf, size_t size)
{
    snprintf(buf, size, "\xE2\x9A\xA0  %s   (Esc closes this)", s->banner);
}

static void compute_layout(view *v, const scene *s, int W, int H)
{
    layout *L = &v->L;
    float u = (float)H / 720.0f, ts = (float)s->text_scale / 100.0f;
    float top, bottom_h, grid, mid_x, mid_w, y, kc;
    int base = (int)(17.0f * (u < 0.75f ? 0.75f : u) * ts + 0.5f);

    ++v->frame;
    if (strcmp(v->lang, s->lang) != 0) { /* another language: fonts that cover it */
        for (int i = 0; i < v->nfonts; ++i) {
            plat_font_close(v->fonts[i].pf);
            rnd_font_destroy(v->fonts[i].rf);
        }
        v->nfonts = 0;
        snprintf(v->lang, sizeof v->lang, "%s", s->lang);
    }
    v->font = font_px(v, base);
    v->small = font_px(v, base * 82 / 100);
    v->big = font_px(v, base * 135 / 100);
    L->W = (float)W;
    L->H = (float)H;
    L->u = u;
    L->pad = 10 * u;
    L->line = lh(v->font);

    L->title = (rect){0, 0, L->W, lh(v->big) + L->pad};
    /* an error banner, when there is one, sits under the title and pushes
     * everything below it down: it never covers what it talks about */
    L->banner = (rect){0, L->title.h, L->W, 0};
    if (s->banner[0]) {
        char text[640];
        banner_text(s, text, sizeof text);
        L->banner.h = rnd_text_wrapped(v->font, text, 0, 0, L->W - 2 * L->pad, TEXT, false) + 0.6f * L->pad;
    }
    L->chips = (rect){L->pad, L->banner.y + L->banner.h, L->W - 2 * L->pad, lh(v->small) + 0.8f * L->pad};
    {
        /* the chips flow left to right onto as many rows as they need */
        float x = L->pad, cy = L->chips.y, cw, gap = 0.5f * L->pad, ch = lh(v->small) + 0.5f * L->pad;
        float row = lh(v->small) + 0.8f * L->pad, right;
        for (int i = 0; i < 9; ++i) {
            char label[48];
            snprintf(label, sizeof label, "%d %s", i + 1, filt_preset((size_t)i)->name);
            cw = text_w(v->small, label) + L->pad * 1.4f;
            if (x > L->pad && x + cw > L->W - L->pad)
                x = L->pad, cy += row;
            L->preset[i] = (rect){x, cy, cw, ch};
            x += cw + gap;
        }
        /* border / flip / display: right-aligned on the same row when they fit */
        right = text_w(v->small, "border: mirror") + text_w(v->small, "true convolution") +
                text_w(v->small, "display: signed (0 = grey)") + 3 * L->pad + 2 * gap;
        if (x + right > L->W - L->pad)
            cy += row;
        cw = text_w(v->small, "display: signed (0 = grey)") + L->pad;
        L->display = (rect){L->W - L->pad - cw, cy, cw, ch};
        cw = text_w(v->small, "true convolution") + L->pad;
        L->flip = (rect){L->display.x - gap - cw, cy, cw, ch};
        cw = text_w(v->small, "border: mirror") + L->pad;
        L->border = (rect){L->flip.x - gap - cw, cy, cw, ch};
        L->chips.h = cy + row - L->chips.y;
    }
    top = L->chips.y + L->chips.h + lh(v->small) + 0.6f * L->pad + 3;
    /* below the grids: a status line, five small lines, the buttons */
    bottom_h = L->line + (s->player.active ? 8 : 6) * lh(v->small) + 2.2f * L->pad;
    grid = L->H - top - bottom_h - L->pad;
    if (grid > (L->W - 4 * L->pad) * 0.36f)
        grid = (L->W - 4 * L->pad) * 0.36f;
    if (grid < 40)
        grid = 40;
    L->cell = grid / (float)s->view_cells;
    grid = L->cell * (float)s->view_cells;
    L->input = (rect){L->pad, top, grid, grid};
    L->output = (rect){L->W - L->pad - grid, top, grid, grid};

    /* the middle column, top to bottom: the kernel's label and cells, the
     * arithmetic, the thumbnails' label and the thumbnails; the kernel
     * shrinks, then the thumbnails go, when the column is short */
    mid_x = L->input.x + grid + 1.5f * L->pad;
    mid_w = L->output.x - 1.5f * L->pad - mid_x;
    L->middle = (rect){mid_x, top - lh(v->small) - 0.2f * L->pad, mid_w, grid + lh(v->small)};
    {
        float arith_h = (s->thread_view ? 7 : 5) * lh(v->small) + L->line + 0.6f * L->pad;
        float thumb_h = fminf(grid * 0.30f, mid_w * 0.5f * 0.75f);
        float thumb_w = mid_w / 2 - 0.5f * L->pad;
        float room = grid - 0.3f * L->pad - arith_h;
        kc = fminf(mid_w / 5.0f, (room - thumb_h - lh(v->small) - 0.6f * L->pad) / 3);
        if (kc < 1.6f * lh(v->small)) { /* no room for thumbnails */
            thumb_h = 0;
            kc = fminf(mid_w / 5.0f, (room - 0.6f * L->pad) / 3);
        }
        if (kc < lh(v->small))
            kc = lh(v->small);
        y = L->middle.y + lh(v->small) + 0.3f * L->pad;
        L->kernel = (rect){mid_x + (mid_w - 3 * kc) / 2, y, 3 * kc, 3 * kc};
        y += 3 * kc + 0.6f * L->pad;
        L->thumb_in = (rect){mid_x, top + grid - thumb_h, thumb_w, thumb_h};
        L->thumb_out = (rect){mid_x + mid_w - thumb_w, top + grid - thumb_h, thumb_w, thumb_h};
        L->arith = (rect){mid_x, y, mid_w, (thumb_h > 0 ? L->thumb_in.y - lh(v->small) : top + grid) - y};
    }
    L->status = (rect){L->pad, top + grid + L->pad, L->W * 0.48f, bottom_h};
    L->chart = (rect){L->W * 0.50f, top + grid + L->pad, L->W * 0.50f - L->pad, bottom_h - L->pad};
    {
        float bw = text_w(v->small, T(s, "G  launch on the GPU")) + L->pad * 1.5f;
        float pw = text_w(v->small, T(s, "Space  pause")) + L->pad * 1.5f;
        L->play_button = (rect){L->pad, L->status.y + L->line + (s->player.active ? 7 : 5) * lh(v->small) + 0.6f * L->pad,
                                pw, lh(v->small) + 0.6f * L->pad};
        L->gpu_button = (rect){L->pad * 2 + pw, L->play_button.y, bw, L->play_button.h};
    }
}

/* ---- grids ---------------------------------------------------------------- */

/* The colour of a cell showing grey level g (0..255) in the channel's hue. */
static rnd_color cell_color(uint8_t g, rnd_color hue)
{
    rnd_color dark = {0.03f, 0.04f, 0.07f, 1};
    rnd_color light = mix(hue, WHITE, 0.35f);
    return mix(dark, light, (float)g / 255.0f);
}

static rnd_color ink_for(rnd_color c)
{
    float y = 0.299f * c.r + 0.587f * c.g + 0.114f * c.b;
    return y > 0.5f ? BLACK : WHITE;
}

static void cell_rect(const layout *L, rect grid, const scene *s, int x, int y, rect *r)
{
    r->x = grid.x + (float)(x - s->view_x) * L->cell;
    r->y = grid.y + (float)(y - s->view_y) * L->cell;
    r->w = r->h = L->cell;
}

static bool in_view(const scene *s, int x, int y)
{
    return x >= s->view_x && y >= s->view_y && x < s->view_x + s->view_cells && y < s->view_y + s->view_cells &&
           x < s->img.luma.w && y < s->img.luma.h;
}

static void draw_input_grid(view *v, const scene *s)
{
    const layout *L = &v->L;
    int n = s->view_cells;
    rnd_font *cf = font_px(v, (int)(L->cell * 0.34f));
    bool numbers = L->cell >= 20;
    char buf[32];

    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int x = s->view_x + i, y = s->view_y + j;
            rect r;
            rnd_color c;
            if (x >= s->img.luma.w || y >= s->img.luma.h)
                continue;
            cell_rect(L, L->input, s, x, y, &r);
            c = cell_color(img_display_byte(s->img.luma.px[(long)y * s->img.luma.w + x], IMG_DISPLAY_CLAMP), BLUE);
            rnd_rect(r.x, r.y, r.w - 1, r.h - 1, c);
            if (numbers) {
                cell_text(s->img.luma.px[(long)y * s->img.luma.w + x], buf, sizeof buf);
                text_center(cf, buf, r, alpha(ink_for(c), 0.9f));
            }
        }
    rnd_frame(L->input.x - 2, L->input.y - 2, L->input.w + 4, L->input.h + 4, 2, BLUE);
}

/* The shaded 3x3 window (or the hovered receptive field) over the input. */
static void draw_window(view *v, const scene *s, int ox, int oy, int taps_done, rnd_color c, bool shade)
{
    const layout *L = &v->L;
    float t = fmaxf(2.0f, L->cell * 0.08f);
    rect r;
    cell_rect(L, L->input, s, ox - 1, oy - 1, &r);
    r.w = r.h = 3 * L->cell;
    {
        /* clip to the grid: the window may hang over the image's edge */
        float x0 = fmaxf(r.x, L->input.x), y0 = fmaxf(r.y, L->input.y);
        float x1 = fminf(r.x + r.w, L->input.x + L->input.w), y1 = fminf(r.y + r.h, L->input.y + L->input.h);
        if (x1 <= x0 || y1 <= y0)
            return;
        if (shade)
            rnd_rect(x0, y0, x1 - x0, y1 - y0, alpha(c, 0.22f));
        /* the taps done so far, brighter */
        for (int tap = 0; tap < taps_done && tap < 9; ++tap) {
            rect tr;
            cell_rect(L, L->input, s, ox + conv_tap_dx(tap), oy + conv_tap_dy(tap), &tr);
            if (inside(L->input, tr.x + 1, tr.y + 1))
                rnd_frame(tr.x + 1, tr.y + 1, tr.w - 3, tr.h - 3, fmaxf(1.0f, t * 0.6f), alpha(c, 0.8f));
        }
        rnd_clip(L->input.x - t, L->input.y - t, L->input.w + 2 * t, L->input.h + 2 * t);
        rnd_frame(r.x, r.y, r.w, r.h, t, c);
        rnd_clip(0, 0, 0, 0);
    }
}

/* Thread view: which worker computes output (x, y). In the CPU phase, the
 * cpu-par thread whose band of outputs (in raster order) holds it; in the
 * GPU phase, the block of GPU threads. Returns its colour. */
static rnd_color owner_color(const scene *s, int x, int y, int bx, int by)
{
    if (s->phase == SCENE_PHASE_CPU) {
        long total = (long)s->img.luma.w * s->img.luma.h, idx = (long)y * s->img.luma.w + x;
        int n = scene_cpu_threads(s);
        return BLOCK_COLOR[(int)(idx * n / total) % 8];
    }
    return BLOCK_COLOR[(x / bx + 3 * (y / by)) % 8];
}

static void draw_output_grid(view *v, const scene *s, double now_ms)
{
    const layout *L = &v->L;
    int n = s->view_cells, bx, by;
    rnd_font *cf = font_px(v, (int)(L->cell * 0.34f));
    bool numbers = L->cell >= 20, gpu = s->phase == SCENE_PHASE_GPU;
    long done = scene_cpu_done(s);
    float pulse = gpu ? (float)(1.0 - (now_ms - s->gpu_shown_at) / 700.0) : 0.0f;
    char buf[32];

    scene_block_size(s, &bx, &by);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int x = s->view_x + i, y = s->view_y + j;
            long idx = (long)y * s->img.luma.w + x;
            rect r;
            rnd_color c;
            float val;
            if (x >= s->img.luma.w || y >= s->img.luma.h)
                continue;
            cell_rect(L, L->output, s, x, y, &r);
            if (!gpu && idx >= done) { /* not computed yet */
                rnd_rect(r.x, r.y, r.w - 1, r.h - 1, (rnd_color){0.07f, 0.08f, 0.09f, 1});
                if (s->thread_view)
                    rnd_rect(r.x, r.y, r.w - 1, r.h - 1, alpha(owner_color(s, x, y, bx, by), 0.25f));
                continue;
            }
            val = gpu ? s->gpu_out.px[idx] : s->cpu_out.px[idx];
            if (s->thread_view)
                c = mix(owner_color(s, x, y, bx, by), BLACK,
                        0.55f * (1.0f - img_display_byte(val, s->opt.display) / 255.0f));
            else
                c = cell_color(img_display_byte(val, s->opt.display), GREEN);
            rnd_rect(r.x, r.y, r.w - 1, r.h - 1, c);
            if (pulse > 0)
                rnd_rect(r.x, r.y, r.w - 1, r.h - 1, alpha(WHITE, 0.8f * pulse));
            if (numbers) {
                cell_text(val, buf, sizeof buf);
                text_center(cf, buf, r, alpha(ink_for(c), 0.9f));
            }
        }
    if (s->thread_view && gpu) { /* block borders */
        float t = fmaxf(2.0f, L->cell * 0.08f);
        for (int x = s->view_x; x <= s->view_x + n && x <= s->img.luma.w; ++x)
            if (x % bx == 0)
                rnd_rect(L->output.x + (float)(x - s->view_x) * L->cell - t / 2, L->output.y, t,
                         fminf(L->output.h, (float)(s->img.luma.h - s->view_y) * L->cell), WHITE);
        for (int y = s->view_y; y <= s->view_y + n && y <= s->img.luma.h; ++y)
            if (y % by == 0)
                rnd_rect(L->output.x, L->output.y + (float)(y - s->view_y) * L->cell - t / 2,
                         fminf(L->output.w, (float)(s->img.luma.w - s->view_x) * L->cell), t, WHITE);
    }
    rnd_frame(L->output.x - 2, L->output.y - 2, L->output.w + 4, L->output.h + 4, 2, GREEN);
}

static void draw_grids(view *v, const scene *s, double now_ms)
{
    const layout *L = &v->L;
    char buf[160];
    int fx, fy;
    bool from_stepper;

    snprintf(buf, sizeof buf, "%s (%d\xE2\x80\xA6%d, %d\xE2\x80\xA6%d)", T(s, "Input: pixels"), s->view_x,
             (s->view_x + s->view_cells < s->img.luma.w ? s->view_x + s->view_cells : s->img.luma.w) - 1, s->view_y,
             (s->view_y + s->view_cells < s->img.luma.h ? s->view_y + s->view_cells : s->img.luma.h) - 1);
    text_fit(v->small, buf, L->input.x, L->input.y - lh(v->small) - 0.4f * L->pad - 3, L->input.w, BLUE);
    snprintf(buf, sizeof buf, "%s (%s)%s", T(s, "Output"),
             T(s, s->phase == SCENE_PHASE_GPU ? "all at once, on the GPU" : "one at a time, on the CPU"),
             s->thread_view ? T(s, ": thread view") : "");
    text_fit(v->small, buf, L->output.x, L->output.y - lh(v->small) - 0.4f * L->pad - 3, L->output.w, GREEN);

    draw_input_grid(v, s);
    draw_output_grid(v, s, now_ms);

    scene_focus(s, &fx, &fy, &from_stepper);
    if (s->phase == SCENE_PHASE_CPU) {
        int sx = conv_stepper_x(&s->stepper), sy = conv_stepper_y(&s->stepper);
        rect r;
        draw_window(v, s, sx, sy, s->stepper.taps, WINDOW, true);
        if (in_view(s, sx, sy)) {
            cell_rect(L, L->output, s, sx, sy, &r);
            rnd_frame(r.x, r.y, r.w, r.h, fmaxf(2.0f, L->cell * 0.1f), WINDOW);
        }
    }
    if (s->phase == SCENE_PHASE_GPU && !s->hovering && !s->pinned && in_view(s, fx, fy)) {
        rect r;
        draw_window(v, s, fx, fy, 0, WINDOW, false);
        cell_rect(L, L->output, s, fx, fy, &r);
        rnd_frame(r.x, r.y, r.w, r.h, fmaxf(2.0f, L->cell * 0.1f), WINDOW);
    }
    if (!from_stepper && (s->hovering || s->pinned)) {
        rect r;
        draw_window(v, s, fx, fy, 0, HOVER, false);
        if (in_view(s, fx, fy)) {
            cell_rect(L, L->output, s, fx, fy, &r);
            rnd_frame(r.x - 1, r.y - 1, r.w + 2, r.h + 2, fmaxf(2.0f, L->cell * 0.1f), HOVER);
        }
    }
}

/* ---- kernel and arithmetic ------------------------------------------------- */

static void draw_kernel(view *v, const scene *s)
{
    const layout *L = &v->L;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    float kc = L->kernel.w / 3;
    rnd_font *kf = font_px(v, (int)(kc * 0.36f));
    char buf[96], div[32];

    snprintf(buf, sizeof buf, "%s: %s%s", T(s, "Kernel"), s->opt.kernel.title, s->opt.flip ? " (flipped)" : "");
    rnd_text(v->small, buf, L->middle.x + (L->middle.w - text_w(v->small, buf)) / 2, L->middle.y, TEXT);
    for (int t = 0; t < 9; ++t) {
        rect r = {L->kernel.x + (float)(t % 3) * kc, L->kernel.y + (float)(t / 3) * kc, kc - 2, kc - 2};
        bool editing = s->edit_tap == t;
        bool active = s->phase == SCENE_PHASE_CPU && !s->hovering && !s->pinned && t == s->stepper.taps - 1;
        rnd_rect(r.x, r.y, r.w, r.h, editing ? (rnd_color){0.25f, 0.25f, 0.12f, 1} : PANEL);
        rnd_frame(r.x, r.y, r.w, r.h, active || editing ? 3 : 1, active || editing ? WINDOW : FAINT);
        if (editing) {
            snprintf(buf, sizeof buf, "%s_", s->edit_text);
            text_center(kf, buf, r, WINDOW);
        } else {
            value_text(p.weight[t], buf, sizeof buf);
            text_center(kf, buf, r, TEXT);
        }
    }
    if (p.divisor != 1.0f) {
        value_text(p.divisor, div, sizeof div);
        snprintf(buf, sizeof buf, "\xC3\xB7 %s", div);
        rnd_text(v->font, buf, L->kernel.x + L->kernel.w + 0.5f * L->pad, L->kernel.y + L->kernel.h / 2 - L->line / 2,
                 TEXT);
    }
}

static void draw_arithmetic(view *v, const scene *s)
{
    const layout *L = &v->L;
    int fx, fy, taps = 9, bx, by;
    bool from_stepper;
    float value[9], product[9], sum = 0, y = L->arith.y;
    conv_params p = conv_params_make(&s->opt.kernel, s->opt.border, s->opt.flip);
    char line[256], a[32], b[32], c[32];
    rnd_font *f = v->small;

    if (!s->img.luma.px)
        return;
    scene_focus(s, &fx, &fy, &from_stepper);
    for (int t = 0; t < 9; ++t) {
        value[t] = conv_fetch(s->img.luma.px, s->img.luma.w, s->img.luma.h, fx, fy, t, s->opt.border);
        product[t] = conv_product(value[t], p.weight[t]);
    }
    if (from_stepper)
        taps = s->stepper.taps;
    for (int t = 0; t < taps; ++t)
        sum += product[t];

    if (from_stepper)
        snprintf(line, sizeof line, "Output (%d, %d): tap %d of 9", fx, fy, taps);
    else
        snprintf(line, sizeof line, "Output (%d, %d)%s", fx, fy,
                 s->pinned ? ", pinned" : s->hovering ? ", under the mouse" : "");
    text_fit(f, line, L->arith.x, y, L->arith.w, s->pinned || s->hovering ? HOVER : WINDOW);
    y += lh(f);
    if (s->thread_view && s->phase == SCENE_PHASE_CPU) {
        long total = (long)s->img.luma.w * s->img.luma.h, idx = (long)fy * s->img.luma.w + fx;
        int n = scene_cpu_threads(s);
        snprintf(line, sizeof line, "CPU thread %ld of %d: outputs %ld\xE2\x80\xA6%ld", idx * n / total + 1, n,
                 total * (idx * n / total) / n, total * (idx * n / total + 1) / n - 1);
        text_fit(f, line, L->arith.x, y, L->arith.w, TEXT);
        y += lh(f);
        text_fit(f, "one band of rows each, in raster order", L->arith.x, y, L->arith.w, DIM);
        y += lh(f);
    } else if (s->thread_view) {
        long tid;
        scene_block_size(s, &bx, &by);
        tid = (long)(fy % by) * bx + fx % bx;
        snprintf(line, sizeof line, "block (%d, %d) \xC2\xB7 thread (%d, %d)", fx / bx, fy / by, fx % bx, fy % by);
        text_fit(f, line, L->arith.x, y, L->arith.w, TEXT);
        y += lh(f);
        snprintf(line, sizeof line, "global index %ld \xC2\xB7 warp %ld of its block", (long)fy * s->img.luma.w + fx,
                 tid / 32);
        text_fit(f, line, L->arith.x, y, L->arith.w, TEXT);
        y += lh(f);
    }
    {
        /* the three rows of products, in a smaller font if they would not fit */
        char rows[3][3][64];
        float widest = 0;
        for (int t = 0; t < 9; ++t) {
            value_text(p.weight[t], a, sizeof a);
            value_text(value[t], b, sizeof b);
            snprintf(rows[t / 3][t % 3], sizeof rows[0][0], "%s(%s\xC3\x97%s)", t == 0 ? "  " : "+ ", a, b);
        }
        for (int row = 0; row < 3; ++row) {
            float w = 0;
            for (int col = 0; col < 3; ++col)
                w += text_w(f, rows[row][col]) + 0.3f * L->pad;
            widest = fmaxf(widest, w);
        }
        if (widest > L->arith.w)
            f = font_px(v, (int)((float)rnd_font_line_height(v->small) * 0.8f * L->arith.w / widest));
        for (int row = 0; row < 3; ++row) {
            float x = L->arith.x;
            for (int col = 0; col < 3; ++col)
                x += rnd_text(f, rows[row][col], x, y, row * 3 + col < taps ? TEXT : FAINT) + 0.3f * L->pad;
            y += lh(f);
        }
        f = v->small;
    }
    value_text(sum, a, sizeof a);
    if (taps < 9) {
        snprintf(line, sizeof line, "running sum = %s", a);
    } else if (p.divisor != 1.0f) {
        value_text(p.divisor, b, sizeof b);
        value_text(conv_finish(sum, p.divisor), c, sizeof c);
        snprintf(line, sizeof line, "= %s \xC3\xB7 %s = %s", a, b, c);
    } else {
        snprintf(line, sizeof line, "= %s", a);
    }
    rnd_text(v->font, line, L->arith.x, y + 0.2f * L->pad, taps < 9 ? DIM : GREEN);
}

/* ---- thumbnails ------------------------------------------------------------ */

static void refresh_thumbs(view *v, const scene *s)
{
    int w = s->img.luma.w, h = s->img.luma.h, step, tw, th;
    bool gpu = s->phase == SCENE_PHASE_GPU, full;
    long done = gpu ? (long)w * h : scene_cpu_done(s);
    int y0;

    if (!s->img.luma.px)
        return;
    if (v->thumb_image != s->image_generation) {
        img_rgba small;
        step = (w > h ? w : h) / THUMB_MAX + 1;
        if ((w > h ? w : h) <= THUMB_MAX)
            step = 1;
        tw = (w + step - 1) / step;
        th = (h + step - 1) / step;
        small.w = tw;
        small.h = th;
        small.px = malloc((size_t)tw * th * 4);
        free(v->out_px.px);
        v->out_px = (img_rgba){tw, th, calloc((size_t)tw * th, 4)};
        if (!small.px || !v->out_px.px) {
            free(small.px);
            return;
        }
        for (int y = 0; y < th; ++y)
            for (int x = 0; x < tw; ++x)
                memcpy(small.px + 4 * ((size_t)y * tw + x), s->img.color.px + 4 * ((size_t)y * step * w + (size_t)x * step),
                       4);
        rnd_texture_set(&v->thumb_in, &small);
        free(small.px);
        v->thumb_step = step;
        v->thumb_image = s->image_generation;
        v->thumb_done = -1;
    }
    step = v->thumb_step;
    tw = v->out_px.w;
    th = v->out_px.h;
    if (v->thumb_done == done && v->thumb_phase == (int)s->phase && v->thumb_display == (int)s->opt.display &&
        v->thumb_gpu_at == s->gpu_shown_at && s->cpu_dirty_from >= done)
        return;
    /* rows to redo: from the first changed one to the walk's row, or all of
     * them after any other change */
    y0 = 0;
    full = !(!gpu && v->thumb_phase == (int)s->phase && v->thumb_display == (int)s->opt.display &&
             v->thumb_done >= 0 && v->thumb_done <= done);
    if (!full) {
        long from = v->thumb_done < ((scene *)s)->cpu_dirty_from ? v->thumb_done : ((scene *)s)->cpu_dirty_from;
        y0 = (int)(from / w) / step;
    }
    for (int y = y0; y < th; ++y) {
        if (!full && y > y0 && (long)y * step * w > done)
            break; /* rows past the walk are dark already */
        for (int x = 0; x < tw; ++x) {
            long idx = (long)y * step * w + (long)x * step;
            uint8_t *px = v->out_px.px + 4 * ((size_t)y * tw + x);
            if (gpu || idx < done) {
                uint8_t g = img_display_byte(gpu ? s->gpu_out.px[idx] : s->cpu_out.px[idx], s->opt.display);
                px[0] = px[1] = px[2] = g;
                px[3] = 255;
            } else {
                px[0] = px[1] = px[2] = 18;
                px[3] = 255;
            }
        }
    }
    if (full || v->thumb_out.w != tw || v->thumb_out.h != th) {
        rnd_texture_set(&v->thumb_out, &v->out_px);
    } else { /* only the rows that changed */
        img_rgba rows = {tw, th - y0, v->out_px.px + 4 * (size_t)y0 * tw};
        rnd_texture_sub(&v->thumb_out, 0, y0, &rows);
    }
    v->thumb_done = done;
    v->thumb_phase = (int)s->phase;
    v->thumb_display = (int)s->opt.display;
    v->thumb_gpu_at = s->gpu_shown_at;
    ((scene *)s)->cpu_dirty_from = done;
}

/* The image's rectangle inside a thumbnail box (aspect kept). */
static rect thumb_fit(const scene *s, rect box)
{
    float iw = (float)s->img.luma.w, ih = (float)s->img.luma.h;
    float k = fminf(box.w / iw, box.h / ih);
    rect r = {box.x + (box.w - iw * k) / 2, box.y + (box.h - ih * k) / 2, iw * k, ih * k};
    return r;
}

/* Thread view over the whole output: the CPU threads' bands, or the GPU's
 * blocks, as translucent colours over the thumbnail rectangle r. */
static void draw_owners(const scene *s, rect r)
{
    int w = s->img.luma.w, h = s->img.luma.h, bx, by;
    float kx = r.w / (float)w, ky = r.h / (float)h;
    scene_block_size(s, &bx, &by);
    if (s->phase == SCENE_PHASE_CPU) {
        long total = (long)w * h;
        int n = scene_cpu_threads(s);
        for (int t = 0; t < n; ++t) { /* band t: outputs [total*t/n, total*(t+1)/n), whole rows drawn */
            long i0 = total * t / n, i1 = total * (t + 1) / n;
            float y0 = (float)(i0 / w), y1 = (float)((i1 + w - 1) / w);
            rnd_rect(r.x, r.y + y0 * ky, r.w, (y1 - y0) * ky, alpha(BLOCK_COLOR[t % 8], 0.45f));
        }
    } else if ((long)((w + bx - 1) / bx) * ((h + by - 1) / by) <= 20000) {
        for (int y = 0; y < h; y += by)
            for (int x = 0; x < w; x += bx)
                rnd_rect(r.x + (float)x * kx, r.y + (float)y * ky, fminf((float)bx, (float)(w - x)) * kx,
                         fminf((float)by, (float)(h - y)) * ky, alpha(BLOCK_COLOR[(x / bx + 3 * (y / by)) % 8], 0.45f));
    }
}

static void draw_thumbs(view *v, const scene *s)
{
    const layout *L = &v->L;
    rect boxes[2] = {L->thumb_in, L->thumb_out};
    bool from_gpu = s->phase == SCENE_PHASE_GPU && s->gpu_presented;
    const rnd_texture *tex[2] = {&v->thumb_in, &v->thumb_out};
    rnd_color hue[2] = {BLUE, GREEN};

    if (L->thumb_in.h <= 0)
        return;
    refresh_thumbs(v, s);
    rnd_text(v->small, T(s, "Whole image"), L->thumb_in.x, L->thumb_in.y - lh(v->small), DIM);
    for (int i = 0; i < 2; ++i) {
        rect r = thumb_fit(s, boxes[i]);
        float k = r.w / (float)s->img.luma.w;
        if (i == 1 && from_gpu) { /* the GPU's buffer as it is: it never came back to the host */
            if (v->plane_run != s->gpu_runs) {
                v->plane_ok = rnd_plane_from_buffer(&v->plane, s->gpu_buffer, s->img.luma.w, s->img.luma.h);
                v->plane_run = s->gpu_runs;
            }
            if (v->plane_ok)
                rnd_plane_image(&v->plane, r.x, r.y, r.w, r.h, (int)s->opt.display, true);
            else /* too big for a GL texture here: the copy that came back */
                rnd_image(tex[i], r.x, r.y, r.w, r.h, WHITE, true);
        } else {
            rnd_image(tex[i], r.x, r.y, r.w, r.h, WHITE, true);
        }
        rnd_frame(r.x - 1, r.y - 1, r.w + 2, r.h + 2, 1, hue[i]);
        if (i == 1 && s->thread_view)
            draw_owners(s, r);
        /* where the grids are */
        {
            int cw = s->view_cells < s->img.luma.w - s->view_x ? s->view_cells : s->img.luma.w - s->view_x;
            int ch = s->view_cells < s->img.luma.h - s->view_y ? s->view_cells : s->img.luma.h - s->view_y;
            rnd_frame(r.x + (float)s->view_x * k - 1, r.y + (float)s->view_y * k - 1, fmaxf(3, (float)cw * k) + 2,
                      fmaxf(3, (float)ch * k) + 2, 2, WINDOW);
        }
    }
}

/* ---- status and chart ------------------------------------------------------- */

static void engine_line(view *v, const scene_engine *e, const char *label, float x, float y)
{
    char buf[320], t[32];
    if (!e->engine)
        snprintf(buf, sizeof buf, "%s: unavailable: %s", label, e->why);
    else if (!e->measured && e->why[0])
        snprintf(buf, sizeof buf, "%s failed: %s", label, e->why);
    else if (!e->measured)
        snprintf(buf, sizeof buf, "%s: %s", label, eng_description(e->engine));
    else {
        ms_text(eng_total_ms(&e->timing), t, sizeof t);
        snprintf(buf, sizeof buf, "%s: %s (median of %d) on %s", label, t, e->timing.reps, eng_description(e->engine));
    }
    text_fit(v->small, buf, x, y, v->L.status.w, e->engine ? DIM : FAINT);
}

static void gib(long long bytes, char *buf, size_t size)
{
    if (bytes >= (1LL << 30))
        snprintf(buf, size, "%.1f GiB", (double)bytes / (double)(1LL << 30));
    else
        snprintf(buf, size, "%.0f MiB", (double)bytes / (double)(1LL << 20));
}

/* "NVIDIA H200 · 132 SMs · convis holds 1.0 GiB · 139.0 GiB free of 140.0 GiB" */
static void device_text(const scene *s, char *buf, size_t size)
{
    const eng_device_info *d = &s->gpu_device;
    char a[32], b[32], c[32];
    size_t n = (size_t)snprintf(buf, size, "device: %s", d->name);
    if (d->compute_units > 0 && n < size)
        n += (size_t)snprintf(buf + n, size - n, " \xC2\xB7 %d %ss", d->compute_units, d->unit_name);
    if (d->memory_total > 0 && d->memory_free >= 0 && n < size) {
        gib(d->memory_engine, a, sizeof a);
        gib(d->memory_free, b, sizeof b);
        gib(d->memory_total, c, sizeof c);
        n += (size_t)snprintf(buf + n, size - n, " \xC2\xB7 convis holds %s \xC2\xB7 %s free of %s", a, b, c);
    }
    if (d->present == ENG_PRESENT_COPY && d->present_why[0] && n < size) /* why interop is not used */
        snprintf(buf + n, size - n, " \xC2\xB7 %s", d->present_why);
}

/* How the GPU's result reaches the screen, in words. */
static const char *result_label(const scene *s)
{
    if (s->gpu_result == ENG_RESULT_PER_PIXEL)
        return "one copy per pixel";
    if (s->gpu_result == ENG_RESULT_BULK)
        return "one bulk copy back";
    if (!s->gpu_device_known || !s->gpu_presented)
        return "straight into the picture";
    switch (s->gpu_device.present) {
    case ENG_PRESENT_INTEROP:
        return "CUDA-GL interop, no copy";
    case ENG_PRESENT_COPY:
        return "via the host (interop not possible here)";
    default:
        return "computed in the GL context, no copy";
    }
}

/* A lesson's panel, in place of the engine lines: the step, the narration
 * with this machine's numbers in it, and what the learner is to do. It sits
 * below the grids and never covers them. */
static void draw_lesson(view *v, const scene *s)
{
    const layout *L = &v->L;
    const app_player *p = &s->player;
    float x = L->status.x, y = L->status.y, bottom = L->play_button.y - 0.3f * L->pad;
    char head[512], text[4096], hint[256];

    snprintf(head, sizeof head, "%d / %d \xC2\xB7 %s", p->step + 1, p->lesson.step_count, p->lesson.title);
    text_fit(v->font, head, x, y, L->status.w, WINDOW);
    y += L->line;
    app_player_narration(s, text, sizeof text);
    app_player_hint(s, hint, sizeof hint);
    if (!hint[0])
    {
        bool zh = strcmp(s->lang, "zh") == 0, last = p->step + 1 >= p->lesson.step_count;
        snprintf(hint, sizeof hint, "%s",
                 zh ? (last ? "\xE6\x9C\xAC\xE8\xAF\xBE\xE5\xAE\x8C\xE3\x80\x82\xE2\x86\x90 \xE6\x88\x96 PageUp\xEF\xBC\x9A\xE4\xB8\x8A\xE4\xB8\x80\xE6\xAD\xA5"
                            : "\xE2\x86\x92 \xE6\x88\x96 PageDown\xEF\xBC\x9A\xE4\xB8\x8B\xE4\xB8\x80\xE6\xAD\xA5 \xC2\xB7 \xE2\x86\x90 \xE6\x88\x96 PageUp\xEF\xBC\x9A\xE4\xB8\x8A\xE4\xB8\x80\xE6\xAD\xA5")
                    : (last ? "The end of this lesson. \xE2\x86\x90 or PageUp: back"
                            : "\xE2\x86\x92 or PageDown: next \xC2\xB7 \xE2\x86\x90 or PageUp: back"));
    }
    {
        /* the narration in the small font, smaller still if it would not fit */
        rnd_font *f = v->small;
        float room = bottom - y - lh(f);
        for (int px = rnd_font_line_height(v->small) * 8 / 10; px > 8 &&
                                                            rnd_text_wrapped(f, text, 0, 0, L->status.w, TEXT, false) > room;
             px -= 1) {
            f = font_px(v, px);
            room = bottom - y - lh(f);
        }
        y += rnd_text_wrapped(f, text, x, y, L->status.w, TEXT, true);
    }
    text_fit(v->small, hint, x, fmaxf(y, bottom - lh(v->small)), L->status.w, p->waiting ? WINDOW : DIM);
}

static void draw_status(view *v, const scene *s)
{
    const layout *L = &v->L;
    float x = L->status.x, y = L->status.y;
    char buf[256], d[32], t[32];
    long done = scene_cpu_done(s), total = (long)s->img.luma.w * s->img.luma.h;

    if (s->phase == SCENE_PHASE_CPU) {
        thousands(done, d, sizeof d);
        thousands(total, t, sizeof t);
        snprintf(buf, sizeof buf, "CPU walk: %s / %s outputs \xC2\xB7 %s at %.0f output%s a second", d, t,
                 s->playing ? "playing" : (done == total ? "finished" : "paused"), s->speed,
                 s->speed == 1 ? "" : "s");
    } else {
        int bx, by;
        long gx, gy;
        scene_block_size(s, &bx, &by);
        gx = (s->img.luma.w + bx - 1) / bx;
        gy = (s->img.luma.h + by - 1) / by;
        thousands(gx * gy * bx * by, t, sizeof t);
        snprintf(buf, sizeof buf, "GPU: %ld\xC3\x97%ld blocks \xC3\x97 %d\xC3\x97%d threads = %s threads", gx, gy, bx, by,
                 t);
    }
    text_fit(v->font, buf, x, y, L->status.w, TEXT);
    y += L->line;
    if (s->phase == SCENE_PHASE_GPU) {
        bool options = s->gpu.engine && eng_has_options(eng_class_of(s->gpu.engine));
        if (options)
            snprintf(buf, sizeof buf, "kernel: %s (N) \xC2\xB7 result: %s (C) \xC2\xB7 times on the whole image:",
                     eng_kernel_name(s->gpu_kernel), result_label(s));
        else
            snprintf(buf, sizeof buf, "result: %s (C) \xC2\xB7 times on the whole image:", result_label(s));
        text_fit(v->small, buf, x, y, L->status.w, DIM);
    } else {
        text_fit(v->small, "The animation is for the eye; the times are measured separately, on the whole image:", x,
                 y, L->status.w, FAINT);
    }
    y += lh(v->small);
    engine_line(v, &s->seq, "cpu-seq", x, y);
    y += lh(v->small);
    engine_line(v, &s->par, "cpu-par", x, y);
    y += lh(v->small);
    engine_line(v, &s->gpu, s->gpu.name, x, y);
    y += lh(v->small);
    if (s->gpu.note[0]) {
        text_fit(v->small, s->gpu.note, x, y, L->status.w, FAINT);
    } else if (s->gpu_device_known) {
        device_text(s, buf, sizeof buf);
        text_fit(v->small, buf, x, y, L->status.w, FAINT);
    }

    (void)ms_text;
}

static void draw_buttons(view *v, const scene *s)
{
    const layout *L = &v->L;
    chip(v, L->play_button, T(s, s->playing ? "Space  pause" : "Space  play"), s->playing, WINDOW);
    chip(v, L->gpu_button, T(s, "G  launch on the GPU"), s->phase == SCENE_PHASE_GPU, GREEN);
    rnd_text(v->small, T(s, "F1 or ?  every key"), L->gpu_button.x + L->gpu_button.w + L->pad,
             L->gpu_button.y + (L->gpu_button.h - lh(v->small)) / 2, DIM);
}

/* Length of a bar for t ms on a scale to `max` (log from `lo` when log). */
static float bar_len(double t, double lo, double max, bool log_scale, float width)
{
    if (t <= 0)
        return 0;
    if (!log_scale)
        return (float)(t / max) * width;
    if (t <= lo)
        return 2;
    return (float)(log10(t / lo) / log10(max / lo)) * width;
}

/* The size sweep: time against image size, both on log scales, one line per
 * engine with its own marker shape (square, diamond, circle-ish cross), and
 * the size from which the GPU beat cpu-par marked. */
static void draw_sweep(view *v, const scene *s)
{
    const layout *L = &v->L;
    const char *names[3] = {"cpu-seq", "cpu-par", s->gpu.name};
    rnd_color colors[3] = {PHASE_COLOR[ENG_COMPUTE], PHASE_COLOR[ENG_UPLOAD], PHASE_COLOR[ENG_PRESENT]};
    double lo = 1e30, hi = 0;
    float x0, x1, y0, y1, legend_x;
    int cross = scene_sweep_crossover(s);
    char buf[160];

    rnd_rect(L->chart.x, L->chart.y, L->chart.w, L->chart.h, PANEL);
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < s->sweep.count; ++i)
            if (s->sweep.ms[k][i] > 0) {
                lo = fmin(lo, s->sweep.ms[k][i]);
                hi = fmax(hi, s->sweep.ms[k][i]);
            }
    if (cross)
        snprintf(buf, sizeof buf, "Size sweep (W hides it): %s beats cpu-par from %d\xC3\x97%d up", s->gpu.name, cross,
                 cross);
    else
        snprintf(buf, sizeof buf, "Size sweep (W hides it): %s does not stay ahead of cpu-par up to %d\xC3\x97%d",
                 s->gpu.name, s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0,
                 s->sweep.count ? s->sweep.size[s->sweep.count - 1] : 0);
    text_fit(v->small, buf, L->chart.x + 0.5f * L->pad, L->chart.y + 0.3f * L->pad, L->chart.w - L->pad, TEXT);
    if (hi <= 0 || s->sweep.count < 2)
        return;
    lo = pow(10, floor(log10(lo)));
    hi = pow(10, ceil(log10(hi)));
    legend_x = L->chart.x + L->chart.w - text_w(v->small, "cpu-seq ") - 2 * L->pad;
    x0 = L->chart.x + text_w(v->small, "1000 ms ") + L->pad;
    x1 = legend_x - L->pad;
    y0 = L->chart.y + lh(v->small) * 1.4f;
    y1 = L->chart.y + L->chart.h - lh(v->small) * 1.3f;
    /* axes: a line per power of ten, the sizes below */
    {
        float last_label = 1e9f;
        for (double t = lo; t <= hi * 1.0001; t *= 10) {
            float y = y1 - (float)(log10(t / lo) / log10(hi / lo)) * (y1 - y0);
            char label[32];
            rnd_rect(x0, y, x1 - x0, 1, (rnd_color){0.3f, 0.32f, 0.36f, 1});
            if (last_label - y < lh(v->small)) /* crowded: every other power of ten */
                continue;
            if (t >= 1000)
                snprintf(label, sizeof label, "%g s", t / 1000);
            else if (t >= 1)
                snprintf(label, sizeof label, "%g ms", t);
            else
                snprintf(label, sizeof label, "%g \xC2\xB5s", t * 1000);
            rnd_text(v->small, label, L->chart.x + 0.5f * L->pad, y - lh(v->small) / 2, DIM);
            last_label = y;
        }
    }
    for (int i = 0; i < s->sweep.count; ++i) {
        float x = x0 + (float)i / (float)(s->sweep.count - 1) * (x1 - x0);
        snprintf(buf, sizeof buf, "%d\xC2\xB2", s->sweep.size[i]);
        rnd_text(v->small, buf, x - text_w(v->small, buf) / 2, y1 + 0.2f * L->pad, DIM);
        if (s->sweep.size[i] == cross) /* the crossover */
            rnd_rect(x - 1, y0, 2, y1 - y0, WHITE);
    }
    for (int k = 0; k < 3; ++k) {
        float px = 0, py = 0;
        bool have = false;
        for (int i = 0; i < s->sweep.count; ++i) {
            float x, y, m = 0.35f * lh(v->small);
            if (s->sweep.ms[k][i] <= 0)
                continue;
            x = x0 + (float)i / (float)(s->sweep.count - 1) * (x1 - x0);
            y = y1 - (float)(log10(s->sweep.ms[k][i] / lo) / log10(hi / lo)) * (y1 - y0);
            if (have) { /* a line of small squares from the last point */
                int steps = (int)(fmaxf(fabsf(x - px), fabsf(y - py)) / 2) + 1;
                for (int j = 0; j <= steps; ++j)
                    rnd_rect(px + (x - px) * (float)j / (float)steps - 1, py + (y - py) * (float)j / (float)steps - 1,
                             2, 2, colors[k]);
            }
            /* markers differ in shape as well as colour */
            if (k == 0)
                rnd_rect(x - m, y - m, 2 * m, 2 * m, colors[k]);
            else if (k == 1)
                rnd_frame(x - m, y - m, 2 * m, 2 * m, 2, colors[k]);
            else {
                rnd_rect(x - m, y - 1, 2 * m, 3, colors[k]);
                rnd_rect(x - 1, y - m, 3, 2 * m, colors[k]);
            }
            px = x, py = y, have = true;
        }
        rnd_rect(legend_x, y0 + (float)k * lh(v->small) * 1.2f + 0.3f * lh(v->small), 0.6f * lh(v->small),
                 0.6f * lh(v->small), colors[k]);
        rnd_text(v->small, names[k], legend_x + 0.9f * lh(v->small), y0 + (float)k * lh(v->small) * 1.2f, TEXT);
    }
}

static void draw_chart(view *v, const scene *s)
{
    if (s->sweep.shown) {
        draw_sweep(v, s);
        return;
    }
    const layout *L = &v->L;
    const scene_engine *e[3] = {&s->seq, &s->par, &s->gpu};
    const char *label[3] = {"cpu-seq", "cpu-par", s->gpu.name};
    double lo = 1e30, hi = 0;
    bool log_scale;
    float x0, y = L->chart.y, bar_h = lh(v->small) * 0.95f, label_w = text_w(v->small, "cpu-seq ") + L->pad,
              width;
    char buf[256], t[32];

    rnd_rect(L->chart.x, L->chart.y, L->chart.w, L->chart.h, PANEL);
    for (int i = 0; i < 3; ++i)
        if (e[i]->measured) {
            double total = eng_total_ms(&e[i]->timing);
            lo = fmin(lo, total);
            hi = fmax(hi, total);
        }
    lo = fmax(lo, 1e-6); /* a time too short for the clock reads 0 */
    log_scale = hi > 0 && hi / lo > 30;
    if (log_scale)
        lo = pow(10, floor(log10(lo)) - 0.3);
    snprintf(buf, sizeof buf, "%s %d\xC3\x97%d%s", T(s, "Time for the whole"), s->img.luma.w, s->img.luma.h,
             log_scale ? " (log scale)" : "");
    rnd_text(v->small, buf, L->chart.x + 0.5f * L->pad, y + 0.3f * L->pad, TEXT);
    y += lh(v->small) + 0.5f * L->pad;
    x0 = L->chart.x + 0.5f * L->pad + label_w;
    width = L->chart.w - label_w - text_w(v->small, " 999.99 ms ") - L->pad;
    for (int i = 0; i < 3; ++i) {
        float x = x0;
        rnd_text(v->small, label[i], L->chart.x + 0.5f * L->pad, y, e[i]->engine ? TEXT : FAINT);
        if (!e[i]->measured) {
            rnd_text(v->small,
                     !e[i]->engine ? "unavailable here"
                     : i == 2      ? "press G to launch"
                                   : "measuring\xE2\x80\xA6",
                     x0, y, FAINT);
            y += bar_h * 1.25f;
            continue;
        }
        if (log_scale) { /* one bar: the phases' shares of its length */
            double total = eng_total_ms(&e[i]->timing);
            float len = bar_len(total, lo, hi, true, width);
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                if (e[i]->timing.has[p] && e[i]->timing.ms[p] > 0) {
                    float w = (float)(e[i]->timing.ms[p] / total) * len;
                    rnd_rect(x, y, w, bar_h, PHASE_COLOR[p]);
                    x += w;
                }
        } else {
            for (int p = 0; p < ENG_PHASE_COUNT; ++p)
                if (e[i]->timing.has[p] && e[i]->timing.ms[p] > 0) {
                    float w = bar_len(e[i]->timing.ms[p], lo, hi, false, width);
                    rnd_rect(x, y, w, bar_h, PHASE_COLOR[p]);
                    x += w;
                }
        }
        ms_text(eng_total_ms(&e[i]->timing), t, sizeof t);
        rnd_text(v->small, t, x + 0.4f * L->pad, y, TEXT);
        y += bar_h * 1.25f;
    }
    /* ratios, and the legend of phases */
    buf[0] = '\0';
    if (s->seq.measured && s->par.measured) {
        double r = eng_total_ms(&s->seq.timing) / eng_total_ms(&s->par.timing);
        snprintf(buf, sizeof buf, "cpu-par %.1f\xC3\x97 %s than cpu-seq", r >= 1 ? r : 1 / r,
                 r >= 1 ? "faster" : "slower");
    }
    if (s->gpu.measured && s->gpu.timing.extrapolated) {
        char m[32], t2[32];
        size_t n = strlen(buf);
        thousands(s->gpu.timing.measured_px, m, sizeof m);
        thousands(s->gpu.timing.total_px, t2, sizeof t2);
        snprintf(buf + n, sizeof buf - n, "%s%s: download extrapolated from %s of %s pixels", n ? " \xC2\xB7 " : "",
                 s->gpu.name, m, t2);
    } else if (s->gpu.measured && s->par.measured) {
        double r = eng_total_ms(&s->par.timing) / eng_total_ms(&s->gpu.timing);
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s%s %.1f\xC3\x97 %s than cpu-par", n ? " \xC2\xB7 " : "", s->gpu.name,
                 r >= 1 ? r : 1 / r, r >= 1 ? "faster" : "slower");
    }
    text_fit(v->small, buf, L->chart.x + 0.5f * L->pad, y, L->chart.w - L->pad, TEXT);
    y += lh(v->small);
    {
        float x = L->chart.x + 0.5f * L->pad;
        for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
            const char *name = eng_phase_name((eng_phase)p);
            if (x + bar_h * 0.8f + text_w(v->small, name) > L->chart.x + L->chart.w)
                x = L->chart.x + 0.5f * L->pad, y += lh(v->small);
            rnd_rect(x, y + bar_h * 0.25f, bar_h * 0.6f, bar_h * 0.6f, PHASE_COLOR[p]);
            x += bar_h * 0.8f;
            x += rnd_text(v->small, name, x, y, DIM) + L->pad;
        }
    }
}

/* ---- top ------------------------------------------------------------------- */

static void draw_top(view *v, const scene *s)
{
    const layout *L = &v->L;
    char buf[512];
    static const char *display_label[] = {"display: clamp", "display: |value|", "display: signed (0 = grey)"};

    snprintf(buf, sizeof buf, "convis \xC2\xB7 %s",
             T(s, s->phase == SCENE_PHASE_GPU ? "every output at once on the GPU" : "one output at a time on the CPU"));
    {
        char right[320];
        float rw;
        snprintf(right, sizeof right, "%s \xC2\xB7 %d\xC3\x97%d", s->image_name, s->img.luma.w, s->img.luma.h);
        rw = fminf(text_w(v->font, right), L->W * 0.35f);
        text_fit(v->big, buf, L->pad, 0.4f * L->pad, L->W - 3 * L->pad - rw, TEXT);
        text_fit(v->font, right, L->W - L->pad - rw, 0.4f * L->pad + (lh(v->big) - L->line) / 2, rw + 1, DIM);
    }
    for (int i = 0; i < 9; ++i) {
        char label[48];
        snprintf(label, sizeof label, "%d %s", i + 1, filt_preset((size_t)i)->name);
        chip(v, L->preset[i], label, s->preset == i, TEXT);
    }
    snprintf(buf, sizeof buf, "border: %s", conv_border_name(s->opt.border));
    chip(v, L->border, buf, false, TEXT);
    chip(v, L->flip, s->opt.flip ? "true convolution" : "cross-correlation", s->opt.flip, TEXT);
    chip(v, L->display, display_label[s->opt.display], false, TEXT);

    if (s->banner[0]) {
        banner_text(s, buf, sizeof buf);
        rnd_rect(L->banner.x, L->banner.y, L->banner.w, L->banner.h, BANNER_BG);
        rnd_text_wrapped(v->font, buf, L->pad, L->banner.y + 0.3f * L->pad, L->W - 2 * L->pad, WHITE, true);
    }
}

/* The menu of lessons, over everything, one row each. */
static void draw_menu(view *v, const scene *s)
{
    layout *L = &v->L;
    float x = 2 * L->pad, y = L->pad;
    rnd_rect(0, 0, L->W, L->H, (rnd_color){0.05f, 0.05f, 0.07f, 0.97f});
    rnd_text(v->big, strcmp(s->lang, "zh") == 0 ? "\xE8\xAF\xBE\xE7\xA8\x8B (L / Esc)" : "Lessons (L or Esc closes this)",
             x, y, TEXT);
    y += lh(v->big) + L->pad;
    if (s->lesson_count == 0)
        rnd_text(v->font, "No lessons found in the lessons folder for this language.", x, y, DIM);
    for (int i = 0; i < s->lesson_count; ++i) {
        char num[8];
        L->lesson_row[i] = (rect){x - 0.5f * L->pad, y - 0.2f * L->pad, L->W - 3 * L->pad, L->line * 1.4f};
        if (s->player.active && strcmp(s->player.path, s->lessons[i].path) == 0)
            rnd_rect(L->lesson_row[i].x, L->lesson_row[i].y, L->lesson_row[i].w, L->lesson_row[i].h, PANEL);
        snprintf(num, sizeof num, "%d", i + 1);
        rnd_text(v->font, num, x, y, WINDOW);
        text_fit(v->font, s->lessons[i].title, x + 3 * L->pad, y, L->W - 6 * L->pad, TEXT);
        y += L->line * 1.4f;
    }
    L->lesson_rows = s->lesson_count;
}

static void draw_help(view *v)
{
    const layout *L = &v->L;
    float x = 2 * L->pad, y, col_w = (L->W - 4 * L->pad) / 2, key_w = 0;
    size_t n = app_action_count(), shown = 0, half;

    rnd_rect(0, 0, L->W, L->H, (rnd_color){0.05f, 0.05f, 0.07f, 0.97f});
    for (size_t i = 0; i < n; ++i)
        if (app_action_at(i)->help)
            key_w = fmaxf(key_w, text_w(v->font, app_action_at(i)->keys) + 1.5f * L->pad);
    rnd_text(v->big, "Every key (F1, ? or Esc closes this)", x, L->pad, TEXT);
    for (size_t i = 0; i < n; ++i)
        shown += app_action_at(i)->help != NULL;
    half = (shown + 1) / 2;
    y = L->pad * 2 + lh(v->big);
    shown = 0;
    for (size_t i = 0; i < n; ++i) {
        const app_action *a = app_action_at(i);
        float cx;
        if (!a->help)
            continue;
        cx = x + (shown >= half ? col_w : 0);
        if (shown == half)
            y = L->pad * 2 + lh(v->big);
        rnd_text(v->font, a->keys, cx, y, WINDOW);
        text_fit(v->font, a->help, cx + key_w, y, col_w - key_w - L->pad, TEXT);
        y += L->line * 1.15f;
        ++shown;
    }
    y = fmaxf(y, L->pad * 2 + lh(v->big) + (float)half * L->line * 1.15f) + L->pad;
    rnd_text_wrapped(v->small,
                     "Mouse: hover an output to see its 3\xC3\x97" "3 inputs and arithmetic; click to pin it. Drag a "
                     "grid or click a thumbnail to move; the wheel zooms. Click a kernel cell and type a number "
                     "(Enter applies, Tab moves on). Click a filter's name to choose it. Drop an image file on the "
                     "window to open it.",
                     x, y, L->W - 4 * L->pad, DIM, true);
}

void view_draw(view *v, scene *s, int w, int h, double now_ms)
{
    if (s->blank) {
        rnd_begin(w, h, (rnd_color){0, 0, 0, 1});
        rnd_end();
        return;
    }
    compute_layout(v, s, w, h);
    rnd_begin(w, h, BG);
    if (s->img.luma.px) {
        draw_grids(v, s, now_ms);
        draw_kernel(v, s);
        draw_arithmetic(v, s);
        draw_thumbs(v, s);
        if (s->player.active)
            draw_lesson(v, s);
        else
            draw_status(v, s);
        draw_buttons(v, s);
        draw_chart(v, s);
    }
    draw_top(v, s);
    if (s->notice[0] && now_ms - s->notice_at < 4000) {
        float tw = text_w(v->font, s->notice) + 2 * v->L.pad;
        float x = v->L.W - tw - v->L.pad, y = v->L.H - v->L.line - 2 * v->L.pad;
        rnd_rect(x, y, tw, v->L.line + v->L.pad, (rnd_color){0.20f, 0.22f, 0.28f, 0.95f});
        rnd_text(v->font, s->notice, x + v->L.pad, y + 0.5f * v->L.pad, TEXT);
    }
    v->L.lesson_rows = 0;
    if (s->menu)
        draw_menu(v, s);
    else if (s->help)
        draw_help(v);
    rnd_end();
}

view_hit view_hit_test(view *v, const scene *s, int px, int py)
{
    const layout *L = &v->L;
    view_hit hit = {VIEW_HIT_NONE, 0, 0, 0};
    float x = (float)px, y = (float)py;

    if (s->menu) {
        for (int i = 0; i < L->lesson_rows; ++i)
            if (inside(L->lesson_row[i], x, y))
                return (view_hit){VIEW_HIT_LESSON, 0, 0, i};
        return hit;
    }
    if (s->help || s->blank || !s->img.luma.px)
        return hit;
    /* the layout of the scene as it is now (a zoom may have come since the
     * last frame) */
    compute_layout(v, s, (int)L->W, (int)L->H);
    for (int i = 0; i < 9; ++i)
        if (inside(L->preset[i], x, y))
            return (view_hit){VIEW_HIT_PRESET, 0, 0, i};
    if (inside(L->border, x, y))
        return (view_hit){VIEW_HIT_BORDER, 0, 0, 0};
    if (inside(L->flip, x, y))
        return (view_hit){VIEW_HIT_FLIP, 0, 0, 0};
    if (inside(L->display, x, y))
        return (view_hit){VIEW_HIT_DISPLAY, 0, 0, 0};
    if (inside(L->gpu_button, x, y))
        return (view_hit){VIEW_HIT_GPU_BUTTON, 0, 0, 0};
    if (inside(L->play_button, x, y))
        return (view_hit){VIEW_HIT_PLAY_BUTTON, 0, 0, 0};
    if (inside(L->kernel, x, y)) {
        int col = (int)((x - L->kernel.x) / (L->kernel.w / 3)), row = (int)((y - L->kernel.y) / (L->kernel.h / 3));
        return (view_hit){VIEW_HIT_KERNEL_CELL, 0, 0, row * 3 + col};
    }
    for (int i = 0; i < 2; ++i) {
        rect g = i ? L->output : L->input;
        if (inside(g, x, y)) {
            int cx = s->view_x + (int)((x - g.x) / L->cell), cy = s->view_y + (int)((y - g.y) / L->cell);
            if (cx < s->img.luma.w && cy < s->img.luma.h)
                return (view_hit){i ? VIEW_HIT_OUTPUT_CELL : VIEW_HIT_INPUT_CELL, cx, cy, 0};
        }
    }
    for (int i = 0; i < 2; ++i) {
        rect r = thumb_fit(s, i ? L->thumb_out : L->thumb_in);
        if (inside(r, x, y))
            return (view_hit){VIEW_HIT_THUMB, (int)((x - r.x) / r.w * (float)s->img.luma.w),
                              (int)((y - r.y) / r.h * (float)s->img.luma.h), 0};
    }
    return hit;
}
