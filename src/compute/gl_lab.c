/* gl_lab.c - the kernel lab on OpenGL (lab.h): the learner's shader built
 * after conv3x3.glsl and lab.glsl, "#line 1" before it so that the
 * compiler's lines are the learner's, twice: once with its reads counted
 * per work group (one run), once as written (three timed runs, the last
 * one's outputs compared with the reference). The outputs are set to NaN
 * before each run, so that an output never written is wrong. */
#include <GL/glew.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "engine.h"
#include "engines.h"
#include "lab.h"

#define LAB_COMMON "conv3x3.glsl"
#define LAB_ACCESSORS "lab.glsl"

/* The program: common, accessors (their reads counted or not), "#line 1",
 * the learner's; 0 when it does not compile or link (the log in r). */
static GLuint build(const char *source, bool counted, lab_result *r)
{
    char path[4200], *common, *lab;
    GLuint shader, program = 0;
    GLint ok = GL_FALSE, n = 0;
    snprintf(path, sizeof path, "%s/%s", eng_shader_dir(), LAB_COMMON);
    common = eng_shader_text(path);
    snprintf(path, sizeof path, "%s/%s", eng_shader_dir(), LAB_ACCESSORS);
    lab = eng_shader_text(path);
    if (!common || !lab) {
        free(common);
        free(lab);
        snprintf(r->log, sizeof r->log, "convis's own shaders (%s, %s) are missing from %s", LAB_COMMON,
                 LAB_ACCESSORS, eng_shader_dir());
        return 0;
    }
    shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 5,
                   (const char *const[]){common, counted ? "\n#define LAB_COUNTED 1\n" : "\n", lab, "\n#line 1\n", source},
                   NULL);
    glCompileShader(shader);
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    glGetShaderInfoLog(shader, sizeof r->log, &n, r->log);
    if (ok) {
        program = glCreateProgram();
        glAttachShader(program, shader);
        glLinkProgram(program);
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        if (!ok) {
            glGetProgramInfoLog(program, sizeof r->log, &n, r->log);
            glDeleteProgram(program);
            program = 0;
        }
    }
    glDeleteShader(shader);
    free(common);
    free(lab);
    return program;
}

static void set_uniforms(GLuint program, const img_plane *in, const conv_params *p)
{
    glUniform1i(glGetUniformLocation(program, "u_w"), in->w);
    glUniform1i(glGetUniformLocation(program, "u_h"), in->h);
    glUniform1fv(glGetUniformLocation(program, "u_weight"), 9, p->weight);
    glUniform1f(glGetUniformLocation(program, "u_divisor"), p->divisor);
    glUniform1i(glGetUniformLocation(program, "u_border"), (int)p->border);
}

/* One run of `program` into the buffers bound, the outputs NaN and the
 * counts 0 first (an output never written is wrong): its time, by a timer
 * query as the gl engine times its own kernels, or on a renderer whose
 * queries miss compute work by the host clock closed by glFinish. */
static double run_once(GLuint program, const lab_result *r, const GLuint *buf)
{
    float nan = NAN;
    GLuint zero = 0, query = 0;
    GLuint64 ns = 0;
    bool host = eng_gl_queries_blind(r->renderer);
    double t0;
    glUseProgram(program);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32F, GL_RED, GL_FLOAT, &nan);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[2]);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glFinish();
    if (!host) {
        glGenQueries(1, &query);
        glBeginQuery(GL_TIME_ELAPSED, query);
    }
    t0 = tim_now_ms();
    glDispatchCompute((GLuint)r->groups_x, (GLuint)r->groups_y, 1);
    if (host) {
        glFinish();
        return tim_now_ms() - t0;
    }
    glEndQuery(GL_TIME_ELAPSED);
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    glDeleteQueries(1, &query);
    return (double)ns / 1e6;
}

bool eng_gl_lab_run(const char *source, const img_plane *in, const conv_params *p, img_plane *out, lab_result *r)
{
    GLuint counted, timed, buf[3];
    GLint local[3];
    size_t bytes = (size_t)in->w * in->h * sizeof(float), groups;
    GLuint *reads;
    memset(r, 0, sizeof *r);
    snprintf(r->renderer, sizeof r->renderer, "%s", (const char *)glGetString(GL_RENDERER));
    if (!(counted = build(source, true, r))) {
        lab_parse_log(r->log, r);
        return true;
    }
    timed = build(source, false, r);
    r->compiled = true;
    glGetProgramiv(counted, GL_COMPUTE_WORK_GROUP_SIZE, local);
    r->group_w = local[0];
    r->group_h = local[1];
    r->groups_x = (in->w + local[0] - 1) / local[0];
    r->groups_y = (in->h + local[1] - 1) / local[1];
    groups = (size_t)(r->groups_x * r->groups_y);
    if (!img_plane_alloc(out, in->w, in->h) || !(reads = calloc(groups, sizeof *reads))) {
        glDeleteProgram(counted);
        glDeleteProgram(timed);
        return err_set_kind(ERR_ENV, "out of memory for the lab's run");
    }
    glGenBuffers(3, buf);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, in->px, GL_STATIC_DRAW);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_READ);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, buf[2]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(groups * sizeof *reads), NULL, GL_DYNAMIC_READ);
    glUseProgram(counted);
    set_uniforms(counted, in, p);
    run_once(counted, r, buf); /* the reads, counted */
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[2]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(groups * sizeof *reads), reads);
    if (timed) {
        glUseProgram(timed);
        set_uniforms(timed, in, p);
    }
    for (int run = 0; run < 3; ++run) /* the kernel as written, timed; its last outputs compared */
        r->ms[run] = run_once(timed ? timed : counted, r, buf);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, out->px);
    r->median_ms = tim_stats_of(r->ms, 3).median;
    r->ran = true;
    lab_check_outputs(in, p, out, reads, r);
    free(reads);
    glUseProgram(0);
    glDeleteBuffers(3, buf);
    glDeleteProgram(counted);
    glDeleteProgram(timed);
    if (glGetError() != GL_NO_ERROR)
        return err_set("OpenGL failed while running the lab's kernel on %s", r->renderer);
    return true;
}

