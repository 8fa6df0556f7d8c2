/* channels.c - the channels view's feature (channels.h): the only writer
 * of scene.channels. The layer, the image's channels, the direct loop's
 * outputs and the piece's unrolled matrix are made whenever the settings or
 * the image change; the three ways on each engine are measured as a task,
 * one cell a slice, on this thread (the image is at most CHAN_SIDE a side). */
#include "scene_feature.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "format.h"
#include "i18n.h"

#define CHAN_BUDGET_MS 40.0 /* time spent measuring one cell */
#define CHAN_MOST_RUNS 9

static const char *const engine_names[CHAN_ENGINES] = {"cpu-seq", "cpu-par", "GPU"};
static const char *const preset_names[CHAN_LAYERS] = {N_("colour"), N_("edges"), N_("opponent"), N_("blur")};
static const char *const colour_names[3] = {N_("red"), N_("green"), N_("blue")};

const char *scene_channels_engine(const scene *s, int k)
{
    return k == CHAN_ENGINES - 1 && s->gpu.eng.engine ? scene_engine_label(&s->gpu.eng) : engine_names[k];
}

/* The scene's filter on each channel alone: c filters, filter o reading
 * channel o, its weights divided by the divisor. */
static bool colour_layer(const scene *s, int c, layer_filters *f)
{
    conv_params p = scene_params(s);
    if (p.kw != p.kh || p.kw > LAYER_MAX_K)
        return err_set(_("The colour layer takes a square filter of at most %1$d\xC3\x97%1$d; this one is "
                         "%2$d\xC3\x97%3$d."),
                       LAYER_MAX_K, p.kw, p.kh);
    if (!layer_filters_alloc(f, c, c, p.kw))
        return false;
    for (int o = 0; o < c; ++o) {
        for (int t = 0; t < p.kw * p.kh; ++t)
            layer_weight(f, o, o)[t] = p.weight[t] / p.divisor;
        snprintf(f->out_name[o], sizeof f->out_name[o], "%s", c == 3 ? colour_names[o] : N_("grey"));
    }
    snprintf(f->name, sizeof f->name, "colour");
    return true;
}

/* The piece's outputs' windows, unrolled: row c*K*K + t, column j*CHAN_PIECE + i. */
static void unroll_piece(channels_state *g, const conv_params *q)
{
    int k = g->f.k, half = k / 2;
    g->col_rows = g->f.c_in * k * k;
    for (int r = 0; r < g->col_rows; ++r)
        for (int col = 0; col < CHAN_COL_COLS; ++col) {
            int c = r / (k * k), t = r % (k * k);
            int x = g->px + half + col % CHAN_PIECE + t % k - half, y = g->py + half + col / CHAN_PIECE + t / k - half;
            g->col[r * CHAN_COL_COLS + col] = conv_sample(layer_plane(&g->in, c), g->in.w, g->in.h, x, y, q->border);
        }
}

static void clear_figures(channels_state *g)
{
    for (int k = 0; k < CHAN_ENGINES; ++k)
        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
            g->ms[k][w] = -1, g->reps[k][w] = 0, g->extra[k][w] = 0, g->differ[k][w] = g->over[k][w] = -1,
            g->max_diff[k][w] = 0, g->cell_why[k][w][0] = '\0';
    g->next = 0;
    g->stale = true;
}

/* The piece where the first filter answers most (an edge, for the edge
 * filters), its windows inside the image where the image is large enough. */
static void place_piece(channels_state *g)
{
    int n = CHAN_PIECE + g->f.k - 1, best_x = (g->in.w - n) / 2, best_y = (g->in.h - n) / 2;
    float most = -1;
    const float *o0 = layer_plane(&g->out, 0);
    for (int y = n / 2; y + n / 2 < g->out.h; ++y)
        for (int x = n / 2; x + n / 2 < g->out.w; ++x)
            if (fabsf(o0[(long)y * g->out.w + x]) > most)
                most = fabsf(o0[(long)y * g->out.w + x]), best_x = x - n / 2, best_y = y - n / 2;
    g->px = best_x < 0 ? 0 : best_x;
    g->py = best_y < 0 ? 0 : best_y;
}

/* Nothing made: the view's data let go, its figures cleared. */
static void release(channels_state *g)
{
    layer_tensor_free(&g->in);
    layer_tensor_free(&g->out);
    layer_filters_free(&g->f);
    g->why[0] = '\0';
    ++g->made;
    clear_figures(g);
}

/* The image's channels scaled down, the layer for them, its outputs. */
static void refresh(scene *s)
{
    channels_state *g = &s->channels;
    layer_tensor full = {0};
    conv_params q;
    int ow, oh;
    release(g);
    if (!s->img.luma.px || !layer_from_image(&s->img, true, &full))
        return;
    {
        int n = full.w > full.h ? full.w : full.h, w = full.w, h = full.h;
        if (n > CHAN_SIDE)
            w = (int)((long)full.w * CHAN_SIDE / n), h = (int)((long)full.h * CHAN_SIDE / n);
        w = w < 1 ? 1 : w, h = h < 1 ? 1 : h;
        if (layer_tensor_alloc(&g->in, full.c, w, h))
            for (int c = 0; c < full.c; ++c) {
                img_plane from = {full.w, full.h, layer_plane(&full, c)}, to;
                if (img_plane_scaled(&from, w, h, &to)) {
                    memcpy(layer_plane(&g->in, c), to.px, (size_t)w * h * sizeof(float));
                    img_plane_free(&to);
                }
            }
    }
    layer_tensor_free(&full);
    if (!g->in.px)
        return;
    if (!(g->layer == 0 ? colour_layer(s, g->in.c, &g->f) : layer_preset(preset_names[g->layer], g->in.c, &g->f))) {
        snprintf(g->why, sizeof g->why, "%s", err_msg());
        return;
    }
    q = scene_params(s);
    conv_params_set_geometry(&q, 1, 1, CONV_PAD_SAME); /* the plain geometry, as the grids */
    layer_out_size(&g->f, &q, g->in.w, g->in.h, &ow, &oh);
    if (!layer_tensor_alloc(&g->out, g->f.c_out, ow, oh)) {
        layer_filters_free(&g->f);
        snprintf(g->why, sizeof g->why, "%s", err_msg());
        return;
    }
    layer_direct(&g->in, &g->f, &q, &g->out);
    place_piece(g);
    g->pick_x = g->pick_y = (CHAN_PIECE + g->f.k - 1) / 2;
    unroll_piece(g, &q);
}

static void show(scene *s)
{
    if (scene_task_is(s, SCENE_FEATURE_CHANNELS))
        scene_task_end(s); /* its figures are for the layer before */
    refresh(s);
    scene_show(s, SCENE_AREA_CHANNELS);
    scene_touch(s);
}

void scene_next_layer(scene *s)
{
    if (s->area == SCENE_AREA_CHANNELS)
        s->channels.layer = (s->channels.layer + 1) % CHAN_LAYERS;
    show(s);
}

void scene_channel_pick(scene *s, int x, int y)
{
    channels_state *g = &s->channels;
    int n = CHAN_PIECE + (g->f.w ? g->f.k : 3) - 1;
    g->pick_x = x < 0 ? 0 : x >= n ? n - 1 : x;
    g->pick_y = y < 0 ? 0 : y >= n ? n - 1 : y;
    scene_touch(s);
}

/* ---- its row of the feature table ------------------------------------------- */

/* Made again now while shown; else let go, and made when next shown. */
static void refresh_if_shown(scene *s)
{
    channels_state *g = &s->channels;
    if (s->area == SCENE_AREA_CHANNELS) {
        refresh(s);
        return;
    }
    release(g);
}

static void reset(scene *s)
{
    s->channels.layer = 0;
    refresh_if_shown(s);
}

static void free_state(scene *s)
{
    release(&s->channels);
}

static void keep(const scene *s, scene_stash *st)
{
    st->channels_layer = s->channels.layer;
}

static void restore(scene *s, const scene_stash *st)
{
    s->channels.layer = st->channels_layer;
    refresh_if_shown(s);
}

static void changed(scene *s, scene_change what)
{
    if (scene_change_input(what) || what == SCENE_CHANGE_GPU_ENGINE || what == SCENE_CHANGE_BUDGET) {
        if (scene_task_is(s, SCENE_FEATURE_CHANNELS))
            scene_task_end(s);
        refresh_if_shown(s);
    }
}

static bool due(const scene *s)
{
    return s->channels.stale && s->area == SCENE_AREA_CHANNELS && s->channels.f.w;
}

/* Cell (engine k, way w): its median, extra memory and outputs against the direct loop's. */
static void measure(scene *s, int k, eng_layer_way w)
{
    channels_state *g = &s->channels;
    scene_engine *e = k == 0 ? &s->cpu[SCENE_CPU_SEQ] : k == 1 ? &s->cpu[SCENE_CPU_PAR] : &s->gpu.eng;
    layer_tensor got;
    eng_layer_timing t;
    eng_layer_job job;
    conv_params q = scene_params(s);
    conv_params_set_geometry(&q, 1, 1, CONV_PAD_SAME);
    if (!e->engine) {
        snprintf(g->cell_why[k][w], sizeof g->cell_why[k][w], "%s", e->why[0] ? e->why : _("not available here"));
        return;
    }
    if (!eng_layer_runs(e->engine, w, ENG_MATH_FP32)) {
        snprintf(g->cell_why[k][w], sizeof g->cell_why[k][w], "%s", err_msg());
        return;
    }
    if (!layer_tensor_alloc(&got, g->out.c, g->out.w, g->out.h)) {
        snprintf(g->cell_why[k][w], sizeof g->cell_why[k][w], "%s", _("no memory for its output"));
        return;
    }
    job = (eng_layer_job){&g->in, &g->f, q, &got, w, ENG_MATH_FP32, k == CHAN_ENGINES - 1 ? s->gpu.budget : 0};
    if (eng_layer_run(e->engine, &job, &t)) { /* a warm-up, and how many runs the budget holds */
        double one = eng_total_ms(&t.t);
        int reps = one > 0 ? (int)(CHAN_BUDGET_MS / one) : CHAN_MOST_RUNS;
        reps = reps < 1 ? 1 : reps > CHAN_MOST_RUNS ? CHAN_MOST_RUNS : reps;
        if (eng_layer_measure(e->engine, &job, reps, &t)) {
            g->ms[k][w] = eng_total_ms(&t.t), g->reps[k][w] = t.t.reps, g->extra[k][w] = t.extra_bytes;
            g->lo[k][w] = eng_total_min(&t.t), g->hi[k][w] = eng_total_max(&t.t);
            g->differ[k][w] = layer_compare(&g->in, &g->f, &q, &g->out, &got, t.input_u, t.input_abs, &g->max_diff[k][w],
                                            &g->over[k][w]);
        }
    }
    if (g->ms[k][w] < 0)
        snprintf(g->cell_why[k][w], sizeof g->cell_why[k][w], "%s", err_msg());
    layer_tensor_free(&got);
}

/* Its task: one cell a slice. */
static void slice(scene *s, double budget_ms)
{
    channels_state *g = &s->channels;
    (void)budget_ms;
    if (!scene_task_is(s, SCENE_FEATURE_CHANNELS)) {
        if (!due(s))
            return;
        g->stale = false, g->next = 0;
        scene_task_start(s, SCENE_FEATURE_CHANNELS, CHAN_ENGINES * ENG_LAYER_WAY_COUNT);
        return;
    }
    measure(s, g->next / ENG_LAYER_WAY_COUNT, (eng_layer_way)(g->next % ENG_LAYER_WAY_COUNT));
    ++g->next;
    scene_task_step(s);
    scene_touch(s);
    if (g->next == CHAN_ENGINES * ENG_LAYER_WAY_COUNT)
        scene_task_end(s);
}

static void cancel(scene *s, bool asked)
{
    channels_state *g = &s->channels;
    for (int i = g->next; i < CHAN_ENGINES * ENG_LAYER_WAY_COUNT; ++i)
        if (asked)
            snprintf(g->cell_why[i / ENG_LAYER_WAY_COUNT][i % ENG_LAYER_WAY_COUNT], sizeof g->cell_why[0][0], "%s",
                     _("stopped before it ran (Esc); Shift+C runs it again"));
    if (!asked)
        clear_figures(g);
}

static void state(const scene *s, FILE *f)
{
    const channels_state *g = &s->channels;
    fprintf(f, "channels_shown=%d\nchannels_layer=%s\nchannels_image=%dx%dx%d\n", s->area == SCENE_AREA_CHANNELS,
            g->f.w ? g->f.name : g->why, g->in.w, g->in.h, g->in.c);
    fprintf(f, "channels_layer_shape=%d->%d, %dx%d\nchannels_pick=%d,%d\n", g->f.c_in, g->f.c_out, g->f.k, g->f.k,
            g->pick_x, g->pick_y);
    for (int k = 0; k < CHAN_ENGINES; ++k)
        for (int w = 0; w < ENG_LAYER_WAY_COUNT; ++w)
            fprintf(f, "channels_%s_%s=%s%.6g ms, %lld bytes extra, %ld differ, %ld past the tolerance%s%s\n",
                    engine_names[k], eng_layer_way_name((eng_layer_way)w), g->ms[k][w] >= 0 ? "" : "unmeasured ",
                    g->ms[k][w], g->extra[k][w], g->differ[k][w], g->over[k][w], g->cell_why[k][w][0] ? ": " : "",
                    g->cell_why[k][w]);
}

/* ---- the lessons' words ---------------------------------------------------------- */

static bool no_layer(const scene *s, char *buf, size_t size)
{
    if (s->channels.f.w)
        return false;
    snprintf(buf, size, "%s", s->channels.why[0] ? s->channels.why : _("(no layer shown yet: press Shift+C)"));
    return true;
}

void scene_channels_layer_text(const scene *s, char *buf, size_t size)
{
    const layer_filters *f = &s->channels.f;
    if (!no_layer(s, buf, size))
        snprintf(buf, size,
                 _("%1$s: %2$d channels in \xE2\x86\x92 %3$d filters of %4$d\xC3\x97%4$d\xC3\x97%2$d, %5$d products an "
                   "output"),
                 _(f->name), f->c_in, f->c_out, f->k, f->c_in * f->k * f->k);
}

void scene_channels_copies_text(const scene *s, char *buf, size_t size)
{
    const channels_state *g = &s->channels;
    if (no_layer(s, buf, size))
        return;
    snprintf(buf, size,
             _("the unrolled matrix of the %1$d\xC3\x97%2$d image takes %3$.2f MB, %4$d times the image's %5$.2f MB: "
               "each pixel is copied once for every window that covers it, %4$d times"),
             g->in.w, g->in.h, (double)layer_im2col_bytes(&g->f, g->out.w, g->out.h) / 1e6, g->f.k * g->f.k,
             (double)g->in.c * g->in.w * g->in.h * 4 / 1e6);
}

/* Way w against direct on engine k, by the one rule; false when either is not measured. */
static bool way_verdict(const scene *s, int k, int w, char *buf, size_t size)
{
    const channels_state *g = &s->channels;
    static const char *const names[ENG_LAYER_WAY_COUNT] = {N_("the direct loop"), N_("im2col and our GEMM"),
                                                          N_("the library's GEMM")};
    eng_spread a = {g->ms[k][w], g->lo[k][w], g->hi[k][w], g->reps[k][w]};
    eng_spread b = {g->ms[k][0], g->lo[k][0], g->hi[k][0], g->reps[k][0]};
    eng_verdict v;
    if (g->ms[k][w] < 0 || g->ms[k][0] < 0)
        return false;
    v = eng_verdict_of(a, b);
    fmt_verdict(FMT_SENTENCE, _(names[w]), _(names[0]), &v, buf, size);
    return true;
}

void scene_channels_ways_text(const scene *s, char *buf, size_t size)
{
    size_t at = 0;
    if (no_layer(s, buf, size))
        return;
    buf[0] = '\0';
    for (int k = 1; k < CHAN_ENGINES; ++k)
        for (int w = ENG_LAYER_IM2COL; w < ENG_LAYER_WAY_COUNT && at < size; ++w) {
            char said[300];
            if (!way_verdict(s, k, w, said, sizeof said))
                continue;
            at += (size_t)snprintf(buf + at, size - at, _("%1$son %2$s, %3$s"), at ? "; " : "",
                                   scene_channels_engine(s, k), said);
        }
    if (!buf[0])
        snprintf(buf, size, "%s", _("(not measured yet)"));
}

/* Whether every weight and bias is a whole number of sixteenths: on 8-bit
 * pixels every product and sum is then exact in a float, in any order. */
static bool exact_sums(const channels_state *g)
{
    for (long i = 0; i < (long)g->f.c_out * g->f.c_in * g->f.k * g->f.k; ++i)
        if (g->f.w[i] * 16.0f != floorf(g->f.w[i] * 16.0f))
            return false;
    for (int o = 0; o < g->f.c_out; ++o)
        if (g->f.bias[o] * 16.0f != floorf(g->f.bias[o] * 16.0f))
            return false;
    return true;
}

void scene_channels_library_text(const scene *s, char *buf, size_t size)
{
    const channels_state *g = &s->channels;
    size_t at = 0;
    if (no_layer(s, buf, size))
        return;
    buf[0] = '\0';
    for (int k = 0; k < CHAN_ENGINES && at < size; ++k) {
        char n[32], total[32];
        if (g->ms[k][ENG_LAYER_LIBRARY] < 0)
            continue;
        fmt_count(g->differ[k][ENG_LAYER_LIBRARY], n, sizeof n);
        fmt_count((long long)g->out.c * g->out.w * g->out.h, total, sizeof total);
        if (g->differ[k][ENG_LAYER_LIBRARY] == 0)
            at += (size_t)snprintf(buf + at, size - at, _("%1$son %2$s, every one of its %3$s outputs has the direct "
                                                          "loop's bits"),
                                   at ? "; " : "", scene_channels_engine(s, k), total);
        else
            at += (size_t)snprintf(buf + at, size - at,
                                   _("%1$son %2$s, %3$s of %4$s outputs differ from the direct loop's, by %5$.2g at "
                                     "most: %6$s"),
                                   at ? "; " : "", scene_channels_engine(s, k), n, total,
                                   g->max_diff[k][ENG_LAYER_LIBRARY],
                                   g->over[k][ENG_LAYER_LIBRARY] == 0 ? _("all within the tolerance")
                                                                      : _("some past the tolerance"));
    }
    if (!buf[0])
        snprintf(buf, size, "%s", _("(no library measured here)"));
    else if (exact_sums(g) && at < size)
        snprintf(buf + at, size - at, "%s",
                 _(" (this layer's weights are whole sixteenths and its pixels whole numbers, so every product and sum "
                   "is exact in a float: any order gives the same bits; random:N's weights would not)"));
}

const scene_feature scene_channels_feature = {
    .name = "channels",
    .free = free_state,
    .reset = reset,
    .keep = keep,
    .restore = restore,
    .changed = changed,
    .due = due,
    .slice = slice,
    .cancel = cancel,
    .state = state,
};
