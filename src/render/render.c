#include "render.h"
#include "text.h"
#include "core/tr.h"

#include <GL/glew.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

#define BATCH_QUADS 8192 /* quads per draw call before a flush */

typedef struct vertex {
    float x, y, u, v, r, g, b, a;
} vertex;

static struct {
    GLuint program, vao, vbo, ibo;
    GLint u_viewport, u_tex;
    GLuint plane_program; /* float textures through a display mode */
    GLint plane_viewport, plane_tex, plane_display;
    rnd_texture white;
    int vw, vh;
    char description[256];
    /* the batch: quads waiting to be drawn with one texture and filter */
    vertex *verts;
    int quads;
    GLuint batch_tex;
    bool batch_smooth;
    int batch_display; /* -1: the plain program; else the plane program's display mode */
} R;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static GLuint compile(GLenum type, const char *dir, const char *name)
{
    char path[4096], log[2048];
    char *src;
    GLuint sh;
    GLint ok = 0;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    src = read_text(path);
    if (!src) {
        err_set("cannot read the shader '%s'; is the shaders folder beside convis?", path);
        return 0;
    }
    sh = glCreateShader(type);
    glShaderSource(sh, 1, (const GLchar *const *)&src, NULL);
    glCompileShader(sh);
    free(src);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    log[0] = '\0';
    glGetShaderInfoLog(sh, sizeof log, NULL, log);
    if (!ok) {
        err_set("the shader '%s' does not compile: %s", path, log);
        glDeleteShader(sh);
        return 0;
    }
    if (log[0])
        fprintf(stderr, "convis: shader '%s': %s\n", path, log);
    return sh;
}

/* The vertex array of the batch: a dynamic vertex buffer, and an index
 * buffer of two triangles a quad, made once. */
static bool make_batch(void)
{
    GLuint *idx = malloc(sizeof *idx * 6 * BATCH_QUADS);
    R.verts = malloc(sizeof *R.verts * 4 * BATCH_QUADS);
    if (!idx || !R.verts) {
        free(idx);
        return err_set("out of memory");
    }
    for (GLuint q = 0; q < BATCH_QUADS; ++q) {
        GLuint v = 4 * q, *i = idx + 6 * q;
        i[0] = v, i[1] = v + 1, i[2] = v + 2, i[3] = v + 2, i[4] = v + 1, i[5] = v + 3;
    }
    glGenVertexArrays(1, &R.vao);
    glBindVertexArray(R.vao);
    glGenBuffers(1, &R.vbo);
    glBindBuffer(GL_ARRAY_BUFFER, R.vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof *R.verts * 4 * BATCH_QUADS, NULL, GL_STREAM_DRAW);
    glGenBuffers(1, &R.ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, R.ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof *idx * 6 * BATCH_QUADS, idx, GL_STATIC_DRAW);
    free(idx);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)offsetof(vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)offsetof(vertex, u));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)offsetof(vertex, r));
    glBindVertexArray(0);
    return true;
}

/* Compiles and links a vertex and a fragment shader from `dir`; 0 with
 * err_msg() (and the compiler's log) on failure. */
static GLuint link_program(const char *dir, const char *vert, const char *frag)
{
    GLuint vs, fs, prog;
    GLint ok = 0;
    char log[2048];

    vs = compile(GL_VERTEX_SHADER, dir, vert);
    if (!vs)
        return 0;
    fs = compile(GL_FRAGMENT_SHADER, dir, frag);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        glDeleteProgram(prog);
        err_set("the shaders %s and %s in '%s' do not link: %s", vert, frag, dir, log);
        return 0;
    }
    return prog;
}

#ifndef NDEBUG
/* Debug builds print what the GL driver reports (KHR_debug). */
static void GLAPIENTRY debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                     const GLchar *message, const void *user)
{
    (void)source, (void)id, (void)length, (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION)
        return;
    fprintf(stderr, "convis: OpenGL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "says", message);
}
#endif

bool rnd_init(const char *shader_dir)
{
    GLenum glew;
    uint8_t white[4] = {255, 255, 255, 255};
    img_rgba one = {1, 1, white};

    glewExperimental = GL_TRUE;
    glew = glewInit();
    /* GLEW on a core context may report GLX trouble it can live with; only
     * missing GL entry points are fatal. */
    if (glew != GLEW_OK && !glCreateShader)
        return err_set("cannot load OpenGL functions: %s", (const char *)glewGetErrorString(glew));
    while (glGetError() != GL_NO_ERROR)
        ;
#ifndef NDEBUG
    if (GLEW_KHR_debug) {
        glEnable(GL_DEBUG_OUTPUT);
        glDebugMessageCallback(debug_message, NULL);
    }
#endif
    snprintf(R.description, sizeof R.description, "OpenGL %s on %s", (const char *)glGetString(GL_VERSION),
             (const char *)glGetString(GL_RENDERER));

    R.program = link_program(shader_dir, "batch.vert", "batch.frag");
    if (!R.program)
        return false;
    R.u_viewport = glGetUniformLocation(R.program, "u_viewport");
    R.u_tex = glGetUniformLocation(R.program, "u_tex");
    R.plane_program = link_program(shader_dir, "batch.vert", "plane.frag");
    if (!R.plane_program)
        return false;
    R.plane_viewport = glGetUniformLocation(R.plane_program, "u_viewport");
    R.plane_tex = glGetUniformLocation(R.plane_program, "u_tex");
    R.plane_display = glGetUniformLocation(R.plane_program, "u_display");
    if (!make_batch())
        return false;
    if (!rnd_texture_set(&R.white, &one))
        return false;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    return true;
}

void rnd_shutdown(void)
{
    rnd_texture_free(&R.white);
    if (R.vbo)
        glDeleteBuffers(1, &R.vbo);
    if (R.ibo)
        glDeleteBuffers(1, &R.ibo);
    free(R.verts);
    if (R.vao)
        glDeleteVertexArrays(1, &R.vao);
    if (R.program)
        glDeleteProgram(R.program);
    if (R.plane_program)
        glDeleteProgram(R.plane_program);
    memset(&R, 0, sizeof R);
}

const char *rnd_gl_description(void)
{
    return R.description;
}

/* Makes `t` ready to take new pixels: drawn first if it waits in the batch,
 * created when it does not exist yet, and bound. */
static void prepare_texture(rnd_texture *t)
{
    if (R.quads && t->id && t->id == R.batch_tex)
        rnd_flush();
    if (!t->id) {
        glGenTextures(1, &t->id);
        glBindTexture(GL_TEXTURE_2D, t->id);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        t->w = t->h = 0;
    }
    glBindTexture(GL_TEXTURE_2D, t->id);
}

bool rnd_texture_set(rnd_texture *t, const img_rgba *img)
{
    prepare_texture(t);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (t->w != img->w || t->h != img->h) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img->w, img->h, 0, GL_RGBA, GL_UNSIGNED_BYTE, img->px);
        t->w = img->w;
        t->h = img->h;
    } else if (img->px) {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, img->w, img->h, GL_RGBA, GL_UNSIGNED_BYTE, img->px);
    }
    if (glGetError() != GL_NO_ERROR)
        return err_set("the GPU refused a %dx%d texture (too large for it?)", img->w, img->h);
    return true;
}

void rnd_texture_sub(rnd_texture *t, int x, int y, const img_rgba *img)
{
    if (R.quads && t->id == R.batch_tex)
        rnd_flush();
    glBindTexture(GL_TEXTURE_2D, t->id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, img->w, img->h, GL_RGBA, GL_UNSIGNED_BYTE, img->px);
}

void rnd_texture_free(rnd_texture *t)
{
    if (R.quads && t->id && t->id == R.batch_tex)
        rnd_flush();
    if (t->id)
        glDeleteTextures(1, &t->id);
    t->id = 0;
    t->w = t->h = 0;
}

void rnd_flush(void)
{
    GLint filter = R.batch_smooth ? GL_LINEAR : GL_NEAREST;
    if (!R.quads)
        return;
    if (R.batch_display < 0) {
        glUseProgram(R.program);
        glUniform2f(R.u_viewport, (float)R.vw, (float)R.vh);
        glUniform1i(R.u_tex, 0);
    } else {
        glUseProgram(R.plane_program);
        glUniform2f(R.plane_viewport, (float)R.vw, (float)R.vh);
        glUniform1i(R.plane_tex, 0);
        glUniform1i(R.plane_display, R.batch_display);
    }
    glBindVertexArray(R.vao);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, R.batch_tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glBindBuffer(GL_ARRAY_BUFFER, R.vbo);
    /* a new store of the size used, each draw: a driver never copies the
     * store an earlier draw of this frame may still read (as it must for a
     * glBufferSubData into it), nor more than this draw's vertices */
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof *R.verts * 4 * (size_t)R.quads), R.verts, GL_STREAM_DRAW);
    glDrawElements(GL_TRIANGLES, 6 * R.quads, GL_UNSIGNED_INT, NULL);
    R.quads = 0;
}

void rnd_finish(void)
{
    rnd_flush();
    glFinish();
}

void rnd_begin(int w, int h, rnd_color bg)
{
    R.vw = w;
    R.vh = h;
    R.quads = 0;
    glViewport(0, 0, w, h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(bg.r, bg.g, bg.b, bg.a);
    glClear(GL_COLOR_BUFFER_BIT);
}

void rnd_end(void)
{
    rnd_flush();
}

/* Queues a quad for the program chosen by `display` (-1: plain). */
static void queue_quad(const rnd_texture *t, float x, float y, float w, float h, float u0, float v0, float u1, float v1,
                       rnd_color c, bool smooth, int display)
{
    vertex *v;
    if (R.quads && (R.batch_tex != t->id || R.batch_smooth != smooth || R.batch_display != display))
        rnd_flush();
    if (R.quads == BATCH_QUADS)
        rnd_flush();
    R.batch_tex = t->id;
    R.batch_smooth = smooth;
    R.batch_display = display;
    v = R.verts + 4 * R.quads++;
    v[0] = (vertex){x, y, u0, v0, c.r, c.g, c.b, c.a};
    v[1] = (vertex){x + w, y, u1, v0, c.r, c.g, c.b, c.a};
    v[2] = (vertex){x, y + h, u0, v1, c.r, c.g, c.b, c.a};
    v[3] = (vertex){x + w, y + h, u1, v1, c.r, c.g, c.b, c.a};
}

void rnd_quad(const rnd_texture *t, float x, float y, float w, float h, float u0, float v0, float u1, float v1,
              rnd_color c, bool smooth)
{
    queue_quad(t, x, y, w, h, u0, v0, u1, v1, c, smooth, -1);
}

void rnd_plane_image(const rnd_texture *t, float x, float y, float w, float h, int display, bool smooth)
{
    queue_quad(t, x, y, w, h, 0, 0, 1, 1, (rnd_color){1, 1, 1, 1}, smooth, display);
}

bool rnd_buffer_ensure(unsigned *buffer, size_t bytes)
{
    GLint64 size = 0;
    if (*buffer) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, *buffer);
        glGetBufferParameteri64v(GL_PIXEL_UNPACK_BUFFER, GL_BUFFER_SIZE, &size);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        if ((size_t)size == bytes)
            return true;
        rnd_buffer_free(buffer);
    }
    glGenBuffers(1, buffer);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, *buffer);
    /* Immutable storage where the driver has it (OpenGL 4.4): CUDA can keep
     * its registration of the buffer, since the storage never changes.
     * Dynamic, so the copy path can glBufferSubData into it. */
    if (GLEW_VERSION_4_4 || GLEW_ARB_buffer_storage)
        glBufferStorage(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_STORAGE_BIT);
    else
        glBufferData(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR) {
        rnd_buffer_free(buffer);
        return err_set("the GPU refused a buffer of %zu bytes", bytes);
    }
    return true;
}

void rnd_buffer_free(unsigned *buffer)
{
    if (*buffer)
        glDeleteBuffers(1, buffer);
    *buffer = 0;
}

bool rnd_plane_from_buffer(rnd_texture *t, unsigned buffer, int w, int h)
{
    prepare_texture(t);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (t->w != w || t->h != h) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, w, h, 0, GL_RED, GL_FLOAT, NULL);
        t->w = w;
        t->h = h;
    } else {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RED, GL_FLOAT, NULL);
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR)
        return err_set("the GPU refused a %dx%d float texture", w, h);
    return true;
}

void rnd_image(const rnd_texture *t, float x, float y, float w, float h, rnd_color tint, bool smooth)
{
    rnd_quad(t, x, y, w, h, 0, 0, 1, 1, tint, smooth);
}

void rnd_rect(float x, float y, float w, float h, rnd_color c)
{
    const rnd_texture *atlas;
    float u, v;
    if (rnd_text_solid(&atlas, &u, &v)) /* one texture with the text: no draw call between them */
        rnd_quad(atlas, x, y, w, h, u, v, u, v, c, false);
    else
        rnd_quad(&R.white, x, y, w, h, 0, 0, 1, 1, c, false);
}

void rnd_frame(float x, float y, float w, float h, float thickness, rnd_color c)
{
    rnd_rect(x, y, w, thickness, c);
    rnd_rect(x, y + h - thickness, w, thickness, c);
    rnd_rect(x, y + thickness, thickness, h - 2 * thickness, c);
    rnd_rect(x + w - thickness, y + thickness, thickness, h - 2 * thickness, c);
}

void rnd_clip(float x, float y, float w, float h)
{
    rnd_flush();
    if (w <= 0 || h <= 0) {
        glDisable(GL_SCISSOR_TEST);
        return;
    }
    glEnable(GL_SCISSOR_TEST);
    glScissor((GLint)x, (GLint)(R.vh - (y + h)), (GLsizei)w, (GLsizei)h);
}

bool rnd_read_frame(int w, int h, img_rgba *out)
{
    size_t row = (size_t)w * 4;
    uint8_t *flipped = malloc(row * (size_t)h);
    out->px = malloc(row * (size_t)h);
    if (!flipped || !out->px) {
        free(flipped);
        free(out->px);
        out->px = NULL;
        return err_set("out of memory reading a %dx%d frame", w, h);
    }
    rnd_flush();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, flipped);
    for (int y = 0; y < h; ++y)
        memcpy(out->px + (size_t)y * row, flipped + (size_t)(h - 1 - y) * row, row);
    free(flipped);
    out->w = w;
    out->h = h;
    return true;
}

const char *rnd_gl_error(void)
{
    static char text[32];
    GLenum e = glGetError();
    if (e == GL_NO_ERROR)
        return NULL;
    snprintf(text, sizeof text, _("GL error 0x%04x"), (unsigned)e);
    return text;
}
