/* measure.c - the CPU engines and their figures (measure.h): the only
 * writer of scene.cpu and scene.measure. After a change each engine is
 * measured again, one a slice, on the measuring thread when there is one
 * (its figure comes back through `took`), else here between frames. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include "scene_feature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "i18n.h"

static const char *const names[SCENE_CPU_COUNT] = {"cpu-seq", "cpu-simd", "cpu-par"};

eng_engine *scene_cpu_own(const scene *s, scene_cpu_kind k)
{
    return s->worker ? s->measure.own[k] : NULL;
}

bool scene_cpu_owner_text(const scene *s, int x, int y, char *band_line, char *thread_line, size_t size)
{
    const scene_engine *par = &s->cpu[SCENE_CPU_PAR];
    const eng_launch *l = &par->timing.launch;
    long total = (long)s->img.luma.w * s->img.luma.h, idx = (long)y * s->img.luma.w + x;
    int band, used = par->timing.threads;
    if (!par->measured || l->bands < 1 || l->bands > ENG_MAX_BANDS || used < 1 || total < 1)
        return false;
    band = eng_band_of(total, l->bands, idx);
    snprintf(band_line, size, _("cpu-par band %d of %d: outputs %ld\xE2\x80\xA6%ld"), band + 1, l->bands,
             eng_band_first(total, l->bands, band), eng_band_first(total, l->bands, band + 1) - 1);
    snprintf(thread_line, size,
             ngettext("run by thread %d; this run used %d thread", "run by thread %d; this run used %d threads",
                      (unsigned long)used),
             l->band_thread[band] + 1, used);
    return true;
}

void scene_cores_text(const eng_cores *c, char *buf, size_t size)
{
    if (c->threads < 1)
        snprintf(buf, size, "%s", _("(not measured yet)"));
    else
        snprintf(buf, size,
                 ngettext("%d thread at once gave %.1f cores' worth of work (measured)",
                          "%d threads at once gave %.1f cores' worth of work (measured)", (unsigned long)c->threads),
                 c->threads, c->worth);
}

void scene_cores_note(const eng_cores *c, char *buf, size_t size)
{
    double others = c->threads > 1 ? (c->worth - 1.0) / (c->threads - 1) : 0.0; /* a core each, at most */
    int pct = (int)(100.0 * (others < 0 ? 0 : others) + 0.5);
    if (c->threads < 1)
        snprintf(buf, size, "%s", _("(not measured yet)"));
    else if (c->threads == 1)
        snprintf(buf, size, "%s", _("cpu-par has one thread here (one core online): it can only match cpu-simd"));
    else if (others >= SCENE_CORES_FREE && c->threads == 2)
        snprintf(buf, size, _("your second core gave %d%% of a core (measured): it was free for cpu-par"), pct);
    else if (others >= SCENE_CORES_FREE)
        snprintf(buf, size, _("your other %d cores gave %d%% of a core each (measured): they were free for cpu-par"),
                 c->threads - 1, pct);
    else if (c->threads == 2)
        snprintf(buf, size,
                 _("your second core gave %d%% of a core (measured): the machine is busy or shared, so cpu-par's "
                   "second thread could add only that much"),
                 pct);
    else
        snprintf(buf, size,
                 _("your other %d cores gave %d%% of a core each (measured): the machine is busy or shared, so "
                   "cpu-par's other threads could add only that much"),
                 c->threads - 1, pct);
}

void scene_cpu_threads_why(const scene *s, char *buf, size_t size)
{
    const eng_timing *t = &s->cpu[SCENE_CPU_PAR].timing;
    if (!s->cpu[SCENE_CPU_PAR].measured || t->threads < 1)
        snprintf(buf, size, "%s", _("(not measured yet)"));
    else if (t->launch.bands <= 1)
        snprintf(buf, size, "%s", _("the image is one band, so one thread ran it"));
    else if (t->threads < t->launch.bands && t->threads < eng_par_threads())
        snprintf(buf, size, _("the first thread had taken every one of the %d bands before another woke"),
                 t->launch.bands);
    else
        snprintf(buf, size, _("each thread took bands as it came free, %d bands in all"), t->launch.bands);
}

bool scene_noisy(const scene *s)
{
    const scene_engine *e[SCENE_CPU_COUNT + 1] = {&s->cpu[0], &s->cpu[1], &s->cpu[2], &s->gpu.eng};
    for (int i = 0; i < SCENE_CPU_COUNT + 1; ++i)
        if (e[i]->measured && e[i]->timing.reps > 2 &&
            eng_total_max(&e[i]->timing) - eng_total_min(&e[i]->timing) > 0.5 * eng_total_ms(&e[i]->timing))
            return true;
    return false;
}

/* A CPU engine's figures have come (from the measuring thread or this one). */
static void took_cpu(scene *s, scene_cpu_kind k, bool ok, const eng_timing *t, const eng_cores *check, const char *why)
{
    scene_engine *e = &s->cpu[k];
    double load[1];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    e->measured = ok;
    if (ok) {
        e->timing = *t;
        e->why[0] = '\0';
    } else if (why != e->why) {
        snprintf(e->why, sizeof e->why, "%s", why);
    }
    if (k == SCENE_CPU_PAR && ok)
        s->measure.bands = t->launch.bands;
    if (check && check->threads > 0)
        s->measure.cores_check = *check;
    s->measure.load = getloadavg(load, 1) == 1 ? load[0] : -1.0;
    s->measure.cores = cores > 0 ? (int)cores : 1;
    scene_touch(s);
}

/* Measures CPU engine k on the image shown: on the measuring thread when
 * there is one (the figure comes later), else here, into a scratch plane
 * (the walk's own output shows only what the walk has done). */
static void measure_cpu(scene *s, scene_cpu_kind k)
{
    img_plane scratch;
    eng_job job;
    eng_cores check;
    eng_engine *own = scene_cpu_own(s, k);
    if (own) {
        if (!scene_worker_submit(s, SCENE_FEATURE_MEASURE, own, &s->img.luma, NULL, TIMING_BUDGET_MS, (int)k))
            s->measure.stale[k] = true; /* not given: again at the next slice */
        return;
    }
    if (!img_plane_alloc(&scratch, s->img.luma.w, s->img.luma.h)) {
        scene_say_error(s, err_msg());
        return;
    }
    job = (eng_job){&s->img.luma, &scratch, scene_params(s)};
    scene_engine_measure(&s->cpu[k], &job, 0, TIMING_BUDGET_MS);
    img_plane_free(&scratch);
    memset(&check, 0, sizeof check);
    if (k == SCENE_CPU_PAR && s->cpu[k].measured && s->measure.cores_check.threads == 0)
        eng_cores_check(eng_par_threads(), &check); /* once, as the worker does */
    took_cpu(s, k, s->cpu[k].measured, &s->cpu[k].timing, &check, s->cpu[k].why);
}

/* ---- its row of the feature table ------------------------------------------- */

static void init(scene *s)
{
    for (int k = 0; k < SCENE_CPU_COUNT; ++k) {
        char why[256];
        scene_open_engine(s, &s->cpu[k], names[k]);
        /* the measuring thread's own engine: a run there never shares one with this thread */
        s->measure.own[k] = s->host.open_engine(s->host.user, names[k], why, sizeof why);
    }
}

static void free_engines(scene *s)
{
    for (int k = 0; k < SCENE_CPU_COUNT; ++k) {
        eng_close(s->measure.own[k]);
        eng_close(s->cpu[k].engine);
        s->measure.own[k] = s->cpu[k].engine = NULL;
    }
}

static void changed(scene *s, scene_change what)
{
    if (!scene_change_input(what))
        return;
    for (int k = 0; k < SCENE_CPU_COUNT; ++k) {
        s->measure.stale[k] = true;
        s->cpu[k].measured = false;
    }
}

static bool due(const scene *s)
{
    for (int k = 0; k < SCENE_CPU_COUNT; ++k)
        if (s->measure.stale[k])
            return s->img.luma.px != NULL;
    return false;
}

static void slice(scene *s, double budget_ms)
{
    (void)budget_ms;
    for (int k = 0; k < SCENE_CPU_COUNT; ++k)
        if (s->measure.stale[k]) {
            s->measure.stale[k] = false;
            measure_cpu(s, (scene_cpu_kind)k);
            return;
        }
}

static void took(scene *s, const worker_result *r)
{
    if (r->tag >= 0 && r->tag < SCENE_CPU_COUNT)
        took_cpu(s, (scene_cpu_kind)r->tag, r->ok, &r->timing, &r->cores, r->why);
}

static void state(const scene *s, FILE *f)
{
    const scene_engine *seq = &s->cpu[SCENE_CPU_SEQ], *simd = &s->cpu[SCENE_CPU_SIMD], *par = &s->cpu[SCENE_CPU_PAR];
    fprintf(f, "cpu_seq_measured=%d\ncpu_par_measured=%d\ncpu_bands=%d\n", seq->measured, par->measured,
            s->measure.bands);
    fprintf(f, "cpu_simd_measured=%d\n", simd->measured);
    fprintf(f, "cpu_par_threads_used=%d\ncpu_cores_threads=%d\ncpu_cores_worth=%.2f\n",
            par->measured ? par->timing.threads : 0, s->measure.cores_check.threads, s->measure.cores_check.worth);
    fprintf(f, "cpu_seq_ms=%.4f\ncpu_simd_ms=%.4f\ncpu_par_ms=%.4f\n",
            seq->measured ? eng_total_ms(&seq->timing) : -1.0, simd->measured ? eng_total_ms(&simd->timing) : -1.0,
            par->measured ? eng_total_ms(&par->timing) : -1.0);
}

const scene_feature scene_measure_feature = {
    .name = "measure",
    .init = init,
    .free = free_engines,
    .changed = changed,
    .due = due,
    .slice = slice,
    .took = took,
    .state = state,
};
