/* apply.c - `convis apply`: convolve an image file from the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "compute/engine.h"
#include "core/err.h"
#include "apply_layer.h"
#include "apply_separable.h"
#include "engine_host.h"

#define DEFAULT_ENGINE "cpu-par"
#define DEFAULT_REPS 5

typedef struct apply_args {
    app_options opt;
    const char *input, *output, *engine;
    bool have_kernel;
    int reps;
    eng_options eng; /* --gpu-kernel, --result */
    bool have_eng;   /* either was given */
    bool separable;  /* --separable */
    bool fft;        /* --fft */
    bool colour;     /* --color */
    const char *layer; /* --layer */
    eng_layer_way way;
    eng_layer_math math;
    const char *diff_map;
} apply_args;

/* Applies one of apply's own options; false after a message for a bad
 * value. */
static bool take_option(const app_option *o, const char *v, apply_args *a)
{
    long long n;
    switch (o->id) {
    case OPT_OUTPUT: a->output = v; return true;
    case OPT_SEPARABLE: a->separable = true; return true;
    case OPT_FFT: a->fft = true; return true;
    case OPT_COLOR: a->colour = true; return true;
    case OPT_LAYER: a->layer = v; return true;
    case OPT_WAY:
        if (!eng_layer_way_parse(v, &a->way)) {
            app_error("option '--way': %s", err_msg());
            return false;
        }
        return true;
    case OPT_MATH:
        if (!eng_layer_math_parse(v, &a->math)) {
            app_error("option '--math': %s", err_msg());
            return false;
        }
        return true;
    case OPT_DIFF_MAP: a->diff_map = v; return true;
    case OPT_ENGINE: a->engine = v; return true;
    case OPT_GPU_KERNEL:
        if (!eng_kernel_parse(v, &a->eng.kernel)) {
            app_error("option '--gpu-kernel': %s", err_msg());
            return false;
        }
        a->have_eng = true;
        return true;
    case OPT_RESULT:
        if (!eng_result_parse(v, &a->eng.result)) {
            app_error("option '--result': %s", err_msg());
            return false;
        }
        if (a->eng.result == ENG_RESULT_INTEROP) {
            app_error("option '--result': interop writes into the window's OpenGL buffer; apply needs the "
                      "result in host memory to write a file, so use bulk or per-pixel");
            return false;
        }
        a->have_eng = true;
        return true;
    case OPT_REPS:
        if (!app_parse_count(o->name, v, 1000, &n))
            return false;
        a->reps = (int)n;
        return true;
    default: return true;
    }
}

/* What apply needs once every argument is read: an input, a filter, an
 * output it can write, a known engine. Returns APP_EXIT_OK or
 * APP_EXIT_USAGE (message printed). */
static int check_args(const apply_args *a)
{
    if (!a->input) {
        app_error("apply: no input image; usage: convis apply IN -k FILTER -o OUT.png|OUT.pfm");
        return APP_EXIT_USAGE;
    }
    if (a->diff_map && !a->separable) {
        app_error("apply: --diff-map maps the separable passes' differences; add --separable");
        return APP_EXIT_USAGE;
    }
    if (a->layer && (a->have_kernel || a->colour || a->separable || a->fft)) {
        app_error("apply: --layer is a set of filters over every channel; it takes no -k, --color, --separable or "
                  "--fft");
        return APP_EXIT_USAGE;
    }
    if (a->layer && a->math != ENG_MATH_FP32 && a->way != ENG_LAYER_LIBRARY) {
        app_error("apply: --math rounds the inputs of a library's GEMM; add --way library");
        return APP_EXIT_USAGE;
    }
    if (!a->layer && (a->way != ENG_LAYER_DIRECT || a->math != ENG_MATH_FP32)) {
        app_error("apply: --way and --math say how a layer is computed; add --layer");
        return APP_EXIT_USAGE;
    }
    if (a->colour && (a->separable || a->fft)) {
        app_error("apply: --separable and --fft compare one channel; leave out --color");
        return APP_EXIT_USAGE;
    }
    if (!a->have_kernel && !a->layer) {
        app_error("apply: no filter; add -k with %s", filt_expected_form());
        return APP_EXIT_USAGE;
    }
    if (!a->output) {
        app_error("apply: no output file; add -o OUT.png (for display) or -o OUT.pfm (exact values)");
        return APP_EXIT_USAGE;
    }
    if (!img_output_name_ok(a->output)) {
        app_error("%s", err_msg());
        return APP_EXIT_USAGE;
    }
    if (!eng_find(a->engine)) {
        app_error("engine '%s' is not known; use one of %s ('convis engines' says which run here)", a->engine,
                  eng_names());
        return APP_EXIT_USAGE;
    }
    return APP_EXIT_OK;
}

/* Returns APP_EXIT_OK or APP_EXIT_USAGE (message printed). */
static int parse(int argc, char **argv, apply_args *a)
{
    app_options_default(&a->opt, "identity");
    a->input = a->output = NULL;
    a->engine = DEFAULT_ENGINE;
    a->have_kernel = false;
    a->reps = DEFAULT_REPS;
    memset(&a->eng, 0, sizeof a->eng);
    a->have_eng = false;
    a->separable = false;
    a->fft = false;
    a->colour = false;
    a->layer = NULL;
    a->way = ENG_LAYER_DIRECT;
    a->math = ENG_MATH_FP32;
    a->diff_map = NULL;

    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i], *v;
        const app_option *o;
        int kind = app_next_option(argc, argv, &i, APP_FOR_ALL | APP_FOR_APPLY, &o, &v), taken;
        if (kind < 0)
            return APP_EXIT_USAGE;
        if (kind == 0) {
            if (a->input) {
                app_error("apply: takes one input image, but '%s' came after '%s'", arg, a->input);
                return APP_EXIT_USAGE;
            }
            a->input = arg;
            continue;
        }
        if (o->id == OPT_KERNEL)
            a->have_kernel = true;
        taken = app_take_shared_option(o, v, &a->opt);
        if (taken < 0 || (!taken && !take_option(o, v, a)))
            return APP_EXIT_USAGE;
    }
    return check_args(a);
}

static void print_timing(const eng_timing *t)
{
    const char *sep = " (";
    printf(_("  time: %.3f ms"), eng_total_ms(t));
    for (int p = 0; p < ENG_PHASE_COUNT; ++p) {
        if (t->has[p]) {
            printf("%s%s %.3f", sep, _(eng_phase_name((eng_phase)p)), t->ms[p]);
            sep = ", ";
        }
    }
    printf(_("), median of %d runs after a warm-up, by %s\n"), t->reps, t->clock ? _(t->clock) : "?");
    if (t->has_kernel) /* the CUDA engine's compute phase is one launch, mostly its latency on a small image */
        printf(_("  measured apart: the kernel alone, %d back-to-back launches: %.4f ms each; one launch after idle: "
                 "%.4f ms\n"),
               t->kernel_launches, t->kernel_ms, t->kernel_one_ms);
    if (t->has[ENG_DOWNLOAD] && t->result == ENG_RESULT_PER_PIXEL) {
        if (t->extrapolated)
            printf(_("  download: one copy per pixel, measured on %lld of %lld pixels and extrapolated to all "
                     "(%.3f us a pixel)\n"),
                   t->measured_px, t->total_px, t->total_px ? 1000.0 * t->ms[ENG_DOWNLOAD] / (double)t->total_px : 0.0);
        else
            printf(_("  download: one copy per pixel, all %lld pixels measured (%.3f us a pixel)\n"), t->total_px,
                   t->total_px ? 1000.0 * t->ms[ENG_DOWNLOAD] / (double)t->total_px : 0.0);
    }
}

/* Once: the input has more levels than the output's format holds (a
 * 16-bit file written as a .png of 8-bit grey levels). */
static void print_depth_note(const apply_args *a, const img_image *img)
{
    int out_bits = img_output_bits(a->output);
    if (img->bits > out_bits)
        printf(_("  note: '%s' has %d bits a sample; the %d-bit grey levels of a .png cannot hold them all: a .pfm "
                 "output keeps every value\n"),
               a->input, img->bits, out_bits);
}

/* What was written, with what, how: the lines after the output is saved. */
static void print_result(const apply_args *a, const img_image *img, const img_plane *out, eng_engine *engine,
                         const eng_timing *timing)
{
    char kernel_text[160], geometry[96];
    filt_format(&a->opt.kernel, kernel_text, sizeof kernel_text);
    printf(_("wrote %s: %dx%d, kernel %s [%s]%s, border %s, display %s\n"), a->output, out->w, out->h,
           a->opt.kernel.name, kernel_text, a->opt.flip ? _(" flipped (true convolution)") : "",
           C_("border", conv_border_name(a->opt.border)), C_("display", img_display_name(a->opt.display)));
    app_geometry_text(&a->opt, geometry, sizeof geometry);
    if (*geometry)
        printf(_("  geometry: %s, from a %dx%d input\n"), geometry, img->luma.w, img->luma.h);
    printf(_("  engine: %s (%s)\n"), a->engine, eng_run_description(engine, timing)); /* the threads it used */
    if (a->have_eng && !eng_has_options(eng_class_of(engine)))
        printf(_("  note: engine '%s' has no GPU kernel variants or result paths; --gpu-kernel and --result "
                 "were ignored\n"),
               a->engine);
    else if (a->have_eng && a->eng.kernel != ENG_KERNEL_TILED && !eng_has_kernels(eng_class_of(engine)))
        printf(_("  note: engine '%s' has one kernel; --gpu-kernel was ignored\n"), a->engine);
    print_depth_note(a, img);
    print_timing(timing);
}

/* The image: its luma plane, or with --color its channels (one for a grey
 * image). False after a message. */
static bool load_input(const apply_args *a, img_image *img, layer_tensor *in)
{
    bool ok = a->colour ? img_load(a->input, &a->opt.limits, img) /* the colours: the channels */
                        : img_load_luma(a->input, &a->opt.limits, img); /* 4 bytes a pixel */
    if (ok && a->colour && !layer_from_image(img, true, in)) {
        img_free(img);
        ok = false;
    }
    if (!ok)
        app_error("%s", err_msg());
    return ok;
}

/* The engine asked for, with its options; NULL after a message. */
static eng_engine *open_engine(const apply_args *a)
{
    eng_engine *engine = app_engine_open(eng_find(a->engine));
    if (engine && eng_has_options(eng_class_of(engine)) && !eng_set_options(engine, &a->eng)) {
        eng_close(engine);
        engine = NULL;
    }
    if (!engine)
        app_error("%s", err_msg());
    return engine;
}

int app_apply_main(int argc, char **argv)
{
    apply_args a;
    img_image img;
    layer_tensor in = {0};
    img_plane out[3] = {{0}};
    eng_engine *engine = NULL;
    eng_timing timing[3];
    eng_job job;
    int ow, oh, channels;
    int rc;

    rc = parse(argc, argv, &a);
    if (rc != APP_EXIT_OK)
        return rc;
    if (a.layer) {
        app_layer_request r = {&a.opt, a.input, a.output, a.layer, a.engine, a.way, a.math, a.reps};
        return app_apply_layer(&r);
    }
    if (!load_input(&a, &img, &in))
        return app_exit_of_error(APP_EXIT_INPUT); /* no memory is the machine's */
    channels = a.colour ? in.c : 1;
    rc = APP_EXIT_INPUT;
    job.params = app_options_params(&a.opt);
    if (!conv_output_size(&job.params, img.luma.w, img.luma.h, &ow, &oh)) {
        app_error("%s", err_msg());
        goto free_image;
    }
    for (int c = 0; c < channels; ++c)
        if (!img_plane_alloc(&out[c], ow, oh)) {
            app_error("%s", err_msg());
            rc = APP_EXIT_ENV; /* no memory for the result */
            goto free_image;
        }
    engine = open_engine(&a);
    if (!engine) {
        rc = APP_EXIT_ENGINE;
        goto close_host;
    }
    job.in = &img.luma;
    job.out = &out[0];
    if (a.colour ? !app_apply_colour(engine, &in, &job.params, a.reps, out, timing)
                 : !eng_measure(engine, &job, a.reps, &timing[0])) {
        app_error("engine '%s' failed on '%s': %s", a.engine, a.input, err_msg());
        rc = APP_EXIT_ENGINE;
        goto close_engine;
    }
    if (!img_write_planes(a.output, out, channels, a.opt.display, a.input)) {
        app_error("%s", err_msg());
        rc = app_exit_of_error(APP_EXIT_INPUT); /* a full disk is the machine's, a bad path the user's */
        goto close_engine;
    }
    print_result(&a, &img, &out[0], engine, &timing[0]);
    if (a.colour)
        app_print_colour(&in, timing);
    if (a.separable && !app_apply_separable(&img.luma, &job.params, &out[0], a.diff_map, a.input)) {
        app_error("%s", err_msg());
        rc = app_exit_of_error(APP_EXIT_INPUT);
        goto close_engine;
    }
    if (a.fft && !app_apply_fft(&img.luma, &job.params, &out[0])) {
        app_error("%s", err_msg());
        rc = app_exit_of_error(APP_EXIT_INPUT);
        goto close_engine;
    }
    rc = APP_EXIT_OK;
close_engine:
    eng_close(engine);
close_host:
    app_engine_host_close();
free_image:
    for (int c = 0; c < 3; ++c)
        img_plane_free(&out[c]);
    layer_tensor_free(&in);
    img_free(&img);
    return rc;
}
