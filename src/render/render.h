/* render.h - the only code that draws with OpenGL (the gl engine computes
 * with it, in src/compute, and draws nothing). Everything drawn is a quad
 * of a texture queued in one batch: images, rectangles and the text's
 * glyphs (text.h) through batch.vert and batch.frag, float planes through
 * plane.frag and a display mode; a batch is drawn when its texture, filter
 * or program changes, when it is full, when a texture in it is changed, or
 * at rnd_flush, rnd_end, rnd_finish, rnd_clip and a read-back. Besides: GL
 * buffers for an engine to compute into. Coordinates are window pixels,
 * origin top-left. */
#ifndef CONVIS_RENDER_H
#define CONVIS_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/image.h"

typedef struct rnd_texture {
    unsigned id;
    int w, h;
} rnd_texture;

typedef struct rnd_color {
    float r, g, b, a;
} rnd_color;

/* Loads GL functions (GLEW) and the shaders from `shader_dir` (batch.vert
 * with batch.frag, and with plane.frag). The GL context must be current.
 * False with err_msg() on failure, including the shader compiler's log. */
bool rnd_init(const char *shader_dir);
void rnd_shutdown(void);

/* "OpenGL 4.5 (Core Profile) Mesa 22.3.6 on llvmpipe (LLVM 15.0.6, 256 bits)" */
const char *rnd_gl_description(void);

/* Creates the texture, or replaces its pixels (resizing when needed). */
bool rnd_texture_set(rnd_texture *t, const img_rgba *img);
void rnd_texture_free(rnd_texture *t);

/* Replaces part of an existing texture's pixels at (x, y). */
void rnd_texture_sub(rnd_texture *t, int x, int y, const img_rgba *img);

/* Starts a frame: viewport to the drawable size, cleared to `bg`; rnd_end
 * draws what is pending of the batch, rnd_flush does so at any time. */
void rnd_begin(int w, int h, rnd_color bg);
void rnd_end(void);
void rnd_flush(void);

/* Waits until the GPU has done everything asked (for frame timing). */
void rnd_finish(void);

/* A part of a texture (u, v in 0..1) into a rectangle, tinted. */
void rnd_quad(const rnd_texture *t, float x, float y, float w, float h, float u0, float v0, float u1, float v1,
              rnd_color c, bool smooth);

/* A float texture (one channel, e.g. from rnd_plane_from_buffer) drawn as
 * grey through a display mode: 0 clamp, 1 absolute, 2 signed (img_display's
 * order). */
void rnd_plane_image(const rnd_texture *t, float x, float y, float w, float h, int display, bool smooth);

/* A GL buffer object of exactly `bytes` (made, or made again when its size
 * differs: the id then changes), for an engine to compute into. Its storage
 * is immutable where the driver has OpenGL 4.4 (glBufferStorage), so the
 * CUDA engine registers it once. */
bool rnd_buffer_ensure(unsigned *buffer, size_t bytes);
void rnd_buffer_free(unsigned *buffer);

/* Fills a one-channel float texture from a buffer of w*h floats, copied on
 * the GPU (the result never passes through host memory). */
bool rnd_plane_from_buffer(rnd_texture *t, unsigned buffer, int w, int h);

/* Limits drawing to a rectangle until the next call; w or h <= 0 lifts it. */
void rnd_clip(float x, float y, float w, float h);

/* Draws a texture into a rectangle; `smooth` picks linear filtering, else
 * nearest (pixels stay square when magnified). */
void rnd_image(const rnd_texture *t, float x, float y, float w, float h, rnd_color tint, bool smooth);

/* A filled rectangle: from the glyph atlas's white point once the atlas
 * exists (one texture with the text, so no draw call between them), else
 * from a white texture of one pixel. */
void rnd_rect(float x, float y, float w, float h, rnd_color c);

/* A rectangle's outline, `thickness` pixels wide, inside the rectangle. */
void rnd_frame(float x, float y, float w, float h, float thickness, rnd_color c);

/* Reads the current frame back (top row first) into `out` (allocated). */
bool rnd_read_frame(int w, int h, img_rgba *out);

/* The first GL error since the last call, as text, or NULL. */
const char *rnd_gl_error(void);

#endif
