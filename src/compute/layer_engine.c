/* layer_engine.c - a convolution layer on any engine (engine.h): the
 * ways' names, what each engine runs, the checks before a run and the
 * median of several. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/tr.h"
#include "engines.h"

static const char *const way_names[ENG_LAYER_WAY_COUNT] = {NC_("way", "direct"), NC_("way", "im2col"),
                                                             NC_("way", "library")};
static const char *const math_names[ENG_MATH_COUNT] = {"fp32", "tf32", "fp16"};

const char *eng_layer_way_name(eng_layer_way w)
{
    return w >= 0 && w < ENG_LAYER_WAY_COUNT ? way_names[w] : "?";
}

bool eng_layer_way_parse(const char *text, eng_layer_way *out)
{
    for (int i = 0; i < ENG_LAYER_WAY_COUNT; ++i)
        if (strcmp(text, way_names[i]) == 0)
            return *out = (eng_layer_way)i, true;
    return err_set(_("'%s' is not a way of computing a layer: direct, im2col or library."), text);
}

const char *eng_layer_math_name(eng_layer_math m)
{
    return m >= 0 && m < ENG_MATH_COUNT ? math_names[m] : "?";
}

bool eng_layer_math_parse(const char *text, eng_layer_math *out)
{
    for (int i = 0; i < ENG_MATH_COUNT; ++i)
        if (strcmp(text, math_names[i]) == 0)
            return *out = (eng_layer_math)i, true;
    return err_set(_("'%s' is not a library's arithmetic: fp32, tf32 or fp16."), text);
}

bool eng_layer_runs(const eng_engine *e, eng_layer_way way, eng_layer_math math)
{
    const eng_class *cls = eng_class_of(e);
    char names[256] = "";
    size_t n = 0;
    if (math != ENG_MATH_FP32 && way != ENG_LAYER_LIBRARY)
        return err_set(_("Only the library way rounds its inputs to %s; direct and im2col compute in fp32."),
                       eng_layer_math_name(math));
    if (cls->layer && (cls->layer_ways >> way & 1u) && math != ENG_MATH_FP32 && !(cls->layer_maths >> math & 1u))
        return err_set(_("The %1$s engine's library computes in fp32 only, not %2$s (tensor cores: the cuda engine)."),
                       cls->name, eng_layer_math_name(math));
    if (cls->layer && (cls->layer_ways >> way & 1u))
        return true;
    for (size_t i = 0; i < eng_count(); ++i)
        if (eng_class_at(i)->layer && (eng_class_at(i)->layer_ways >> way & 1u) && n < sizeof names)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", eng_class_at(i)->name);
    if (way == ENG_LAYER_LIBRARY && !n)
        return err_set(_("This build has no GEMM library: it was built without OpenBLAS (Debian: libopenblas-dev) "
                         "and without CUDA."));
    return err_set(_("The %1$s engine does not compute a layer %2$s (these do: %3$s)."), cls->name,
                   C_("way", eng_layer_way_name(way)), n ? names : "-");
}

static bool sizes_agree(const eng_layer_job *job)
{
    int ow, oh;
    const layer_tensor *in = job->in, *out = job->out;
    if (in->c != job->f->c_in)
        return err_set(_("The layer '%1$s' takes %2$d channels; the image has %3$d."), job->f->name, job->f->c_in,
                       in->c);
    layer_out_size(job->f, &job->params, in->w, in->h, &ow, &oh);
    if (ow < 1 || oh < 1)
        return err_set(_("A %1$dx%1$d window with this geometry has no output on a %2$dx%3$d image."), job->f->k,
                       in->w, in->h);
    if (out->c != job->f->c_out || out->w != ow || out->h != oh)
        return err_set("layer: the output is %dx%dx%d, not %dx%dx%d", out->c, out->w, out->h, job->f->c_out, ow, oh);
    return true;
}

bool eng_layer_run(eng_engine *e, const eng_layer_job *job, eng_layer_timing *timing)
{
    long long need;
    memset(timing, 0, sizeof *timing);
    timing->t.reps = 1;
    if (!eng_layer_runs(e, job->way, job->math) || !sizes_agree(job))
        return false;
    timing->t.total_px = (long long)job->out->w * job->out->h * job->out->c;
    need = job->way == ENG_LAYER_DIRECT ? 0 : layer_im2col_bytes(job->f, job->out->w, job->out->h);
    if (job->budget_bytes > 0 && need > job->budget_bytes)
        return err_set(_("The unrolled matrix would take %1$.1f MB, more than the memory budget of %2$.1f MB: the "
                         "direct way needs none."),
                       (double)need / 1e6, (double)job->budget_bytes / 1e6);
    return eng_class_of(e)->layer(eng_state_of(e), job, timing);
}

static int by_total(const void *a, const void *b)
{
    double x = eng_total_ms(&((const eng_layer_timing *)a)->t), y = eng_total_ms(&((const eng_layer_timing *)b)->t);
    return (x > y) - (x < y);
}

bool eng_layer_measure(eng_engine *e, const eng_layer_job *job, int reps, eng_layer_timing *timing)
{
    eng_layer_timing *runs;
    reps = reps < 1 ? 1 : reps;
    runs = calloc((size_t)reps, sizeof *runs);
    if (!runs)
        return err_set_kind(ERR_ENV, _("There is no memory to measure a layer."));
    for (int i = 0; i < reps; ++i)
        if (!eng_layer_run(e, job, &runs[i])) {
            free(runs);
            return false;
        }
    qsort(runs, (size_t)reps, sizeof *runs, by_total);
    *timing = runs[reps / 2];
    timing->t.reps = reps;
    if (reps > 1) {
        timing->t.total_min = eng_total_ms(&runs[0].t);
        timing->t.total_max = eng_total_ms(&runs[reps - 1].t);
        timing->t.total_median = eng_total_ms(&runs[reps / 2].t);
    }
    free(runs);
    return true;
}
