#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/timing.h"
#include "engines.h"

struct eng_engine {
    const eng_class *cls;
    void *state;
    char description[192];
};

static char shader_dir[4096];

static const eng_class *const classes[] = {
    &eng_cpu_seq_class,
    &eng_cpu_par_class,
    &eng_gl_class,
    &eng_cuda_class,
};

#define CLASS_COUNT (sizeof classes / sizeof classes[0])

size_t eng_count(void)
{
    return CLASS_COUNT;
}

const eng_class *eng_class_at(size_t i)
{
    return i < CLASS_COUNT ? classes[i] : NULL;
}

const eng_class *eng_find(const char *name)
{
    for (size_t i = 0; i < CLASS_COUNT; ++i)
        if (strcmp(classes[i]->name, name) == 0)
            return classes[i];
    return NULL;
}

const char *eng_names(void)
{
    static char names[256];
    if (!names[0]) {
        size_t used = 0;
        for (size_t i = 0; i < CLASS_COUNT && used < sizeof names; ++i)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     classes[i]->name);
    }
    return names;
}

void eng_set_shader_dir(const char *dir)
{
    snprintf(shader_dir, sizeof shader_dir, "%s", dir ? dir : "");
}

const char *eng_shader_dir(void)
{
    return shader_dir[0] ? shader_dir : NULL;
}

bool eng_probe(const eng_class *cls, char *why, size_t size)
{
    if (size)
        why[0] = '\0';
    return cls->probe ? cls->probe(why, size) : true;
}

eng_engine *eng_open(const eng_class *cls)
{
    char why[256];
    eng_engine *e;

    if (!eng_probe(cls, why, sizeof why)) {
        err_set("engine '%s' is unavailable: %s", cls->name, why);
        return NULL;
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        err_set("out of memory opening engine '%s'", cls->name);
        return NULL;
    }
    e->cls = cls;
    if (cls->open) {
        e->state = cls->open();
        if (!e->state) {
            char reason[512];
            snprintf(reason, sizeof reason, "%s", err_msg());
            err_set("engine '%s' is unavailable: %s", cls->name, reason);
            free(e);
            return NULL;
        }
    }
    if (cls->describe)
        cls->describe(e->state, e->description, sizeof e->description);
    else
        snprintf(e->description, sizeof e->description, "%s", cls->name);
    return e;
}

void eng_close(eng_engine *e)
{
    if (!e)
        return;
    if (e->cls->close)
        e->cls->close(e->state);
    free(e);
}

const eng_class *eng_class_of(const eng_engine *e)
{
    return e->cls;
}

const char *eng_description(eng_engine *e)
{
    return e->description;
}

bool eng_run(eng_engine *e, const eng_job *job, eng_timing *timing)
{
    memset(timing, 0, sizeof *timing);
    timing->reps = 1;
    if (job->in->w != job->out->w || job->in->h != job->out->h)
        return err_set("engine '%s': input %dx%d and output %dx%d differ in size", e->cls->name,
                       job->in->w, job->in->h, job->out->w, job->out->h);
    return e->cls->run(e->state, job, timing);
}

bool eng_present(eng_engine *e, const eng_job *job, unsigned gl_buffer, eng_timing *timing)
{
    memset(timing, 0, sizeof *timing);
    timing->reps = 1;
    if (!e->cls->present)
        return err_set("engine '%s' cannot compute into a GL buffer", e->cls->name);
    return e->cls->present(e->state, job, gl_buffer, timing);
}

bool eng_measure(eng_engine *e, const eng_job *job, int reps, eng_timing *timing)
{
    eng_timing one;
    double *samples;
    bool ok = true;

    if (reps < 1)
        reps = 1;
    if (!eng_run(e, job, &one)) /* warm-up: caches, page faults, lazy init */
        return false;
    samples = malloc(sizeof *samples * (size_t)reps * ENG_PHASE_COUNT);
    if (!samples)
        return err_set("out of memory for timing samples");
    *timing = one;
    for (int r = 0; r < reps && ok; ++r) {
        ok = eng_run(e, job, &one);
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            samples[p * reps + r] = one.ms[p];
    }
    if (ok) {
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            timing->ms[p] = timing->has[p] ? tim_stats_of(samples + p * reps, (size_t)reps).median : 0.0;
        timing->reps = reps;
        timing->launch = one.launch;
    }
    free(samples);
    return ok;
}

double eng_total_ms(const eng_timing *t)
{
    double sum = 0.0;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        if (t->has[p])
            sum += t->ms[p];
    return sum;
}

const char *eng_phase_name(eng_phase p)
{
    static const char *const names[ENG_PHASE_COUNT] = {"upload", "compute", "download", "present",
                                                        "overhead"};
    return (unsigned)p < ENG_PHASE_COUNT ? names[p] : "?";
}
