/* render.h - the only code that calls gl*: textures, rectangles, reading the
 * frame back. Coordinates are window pixels, origin top-left. */
#ifndef CONVIS_RENDER_H
#define CONVIS_RENDER_H

#include <stdbool.h>

#include "core/image.h"

typedef struct rnd_texture {
    unsigned id;
    int w, h;
} rnd_texture;

typedef struct rnd_color {
    float r, g, b, a;
} rnd_color;

/* Loads GL functions (GLEW) and the shaders from `shader_dir`
 * (batch.vert, batch.frag). The GL context must be current. False with
 * err_msg() on failure, including the shader compiler's log. */
bool rnd_init(const char *shader_dir);
void rnd_shutdown(void);

/* "OpenGL 4.5 (Core Profile) Mesa 22.3.6 on llvmpipe (LLVM 15.0.6, 256 bits)" */
const char *rnd_gl_description(void);

/* Creates the texture, or replaces its pixels (resizing when needed). */
bool rnd_texture_set(rnd_texture *t, const img_rgba *img);
void rnd_texture_free(rnd_texture *t);

/* Replaces part of an existing texture's pixels at (x, y). */
void rnd_texture_sub(rnd_texture *t, int x, int y, const img_rgba *img);

/* Starts a frame: viewport to the drawable size, cleared to `bg`. Drawing
 * calls are batched; rnd_end (or a read-back) draws what is pending. */
void rnd_begin(int w, int h, rnd_color bg);
void rnd_end(void);
void rnd_flush(void);

/* Waits until the GPU has done everything asked (for frame timing). */
void rnd_finish(void);

/* A part of a texture (u, v in 0..1) into a rectangle, tinted. */
void rnd_quad(const rnd_texture *t, float x, float y, float w, float h, float u0, float v0, float u1, float v1,
              rnd_color c, bool smooth);

/* Limits drawing to a rectangle until the next call; w or h <= 0 lifts it. */
void rnd_clip(float x, float y, float w, float h);

/* Draws a texture into a rectangle; `smooth` picks linear filtering, else
 * nearest (pixels stay square when magnified). */
void rnd_image(const rnd_texture *t, float x, float y, float w, float h, rnd_color tint, bool smooth);

void rnd_rect(float x, float y, float w, float h, rnd_color c);

/* A rectangle's outline, `thickness` pixels wide, inside the rectangle. */
void rnd_frame(float x, float y, float w, float h, float thickness, rnd_color c);

/* Reads the current frame back (top row first) into `out` (allocated). */
bool rnd_read_frame(int w, int h, img_rgba *out);

/* The first GL error since the last call, as text, or NULL. */
const char *rnd_gl_error(void);

#endif
