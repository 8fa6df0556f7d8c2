/* quiz_facts.c - the facts a lesson's question is checked against
 * (lsn_facts in lesson/question.c names them), each computed from the scene
 * when the answer comes: counted from its settings, or read from what it
 * measured on this machine. */
#include "quiz.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compute/kernel_any.h"
#include "core/err.h"
#include "core/separable.h"
#include "format.h"
#include "i18n.h"
#include "kernel_lab.h"

static void number(app_fact *f, long long v)
{
    f->known = true;
    f->number = (double)v;
    fmt_count(v, f->said, sizeof f->said);
}

static void choice(app_fact *f, const char *key, const char *words)
{
    f->known = true;
    snprintf(f->choice, sizeof f->choice, "%s", key);
    snprintf(f->said, sizeof f->said, "%s", words);
}

static void not_yet(app_fact *f, const char *why, bool never)
{
    f->known = false;
    f->never = never;
    snprintf(f->said, sizeof f->said, "%s", why);
}

/* One interior block of the GPU's block shape, counted for the filter shown. */
static bool block(const app *a, kwa_block *b, app_fact *f)
{
    int bx, by;
    scene_block_size(&a->s, &bx, &by);
    if (kwa_count(a->s.opt.kernel.kw, a->s.opt.kernel.kh, bx, by, b))
        return true;
    not_yet(f, err_msg(), true);
    return false;
}

/* x against y by the one rule of comparison: faster, slower or the same. */
static void compare(const scene_engine *x, const scene_engine *y, app_fact *f)
{
    eng_verdict v;
    if (!x->engine)
        return not_yet(f, x->why[0] ? x->why : _("no GPU engine here"), true);
    if (!x->measured || !y->measured)
        return not_yet(f, _("not measured yet"), false);
    v = eng_compare_timings(&x->timing, &y->timing);
    if (v.kind == ENG_UNSURE)
        return not_yet(f, _("too few runs to tell which was faster"), false);
    fmt_compare(scene_engine_label(x), &x->timing, scene_engine_label(y), &y->timing, f->said, sizeof f->said);
    snprintf(f->choice, sizeof f->choice, "%s", v.kind == ENG_FASTER ? "faster" : v.kind == ENG_SLOWER ? "slower" : "same");
    f->known = true;
}

static void chain_fact(const app *a, app_fact *f)
{
    const chain_state *c = &a->s.chain;
    eng_verdict v;
    if (!a->s.gpu.eng.engine)
        return not_yet(f, _("no GPU engine here"), true);
    if (c->chained_runs[1].runs < 1 || c->independent_runs[1].runs < 1)
        return not_yet(f, _("the chain has not been measured (X)"), false);
    v = eng_verdict_of(c->chained_runs[1], c->independent_runs[1]);
    if (v.kind == ENG_UNSURE)
        return not_yet(f, _("too few runs to tell which was faster"), false);
    scene_chain_wait_text(&a->s, 1, FMT_SENTENCE, f->said, sizeof f->said);
    snprintf(f->choice, sizeof f->choice, "%s", v.kind == ENG_FASTER ? "faster" : v.kind == ENG_SLOWER ? "slower" : "same");
    f->known = true;
}

static void race_fact(const app *a, app_fact *f)
{
    const scene_inside *in = &a->s.inside;
    long long worst = 0;
    if (!in->gpu_runs)
        return not_yet(f, in->gpu_why[0] ? in->gpu_why : _("the kernel has not run without its barrier yet (O)"),
                       !a->s.gpu.eng.engine);
    for (int i = 0; i < in->gpu_runs; ++i)
        worst = in->gpu_wrong[i] > worst ? in->gpu_wrong[i] : worst;
    scene_race_summary(&a->s, f->said, sizeof f->said);
    snprintf(f->choice, sizeof f->choice, "%s", worst > 0 ? "yes" : "no");
    f->known = true;
}

static void yes_no(app_fact *f, bool yes, const char *words)
{
    choice(f, yes ? "yes" : "no", words);
}

/* The lab's last check of the learner's kernel: right or not, its wrong
 * outputs, an interior work group's reads. */
static void lab_fact(const app *a, const char *fact, app_fact *f)
{
    const lab_report *r = &a->lab.report;
    char why[256];
    bool never;
    if (!app_lab_checked(a, why, sizeof why, &never))
        return not_yet(f, why, never);
    if (!strcmp(fact, "lab_right"))
        yes_no(f, r->wrong == 0, r->wrong == 0 ? _("yes: every output is right") : _("no: some outputs are wrong"));
    else
        number(f, !strcmp(fact, "lab_wrong") ? r->wrong : r->reads_interior);
}

/* The facts counted from the settings. False when `fact` is none of them. */
static bool counted(const app *a, const char *fact, app_fact *f)
{
    const scene *s = &a->s;
    const filt_kernel *k = &s->opt.kernel;
    long gx, gy;
    int bx, by;
    kwa_block b;
    scene_gpu_grid(s, &gx, &gy, &bx, &by);
    if (!strcmp(fact, "outputs"))
        number(f, (long long)s->img.luma.w * s->img.luma.h);
    else if (!strcmp(fact, "taps"))
        number(f, (long long)k->kw * k->kh);
    else if (!strcmp(fact, "threads"))
        number(f, (long long)gx * gy * bx * by);
    else if (!strcmp(fact, "blocks"))
        number(f, (long long)gx * gy);
    else if (!strcmp(fact, "block_threads"))
        number(f, (long long)bx * by);
    else if (!strcmp(fact, "separable_taps"))
        number(f, (long long)k->kw + k->kh);
    else if (!strcmp(fact, "image_kib"))
        number(f, (scene_image_bytes(s) + 512) / 1024);
    else if (!strcmp(fact, "tile_cells") || !strcmp(fact, "halo_cells") || !strcmp(fact, "naive_loads") ||
             !strcmp(fact, "tiled_loads")) {
        if (!block(a, &b, f))
            return true;
        number(f, !strcmp(fact, "tile_cells")    ? b.tile_cells
                  : !strcmp(fact, "halo_cells")  ? b.halo_cells
                  : !strcmp(fact, "naive_loads") ? b.naive.loads
                                                 : b.tiled.loads);
    } else if (!strcmp(fact, "unrolled_copies") || !strcmp(fact, "layer_products")) {
        const layer_filters *l = &s->channels.f;
        if (!l->w)
            not_yet(f, _("no layer is open (Shift+C)"), false);
        else
            number(f, !strcmp(fact, "unrolled_copies") ? (long long)l->k * l->k : (long long)l->c_in * l->k * l->k);
    } else
        return false;
    return true;
}

void app_fact_value(const app *a, const char *fact, app_fact *f)
{
    const scene *s = &a->s;
    memset(f, 0, sizeof *f);
    if (!fact || counted(a, fact, f))
        return;
    if (!strcmp(fact, "cpu_threads")) {
        const scene_engine *par = &s->cpu[SCENE_CPU_PAR];
        if (!par->measured || par->timing.threads < 1)
            not_yet(f, _("not measured yet"), false);
        else
            number(f, par->timing.threads);
    } else if (!strcmp(fact, "gpu_vs_par"))
        compare(&s->gpu.eng, &s->cpu[SCENE_CPU_PAR], f);
    else if (!strcmp(fact, "par_vs_seq"))
        compare(&s->cpu[SCENE_CPU_PAR], &s->cpu[SCENE_CPU_SEQ], f);
    else if (!strcmp(fact, "simd_vs_seq"))
        compare(&s->cpu[SCENE_CPU_SIMD], &s->cpu[SCENE_CPU_SEQ], f);
    else if (!strcmp(fact, "tiles_vs_whole")) {
        eng_verdict v;
        if (!s->tiles.on || !s->gpu.eng.measured || !s->gpu.whole_known)
            return not_yet(f, _("no run in one piece and one in tiles of this image to compare"), !s->gpu.eng.engine);
        v = eng_compare_timings(&s->gpu.eng.timing, &s->gpu.whole);
        if (v.kind == ENG_UNSURE)
            return not_yet(f, _("too few runs to tell which was faster"), false);
        scene_tiles_vs_whole(s, f->said, sizeof f->said);
        snprintf(f->choice, sizeof f->choice, "%s",
                 v.kind == ENG_FASTER ? "faster" : v.kind == ENG_SLOWER ? "slower" : "same");
        f->known = true;
    } else if (!strcmp(fact, "chain_vs_independent"))
        chain_fact(a, f);
    else if (!strcmp(fact, "race_seen"))
        race_fact(a, f);
    else if (!strncmp(fact, "lab_", 4))
        lab_fact(a, fact, f);
    else if (!strcmp(fact, "separable")) {
        conv_params p = app_options_params(&s->opt);
        sep_factors sf;
        bool yes = sep_factor(&p, &sf);
        yes_no(f, yes, yes ? _("yes: it is a column times a row") : _("no: it is no column times a row"));
    } else if (!strcmp(fact, "fits_budget")) {
        bool yes = !scene_needs_tiles(s);
        yes_no(f, yes, yes ? _("yes: it fits in one piece") : _("no: it goes in tiles"));
    } else
        not_yet(f, _("convis knows no such fact"), true);
}

/* ---- cells to click --------------------------------------------------------------- */

bool app_fact_on_output(const char *fact)
{
    return fact && !strcmp(fact, "same_block");
}

void app_quiz_focus(const app *a, int *x, int *y)
{
    const scene *s = &a->s;
    if (s->pinned) {
        *x = s->hover_x;
        *y = s->hover_y;
    } else {
        *x = conv_stepper_x(&s->walk.stepper);
        *y = conv_stepper_y(&s->walk.stepper);
    }
}

bool app_fact_click(const app *a, const char *fact, int x, int y, app_fact *f)
{
    const filt_kernel *k = &a->s.opt.kernel;
    int ox, oy, x0, y0, bx, by;
    memset(f, 0, sizeof *f);
    app_quiz_focus(a, &ox, &oy);
    f->known = true;
    x0 = ox - k->kw / 2;
    y0 = oy - k->kh / 2;
    if (fact && !strcmp(fact, "window")) {
        snprintf(f->said, sizeof f->said, _("any of the %d cells from (%d, %d) to (%d, %d)"), k->kw * k->kh, x0, y0,
                 x0 + k->kw - 1, y0 + k->kh - 1);
        return x >= x0 && y >= y0 && x < x0 + k->kw && y < y0 + k->kh;
    }
    if (fact && !strcmp(fact, "window_corner")) {
        if (x0 < 0 || y0 < 0) { /* on the border ring, which no click reaches */
            not_yet(f, _("the window's corner is outside the image here"), true);
            return false;
        }
        snprintf(f->said, sizeof f->said, "(%d, %d)", x0, y0);
        return x == x0 && y == y0;
    }
    if (fact && !strcmp(fact, "same_block")) {
        scene_block_size(&a->s, &bx, &by);
        snprintf(f->said, sizeof f->said, _("any other output from (%d, %d) to (%d, %d), one %d\xC3\x97%d block"),
                 ox / bx * bx, oy / by * by, ox / bx * bx + bx - 1, oy / by * by + by - 1, bx, by);
        return x / bx == ox / bx && y / by == oy / by && !(x == ox && y == oy);
    }
    not_yet(f, _("convis knows no such fact"), true);
    return false;
}
