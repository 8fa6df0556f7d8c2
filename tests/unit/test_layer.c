/* test_layer.c - a convolution layer (core/layer.c): im2col worked by hand
 * on small inputs, the direct loop's values by hand, the ordered GEMM the
 * direct loop's bits on every border and geometry, the presets, the text
 * form and its mistakes at line:column, and the library tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/conv.h"
#include "core/err.h"
#include "core/layer.h"
#include "compute/engine.h"
#include "layer_check.h"

static conv_params geometry(conv_border border, int stride, int dilation, conv_padding pad)
{
    filt_kernel k;
    conv_params p;
    filt_parse("box", &k);
    p = conv_params_make(&k, border, false);
    conv_params_set_geometry(&p, stride, dilation, pad);
    return p;
}

/* A c x w x h tensor of value 1 + x + w*y + 100*c (whole numbers). */
static layer_tensor counting(int c, int w, int h)
{
    layer_tensor t;
    layer_tensor_alloc(&t, c, w, h);
    for (int k = 0; k < c; ++k)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                layer_plane(&t, k)[y * w + x] = (float)(1 + x + w * y + 100 * k);
    return t;
}

static void im2col_by_hand(void)
{
    layer_filters f;
    layer_tensor in = counting(2, 3, 3);
    conv_params p = geometry(CONV_BORDER_ZERO, 1, 1, CONV_PAD_SAME);
    float col[18 * 9];
    static const float corner[9] = {0, 0, 0, 0, 1, 2, 0, 4, 5};
    layer_filters_alloc(&f, 2, 1, 3);
    CHECK(layer_im2col_bytes(&f, 3, 3) == 18 * 9 * 4, "18 rows of 9 columns of floats");
    layer_im2col(&in, &f, &p, col, 0, 9);
    for (int r = 0; r < 9; ++r) {
        CHECK(col[r * 9 + 4] == (float)(r + 1), "the centre's column, channel 0, row %d: %g", r, col[r * 9 + 4]);
        CHECK(col[(9 + r) * 9 + 4] == (float)(r + 101), "channel 1 below channel 0, row %d", r);
        CHECK(col[r * 9 + 0] == corner[r], "output (0,0)'s window with zero padding, row %d: %g", r, col[r * 9]);
    }
    /* input (1, 1) = 5 is copied into all nine columns, once each, at row 8 - q's tap */
    for (int q = 0; q < 9; ++q) {
        int copies = 0;
        for (int r = 0; r < 9; ++r)
            copies += col[r * 9 + q] == 5.0f;
        CHECK(copies == 1, "the centre pixel is in column %d once (%d)", q, copies);
        CHECK(col[(8 - q) * 9 + q] == 5.0f, "column %d reads it at tap %d", q, 8 - q);
    }
    /* clamp: the corner's window repeats the edge */
    p = geometry(CONV_BORDER_CLAMP, 1, 1, CONV_PAD_SAME);
    layer_im2col(&in, &f, &p, col, 0, 9);
    CHECK(col[0] == 1 && col[1 * 9] == 1 && col[3 * 9] == 1 && col[8 * 9] == 5, "clamp at the corner");
    /* valid padding: one column, the whole image */
    p = geometry(CONV_BORDER_ZERO, 1, 1, CONV_PAD_VALID);
    layer_im2col(&in, &f, &p, col, 0, 1);
    for (int r = 0; r < 18; ++r)
        CHECK(col[r] == (float)(r < 9 ? r + 1 : r - 9 + 101), "valid: row %d is %g", r, col[r]);
    layer_filters_free(&f);
    layer_tensor_free(&in);

    /* stride 2, valid, on 5 x 5: 2 x 2 outputs; output (1, 0) reads x 2..4 of rows 0..2 */
    in = counting(1, 5, 5);
    layer_filters_alloc(&f, 1, 1, 3);
    p = geometry(CONV_BORDER_ZERO, 2, 1, CONV_PAD_VALID);
    {
        int ow, oh;
        static const float want[9] = {3, 4, 5, 8, 9, 10, 13, 14, 15};
        layer_out_size(&f, &p, 5, 5, &ow, &oh);
        CHECK(ow == 2 && oh == 2, "stride 2 valid on 5x5: %dx%d", ow, oh);
        layer_im2col(&in, &f, &p, col, 0, 4);
        for (int r = 0; r < 9; ++r)
            CHECK(col[r * 4 + 1] == want[r], "stride 2: row %d of column 1 is %g", r, col[r * 4 + 1]);
    }
    /* dilation 2, valid, on 5 x 5: one output, taps 2 apart */
    p = geometry(CONV_BORDER_ZERO, 1, 2, CONV_PAD_VALID);
    layer_im2col(&in, &f, &p, col, 0, 1);
    CHECK(col[0] == 1 && col[1] == 3 && col[2] == 5 && col[3] == 11 && col[8] == 25, "dilation 2: %g %g %g %g %g",
          col[0], col[1], col[2], col[3], col[8]);
    layer_filters_free(&f);
    layer_tensor_free(&in);
}

static void direct_by_hand(void)
{
    layer_filters f;
    layer_tensor in, out;
    conv_params p = geometry(CONV_BORDER_CLAMP, 1, 1, CONV_PAD_SAME);
    /* a step: 0 left of x = 2, 10 from there, on three equal channels */
    layer_tensor_alloc(&in, 3, 4, 3);
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 12; ++i)
            layer_plane(&in, c)[i] = i % 4 >= 2 ? 10.0f : 0.0f;
    CHECK(layer_preset("edges", 3, &f), "edges: %s", err_msg());
    CHECK(f.c_out == 4 && f.c_in == 3 && f.k == 3, "edges is 4 filters of 3x3x3");
    layer_tensor_alloc(&out, 4, 4, 3);
    layer_direct(&in, &f, &p, &out);
    /* edge 0° at (1, 1): (10 + 2*10 + 10) a channel, three channels: 120 */
    CHECK(layer_plane(&out, 0)[4 + 1] == 120.0f, "edge 0° at the step: %g", layer_plane(&out, 0)[5]);
    CHECK(layer_plane(&out, 0)[4 + 0] == 0.0f, "edge 0° left of it: %g", layer_plane(&out, 0)[4]);
    CHECK(layer_plane(&out, 2)[4 + 1] == 0.0f, "edge 90° sees no horizontal edge: %g", layer_plane(&out, 2)[5]);
    CHECK(layer_flops(&f, 4, 3) == (2.0 * 27 + 1) * 4 * 12, "flops: 55 an output");
    layer_filters_free(&f);

    /* opponent on a grey image: every output 0; on pure red, red-green is the red */
    CHECK(!layer_preset("opponent", 1, &f), "opponent needs colour");
    CHECK(strstr(err_msg(), "colour") != NULL, "and says so: %s", err_msg());
    CHECK(layer_preset("opponent", 3, &f), "opponent: %s", err_msg());
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 12; ++i)
            layer_plane(&in, c)[i] = 85.0f;
    layer_tensor_free(&out);
    layer_tensor_alloc(&out, 3, 4, 3);
    layer_direct(&in, &f, &p, &out);
    for (int i = 0; i < 36; ++i)
        CHECK(out.px[i] == 0.0f, "opponent on a flat grey is 0 (output %d: %g)", i, out.px[i]);
    for (int i = 0; i < 12; ++i)
        layer_plane(&in, 0)[i] = 200, layer_plane(&in, 1)[i] = 0, layer_plane(&in, 2)[i] = 0;
    layer_direct(&in, &f, &p, &out);
    CHECK(layer_plane(&out, 0)[5] == 200 && layer_plane(&out, 1)[5] == -200 && layer_plane(&out, 2)[5] == -100,
          "red: red-green 200, green-red -200, blue-(red+green) -100: %g %g %g", layer_plane(&out, 0)[5],
          layer_plane(&out, 1)[5], layer_plane(&out, 2)[5]);
    layer_filters_free(&f);
    /* the bias is added last */
    layer_filters_alloc(&f, 3, 1, 1);
    f.bias[0] = 0.5f, layer_weight(&f, 0, 0)[0] = 1, layer_weight(&f, 0, 2)[0] = 2;
    layer_tensor_free(&out);
    layer_tensor_alloc(&out, 1, 4, 3);
    for (int i = 0; i < 12; ++i)
        layer_plane(&in, 2)[i] = 3;
    layer_direct(&in, &f, &p, &out);
    CHECK(out.px[7] == 206.5f, "1x1: 200 + 2*3 + 0.5 = %g", out.px[7]);
    layer_filters_free(&f);
    layer_tensor_free(&out);
    layer_tensor_free(&in);
}

static void gemm_is_direct(void)
{
    static const struct {
        int s, d;
        conv_padding pad;
    } geo[] = {{1, 1, CONV_PAD_SAME}, {2, 1, CONV_PAD_SAME}, {1, 2, CONV_PAD_VALID}, {3, 2, CONV_PAD_FULL}};
    layer_tensor in;
    layer_filters f;
    unsigned seed = 7;
    long checked = 0;
    layer_tensor_alloc(&in, 3, 23, 17);
    for (long i = 0; i < 3L * 23 * 17; ++i) {
        seed = seed * 1664525u + 1013904223u;
        in.px[i] = (float)(seed >> 8) / (float)(1 << 24) * 255.0f; /* no whole numbers: rounding shows */
    }
    layer_preset("random:5", 3, &f);
    f.bias[2] = 0.3f;
    for (int b = 0; b < CONV_BORDER_COUNT; ++b)
        for (size_t g = 0; g < sizeof geo / sizeof geo[0]; ++g) {
            conv_params p = geometry((conv_border)b, geo[g].s, geo[g].d, geo[g].pad);
            int ow, oh;
            layer_tensor ref, got;
            float *col;
            long n;
            double most;
            layer_out_size(&f, &p, in.w, in.h, &ow, &oh);
            n = (long)ow * oh;
            layer_tensor_alloc(&ref, f.c_out, ow, oh);
            layer_tensor_alloc(&got, f.c_out, ow, oh);
            col = malloc((size_t)layer_im2col_bytes(&f, ow, oh));
            layer_direct(&in, &f, &p, &ref);
            layer_im2col(&in, &f, &p, col, 0, n / 2);
            layer_im2col(&in, &f, &p, col, n / 2, n); /* in two shares, as threads take them */
            layer_gemm(&f, col, n, got.px, 0, 2, 0, n);
            layer_gemm(&f, col, n, got.px, 2, f.c_out, 0, n / 3);
            layer_gemm(&f, col, n, got.px, 2, f.c_out, n / 3, n);
            CHECK(layer_compare(&in, &f, &p, &ref, &got, 0, 0, &most, NULL) == 0,
                  "im2col + GEMM is the direct loop's bits: border %d, geometry %zu (largest difference %g)", b, g,
                  most);
            checked += n * f.c_out;
            free(col);
            layer_tensor_free(&ref);
            layer_tensor_free(&got);
        }
    CHECK(checked > 10000, "%ld outputs compared", checked);
    layer_filters_free(&f);
    layer_tensor_free(&in);
}

/* Another order of the same sums (backwards) stays within the tolerance,
 * and a wrong output does not. */
static void tolerance(void)
{
    layer_tensor in = counting(3, 9, 7), ref, back;
    layer_filters f;
    conv_params p = geometry(CONV_BORDER_MIRROR, 1, 1, CONV_PAD_SAME);
    long over = -1, differ;
    double most;
    for (long i = 0; i < 3L * 63; ++i)
        in.px[i] = in.px[i] / 7.0f;
    layer_preset("random:4", 3, &f);
    for (int i = 0; i < 4 * 27; ++i)
        f.w[i] = f.w[i] / 3.0f + 0.01f;
    layer_tensor_alloc(&ref, 4, 9, 7);
    layer_tensor_alloc(&back, 4, 9, 7);
    layer_direct(&in, &f, &p, &ref);
    for (int o = 0; o < 4; ++o)
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x) {
                float sum = 0;
                for (int c = 2; c >= 0; --c)
                    for (int t = 8; t >= 0; --t)
                        sum += layer_weight(&f, o, c)[t] *
                               conv_sample(layer_plane(&in, c), 9, 7, x + t % 3 - 1, y + t / 3 - 1, p.border);
                layer_plane(&back, o)[y * 9 + x] = sum + f.bias[o];
            }
    differ = layer_compare(&in, &f, &p, &ref, &back, 0, 0, &most, &over);
    CHECK(differ > 0, "backwards differs somewhere (%ld outputs)", differ);
    CHECK(over == 0, "but within the tolerance everywhere (%ld past it, largest %g)", over, most);
    CHECK(layer_tolerance(&in, &f, &p, 0, 4, 3, 0, 0) < 1e-3f, "the tolerance is small: %g",
          layer_tolerance(&in, &f, &p, 0, 4, 3, 0, 0));
    CHECK(layer_tolerance(&in, &f, &p, 0, 4, 3, LAYER_U_FP16, LAYER_ABS_FP16) > 100 * layer_tolerance(&in, &f, &p, 0, 4, 3, 0, 0),
          "TF32's inputs widen it");
    back.px[17] += 0.01f;
    layer_compare(&in, &f, &p, &ref, &back, 0, 0, &most, &over);
    CHECK(over == 1, "an output 0.01 off is past it (%ld)", over);
    layer_filters_free(&f);
    layer_tensor_free(&ref);
    layer_tensor_free(&back);
    layer_tensor_free(&in);
}

static void text_form(void)
{
    layer_filters f, g;
    char buf[4096];
    static const char *const wrong[][2] = {
        {"layer in 3 out 2 k 4\n", "t:1:20: a layer's K is odd"},
        {"layer in 3 out 1 k 1\nfilter bias 0\n1 2\n", "t:4:1: expected a number here, and the file ends"},
        {"layer in 1 out 1 k 1\nfilter bias 0\n1 x\n", "t:3:3: the layer has all its filters"},
        {"layer in 1 out 1 k 1\nfilter bias zero 1\n", "t:2:13: expected a number here"},
        {"layer in 65 out 1 k 1\n", "t:1:10: 'in' is a whole number from 1 to 64"},
        {"  # nothing\nlayr in 1\n", "t:2:1: expected 'layer' here"},
        {"layer in 1 out 1 k 1 filter bias 1e99 2", "t:1:34: this number is out of range"},
    };
    CHECK(layer_parse("# two filters\nlayer in 2 out 2 k 1\nfilter sum bias 0.5\n1 1\nfilter bias -1 # the second\n"
                      "1 -1\n",
                      "t", &f),
          "a layer parses: %s", err_msg());
    CHECK(f.c_in == 2 && f.c_out == 2 && f.k == 1 && f.bias[0] == 0.5f && f.bias[1] == -1, "its counts and biases");
    CHECK(strcmp(f.out_name[0], "sum") == 0 && strcmp(f.out_name[1], "1") == 0, "its names: %s %s", f.out_name[0],
          f.out_name[1]);
    CHECK(layer_weight(&f, 1, 1)[0] == -1, "its last weight");
    CHECK(layer_format(&f, buf, sizeof buf), "formats");
    CHECK(layer_parse(buf, "again", &g), "and reads back: %s", err_msg());
    CHECK(g.bias[0] == 0.5f && layer_weight(&g, 1, 1)[0] == -1 && strcmp(g.out_name[0], "sum") == 0, "the same");
    layer_filters_free(&g);
    layer_filters_free(&f);
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; ++i) {
        CHECK(!layer_parse(wrong[i][0], "t", &f), "refused: %s", wrong[i][0]);
        CHECK(strncmp(err_msg(), wrong[i][1], strlen(wrong[i][1])) == 0, "says '%s': %s", wrong[i][1], err_msg());
    }
    CHECK(!layer_preset("random:0", 3, &f) && !layer_preset("random:65", 3, &f) && !layer_preset("random:x", 3, &f),
          "random:N out of range");
    CHECK(!layer_preset("sharpen", 3, &f) && strstr(err_msg(), "edges, opponent, blur") != NULL, "unknown: %s",
          err_msg());
    CHECK(layer_preset("blur", 1, &f) && f.c_out == 1 && strcmp(f.out_name[0], "grey blur") == 0, "blur on grey");
    layer_filters_free(&f);
    CHECK(!layer_load("/nonexistent/layer.txt", &f) && strstr(err_msg(), "/nonexistent/layer.txt"), "%s", err_msg());
    CHECK(!layer_load("/tmp", &f) && strstr(err_msg(), "not a regular file"), "a directory: %s", err_msg());
    CHECK(!layer_parse("layer in 1 out 1 k 1\nfilter bias 0\n0.000000000000000000000000000000000000000000000000000000000000001e70\n",
                       "t", &f) &&
              strstr(err_msg(), "t:3:1: this word is longer than 63 characters"),
          "a number too long to read is refused, not cut: %s", err_msg());
    CHECK(!layer_parse("layer in 1 out 1 k 1\nfilter bias 0\n1e-40\n", "t", &f) && strstr(err_msg(), "t:3:1: this number is below"),
          "a subnormal weight: %s", err_msg());
    /* a preset's names have spaces: formatted as one word each, read back */
    CHECK(layer_preset("edges", 3, &f), "edges");
    CHECK(layer_format(&f, buf, sizeof buf) && layer_parse(buf, "again", &g), "edges formatted reads back: %s", err_msg());
    CHECK(g.c_out == 4 && strcmp(g.out_name[0], "edge_0°") == 0 && layer_weight(&g, 3, 2)[0] == -2,
          "the same filters: %s", g.out_name[0]);
    layer_filters_free(&g);
    layer_filters_free(&f);
    CHECK(layer_named("edges", 1, &f) && f.c_in == 1, "edges by name on one channel");
    layer_filters_free(&f);
    CHECK(!layer_named("opponent.layer", 3, &f) && strstr(err_msg(), "opponent.layer"), "a name with a dot is a file: %s",
          err_msg());
}

/* Every CPU engine's every way: direct and im2col the reference's bits,
 * the library within its tolerance; the refusals in a sentence. */
static void engines(void)
{
    static const char *const names[] = {"cpu-seq", "cpu-par"};
    layer_tensor in, ref, got;
    layer_filters f;
    conv_params p = geometry(CONV_BORDER_MIRROR, 2, 1, CONV_PAD_SAME);
    unsigned seed = 3;
    int ow, oh;
    layer_tensor_alloc(&in, 3, 61, 47);
    for (long i = 0; i < 3L * 61 * 47; ++i) {
        seed = seed * 1664525u + 1013904223u;
        in.px[i] = (float)(seed >> 8) / (float)(1 << 24) * 255.0f;
    }
    layer_preset("random:12", 3, &f);
    layer_out_size(&f, &p, 61, 47, &ow, &oh);
    layer_tensor_alloc(&ref, 12, ow, oh);
    layer_tensor_alloc(&got, 12, ow, oh);
    layer_direct(&in, &f, &p, &ref);
    for (size_t e = 0; e < 2; ++e) {
        eng_engine *eng = eng_open(eng_find(names[e]));
        CHECK(eng != NULL, "%s opens", names[e]);
        if (!eng)
            continue;
        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w) {
            eng_layer_job job = {&in, &f, p, &got, (eng_layer_way)w, ENG_MATH_FP32, 0};
            eng_layer_timing t;
            double most;
            long over = -1, differ;
            if (!eng_layer_runs(eng, (eng_layer_way)w, ENG_MATH_FP32)) {
                CHECK(w == ENG_LAYER_LIBRARY && strstr(err_msg(), "OpenBLAS"), "only the library may be missing: %s",
                      err_msg());
                continue;
            }
            memset(got.px, 0xff, (size_t)12 * ow * oh * sizeof(float));
            CHECK(eng_layer_measure(eng, &job, 3, &t), "%s %s: %s", names[e], eng_layer_way_name(job.way), err_msg());
            differ = layer_compare(&in, &f, &p, &ref, &got, t.input_u, t.input_abs, &most, &over);
            if (w == ENG_LAYER_LIBRARY)
                CHECK(over == 0, "%s library: %ld outputs past the tolerance (largest difference %g)", names[e], over,
                      most);
            else
                CHECK(differ == 0, "%s %s: the reference's bits (%ld differ)", names[e], eng_layer_way_name(job.way),
                      differ);
            CHECK(t.t.reps == 3 && eng_total_ms(&t.t) > 0 && t.how[0], "%s %s: timed (%s)", names[e],
                  eng_layer_way_name(job.way), t.how);
            CHECK((w == ENG_LAYER_DIRECT) == (t.extra_bytes == 0), "%s %s: extra memory %lld", names[e],
                  eng_layer_way_name(job.way), t.extra_bytes);
            CHECK(w == ENG_LAYER_DIRECT || t.extra_bytes == 27LL * 4 * ow * oh, "the unrolled matrix's bytes");
            job.budget_bytes = 1000;
            CHECK(w == ENG_LAYER_DIRECT ? eng_layer_run(eng, &job, &t)
                                        : !eng_layer_run(eng, &job, &t) && strstr(err_msg(), "budget"),
                  "%s %s under a budget of 1000 bytes: %s", names[e], eng_layer_way_name(job.way), err_msg());
        }
        printf("%s: %ld layer outputs of every way, border and geometry compared\n", names[e],
               check_layer_on(eng, names[e]));
        {
            eng_layer_job job = {&ref, &f, p, &got, ENG_LAYER_DIRECT, ENG_MATH_FP32, 0};
            eng_layer_timing t;
            CHECK(!eng_layer_run(eng, &job, &t) && strstr(err_msg(), "takes 3 channels; the image has 12"), "%s",
                  err_msg());
            job.in = &in, job.math = ENG_MATH_TF32;
            CHECK(!eng_layer_run(eng, &job, &t) && strstr(err_msg(), "fp32"), "tf32 is the library's: %s", err_msg());
            job.way = ENG_LAYER_LIBRARY;
            CHECK(!eng_layer_run(eng, &job, &t) &&
                      (strstr(err_msg(), "fp32 only, not tf32") || strstr(err_msg(), "does not compute a layer library")),
                  "and not the CPU's: %s", err_msg());
        }
        eng_close(eng);
    }
    layer_filters_free(&f);
    layer_tensor_free(&in);
    layer_tensor_free(&ref);
    layer_tensor_free(&got);
}

int main(void)
{
    engines();
    im2col_by_hand();
    direct_by_hand();
    gemm_is_direct();
    tolerance();
    text_form();
    return CHECK_SUMMARY();
}
