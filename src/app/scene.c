/* scene.c - the scene's core: its life (init and free through the feature
 * table), images, the lesson's stash, the settings, what is shown, the
 * phase and the notices. The long work's scheduler is scene_work.c, the
 * region shown scene_region.c; each teaching feature is a file of its own
 * (scene_feature.h lists them). */
#define _POSIX_C_SOURCE 200809L
#include "scene_feature.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/timing.h"
#include "i18n.h"
#include "worker.h"

const scene_feature *const scene_features[SCENE_FEATURE_COUNT] = {
    [SCENE_FEATURE_WALK] = &scene_walk_feature,     [SCENE_FEATURE_MEASURE] = &scene_measure_feature,
    [SCENE_FEATURE_GPU] = &scene_gpu_feature,       [SCENE_FEATURE_TILES] = &scene_tiles_feature,
    [SCENE_FEATURE_INSIDE] = &scene_inside_feature, [SCENE_FEATURE_SWEEP] = &scene_sweep_feature,
    [SCENE_FEATURE_FILTER_SWEEP] = &scene_filter_sweep_feature,
    [SCENE_FEATURE_CHAIN] = &scene_chain_feature,      [SCENE_FEATURE_GEOMETRY] = &scene_geometry_feature,
    [SCENE_FEATURE_CHANNELS] = &scene_channels_feature,
};

#define EACH_FEATURE(f)                                                                                                \
    for (const scene_feature *const *f = scene_features; f < scene_features + SCENE_FEATURE_COUNT; ++f)

void scene_open_engine(scene *s, scene_engine *e, const char *name)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->engine = s->host.open_engine(s->host.user, name, e->why, sizeof e->why);
    e->hardware = eng_hardware_of(e->engine);
}

double scene_now(const scene *s)
{
    return s->host.now_ms ? s->host.now_ms(s->host.user) : tim_now_ms();
}

/* Settings that a lesson starts from and that a new scene has. */
static void reset_settings(scene *s, const app_options *opt)
{
    s->opt = *opt;
    s->preset = -1;
    for (size_t i = 0; i < filt_preset_count(); ++i)
        if (strcmp(filt_preset(i)->name, opt->kernel.name) == 0)
            s->preset = (int)i;
    s->view_cells = SCENE_DEFAULT_CELLS;
    s->view_x = s->view_y = 0;
    s->thread_view = false;
    s->hovering = s->pinned = false;
    s->area = SCENE_AREA_GRIDS;
    s->chart = SCENE_CHART_TIMING;
    EACH_FEATURE(f)
    if ((*f)->reset)
        (*f)->reset(s);
}

void scene_init(scene *s, const scene_host *host, const app_options *opt)
{
    memset(s, 0, sizeof *s);
    s->host = *host;
    s->task.busy = -1;
    s->worker_for = -1;
    EACH_FEATURE(f)
    if ((*f)->init)
        (*f)->init(s);
    reset_settings(s, opt);
    /* the measuring thread; a CPU engine without its own engine there (or
     * without the thread) is measured here, between frames */
    s->worker = worker_start();
}

void scene_free(scene *s)
{
    worker_stop(s->worker); /* after the run under way, if any */
    s->worker = NULL;
    scene_task_end(s);
    for (int i = SCENE_FEATURE_COUNT - 1; i >= 0; --i)
        if (scene_features[i]->free)
            scene_features[i]->free(s); /* the GL context is still current here */
    img_free(&s->img);
    img_plane_free(&s->luma_kept);
    img_plane_free(&s->cpu_out);
    img_plane_free(&s->gpu_out);
}

conv_params scene_params(const scene *s)
{
    return app_options_params(&s->opt);
}

void scene_changed(scene *s, scene_change what)
{
    if (!s->img.luma.px)
        return;
    if (scene_change_input(what))
        ++s->measure_gen; /* what the measuring thread is doing is for the old settings */
    EACH_FEATURE(f)
    if ((*f)->changed)
        (*f)->changed(s, what);
    /* a task measures one filter and one engine, not two (the tiles, when
     * their result was shown, stopped quietly above to run again) */
    if (scene_change_input(what) || what == SCENE_CHANGE_GPU_ENGINE)
        scene_cancel(s);
}

void scene_set_phase(scene *s, scene_phase phase)
{
    if (phase == s->phase)
        return;
    if (phase == SCENE_PHASE_CPU)
        s->pinned = false; /* the walk's output is another picture */
    s->phase = phase;
    scene_changed(s, SCENE_CHANGE_PHASE);
}

void scene_touch(scene *s)
{
    ++s->updates;
}

void scene_say_error(scene *s, const char *text)
{
    snprintf(s->banner, sizeof s->banner, "%s", text);
    s->banner_gpu = false;
}

void scene_say_gpu_error(scene *s, const char *text)
{
    snprintf(s->banner, sizeof s->banner, "%s", text);
    s->banner_gpu = true;
}

void scene_clear_gpu_error(scene *s)
{
    if (s->banner_gpu) /* what it said failed has now worked */
        s->banner[0] = '\0';
    s->banner_gpu = false;
}

void scene_notice(scene *s, const char *text)
{
    snprintf(s->notice, sizeof s->notice, "%s", text);
    s->notice_at = scene_now(s);
}

bool scene_adopt_image(scene *s, img_image *img, const char *name)
{
    img_plane cpu, gpu;
    if (!img_plane_alloc(&cpu, img->luma.w, img->luma.h))
        goto fail;
    if (!img_plane_alloc(&gpu, img->luma.w, img->luma.h)) {
        img_plane_free(&cpu);
        goto fail;
    }
    scene_cancel(s); /* its figures were for the image going away */
    img_free(&s->img);
    img_plane_free(&s->luma_kept);
    s->channel = 0;
    img_plane_free(&s->cpu_out);
    img_plane_free(&s->gpu_out);
    s->img = *img;
    s->cpu_out = cpu;
    s->gpu_out = gpu;
    ++s->image_generation;
    snprintf(s->image_name, sizeof s->image_name, "%s", name);
    s->phase = SCENE_PHASE_CPU;
    s->pinned = s->hovering = false;
    s->view_x = s->view_y = 0; /* where the walk starts */
    s->passes = 0;
    scene_changed(s, SCENE_CHANGE_IMAGE);
    return true;
fail:
    img_free(img);
    scene_say_error(s, err_msg());
    return false;
}

bool scene_open_image(scene *s, const char *path)
{
    img_image img;
    const char *slash = strrchr(path, '/');

    if (!img_load(path, &s->opt.limits, &img)) {
        scene_say_error(s, err_msg());
        return false;
    }
    if (!scene_adopt_image(s, &img, slash ? slash + 1 : path))
        return false;
    s->banner[0] = '\0';
    return true;
}

void scene_apply_again(scene *s)
{
    img_plane out;
    img_image next;
    eng_job job;
    eng_timing t;
    char msg[600];
    int passes = s->passes + 1;
    eng_engine *par = s->cpu[SCENE_CPU_PAR].engine;
    if (!s->img.luma.px || !par)
        return;
    if (!img_plane_alloc(&out, s->img.luma.w, s->img.luma.h))
        goto failed;
    job = (eng_job){&s->img.luma, &out, scene_params(s)};
    if (!eng_run(par, &job, &t) || !img_from_plane(&out, &next)) {
        img_plane_free(&out);
        goto failed;
    }
    img_plane_free(&out);
    /* the new input replaces the old; the title stays, the passes count */
    snprintf(msg, sizeof msg, "%s", s->image_name);
    if (scene_adopt_image(s, &next, msg))
        s->passes = passes;
    return;
failed:
    snprintf(msg, sizeof msg, _("cannot apply the filter again: %s"), err_msg());
    scene_say_error(s, msg);
}

/* img.luma becomes channel c: 0 the luma as decoded (kept meanwhile), 1-3 the colours' red, green, blue. */
static void set_channel(scene *s, int c)
{
    img_plane plane;
    long n = (long)s->img.luma.w * s->img.luma.h;
    if (c == s->channel || !s->img.luma.px)
        return;
    if (c == 0) {
        img_plane_free(&s->img.luma);
        s->img.luma = s->luma_kept;
        memset(&s->luma_kept, 0, sizeof s->luma_kept);
    } else {
        if (!img_plane_alloc(&plane, s->img.luma.w, s->img.luma.h)) {
            scene_say_error(s, err_msg());
            return;
        }
        for (long i = 0; i < n; ++i)
            plane.px[i] = (float)s->img.color.px[4 * i + c - 1];
        if (s->channel == 0)
            s->luma_kept = s->img.luma;
        else
            img_plane_free(&s->img.luma);
        s->img.luma = plane;
    }
    s->channel = c;
    ++s->image_generation;
    scene_changed(s, SCENE_CHANGE_IMAGE);
}

void scene_next_channel(scene *s)
{
    static const char *const said[4] = {
        N_("The grids convolve the image's luma again, every bit of the file (H: its red)."),
        N_("The grids convolve the red channel alone, 8 bits as the file's colours (H: green)."),
        N_("The grids convolve the green channel alone (H: blue)."),
        N_("The grids convolve the blue channel alone (H: back to the luma)."),
    };
    if (!s->img.luma.px)
        return;
    if (s->channel == 0 && !img_is_colour(&s->img)) {
        scene_notice(s, _("This image is grey: one channel, its luma, which the grids show."));
        return;
    }
    set_channel(s, (s->channel + 1) % 4);
    scene_notice(s, _(said[s->channel]));
}

void scene_stash_settings(scene *s, scene_stash *st, const app_options *defaults)
{
    img_image copy;
    bool copied;
    scene_cancel(s);
    set_channel(s, 0); /* the image itself goes aside, its luma in place */
    st->opt = s->opt;
    st->preset = s->preset;
    st->img = s->img; /* the stash's from now on */
    snprintf(st->image_name, sizeof st->image_name, "%s", s->image_name);
    st->passes = s->passes;
    st->view_x = s->view_x;
    st->view_y = s->view_y;
    st->view_cells = s->view_cells;
    st->thread_view = s->thread_view;
    EACH_FEATURE(f)
    if ((*f)->keep)
        (*f)->keep(s, st);
    st->held = true;
    /* the scene goes on with a copy (or with none when there is no room:
     * the lesson's own image comes next, or the banner says why) */
    copied = s->img.luma.px && img_copy(&s->img, &copy);
    if (s->img.luma.px && !copied)
        scene_say_error(s, err_msg());
    memset(&s->img, 0, sizeof s->img);
    reset_settings(s, defaults);
    if (copied)
        scene_adopt_image(s, &copy, st->image_name);
}

void scene_unstash(scene *s, scene_stash *st)
{
    img_image img;
    int passes;
    char name[256];
    if (!st->held)
        return;
    img = st->img;
    passes = st->passes;
    snprintf(name, sizeof name, "%s", st->image_name);
    s->opt = st->opt;
    s->preset = st->preset;
    s->view_cells = st->view_cells;
    s->thread_view = st->thread_view;
    EACH_FEATURE(f)
    if ((*f)->restore)
        (*f)->restore(s, st);
    s->area = SCENE_AREA_GRIDS;
    s->chart = SCENE_CHART_TIMING;
    if (scene_adopt_image(s, &img, name)) {
        s->passes = passes;
        scene_view_at(s, st->view_x, st->view_y);
    }
    memset(st, 0, sizeof *st);
}

void scene_update(scene *s, double dt_ms)
{
    EACH_FEATURE(f)
    if ((*f)->advance)
        (*f)->advance(s, dt_ms);
}

bool scene_animating(const scene *s)
{
    double now = scene_now(s);
    if (s->notice[0] && now - s->notice_at < SCENE_NOTICE_MS)
        return true;
    EACH_FEATURE(f)
    if ((*f)->animating && (*f)->animating(s, now))
        return true;
    return false;
}

void scene_play_out(scene *s)
{
    EACH_FEATURE(f)
    if ((*f)->play_out)
        (*f)->play_out(s);
}

/* ---- settings ------------------------------------------------------------- */

void scene_select_preset(scene *s, int index)
{
    if (index < 0 || (size_t)index >= filt_preset_count())
        return;
    s->preset = index;
    s->opt.kernel = *filt_preset((size_t)index);
    scene_changed(s, SCENE_CHANGE_INPUT);
}

void scene_next_filter(scene *s, int step)
{
    int n = (int)filt_preset_count();
    int i = s->preset < 0 ? (step > 0 ? 0 : n - 1) : ((s->preset + step) % n + n) % n;
    scene_select_preset(s, i);
}

void scene_resize_filter(scene *s, int step)
{
    filt_kernel k;
    char text[160];
    int side = (s->opt.kernel.kw > s->opt.kernel.kh ? s->opt.kernel.kw : s->opt.kernel.kh) + step;
    if (!filt_of_size(&s->opt.kernel, side, &k)) {
        scene_notice(s, err_msg());
        return;
    }
    s->preset = -1;
    for (size_t i = 0; side == 3 && i < filt_preset_count(); ++i) /* back at 3: the preset itself */
        if (strncmp(filt_preset(i)->name, k.name, strlen(filt_preset(i)->name)) == 0 && k.kw == 3 && k.kh == 3)
            s->preset = (int)i, k = *filt_preset(i);
    s->opt.kernel = k;
    snprintf(text, sizeof text, _("%s, %d\xC3\x97%d: %d products an output"), _(k.title), k.kw, k.kh, k.kw * k.kh);
    scene_notice(s, text);
    scene_changed(s, SCENE_CHANGE_INPUT);
}

void scene_set_weight(scene *s, int tap, float value)
{
    if (tap < 0 || tap >= s->opt.kernel.kw * s->opt.kernel.kh || !isfinite(value))
        return;
    s->opt.kernel.weight[tap] = value;
    snprintf(s->opt.kernel.name, sizeof s->opt.kernel.name, "custom");
    snprintf(s->opt.kernel.title, sizeof s->opt.kernel.title, "%s", N_("Custom kernel"));
    s->preset = -1;
    scene_changed(s, SCENE_CHANGE_INPUT);
}

void scene_next_border(scene *s)
{
    s->opt.border = (conv_border)((s->opt.border + 1) % CONV_BORDER_COUNT);
    scene_changed(s, SCENE_CHANGE_INPUT);
}

void scene_toggle_flip(scene *s)
{
    s->opt.flip = !s->opt.flip;
    scene_changed(s, SCENE_CHANGE_INPUT);
}

void scene_next_display(scene *s)
{
    s->opt.display = (img_display)((s->opt.display + 1) % IMG_DISPLAY_COUNT);
    scene_changed(s, SCENE_CHANGE_DISPLAY); /* the thumbnail's grey levels change */
}

void scene_toggle_threads(scene *s)
{
    s->thread_view = !s->thread_view;
}

/* ---- what is shown ---------------------------------------------------------- */

void scene_show(scene *s, scene_area area)
{
    if (area < 0 || area >= SCENE_AREA_COUNT)
        return;
    s->area = area;
    if (area == SCENE_AREA_SWEEP || area == SCENE_AREA_FILTER_SWEEP)
        s->chart = SCENE_CHART_TIMING;
    ++s->updates;
}

void scene_show_chart(scene *s, scene_chart chart)
{
    if (chart < 0 || chart >= SCENE_CHART_COUNT)
        return;
    s->chart = chart;
    if (chart == SCENE_CHART_CHAIN && (s->area == SCENE_AREA_SWEEP || s->area == SCENE_AREA_FILTER_SWEEP))
        s->area = SCENE_AREA_GRIDS;
    ++s->updates;
}

bool scene_close_shown(scene *s)
{
    if (s->area != SCENE_AREA_GRIDS)
        scene_show(s, SCENE_AREA_GRIDS);
    else if (s->chart != SCENE_CHART_TIMING)
        scene_show_chart(s, SCENE_CHART_TIMING);
    else
        return false;
    return true;
}

const char *scene_area_name(scene_area area)
{
    static const char *const names[SCENE_AREA_COUNT] = {"grids", "large", "inside", "sweep",
                                                               "filter-sweep", "geometry", "channels"};
    return area >= 0 && area < SCENE_AREA_COUNT ? names[area] : "?";
}

void scene_title(const scene *s, char *buf, size_t size)
{
    static const char *const channel[4] = {"", N_("%s, red channel"), N_("%s, green channel"), N_("%s, blue channel")};
    char name[300];
    if (s->channel > 0)
        snprintf(name, sizeof name, _(channel[s->channel]), s->image_name);
    else
        snprintf(name, sizeof name, "%s", s->image_name);
    if (s->passes > 0)
        snprintf(buf, size, ngettext("%s after %d pass", "%s after %d passes", (unsigned long)s->passes), name,
                 s->passes);
    else
        snprintf(buf, size, "%s", name);
}
