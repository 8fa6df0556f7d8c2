/* sweep.c - the size sweep (sweep.h): the only writer of scene.sweep. One
 * engine at one size a slice: the CPU engines on the measuring thread
 * (their figure comes back through `took`), the GPU here. */
#include "scene_feature.h"

#include "i18n.h"

#include <stdio.h>

#define SWEEP_BUDGET_MS 60.0 /* time spent measuring one engine at one size */
#define ENGINES SCENE_SWEEP_ENGINES

/* The order a size's engines are measured in (the GPU last: a size is done
 * when it is), and the CPU engine behind each of the sweep's lines. */
static const int measured_in_order[ENGINES] = {SWEEP_SEQ, SWEEP_SIMD, SWEEP_PAR, SWEEP_GPU};
static const scene_cpu_kind cpu_of[ENGINES] = {
    [SWEEP_SEQ] = SCENE_CPU_SEQ, [SWEEP_PAR] = SCENE_CPU_PAR, [SWEEP_SIMD] = SCENE_CPU_SIMD};

/* A figure of the sweep: engine k at size i. */
static void took_at(scene *s, int k, int i, const eng_timing *t)
{
    s->sweep.ms[k][i] = eng_total_ms(t);
    s->sweep.lo[k][i] = eng_total_min(t);
    s->sweep.hi[k][i] = eng_total_max(t);
    s->sweep.reps[k][i] = t->reps;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        s->sweep.phase[k][i][p] = t->has[p] ? t->ms[p] : -1.0;
}

void scene_sweep(scene *s)
{
    if (s->area == SCENE_AREA_SWEEP && !scene_task_is(s, SCENE_FEATURE_SWEEP)) {
        scene_show(s, SCENE_AREA_GRIDS); /* W again hides the chart */
        return;
    }
    if (!s->img.luma.px || scene_task_is(s, SCENE_FEATURE_SWEEP))
        return;
    scene_task_start(s, SCENE_FEATURE_SWEEP, SCENE_SWEEP_SIZES * ENGINES);
    s->sweep.count = 0;
    s->sweep.at_size = s->sweep.at_engine = 0;
    scene_show(s, SCENE_AREA_SWEEP);
    for (int i = 0, n = 4; i < SCENE_SWEEP_SIZES; ++i, n *= 4) {
        s->sweep.size[i] = n;
        for (int k = 0; k < ENGINES; ++k)
            s->sweep.ms[k][i] = -1;
    }
}

int scene_sweep_crossover(const scene *s)
{
    /* the smallest size from which the GPU is faster at every size measured */
    int from = 0;
    for (int i = s->sweep.count - 1; i >= 0; --i) {
        if (!(s->sweep.ms[SWEEP_GPU][i] >= 0 && s->sweep.ms[SWEEP_PAR][i] >= 0 &&
              s->sweep.hi[SWEEP_GPU][i] < s->sweep.lo[SWEEP_PAR][i]))
            break;
        from = s->sweep.size[i];
    }
    return from;
}

/* ---- its row of the feature table ------------------------------------------- */

/* The sweep's cursor moves past one engine at one size; at the end its
 * task ends. */
static void next(scene *s)
{
    if (++s->sweep.at_engine == ENGINES) {
        s->sweep.at_engine = 0;
        ++s->sweep.at_size;
    }
    if (s->sweep.at_size == SCENE_SWEEP_SIZES)
        scene_task_end(s);
}

/* An engine at a size here, on this thread (the GPU; a CPU engine without
 * the measuring thread). */
static void measure_here(scene *s, int k, const img_plane *in)
{
    int n = in->w;
    img_plane out;
    if (k == SWEEP_GPU && s->gpu.eng.engine)
        scene_gpu_options(s, ENG_RESULT_BULK); /* the sweep's GPU times include copying the result back */
    if (img_plane_alloc(&out, n, n)) {
        eng_job job = {in, &out, scene_params(s)};
        scene_engine probe = k == SWEEP_GPU ? s->gpu.eng : s->cpu[cpu_of[k]]; /* the engines' own figures stay */
        scene_engine_measure(&probe, &job, 0, SWEEP_BUDGET_MS);
        if (probe.measured)
            took_at(s, k, s->sweep.at_size, &probe.timing);
        img_plane_free(&out);
    }
    if (k == SWEEP_GPU)
        scene_gpu_restale(s); /* the GPU's switches went back to bulk: measure what is shown again */
    scene_task_step(s);
    if (k == SWEEP_GPU)
        s->sweep.count = s->sweep.at_size + 1;
}

/* One engine at one size: the CPU engines on the measuring thread (their
 * figure comes later), the GPU here. */
static void slice(scene *s, double budget_ms)
{
    int k = measured_in_order[s->sweep.at_engine], n = s->sweep.size[s->sweep.at_size];
    eng_engine *own = k != SWEEP_GPU ? scene_cpu_own(s, cpu_of[k]) : NULL;
    img_plane in;
    (void)budget_ms;
    if (!img_plane_scaled(&s->img.luma, n, n, &in)) {
        scene_task_step(s);
        next(s);
        return;
    }
    if (own) {
        bool given = scene_worker_submit(s, SCENE_FEATURE_SWEEP, own, &in, SWEEP_BUDGET_MS, 0);
        img_plane_free(&in);
        if (given) {
            s->sweep.job_size = s->sweep.at_size;
            s->sweep.job_engine = k;
            next(s);
        }
        return;
    }
    measure_here(s, k, &in);
    img_plane_free(&in);
    next(s);
}

static void took(scene *s, const worker_result *r)
{
    if (!scene_task_is(s, SCENE_FEATURE_SWEEP))
        return;
    if (r->ok)
        took_at(s, s->sweep.job_engine, s->sweep.job_size, &r->timing);
    scene_task_step(s);
}

static void cancel(scene *s, bool asked)
{
    if (asked)
        scene_gpu_restale(s); /* its switches may have gone to bulk */
}

static void state(const scene *s, FILE *f)
{
    fprintf(f, "sweep_shown=%d\nsweep_sizes=%d\nsweep_crossover=%d\n", s->area == SCENE_AREA_SWEEP, s->sweep.count,
            scene_sweep_crossover(s));
}

const scene_feature scene_sweep_feature = {
    .name = "sweep",
    .slice = slice,
    .took = took,
    .cancel = cancel,
    .state = state,
};

bool scene_sweep_gpu_ever_ahead(const scene *s)
{
    for (int i = 0; i < s->sweep.count; ++i)
        if (s->sweep.ms[SWEEP_GPU][i] > 0 && s->sweep.ms[SWEEP_PAR][i] > 0 &&
            s->sweep.ms[SWEEP_GPU][i] < s->sweep.ms[SWEEP_PAR][i])
            return true;
    return false;
}

void scene_sweep_gpu_vs_seq(const scene *s, char *buf, size_t size)
{
    double lo = 1e300, hi = 0;
    char a[32], b[32];
    for (int i = 0; i < s->sweep.count; ++i)
        if (s->sweep.size[i] >= 64 && s->sweep.ms[SWEEP_GPU][i] > 0 && s->sweep.ms[SWEEP_SEQ][i] > 0) {
            double r = s->sweep.ms[SWEEP_GPU][i] / s->sweep.ms[SWEEP_SEQ][i];
            lo = r < lo ? r : lo, hi = r > hi ? r : hi;
        }
    if (hi <= 0) {
        snprintf(buf, size, "%s", _("(no sweep of the GPU from 64\xC3\x97" "64 up yet: press W)"));
        return;
    }
    if (lo >= 1) { /* slower at every size */
        snprintf(a, sizeof a, "%.1f\xC3\x97", lo), snprintf(b, sizeof b, "%.1f\xC3\x97", hi);
        snprintf(buf, size, _("from 64\xC3\x97" "64 up it took %s to %s one plain core's time"), a, b);
    } else if (hi <= 1) { /* faster at every size */
        snprintf(a, sizeof a, "%.1f\xC3\x97", 1 / hi), snprintf(b, sizeof b, "%.1f\xC3\x97", 1 / lo);
        snprintf(buf, size, _("from 64\xC3\x97" "64 up it was %s to %s faster than one plain core"), a, b);
    } else {
        snprintf(a, sizeof a, "%.1f\xC3\x97", hi), snprintf(b, sizeof b, "%.1f\xC3\x97", 1 / lo);
        snprintf(buf, size,
                 _("from 64\xC3\x97" "64 up it was at most %s slower and at most %s faster than one plain core, "
                   "depending on the size"),
                 a, b);
    }
}
