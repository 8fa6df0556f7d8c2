/* large.c - the whole input and output, large, side by side (I): the
 * picture a teacher shows the class, at the image's aspect, as large as the
 * grids' place allows. The output under the mouse (or pinned, or the walk's
 * current one) has its 3x3 field marked on both pictures, the same spot, and
 * its nine values and sum in the arithmetic panel beside them. */
#include "view_internal.h"

#include <math.h>
#include <stdio.h>

/* Where the two pictures go, side by side in L->sweep's place. */
static void large_boxes(const view *v, const scene *s, rect *in, rect *out)
{
    const layout *L = &v->L;
    rect box = L->sweep;
    float label = vw_lh(v->small) + 0.4f * L->pad;
    float panel_w = fminf(box.w * 0.27f, 330.0f * L->u);
    float each = (box.w - panel_w - 2.0f * L->pad) / 2.0f;
    *in = vw_thumb_fit(s, (rect){box.x, box.y + label, each, box.h - label});
    *out = vw_thumb_fit(s, (rect){box.x + each + L->pad, box.y + label, each, box.h - label});
}

/* The 3x3 field of output (fx, fy) over picture r, at least 9 pixels wide
 * so that it shows on a large image. */
static void mark_field(const scene *s, rect r, int fx, int fy, rnd_color c)
{
    float k = r.w / (float)s->img.luma.w, size = fmaxf(9.0f, 3.0f * k);
    float cx = r.x + ((float)fx + 0.5f) * k, cy = r.y + ((float)fy + 0.5f) * k;
    rnd_clip(r.x - 2, r.y - 2, r.w + 4, r.h + 4);
    rnd_frame(cx - size / 2 - 1, cy - size / 2 - 1, size + 2, size + 2, 1, BLACK);
    rnd_frame(cx - size / 2, cy - size / 2, size, size, 2, c);
    rnd_clip(0, 0, 0, 0);
}

void vw_draw_large(view *v, const app *a)
{
    const scene *s = &a->s;
    layout *L = &v->L;
    rect in, out;
    int fx, fy;
    bool from_stepper;
    char buf[256];
    float panel_x;

    large_boxes(v, s, &in, &out);
    snprintf(buf, sizeof buf, "%s (%d\xC3\x97%d)", vw_T(v, "Input, the whole image"), s->img.luma.w, s->img.luma.h);
    vw_text_fit(v, v->small, buf, in.x, in.y - vw_lh(v->small) - 0.3f * L->pad, in.w, BLUE);
    snprintf(buf, sizeof buf, "%s (%s)", vw_T(v, "Output"),
             vw_T(v, s->phase == SCENE_PHASE_GPU ? vw_gpu_grid_title(s) : N_("one at a time, on the CPU")));
    vw_text_fit(v, v->small, buf, out.x, out.y - vw_lh(v->small) - 0.3f * L->pad, out.w, GREEN);
    vw_draw_picture(v, s, 0, in);
    vw_draw_picture(v, s, 1, out);
    /* the pointer over either picture looks at that output; a click pins it */
    for (int i = 0; i < 2; ++i)
        vw_click_add(v, (vw_click){.r = i ? out : in,
                                   .action = app_action_of(ACT_PIN),
                                   .map = VW_MAP_PIXEL,
                                   .cols = s->img.luma.w,
                                   .rows = s->img.luma.h,
                                   .hovers = true});

    scene_focus(s, &fx, &fy, &from_stepper);
    mark_field(s, in, fx, fy, from_stepper ? WINDOW : HOVER);
    mark_field(s, out, fx, fy, from_stepper ? WINDOW : HOVER);

    /* the arithmetic of that output, beside the pictures, and under it (at
     * the place's foot) how the pictures answer the mouse */
    panel_x = out.x + out.w + L->pad;
    {
        const char *hint = vw_T(v, "The mouse over either picture marks the same spot on both; a click pins it. "
                                   "I or Esc: back to the grids.");
        float w = L->sweep.x + L->sweep.w - panel_x, top = L->sweep.y + vw_lh(v->small) + 0.4f * L->pad;
        float hint_h = rnd_text_wrapped(v->small, hint, 0, 0, w, DIM, false);
        float bottom = L->sweep.y + L->sweep.h - hint_h;
        L->arith = (rect){panel_x, top, w, fminf(L->sweep.h * 0.6f, bottom - L->pad - top)};
        float under = fmaxf(L->arith.y + L->arith.h, vw_draw_arithmetic(v, s)); /* the sum's line may run past */
        rnd_text_wrapped(v->small, hint, panel_x, fmaxf(under + L->pad, top), w, DIM, true);
    }
}
