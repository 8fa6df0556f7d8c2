/* chain.c - the chain (chain.h): the only writer of scene.chain. Chained,
 * each pass reads the one before, and the host starts every pass and gets
 * its result back, as a program that loops over the steps does; then the
 * same passes independent, on the same engine: one run over a stack of the
 * image's copies. */
#include "scene_feature.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "i18n.h"

bool scene_chain_stack(const img_plane *in, int n, int border, img_plane *out)
{
    const int w = in->w, h = in->h, rows = h + 2;
    if (n < 1 || !img_plane_alloc(out, w, n * rows))
        return false;
    for (int y = -1; y <= h; ++y) /* one copy with its border rows, then copies of it */
        for (int x = 0; x < w; ++x)
            out->px[(size_t)(y + 1) * (size_t)w + (size_t)x] = conv_sample(in->px, w, h, x, y, border);
    for (int k = 1; k < n; ++k)
        memcpy(out->px + (size_t)k * (size_t)rows * (size_t)w, out->px, (size_t)rows * (size_t)w * sizeof *out->px);
    return true;
}

bool scene_chain_unstack(const img_plane *stack, int n, int h, img_plane *out)
{
    const int w = stack->w;
    if (n < 1 || stack->h != n * (h + 2) || !img_plane_alloc(out, w, n * h))
        return false;
    for (int k = 0; k < n; ++k)
        memcpy(out->px + (size_t)k * (size_t)h * (size_t)w, stack->px + ((size_t)k * (size_t)(h + 2) + 1) * (size_t)w,
               (size_t)h * (size_t)w * sizeof *out->px);
    return true;
}

/* The chain under way ends (its planes go; the results stay). */
static void end(scene *s)
{
    img_plane_free(&s->chain.start);
    img_plane_free(&s->chain.a);
    img_plane_free(&s->chain.b);
    if (scene_task_is(s, SCENE_FEATURE_CHAIN))
        scene_task_end(s);
}

static void forget(scene *s)
{
    for (int i = 0; i < SCENE_CHAIN_ENGINES; ++i) {
        s->chain.ms[i] = s->chain.independent_ms[i] = -1;
        s->chain.chained_runs[i] = s->chain.independent_runs[i] = (eng_spread){0};
        img_plane_free(&s->chain.result[i]);
        img_plane_free(&s->chain.independent[i]);
    }
}

/* The runs' times as a comparison reads them. */
static eng_spread spread_of(const double *ms, int n)
{
    tim_stats t = tim_stats_of(ms, (size_t)n);
    return (eng_spread){t.median, t.min, t.max, n};
}

static size_t bytes(const img_plane *p)
{
    return (size_t)p->w * (size_t)p->h * sizeof *p->px;
}

/* Engine `engine` starts: from the image, the warm-up first. */
static void begin(scene *s, int engine)
{
    chain_state *c = &s->chain;
    c->engine = engine;
    c->rep = 0;
    c->pass = -1;
    c->engine_ms = 0;
    memcpy(c->a.px, c->start.px, bytes(&c->start));
}

void scene_chain(scene *s)
{
    chain_state *c = &s->chain;
    const int side = SCENE_CHAIN_SIDE;
    if (s->chart == SCENE_CHART_CHAIN && !scene_task_is(s, SCENE_FEATURE_CHAIN)) {
        scene_show_chart(s, SCENE_CHART_TIMING); /* X again hides the panel */
        return;
    }
    if (!s->img.luma.px || scene_task_is(s, SCENE_FEATURE_CHAIN))
        return;
    scene_task_start(s, SCENE_FEATURE_CHAIN, SCENE_CHAIN_ENGINES * SCENE_CHAIN_REPS * (SCENE_CHAIN_LENGTH + 1));
    forget(s);
    if (!img_plane_scaled(&s->img.luma, side, side, &c->start) || !img_plane_alloc(&c->a, side, side) ||
        !img_plane_alloc(&c->b, side, side)) {
        scene_say_error(s, err_msg());
        end(s);
        return;
    }
    c->length = SCENE_CHAIN_LENGTH;
    begin(s, 0);
    scene_show_chart(s, SCENE_CHART_CHAIN);
}

/* ---- its row of the feature table ------------------------------------------- */

/* The same passes independent on e: the stack, one untimed run for the
 * engine to take its size, then SCENE_CHAIN_REPS timed runs; the copies'
 * outputs kept. */
static void independent(scene *s, eng_engine *e)
{
    chain_state *c = &s->chain;
    img_plane in = {0}, out = {0};
    eng_timing tm;
    eng_job job = {&in, &out, scene_params(s)};
    double ms[SCENE_CHAIN_REPS];
    bool ok = scene_chain_stack(&c->start, SCENE_CHAIN_LENGTH, job.params.border, &in) &&
              img_plane_alloc(&out, in.w, in.h) && eng_run(e, &job, &tm);
    for (int r = 0; ok && r < SCENE_CHAIN_REPS; ++r) {
        double t0 = tim_now_ms();
        ok = eng_run(e, &job, &tm);
        ms[r] = tim_now_ms() - t0;
        scene_task_step(s);
    }
    ok = ok && scene_chain_unstack(&out, SCENE_CHAIN_LENGTH, SCENE_CHAIN_SIDE, &c->independent[c->engine]);
    if (ok) {
        c->independent_runs[c->engine] = spread_of(ms, SCENE_CHAIN_REPS);
        c->independent_ms[c->engine] = c->independent_runs[c->engine].ms;
    }
    img_plane_free(&in);
    img_plane_free(&out);
}

/* A run of the chain is done: its time kept, and the next from the image;
 * after the last, its result kept for the figures' check. */
static void run_done(scene *s)
{
    chain_state *c = &s->chain;
    const img_plane *last = (SCENE_CHAIN_LENGTH - 1) % 2 ? &c->a : &c->b; /* pass k writes b when k is even */
    c->rep_ms[c->rep++] = c->engine_ms;
    c->engine_ms = 0;
    c->pass = 0;
    if (c->rep == SCENE_CHAIN_REPS && img_plane_alloc(&c->result[c->engine], last->w, last->h))
        memcpy(c->result[c->engine].px, last->px, bytes(last));
    memcpy(c->a.px, c->start.px, bytes(&c->start));
}

/* Passes of the chain for about budget_ms; after its last run, the
 * independent passes. Only the passes are timed, not the frames drawn
 * between slices nor the restart from the image. */
static void slice(scene *s, double budget_ms)
{
    chain_state *c = &s->chain;
    eng_engine *e = c->engine == 0 ? s->cpu[SCENE_CPU_SEQ].engine : s->gpu.eng.engine;
    conv_params p = scene_params(s);
    double start = tim_now_ms(), t;
    bool ok = e != NULL;

    if (ok && c->engine == 1)
        scene_gpu_options(s, ENG_RESULT_BULK);
    t = tim_now_ms();
    while (ok && c->rep < SCENE_CHAIN_REPS) {
        bool odd = c->pass > 0 && c->pass % 2; /* the warm-up (pass -1) goes a -> b, as pass 0 does */
        eng_job job = {odd ? &c->b : &c->a, odd ? &c->a : &c->b, p};
        eng_timing tm;
        double now;
        if (!eng_run(e, &job, &tm)) {
            ok = false;
            break;
        }
        now = tim_now_ms();
        if (c->pass < 0) { /* the warm-up, not timed */
            c->pass = 0;
            t = now;
            continue;
        }
        c->engine_ms += now - t;
        ++c->pass;
        scene_task_step(s);
        if (c->pass == SCENE_CHAIN_LENGTH)
            run_done(s);
        if (tim_now_ms() - start > budget_ms)
            break;
        t = tim_now_ms();
    }
    if (ok && c->rep < SCENE_CHAIN_REPS)
        return;
    if (ok) {
        c->chained_runs[c->engine] = spread_of(c->rep_ms, SCENE_CHAIN_REPS);
        c->ms[c->engine] = c->chained_runs[c->engine].ms;
        independent(s, e);
    }
    if (c->engine == 1) {
        scene_gpu_restale(s);
        end(s);
        return;
    }
    scene_task_done_at(s, SCENE_CHAIN_REPS * (SCENE_CHAIN_LENGTH + 1)); /* half the bar, whether cpu-seq ran or not */
    begin(s, 1);
}

static void cancel(scene *s, bool asked)
{
    if (asked && s->chain.engine == 1)
        scene_gpu_restale(s); /* its switches went to bulk */
    end(s);
}

static void state(const scene *s, FILE *f)
{
    fprintf(f,
            "chain_shown=%d\nchain_cpu_ms=%.3f\nchain_gpu_ms=%.3f\nchain_cpu_independent_ms=%.3f\n"
            "chain_gpu_independent_ms=%.3f\n",
            s->chart == SCENE_CHART_CHAIN, s->chain.ms[0], s->chain.ms[1], s->chain.independent_ms[0],
            s->chain.independent_ms[1]);
}

static void init(scene *s)
{
    forget(s);
}

static void free_all(scene *s)
{
    end(s);
    forget(s);
}

const scene_feature scene_chain_feature = {
    .name = "chain",
    .init = init,
    .free = free_all,
    .slice = slice,
    .cancel = cancel,
    .state = state,
};

/* ---- in words ---------------------------------------------------------------- */

void scene_chain_ms_text(const scene *s, int engine, bool independent_passes, char *buf, size_t size)
{
    double ms = independent_passes ? s->chain.independent_ms[engine] : s->chain.ms[engine];
    if (ms < 0)
        snprintf(buf, size, "%s", _("(press X to measure first)"));
    else
        fmt_ms(ms, buf, size);
}

void scene_chain_wait_text(const scene *s, int engine, fmt_style style, char *buf, size_t size)
{
    eng_verdict v;
    if (s->chain.chained_runs[engine].runs == 0 || s->chain.independent_runs[engine].runs == 0) {
        snprintf(buf, size, "%s", _("(press X to measure first)"));
        return;
    }
    v = eng_verdict_of(s->chain.chained_runs[engine], s->chain.independent_runs[engine]);
    if (style == FMT_SENTENCE)
        fmt_verdict(style, _("the chain"), _("the independent passes"), &v, buf, size);
    else
        fmt_verdict(style, _("chained"), _("independent"), &v, buf, size);
}
