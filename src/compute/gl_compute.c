/* gl_compute.c - the OpenGL compute engine: the same convolution as a GLSL
 * compute shader (shaders/conv3x3_tiled.comp or conv3x3_naive.comp, after
 * shaders/conv3x3.glsl), one invocation per output, on any
 * GPU with OpenGL 4.3: Intel, AMD, NVIDIA, or Mesa's llvmpipe on the CPU.
 * A window of another size (kw x kh, odd, up to CONV_MAX_SIDE) or another
 * geometry (stride, dilation, padding: the output then conv_out_w x
 * conv_out_h, one invocation each) runs convk_tiled.comp or convk_naive.comp
 * instead: the weights in a uniform array of CONV_MAX_TAPS floats (its
 * length read back from the linked program and checked), the tile the span
 * of the work group's windows, declared for the widest plain window
 * GL_MAX_COMPUTE_SHARED_MEMORY_SIZE allows (tile_side, tile_words; a larger
 * span on the tiled kernel is refused in a sentence). The race shown (no
 * barrier) is 3x3 at stride 1 only, and says so of the others.
 *
 * It computes with the OpenGL context current on the calling thread and makes
 * none itself (contexts belong to the platform layer): the window's, or on
 * the command line a hidden window's that the app opens for this engine
 * (eng_class.needs_gl_context). The shaders are read at run time from the
 * folder the app gives eng_set_shader_dir() and built when the engine
 * opens: the tiled and the naive one, the tiled one again without its
 * barrier, and the poison shader (below); their compile and link logs are
 * always read and reported on failure. The work-group size is said only in
 * shaders/conv3x3.glsl; it is read back from each linked program.
 *
 * Phases, each timed on the GPU by a GL_TIME_ELAPSED timer query:
 *   upload    glBufferSubData of the input into its shader storage buffer
 *   compute   glDispatchCompute (and the barrier that makes its writes visible)
 *   download  glGetBufferSubData of the output back into host memory
 *   overhead  the host's wall time, from the first call to the result in host
 *             memory (glFinish before reading the clock), minus the three
 *   present   instead of compute and download, when computing into a GL
 *             buffer of the caller's (the present operation)
 * Except on Mesa's CPU renderers (llvmpipe, softpipe): they run a dispatch
 * and buffer copies on the calling thread, where their timer queries do not
 * look (a query around a 10 ms dispatch reads 0.1 ms on Mesa 22.3
 * llvmpipe), so there each phase is timed by the monotonic clock, closed by
 * glFinish, and the record's clock says so. CONVIS_GL_TIMER=query in the
 * environment forces timer queries anyway (to test that path).
 *
 * The tiled shader without its barrier (eng_options.no_barrier, the race
 * shown) runs after shaders/conv3x3_poison.comp, which fills the shared
 * memory of as many work groups with NaN: a tile cell read too early then
 * holds NaN, not the value an identical earlier dispatch left there.
 *
 * The buffers are kept between runs and grown when a larger image comes.
 * Opening runs the tiled shader once on one pixel, so the driver's lazy work
 * (compiling for the device, first use of the queries) is not in a timing.
 * Any GL error ends the run with a sentence; GL_OUT_OF_MEMORY says how much
 * was asked. The caller's program and buffer bindings are restored. */
#include <GL/glew.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conv.h"
#include "core/err.h"
#include "core/tr.h"
#include "core/timing.h"
#include "engines.h"

#define SHADER_COMMON "conv3x3.glsl" /* what both shaders share, compiled before either */
/* the shaders' own parts, by eng_kernel */
static const char *const shader_file[ENG_KERNEL_COUNT] = {"conv3x3_tiled.comp", "conv3x3_naive.comp"};
/* the same for windows of any other size (kw x kh) */
static const char *const shader_any_file[ENG_KERNEL_COUNT] = {"convk_tiled.comp", "convk_naive.comp"};
#define SHADER_POISON "conv3x3_poison.comp" /* NaN into shared memory, before the tiled shader without barrier */
#define MAX_SHADER_BYTES (1 << 20)
#define NEED_MAJOR 4
#define NEED_MINOR 3

enum { BUF_IN, BUF_OUT, BUF_COUNT };
enum { Q_UPLOAD, Q_COMPUTE, Q_DOWNLOAD, Q_COUNT };

/* One compiled shader and what the C side reads of it. */
typedef struct gl_program {
    GLuint program;
    GLint loc_w, loc_h, loc_weight, loc_divisor, loc_border;
    GLint loc_kw, loc_kh; /* the window's size (the shaders of any size only) */
    GLint loc_out_w, loc_out_h, loc_stride, loc_dilation, loc_pad_x, loc_pad_y; /* and its geometry */
    GLuint bind_in, bind_out; /* binding points of the two storage blocks */
    GLint local[3];           /* work-group size, from the program */
} gl_program;

#define PROG_NO_BARRIER ENG_KERNEL_COUNT /* the tiled shader without its barrier (the race, shown) */
#define PROG_ANY (PROG_NO_BARRIER + 1)    /* then the tiled and the naive shader of any window size */
#define PROG_WIDE (PROG_ANY + ENG_KERNEL_COUNT) /* the tiled one again, its tile all the shared memory */
#define PROG_COUNT (PROG_WIDE + 1)

typedef struct gl_state {
    gl_program prog[PROG_COUNT]; /* 3x3: tiled, naive, tiled without barrier; any size: tiled, naive, wide tile */
    GLuint poison;                         /* SHADER_POISON's program */
    GLint poison_w;                        /* its u_w */
    GLint max_groups[2];                   /* GL_MAX_COMPUTE_WORK_GROUP_COUNT x, y */
    GLint64 max_block_bytes;               /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
    GLint max_shared;                      /* GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, bytes */
    int tile_side;                         /* the widest plain window the tile of any size holds */
    long tile_words;                       /* the floats that tile is declared with (CONV_TILE_WORDS) */
    long wide_words;                       /* and the wide tile (max_shared / 4) */
    GLint subgroup;                        /* GL_SUBGROUP_SIZE_KHR where the driver reports it; else 0 */
    GLuint buf[BUF_COUNT];
    size_t capacity; /* bytes each buffer holds */
    GLuint query[Q_COUNT];
    bool host_timed; /* phases by the host clock, not timer queries */
    double phase_t0, host_ms[Q_COUNT];
    char renderer[128];
    eng_options opt; /* the result path: bulk, or one read-back per pixel */
    eng_gl_layer_ctx *layer; /* a layer's programs and buffers (gl_layer.c); NULL: none yet */
} gl_state;

#define CLOCK_QUERY N_("GL timer query")
#define CLOCK_HOST N_("monotonic clock, glFinish closing each phase (GL timer queries miss a CPU renderer's work)")

/* What the caller had bound, put back after a run (indexed bindings as
 * whole buffers: a range bound there is not kept). */
typedef struct gl_saved {
    GLint program, ssbo, indexed_in, indexed_out;
} gl_saved;

/* ---- errors -------------------------------------------------------------- */

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    default: return "an unknown GL error";
    }
}

/* Takes every pending error flag; returns the first (GL_NO_ERROR when none).
 * Bounded: a lost context may report an error on every call. */
static GLenum take_errors(void)
{
    GLenum first = glGetError(), e = first;
    for (int i = 0; i < 16 && e != GL_NO_ERROR; ++i)
        e = glGetError();
    return first;
}

/* False with a sentence when a GL call since the last check failed; `doing`
 * is marked N_() by the caller and translated here. */
static bool gl_check(const gl_state *s, const char *doing)
{
    GLenum e = take_errors();
    if (e == GL_NO_ERROR)
        return true;
    if (e == GL_OUT_OF_MEMORY)
        return err_set("OpenGL ran out of memory %s on %s (GL_OUT_OF_MEMORY)", _(doing), s->renderer);
    return err_set("OpenGL reported %s (0x%04x) %s on %s", gl_error_name(e), (unsigned)e, _(doing), s->renderer);
}

/* ---- probe --------------------------------------------------------------- */

static const char *gl_text(GLenum name)
{
    const GLubyte *t = glGetString(name);
    return t ? (const char *)t : "?";
}

bool eng_gl_context_current(void)
{
    /* A GL 1.1 entry point, exported by libGL itself: safe before glewInit,
     * and NULL when no context is current. */
    return glGetString(GL_VERSION) != NULL;
}

static bool gl_probe(char *why, size_t size)
{
    GLint major = 0, minor = 0;
    GLenum e;

    if (!eng_gl_context_current()) {
        snprintf(why, size, _("no OpenGL context is current on this thread"));
        return false;
    }
    glewExperimental = GL_TRUE; /* load every entry point of a core context */
    e = glewInit();
    /* GLEW built for GLX says NO_GLX_DISPLAY on an EGL context (Wayland),
     * after loading the core entry points all the same. */
    if (e != GLEW_OK && e != GLEW_ERROR_NO_GLX_DISPLAY) {
        snprintf(why, size, _("cannot load the OpenGL functions: %s"), (const char *)glewGetErrorString(e));
        return false;
    }
    take_errors(); /* glewInit asks for GL_EXTENSIONS, an error in a core context */
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    take_errors();
    if (major < NEED_MAJOR || (major == NEED_MAJOR && minor < NEED_MINOR)) {
        snprintf(why, size, _("needs OpenGL %d.%d for compute shaders; this context is OpenGL %s on %s"), NEED_MAJOR,
                 NEED_MINOR, gl_text(GL_VERSION), gl_text(GL_RENDERER));
        return false;
    }
    if (!glDispatchCompute || !glGetBufferSubData || !glMemoryBarrier || !glGetProgramResourceIndex) {
        snprintf(why, size, _("the OpenGL driver (%s on %s) reports version %d.%d but lacks glDispatchCompute"),
                 gl_text(GL_VERSION), gl_text(GL_RENDERER), major, minor);
        return false;
    }
    return true;
}

/* ---- the program --------------------------------------------------------- */

/* Reads the whole file at `path` into a new NUL-terminated string. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t n;

    if (!f) {
        err_set("cannot read the shader '%s': %s; is the shaders folder beside convis?", path, strerror(errno));
        return NULL;
    }
    text = malloc(MAX_SHADER_BYTES + 1);
    if (!text) {
        err_set("out of memory reading the shader '%s'", path);
        goto close_file;
    }
    n = fread(text, 1, MAX_SHADER_BYTES + 1, f);
    if (ferror(f) || n > MAX_SHADER_BYTES) {
        err_set("cannot read the shader '%s': %s", path, ferror(f) ? "read error" : "larger than 1 MiB");
        free(text);
        text = NULL;
        goto close_file;
    }
    text[n] = '\0';
close_file:
    fclose(f);
    return text;
}

/* The info log of a shader or program as one line (newlines become "; "). */
static void read_log(GLuint object, bool is_program, char *buf, size_t size)
{
    GLsizei len = 0;
    if (is_program)
        glGetProgramInfoLog(object, (GLsizei)size, &len, buf);
    else
        glGetShaderInfoLog(object, (GLsizei)size, &len, buf);
    if (len < 0 || (size_t)len >= size)
        len = size ? (GLsizei)size - 1 : 0;
    buf[len] = '\0';
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        buf[--len] = '\0';
    for (char *c = buf; *c; ++c)
        if (*c == '\n')
            *c = ';';
    if (!buf[0])
        snprintf(buf, size, _("(the driver gave no log)"));
}

/* Compiles the common part, a line of defines and a shader's own part into one shader, links
 * it into p->program; on failure the sentence carries the driver's log. */
static bool build_program(gl_state *s, gl_program *p, const char *const source[3], const char *path)
{
    char log[768];
    GLint ok = GL_FALSE;
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);

    if (!shader) {
        take_errors();
        return err_set("OpenGL could not create a compute shader on %s", s->renderer);
    }
    glShaderSource(shader, 3, source, NULL);
    glCompileShader(shader);
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    read_log(shader, false, log, sizeof log); /* always read, used on failure */
    if (!ok) {
        err_set("the compute shader '%s' does not compile on %s: %s", path, s->renderer, log);
        goto delete_shader;
    }
    p->program = glCreateProgram();
    glAttachShader(p->program, shader);
    glLinkProgram(p->program);
    glGetProgramiv(p->program, GL_LINK_STATUS, &ok);
    read_log(p->program, true, log, sizeof log);
    if (!ok) {
        err_set("the compute shader '%s' does not link on %s: %s", path, s->renderer, log);
        glDeleteProgram(p->program);
        p->program = 0;
        goto delete_shader;
    }
    glDetachShader(p->program, shader);
delete_shader:
    glDeleteShader(shader);
    return ok == GL_TRUE;
}

/* The binding point of the shader storage block `name`. */
static bool block_binding(const gl_state *s, const gl_program *p, const char *name, GLuint *binding, const char *path)
{
    const GLenum prop = GL_BUFFER_BINDING;
    GLint value = -1;
    GLuint index = glGetProgramResourceIndex(p->program, GL_SHADER_STORAGE_BLOCK, name);
    if (index == GL_INVALID_INDEX)
        return err_set("the compute shader '%s' has no storage block named '%s'", path, name);
    glGetProgramResourceiv(p->program, GL_SHADER_STORAGE_BLOCK, index, 1, &prop, 1, NULL, &value);
    if (value < 0)
        return err_set("OpenGL on %s gives no binding point for the storage block '%s' of '%s'", s->renderer, name,
                       path);
    *binding = (GLuint)value;
    return true;
}

/* The uniform locations, storage bindings and work-group size of the linked
 * program: what the C side needs to know of the shader, read from it. */
static bool inspect_program(gl_state *s, gl_program *p, bool any, const char *path)
{
    struct {
        const char *name;
        GLint *loc;
    } uniforms[] = {
        {"u_w", &p->loc_w},           {"u_h", &p->loc_h},   {any ? "u_weights" : "u_weight", &p->loc_weight},
        {"u_divisor", &p->loc_divisor}, {"u_border", &p->loc_border}, {"u_kw", &p->loc_kw},
        {"u_kh", &p->loc_kh},         {"u_out_w", &p->loc_out_w}, {"u_out_h", &p->loc_out_h},
        {"u_stride", &p->loc_stride}, {"u_dilation", &p->loc_dilation}, {"u_pad_x", &p->loc_pad_x},
        {"u_pad_y", &p->loc_pad_y},
    };
    for (size_t i = 0; i < (any ? sizeof uniforms / sizeof uniforms[0] : 5u); ++i) {
        *uniforms[i].loc = glGetUniformLocation(p->program, uniforms[i].name);
        if (*uniforms[i].loc < 0)
            return err_set("the compute shader '%s' has no uniform '%s' in use", path, uniforms[i].name);
    }
    if (any) { /* the weights' array as long as the largest window */
        const GLenum prop = GL_ARRAY_SIZE;
        GLint taps = 0;
        GLuint index = glGetProgramResourceIndex(p->program, GL_UNIFORM, "u_weights");
        if (index != GL_INVALID_INDEX)
            glGetProgramResourceiv(p->program, GL_UNIFORM, index, 1, &prop, 1, NULL, &taps);
        if (taps != CONV_MAX_TAPS)
            return err_set("the compute shader '%s' holds %d weights; a %dx%d window needs %d", path, (int)taps,
                           CONV_MAX_SIDE, CONV_MAX_SIDE, CONV_MAX_TAPS);
    }
    if (!block_binding(s, p, "conv_input", &p->bind_in, path) ||
        !block_binding(s, p, "conv_output", &p->bind_out, path))
        return false;
    glGetProgramiv(p->program, GL_COMPUTE_WORK_GROUP_SIZE, p->local);
    if (p->local[0] < 1 || p->local[1] < 1 || p->local[2] != 1)
        return err_set("the compute shader '%s' has a work group of %dx%dx%d; convis needs a flat one (z = 1)", path,
                       p->local[0], p->local[1], p->local[2]);
    if (p != &s->prog[0] && (p->local[0] != s->prog[0].local[0] || p->local[1] != s->prog[0].local[1]))
        return err_set("the compute shaders' work groups differ (%dx%d, %dx%d): the one size is said in %s",
                       p->local[0], p->local[1], s->prog[0].local[0], s->prog[0].local[1], SHADER_COMMON);
    return gl_check(s, N_("reading the compute program"));
}

/* SHADER_POISON's program: built like the others, its work group the
 * tiled shader's (which its tile's size follows), its u_w found. */
static bool build_poison(gl_state *s, const char *common, const char *source, const char *path)
{
    const char *parts[3] = {common, "", source};
    gl_program p;
    memset(&p, 0, sizeof p);
    if (!build_program(s, &p, parts, path))
        return false;
    s->poison = p.program;
    glGetProgramiv(s->poison, GL_COMPUTE_WORK_GROUP_SIZE, p.local);
    if (p.local[0] != s->prog[0].local[0] || p.local[1] != s->prog[0].local[1])
        return err_set("the compute shaders' work groups differ (%dx%d, %dx%d): the one size is said in %s", p.local[0],
                       p.local[1], s->prog[0].local[0], s->prog[0].local[1], SHADER_COMMON);
    s->poison_w = glGetUniformLocation(s->poison, "u_w");
    if (s->poison_w < 0)
        return err_set("the compute shader '%s' has no uniform '%s' in use", path, "u_w");
    return gl_check(s, N_("reading the compute program"));
}

/* The floats of the tile a work group of local[0] x local[1] loads for
 * p's window and geometry: the span its outputs' windows cover
 * (convk_tiled.comp). */
static long tile_words_for(const GLint local[3], const conv_params *p)
{
    long tw = (long)(local[0] - 1) * p->stride + (long)(p->kw - 1) * p->dilation + 1;
    long th = (long)(local[1] - 1) * p->stride + (long)(p->kh - 1) * p->dilation + 1;
    return tw * th;
}

/* The shader of the kernel chosen (tiled or naive). */
static gl_program *current(const gl_state *s)
{
    if (s->opt.no_barrier && s->opt.kernel == ENG_KERNEL_TILED)
        return (gl_program *)&s->prog[PROG_NO_BARRIER];
    return (gl_program *)&s->prog[(unsigned)s->opt.kernel < ENG_KERNEL_COUNT ? s->opt.kernel : 0];
}

/* The shader that runs a job's window with the kernel chosen: the 3x3 ones
 * for a 3x3 window on the plain geometry, else those of any size and
 * geometry; false with a sentence where none can (the race shown is 3x3
 * only; a tile too large for the shared memory). */
static const gl_program *program_for(const gl_state *s, const conv_params *p)
{
    bool plain = conv_plain(p);
    if (p->kw == 3 && p->kh == 3 && plain)
        return current(s);
    if (p->kw < 1 || p->kh < 1 || p->kw > CONV_MAX_SIDE || p->kh > CONV_MAX_SIDE || !(p->kw & p->kh & 1)) {
        err_set("a %dx%d window is not one the compute shaders run (odd sides of 1 to %d)", p->kw, p->kh,
                CONV_MAX_SIDE);
        return NULL;
    }
    if (s->opt.kernel != ENG_KERNEL_TILED)
        return &s->prog[PROG_ANY + ENG_KERNEL_NAIVE];
    if (s->opt.no_barrier) {
        err_set("the tiled kernel without its barrier (the race shown) runs 3x3 windows at stride 1 only, not %dx%d "
                "at stride %d, dilation %d, '%s'",
                p->kw, p->kh, p->stride, p->dilation, conv_padding_name((conv_padding)p->padding));
        return NULL;
    }
    if (tile_words_for(s->prog[0].local, p) > s->wide_words) {
        if (plain)
            err_set("the tile of a %dx%d window does not fit the %d bytes of shared memory OpenGL on %s allows a work "
                    "group (windows up to %d a side do); the naive kernel can run it",
                    p->kw, p->kh, (int)s->max_shared, s->renderer, s->tile_side);
        else
            err_set("the tile of a %dx%d window at stride %d and dilation %d spans %ld floats; the %d bytes of "
                    "shared memory OpenGL on %s allows a work group hold %ld; the naive kernel can run it",
                    p->kw, p->kh, p->stride, p->dilation, tile_words_for(s->prog[0].local, p), (int)s->max_shared,
                    s->renderer, s->wide_words);
        return NULL;
    }
    /* the tile declared for plain windows where it holds the span: a larger declaration
     * leaves fewer work groups room on a multiprocessor */
    return &s->prog[tile_words_for(s->prog[0].local, p) > s->tile_words ? PROG_WIDE : PROG_ANY + ENG_KERNEL_TILED];
}

/* ---- timing -------------------------------------------------------------- */

/* Whether this renderer's GL timer queries miss the work: Mesa's CPU
 * renderers time only their rasterizer scenes, and a compute dispatch or a
 * buffer copy is none of those (see the top of this file). */
static bool queries_blind(const char *renderer)
{
    const char *force = getenv("CONVIS_GL_TIMER");
    if (force && strcmp(force, "query") == 0)
        return false;
    return strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe");
}

/* The start and the end of phase q: a GL_TIME_ELAPSED query, or the host
 * clock with glFinish closing the phase. */
static void phase_begin(gl_state *s, int q)
{
    if (s->host_timed)
        s->phase_t0 = tim_now_ms();
    else
        glBeginQuery(GL_TIME_ELAPSED, s->query[q]);
}

static void phase_end(gl_state *s, int q)
{
    if (s->host_timed) {
        glFinish();
        s->host_ms[q] = tim_now_ms() - s->phase_t0;
    } else {
        glEndQuery(GL_TIME_ELAPSED);
    }
}

/* The milliseconds of phase q (waits for a query's result). */
static double phase_ms(const gl_state *s, int q)
{
    GLuint64 ns = 0;
    if (s->host_timed)
        return s->host_ms[q];
    glGetQueryObjectui64v(s->query[q], GL_QUERY_RESULT, &ns);
    return (double)ns / 1e6;
}

/* Fills the phases of a finished run and its wall time. */
static void fill_timing(const gl_state *s, eng_phase second, bool download, double wall, eng_timing *timing)
{
    double sum;
    timing->ms[ENG_UPLOAD] = phase_ms(s, Q_UPLOAD);
    timing->ms[second] = phase_ms(s, Q_COMPUTE);
    timing->ms[ENG_DOWNLOAD] = download ? phase_ms(s, Q_DOWNLOAD) : 0.0;
    sum = timing->ms[ENG_UPLOAD] + timing->ms[second] + timing->ms[ENG_DOWNLOAD];
    timing->ms[ENG_OVERHEAD] = wall > sum ? wall - sum : 0.0;
    timing->has[ENG_UPLOAD] = timing->has[second] = timing->has[ENG_OVERHEAD] = true;
    timing->has[ENG_DOWNLOAD] = download;
    timing->clock = s->host_timed ? CLOCK_HOST : CLOCK_QUERY;
}

/* ---- open and close ------------------------------------------------------ */

static bool gl_run(void *state, const eng_job *job, eng_timing *timing);

/* One run on one pixel, results unused: the driver's lazy first-use work
 * (compiling the shader for the device, the first timer queries, which
 * llvmpipe answers with nonsense) happens here, not in the first timed run. */
static bool warm_up(gl_state *s)
{
    float in_px = 0.0f, out_px = 0.0f;
    img_plane in = {1, 1, &in_px}, out = {1, 1, &out_px};
    eng_job job = {&in, &out, {1.0f, CONV_BORDER_ZERO, 3, 3, 1, 1, CONV_PAD_SAME, 1, 1, {0, 0, 0, 0, 1, 0, 0, 0, 0}}};
    eng_job any = {&in, &out, {1.0f, CONV_BORDER_ZERO, 1, 1, 1, 1, CONV_PAD_SAME, 0, 0, {1}}}; /* the shaders of any size, both kernels */
    eng_options kept = s->opt;
    eng_timing timing;
    bool ok;
    memset(&timing, 0, sizeof timing);
    ok = gl_run(s, &job, &timing);
    for (int k = 0; k < ENG_KERNEL_COUNT && ok; ++k) {
        s->opt.kernel = (eng_kernel)k;
        ok = gl_run(s, &any, &timing);
    }
    s->opt = kept;
    return ok;
}

static void gl_close(void *state)
{
    gl_state *s = state;
    if (!s)
        return;
    eng_gl_layer_free(s->layer);
    glDeleteQueries(Q_COUNT, s->query);
    glDeleteBuffers(BUF_COUNT, s->buf);
    for (int k = 0; k < PROG_COUNT; ++k)
        if (s->prog[k].program)
            glDeleteProgram(s->prog[k].program);
    if (s->poison)
        glDeleteProgram(s->poison);
    take_errors();
    free(s);
}

/* The widest odd window, up to CONV_MAX_SIDE, whose tile of
 * (local x + side - 1) x (local y + side - 1) floats fits `max_shared` bytes
 * (at least 1: a tile without a halo is the work group's own size). */
static int tile_side(const GLint local[3], GLint max_shared)
{
    int side = CONV_MAX_SIDE;
    while (side > 1 && (long)(local[0] + side - 1) * (local[1] + side - 1) * (long)sizeof(float) > (long)max_shared)
        side -= 2;
    return side;
}

/* The shaders of any window size and geometry, after the 3x3 ones (whose
 * work group sizes the tile): the tiled one with its tile declared for the
 * widest plain window that fits the driver's shared memory, the naive one,
 * and the tiled one again with all the shared memory for its tile (the
 * spans of strides and dilations). */
static bool build_any_size(gl_state *s, const char *common)
{
    char path[4200], defines[64];
    const char *parts[3] = {common, defines, NULL};
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &s->max_shared);
    s->tile_side = tile_side(s->prog[0].local, s->max_shared);
    s->tile_words = (long)(s->prog[0].local[0] + s->tile_side - 1) * (s->prog[0].local[1] + s->tile_side - 1);
    s->wide_words = (long)s->max_shared / (long)sizeof(float);
    if (s->wide_words < s->tile_words)
        s->wide_words = s->tile_words;
    for (int k = 0; k <= ENG_KERNEL_COUNT; ++k) {
        int prog = k < ENG_KERNEL_COUNT ? PROG_ANY + k : PROG_WIDE;
        char *source;
        bool ok;
        snprintf(defines, sizeof defines, "#define CONV_TILE_WORDS %ld\n",
                 prog == PROG_WIDE ? s->wide_words : s->tile_words);
        snprintf(path, sizeof path, "%s/%s", eng_shader_dir(), shader_any_file[k % ENG_KERNEL_COUNT]);
        source = read_text(path);
        if (!source)
            return false;
        parts[2] = source;
        ok = build_program(s, &s->prog[prog], parts, path) && inspect_program(s, &s->prog[prog], true, path);
        free(source);
        if (!ok)
            return false;
    }
    return true;
}

static void *gl_open(void)
{
    char path[4200], common_path[4200];
    char *common = NULL, *source = NULL;
    gl_state *s;

    if (!eng_shader_dir()) {
        err_set("the shaders folder is not known (the app calls eng_set_shader_dir first)");
        return NULL;
    }
    s = calloc(1, sizeof *s);
    if (!s) {
        err_set("out of memory");
        return NULL;
    }
    snprintf(s->renderer, sizeof s->renderer, "%s", gl_text(GL_RENDERER));
    s->opt = eng_options_resolved(NULL);
    take_errors(); /* not ours: whatever the context's other users left */
    snprintf(common_path, sizeof common_path, "%s/%s", eng_shader_dir(), SHADER_COMMON);
    common = read_text(common_path);
    if (!common)
        goto fail;
    for (int k = 0; k <= PROG_NO_BARRIER; ++k) {
        /* the tiled shader a second time, its barrier left out (CONVIS_NO_BARRIER) */
        const char *parts[3];
        int own = k == PROG_NO_BARRIER ? ENG_KERNEL_TILED : k;
        snprintf(path, sizeof path, "%s/%s", eng_shader_dir(), shader_file[own]);
        source = read_text(path);
        if (!source)
            goto free_source;
        parts[0] = common;
        parts[1] = k == PROG_NO_BARRIER ? "#define CONVIS_NO_BARRIER 1\n" : "";
        parts[2] = source;
        if (!build_program(s, &s->prog[k], parts, path) || !inspect_program(s, &s->prog[k], false, path))
            goto free_source;
        free(source);
        source = NULL;
    }
    if (!build_any_size(s, common))
        goto free_source;
    snprintf(path, sizeof path, "%s/%s", eng_shader_dir(), SHADER_POISON);
    source = read_text(path);
    if (!source || !build_poison(s, common, source, path))
        goto free_source;
    free(source);
    source = NULL;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &s->max_groups[0]);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &s->max_groups[1]);
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &s->max_block_bytes);
    if (GLEW_KHR_shader_subgroup) {
        glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &s->subgroup);
        if (take_errors() != GL_NO_ERROR || s->subgroup < 1)
            s->subgroup = 0;
    }
    glGenBuffers(BUF_COUNT, s->buf);
    glGenQueries(Q_COUNT, s->query);
    if (!gl_check(s, N_("creating the buffers and timer queries")))
        goto free_source;
    s->host_timed = queries_blind(s->renderer);
    if (!warm_up(s))
        goto free_source;
    free(common);
    return s;

free_source:
    free(source);
    free(common);
fail:
    gl_close(s);
    return NULL;
}

static void gl_describe(void *state, char *buf, size_t size)
{
    gl_state *s = state;
    size_t n;
    switch (eng_renderer_kind(s->renderer)) {
    case ENG_HW_SOFTWARE: {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(buf, size,
                 ngettext("OpenGL compute on %s: software on this CPU's %ld core; work groups of %dx%d",
                          "OpenGL compute on %s: software on this CPU's %ld cores; work groups of %dx%d",
                          (unsigned long)cores),
                 s->renderer, cores, current(s)->local[0], current(s)->local[1]);
        break;
    }
    case ENG_HW_VIRTUAL:
        snprintf(buf, size,
                 _("OpenGL compute on %s: a virtual GPU, the hardware behind it unknown; work groups of %dx%d"),
                 s->renderer, current(s)->local[0], current(s)->local[1]);
        break;
    default:
        snprintf(buf, size, _("OpenGL compute on %s, work groups of %dx%d"), s->renderer, current(s)->local[0],
                 current(s)->local[1]);
        break;
    }
    n = strlen(buf);
    if (n < size)
        snprintf(buf + n, size - n, _(", %s kernel"), C_("kernel", eng_kernel_name(s->opt.kernel)));
    n = strlen(buf);
    if (s->opt.result == ENG_RESULT_PER_PIXEL && n < size)
        snprintf(buf + n, size - n, _(", one read-back call per pixel"));
}

/* ---- running ------------------------------------------------------------- */

static int groups(int n, int local)
{
    return (int)(((long)n + local - 1) / local);
}

/* Whether a w x h plane fits one shader storage buffer of this driver. */
static bool fits_buffer(const gl_state *s, int w, int h)
{
    int64_t bytes = (int64_t)w * h * (int64_t)sizeof(float);
    if ((int64_t)w * h > INT_MAX)
        return err_set("a %dx%d image has more pixels than the compute shader can index (%d)", w, h, INT_MAX);
    if (bytes > (int64_t)s->max_block_bytes)
        return err_set("a %dx%d image needs %lld bytes (%.2f MiB) in one shader storage buffer; OpenGL on %s allows "
                       "%lld (%.2f MiB)",
                       w, h, (long long)bytes, (double)bytes / 1048576.0, s->renderer, (long long)s->max_block_bytes,
                       (double)s->max_block_bytes / 1048576.0);
    return true;
}

/* Whether a job's input and output fit this driver's limits (one work item
 * an output); the sentence says which one it passes. */
static bool fits(const gl_state *s, const eng_job *job)
{
    int ow = conv_out_w(&job->params, job->in->w), oh = conv_out_h(&job->params, job->in->h);
    if (!fits_buffer(s, job->in->w, job->in->h) || !fits_buffer(s, ow, oh))
        return false;
    if (groups(ow, current(s)->local[0]) > s->max_groups[0] || groups(oh, current(s)->local[1]) > s->max_groups[1])
        return err_set("a %dx%d output needs %dx%d work groups; OpenGL on %s allows %dx%d", ow, oh,
                       groups(ow, current(s)->local[0]), groups(oh, current(s)->local[1]), s->renderer,
                       s->max_groups[0], s->max_groups[1]);
    return true;
}

/* The bytes of a job's input and of its output, and the larger (each
 * buffer's size). */
static size_t in_bytes(const eng_job *job)
{
    return (size_t)job->in->w * (size_t)job->in->h * sizeof(float);
}

static size_t out_bytes(const eng_job *job)
{
    return (size_t)conv_out_w(&job->params, job->in->w) * (size_t)conv_out_h(&job->params, job->in->h) *
           sizeof(float);
}

static size_t buffer_bytes(const eng_job *job)
{
    return in_bytes(job) > out_bytes(job) ? in_bytes(job) : out_bytes(job);
}

/* Gives both buffers new storage of `bytes` (0: lets go of it). */
static void store_buffers(gl_state *s, size_t bytes)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->buf[BUF_IN]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->buf[BUF_OUT]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_READ);
}

/* Makes each buffer hold at least `bytes`. */
static bool ensure_capacity(gl_state *s, size_t bytes)
{
    GLenum e;
    if (bytes <= s->capacity)
        return true;
    s->capacity = 0;
    store_buffers(s, bytes);
    e = take_errors();
    if (e == GL_OUT_OF_MEMORY)
        return err_set("the image needs two buffers of %zu MiB on %s, which OpenGL could not allocate "
                       "(GL_OUT_OF_MEMORY)",
                       bytes >> 20, s->renderer);
    if (e != GL_NO_ERROR)
        return err_set("OpenGL reported %s (0x%04x) allocating two buffers of %zu bytes on %s", gl_error_name(e),
                       (unsigned)e, bytes, s->renderer);
    s->capacity = bytes;
    return true;
}

static void save_bindings(const gl_state *s, gl_saved *g)
{
    glGetIntegerv(GL_CURRENT_PROGRAM, &g->program);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &g->ssbo);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, current(s)->bind_in, &g->indexed_in);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, current(s)->bind_out, &g->indexed_out);
}

static void restore_bindings(const gl_state *s, const gl_saved *g)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, current(s)->bind_in, (GLuint)g->indexed_in);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, current(s)->bind_out, (GLuint)g->indexed_out);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)g->ssbo);
    glUseProgram((GLuint)g->program);
}

/* Uploads the input (timed as upload), then dispatches the shader into
 * `out_buffer` (timed as compute). */
static void upload_and_dispatch(gl_state *s, const gl_program *p, const eng_job *job, GLuint out_buffer,
                                eng_launch *launch)
{
    const conv_params *cp = &job->params;
    int w = job->in->w, h = job->in->h, ow = conv_out_w(cp, w), oh = conv_out_h(cp, h);

    phase_begin(s, Q_UPLOAD);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->buf[BUF_IN]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)in_bytes(job), job->in->px);
    phase_end(s, Q_UPLOAD);

    launch->grid_x = groups(ow, p->local[0]);
    launch->grid_y = groups(oh, p->local[1]);
    launch->block_x = p->local[0];
    launch->block_y = p->local[1];
    glUseProgram(p->program);
    glUniform1i(p->loc_w, w);
    glUniform1i(p->loc_h, h);
    if (p >= &s->prog[PROG_ANY]) {
        glUniform1i(p->loc_kw, cp->kw);
        glUniform1i(p->loc_kh, cp->kh);
        glUniform1fv(p->loc_weight, cp->kw * cp->kh, cp->weight);
        glUniform1i(p->loc_out_w, ow);
        glUniform1i(p->loc_out_h, oh);
        glUniform1i(p->loc_stride, cp->stride);
        glUniform1i(p->loc_dilation, cp->dilation);
        glUniform1i(p->loc_pad_x, cp->pad_x);
        glUniform1i(p->loc_pad_y, cp->pad_y);
    } else {
        glUniform1fv(p->loc_weight, 9, cp->weight);
    }
    glUniform1f(p->loc_divisor, cp->divisor);
    glUniform1i(p->loc_border, cp->border);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, p->bind_in, s->buf[BUF_IN], 0, (GLsizeiptr)in_bytes(job));
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, p->bind_out, out_buffer, 0, (GLsizeiptr)out_bytes(job));
    if (p == &s->prog[PROG_NO_BARRIER]) { /* shared memory filled with NaN first, before the phase's clock */
        glUseProgram(s->poison);
        glUniform1i(s->poison_w, w);
        glDispatchCompute((GLuint)launch->grid_x, (GLuint)launch->grid_y, 1);
        /* the poison may write the output (its branch is never taken): the
         * barrier orders the convolution after it, not alongside */
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glUseProgram(p->program);
    }
    phase_begin(s, Q_COMPUTE);
    glDispatchCompute((GLuint)launch->grid_x, (GLuint)launch->grid_y, 1);
    /* The shader's writes, visible to whatever reads the buffer next: a
     * read-back here, or the caller's drawing after present. */
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    phase_end(s, Q_COMPUTE);
}

/* The trap on any GPU: one read-back call per output pixel, as a first port
 * that reads a GPU array element by element writes it. Each
 * glGetBufferSubData of 4 bytes returns only when they are in host memory.
 * Runs for at most opt.per_pixel_max pixels or opt.per_pixel_budget_ms of
 * the host clock, whichever ends first (*done says how many); the rest
 * comes back in one copy, so the result is whole (*rest_ms: its time,
 * which is no phase). Returns the milliseconds of the timed calls. */
static double read_per_pixel(gl_state *s, float *dst, long long n, long long *done, double *rest_ms)
{
    long long cap = n < s->opt.per_pixel_max ? n : s->opt.per_pixel_max, i = 0;
    double t0, ms;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->buf[BUF_OUT]);
    glFinish(); /* the dispatch done: only the copies are timed */
    t0 = tim_now_ms();
    while (i < cap) {
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(i * (long long)sizeof(float)), sizeof(float), dst + i);
        ++i;
        if (tim_now_ms() - t0 >= s->opt.per_pixel_budget_ms)
            break;
    }
    ms = tim_now_ms() - t0;
    if (i < n)
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(i * (long long)sizeof(float)),
                           (GLsizeiptr)((n - i) * (long long)sizeof(float)), dst + i);
    glFinish();
    *rest_ms = tim_now_ms() - t0 - ms;
    *done = i > 0 ? i : 1;
    return ms;
}

static bool gl_configure(void *state, const eng_options *o)
{
    gl_state *s = state;
    s->opt = *o; /* the kernel (tiled or naive) picks the shader; the result, the read-back */
    return true;
}

static bool gl_run(void *state, const eng_job *job, eng_timing *timing)
{
    gl_state *s = state;
    size_t bytes = out_bytes(job);
    eng_launch launch;
    gl_saved saved;
    double t0, wall;
    bool ok = false;

    const gl_program *p = program_for(s, &job->params);

    if (!p || !fits(s, job))
        return false;
    take_errors(); /* not ours: whatever the context's other users left */
    save_bindings(s, &saved);
    if (!ensure_capacity(s, buffer_bytes(job)))
        goto restore;
    glFinish();
    t0 = tim_now_ms();
    upload_and_dispatch(s, p, job, s->buf[BUF_OUT], &launch);
    if (s->opt.result == ENG_RESULT_PER_PIXEL) {
        long long n = (long long)(bytes / sizeof(float)), done;
        double rest_ms, per_pixel_ms = read_per_pixel(s, job->out->px, n, &done, &rest_ms);
        wall = tim_now_ms() - t0;
        if (!gl_check(s, N_("reading the result back one pixel at a time")))
            goto restore;
        fill_timing(s, ENG_COMPUTE, false, wall - per_pixel_ms - rest_ms, timing);
        timing->ms[ENG_DOWNLOAD] = per_pixel_ms / (double)done * (double)n;
        timing->has[ENG_DOWNLOAD] = true;
        timing->result = ENG_RESULT_PER_PIXEL;
        timing->extrapolated = done < n;
        timing->measured_px = done;
        timing->total_px = n;
        if (!s->host_timed)
            timing->clock = N_("GL timer query; the per-pixel copies by the monotonic clock");
    } else {
        phase_begin(s, Q_DOWNLOAD);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, s->buf[BUF_OUT]);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, job->out->px);
        phase_end(s, Q_DOWNLOAD);
        glFinish();
        wall = tim_now_ms() - t0;
        if (!gl_check(s, N_("computing the convolution")))
            goto restore;
        fill_timing(s, ENG_COMPUTE, true, wall, timing);
        timing->result = ENG_RESULT_BULK;
    }
    timing->launch = launch;
    ok = gl_check(s, N_("reading the timer queries"));
restore:
    restore_bindings(s, &saved);
    return ok;
}

/* Computes into the caller's GL buffer (the output's floats) instead of host memory:
 * upload, compute (the dispatch, writing that buffer in place), overhead.
 * There is no present phase: the buffer written is the one drawn, so
 * nothing is copied to show it. */
static bool gl_present(void *state, const eng_job *job, unsigned gl_buffer, eng_timing *timing)
{
    gl_state *s = state;
    int ow = conv_out_w(&job->params, job->in->w), oh = conv_out_h(&job->params, job->in->h);
    size_t bytes = out_bytes(job);
    GLint64 size = 0;
    eng_launch launch;
    gl_saved saved;
    double t0, wall;
    bool ok = false;

    const gl_program *p = program_for(s, &job->params);

    if (!p || !fits(s, job))
        return false;
    take_errors();
    save_bindings(s, &saved);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, gl_buffer);
    glGetBufferParameteri64v(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_SIZE, &size);
    if (take_errors() != GL_NO_ERROR || size < (GLint64)bytes) {
        err_set("GL buffer %u cannot take a %dx%d result: it holds %lld bytes, %zu are needed", gl_buffer, ow, oh,
                (long long)size, bytes);
        goto restore;
    }
    if (!ensure_capacity(s, buffer_bytes(job)))
        goto restore;
    glFinish();
    t0 = tim_now_ms();
    upload_and_dispatch(s, p, job, gl_buffer, &launch);
    glFinish();
    wall = tim_now_ms() - t0;
    if (!gl_check(s, N_("computing the convolution into a GL buffer")))
        goto restore;
    fill_timing(s, ENG_COMPUTE, false, wall, timing);
    timing->launch = launch;
    timing->result = ENG_RESULT_INTEROP; /* no copy: the shader wrote the buffer in place */
    ok = gl_check(s, N_("reading the timer queries"));
restore:
    restore_bindings(s, &saved);
    return ok;
}

/* The renderer, and its memory where the driver tells it
 * (GL_NVX_gpu_memory_info, NVIDIA's drivers; in KiB). */
static bool gl_device(void *state, eng_device_info *info)
{
    gl_state *s = state;
    GLint kib_total = 0, kib_free = 0;

    snprintf(info->name, sizeof info->name, "%s", s->renderer);
    info->hardware = eng_renderer_kind(s->renderer);
    info->memory_engine = 2 * (long long)s->capacity;
    info->max_buffer = (long long)s->max_block_bytes;
    info->subgroup = s->subgroup;
    if (GLEW_NVX_gpu_memory_info) {
        take_errors();
        glGetIntegerv(GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX, &kib_total);
        glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kib_free);
        if (take_errors() == GL_NO_ERROR && kib_total > 0) {
            info->memory_total = (long long)kib_total * 1024;
            info->memory_free = (long long)kib_free * 1024;
        }
    }
    info->present = ENG_PRESENT_NATIVE;
    snprintf(info->present_why, sizeof info->present_why,
             "the compute shader writes the GL buffer in the same OpenGL context: no copy");
    return true;
}

/* Gives the image buffers' storage back (the next run allocates what it
 * needs: a tile under a memory budget). The GL context must be current. */
static void gl_trim(void *state)
{
    gl_state *s = state;
    gl_saved saved;
    save_bindings(s, &saved);
    store_buffers(s, 0);
    restore_bindings(s, &saved);
    take_errors();
    s->capacity = 0;
}

/* ---- what gl_layer.c shares of the engine (engines.h) ---------------------- */

bool eng_gl_build(void *state, const char *file, const char *defines, unsigned *program)
{
    gl_state *s = state;
    char path[4200], common_path[4200];
    char *common, *source = NULL;
    gl_program p;
    bool ok;
    snprintf(common_path, sizeof common_path, "%s/%s", eng_shader_dir(), SHADER_COMMON);
    snprintf(path, sizeof path, "%s/%s", eng_shader_dir(), file);
    common = read_text(common_path);
    if (common)
        source = read_text(path);
    memset(&p, 0, sizeof p);
    ok = source && build_program(s, &p, (const char *const[3]){common, defines, source}, path);
    free(common);
    free(source);
    *program = p.program;
    return ok;
}

bool eng_gl_check(void *state, const char *doing)
{
    return gl_check(state, doing);
}

void eng_gl_take_errors(void)
{
    take_errors();
}

char *eng_shader_text(const char *path)
{
    return read_text(path);
}

bool eng_gl_queries_blind(const char *renderer)
{
    return queries_blind(renderer);
}

bool eng_gl_host_timed(const void *state)
{
    return ((const gl_state *)state)->host_timed;
}

const char *eng_gl_clock(const void *state)
{
    return ((const gl_state *)state)->host_timed ? CLOCK_HOST : CLOCK_QUERY;
}

long long eng_gl_max_buffer(const void *state)
{
    return (long long)((const gl_state *)state)->max_block_bytes;
}

eng_gl_layer_ctx **eng_gl_layer_slot(void *state)
{
    return &((gl_state *)state)->layer;
}

static bool gl_layer(void *state, const eng_layer_job *job, eng_layer_timing *timing)
{
    return eng_gl_layer(state, job, timing);
}

const eng_class eng_gl_class = {
    .name = "gl",
    .summary = N_("an OpenGL compute shader (tiled or naive), one GPU invocation per output"),
    .needs_gl_context = true,
    .kernel_choice = true,
    .race_demo = true,
    .any_size = true,
    .any_geometry = true,
    .probe = gl_probe,
    .open = gl_open,
    .close = gl_close,
    .run = gl_run,
    .describe = gl_describe,
    .present = gl_present,
    .device = gl_device,
    .configure = gl_configure,
    .trim = gl_trim,
    .roofs = eng_gl_roofs,
    .layer_ways = 1u << ENG_LAYER_DIRECT | 1u << ENG_LAYER_IM2COL,
    .layer = gl_layer, /* gl_roofs.c */
};
