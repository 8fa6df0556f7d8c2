/* geometry.c - the geometry view's feature (geometry.h): the only writer
 * of scene.geometry. The piece is worked out here whenever the settings or
 * the image change; the whole image is measured as a task, one engine a
 * slice, on this thread (the image is at most GEOM_SIDE a side). */
#include "scene_feature.h"

#include <stdio.h>

#include "i18n.h"

#define GEOM_BUDGET_MS 40.0 /* time spent measuring one engine */

static const char *const engine_names[GEOM_ENGINES] = {"cpu-seq", "cpu-par", "GPU"};

conv_params scene_geometry_params(const scene *s)
{
    conv_params p = scene_params(s);
    conv_params_set_geometry(&p, s->geometry.stride, s->geometry.dilation, (conv_padding)s->geometry.padding);
    return p;
}

const char *scene_geometry_engine(const scene *s, int k)
{
    return k == GEOM_ENGINES - 1 && s->gpu.eng.engine ? scene_engine_label(&s->gpu.eng) : engine_names[k];
}

/* The piece and its output, the walk back at its first output, the whole
 * image's size and figures stale. */
static void refresh(scene *s)
{
    geometry_state *g = &s->geometry;
    const img_plane *img = &s->img.luma;
    conv_params p = scene_geometry_params(s);
    int ex = p.dilation * (p.kw - 1) + 1, ey = p.dilation * (p.kh - 1) + 1, e = ex > ey ? ex : ey;
    double scale;
    g->n = e + 4 < GEOM_PIECE_MIN ? GEOM_PIECE_MIN : e + 4;
    g->n = g->n > img->w ? img->w : g->n;
    g->n = g->n > img->h ? img->h : g->n;
    g->out_n = g->out_m = 0;
    g->at = 0, g->at_ms = 0;
    if (!img->px || e + 4 > GEOM_PIECE_MAX)
        g->n = 0; /* wider windows: no piece is drawn, the table stays */
    if (g->n > 0) {
        for (int j = 0; j < g->n; ++j)
            for (int i = 0; i < g->n; ++i)
                g->piece[j * g->n + i] = img->px[(long)j * img->w + i];
        g->out_n = conv_out_w(&p, g->n), g->out_m = conv_out_h(&p, g->n);
        for (int j = 0; j < g->out_m; ++j)
            for (int i = 0; i < g->out_n; ++i)
                g->piece_out[j * g->out_n + i] = conv_pixel_any(g->piece, g->n, g->n, i, j, &p);
    }
    scale = img->w > img->h ? (double)GEOM_SIDE / img->w : (double)GEOM_SIDE / (img->h > 0 ? img->h : 1);
    scale = scale < 1 ? scale : 1;
    g->w = img->px ? (int)(img->w * scale + 0.5) : 0, g->h = img->px ? (int)(img->h * scale + 0.5) : 0;
    g->w = img->px && g->w < 1 ? 1 : g->w, g->h = img->px && g->h < 1 ? 1 : g->h;
    g->out_w = conv_out_w(&p, g->w), g->out_h = conv_out_h(&p, g->h);
    g->stale = true, g->next = 0;
    for (int k = 0; k < GEOM_ENGINES; ++k)
        g->ms[k] = -1, g->reps[k] = 0, g->differ[k] = -1, g->why[k][0] = '\0';
}

static void show(scene *s)
{
    if (scene_task_is(s, SCENE_FEATURE_GEOMETRY))
        scene_task_end(s); /* its figures and its reference are for the settings before */
    refresh(s);
    scene_show(s, SCENE_AREA_GEOMETRY);
    scene_touch(s);
}

void scene_next_stride(scene *s)
{
    s->geometry.stride = s->geometry.stride >= GEOM_WINDOW_MAX ? 1 : s->geometry.stride + 1;
    show(s);
}

void scene_next_dilation(scene *s)
{
    s->geometry.dilation = s->geometry.dilation >= GEOM_WINDOW_MAX ? 1 : s->geometry.dilation + 1;
    show(s);
}

void scene_next_padding(scene *s)
{
    s->geometry.padding = (s->geometry.padding + 1) % 3;
    show(s);
}

void scene_set_geometry(scene *s, int stride, int dilation, int padding)
{
    conv_params p = scene_params(s);
    conv_params_set_geometry(&p, stride, dilation, (conv_padding)padding); /* clamps */
    s->geometry.stride = p.stride, s->geometry.dilation = p.dilation, s->geometry.padding = p.padding;
    show(s);
}

/* ---- its row of the feature table ------------------------------------------- */

static void reset(scene *s)
{
    s->geometry.stride = s->geometry.dilation = 1;
    s->geometry.padding = CONV_PAD_SAME;
    refresh(s);
}

static void free_state(scene *s)
{
    img_plane_free(&s->geometry.ref);
}

static void keep(const scene *s, scene_stash *st)
{
    st->geometry[0] = s->geometry.stride, st->geometry[1] = s->geometry.dilation, st->geometry[2] = s->geometry.padding;
}

static void restore(scene *s, const scene_stash *st)
{
    s->geometry.stride = st->geometry[0], s->geometry.dilation = st->geometry[1], s->geometry.padding = st->geometry[2];
    refresh(s);
}

static void changed(scene *s, scene_change what)
{
    if (scene_change_input(what) || what == SCENE_CHANGE_GPU_ENGINE || what == SCENE_CHANGE_GPU) {
        if (scene_task_is(s, SCENE_FEATURE_GEOMETRY))
            scene_task_end(s);
        refresh(s);
    }
}

static bool due(const scene *s)
{
    return s->geometry.stale && s->area == SCENE_AREA_GEOMETRY && s->img.luma.px;
}

/* Engine k on the whole image here: its time, and its output against the
 * reference's bits. */
static void measure(scene *s, int k, const img_plane *in, const conv_params *p)
{
    geometry_state *g = &s->geometry;
    scene_engine probe = k == 0 ? s->cpu[SCENE_CPU_SEQ] : k == 1 ? s->cpu[SCENE_CPU_PAR] : s->gpu.eng;
    img_plane out;
    if (!probe.engine) {
        snprintf(g->why[k], sizeof g->why[k], "%s", probe.why[0] ? probe.why : _("not available here"));
        return;
    }
    if (g->ref.w != g->out_w || g->ref.h != g->out_h) {
        snprintf(g->why[k], sizeof g->why[k], "%s", _("the reference is for other settings"));
        return;
    }
    if (!img_plane_alloc(&out, g->out_w, g->out_h)) {
        snprintf(g->why[k], sizeof g->why[k], "%s", _("no memory for its output"));
        return;
    }
    if (k == GEOM_ENGINES - 1)
        scene_gpu_options(s, ENG_RESULT_BULK); /* the time includes copying the result back */
    {
        eng_job job = {in, &out, *p};
        scene_engine_measure(&probe, &job, 0, GEOM_BUDGET_MS);
    }
    if (k == GEOM_ENGINES - 1)
        scene_gpu_restale(s);
    if (probe.measured) {
        g->ms[k] = eng_total_ms(&probe.timing), g->reps[k] = probe.timing.reps;
        g->differ[k] = conv_count_different(out.px, g->ref.px, (long)g->out_w * g->out_h);
    } else {
        snprintf(g->why[k], sizeof g->why[k], "%s", probe.why);
    }
    img_plane_free(&out);
}

/* Its task: the reference first, then one engine a slice. */
static void slice(scene *s, double budget_ms)
{
    geometry_state *g = &s->geometry;
    conv_params p = scene_geometry_params(s);
    img_plane in;
    (void)budget_ms;
    if (!scene_task_is(s, SCENE_FEATURE_GEOMETRY)) {
        if (!due(s))
            return;
        g->stale = false, g->next = 0;
        if (g->out_w < 1 || g->out_h < 1)
            return; /* a valid window wider than the image: no output, nothing to time */
        scene_task_start(s, SCENE_FEATURE_GEOMETRY, GEOM_ENGINES);
        return;
    }
    if (!img_plane_scaled(&s->img.luma, g->w, g->h, &in)) {
        scene_task_end(s);
        return;
    }
    if (g->next == 0) {
        img_plane_free(&g->ref);
        if (!img_plane_alloc(&g->ref, g->out_w, g->out_h)) {
            img_plane_free(&in);
            scene_task_end(s);
            return;
        }
        conv_reference(&in, &p, &g->ref);
    }
    measure(s, g->next++, &in, &p);
    img_plane_free(&in);
    scene_task_step(s);
    scene_touch(s);
    if (g->next == GEOM_ENGINES)
        scene_task_end(s);
}

/* Stopped: what was measured stays. Asked (Esc), the rest says so; quietly
 * (other work starts), the rest is measured again when the view can. */
static void cancel(scene *s, bool asked)
{
    geometry_state *g = &s->geometry;
    for (int k = g->next; k < GEOM_ENGINES; ++k)
        if (asked)
            snprintf(g->why[k], sizeof g->why[k], "%s", _("stopped before it ran (Esc); a key of the view runs it again"));
    if (!asked)
        refresh(s);
}

static void advance(scene *s, double dt_ms)
{
    geometry_state *g = &s->geometry;
    long count = (long)g->out_n * g->out_m;
    if (s->area != SCENE_AREA_GEOMETRY || count < 2)
        return;
    for (g->at_ms += dt_ms; g->at_ms >= GEOM_STEP_MS; g->at_ms -= GEOM_STEP_MS)
        g->at = (g->at + 1) % count;
}

static bool animating(const scene *s, double now)
{
    (void)now;
    return s->area == SCENE_AREA_GEOMETRY && (long)s->geometry.out_n * s->geometry.out_m > 1;
}

static void state(const scene *s, FILE *f)
{
    const geometry_state *g = &s->geometry;
    fprintf(f, "geometry_shown=%d\ngeometry=stride %d, dilation %d, padding %s\n", s->area == SCENE_AREA_GEOMETRY,
            g->stride, g->dilation, conv_padding_name((conv_padding)g->padding));
    fprintf(f, "geometry_piece=%dx%d->%dx%d\ngeometry_image=%dx%d->%dx%d\n", g->n, g->n, g->out_n, g->out_m, g->w,
            g->h, g->out_w, g->out_h);
    for (int k = 0; k < GEOM_ENGINES; ++k)
        fprintf(f, "geometry_%s=%s%.6g ms, %ld differ\n", engine_names[k], g->ms[k] >= 0 ? "" : "unmeasured ",
                g->ms[k], g->differ[k]);
}

const scene_feature scene_geometry_feature = {
    .name = "geometry",
    .free = free_state,
    .reset = reset,
    .keep = keep,
    .restore = restore,
    .changed = changed,
    .due = due,
    .slice = slice,
    .cancel = cancel,
    .advance = advance,
    .animating = animating,
    .state = state,
};
