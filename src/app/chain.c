/* chain.c - the chain (chain.h): the only writer of scene.chain. Each pass
 * reads the one before, and the host starts every pass and gets its result
 * back, as a program that loops over the steps does. */
#include "scene_feature.h"

#include <stdio.h>

#include "core/err.h"
#include "core/timing.h"

/* The chain under way ends (its planes go). */
static void end(scene *s)
{
    img_plane_free(&s->chain.a);
    img_plane_free(&s->chain.b);
    if (scene_task_is(s, SCENE_FEATURE_CHAIN))
        scene_task_end(s);
}

void scene_chain(scene *s)
{
    if (s->chart == SCENE_CHART_CHAIN && !scene_task_is(s, SCENE_FEATURE_CHAIN)) {
        scene_show_chart(s, SCENE_CHART_TIMING); /* X again hides the panel */
        return;
    }
    if (!s->img.luma.px || scene_task_is(s, SCENE_FEATURE_CHAIN))
        return;
    scene_task_start(s, SCENE_FEATURE_CHAIN, 2 * SCENE_CHAIN_LENGTH);
    if (!img_plane_scaled(&s->img.luma, 4, 4, &s->chain.a) || !img_plane_alloc(&s->chain.b, 4, 4)) {
        scene_say_error(s, err_msg());
        end(s);
        return;
    }
    s->chain.length = SCENE_CHAIN_LENGTH;
    s->chain.ms[0] = s->chain.ms[1] = -1;
    s->chain.engine = 0;
    s->chain.pass = -1; /* the warm-up run first */
    s->chain.engine_ms = 0;
    scene_show_chart(s, SCENE_CHART_CHAIN);
}

/* ---- its row of the feature table ------------------------------------------- */

/* cpu-seq is done: the GPU starts from the image too. */
static void next_engine(scene *s)
{
    s->chain.engine = 1;
    s->chain.pass = -1;
    s->chain.engine_ms = 0;
    scene_task_done_at(s, SCENE_CHAIN_LENGTH); /* half the bar, whether cpu-seq ran or not */
    img_plane_free(&s->chain.a);
    if (!img_plane_scaled(&s->img.luma, 4, 4, &s->chain.a)) {
        scene_say_error(s, err_msg());
        end(s);
    }
}

/* Passes of the chain for about budget_ms. Only the passes are timed, not
 * the frames drawn between slices. */
static void slice(scene *s, double budget_ms)
{
    chain_state *c = &s->chain;
    eng_engine *e = c->engine == 0 ? s->cpu[SCENE_CPU_SEQ].engine : s->gpu.eng.engine;
    conv_params p = scene_params(s);
    double start = tim_now_ms(), t0;
    bool ok = e != NULL;

    if (ok && c->engine == 1)
        scene_gpu_options(s, ENG_RESULT_BULK);
    t0 = tim_now_ms();
    while (ok && c->pass < SCENE_CHAIN_LENGTH) {
        bool odd = c->pass > 0 && c->pass % 2; /* the warm-up (pass -1) goes a -> b, as pass 0 does */
        eng_job job = {odd ? &c->b : &c->a, odd ? &c->a : &c->b, p};
        eng_timing tm;
        if (!eng_run(e, &job, &tm)) {
            ok = false;
            break;
        }
        if (c->pass < 0) { /* the warm-up, not timed */
            c->pass = 0;
            t0 = tim_now_ms();
            continue;
        }
        ++c->pass;
        scene_task_step(s);
        if (tim_now_ms() - start > budget_ms)
            break;
    }
    c->engine_ms += tim_now_ms() - t0;
    if (ok && c->pass < SCENE_CHAIN_LENGTH)
        return;
    c->ms[c->engine] = ok ? c->engine_ms : -1;
    if (c->engine == 1) {
        scene_gpu_restale(s);
        end(s);
        return;
    }
    next_engine(s);
}

static void cancel(scene *s, bool asked)
{
    if (asked && s->chain.engine == 1)
        scene_gpu_restale(s); /* its switches went to bulk */
    end(s);
}

static void state(const scene *s, FILE *f)
{
    fprintf(f, "chain_shown=%d\nchain_cpu_ms=%.3f\nchain_gpu_ms=%.3f\n", s->chart == SCENE_CHART_CHAIN, s->chain.ms[0],
            s->chain.ms[1]);
}

static void init(scene *s)
{
    s->chain.ms[0] = s->chain.ms[1] = -1;
}

const scene_feature scene_chain_feature = {
    .name = "chain",
    .init = init,
    .free = end,
    .slice = slice,
    .cancel = cancel,
    .state = state,
};
