#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/linebreak.h"

#define ATLAS_SIZE 2048
#define SOLID 4         /* a white block at the atlas's corner, for rectangles (rnd_text_solid) */
#define TABLE_SIZE 4096 /* glyphs a font remembers; open addressing, power of two */

typedef struct glyph {
    uint32_t cp;    /* 0 = empty slot */
    int x, y, w, h; /* in the atlas */
    int advance;
} glyph;

/* One atlas texture holds the glyphs of every font, so text of any size
 * draws in the same batch as other text. When it is full it starts again,
 * and every font forgets its glyphs (they carry the atlas's generation). */
static struct {
    rnd_texture tex;
    int shelf_x, shelf_y, shelf_h; /* packing: rows ("shelves") left to right */
    unsigned generation;
    int fonts; /* alive: the atlas goes with the last */
} A;

struct rnd_font {
    int px, line_height;
    rnd_rasterize_fn rasterize;
    void *user;
    unsigned generation; /* the atlas generation the table is for */
    int used;
    glyph table[TABLE_SIZE];
};

/* Decodes one UTF-8 code point at *s and moves past it (U+FFFD for bad
 * bytes). */
static uint32_t rnd_utf8_next(const char **s)
{
    return lb_utf8_next(s);
}

/* Starts the atlas again, empty (transparent). The pixels are uploaded as
 * zeros rather than left undefined: on llvmpipe a texture made without data,
 * or a 1024x1024 one, made every later frame several times slower
 * (measured with --report-frames). */
static bool clear_atlas(void)
{
    img_rgba blank = {ATLAS_SIZE, ATLAS_SIZE, NULL};
    bool ok = true;
    if (!A.tex.id) {
        blank.px = calloc((size_t)ATLAS_SIZE * ATLAS_SIZE, 4);
        if (!blank.px)
            return err_set("out of memory for the glyph atlas");
        ok = rnd_texture_set(&A.tex, &blank);
        free(blank.px);
    }
    if (ok) { /* the solid block: rectangles drawn from it batch with the text */
        uint8_t white[SOLID * SOLID * 4];
        img_rgba solid = {SOLID, SOLID, white};
        memset(white, 255, sizeof white);
        rnd_texture_sub(&A.tex, 0, 0, &solid);
    }
    /* glyphs of the old generation are never drawn again, so their pixels
     * may stay: new ones overwrite them */
    A.shelf_x = SOLID + 1;
    A.shelf_y = A.shelf_h = 0;
    ++A.generation;
    return ok;
}

bool rnd_text_solid(const rnd_texture **atlas, float *u, float *v)
{
    if (!A.tex.id)
        return false;
    *atlas = &A.tex;
    *u = *v = (float)SOLID / 2 / ATLAS_SIZE; /* the middle of the white block: every sample white */
    return true;
}

rnd_font *rnd_font_create(int px, int line_height, rnd_rasterize_fn rasterize, void *user)
{
    rnd_font *f;
    if (!A.tex.id && !clear_atlas())
        return NULL;
    f = calloc(1, sizeof *f);
    if (!f) {
        err_set("out of memory");
        return NULL;
    }
    f->px = px;
    f->line_height = line_height;
    f->rasterize = rasterize;
    f->user = user;
    f->generation = A.generation;
    ++A.fonts;
    return f;
}

void rnd_font_destroy(rnd_font *f)
{
    if (!f)
        return;
    free(f);
    if (--A.fonts == 0) {
        rnd_texture_free(&A.tex);
        memset(&A, 0, sizeof A);
    }
}

int rnd_font_line_height(const rnd_font *f)
{
    return f->line_height;
}

int rnd_font_px(const rnd_font *f)
{
    return f->px;
}

static glyph *slot_of(rnd_font *f, uint32_t cp)
{
    uint32_t i = (cp * 2654435761u) & (TABLE_SIZE - 1);
    while (f->table[i].cp && f->table[i].cp != cp)
        i = (i + 1) & (TABLE_SIZE - 1);
    return &f->table[i];
}

/* The glyph of cp, rasterised and packed on first use; NULL when it cannot
 * be had (the caller skips it). */
static const glyph *get_glyph(rnd_font *f, uint32_t cp)
{
    glyph *g;
    img_rgba img;
    int advance;

    if (f->generation != A.generation || f->used >= TABLE_SIZE / 2) {
        memset(f->table, 0, sizeof f->table); /* the atlas started again */
        f->used = 0;
        f->generation = A.generation;
    }
    g = slot_of(f, cp);
    if (g->cp == cp)
        return g;
    if (!f->rasterize(f->user, cp, &img, &advance))
        return NULL;
    if (img.w > ATLAS_SIZE || img.h > ATLAS_SIZE) {
        free(img.px);
        return NULL;
    }
    if (A.shelf_x + img.w + 1 > ATLAS_SIZE) { /* next shelf, below the solid block at least */
        A.shelf_y += (A.shelf_y == 0 && A.shelf_h < SOLID ? SOLID : A.shelf_h) + 1;
        A.shelf_x = 0;
        A.shelf_h = 0;
    }
    if (A.shelf_y + img.h > ATLAS_SIZE) { /* full: start again */
        rnd_flush();                      /* what is queued still shows the old glyphs */
        if (!clear_atlas()) {
            free(img.px);
            return NULL;
        }
        memset(f->table, 0, sizeof f->table);
        f->used = 0;
        f->generation = A.generation;
    }
    g = slot_of(f, cp);
    g->cp = cp;
    g->x = A.shelf_x;
    g->y = A.shelf_y;
    g->w = img.w;
    g->h = img.h;
    g->advance = advance;
    rnd_texture_sub(&A.tex, g->x, g->y, &img);
    free(img.px);
    A.shelf_x += img.w + 1;
    if (img.h > A.shelf_h)
        A.shelf_h = img.h;
    ++f->used;
    return g;
}

#define MAX_TEXT_BOXES 4096

static struct {
    bool on;
    int layer, role, count, dropped;
    rnd_text_box box[MAX_TEXT_BOXES];
} rec;

void rnd_text_record(bool on)
{
    if (on) {
        rec.count = rec.dropped = 0;
        rec.layer = rec.role = 0;
    }
    rec.on = on;
}

void rnd_text_layer(void)
{
    ++rec.layer;
}

int rnd_text_role(int role)
{
    int before = rec.role;
    rec.role = role;
    return before;
}

int rnd_text_boxes(const rnd_text_box **boxes, int *dropped)
{
    *boxes = rec.box;
    *dropped = rec.dropped;
    return rec.count;
}

static void record_run(const rnd_font *f, const char *s, const char *end, float x, float y, float w)
{
    rnd_text_box *b;
    size_t n = 0;
    if (!rec.on || w <= 0)
        return;
    if (rec.count >= MAX_TEXT_BOXES) {
        ++rec.dropped;
        return;
    }
    b = &rec.box[rec.count++];
    *b = (rnd_text_box){x, y, w, (float)f->line_height, rec.layer, f->px, rec.role, ""};
    /* its start, whole characters only, control characters as spaces */
    while (s < end && *s) {
        const char *next = s;
        lb_utf8_next(&next);
        if ((size_t)(next - s) + n >= sizeof b->text)
            break;
        for (; s < next; ++s)
            b->text[n++] = (unsigned char)*s < 0x20 ? ' ' : *s;
    }
    b->text[n] = '\0';
}

static float draw_run(rnd_font *f, const char *s, const char *end, float x, float y, rnd_color c, bool draw)
{
    const char *start = s;
    float pen = x;
    x = (float)(int)(x + 0.5f); /* whole pixels keep glyphs sharp */
    y = (float)(int)(y + 0.5f);
    pen = x;
    while (s < end && *s) {
        uint32_t cp = rnd_utf8_next(&s);
        const glyph *g;
        if (cp == '\n')
            continue;
        g = get_glyph(f, cp);
        if (!g)
            continue;
        if (draw && g->w > 0 && g->h > 0)
            rnd_quad(&A.tex, pen, y, (float)g->w, (float)g->h, (float)g->x / ATLAS_SIZE, (float)g->y / ATLAS_SIZE,
                     (float)(g->x + g->w) / ATLAS_SIZE, (float)(g->y + g->h) / ATLAS_SIZE, c, false);
        pen += (float)g->advance;
    }
    if (draw)
        record_run(f, start, end, x, y, pen - x);
    return pen - x;
}

float rnd_text(rnd_font *f, const char *utf8, float x, float y, rnd_color c)
{
    return draw_run(f, utf8, utf8 + strlen(utf8), x, y, c, true);
}

float rnd_text_width(rnd_font *f, const char *utf8)
{
    return draw_run(f, utf8, utf8 + strlen(utf8), 0, 0, (rnd_color){0, 0, 0, 0}, false);
}

static float measure_run(void *f, const char *start, const char *end)
{
    return draw_run(f, start, end, 0, 0, (rnd_color){0, 0, 0, 0}, false);
}

float rnd_text_wrapped(rnd_font *f, const char *utf8, float x, float y, float max_w, rnd_color c, bool draw)
{
    const char *line = utf8;
    float top = y;
    while (*line) {
        const char *next, *end = lb_line(line, max_w, measure_run, f, &next);
        draw_run(f, line, end, x, y, c, draw);
        y += (float)f->line_height;
        line = next;
    }
    return y - top;
}
