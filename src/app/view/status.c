/* status.c - the title line and chips, the status lines under the grids
 * (the walk or the GPU launch, each engine's time, the device), a lesson's
 * panel in their place, and the play, GPU and large-picture buttons. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"
#include "../narration.h"
#include "../quiz.h"

static void engine_line(view *v, const scene_engine *e, const char *label, int tiles, float x, float y)
{
    char buf[320], t[32], runs[64];
    if (!e->engine)
        snprintf(buf, sizeof buf, _("%s: unavailable: %s"), label, e->why);
    else if (!e->measured && e->why[0])
        snprintf(buf, sizeof buf, _("%s failed: %s"), label, e->why);
    else if (!e->measured)
        snprintf(buf, sizeof buf, "%s: %s", label, eng_description(e->engine));
    else {
        fmt_ms(eng_total_ms(&e->timing), t, sizeof t);
        if (tiles > 0)
            snprintf(runs, sizeof runs, _("%d tiles, one run each, added up"), tiles);
        else
            snprintf(runs, sizeof runs, _("median of %d"), e->timing.reps);
        snprintf(buf, sizeof buf, _("%s: %s (%s) on %s"), label, t, runs, eng_run_description(e->engine, &e->timing));
    }
    vw_text_fit(v, v->small, buf, x, y, v->L.status.w, e->engine ? DIM : FAINT);
}

/* "NVIDIA H200 · 132 SMs · convis holds 1.0 GiB · 139.0 GiB free of 140.0 GiB" */
static void device_text(const scene *s, char *buf, size_t size)
{
    const eng_device_info *d = &s->gpu.device;
    char a[32], b[32], c[32];
    size_t n = (size_t)snprintf(buf, size, _("device: %s"), d->name);
    if (d->compute_units > 0 && n < size)
        n += (size_t)snprintf(buf + n, size - n, " \xC2\xB7 %d %ss", d->compute_units, d->unit_name);
    if (d->memory_total > 0 && d->memory_free >= 0 && n < size) {
        fmt_bytes(d->memory_engine, a, sizeof a);
        fmt_bytes(d->memory_free, b, sizeof b);
        fmt_bytes(d->memory_total, c, sizeof c);
        n += (size_t)snprintf(buf + n, size - n, _(" · convis holds %s · %s free of %s"), a, b, c);
    }
    if (d->present == ENG_PRESENT_COPY && d->present_why[0] && n < size) /* why interop is not used */
        snprintf(buf + n, size - n, " \xC2\xB7 %s", d->present_why);
}

/* How the GPU's result reaches the screen, in words. */
static const char *result_label(const scene *s)
{
    if (s->gpu.result == ENG_RESULT_PER_PIXEL)
        return N_("one copy per pixel");
    if (s->gpu.result == ENG_RESULT_BULK)
        return N_("one bulk copy back");
    if (!s->gpu.device_known || !s->gpu.presented)
        return N_("straight into the picture");
    switch (s->gpu.device.present) {
    case ENG_PRESENT_INTEROP: return N_("CUDA-GL interop, no copy");
    case ENG_PRESENT_COPY: return N_("via the host (interop not possible here)");
    default: return N_("computed in the GL context, no copy");
    }
}

/* A lesson's panel, in place of the engine lines: the step, the narration
 * with this machine's numbers in it, and what the learner is to do. It sits
 * below the grids and never covers them. */
void vw_draw_lesson(view *v, const app *a)
{
    const layout *L = &v->L;
    const lsn_player *p = &a->player;
    float x = L->status.x, y = L->status.y, bottom = L->play_button.y - 0.3f * L->pad;
    char head[512], text[4096], hint[256];

    snprintf(head, sizeof head, "%d / %d \xC2\xB7 %s", p->step + 1, p->lesson.step_count, p->lesson.title);
    vw_text_fit(v, v->font, head, x, y, L->status.w, WINDOW);
    y += L->line;
    app_narration(a, text, sizeof text);
    app_hint(a, hint, sizeof hint);
    if (!hint[0]) {
        bool last = lsn_player_at_end(p);
        snprintf(hint, sizeof hint, "%s",
                 last ? _("The end of this lesson. ← or PageUp: back · Esc: leave it")
                      : _("→ or PageDown: next · ← or PageUp: back · Esc: leave"));
    }
    {
        /* the narration in the small font (the layout made the panel as tall
         * as it needs), smaller in proportion only where the window is too
         * short for that, never under what a room reads */
        rnd_font *f = v->small;
        float room = bottom - y - vw_lh(f), need;
        for (int px = rnd_font_px(v->small);
             px > L->least_px && (need = rnd_text_wrapped(f, text, 0, 0, L->status.w, TEXT, false)) > room;) {
            px = (int)fmaxf((float)L->least_px, fminf((float)px - 1, (float)px * sqrtf(room / need)));
            f = view_font_px(v, px);
            room = bottom - y - vw_lh(f);
        }
        int role = rnd_text_role(VIEW_TEXT_NARRATION);
        y += rnd_text_wrapped(f, text, x, y, L->status.w, TEXT, true);
        rnd_text_role(role);
    }
    vw_text_fit(v, v->small, hint, x, fmaxf(y, bottom - vw_lh(v->small)), L->status.w,
                p->waiting || lsn_player_asking(p) ? WINDOW : DIM);
}

void vw_draw_status(view *v, const scene *s)
{
    const layout *L = &v->L;
    float x = L->status.x, y = L->status.y;
    char buf[256], d[32], t[32];
    long done = scene_cpu_done(s), total = (long)s->img.luma.w * s->img.luma.h;

    if (s->phase == SCENE_PHASE_CPU) {
        fmt_count(done, d, sizeof d);
        fmt_count(total, t, sizeof t);
        snprintf(buf, sizeof buf,
                 ngettext("CPU walk: %s / %s outputs \xC2\xB7 %s at %.0f output a second",
                          "CPU walk: %s / %s outputs \xC2\xB7 %s at %.0f outputs a second",
                          (unsigned long)s->walk.speed),
                 d, t, s->walk.playing ? _("playing") : (done == total ? _("finished") : _("paused")), s->walk.speed);
    } else {
        int bx, by;
        long gx, gy;
        scene_gpu_grid(s, &gx, &gy, &bx, &by);
        fmt_count(gx * gy * bx * by, t, sizeof t);
        if (s->tiles.on) { /* a tile's grid: its outputs and their halo */
            char tiles[64];
            scene_tiles_text(s, tiles, sizeof tiles);
            gx = (s->tiles.plan.tile_w + 2 + bx - 1) / bx;
            gy = (s->tiles.plan.tile_h + 2 + by - 1) / by;
            snprintf(buf, sizeof buf,
                     _("GPU: %s, %d done \xC2\xB7 each %ld\xC3\x97%ld blocks \xC3\x97 %d\xC3\x97%d threads"), tiles,
                     s->tiles.done, gx, gy, bx, by);
        } else {
            long per_wave;
            int waves = scene_gpu_waves(s, &per_wave);
            snprintf(buf, sizeof buf, _("GPU: %ld\xC3\x97%ld blocks \xC3\x97 %d\xC3\x97%d threads = %s threads"), gx,
                     gy, bx, by, t);
            if (waves > 1) { /* the schedule's shape, as the runtime's occupancy gives it */
                size_t n = strlen(buf);
                snprintf(buf + n, sizeof buf - n, _(", in %d waves of %ld blocks"), waves, per_wave);
            }
        }
    }
    vw_text_fit(v, v->font, buf, x, y, L->status.w, TEXT);
    y += L->line;
    if (s->phase == SCENE_PHASE_GPU) {
        bool options = s->gpu.eng.engine && eng_has_kernels(eng_class_of(s->gpu.eng.engine));
        if (s->tiles.on) {
            char b[32];
            fmt_bytes(s->gpu.budget, b, sizeof b);
            if (options)
                snprintf(buf, sizeof buf,
                         _("kernel: %s (N) · budget %s (P): a tile goes up with its halo, is computed, comes back"),
                         C_("kernel", eng_kernel_name(s->gpu.kernel)), b);
            else
                snprintf(buf, sizeof buf, _("budget %s (P): a tile goes up with its halo, is computed, comes back"), b);
        } else if (options)
            snprintf(buf, sizeof buf, _("kernel: %s (N) \xC2\xB7 result: %s (C) \xC2\xB7 times on the whole image:"),
                     C_("kernel", eng_kernel_name(s->gpu.kernel)), _(result_label(s)));
        else
            snprintf(buf, sizeof buf, _("result: %s (C) \xC2\xB7 times on the whole image:"), _(result_label(s)));
        vw_text_fit(v, v->small, buf, x, y, L->status.w, DIM);
    } else {
        vw_text_fit(v, v->small,
                    _("The animation is for the eye; the times are measured separately, on the whole image:"), x, y,
                    L->status.w, FAINT);
    }
    y += vw_lh(v->small);
    engine_line(v, &s->cpu[SCENE_CPU_SEQ], "cpu-seq", 0, x, y);
    y += vw_lh(v->small);
    engine_line(v, &s->cpu[SCENE_CPU_PAR], "cpu-par", 0, x, y);
    y += vw_lh(v->small);
    engine_line(v, &s->gpu.eng, scene_engine_label(&s->gpu.eng), s->tiles.on ? tile_count(&s->tiles.plan) : 0, x, y);
    y += vw_lh(v->small);
    if (s->gpu.eng.note[0]) {
        vw_text_fit(v, v->small, s->gpu.eng.note, x, y, L->status.w, FAINT);
    } else if (s->gpu.device_known) {
        device_text(s, buf, sizeof buf);
        vw_text_fit(v, v->small, buf, x, y, L->status.w, FAINT);
    }
}

void vw_draw_buttons(view *v, const app *a)
{
    const layout *L = &v->L;
    const scene *s = &a->s;
    vw_chip(v, L->play_button, s->walk.playing ? vw_T(v, "Space  pause") : vw_T(v, "Space  play"), s->walk.playing,
            WINDOW);
    vw_chip(v, L->gpu_button, L->gpu_label, s->phase == SCENE_PHASE_GPU, GREEN);
    vw_chip(v, L->large_button, L->large_label, s->area == SCENE_AREA_LARGE, BLUE);
    vw_click_button(v, L->play_button, app_action_of(ACT_PLAY), -1);
    vw_click_button(v, L->gpu_button, app_action_of(ACT_GPU), -1);
    vw_click_button(v, L->large_button, app_action_of(ACT_LARGE), -1);
    if (L->keys_hint)
        rnd_text(v->small, vw_T(v, "F1 or ?  every key"), L->large_button.x + L->large_button.w + L->pad,
                 L->gpu_button.y + (L->gpu_button.h - vw_lh(v->small)) / 2, DIM);
}

void vw_draw_top(view *v, const scene *s)
{
    const layout *L = &v->L;
    char buf[512];
    static const char *display_label[] = {N_("display: clamp"), N_("display: |value|"),
                                          N_("display: signed (0 = grey)")};

    snprintf(buf, sizeof buf, "convis \xC2\xB7 %s",
             vw_T(v, s->phase == SCENE_PHASE_GPU ? vw_gpu_title(s) : N_("one output at a time on the CPU")));
    {
        char right[320];
        float rw;
        char title[320];
        scene_title(s, title, sizeof title);
        snprintf(right, sizeof right, "%s \xC2\xB7 %d\xC3\x97%d", title, s->img.luma.w, s->img.luma.h);
        rw = fminf(vw_text_w(v->font, right), L->W * 0.35f);
        vw_text_fit(v, v->big, buf, L->pad, 0.4f * L->pad, L->W - 3 * L->pad - rw, TEXT);
        vw_text_fit(v, v->font, right, L->W - L->pad - rw, 0.4f * L->pad + (vw_lh(v->big) - L->line) / 2, rw + 1, DIM);
    }
    if (!L->presenter) { /* the chips: decoration, gone in presenter mode */
        for (int i = 0; i < 9; ++i) {
            char label[48];
            vw_preset_label(i, label, sizeof label);
            vw_chip(v, L->preset[i], label, s->preset == i, TEXT);
            vw_click_button(v, L->preset[i], app_action_filter(i), -1);
        }
        snprintf(buf, sizeof buf, _("border: %s"), C_("border", conv_border_name(s->opt.border)));
        vw_chip(v, L->border, buf, false, TEXT);
        vw_chip(v, L->flip, s->opt.flip ? _("true convolution") : _("cross-correlation"), s->opt.flip, TEXT);
        vw_chip(v, L->display, _(display_label[s->opt.display]), false, TEXT);
        vw_click_button(v, L->border, app_action_of(ACT_BORDER), -1);
        vw_click_button(v, L->flip, app_action_of(ACT_FLIP), -1);
        vw_click_button(v, L->display, app_action_of(ACT_DISPLAY), -1);
    }
    if (s->banner[0]) {
        vw_banner_text(s, buf, sizeof buf);
        rnd_rect(L->banner.x, L->banner.y, L->banner.w, L->banner.h, BANNER_BG);
        if (L->top_cut) /* the window too short for it whole: its whole text under the pointer */
            vw_text_fit(v, v->font, buf, L->pad, L->banner.y + 0.3f * L->pad, L->W - 2 * L->pad, WHITE);
        else
            rnd_text_wrapped(v->font, buf, L->pad, L->banner.y + 0.3f * L->pad, L->W - 2 * L->pad, WHITE, true);
    }
}
