/* lab.c - the kernel lab's view (Shift+L): the image's outputs as the last
 * check of the learner's kernel left them, the wrong ones in amber as the
 * inside view paints a race; beside it the file, what the check found (the
 * compiler's errors at their lines, or how many outputs are wrong, the reads
 * of a work group against the tiled kernel's bound, the times) and what to
 * do next. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../format.h"
#include "../kernel_lab.h"
#include "../quiz.h"
#include "../settings.h"

/* The last check's outputs as a picture, made once a check. */
static bool picture(view *v, const app *a)
{
    const app_lab *l = &a->lab;
    const scene *s = &a->s;
    img_plane ref = {0};
    img_rgba pic = {l->report.w, l->report.h, NULL};
    conv_params p = app_options_params(&s->opt);
    if (!l->wrong || l->report.w != s->img.luma.w || l->report.h != s->img.luma.h)
        return false;
    if (v->lab_for == l->generation)
        return true;
    if (!img_plane_alloc(&ref, pic.w, pic.h) || !(pic.px = malloc((size_t)pic.w * pic.h * 4))) {
        img_plane_free(&ref);
        return false;
    }
    conv_reference(&s->img.luma, &p, &ref);
    lab_paint(ref.px, l->wrong, l->report.outputs, pic.px);
    rnd_texture_set(&v->lab_pic, &pic);
    free(pic.px);
    img_plane_free(&ref);
    v->lab_for = l->generation;
    return true;
}

/* One line in the column, fitted; y moves down. */
static void line(view *v, const char *text, float x, float *y, float w, rnd_color c)
{
    *y += rnd_text_wrapped(v->small, text, x, *y, w, c, true) + 0.2f * vw_lh(v->small);
}

static void results(view *v, const app *a, float x, float *y, float w)
{
    const lab_report *r = &a->lab.report;
    char buf[512], ms[32], tiled[32], naive[32], bound[32];
    if (!r->compiled) {
        for (int i = 0; i < r->errors; ++i) {
            if (r->error_column[i])
                snprintf(buf, sizeof buf, vw_T(v, "line %d, column %d: %s"), r->error_line[i], r->error_column[i],
                         r->error_text[i]);
            else
                snprintf(buf, sizeof buf, vw_T(v, "line %d: %s"), r->error_line[i], r->error_text[i]);
            line(v, buf, x, y, w, TEXT);
            if (r->error_source[i][0])
                line(v, r->error_source[i], x + v->L.pad, y, w - v->L.pad, DIM); /* the learner's own line */
        }
        return;
    }
    fmt_count((long long)(r->group_w + 2) * (r->group_h + 2), bound, sizeof bound);
    snprintf(buf, sizeof buf,
             vw_T(v, "Global reads of an interior work group of %d\xC3\x97%d: %lld (counted); a tiled kernel's bound "
                     "is its tile's %s cells"),
             r->group_w, r->group_h, r->reads_interior, bound);
    line(v, buf, x, y, w, r->reads_interior <= (r->group_w + 2) * (r->group_h + 2) ? GREEN : WINDOW);
    fmt_ms(r->ms, ms, sizeof ms);
    fmt_ms(r->tiled_ms, tiled, sizeof tiled);
    fmt_ms(r->naive_ms, naive, sizeof naive);
    snprintf(buf, sizeof buf,
             vw_T(v, "Time of the kernel: %s; convis's tiled kernel %s, its naive one %s (each the median of 3 runs, "
                     "measured on %s)"),
             ms, tiled, naive, r->renderer);
    line(v, buf, x, y, w, DIM);
}

void vw_draw_lab(view *v, const app *a, rect box)
{
    const app_lab *l = &a->lab;
    float pw = floorf(box.w * 0.5f), x = box.x + pw + v->L.pad, w = box.w - pw - v->L.pad, y = box.y;
    char buf[1024];
    rnd_color c;
    rect r = {box.x, box.y, pw, box.h};
    bool asking = app_quiz_open_ask(a) != NULL; /* a question asks what the check says: it waits for the answer */
    if (!asking && picture(v, a)) {
        rect fit = vw_thumb_fit(&a->s, r);
        rnd_image(&v->lab_pic, fit.x, fit.y, fit.w, fit.h, WHITE, false);
        rnd_frame(fit.x - 1, fit.y - 1, fit.w + 2, fit.h + 2, 1, DIM);
    }
    vw_text_fit(v, v->font, vw_T(v, "The kernel lab"), x, y, w, TEXT);
    y += v->L.line;
    line(v, l->path[0] ? l->path : vw_T(v, "(no kernel file)"), x, &y, w, DIM);
    app_lab_status(a, buf, sizeof buf);
    c = l->running ? DIM : !l->has_report ? WINDOW : !l->report.compiled || l->report.wrong ? WINDOW : GREEN;
    if (asking && l->has_report && !l->running)
        line(v, vw_T(v, "Checked: what the lab found waits until you have answered the question"), x, &y, w, DIM);
    else
        line(v, buf, x, &y, w, c);
    if (!asking && l->has_report && !l->running && (l->report.ran || !l->report.compiled))
        results(v, a, x, &y, w);
    if (l->note[0])
        line(v, l->note, x, &y, w, FAINT);
    line(v,
         vw_T(v, "Edit the file in any editor and save it: convis compiles it, runs it on this image and filter, and "
                 "checks every output. Read with lab_in(x, y), write with lab_out(x, y, v). Shift+L: close."),
         x, &y, w, FAINT);
}
