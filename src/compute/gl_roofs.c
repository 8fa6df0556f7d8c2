/* gl_roofs.c - the roofs of a roofline on the gl engine's device (engine.h,
 * eng_roofs), with the GL context current, timed as the gl engine times its
 * phases (gl_compute.c): a GL_TIME_ELAPSED timer query on a GPU; on a
 * software renderer (llvmpipe, softpipe), whose queries do not see compute
 * work or buffer copies, the monotonic clock with glFinish closing the work.
 *
 * memory   glCopyBufferSubData of ROOF_GL_BYTES from one buffer into
 *          another: bytes read plus written, a second;
 * compute  shaders/roof_mul_add.comp: ROOF_GL_INVOCATIONS invocations of 8
 *          chains of vec4, x = x * a + b, `precise` (never fused), two
 *          operations a lane a step; the steps sized so a run takes about
 *          ROOF_GL_TARGET_MS.
 * Each the fastest of ROOF_GL_RUNS runs after a warm-up. What it binds it
 * puts back (the window's own program and buffers). On a software renderer
 * these are the CPU's roofs, reached through the driver: the engine says so. */
#include <GL/glew.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "core/tr.h"
#include "engines.h"

#define ROOF_GL_BYTES ((GLsizeiptr)64 << 20)
#define ROOF_GL_INVOCATIONS (1 << 20)
#define ROOF_GL_LOCAL 256 /* the shader's local_size_x */
#define ROOF_GL_LANES 32  /* 8 chains of vec4 */
#define ROOF_GL_RUNS 3
#define ROOF_GL_TARGET_MS 20.0
#define ROOF_GL_MAX_SOURCE (64 * 1024)

typedef struct gl_roof_clock {
    bool host; /* the monotonic clock and glFinish; else a timer query */
    GLuint query;
    double t0;
} gl_roof_clock;

static void clock_begin(gl_roof_clock *c)
{
    glFinish();
    if (c->host)
        c->t0 = tim_now_ms();
    else
        glBeginQuery(GL_TIME_ELAPSED, c->query);
}

static double clock_end(gl_roof_clock *c)
{
    GLuint64 ns = 0;
    if (c->host) {
        glFinish();
        return tim_now_ms() - c->t0;
    }
    glEndQuery(GL_TIME_ELAPSED);
    glGetQueryObjectui64v(c->query, GL_QUERY_RESULT, &ns);
    return (double)ns / 1e6;
}

static bool memory_roof(gl_roof_clock *c, eng_roofs *out)
{
    GLuint buf[2];
    GLint read0 = 0, write0 = 0;
    double best = -1;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &read0);
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &write0);
    glGenBuffers(2, buf);
    glBindBuffer(GL_COPY_READ_BUFFER, buf[0]);
    glBufferData(GL_COPY_READ_BUFFER, ROOF_GL_BYTES, NULL, GL_STATIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buf[1]);
    glBufferData(GL_COPY_WRITE_BUFFER, ROOF_GL_BYTES, NULL, GL_STATIC_COPY);
    for (int r = 0; r <= ROOF_GL_RUNS && glGetError() == GL_NO_ERROR; ++r) {
        double ms;
        clock_begin(c);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, ROOF_GL_BYTES);
        ms = clock_end(c);
        if (r > 0 && ms > 0 && (best < 0 || ms < best))
            best = ms;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)read0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)write0);
    glDeleteBuffers(2, buf);
    if (best <= 0 || glGetError() != GL_NO_ERROR)
        return err_set("OpenGL could not time a copy of %ld MiB between two buffers", (long)(ROOF_GL_BYTES >> 20));
    out->copy_bytes = (double)ROOF_GL_BYTES;
    out->memory_gb_s = 2.0 * (double)ROOF_GL_BYTES / (best * 1e-3) / 1e9;
    return true;
}

/* Compiles and links shaders/roof_mul_add.comp; 0 with a sentence. */
static GLuint build_program(void)
{
    char path[4200], *text, log[512] = "";
    GLuint shader, program = 0;
    GLint ok = 0;
    FILE *f;
    size_t n;
    if (!eng_shader_dir())
        return err_set("the shaders folder is not set"), 0;
    snprintf(path, sizeof path, "%s/roof_mul_add.comp", eng_shader_dir());
    if (!(f = fopen(path, "rb")))
        return err_set("cannot read the shader '%s': %s", path, strerror(errno)), 0;
    text = calloc(ROOF_GL_MAX_SOURCE + 1, 1);
    n = text ? fread(text, 1, ROOF_GL_MAX_SOURCE, f) : 0;
    fclose(f);
    if (!text || n == 0 || n == ROOF_GL_MAX_SOURCE)
        return free(text), err_set("cannot read the shader '%s'", path), 0;
    shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, (const GLchar *const *)&text, NULL);
    glCompileShader(shader);
    free(text);
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok) {
        program = glCreateProgram();
        glAttachShader(program, shader);
        glLinkProgram(program);
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        if (!ok)
            glGetProgramInfoLog(program, sizeof log, NULL, log), glDeleteProgram(program), program = 0;
    } else {
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
    }
    glDeleteShader(shader);
    if (!program)
        err_set("the compute shader '%s' does not build: %s", path, log);
    return program;
}

/* One dispatch of `steps` steps, timed. */
static double dispatch(GLuint program, gl_roof_clock *c, int steps)
{
    glUniform1i(glGetUniformLocation(program, "u_steps"), steps);
    clock_begin(c);
    glDispatchCompute(ROOF_GL_INVOCATIONS / ROOF_GL_LOCAL, 1, 1);
    return clock_end(c);
}

static bool compute_roof(gl_roof_clock *c, eng_roofs *out)
{
    GLint program0 = 0, ssbo0 = 0, indexed0 = 0;
    GLuint program = build_program(), sink = 0;
    int steps = 4;
    double best = -1, ms;
    if (!program)
        return false;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program0);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &ssbo0);
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &indexed0);
    glGenBuffers(1, &sink);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, sink);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)ROOF_GL_INVOCATIONS * 4, NULL, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sink);
    glUseProgram(program);
    glUniform1f(glGetUniformLocation(program, "u_a"), 0.999f);
    glUniform1f(glGetUniformLocation(program, "u_b"), 0.001f);
    ms = dispatch(program, c, steps); /* the warm-up: the driver's first-use work, and the pace */
    if (ms > 0)
        steps = (int)(steps * (ROOF_GL_TARGET_MS / ms)) + 1;
    steps = steps < 4 ? 4 : steps > (1 << 20) ? 1 << 20 : steps;
    for (int r = 0; r < ROOF_GL_RUNS; ++r) {
        ms = dispatch(program, c, steps);
        if (ms > 0 && (best < 0 || ms < best))
            best = ms;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, (GLuint)indexed0);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)ssbo0);
    glUseProgram((GLuint)program0);
    glDeleteBuffers(1, &sink);
    glDeleteProgram(program);
    if (best <= 0 || glGetError() != GL_NO_ERROR)
        return err_set("OpenGL could not time the compute roof's shader");
    out->compute_gflops = 2.0 * (double)steps * ROOF_GL_LANES * ROOF_GL_INVOCATIONS / (best * 1e-3) / 1e9;
    return true;
}

bool eng_gl_roofs(void *state, eng_roofs *out)
{
    const char *renderer;
    gl_roof_clock c = {0};
    bool ok;
    (void)state;
    memset(out, 0, sizeof *out);
    if (!eng_gl_context_current())
        return err_set("no OpenGL context is current on this thread");
    while (glGetError() != GL_NO_ERROR) /* what came before is not ours */
        ;
    renderer = (const char *)glGetString(GL_RENDERER);
    c.host = eng_renderer_kind(renderer ? renderer : "") == ENG_HW_SOFTWARE;
    if (!c.host)
        glGenQueries(1, &c.query);
    ok = memory_roof(&c, out) && compute_roof(&c, out);
    if (!c.host)
        glDeleteQueries(1, &c.query);
    if (!ok)
        return false;
    out->clock = c.host ? N_("monotonic clock, glFinish closing each run (GL timer queries miss a CPU renderer's work)")
                        : N_("GL timer queries");
    snprintf(out->how, sizeof out->how,
             _("glCopyBufferSubData of %ld MiB; %d invocations of 8 chains of vec4, multiply then add"),
             (long)(ROOF_GL_BYTES >> 20), ROOF_GL_INVOCATIONS);
    return true;
}
