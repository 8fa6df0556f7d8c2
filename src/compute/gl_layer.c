/* gl_layer.c - a convolution layer on the gl engine (shaders/layer.comp),
 * with the engine's context current: direct (a program of stage 0), or
 * im2col (stage 1, into a matrix buffer) then our GEMM (stage 2, reading
 * it): the direct loop's bits, as the shaders add the products in its
 * order. There is no GEMM library for OpenGL, so no library way here.
 *
 * The programs are built on the first layer run, the buffers kept and
 * grown. Phases as the engine's runs (gl_compute.c): upload, compute (the
 * unrolling timed apart within it), download; by timer queries, or on a
 * CPU renderer by the monotonic clock closed by glFinish. The caller's
 * program and buffer bindings are put back. */
#include <GL/glew.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "core/tr.h"
#include "engines.h"

#define LAYER_SHADER "layer.comp"

enum { LB_IN, LB_W, LB_BIAS, LB_COL, LB_OUT, LB_COUNT };
enum { LQ_UPLOAD, LQ_UNROLL, LQ_COMPUTE, LQ_DOWNLOAD, LQ_COUNT };
enum { STAGE_DIRECT, STAGE_IM2COL, STAGE_GEMM, STAGE_COUNT };

typedef struct stage_program {
    GLuint program;
    GLint loc_w, loc_h, loc_out_w, loc_out_h, loc_stride, loc_dilation, loc_pad_x, loc_pad_y, loc_border;
    GLint loc_c_in, loc_k;
    GLint local[3];
} stage_program;

struct eng_gl_layer_ctx {
    stage_program stage[STAGE_COUNT];
    GLuint buf[LB_COUNT];
    size_t capacity[LB_COUNT];
    GLuint query[LQ_COUNT];
    double t0, host_ms[LQ_COUNT];
};

void eng_gl_layer_free(eng_gl_layer_ctx *c)
{
    if (!c)
        return;
    for (int i = 0; i < STAGE_COUNT; ++i)
        if (c->stage[i].program)
            glDeleteProgram(c->stage[i].program);
    glDeleteBuffers(LB_COUNT, c->buf);
    glDeleteQueries(LQ_COUNT, c->query);
    eng_gl_take_errors();
    free(c);
}

static bool locate(stage_program *p)
{
    static const char *const names[] = {"u_w",       "u_h",     "u_out_w", "u_out_h", "u_stride", "u_dilation",
                                        "u_pad_x",   "u_pad_y", "u_border", "u_c_in",  "u_k"};
    GLint *loc[] = {&p->loc_w,       &p->loc_h,     &p->loc_out_w,  &p->loc_out_h, &p->loc_stride, &p->loc_dilation,
                    &p->loc_pad_x,   &p->loc_pad_y, &p->loc_border, &p->loc_c_in,  &p->loc_k};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        *loc[i] = glGetUniformLocation(p->program, names[i]);
    glGetProgramiv(p->program, GL_COMPUTE_WORK_GROUP_SIZE, p->local);
    return true;
}

static eng_gl_layer_ctx *ctx_of(void *state)
{
    eng_gl_layer_ctx **slot = eng_gl_layer_slot(state), *c = *slot;
    static const char *const defines[STAGE_COUNT] = {"#define LAYER_STAGE 0\n", "#define LAYER_STAGE 1\n",
                                                     "#define LAYER_STAGE 2\n"};
    if (c)
        return c;
    c = calloc(1, sizeof *c);
    if (!c) {
        err_set_kind(ERR_ENV, "out of memory");
        return NULL;
    }
    for (int i = 0; i < STAGE_COUNT; ++i)
        if (!eng_gl_build(state, LAYER_SHADER, defines[i], &c->stage[i].program) || !locate(&c->stage[i])) {
            eng_gl_layer_free(c);
            return NULL;
        }
    glGenBuffers(LB_COUNT, c->buf);
    glGenQueries(LQ_COUNT, c->query);
    if (!eng_gl_check(state, N_("creating a layer's buffers"))) {
        eng_gl_layer_free(c);
        return NULL;
    }
    return *slot = c;
}

static bool ensure(void *state, eng_gl_layer_ctx *c, int b, size_t bytes, const char *what)
{
    long long most = eng_gl_max_buffer(state);
    if (most > 0 && (long long)bytes > most)
        return err_set(_("The layer's %1$s (%2$.1f MB) is larger than one storage buffer may be here (%3$.1f MB)."),
                       what, (double)bytes / 1e6, (double)most / 1e6);
    if (c->capacity[b] >= bytes)
        return true;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[b]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
    c->capacity[b] = eng_gl_check(state, N_("making a layer's buffers")) ? bytes : 0;
    return c->capacity[b] == bytes;
}

static void begin(void *state, eng_gl_layer_ctx *c, int q)
{
    if (eng_gl_host_timed(state))
        c->t0 = tim_now_ms();
    else
        glBeginQuery(GL_TIME_ELAPSED, c->query[q]);
}

static void end(void *state, eng_gl_layer_ctx *c, int q)
{
    if (eng_gl_host_timed(state)) {
        glFinish();
        c->host_ms[q] = tim_now_ms() - c->t0;
    } else {
        glEndQuery(GL_TIME_ELAPSED);
    }
}

static double ms_of(void *state, eng_gl_layer_ctx *c, int q)
{
    GLuint64 ns = 0;
    if (eng_gl_host_timed(state))
        return c->host_ms[q];
    glGetQueryObjectui64v(c->query[q], GL_QUERY_RESULT, &ns);
    return (double)ns / 1e6;
}

/* One stage's dispatch over the output, z groups deep, from buffer `from` into `into`. */
static void dispatch(const stage_program *p, const eng_layer_job *job, const conv_params *q, GLuint from, GLuint into,
                     GLuint w, GLuint bias, int depth)
{
    int ow = job->out->w, oh = job->out->h;
    glUseProgram(p->program);
    glUniform1i(p->loc_w, job->in->w), glUniform1i(p->loc_h, job->in->h);
    glUniform1i(p->loc_out_w, ow), glUniform1i(p->loc_out_h, oh);
    glUniform1i(p->loc_stride, q->stride), glUniform1i(p->loc_dilation, q->dilation);
    glUniform1i(p->loc_pad_x, q->pad_x), glUniform1i(p->loc_pad_y, q->pad_y);
    glUniform1i(p->loc_border, q->border);
    glUniform1i(p->loc_c_in, job->f->c_in), glUniform1i(p->loc_k, job->f->k);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, from);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, into);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, w);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, bias);
    glDispatchCompute((GLuint)((ow + p->local[0] - 1) / p->local[0]), (GLuint)((oh + p->local[1] - 1) / p->local[1]),
                      (GLuint)depth);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

static bool run(void *state, eng_gl_layer_ctx *c, const eng_layer_job *job, eng_layer_timing *t)
{
    const layer_filters *f = job->f;
    conv_params q = layer_params(f, &job->params);
    size_t in = sizeof(float) * (size_t)f->c_in * job->in->w * job->in->h, rows = (size_t)f->c_in * f->k * f->k;
    size_t n = (size_t)job->out->w * job->out->h, w = sizeof(float) * rows * f->c_out;
    size_t out = sizeof(float) * n * f->c_out, col = sizeof(float) * rows * n;
    bool unroll = job->way == ENG_LAYER_IM2COL;
    double t0, wall, sum;
    if (!ensure(state, c, LB_IN, in, _("input")) || !ensure(state, c, LB_W, w, _("weights")) ||
        !ensure(state, c, LB_BIAS, sizeof(float) * f->c_out, _("biases")) ||
        !ensure(state, c, LB_OUT, out, _("outputs")) ||
        (unroll && !ensure(state, c, LB_COL, col, _("unrolled matrix"))))
        return false;
    glFinish();
    t0 = tim_now_ms();
    begin(state, c, LQ_UPLOAD);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[LB_IN]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)in, job->in->px);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[LB_W]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)w, f->w);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[LB_BIAS]);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof(float) * f->c_out), f->bias);
    end(state, c, LQ_UPLOAD);
    if (unroll) {
        begin(state, c, LQ_UNROLL);
        dispatch(&c->stage[STAGE_IM2COL], job, &q, c->buf[LB_IN], c->buf[LB_COL], c->buf[LB_W], c->buf[LB_BIAS],
                 (int)rows);
        end(state, c, LQ_UNROLL);
    }
    begin(state, c, LQ_COMPUTE);
    if (unroll)
        dispatch(&c->stage[STAGE_GEMM], job, &q, c->buf[LB_COL], c->buf[LB_OUT], c->buf[LB_W], c->buf[LB_BIAS],
                 f->c_out);
    else
        dispatch(&c->stage[STAGE_DIRECT], job, &q, c->buf[LB_IN], c->buf[LB_OUT], c->buf[LB_W], c->buf[LB_BIAS],
                 f->c_out);
    end(state, c, LQ_COMPUTE);
    begin(state, c, LQ_DOWNLOAD);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buf[LB_OUT]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)out, job->out->px);
    end(state, c, LQ_DOWNLOAD);
    glFinish();
    wall = tim_now_ms() - t0;
    if (!eng_gl_check(state, N_("computing a layer")))
        return false;
    t->unroll_ms = unroll ? ms_of(state, c, LQ_UNROLL) : 0;
    t->t.ms[ENG_UPLOAD] = ms_of(state, c, LQ_UPLOAD);
    t->t.ms[ENG_COMPUTE] = t->unroll_ms + ms_of(state, c, LQ_COMPUTE);
    t->t.ms[ENG_DOWNLOAD] = ms_of(state, c, LQ_DOWNLOAD);
    sum = t->t.ms[ENG_UPLOAD] + t->t.ms[ENG_COMPUTE] + t->t.ms[ENG_DOWNLOAD];
    t->t.ms[ENG_OVERHEAD] = wall > sum ? wall - sum : 0;
    for (int p = ENG_UPLOAD; p <= ENG_OVERHEAD; ++p)
        t->t.has[p] = p != ENG_PRESENT;
    t->t.clock = eng_gl_clock(state);
    t->extra_bytes = unroll ? (long long)col : 0;
    snprintf(t->how, sizeof t->how, "%s", unroll ? "im2col shader + our GEMM shader, an invocation per output"
                                                 : "direct shader, an invocation per output");
    return eng_gl_check(state, N_("reading the timer queries"));
}

bool eng_gl_layer(void *state, const eng_layer_job *job, eng_layer_timing *t)
{
    GLint program = 0, ssbo = 0, bound[4] = {0, 0, 0, 0};
    eng_gl_layer_ctx *c;
    bool ok;
    eng_gl_take_errors(); /* not ours: whatever the context's other users left */
    c = ctx_of(state);
    if (!c)
        return false;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &ssbo);
    for (int i = 0; i < 4; ++i)
        glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, (GLuint)i, &bound[i]);
    ok = run(state, c, job, t);
    for (int i = 0; i < 4; ++i)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)i, (GLuint)bound[i]);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)ssbo);
    glUseProgram((GLuint)program);
    return ok;
}
