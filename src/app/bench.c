/* bench.c - `convis bench`: every engine that runs here, at a list of
 * sizes, in one run, beside a plain copy of the same bytes.
 *
 * Method (the README's performance section says the same):
 * - the image: the sample (or the image given), scaled to n x n by nearest
 *   sampling, as the size sweep makes its squares; the filter and border as
 *   given (gaussian, clamp by default);
 * - each engine at each size: one untimed warm-up run, then timed runs until
 *   the budget is spent (--budget-ms, per engine and size), three agree
 *   within 3%, or 25 have run (eng_measure_plan); the figures are medians,
 *   the spread the fastest and slowest run, each phase its engine's clock;
 * - the copy: memcpy of the input into the output, 8 bytes a pixel moved
 *   (4 read, 4 written), timed the same way by the monotonic clock: the
 *   memory bandwidth a one-pass filter cannot beat;
 * - derived: Mpixel/s = pixels / median; GB/s = 8 bytes a pixel / median;
 *   "of copy" = the copy's median / the engine's (1.00: as fast as moving
 *   the bytes); "x cpu-seq" = cpu-seq's median / the engine's.
 * The engines run one after another on an otherwise idle program; nothing
 * else of convis runs meanwhile. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fft.h"
#include "bench_layer.h"
#include "bench_internal.h"
#include "bench_roofline.h"
#include "cli.h"
#include "compute/engine.h"
#include "core/err.h"
#include "core/image.h"
#include "core/timing.h"
#include "data.h"
#include "engine_host.h"
#include "i18n.h"
#include "settings.h"

/* ---- the command line ------------------------------------------------------------ */

/* Whole numbers from 1 to hi parted by commas, at most `most` of them (odd
 * ones only when `odd`), into n[]; false when the text is not such a list. */
static bool parse_list(const char *text, long hi, bool odd, int most, int *n, int *count)
{
    const char *p = text;
    *count = 0;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > hi || (odd && v % 2 == 0) || (*end && (*end != ',' || !end[1])) || *count == most)
            return false;
        n[(*count)++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return true;
}

static bool parse_sizes(const char *text, bench *b)
{
    if (!parse_list(text, 16384, false, BENCH_MAX_SIZES, b->sizes, &b->size_count)) {
        app_error("bench: --sizes takes up to %d sides from 1 to 16384 parted by commas, such as "
                  "256,1024,4096, not '%s'",
                  BENCH_MAX_SIZES, text);
        return false;
    }
    return b->size_count > 0 || (app_error("bench: --sizes is empty"), false);
}

static bool parse_engines(const char *text, bench *b)
{
    char names[256];
    char *save = NULL;
    snprintf(names, sizeof names, "%s", text);
    b->engine_count = 0;
    for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        const eng_class *cls = eng_find(name);
        if (!cls) {
            app_error("bench: no engine '%s'; the engines are %s", name, eng_names());
            return false;
        }
        for (int k = 0; k < b->engine_count; ++k)
            if (b->cls[k] == cls) {
                app_error("bench: --engines names '%s' twice", name);
                return false;
            }
        b->cls[b->engine_count++] = cls; /* distinct engines: at most eng_count(), two rows each at most */
    }
    return b->engine_count > 0 || (app_error("bench: --engines is empty"), false);
}

/* --ksize: odd sizes from 1 to CONV_MAX_SIDE parted by commas. */
static bool parse_ksizes(const char *text, bench *b)
{
    if (!parse_list(text, CONV_MAX_SIDE, true, BENCH_MAX_KSIZES, b->ksizes, &b->ksize_count)) {
        app_error("bench: --ksize takes up to %d odd filter sizes from 1 to %d parted by commas, such as 3,5,7,9, "
                  "not '%s'",
                  BENCH_MAX_KSIZES, CONV_MAX_SIDE, text);
        return false;
    }
    return b->ksize_count > 0 || (app_error("bench: --ksize is empty"), false);
}

/* The -k filter's kind at size k (filt_of_size); false after a message. */
static bool filter_of_size(const filt_kernel *kind, int k, filt_kernel *out)
{
    return filt_of_size(kind, k, out) || (app_error("bench: --ksize: %s", err_msg()), false);
}

/* Applies one option of the table (bench's own, or one every command
 * takes); false after a message for a bad value. */
static bool take_option(const app_option *o, const char *v, bench *b)
{
    long long n;
    switch (o->id) {
    case OPT_CSV:
    case OPT_JSON: b->format = o->id == OPT_CSV ? BENCH_CSV : BENCH_JSON; return true;
    case OPT_SIZES: b->sizes_given = true; return parse_sizes(v, b);
    case OPT_KSIZE: return parse_ksizes(v, b);
    case OPT_FFT: b->fft = true; return true;
    case OPT_LAYER: b->layer = v; return true;
    case OPT_MATH: return eng_layer_math_parse(v, &b->math) || (app_error("option '--math': %s", err_msg()), false);
    case OPT_ENGINES: return parse_engines(v, b);
    case OPT_BUDGET_MS:
        if (!app_parse_count(o->name, v, 60000, &n))
            return false;
        b->budget_ms = (double)n;
        return true;
    default: return app_take_shared_option(o, v, &b->opt) >= 0;
    }
}

/* An engine with a choice of kernels is measured with each: a row each,
 * labelled with the kernel's name. */
static void split_kernel_rows(bench *b)
{
    const eng_class *cls[BENCH_MAX_ENGINES];
    int n = b->engine_count;
    memcpy(cls, b->cls, sizeof cls);
    b->engine_count = 0;
    for (int k = 0; k < n; ++k)
        for (int kernel = 0;
             kernel < (eng_has_kernels(cls[k]) ? ENG_KERNEL_COUNT : 1) && b->engine_count < BENCH_MAX_ENGINES;
             ++kernel) {
            int r = b->engine_count++;
            b->cls[r] = cls[k];
            b->kernel[r] = eng_has_kernels(cls[k]) ? kernel : -1;
            snprintf(b->label[r], sizeof b->label[r], "%s%s%s", cls[k]->name, b->kernel[r] >= 0 ? " " : "",
                     b->kernel[r] >= 0 ? C_("kernel", eng_kernel_name((eng_kernel)kernel)) : "");
        }
}

static int parse(int argc, char **argv, bench *b)
{
    static const int default_sizes[] = {256, 512, 1024, 2048, 4096};
    memset(b, 0, sizeof *b);
    app_options_default(&b->opt, "gaussian");
    b->budget_ms = 400;
    for (size_t i = 0; i < sizeof default_sizes / sizeof default_sizes[0]; ++i)
        b->sizes[b->size_count++] = default_sizes[i];
    for (size_t i = 0; i < eng_count(); ++i)
        b->cls[b->engine_count++] = eng_class_at(i);
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        const app_option *o;
        const char *v;
        int kind = app_next_option(argc, argv, &i, APP_FOR_ALL | APP_FOR_BENCH, &o, &v);
        if (kind < 0)
            return APP_EXIT_USAGE;
        if (kind == 1) {
            if (!take_option(o, v, b))
                return APP_EXIT_USAGE;
        } else if (!b->image) {
            b->image = a;
        } else {
            app_error("bench: takes at most one image, not '%s' too", a);
            return APP_EXIT_USAGE;
        }
    }
    for (int i = 0; i < b->size_count; ++i)
        if (b->sizes[i] > b->opt.limits.max_side || (long long)b->sizes[i] * b->sizes[i] > b->opt.limits.max_pixels) {
            app_error("bench: %dx%d is over the image limits (--max-side %d, --max-pixels %lld)", b->sizes[i],
                      b->sizes[i], b->opt.limits.max_side, (long long)b->opt.limits.max_pixels);
            return APP_EXIT_USAGE;
        }
    split_kernel_rows(b);
    return APP_EXIT_OK;
}

/* ---- measuring ------------------------------------------------------------------- */

static void fill_cell(bench_cell *c, const eng_timing *t)
{
    c->ran = true;
    c->median = eng_total_ms(t);
    c->lo = eng_total_min(t);
    c->hi = eng_total_max(t);
    c->reps = t->reps;
    c->threads = t->threads;
    for (int p = 0; p < ENG_PHASE_COUNT; ++p)
        c->phase[p] = t->has[p] ? t->ms[p] : -1.0;
}

/* The copy: memcpy, by the plan an engine gets. */
static void measure_copy(const img_plane *in, img_plane *out, double budget_ms, bench_cell *c)
{
    double samples[BENCH_MAX_REPS], started;
    size_t bytes = sizeof(float) * (size_t)in->w * (size_t)in->h;
    int n = 0;
    memcpy(out->px, in->px, bytes); /* warm-up: the pages touched */
    started = tim_now_ms();
    while (n < BENCH_MAX_REPS) {
        double t0 = tim_now_ms(), spent;
        memcpy(out->px, in->px, bytes);
        samples[n++] = tim_now_ms() - t0;
        spent = tim_now_ms() - started;
        if (spent + spent / n > budget_ms)
            break;
        if (n >= 3) {
            tim_stats st = tim_stats_of(samples, (size_t)n);
            if (st.median > 0 && st.max - st.min <= BENCH_STEADY * st.median)
                break;
        }
    }
    {
        tim_stats st = tim_stats_of(samples, (size_t)n);
        c->ran = true;
        c->median = st.median;
        c->lo = st.min;
        c->hi = st.max;
        c->reps = n;
        c->threads = 0;
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            c->phase[p] = -1.0;
    }
}

static bool measure_all(bench *b, const img_plane *source)
{
    eng_engine *engine[BENCH_MAX_ENGINES] = {0};
    eng_plan plan = {1, BENCH_MAX_REPS, b->budget_ms, BENCH_STEADY};
    for (int k = 0; k < b->engine_count; ++k) {
        char why[256] = "";
        if (!app_engine_probe(b->cls[k], why, sizeof why) ||
            !(engine[k] = app_engine_open_reason(b->cls[k], why, sizeof why))) {
            snprintf(b->unavailable[k], sizeof b->unavailable[k], "%s", why[0] ? why : _("unavailable"));
            continue;
        }
        if (b->kernel[k] >= 0) {
            eng_options o;
            memset(&o, 0, sizeof o);
            o.kernel = (eng_kernel)b->kernel[k];
            o.result = ENG_RESULT_BULK;
            if (!eng_set_options(engine[k], &o)) {
                snprintf(b->unavailable[k], sizeof b->unavailable[k], "%s", err_msg());
                eng_close(engine[k]);
                engine[k] = NULL;
                continue;
            }
        }
        snprintf(b->description[k], sizeof b->description[k], "%s", eng_description(engine[k]));
        bench_measure_roofs(b, k, engine[k]);
        if (eng_hardware_of(engine[k]) == ENG_HW_CPU && b->cores.threads == 0)
            eng_cores_check(eng_par_threads(), &b->cores); /* whether cpu-par's threads have cores of their own */
    }
    for (int i = 0; i < b->size_count; ++i) {
        int n = b->sizes[i];
        img_plane in, out;
        conv_params geo = app_options_params(&b->opt);
        int ow = conv_out_w(&geo, n), oh = conv_out_h(&geo, n); /* none: each engine's run says why */
        /* room for the image's copy (measure_copy) and for the output, whichever is larger */
        if (!img_plane_scaled(source, n, n, &in) || !img_plane_alloc(&out, ow > n ? ow : n, oh > n ? oh : n)) {
            img_plane_free(&in);
            for (int k = 0; k < b->engine_count; ++k)
                eng_close(engine[k]);
            app_engine_host_close();
            return false;
        }
        if (b->format == BENCH_TEXT)
            fprintf(stderr, _("convis: bench: %dx%d...\n"), n, n);
        measure_copy(&in, &out, b->budget_ms, &b->copy[i]);
        out.w = ow > 0 ? ow : 1, out.h = oh > 0 ? oh : 1;
        for (int k = 0; k < b->engine_count; ++k) {
            eng_job job = {&in, &out, app_options_params(&b->opt)};
            eng_timing t;
            if (!engine[k])
                continue;
            if (eng_measure_plan(engine[k], &job, 0, &plan, &t))
                fill_cell(&b->cell[k][i], &t);
            else
                snprintf(b->cell[k][i].why, sizeof b->cell[k][i].why, "%s", err_msg());
            eng_trim(engine[k]); /* a GPU engine lets go of this size's buffers */
        }
        img_plane_free(&in);
        img_plane_free(&out);
    }
    for (int k = 0; k < b->engine_count; ++k)
        eng_close(engine[k]);
    app_engine_host_close();
    return true;
}

int app_bench_main(int argc, char **argv)
{
    bench *b = malloc(sizeof *b), *runs;
    img_image img;
    int count;
    char sample[4096];
    int rc;
    if (!b) {
        app_error("out of memory");
        return APP_EXIT_ENV;
    }
    rc = parse(argc, argv, b);
    if (rc != APP_EXIT_OK)
        goto done;
    snprintf(sample, sizeof sample, "%s/assets/sample.png", app_data_dir());
    if (b->layer) {
        if (b->fft || b->ksize_count) {
            app_error("bench: --layer measures a layer's ways; it takes no --fft or --ksize");
            rc = APP_EXIT_USAGE;
        } else {
            rc = bench_layer_main(b, b->layer, b->math, b->sizes_given, b->image ? b->image : sample);
        }
        goto done;
    }
    if (!img_load_luma(b->image ? b->image : sample, &b->opt.limits, &img)) {
        app_error("%s", err_msg());
        rc = app_exit_of_error(APP_EXIT_INPUT);
        goto done;
    }
    count = b->ksize_count ? b->ksize_count : 1;
    runs = calloc((size_t)count, sizeof *runs);
    if (!runs) {
        app_error("out of memory");
        rc = APP_EXIT_ENV;
        goto free_image;
    }
    for (int r = 0; r < count && rc == APP_EXIT_OK; ++r) {
        runs[r] = *b;
        if (b->ksize_count && !filter_of_size(&b->opt.kernel, b->ksizes[r], &runs[r].opt.kernel))
            rc = APP_EXIT_USAGE;
        else if (!measure_all(&runs[r], &img.luma)) {
            app_error("%s", err_msg());
            rc = APP_EXIT_ENV; /* no memory for a size's squares */
        } else if (b->fft)
            bench_measure_fft(&runs[r], &img.luma);
    }
    if (rc == APP_EXIT_OK && b->format == BENCH_CSV)
        bench_print_csv(runs, count);
    else if (rc == APP_EXIT_OK && b->format == BENCH_JSON)
        bench_print_json(runs, count);
    else if (rc == APP_EXIT_OK)
        bench_print_text(runs, count);
    free(runs);
free_image:
    img_free(&img);
done:
    free(b);
    return rc;
}
