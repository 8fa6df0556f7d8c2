/* sweep.c - the size sweep and the filter sweep (sweep.h): the only writer
 * of scene.sweep and scene.filter_sweep. One engine at one point a slice:
 * the CPU engines on the measuring thread (their figure comes back through
 * `took`), the GPU here. */
#include "scene_feature.h"

#include "core/err.h"
#include "core/separable.h"
#include "core/timing.h"
#include "format.h"
#include "i18n.h"

#include <stdio.h>

#define SWEEP_BUDGET_MS 60.0 /* time spent measuring one engine at one point */
#define ENGINES SCENE_SWEEP_ENGINES

/* The order a point's engines are measured in (the GPU last: a point is
 * done when it is), and the CPU engine behind each of the sweep's lines. */
static const int measured_in_order[ENGINES] = {SWEEP_SEQ, SWEEP_SIMD, SWEEP_PAR, SWEEP_GPU};
static const scene_cpu_kind cpu_of[ENGINES] = {
    [SWEEP_SEQ] = SCENE_CPU_SEQ, [SWEEP_PAR] = SCENE_CPU_PAR, [SWEEP_SIMD] = SCENE_CPU_SIMD};

/* The filter sweep's sides: where the 3x3 most lessons use begins, up to
 * where one plain core takes seconds on a 512-pixel image. */
static const int filter_sides[SCENE_SWEEP_SIZES] = {3, 5, 7, 9, 11, 15};

/* The state of sweep `id` (SCENE_FEATURE_SWEEP or SCENE_FEATURE_FILTER_SWEEP). */
static sweep_state *state_of(scene *s, scene_feature_id id)
{
    return id == SCENE_FEATURE_SWEEP ? &s->sweep : &s->filter_sweep;
}

/* A figure of a sweep: engine k at point i. */
static void took_at(sweep_state *st, int k, int i, const eng_timing *t)
{
    st->ms[k][i] = eng_total_ms(t);
    st->lo[k][i] = eng_total_min(t);
    st->hi[k][i] = eng_total_max(t);
    st->reps[k][i] = t->reps;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        st->phase[k][i][p] = t->has[p] ? t->ms[p] : -1.0;
}

/* What point i of sweep id measures: the size sweep the image scaled to a
 * square of size[i] with the filter shown, the filter sweep the image (at
 * most SWEEP_FILTER_SIDE a side) with the kind of filter at size[i] a side.
 * False when there is no room for it. */
static bool point(const scene *s, scene_feature_id id, const sweep_state *st, int i, img_plane *in, conv_params *p)
{
    app_options o = s->opt;
    if (id == SCENE_FEATURE_FILTER_SWEEP && !filt_of_size(&st->kind, st->size[i], &o.kernel))
        return false;
    *p = app_options_params(&o);
    return id == SCENE_FEATURE_SWEEP ? img_plane_scaled(&s->img.luma, st->size[i], st->size[i], in)
                                     : img_plane_scaled(&s->img.luma, st->w, st->h, in);
}

/* Starts sweep id and shows its chart; while its chart shows and it is not
 * under way, hides it. */
static void start(scene *s, scene_feature_id id, scene_area area)
{
    sweep_state *st = state_of(s, id);
    if (s->area == area && !scene_task_is(s, id)) {
        scene_show(s, SCENE_AREA_GRIDS); /* again: hides the chart */
        return;
    }
    if (!s->img.luma.px || scene_task_is(s, id))
        return;
    /* the filter sweep: the two passes at each side, and each engine's roofs at the end */
    scene_task_start(s, id,
                     SCENE_SWEEP_SIZES * (ENGINES + (id == SCENE_FEATURE_FILTER_SWEEP)) +
                         (id == SCENE_FEATURE_FILTER_SWEEP ? ENGINES : 0));
    st->count = 0;
    st->at_size = st->at_engine = 0;
    scene_show(s, area);
    for (int k = 0; k < ENGINES; ++k)
        st->roofs_ok[k] = false, st->roofs_why[k][0] = '\0';
    for (int i = 0, n = 4; i < SCENE_SWEEP_SIZES; ++i, n *= 4) {
        st->size[i] = id == SCENE_FEATURE_SWEEP ? n : filter_sides[i];
        st->sep_ms[i] = -1;
        for (int k = 0; k < ENGINES; ++k) {
            st->ms[k][i] = -1;
            for (int ph = 0; ph < ENG_PHASE_COUNT; ++ph)
                st->phase[k][i][ph] = -1;
        }
    }
}

void scene_sweep(scene *s)
{
    start(s, SCENE_FEATURE_SWEEP, SCENE_AREA_SWEEP);
}

void scene_filter_sweep(scene *s)
{
    sweep_state *st = &s->filter_sweep;
    filt_kernel probe;
    double scale;
    if (s->img.luma.px && !scene_task_is(s, SCENE_FEATURE_FILTER_SWEEP) && s->area != SCENE_AREA_FILTER_SWEEP) {
        /* the filter shown's kind when it has square sizes (box, gaussian), else box */
        st->kind = filt_of_size(&s->opt.kernel, 3, &probe) && probe.kw == probe.kh ? s->opt.kernel : *filt_preset(1);
        scale = (double)SWEEP_FILTER_SIDE / (s->img.luma.w > s->img.luma.h ? s->img.luma.w : s->img.luma.h);
        scale = scale < 1 ? scale : 1;
        st->w = (int)(s->img.luma.w * scale + 0.5), st->h = (int)(s->img.luma.h * scale + 0.5);
        st->w = st->w > 0 ? st->w : 1, st->h = st->h > 0 ? st->h : 1;
    }
    start(s, SCENE_FEATURE_FILTER_SWEEP, SCENE_AREA_FILTER_SWEEP);
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

/* The sweep's cursor moves past one engine at one point; at the end its
 * task ends. */
static void next(scene *s, sweep_state *st)
{
    if (++st->at_engine == ENGINES + (st == &s->filter_sweep)) { /* the filter sweep: the two passes last */
        st->at_engine = 0;
        ++st->at_size;
    }
    if (st->at_size == SCENE_SWEEP_SIZES && st != &s->filter_sweep)
        scene_task_end(s); /* the filter sweep goes on to the roofs (roofs_slice) */
}

/* The filter sweep's last slices: engine at_engine's roofs, on this thread
 * once the measuring thread is idle (so that nothing else shares the
 * cores); the CPU engines' own engines are the window's. */
static void roofs_slice(scene *s, sweep_state *st)
{
    int k = st->at_engine;
    eng_engine *e = k == SWEEP_GPU ? s->gpu.eng.engine : s->cpu[cpu_of[k]].engine;
    if (s->worker && worker_busy(s->worker))
        return;
    if (!e)
        snprintf(st->roofs_why[k], sizeof st->roofs_why[k], "%s", _("not available here"));
    else if (!(st->roofs_ok[k] = eng_measure_roofs(e, &st->roofs[k])))
        snprintf(st->roofs_why[k], sizeof st->roofs_why[k], "%s", err_msg());
    scene_task_step(s);
    if (++st->at_engine == ENGINES)
        scene_task_end(s);
}

bool scene_filter_sweep_point(const scene *s, int k, int i, double *intensity, double *gflops)
{
    const sweep_state *st = &s->filter_sweep;
    double ops, compute_ms;
    if (i < 0 || i >= st->count || k < 0 || k >= ENGINES)
        return false;
    ops = 2.0 * st->size[i] * st->size[i] + 1.0;
    compute_ms = st->phase[k][i][ENG_COMPUTE];
    *intensity = ops / 8.0;
    if (!(st->ms[k][i] > 0 && compute_ms > 0)) /* measured in this sweep */
        return false;
    *gflops = (double)st->w * st->h * ops / (compute_ms * 1e6);
    return true;
}

/* An engine at a point here, on this thread (the GPU; a CPU engine without
 * the measuring thread). */
static void measure_here(scene *s, sweep_state *st, int k, const img_plane *in, conv_params params)
{
    img_plane out;
    if (k == SWEEP_GPU && s->gpu.eng.engine)
        scene_gpu_options(s, ENG_RESULT_BULK); /* the sweep's GPU times include copying the result back */
    if (img_plane_alloc(&out, conv_out_w(&params, in->w), conv_out_h(&params, in->h))) {
        eng_job job = {in, &out, params};
        scene_engine probe = k == SWEEP_GPU ? s->gpu.eng : s->cpu[cpu_of[k]]; /* the engines' own figures stay */
        scene_engine_measure(&probe, &job, 0, SWEEP_BUDGET_MS);
        if (probe.measured)
            took_at(st, k, st->at_size, &probe.timing);
        img_plane_free(&out);
    }
    if (k == SWEEP_GPU)
        scene_gpu_restale(s); /* the GPU's switches went back to bulk: measure what is shown again */
    scene_task_step(s);
    if (k == SWEEP_GPU && st != &s->filter_sweep)
        st->count = st->at_size + 1;
}

/* The filter sweep's two passes at its point, here: a warm-up and the
 * median of the runs that fit in SWEEP_BUDGET_MS (at most 9), and their
 * result against cpu-par's (the reference's bits). */
static void measure_separable(scene *s, sweep_state *st, const img_plane *in, conv_params params)
{
    int i = st->at_size, n = 0;
    double ms[9], t0, spent = 0;
    sep_factors f;
    img_plane tmp = {0}, two = {0}, direct = {0};
    eng_timing t;
    eng_job job = {in, &direct, params};
    if (sep_factor(&params, &f) && img_plane_alloc(&tmp, in->w, in->h) && img_plane_alloc(&two, in->w, in->h) &&
        img_plane_alloc(&direct, in->w, in->h)) {
        sep_run(in, &params, &f, &tmp, &two); /* the warm-up */
        while (n < 9 && (n < 1 || spent < SWEEP_BUDGET_MS)) {
            t0 = tim_now_ms();
            sep_run(in, &params, &f, &tmp, &two);
            ms[n] = tim_now_ms() - t0;
            spent += ms[n++];
        }
        for (int a = 1; a < n; ++a) /* sorted, for the median */
            for (int b = a; b > 0 && ms[b] < ms[b - 1]; --b) {
                double x = ms[b];
                ms[b] = ms[b - 1], ms[b - 1] = x;
            }
        st->sep_ms[i] = ms[n / 2];
        if (!(s->cpu[SCENE_CPU_PAR].engine && eng_run(s->cpu[SCENE_CPU_PAR].engine, &job, &t)))
            conv_reference(in, &params, &direct);
        {
            sep_diff d = sep_compare(&direct, &two, NULL);
            st->sep_max_ulp[i] = d.max_ulp, st->sep_differ[i] = d.differ, st->sep_total[i] = d.total;
        }
    }
    img_plane_free(&tmp), img_plane_free(&two), img_plane_free(&direct);
    scene_task_step(s);
    st->count = st->at_size + 1; /* a point is done with its two passes */
}

/* One engine at one point of sweep id: the CPU engines on the measuring
 * thread (their figure comes later), the GPU here; the filter sweep's two
 * passes here too. */
static void slice_of(scene *s, scene_feature_id id)
{
    sweep_state *st = state_of(s, id);
    bool two_passes = st->at_engine == ENGINES;
    if (st->at_size == SCENE_SWEEP_SIZES) {
        roofs_slice(s, st);
        return;
    }
    int k = two_passes ? SWEEP_GPU : measured_in_order[st->at_engine];
    eng_engine *own = k != SWEEP_GPU ? scene_cpu_own(s, cpu_of[k]) : NULL;
    img_plane in;
    conv_params params;
    if (!point(s, id, st, st->at_size, &in, &params)) {
        scene_task_step(s);
        next(s, st);
        return;
    }
    if (two_passes) {
        measure_separable(s, st, &in, params);
        img_plane_free(&in);
        next(s, st);
        return;
    }
    if (own) {
        bool given = scene_worker_submit(s, id, own, &in, &params, SWEEP_BUDGET_MS, 0);
        img_plane_free(&in);
        if (given) {
            st->job_size = st->at_size;
            st->job_engine = k;
            next(s, st);
        }
        return;
    }
    measure_here(s, st, k, &in, params);
    img_plane_free(&in);
    next(s, st);
}

static void took_of(scene *s, scene_feature_id id, const worker_result *r)
{
    sweep_state *st = state_of(s, id);
    if (!scene_task_is(s, id))
        return;
    if (r->ok)
        took_at(st, st->job_engine, st->job_size, &r->timing);
    scene_task_step(s);
}

static void slice(scene *s, double budget_ms)
{
    (void)budget_ms;
    slice_of(s, SCENE_FEATURE_SWEEP);
}

static void filter_slice(scene *s, double budget_ms)
{
    (void)budget_ms;
    slice_of(s, SCENE_FEATURE_FILTER_SWEEP);
}

static void took(scene *s, const worker_result *r)
{
    took_of(s, SCENE_FEATURE_SWEEP, r);
}

static void filter_took(scene *s, const worker_result *r)
{
    took_of(s, SCENE_FEATURE_FILTER_SWEEP, r);
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

static void filter_state(const scene *s, FILE *f)
{
    const sweep_state *st = &s->filter_sweep;
    fprintf(f, "filter_sweep_shown=%d\nfilter_sweep_sides=%d\n", s->area == SCENE_AREA_FILTER_SWEEP, st->count);
    for (int k = 0; k < ENGINES; ++k)
        if (st->roofs_ok[k])
            fprintf(f, "filter_sweep_roofs_%d=%.4g GB/s, %.4g GFLOP/s\n", k, st->roofs[k].memory_gb_s,
                    st->roofs[k].compute_gflops);
}

const scene_feature scene_sweep_feature = {
    .name = "sweep",
    .slice = slice,
    .took = took,
    .cancel = cancel,
    .state = state,
};

const scene_feature scene_filter_sweep_feature = {
    .name = "filter sweep",
    .slice = filter_slice,
    .took = filter_took,
    .cancel = cancel,
    .state = filter_state,
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

void scene_filter_sweep_growth(const scene *s, char *buf, size_t size)
{
    static const int order[ENGINES] = {SWEEP_SEQ, SWEEP_SIMD, SWEEP_PAR, SWEEP_GPU};
    const sweep_state *st = &s->filter_sweep;
    int first = 0, last = st->count - 1, k0, k1;
    size_t n;
    if (st->count < 2) {
        snprintf(buf, size, "%s", _("(no filter sweep yet: press Shift+W)"));
        return;
    }
    k0 = st->size[first], k1 = st->size[last];
    n = (size_t)snprintf(buf, size, _("from %d\xC3\x97%d to %d\xC3\x97%d, %.0f\xC3\x97 the products:"), k0, k0, k1, k1,
                         (double)(k1 * k1) / (k0 * k0));
    for (int r = 0, said = 0; r < ENGINES && n < size; ++r) {
        int k = order[r];
        const char *name = k == SWEEP_SEQ    ? "cpu-seq"
                           : k == SWEEP_SIMD ? "cpu-simd"
                           : k == SWEEP_PAR  ? "cpu-par"
                                             : scene_engine_label(&s->gpu.eng);
        if (!(st->ms[k][first] > 0 && st->ms[k][last] > 0))
            continue;
        n += (size_t)snprintf(buf + n, size - n, said ? _(", %s %.1f\xC3\x97") : _(" %s took %.1f\xC3\x97 as long"),
                              name, st->ms[k][last] / st->ms[k][first]);
        ++said;
    }
    if (n < size && st->sep_ms[first] > 0 && st->sep_ms[last] > 0)
        snprintf(buf + n, size - n, _("; the two passes %.1f\xC3\x97"), st->sep_ms[last] / st->sep_ms[first]);
}

/* Engine k's move on the roofline, after `lead` (", " or ""); 0 when it
 * has no two points and roofs. */
static size_t roofline_move(const scene *s, int k, const char *lead, char *buf, size_t size)
{
    const sweep_state *st = &s->filter_sweep;
    double i0, g0, i1, g1;
    int a = st->size[0], b = st->size[st->count - 1];
    if (!st->roofs_ok[k] || !scene_filter_sweep_point(s, k, 0, &i0, &g0) ||
        !scene_filter_sweep_point(s, k, st->count - 1, &i1, &g1))
        return 0;
    return (size_t)snprintf(buf, size,
                            _("%s%s went from %.3g operations a byte at %d\xC3\x97%d to %.3g at %d\xC3\x97%d and from "
                              "%.3g to %.3g GFLOP/s, under roofs of %.3g GB/s and %.3g GFLOP/s (the ridge at %.3g "
                              "operations a byte)"),
                            lead, k == SWEEP_PAR ? "cpu-par" : scene_engine_label(&s->gpu.eng), i0, a, a, i1, b, b, g0, g1, st->roofs[k].memory_gb_s,
                            st->roofs[k].compute_gflops, st->roofs[k].compute_gflops / st->roofs[k].memory_gb_s);
}

void scene_filter_sweep_roofline(const scene *s, char *buf, size_t size)
{
    size_t n;
    if (s->filter_sweep.count < 2) {
        snprintf(buf, size, "%s", _("(no filter sweep yet: press Shift+W)"));
        return;
    }
    n = roofline_move(s, SWEEP_PAR, "", buf, size);
    if (n < size)
        n += roofline_move(s, SWEEP_GPU, n ? _("; ") : "", buf + n, size - n);
    if (n == 0)
        snprintf(buf, size, "%s", _("(the roofs are still being measured)"));
}

void scene_filter_sweep_separable(const scene *s, char *buf, size_t size)
{
    const sweep_state *st = &s->filter_sweep;
    int i = st->count - 1, k;
    char two[32], seq[32], differ[32], total[32], how[160];
    filt_kernel f;
    if (i < 0 || !(st->sep_ms[i] > 0)) {
        snprintf(buf, size, "%s", _("(no filter sweep yet: press Shift+W)"));
        return;
    }
    k = st->size[i];
    if (!filt_of_size(&st->kind, k, &f))
        f.kw = f.kh = k;
    fmt_ms(st->sep_ms[i], two, sizeof two);
    if (st->ms[SWEEP_SIMD][i] > 0)
        fmt_ms(st->ms[SWEEP_SIMD][i], seq, sizeof seq);
    else
        snprintf(seq, sizeof seq, "%s", _("(not measured yet)"));
    fmt_count(st->sep_differ[i], differ, sizeof differ), fmt_count(st->sep_total[i], total, sizeof total);
    if (st->sep_differ[i] == 0)
        snprintf(how, sizeof how, _("every one of its %s outputs has the 2-D result's bits"), total);
    else if (st->sep_max_ulp[i] == SEP_ULP_NAN)
        snprintf(how, sizeof how, _("%s of %s outputs differ from the 2-D result, a NaN against a number among them"),
                 differ, total);
    else
        snprintf(how, sizeof how, _("%s of %s outputs differ from the 2-D result, by %llu ULPs at most"), differ, total,
                 st->sep_max_ulp[i]);
    snprintf(buf, size,
             _("at %d\xC3\x97%d, %d taps an output against %d: the two passes on one thread took %s, cpu-simd (one "
               "thread, the same vector lanes, the whole window) %s; %s"),
             f.kw, f.kh, f.kw + f.kh, f.kw * f.kh, two, seq, how);
}
