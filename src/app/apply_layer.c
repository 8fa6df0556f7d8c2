/* apply_layer.c - `convis apply --color` (a colour image, each channel its
 * own plane through the filter) and `convis apply --layer` (a layer of
 * filters over every channel, computed one of three ways and checked
 * against the direct loop). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply_layer.h"
#include "cli.h"
#include "i18n.h"
#include "core/err.h"
#include "engine_host.h"

static const char *const channel_names[3] = {N_("red"), N_("green"), N_("blue")};

bool app_apply_colour(eng_engine *e, const layer_tensor *in, const conv_params *p, int reps, img_plane out[3],
                      eng_timing timing[3])
{
    for (int c = 0; c < in->c; ++c) {
        img_plane plane = {in->w, in->h, layer_plane(in, c)};
        eng_job job = {&plane, &out[c], *p};
        if (!eng_measure(e, &job, reps, &timing[c]))
            return false;
    }
    return true;
}

void app_print_colour(const layer_tensor *in, const eng_timing timing[3])
{
    double all = 0;
    if (in->c != 3) {
        printf(_("  colour: the image is grey, one channel (its luma, every bit of the file)\n"));
        return;
    }
    printf(_("  colour: three channels, each its own plane through the filter:"));
    for (int c = 0; c < 3; ++c) {
        printf(" %s %.3f ms%s", _(channel_names[c]), eng_total_ms(&timing[c]), c < 2 ? "," : "");
        all += eng_total_ms(&timing[c]);
    }
    printf(_("; %.3f ms in all (the 8-bit colours of the file)\n"), all);
}

/* OUT.png -> OUT-o.png */
static void output_name(const char *output, int o, char *buf, size_t size)
{
    const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
    if (!dot || (slash && dot < slash))
        dot = output + strlen(output);
    snprintf(buf, size, "%.*s-%d%s", (int)(dot - output), output, o, dot);
}

static bool write_outputs(const layer_tensor *out, const char *output, img_display d, const char *input)
{
    char name[4096];
    for (int o = 0; o < out->c; ++o) {
        img_plane plane = {out->w, out->h, layer_plane(out, o)};
        output_name(output, o, name, sizeof name);
        if (!img_write(name, &plane, d, input))
            return false;
    }
    return true;
}

/* What ran, how long, how much memory, and how it compares with the direct loop. */
static void print_layer(const app_layer_request *r, const layer_filters *f, const layer_tensor *in,
                        const layer_tensor *out, const eng_layer_timing *t, long differ, double most, long over)
{
    char first[4096], last[4096];
    double ms = eng_total_ms(&t->t), flops = layer_flops(f, out->w, out->h);
    long total = (long)out->c * out->w * out->h;
    output_name(r->output, 0, first, sizeof first);
    output_name(r->output, out->c - 1, last, sizeof last);
    printf(_("wrote %1$s ... %2$s: %3$d pictures of %4$dx%5$d, layer %6$s: %7$d channels in, %8$d filters of "
             "%9$dx%9$dx%7$d, %10$d products an output\n"),
           first, last, out->c, out->w, out->h, f->name, f->c_in, f->c_out, f->k, f->c_in * f->k * f->k);
    for (int o = 0; o < out->c; ++o)
        printf("  %d: %s\n", o, f->out_name[o]);
    printf(_("  way: %1$s, %2$s (engine %3$s)\n"), eng_layer_way_name(r->way), t->how, r->engine);
    printf(_("  time: %1$.3f ms, median of %2$d runs, by %3$s; %4$.2f GFLOP/s (counted: %5$.0f operations an "
             "output)\n"),
           ms, t->t.reps, t->t.clock ? _(t->t.clock) : "?", ms > 0 ? flops / ms / 1e6 : 0.0, flops / (double)total);
    if (t->unroll_ms > 0)
        printf(_("  of which the unrolling (im2col): %.3f ms\n"), t->unroll_ms);
    if (t->extra_bytes > 0)
        printf(_("  extra memory: the unrolled matrix, %1$.2f MB (%2$d rows of %3$ld columns of floats; the input "
                 "is %4$.2f MB)\n"),
               (double)t->extra_bytes / 1e6, f->c_in * f->k * f->k, (long)out->w * out->h,
               (double)in->c * in->w * in->h * 4 / 1e6);
    else
        printf(_("  extra memory: none (each output reads its windows where they are)\n"));
    if (differ == 0)
        printf(_("  against the direct loop on the CPU: every output its bits\n"));
    else
        printf(_("  against the direct loop on the CPU: %1$ld of %2$ld outputs differ, the largest by %3$.3g; %4$ld "
                 "past the tolerance 2(n u/(1 - n u) + u_in)·Σ|w·x| (n = %5$d additions, u = 2^-24, u_in = %6$g)\n"),
               differ, total, most, over, f->c_in * f->k * f->k + 1, t->input_u);
}

int app_apply_layer(const app_layer_request *r)
{
    img_image img;
    layer_filters f;
    layer_tensor in = {0}, out = {0}, ref = {0};
    eng_engine *e = NULL;
    eng_layer_timing t;
    int ow, oh, rc = APP_EXIT_INPUT;
    long differ, over = 0;
    double most = 0;
    if (!img_load(r->input, &r->opt->limits, &img)) {
        app_error("%s", err_msg());
        return app_exit_of_error(APP_EXIT_INPUT);
    }
    if (!layer_from_image(&img, true, &in)) {
        app_error("%s", err_msg());
        img_free(&img);
        return app_exit_of_error(APP_EXIT_INPUT);
    }
    img_free(&img);
    if (!layer_named(r->spec, in.c, &f)) {
        app_error("%s", err_msg());
        layer_tensor_free(&in);
        return APP_EXIT_INPUT;
    }
    {
        conv_params p = app_options_params(r->opt);
        eng_layer_job job = {&in, &f, p, &out, r->way, r->math, 0};
        layer_out_size(&f, &p, in.w, in.h, &ow, &oh);
        if (ow < 1 || oh < 1 || !layer_tensor_alloc(&out, f.c_out, ow, oh) ||
            !layer_tensor_alloc(&ref, f.c_out, ow, oh)) {
            app_error("%s", ow < 1 || oh < 1 ? _("With this geometry the layer has no output on this image.")
                                             : err_msg());
            rc = ow < 1 || oh < 1 ? APP_EXIT_INPUT : APP_EXIT_ENV;
            goto done;
        }
        e = app_engine_open(eng_find(r->engine));
        if (!e) {
            app_error("%s", err_msg());
            rc = APP_EXIT_ENGINE;
            goto done;
        }
        if (!eng_layer_measure(e, &job, r->reps, &t)) {
            app_error(_("engine '%1$s' did not compute the layer: %2$s"), r->engine, err_msg());
            rc = app_exit_of_error(APP_EXIT_ENGINE);
            goto done;
        }
        layer_direct(&in, &f, &p, &ref);
        differ = layer_compare(&in, &f, &p, &ref, &out, t.input_u, t.input_abs, &most, &over);
        if (!write_outputs(&out, r->output, r->opt->display, r->input)) {
            app_error("%s", err_msg());
            rc = app_exit_of_error(APP_EXIT_INPUT);
            goto done;
        }
        print_layer(r, &f, &in, &out, &t, differ, most, over);
        rc = over > 0 || (r->way != ENG_LAYER_LIBRARY && differ > 0) ? APP_EXIT_ENGINE : APP_EXIT_OK;
        if (rc != APP_EXIT_OK)
            app_error(_("engine '%s' computed a layer that is not the direct loop's"), r->engine);
    }
done:
    eng_close(e);
    app_engine_host_close();
    layer_filters_free(&f);
    layer_tensor_free(&in);
    layer_tensor_free(&out);
    layer_tensor_free(&ref);
    return rc;
}
