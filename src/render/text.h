/* text.h - text drawn from a glyph atlas, in batches.
 *
 * The render layer does not rasterise glyphs itself (that needs SDL_ttf,
 * which only the platform layer includes): a font here is an atlas texture
 * that asks a callback for each glyph the first time it is drawn. Any UTF-8
 * text works, Chinese included, as far as the callback's font covers it. */
#ifndef CONVIS_RENDER_TEXT_H
#define CONVIS_RENDER_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/image.h"
#include "render.h"

/* Rasterises one code point: white with alpha coverage, the full line height
 * tall, placed on the baseline; *advance is the pen's step in pixels. */
typedef bool (*rnd_rasterize_fn)(void *user, uint32_t codepoint, img_rgba *out, int *advance);

typedef struct rnd_font rnd_font;

/* px: the font's size (its em) in pixels, as it was opened; line_height:
 * a line's height in pixels. */
rnd_font *rnd_font_create(int px, int line_height, rnd_rasterize_fn rasterize, void *user);
void rnd_font_destroy(rnd_font *f);
int rnd_font_line_height(const rnd_font *f);
int rnd_font_px(const rnd_font *f);

/* Draws one line of text with its top-left at (x, y); returns its width. */
float rnd_text(rnd_font *f, const char *utf8, float x, float y, rnd_color c);
float rnd_text_width(rnd_font *f, const char *utf8);

/* Draws text wrapped into lines at most max_w wide (core/linebreak.h says
 * where a line may break); returns the height used. With draw false
 * it only measures. Explicit '\n' starts a new line. */
float rnd_text_wrapped(rnd_font *f, const char *utf8, float x, float y, float max_w, rnd_color c, bool draw);

/* Where text was drawn, for tests of a layout (no two pieces of text on
 * one layer overlap; none leaves the window): while recording, every run of
 * text drawn adds its box. Overlays (a menu, the help, a notice) start a
 * layer of their own over what is below. */
typedef struct rnd_text_box {
    float x, y, w, h;
    int layer;
    int px;         /* its font's size in pixels */
    int role;       /* what it is, in the caller's words (rnd_text_role) */
    char text[200]; /* its text (its start, when longer), for tests */
} rnd_text_box;

/* The glyph atlas and a point of it that is white: rnd_rect draws from it,
 * so rectangles and text share one texture and one draw call. False before
 * the atlas exists. */
bool rnd_text_solid(const rnd_texture **atlas, float *u, float *v);

void rnd_text_record(bool on); /* on: an empty list, recording; off: recording stops, the list stays */
void rnd_text_layer(void);     /* what is drawn from now on lies over what was */
int rnd_text_role(int role);   /* what is drawn from now on is this (0: plain); returns the role before */
int rnd_text_boxes(const rnd_text_box **boxes, int *dropped); /* dropped: runs past the list's room */

#endif
