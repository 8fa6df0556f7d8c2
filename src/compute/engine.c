#include "engine.h"
#include "core/tr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "engines.h"

struct eng_engine {
    const eng_class *cls;
    void *state;
    eng_options options; /* in force, defaults filled in */
    char description[320];
    char run_description[320];
};

static char shader_dir[4096];

static const eng_class *const classes[] = {
    &eng_cpu_seq_class, &eng_cpu_simd_class, &eng_cpu_par_class, &eng_gl_class, &eng_cuda_class,
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
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", classes[i]->name);
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

/* Refreshes the description: after opening, after options change, and at
 * each eng_description (in the language of now). */
static void describe(eng_engine *e)
{
    if (e->cls->describe)
        e->cls->describe(e->state, e->description, sizeof e->description);
    else
        snprintf(e->description, sizeof e->description, "%s", e->cls->name);
}

eng_engine *eng_open_reason(const eng_class *cls, char *why, size_t size)
{
    eng_engine *e;

    if (!eng_probe(cls, why, size)) {
        err_set("engine '%s' is unavailable: %s", cls->name, why);
        return NULL;
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(why, size, _("out of memory"));
        err_set("out of memory opening engine '%s'", cls->name);
        return NULL;
    }
    e->cls = cls;
    e->options = eng_options_resolved(NULL);
    if (cls->open) {
        e->state = cls->open();
        if (!e->state) {
            snprintf(why, size, "%s", err_msg());
            err_set("engine '%s' is unavailable: %s", cls->name, why);
            free(e);
            return NULL;
        }
    }
    describe(e);
    return e;
}

eng_engine *eng_open(const eng_class *cls)
{
    char why[256];
    return eng_open_reason(cls, why, sizeof why);
}

void eng_close(eng_engine *e)
{
    if (!e)
        return;
    if (e->cls->close)
        e->cls->close(e->state);
    free(e);
}

void *eng_state_of(eng_engine *e)
{
    return e->state;
}

const eng_class *eng_class_of(const eng_engine *e)
{
    return e->cls;
}

const char *eng_run_description(eng_engine *e, const eng_timing *timing)
{
    if (!timing || !e->cls->describe_run)
        return eng_description(e);
    e->cls->describe_run(e->state, timing, e->run_description, sizeof e->run_description);
    return e->run_description;
}

const char *eng_description(eng_engine *e)
{
    describe(e); /* again: in the language of now */
    return e->description;
}

bool eng_runs_size(const eng_class *cls, const conv_params *p)
{
    return (cls->any_size || (p->kw == 3 && p->kh == 3)) && (cls->any_geometry || conv_plain(p));
}

/* eng_runs_size, or false with the sentence that says so, naming the
 * engines that run every size. */
static bool size_runs(const eng_engine *e, const conv_params *p)
{
    char names[256] = "";
    size_t n = 0;
    if (eng_runs_size(e->cls, p))
        return true;
    if (!e->cls->any_geometry && !conv_plain(p)) {
        for (size_t i = 0; i < eng_count(); ++i)
            if (eng_class_at(i)->any_geometry && n < sizeof names)
                n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", eng_class_at(i)->name);
        return err_set("the %s engine runs stride 1, dilation 1 and 'same' padding only; this is stride %d, dilation "
                       "%d, '%s' (these run every geometry: %s)",
                       e->cls->name, p->stride, p->dilation, conv_padding_name((conv_padding)p->padding), names);
    }
    for (size_t i = 0; i < eng_count(); ++i)
        if (eng_class_at(i)->any_size && n < sizeof names)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", eng_class_at(i)->name);
    return err_set("the %s engine runs 3\xC3\x97"
                   "3 filters; this one is %d\xC3\x97%d (these run filters of every size: "
                   "%s)",
                   e->cls->name, p->kw, p->kh, names);
}

/* The output has the size the geometry gives (when there is one to check),
 * and there is an output at all. */
static bool output_fits(const eng_engine *e, const eng_job *job, const img_plane *out)
{
    int ow, oh;
    if (!conv_output_size(&job->params, job->in->w, job->in->h, &ow, &oh))
        return false;
    if (out && (out->w != ow || out->h != oh))
        return err_set("engine '%s': a %dx%d input gives a %dx%d output here, not %dx%d", e->cls->name, job->in->w,
                       job->in->h, ow, oh, out->w, out->h);
    return true;
}

bool eng_run(eng_engine *e, const eng_job *job, eng_timing *timing)
{
    memset(timing, 0, sizeof *timing);
    timing->reps = 1;
    timing->total_px = (long long)job->out->w * job->out->h;
    if (!size_runs(e, &job->params) || !output_fits(e, job, job->out))
        return false;
    return e->cls->run(e->state, job, timing);
}

bool eng_present(eng_engine *e, const eng_job *job, unsigned gl_buffer, eng_timing *timing)
{
    memset(timing, 0, sizeof *timing);
    timing->reps = 1;
    timing->total_px = (long long)conv_out_w(&job->params, job->in->w) * conv_out_h(&job->params, job->in->h);
    if (!e->cls->present)
        return err_set("engine '%s' cannot compute into a GL buffer", e->cls->name);
    if (!size_runs(e, &job->params) || !output_fits(e, job, job->out))
        return false;
    return e->cls->present(e->state, job, gl_buffer, timing);
}

void eng_forget_buffer(eng_engine *e, unsigned gl_buffer)
{
    if (e && e->cls->forget_buffer)
        e->cls->forget_buffer(e->state, gl_buffer);
}

void eng_trim(eng_engine *e)
{
    if (e && e->cls->trim)
        e->cls->trim(e->state);
}

/* ---- options ------------------------------------------------------------- */

static const char *const kernel_names[ENG_KERNEL_COUNT] = {NC_("kernel", "tiled"), NC_("kernel", "naive")};
static const char *const result_names[ENG_RESULT_COUNT] = {"bulk", "per-pixel", "interop"};

eng_options eng_options_resolved(const eng_options *opt)
{
    eng_options o;
    if (opt)
        o = *opt;
    else
        memset(&o, 0, sizeof o);
    if (o.block_x == 0)
        o.block_x = ENG_DEFAULT_BLOCK;
    if (o.block_y == 0)
        o.block_y = ENG_DEFAULT_BLOCK;
    if (o.per_pixel_max == 0)
        o.per_pixel_max = ENG_PER_PIXEL_MAX;
    if (o.per_pixel_budget_ms == 0.0)
        o.per_pixel_budget_ms = ENG_PER_PIXEL_BUDGET_MS;
    return o;
}

bool eng_has_options(const eng_class *cls)
{
    return cls->configure != NULL;
}

bool eng_has_kernels(const eng_class *cls)
{
    return cls->kernel_choice;
}

bool eng_set_options(eng_engine *e, const eng_options *opt)
{
    eng_options o = eng_options_resolved(opt);

    if ((unsigned)o.kernel >= ENG_KERNEL_COUNT)
        return err_set("engine '%s': kernel variant %d is not one of tiled (0), naive (1)", e->cls->name,
                       (int)o.kernel);
    if ((unsigned)o.result >= ENG_RESULT_COUNT)
        return err_set("engine '%s': result path %d is not one of bulk (0), per-pixel (1), interop (2)", e->cls->name,
                       (int)o.result);
    if (o.block_x < 1 || o.block_y < 1 || o.block_x > 1024 || o.block_y > 1024)
        return err_set("engine '%s': a block of %dx%d threads; each side takes 1 to 1024", e->cls->name, o.block_x,
                       o.block_y);
    if (o.per_pixel_max < 1 || !(o.per_pixel_budget_ms > 0.0))
        return err_set("engine '%s': the per-pixel path needs a cap of at least one pixel and a time budget above "
                       "0 ms, not %lld pixels and %g ms",
                       e->cls->name, o.per_pixel_max, o.per_pixel_budget_ms);
    if (e->cls->configure && !e->cls->configure(e->state, &o))
        return false;
    e->options = o;
    describe(e);
    return true;
}

eng_options eng_options_of(const eng_engine *e)
{
    return e->options;
}

const char *eng_kernel_name(eng_kernel k)
{
    return (unsigned)k < ENG_KERNEL_COUNT ? kernel_names[k] : "?";
}

const char *eng_result_name(eng_result r)
{
    return (unsigned)r < ENG_RESULT_COUNT ? result_names[r] : "?";
}

const char *eng_present_path_name(eng_present_path p)
{
    static const char *const names[] = {"none", "native", "interop", "copy"};
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "?";
}

bool eng_kernel_parse(const char *text, eng_kernel *k)
{
    for (int i = 0; i < ENG_KERNEL_COUNT; ++i)
        if (strcmp(text, kernel_names[i]) == 0) {
            *k = (eng_kernel)i;
            return true;
        }
    return err_set("unknown kernel variant '%s'; use tiled or naive", text);
}

bool eng_result_parse(const char *text, eng_result *r)
{
    for (int i = 0; i < ENG_RESULT_COUNT; ++i)
        if (strcmp(text, result_names[i]) == 0) {
            *r = (eng_result)i;
            return true;
        }
    return err_set("unknown result path '%s'; use bulk, per-pixel or interop", text);
}

bool eng_measure_roofs(eng_engine *e, eng_roofs *out)
{
    memset(out, 0, sizeof *out);
    if (!e->cls->roofs)
        return err_set("engine '%s' has no roofs to measure", e->cls->name);
    return e->cls->roofs(e->state, out);
}

bool eng_device(eng_engine *e, eng_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->memory_total = info->memory_free = info->max_buffer = -1;
    if (!e->cls->device)
        return err_set("engine '%s' computes on the CPU and has no device to describe", e->cls->name);
    return e->cls->device(e->state, info);
}

/* ---- what the device is ---------------------------------------------------- */

/* Case-insensitive: whether `text` contains `word`. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (; *text; ++text) {
        size_t i = 0;
        while (i < n && text[i] && tolower((unsigned char)text[i]) == tolower((unsigned char)word[i]))
            ++i;
        if (i == n)
            return true;
    }
    return false;
}

eng_hardware eng_renderer_kind(const char *renderer)
{
    static const char *const software[] = {"llvmpipe",     "softpipe",           "swrast", "lavapipe", "swiftshader",
                                           "basic render", "software rasterizer"};
    static const char *const virtual_gpus[] = {"virgl",     "svga3d", "vmware", "virtualbox", "chromium",
                                               "parallels", "qxl",    "virtio", "venus"};
    if (!renderer)
        return ENG_HW_GPU;
    for (size_t i = 0; i < sizeof software / sizeof software[0]; ++i)
        if (has_word(renderer, software[i]))
            return ENG_HW_SOFTWARE;
    for (size_t i = 0; i < sizeof virtual_gpus / sizeof virtual_gpus[0]; ++i)
        if (has_word(renderer, virtual_gpus[i]))
            return ENG_HW_VIRTUAL;
    return ENG_HW_GPU;
}

eng_hardware eng_hardware_of(eng_engine *e)
{
    eng_device_info info;
    if (!e || !e->cls->device || !eng_device(e, &info))
        return ENG_HW_CPU;
    return info.hardware;
}

const char *eng_hardware_name(eng_hardware h)
{
    switch (h) {
    case ENG_HW_GPU: return "GPU";
    case ENG_HW_SOFTWARE: return "software on the CPU";
    case ENG_HW_VIRTUAL: return "virtual GPU";
    default: return "CPU";
    }
}

/* ---- timing -------------------------------------------------------------- */

/* One timed run: eng_run, or eng_present into gl_buffer when it is not 0. */
static bool run_once(eng_engine *e, const eng_job *job, unsigned gl_buffer, eng_timing *timing)
{
    return gl_buffer ? eng_present(e, job, gl_buffer, timing) : eng_run(e, job, timing);
}

/* The warm-up, then timed runs as `plan` says; each phase the median of its
 * samples. */
static bool measure(eng_engine *e, const eng_job *job, unsigned gl_buffer, const eng_plan *plan, eng_timing *timing)
{
    eng_timing one;
    double *samples, started;
    int max = plan->max_reps < 1 ? 1 : plan->max_reps, reps = 0, kernel_reps = 0, kernel_launches = 0;
    double *kernel, *kernel_one;
    bool ok = true;

    if (!run_once(e, job, gl_buffer, &one)) /* warm-up: caches, page faults, lazy init */
        return false;
    /* the phases, then the totals, then the kernel alone: per launch and one launch */
    samples = malloc(sizeof *samples * (size_t)max * (ENG_PHASE_COUNT + 3));
    if (!samples)
        return err_set("out of memory for timing samples");
    kernel = samples + (size_t)max * (ENG_PHASE_COUNT + 1);
    kernel_one = kernel + max;
    *timing = one;
    started = tim_now_ms();
    while (reps < max && ok) {
        double spent, total;
        ok = run_once(e, job, gl_buffer, &one);
        if (!ok)
            break;
        total = eng_total_ms(&one);
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            samples[p * max + reps] = one.ms[p];
        samples[ENG_PHASE_COUNT * max + reps] = total;
        if (one.has_kernel) {
            kernel[kernel_reps] = one.kernel_ms;
            kernel_one[kernel_reps++] = one.kernel_one_ms;
            kernel_launches = one.kernel_launches;
        }
        ++reps;
        if (reps < plan->min_reps)
            continue;
        spent = tim_now_ms() - started;
        if (spent + spent / reps > plan->budget_ms)
            break; /* another run would pass the budget */
        if (reps >= 3 && plan->steady > 0) {
            tim_stats t = tim_stats_of(samples + ENG_PHASE_COUNT * max, (size_t)reps);
            if (t.median > 0 && (t.max - t.min) <= plan->steady * t.median)
                break; /* the runs agree: more would not move the median */
        }
    }
    if (ok) {
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            timing->ms[p] = timing->has[p] ? tim_stats_of(samples + p * max, (size_t)reps).median : 0.0;
        timing->reps = reps;
        {
            tim_stats t = tim_stats_of(samples + ENG_PHASE_COUNT * max, (size_t)reps);
            timing->total_min = t.min;
            timing->total_max = t.max;
            timing->total_median = t.median;
        }
        timing->launch = one.launch;
        timing->threads = one.threads;
        timing->result = one.result;
        timing->extrapolated = one.extrapolated;
        timing->measured_px = one.measured_px;
        timing->total_px = one.total_px;
        timing->has_kernel = kernel_reps > 0;
        timing->kernel_launches = kernel_reps ? kernel_launches : 0;
        timing->kernel_ms = kernel_reps ? tim_stats_of(kernel, (size_t)kernel_reps).median : 0.0;
        timing->kernel_one_ms = kernel_reps ? tim_stats_of(kernel_one, (size_t)kernel_reps).median : 0.0;
    }
    free(samples);
    return ok;
}

static eng_plan fixed_reps(int reps)
{
    eng_plan p = {reps < 1 ? 1 : reps, reps < 1 ? 1 : reps, 1e300, 0.0};
    return p;
}

bool eng_measure_plan(eng_engine *e, const eng_job *job, unsigned gl_buffer, const eng_plan *plan, eng_timing *timing)
{
    return measure(e, job, gl_buffer, plan, timing);
}

bool eng_measure(eng_engine *e, const eng_job *job, int reps, eng_timing *timing)
{
    eng_plan p = fixed_reps(reps);
    return measure(e, job, 0, &p, timing);
}

bool eng_can_present(const eng_engine *e)
{
    return e && e->cls->present != NULL;
}

double eng_total_min(const eng_timing *t)
{
    return t->total_max > 0 ? t->total_min : eng_total_ms(t);
}

double eng_total_max(const eng_timing *t)
{
    return t->total_max > 0 ? t->total_max : eng_total_ms(t);
}

eng_spread eng_spread_of(const eng_timing *t)
{
    eng_spread r = {eng_total_ms(t), eng_total_min(t), eng_total_max(t), t->reps > 1 ? t->reps : 1};
    return r;
}

/* How far a run's times range, as a share of its median (0 for one run). */
static double spread_share(eng_spread s)
{
    return s.runs > 1 && s.ms > 0 && s.hi > s.lo ? (s.hi - s.lo) / s.ms : 0.0;
}

eng_verdict eng_verdict_of(eng_spread a, eng_spread b)
{
    eng_verdict v = {ENG_SAME, 1.0, a.runs < b.runs ? a.runs : b.runs};
    double fast = a.ms < b.ms ? a.ms : b.ms, slow = a.ms < b.ms ? b.ms : a.ms;
    double noise = ENG_SAME_SHARE;
    bool apart = a.hi < b.lo || a.lo > b.hi;
    if (v.runs < 1)
        v.runs = 1;
    if (!(fast > 0) || !(slow > 0))
        return v.kind = ENG_UNSURE, v;
    v.ratio = slow / fast;
    /* the steadier of the two says how much a time varies here: a gap the
     * noisier one's spread would swallow may still be every run apart */
    if (fmin(spread_share(a), spread_share(b)) > noise)
        noise = fmin(spread_share(a), spread_share(b));
    if (v.ratio < 1.0 + noise || (v.runs > 1 && !apart))
        return v; /* ENG_SAME */
    if (v.runs < ENG_FEW_RUNS && v.ratio < ENG_FEW_RUNS_GAP)
        return v.kind = ENG_UNSURE, v;
    v.kind = a.ms < b.ms ? ENG_FASTER : ENG_SLOWER;
    return v;
}

eng_verdict eng_compare_timings(const eng_timing *a, const eng_timing *b)
{
    return eng_verdict_of(eng_spread_of(a), eng_spread_of(b));
}

double eng_total_ms(const eng_timing *t)
{
    double sum = 0.0;
    if (t->total_median > 0) /* measured: the median run's total, inside its own spread */
        return t->total_median;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        if (t->has[p])
            sum += t->ms[p];
    return sum;
}

const char *eng_phase_name(eng_phase p)
{
    static const char *const names[ENG_PHASE_COUNT] = {"upload", "compute", "download", "present", "overhead"};
    return (unsigned)p < ENG_PHASE_COUNT ? names[p] : "?";
}

long eng_band_first(long total, int bands, int i)
{
    return bands > 0 ? (long)((long long)total * i / bands) : 0;
}

int eng_band_of(long total, int bands, long index)
{
    int i;
    if (bands < 1 || total < 1)
        return 0;
    i = (int)((long long)index * bands / total); /* a first guess, then exact */
    while (i > 0 && eng_band_first(total, bands, i) > index)
        --i;
    while (i + 1 < bands && eng_band_first(total, bands, i + 1) <= index)
        ++i;
    return i;
}
