/* bench_layer.c - `convis bench --layer`: a layer of filters over every
 * channel, on every engine that computes layers, each of its ways (direct,
 * im2col + our GEMM, a library's GEMM) at each size, and the size from
 * which a matrix product beats the direct loop.
 *
 * Method: the image's channels (red, green, blue; one for a grey image),
 * scaled to n x n by nearest sampling as bench's squares are; at each
 * size, for each engine and way, one untimed warm-up run, then timed runs
 * until the budget is spent, three agree within 3%, or 25 have run; the
 * figures are medians. The last run's outputs are compared with the direct
 * loop's on the CPU (core/layer.c): bit for bit, and for a library within
 * the tolerance layer_tolerance states. GFLOP/s counts 2·C_in·K² + 1
 * operations an output; extra memory is the unrolled matrix, 4·C_in·K²
 * bytes an output; intensity counts the bytes each way must move at least:
 * the input and the output, and the unrolled matrix written and read. */
#include "bench_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_roofline.h"
#include "cli.h"
#include "core/err.h"
#include "core/timing.h"
#include "engine_host.h"
#include "format.h"
#include "i18n.h"
#include "record.h"

static int by_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The c planes of `src`, each scaled to n x n. */
static bool scaled_tensor(const layer_tensor *src, int n, layer_tensor *out)
{
    if (!layer_tensor_alloc(out, src->c, n, n))
        return false;
    for (int c = 0; c < src->c; ++c) {
        img_plane from = {src->w, src->h, layer_plane(src, c)}, to;
        if (!img_plane_scaled(&from, n, n, &to)) {
            layer_tensor_free(out);
            return false;
        }
        memcpy(layer_plane(out, c), to.px, (size_t)n * n * sizeof(float));
        img_plane_free(&to);
    }
    return true;
}

/* One engine, one way, one size: bench's rule of runs; the outputs against `ref`. */
static void measure_cell(layer_bench *lb, eng_engine *e, const eng_layer_job *job, const layer_tensor *ref,
                         layer_cell *c)
{
    double ms[BENCH_MAX_REPS], spent = 0;
    eng_layer_timing t;
    int n = 0;
    memset(c, 0, sizeof *c);
    if (!eng_layer_run(e, job, &t)) { /* the warm-up, or why it cannot run */
        snprintf(c->why, sizeof c->why, "%s", err_msg());
        return;
    }
    while (n < BENCH_MAX_REPS && eng_layer_run(e, job, &t)) {
        ms[n++] = eng_total_ms(&t.t);
        spent += ms[n - 1];
        c->unroll_ms = t.unroll_ms;
        if (spent + spent / n > lb->budget_ms)
            break;
        if (n >= 3) {
            double sorted[BENCH_MAX_REPS];
            memcpy(sorted, ms, sizeof(double) * (size_t)n);
            qsort(sorted, (size_t)n, sizeof(double), by_ms);
            if (sorted[n - 1] - sorted[0] <= BENCH_STEADY * sorted[n / 2])
                break;
        }
    }
    if (n == 0) {
        snprintf(c->why, sizeof c->why, "%s", err_msg());
        return;
    }
    qsort(ms, (size_t)n, sizeof(double), by_ms);
    c->ran = true;
    c->median = ms[n / 2], c->lo = ms[0], c->hi = ms[n - 1], c->reps = n;
    c->extra_bytes = t.extra_bytes;
    c->input_u = t.input_u;
    snprintf(c->how, sizeof c->how, "%s", t.how);
    c->differ = layer_compare(job->in, job->f, &job->params, ref, job->out, t.input_u, t.input_abs, &c->max_diff, &c->over);
}

static bool measure_layer(layer_bench *lb, int l, const layer_tensor *source, eng_engine **engine)
{
    layer_filters *f = &lb->layer[l];
    for (int i = 0; i < lb->size_count; ++i) {
        int n = lb->sizes[i], ow, oh;
        layer_tensor in, out, ref;
        conv_params p = app_options_params(&lb->opt);
        layer_out_size(f, &p, n, n, &ow, &oh);
        if (ow < 1 || oh < 1) {
            for (int k = 0; k < lb->engine_count; ++k)
                for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
                    snprintf(lb->cell[l][k][w][i].why, sizeof lb->cell[l][k][w][i].why, "%s",
                             _("no output at this size"));
            continue;
        }
        memset(&in, 0, sizeof in), memset(&out, 0, sizeof out), memset(&ref, 0, sizeof ref);
        if (!scaled_tensor(source, n, &in) || !layer_tensor_alloc(&out, f->c_out, ow, oh) ||
            !layer_tensor_alloc(&ref, f->c_out, ow, oh)) {
            layer_tensor_free(&in), layer_tensor_free(&out), layer_tensor_free(&ref);
            return false;
        }
        if (lb->format == BENCH_TEXT)
            fprintf(stderr, _("convis: bench: layer %1$s, %2$dx%2$d...\n"), f->name, n);
        layer_direct(&in, f, &p, &ref);
        for (int k = 0; k < lb->engine_count; ++k)
            for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w) {
                eng_layer_job job = {&in, f, p, &out, (eng_layer_way)w, w == ENG_LAYER_LIBRARY ? lb->math : 0, 0};
                layer_cell *c = &lb->cell[l][k][w][i];
                if (!engine[k])
                    snprintf(c->why, sizeof c->why, "%s", lb->unavailable[k]);
                else if (!eng_layer_runs(engine[k], (eng_layer_way)w, job.math))
                    snprintf(c->why, sizeof c->why, "%s", err_msg());
                else
                    measure_cell(lb, engine[k], &job, &ref, c);
            }
        layer_tensor_free(&in);
        layer_tensor_free(&out);
        layer_tensor_free(&ref);
    }
    return true;
}

bool bench_measure_layers(layer_bench *lb, const layer_tensor *source)
{
    eng_engine *engine[BENCH_MAX_ENGINES] = {0};
    bool ok = true;
    for (int k = 0; k < lb->engine_count; ++k) {
        char why[256] = "";
        if (!app_engine_probe(lb->cls[k], why, sizeof why) ||
            !(engine[k] = app_engine_open_reason(lb->cls[k], why, sizeof why)))
            snprintf(lb->unavailable[k], sizeof lb->unavailable[k], "%s", why[0] ? why : _("unavailable"));
        else {
            snprintf(lb->description[k], sizeof lb->description[k], "%s", eng_description(engine[k]));
            lb->roofs_ok[k] = eng_measure_roofs(engine[k], &lb->roofs[k]);
        }
    }
    for (int l = 0; l < lb->layer_count && ok; ++l)
        ok = measure_layer(lb, l, source, engine);
    for (int k = 0; k < lb->engine_count; ++k)
        eng_close(engine[k]);
    app_engine_host_close();
    return ok;
}

/* ---- the figures -------------------------------------------------------------- */

/* Operations a byte each way must move at least (float32), an output of
 * one filter: its share of the input's channels (read once for all the
 * filters) and itself, and for a matrix product its share of the matrix,
 * written once and read once. */
double bench_layer_intensity(const layer_filters *f, eng_layer_way w)
{
    double ops = 2.0 * f->c_in * f->k * f->k + 1.0, bytes = 4.0 * ((double)f->c_in / f->c_out + 1.0);
    if (w != ENG_LAYER_DIRECT)
        bytes += 2.0 * 4.0 * f->c_in * f->k * f->k / f->c_out;
    return ops / bytes;
}

/* Each engine's ways at the largest size against its roofs: the counted
 * intensity, the measured rate, the lower roof there and the share. */
static void print_roofline(const layer_bench *lb, int l)
{
    int last = lb->size_count - 1;
    for (int k = 0; k < lb->engine_count; ++k)
        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w) {
            const layer_cell *c = &lb->cell[l][k][w][last];
            double in = bench_layer_intensity(&lb->layer[l], (eng_layer_way)w), rate = bench_layer_gflops(lb, l, last, c);
            double mem, cap;
            if (!c->ran || !lb->roofs_ok[k])
                continue;
            mem = lb->roofs[k].memory_gb_s * in, cap = mem < lb->roofs[k].compute_gflops ? mem : lb->roofs[k].compute_gflops;
            printf(_("  roofline %1$s %2$s at %3$dx%3$d: %4$.2f operations a byte (counted), %5$.2f GFLOP/s (measured), "
                     "under the %6$s roof of %7$.1f GFLOP/s there (%8$.0f%%)\n"),
                   lb->label[k], eng_layer_way_name((eng_layer_way)w), lb->sizes[last], in, rate,
                   mem < lb->roofs[k].compute_gflops ? _("memory") : _("compute"), cap, cap > 0 ? 100.0 * rate / cap : 0.0);
        }
}

double bench_layer_gflops(const layer_bench *lb, int l, int i, const layer_cell *c)
{
    int ow, oh;
    conv_params p = app_options_params(&lb->opt);
    layer_out_size(&lb->layer[l], &p, lb->sizes[i], lb->sizes[i], &ow, &oh);
    return c->ran && c->median > 0 ? layer_flops(&lb->layer[l], ow, oh) / c->median / 1e6 : 0;
}

/* The smallest size from which way w beat direct on engine k at every
 * larger size measured (-1: at none); *ratio its gain at the largest. */
int bench_layer_overtakes(const layer_bench *lb, int l, int k, eng_layer_way w, double *ratio)
{
    int from = -1;
    *ratio = 0;
    for (int i = lb->size_count - 1; i >= 0; --i) {
        const layer_cell *d = &lb->cell[l][k][ENG_LAYER_DIRECT][i], *g = &lb->cell[l][k][w][i];
        eng_spread a = {g->median, g->lo, g->hi, g->reps}, b = {d->median, d->lo, d->hi, d->reps};
        if (!d->ran || !g->ran || eng_verdict_of(a, b).kind != ENG_FASTER)
            break;
        from = i;
        if (i == lb->size_count - 1)
            *ratio = d->median / g->median;
    }
    return from;
}

static void print_cell(const layer_bench *lb, int l, int i, const layer_cell *c)
{
    if (!c->ran) {
        printf(" %28s", "-");
        return;
    }
    printf(" %9.3f ms %6.2f GF/s %5.1f MB", c->median, bench_layer_gflops(lb, l, i, c), (double)c->extra_bytes / 1e6);
}

static void print_checks(const layer_bench *lb, int l)
{
    for (int k = 0; k < lb->engine_count; ++k)
        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w) {
            long differ = 0, over = 0, runs = 0;
            double most = 0;
            for (int i = 0; i < lb->size_count; ++i) {
                const layer_cell *c = &lb->cell[l][k][w][i];
                if (!c->ran)
                    continue;
                ++runs, differ += c->differ, over += c->over;
                most = c->max_diff > most ? c->max_diff : most;
            }
            if (!runs)
                continue;
            if (differ == 0)
                printf(_("  %1$s %2$s: the direct loop's bits at every size\n"), lb->label[k],
                       eng_layer_way_name((eng_layer_way)w));
            else
                printf(_("  %1$s %2$s: %3$ld outputs not the direct loop's bits, the largest difference %4$.3g; "
                         "%5$ld past the tolerance\n"),
                       lb->label[k], eng_layer_way_name((eng_layer_way)w), differ, most, over);
        }
}

static void print_overtakes(const layer_bench *lb, int l)
{
    int last = lb->size_count - 1;
    for (int k = 0; k < lb->engine_count; ++k)
        for (int w = ENG_LAYER_IM2COL; w < ENG_LAYER_WAY_COUNT; ++w) {
            const layer_cell *d = &lb->cell[l][k][ENG_LAYER_DIRECT][last], *g = &lb->cell[l][k][w][last];
            eng_spread a = {g->median, g->lo, g->hi, g->reps}, b = {d->median, d->lo, d->hi, d->reps};
            eng_verdict v;
            double ratio;
            char words[200];
            int from = bench_layer_overtakes(lb, l, k, (eng_layer_way)w, &ratio);
            if (!g->ran || !d->ran)
                continue;
            if (from >= 0) {
                printf(_("  %1$s: %2$s beats direct from %3$dx%3$d on (%4$.2f× at %5$dx%5$d)\n"), lb->label[k],
                       eng_layer_way_name((eng_layer_way)w), lb->sizes[from], ratio, lb->sizes[last]);
                continue;
            }
            v = eng_verdict_of(a, b);
            fmt_verdict(FMT_SENTENCE, eng_layer_way_name((eng_layer_way)w), _("direct"), &v, words, sizeof words);
            printf(_("  %1$s at %2$dx%2$d: %3$s\n"), lb->label[k], lb->sizes[last], words);
        }
}

void bench_print_layers(const layer_bench *lb)
{
    printf(_("convis bench --layer: a layer of filters over every channel, three ways; medians, one run after a "
             "warm-up at least (method: README, 'Performance')\n"));
    printf(_("image: %1$s (%2$d %3$s), border %4$s\n"), lb->image, lb->channels,
           lb->channels == 3 ? _("channels: red, green, blue") : _("channel: grey"),
           C_("border", conv_border_name(lb->opt.border)));
    for (int k = 0; k < lb->engine_count; ++k) {
        printf("  %-10s %s\n", lb->label[k], lb->unavailable[k][0] ? lb->unavailable[k] : lb->description[k]);
        if (lb->roofs_ok[k])
            printf(_("             roofs (measured): memory %1$.1f GB/s, compute %2$.1f GFLOP/s (%3$s)\n"),
                   lb->roofs[k].memory_gb_s, lb->roofs[k].compute_gflops, lb->roofs[k].how);
    }
    for (int l = 0; l < lb->layer_count; ++l) {
        const layer_filters *f = &lb->layer[l];
        printf(_("\nlayer %1$s: %2$d channels in, %3$d filters of %4$dx%4$dx%2$d: %5$d operations an output; "
                 "counted intensity direct %6$.2f, matrix product %7$.2f operations a byte\n"),
               f->name, f->c_in, f->c_out, f->k, 2 * f->c_in * f->k * f->k + 1,
               bench_layer_intensity(f, ENG_LAYER_DIRECT), bench_layer_intensity(f, ENG_LAYER_IM2COL));
        printf("%-18s", "");
        for (int i = 0; i < lb->size_count; ++i)
            printf(" %28d", lb->sizes[i]);
        printf("\n");
        for (int k = 0; k < lb->engine_count; ++k)
            for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w) {
                bool any = false;
                for (int i = 0; i < lb->size_count; ++i)
                    any = any || lb->cell[l][k][w][i].ran;
                if (!any && w != ENG_LAYER_DIRECT)
                    continue; /* a way the engine lacks: said below */
                printf("%-10s %-7s", lb->label[k], eng_layer_way_name((eng_layer_way)w));
                for (int i = 0; i < lb->size_count; ++i)
                    print_cell(lb, l, i, &lb->cell[l][k][w][i]);
                printf("\n");
            }
        print_overtakes(lb, l);
        print_roofline(lb, l);
        print_checks(lb, l);
    }
    for (int k = 0; k < lb->engine_count; ++k)
        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
            if (!lb->cell[0][k][w][0].ran && lb->cell[0][k][w][0].why[0])
                printf(_("  not run: %1$s %2$s: %3$s\n"), lb->label[k], eng_layer_way_name((eng_layer_way)w),
                       lb->cell[0][k][w][0].why);
}

void bench_print_layers_csv(const layer_bench *lb)
{
    printf("layer,c_in,c_out,k,engine,way,size,ms,lo_ms,hi_ms,runs,gflops,extra_mb,unroll_ms,differ,max_diff,"
           "over_tolerance,error\n");
    for (int l = 0; l < lb->layer_count; ++l)
        for (int k = 0; k < lb->engine_count; ++k)
            for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
                for (int i = 0; i < lb->size_count; ++i) {
                    const layer_cell *c = &lb->cell[l][k][w][i];
                    const layer_filters *f = &lb->layer[l];
                    printf("%s,%d,%d,%d,%s,%s,%d,", f->name, f->c_in, f->c_out, f->k, lb->label[k],
                           eng_layer_way_name((eng_layer_way)w), lb->sizes[i]);
                    if (c->ran)
                        printf("%.4f,%.4f,%.4f,%d,%.3f,%.3f,%.4f,%ld,%.6g,%ld,\n", c->median, c->lo, c->hi, c->reps,
                               bench_layer_gflops(lb, l, i, c), (double)c->extra_bytes / 1e6, c->unroll_ms, c->differ,
                               c->max_diff, c->over);
                    else
                        printf(",,,,,,,,,,\"%s\"\n", c->why);
                }
}

void bench_print_layers_json(const layer_bench *lb)
{
    printf("{\"image\": ");
    rec_json_string(stdout, lb->image);
    printf(", \"channels\": %d, \"layers\": [", lb->channels);
    for (int l = 0; l < lb->layer_count; ++l) {
        const layer_filters *f = &lb->layer[l];
        bool first = true;
        printf("%s{\"name\": ", l ? ", " : "");
        rec_json_string(stdout, f->name);
        printf(", \"c_in\": %d, \"c_out\": %d, \"k\": %d, \"runs\": [", f->c_in, f->c_out, f->k);
        for (int k = 0; k < lb->engine_count; ++k)
            for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
                for (int i = 0; i < lb->size_count; ++i) {
                    const layer_cell *c = &lb->cell[l][k][w][i];
                    printf("%s{\"engine\": ", first ? "" : ", ");
                    first = false;
                    rec_json_string(stdout, lb->label[k]);
                    printf(", \"way\": \"%s\", \"size\": %d", eng_layer_way_name((eng_layer_way)w), lb->sizes[i]);
                    if (c->ran)
                        printf(", \"ms\": %.4f, \"runs\": %d, \"gflops\": %.3f, \"extra_mb\": %.3f, \"differ\": %ld, "
                               "\"max_diff\": %.6g, \"over_tolerance\": %ld}",
                               c->median, c->reps, bench_layer_gflops(lb, l, i, c), (double)c->extra_bytes / 1e6,
                               c->differ, c->max_diff, c->over);
                    else {
                        printf(", \"error\": ");
                        rec_json_string(stdout, c->why);
                        printf("}");
                    }
                }
        printf("]}");
    }
    printf("]}\n");
}

/* The layers of `list` (commas), each a preset or a file. */
static bool parse_layers(layer_bench *lb, const char *list)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        layer_filters *f = &lb->layer[lb->layer_count];
        if (lb->layer_count == BENCH_MAX_LAYERS)
            return err_set(_("bench: --layer takes at most %d layers"), BENCH_MAX_LAYERS);
        if (!layer_named(name, lb->channels, f))
            return false;
        ++lb->layer_count;
    }
    return lb->layer_count > 0 || err_set(_("bench: --layer names no layer"));
}

int bench_layer_main(const bench *b, const char *list, eng_layer_math math, bool sizes_given, const char *image_path)
{
    static const int default_sizes[] = {128, 256, 512, 1024};
    layer_bench *lb = calloc(1, sizeof *lb);
    img_image img;
    layer_tensor source = {0};
    int rc = APP_EXIT_OK;
    if (!lb) {
        app_error("out of memory");
        return APP_EXIT_ENV;
    }
    lb->opt = b->opt, lb->image = image_path, lb->math = math, lb->budget_ms = b->budget_ms, lb->format = b->format;
    memcpy(lb->sizes, b->sizes, sizeof lb->sizes);
    lb->size_count = b->size_count;
    if (!sizes_given) {
        lb->size_count = (int)(sizeof default_sizes / sizeof default_sizes[0]);
        memcpy(lb->sizes, default_sizes, sizeof default_sizes);
    }
    for (int k = 0; k < b->engine_count; ++k) /* each class once (bench's rows split kernels), if it computes layers */
        if (b->cls[k]->layer && (lb->engine_count == 0 || lb->cls[lb->engine_count - 1] != b->cls[k])) {
            lb->cls[lb->engine_count] = b->cls[k];
            snprintf(lb->label[lb->engine_count++], sizeof lb->label[0], "%s", b->cls[k]->name);
        }
    if (!img_load(image_path, &b->opt.limits, &img) || !layer_from_image(&img, true, &source)) {
        app_error("%s", err_msg());
        free(lb);
        return app_exit_of_error(APP_EXIT_INPUT);
    }
    img_free(&img);
    lb->channels = source.c;
    if (!parse_layers(lb, list)) {
        app_error("%s", err_msg());
        rc = APP_EXIT_USAGE;
    } else if (lb->engine_count == 0) {
        app_error("bench: none of the engines asked for computes layers (cpu-seq, cpu-par do)");
        rc = APP_EXIT_USAGE;
    } else if (!bench_measure_layers(lb, &source)) {
        app_error("%s", err_msg());
        rc = APP_EXIT_ENV;
    } else if (lb->format == BENCH_CSV) {
        bench_print_layers_csv(lb);
    } else if (lb->format == BENCH_JSON) {
        bench_print_layers_json(lb);
    } else {
        bench_print_layers(lb);
    }
    for (int l = 0; l < lb->layer_count; ++l)
        layer_filters_free(&lb->layer[l]);
    layer_tensor_free(&source);
    free(lb);
    return rc;
}
