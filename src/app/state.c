/* state.c - the app's state as key=value lines: what --print-state prints
 * and what tests compare. The scene's core and the app print theirs here;
 * each feature of the scene prints its own (scene_print_state). */
#include "state.h"

#include <stdio.h>

#include "narration.h"
#include "quiz.h"
#include "scene.h"

/* The scene's core: the phase, what is shown, the image and the settings,
 * the region and the output looked at. */
static void print_core(const scene *s, FILE *f)
{
    int fx, fy;
    bool from_stepper;
    char title[320];
    scene_focus(s, &fx, &fy, &from_stepper);
    scene_title(s, title, sizeof title);
    fprintf(f, "phase=%s\n", s->phase == SCENE_PHASE_GPU ? "gpu" : "cpu");
    fprintf(f, "area=%s\nchart=%s\n", scene_area_name(s->area), s->chart == SCENE_CHART_CHAIN ? "chain" : "timing");
    fprintf(f, "image=%s\nwidth=%d\nheight=%d\n", title, s->img.luma.w, s->img.luma.h);
    fprintf(f, "filter=%s\nborder=%s\nflip=%d\ndisplay=%s\n", s->opt.kernel.name, conv_border_name(s->opt.border),
            s->opt.flip, img_display_name(s->opt.display));
    fprintf(f, "filter_size=%dx%d\nweights=", s->opt.kernel.kw, s->opt.kernel.kh);
    for (int t = 0, n = s->opt.kernel.kw * s->opt.kernel.kh; t < n; ++t)
        fprintf(f, "%g%s", (double)s->opt.kernel.weight[t], t < n - 1 ? "," : "\n");
    fprintf(f, "thread_view=%d\nview_x=%d\nview_y=%d\nview_cells=%d\n", s->thread_view, s->view_x, s->view_y,
            s->view_cells);
    fprintf(f, "focus_x=%d\nfocus_y=%d\nhovering=%d\npinned=%d\n", fx, fy, s->hovering, s->pinned);
    fprintf(f, "passes=%d\nbusy=%d\n", s->passes, scene_busy(s));
}

void app_print_state(const app *a, FILE *f)
{
    const scene *s = &a->s;
    print_core(s, f);
    scene_print_state(s, f);
    fprintf(f, "menu=%d\nlessons_found=%d\nlang=%s\n", a->menu, a->lesson_count, app_lang(a));
    if (app_in_lesson(a)) {
        char hint[256];
        app_hint(a, hint, sizeof hint);
        fprintf(f, "lesson=%s\nlesson_step=%d\nlesson_steps=%d\nlesson_waiting=%d\nhint=%s\n", a->lesson_path,
                a->player.step + 1, a->player.lesson.step_count, a->player.waiting, hint);
    }
    fprintf(f, "help=%d\nblank=%d\ntext_scale=%d\npresenter=%d\nedit_tap=%d\n", a->help, a->blank, a->text_scale,
            a->presenter, a->edit_tap);
    fprintf(f, "banner=%s\nnotice=%s\n", s->banner, s->notice);
}
