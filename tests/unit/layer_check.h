/* layer_check.h - a convolution layer on any engine that computes layers,
 * against the direct loop on the CPU (core/layer.c): every way the engine
 * runs, on images of 1x1 to 61x47 (smaller than the window among them),
 * one and three channels, every border and four geometries; direct and
 * im2col bit for bit, a library within the tolerance of layer_tolerance
 * (with its inputs' rounding for tf32 and fp16). The figures of each run:
 * a total, the unrolled matrix's bytes. A way or arithmetic the engine
 * does not run is refused in a sentence. Include after check.h. */
#ifndef CONVIS_LAYER_CHECK_H
#define CONVIS_LAYER_CHECK_H

#include <stdio.h>
#include <string.h>

#include "compute/engine.h"
#include "core/err.h"
#include "core/layer.h"

static void layer_check_fill(layer_tensor *t, unsigned seed)
{
    for (long i = 0; i < (long)t->c * t->w * t->h; ++i) {
        seed = seed * 1664525u + 1013904223u;
        t->px[i] = (float)(seed >> 8) / (float)(1 << 24) * 255.0f;
    }
}

/* One job: false when it could not run (said); counts the outputs compared. */
static long layer_check_one(eng_engine *e, const char *label, const layer_tensor *in, const layer_filters *f,
                            const conv_params *p, eng_layer_way way, eng_layer_math math)
{
    int ow, oh;
    layer_tensor ref, got;
    eng_layer_job job;
    eng_layer_timing t;
    long differ, over = 0, n;
    double most = 0;
    layer_out_size(f, p, in->w, in->h, &ow, &oh);
    if (ow < 1 || oh < 1)
        return 0;
    layer_tensor_alloc(&ref, f->c_out, ow, oh);
    layer_tensor_alloc(&got, f->c_out, ow, oh);
    layer_direct(in, f, p, &ref);
    memset(got.px, 0x7f, (size_t)f->c_out * ow * oh * sizeof(float));
    job = (eng_layer_job){in, f, *p, &got, way, math, 0};
    n = (long)f->c_out * ow * oh;
    if (!eng_layer_run(e, &job, &t)) {
        CHECK(math != ENG_MATH_FP32 && strstr(err_msg(), "compute capability"), "%s %s %s, %s on %dx%dx%d: %s", label, eng_layer_way_name(way), eng_layer_math_name(math),
              f->name, in->c, in->w, in->h, err_msg());
        n = 0;
    } else {
        differ = layer_compare(in, f, p, &ref, &got, t.input_u, t.input_abs, &most, &over);
        if (way == ENG_LAYER_LIBRARY)
            CHECK(over == 0, "%s library %s, %s on %dx%dx%d (stride %d, dilation %d, padding %d, border %d): %ld of %ld "
                  "past the tolerance (largest difference %g)",
                  label, eng_layer_math_name(math), f->name, in->c, in->w, in->h, p->stride, p->dilation, p->padding,
                  p->border, over, n, most);
        else
            CHECK(differ == 0, "%s %s, %s on %dx%dx%d (stride %d, dilation %d, padding %d, border %d): %ld of %ld "
                  "outputs not the direct loop's bits (largest difference %g)",
                  label, eng_layer_way_name(way), f->name, in->c, in->w, in->h, p->stride, p->dilation, p->padding,
                  p->border, differ, n, most);
        CHECK(eng_total_ms(&t.t) >= 0 && t.t.clock && t.how[0], "%s %s: timed, named (%s)", label,
              eng_layer_way_name(way), t.how);
        CHECK(way == ENG_LAYER_DIRECT ? t.extra_bytes == 0 : t.extra_bytes >= layer_im2col_bytes(f, ow, oh),
              "%s %s: the unrolled matrix counted (%lld bytes)", label, eng_layer_way_name(way), t.extra_bytes);
    }
    layer_tensor_free(&ref);
    layer_tensor_free(&got);
    return n;
}

/* Every way and arithmetic the engine runs; returns the outputs compared. */
static long check_layer_on(eng_engine *e, const char *label)
{
    static const int sizes[][2] = {{1, 1}, {2, 3}, {7, 5}, {40, 30}, {61, 47}};
    static const struct {
        int s, d;
        conv_padding pad;
    } geo[] = {{1, 1, CONV_PAD_SAME}, {2, 1, CONV_PAD_SAME}, {1, 2, CONV_PAD_VALID}, {3, 1, CONV_PAD_FULL}};
    static const char *const layers[] = {"random:5", "edges", "blur"};
    long compared = 0;
    filt_kernel box;
    filt_parse("box", &box);
    for (int channels = 1; channels <= 3; channels += 2)
        for (size_t l = 0; l < sizeof layers / sizeof layers[0]; ++l) {
            layer_filters f;
            if (!layer_preset(layers[l], channels, &f))
                continue;
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
                layer_tensor in;
                layer_tensor_alloc(&in, channels, sizes[z][0], sizes[z][1]);
                layer_check_fill(&in, (unsigned)(z * 31 + l));
                for (int b = 0; b < CONV_BORDER_COUNT; ++b)
                    for (size_t g = 0; g < sizeof geo / sizeof geo[0]; ++g) {
                        conv_params p = conv_params_make(&box, (conv_border)b, false);
                        conv_params_set_geometry(&p, geo[g].s, geo[g].d, geo[g].pad);
                        if (g > 0 && b != CONV_BORDER_CLAMP && z < 3)
                            continue; /* the small images: the geometries with one border */
                        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
                            for (int m = 0; m < (w == ENG_LAYER_LIBRARY ? ENG_MATH_COUNT : 1); ++m) {
                                if (!eng_layer_runs(e, (eng_layer_way)w, (eng_layer_math)m)) {
                                    CHECK(err_msg()[0] != '\0', "%s: a way it lacks is said", label);
                                    continue;
                                }
                                compared += layer_check_one(e, label, &in, &f, &p, (eng_layer_way)w,
                                                            (eng_layer_math)m);
                            }
                    }
                layer_tensor_free(&in);
            }
            layer_filters_free(&f);
        }
    return compared;
}

#endif
