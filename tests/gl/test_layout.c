/* test_layout: the window's text at every size and text scale in both
 * languages: no two runs of text overlap (on one layer), none leaves the
 * window, none is dropped. In one process with one offscreen GL context:
 * each state (the first screen, the GPU phase, the sweep, the inside view,
 * a lesson's step...) is made once in each language and its measurements
 * settled once, then drawn at 1280x720 and 1920x1080 at normal and 200%
 * text (the first screen and those with a notice at 1024x768 too, the GPU
 * phase at 3840x2160) and
 * in presenter mode at 1024x768 and 1920x1080; and
 * every place to click the frame lists, hit at its middle, gives its own
 * action.
 *
 * With --dump, the same in one process for test_pseudo.sh: every kind of
 * screen at 1280x720 in language LANG, the text of each written as
 * --print-state writes it (text=x,y,w,h,layer,text) to DIR/NN.state.
 * Usage: test_layout LESSONS_DIR                  (under with_display.sh)
 *        test_layout --dump DIR LANG LESSON_FILE */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "app.h"
#include "core/err.h"
#include "data.h"
#include "format.h"
#include "frame.h"
#include "i18n.h"
#include "platform/platform.h"
#include "render/render.h"
#include "render/text.h"
#include "settings.h"
#include "layout_checks.h"

static int passed, failed;

/* Draws the app at w x h with its text recorded, and checks the text and
 * the places to click. */
static void draw_and_check(app_window *win, const char *name, int w, int h)
{
    int runs, bad;
    rnd_text_record(true);
    view_draw(win->view, &win->app, w, h);
    rnd_text_record(false);
    rnd_finish();
    char what[160];
    snprintf(what, sizeof what, "%s %dx%d %s %d%%%s", name, w, h, app_lang(&win->app), win->app.text_scale,
             win->app.presenter ? " presenter" : "");
    bad = check_boxes(what, w, h, &runs) + check_targets(what, win->view);
    if (bad == 0 && runs > 10) {
        printf("ok - %s %dx%d %s %d%%%s: %d runs of text, none overlapping, none outside; its targets hit\n", name, w,
               h, app_lang(&win->app), win->app.text_scale, win->app.presenter ? " presenter" : "", runs);
        ++passed;
    } else {
        printf("not ok - %s %dx%d %s %d%%: %d problems among %d runs of text\n", name, w, h, app_lang(&win->app),
               win->app.text_scale, bad, runs);
        ++failed;
    }
}

/* A text scale of the app, through its action (100 -> 125 -> 150 -> 200). */
static void text_scale(app *a, int percent)
{
    for (int i = 0; i < 4 && a->text_scale != percent; ++i)
        app_do(a, app_act_id(ACT_TEXT_SIZE));
}

typedef struct shot {
    const char *name;
    const char *script; /* --do's words ("" none) */
    const char *lesson; /* a lesson of the language's folder, or NULL */
    bool no_gpu;        /* on a machine without a GPU engine (lc_app_start_no_gpu) */
    bool notices;       /* its notice kept while it is drawn (the window's clock stopped), and drawn at 1024x768 too */
    const char *kernel; /* -k's filter (NULL: the default) */
} shot;

static const shot shots[] = {
    {"first screen", "", NULL, false, false, NULL},
    {"GPU phase", "gpu", NULL, false, false, NULL},
    {"thread view", "zoom-out,gpu,threads", NULL, false, false, NULL},
    {"size sweep", "sweep", NULL, false, false, NULL},
    {"filter sweep and its roofline", "filter-sweep", NULL, false, false, NULL},
    {"geometry view: stride 2, dilation 2", "stride,dilation", NULL, false, false, NULL},
    {"geometry view: a window too wide to draw", "dilation*2", NULL, false, false, "box:7"},
    {"chain", "chain", NULL, false, false, NULL},
    {"channels view: the filter on each channel", "channels", NULL, false, false, NULL},
    {"channels view: edges, four filters", "channels*2", NULL, false, false, NULL},
    {"channels view: a 7x7 filter, 147 rows", "channels", NULL, false, false, "box:7"},
    {"large picture", "large-view", NULL, false, false, NULL},
    {"inside the GPU", "block-life", NULL, false, false, NULL},
    {"no barrier, 24x24", "block-life*4,block-shape*4", NULL, false, false, NULL},
    {"help", "help", NULL, false, false, NULL},
    {"lesson menu", "lessons", NULL, false, false, NULL},
    {"a lesson's step", "gpu,lesson-next", "02-all-at-once.yaml", false, false, NULL},
    /* the banner and a notice together, each whole, neither over the chips */
    {"too big for the GPU, G", "gpu,too-big,memory-budget-off,gpu", NULL, false, true, NULL},
    /* no GPU engine: G's notice says why in two lines, the step's chip under it */
    {"no GPU engine, a lesson's step", "lesson-next*3", "08-your-own-image.yaml", true, true, NULL},
    /* filters of other sizes: their window, cells, products, and the GPU engine's and inside view's sentences */
    {"box:7, the walk partway", "step*45,tap*20", NULL, false, true, "box:7"},
    {"gaussian:1.5 (11x11), the walk partway", "step*45,tap*30", NULL, false, true, "gaussian:1.5"},
    {"gaussian:1.5 (11x11), G", "gpu", NULL, false, true, "gaussian:1.5"},
    {"box:7, inside the GPU", "block-life", NULL, false, true, "box:7"},
    {"motion:9, thread view", "step*3,tap*4,threads", NULL, false, true, "motion:9"},
};

/* Every kind of screen, for the pseudo-language (its lesson given apart). */
static const shot screens[] = {
    {"first screen", "", NULL, false, false, NULL},
    {"the CPU walk partway", "step*45,tap*4", NULL, false, false, NULL},
    {"GPU phase", "gpu", NULL, false, false, NULL},
    {"thread view", "zoom-out,gpu,threads", NULL, false, false, NULL},
    {"GPU in tiles", "memory-budget,gpu", NULL, false, false, NULL},
    {"size sweep", "sweep", NULL, false, false, NULL},
    {"dependent passes", "chain", NULL, false, false, NULL},
    {"geometry view", "stride,padding*2", NULL, false, false, NULL},
    {"channels view", "channels*3", NULL, false, false, NULL},
    {"a second pass", "gpu,apply-again", NULL, false, false, NULL},
    {"too big for the GPU", "too-big", NULL, false, false, NULL},
    {"large picture", "large-view", NULL, false, false, NULL},
    {"inside the GPU, load", "block-life", NULL, false, false, NULL},
    {"inside the GPU, compute", "block-life*3,block-warp", NULL, false, false, NULL},
    {"inside the GPU, no barrier", "block-life*4,block-shape*4", NULL, false, false, NULL},
    {"help", "help", NULL, false, false, NULL},
    {"lesson menu", "lessons", NULL, false, false, NULL},
    {"a lesson's step", "gpu,lesson-next", "", false, false, NULL},
};

/* The app of one state in one language, its work settled and its
 * animations played out; false when it could not be made. A lesson is
 * LESSONS/LANG/FILE, or `lessons` itself when the shot's lesson is "". */
static bool make_state(app_window *win, const shot *sh, const char *lang, const char *lessons)
{
    char path[4096];
    if (sh->lesson && sh->lesson[0])
        snprintf(path, sizeof path, "%s/%s/%s", lessons, lang, sh->lesson);
    else
        snprintf(path, sizeof path, "%s", lessons);
    if (!(sh->no_gpu ? lc_app_start_no_gpu(win, lang, sh->lesson ? path : NULL)
                     : lc_app_start(win, lang, sh->lesson ? path : NULL, sh->kernel)))
        return false;
    win->clock_virtual = sh->notices; /* the clock stands still: a notice stays */
    win->clock_ms = 0;
    if (sh->script[0] && !app_run_script(&win->app, sh->script))
        return false;
    scene_settle(&win->app.s);
    scene_play_out(&win->app.s);
    return true;
}

/* Values too long for their cells: a filter of thousands makes outputs of
 * six digits and more, which the cells show abbreviated (234k), at no less
 * than the least digits, none running into another. */
static void check_long_values(app_window *win)
{
    const rnd_text_box *b;
    int runs, dropped, n, abbreviated = 0, small = 0, bad;
    if (!lc_app_start(win, "en", NULL, "1000 1000 1000; 1000 1000 1000; 1000 1000 1000") ||
        !app_run_script(&win->app, "step*40")) {
        printf("not ok - long values: %s\n", err_msg());
        ++failed;
        return;
    }
    scene_settle(&win->app.s);
    rnd_text_record(true);
    view_draw(win->view, &win->app, 1280, 720);
    rnd_text_record(false);
    rnd_finish();
    bad = check_boxes("long values 1280x720", 1280, 720, &runs);
    n = rnd_text_boxes(&b, &dropped);
    for (int i = 0; i < n; ++i)
        if (b[i].role == VIEW_TEXT_VALUE) {
            size_t len = strlen(b[i].text);
            abbreviated += len > 0 && b[i].text[len - 1] == 'k';
            small += b[i].px < 11;
        }
    if (bad == 0 && abbreviated >= 9 && small == 0) {
        printf("ok - long values: %d outputs shown abbreviated (k), none under 11 px, none overlapping\n", abbreviated);
        ++passed;
    } else {
        printf("not ok - long values: %d abbreviated, %d under 11 px, %d problems of the text\n", abbreviated, small,
               bad);
        ++failed;
    }
    app_free(&win->app);
    win->app_ready = false;
}

/* --dump: each kind of screen's text, in files. */
static int dump(app_window *win, const char *dir, const char *lang, const char *lesson)
{
    int made = 0;
    for (size_t i = 0; i < sizeof screens / sizeof screens[0]; ++i) {
        char path[4096];
        const rnd_text_box *b;
        int dropped, n;
        FILE *f;
        if (!make_state(win, &screens[i], lang, lesson)) {
            fprintf(stderr, "test_layout: %s: %s\n", screens[i].name, err_msg());
            app_free(&win->app);
            return 1;
        }
        rnd_text_record(true);
        view_draw(win->view, &win->app, 1280, 720);
        rnd_text_record(false);
        rnd_finish();
        n = rnd_text_boxes(&b, &dropped);
        snprintf(path, sizeof path, "%s/%02zu.state", dir, i);
        f = fopen(path, "w");
        if (!f) {
            perror(path);
            app_free(&win->app);
            return 1;
        }
        fprintf(f, "name=%s\ntext_dropped=%d\n", screens[i].name, dropped);
        for (int k = 0; k < n; ++k)
            fprintf(f, "text=%d,%d,%d,%d,%d,%s\n", (int)b[k].x, (int)b[k].y, (int)(b[k].w + 0.5f), (int)(b[k].h + 0.5f),
                    b[k].layer, b[k].text);
        made += fclose(f) == 0;
        app_free(&win->app);
        win->app_ready = false;
    }
    return made == (int)(sizeof screens / sizeof screens[0]) ? 0 : 1;
}

/* The chain's panel says what each bar is: per engine a "chained" and an
 * "independent" bar, and under them the one rule's verdict of the two for
 * each engine that measured both, in either language. */
static void check_chain_labels(app_window *win, const char *lang)
{
    const rnd_text_box *b;
    int dropped, n, chained = 0, independent = 0, verdicts = 0, want_verdicts = 0;
    if (!lc_app_start(win, lang, NULL, NULL) || !app_run_script(&win->app, "chain")) {
        printf("not ok - the chain's labels %s: %s\n", lang, err_msg());
        ++failed;
        return;
    }
    scene_settle(&win->app.s);
    rnd_text_record(true);
    view_draw(win->view, &win->app, 1024, 768);
    rnd_text_record(false);
    rnd_finish();
    n = rnd_text_boxes(&b, &dropped);
    for (int i = 0; i < n; ++i) {
        chained += strcmp(b[i].text, _("chained")) == 0;
        independent += strcmp(b[i].text, _("independent")) == 0;
    }
    for (int e = 0; e < SCENE_CHAIN_ENGINES; ++e) {
        char v[256];
        if (!win->app.s.chain.chained_runs[e].runs || !win->app.s.chain.independent_runs[e].runs)
            continue;
        ++want_verdicts;
        scene_chain_wait_text(&win->app.s, e, FMT_SHORT, v, sizeof v);
        for (int i = 0; i < n; ++i)
            if (b[i].text[0] && strncmp(v, b[i].text, strlen(b[i].text)) == 0) { /* its first line */
                ++verdicts;
                break;
            }
    }
    if (chained == SCENE_CHAIN_ENGINES && independent == SCENE_CHAIN_ENGINES && want_verdicts >= 1 &&
        verdicts == want_verdicts) {
        printf("ok - the chain's panel %s: a chained and an independent bar for each engine, %d verdicts\n", lang,
               verdicts);
        ++passed;
    } else {
        printf("not ok - the chain's panel %s: %d chained and %d independent labels, %d of %d verdicts\n", lang,
               chained, independent, verdicts, want_verdicts);
        ++failed;
    }
    app_free(&win->app);
    win->app_ready = false;
}

/* An image too large for the GPU in one piece, G with no budget: refused
 * before it runs, the banner giving the device's limit in full with
 * thousands separators, the chart's GPU row saying it did not fit; and in
 * presenter mode at 1024x768, where the banner and the notice are cut to a
 * line each, their whole text under the pointer. Where every image convis
 * opens fits this GPU (too-big says so), there is nothing to refuse. */
static void check_unfit(app_window *win, const char *lang)
{
    const rnd_text_box *b;
    view_cut cut[64];
    eng_device_info d;
    char limit[32];
    int dropped, n, said = 0, ncut, untipped = 0, banner_tip = 0;
    const scene *s = &win->app.s;
    win->clock_virtual = true, win->clock_ms = 0;
    if (!lc_app_start(win, lang, NULL, NULL) || !app_run_script(&win->app, "gpu,too-big,memory-budget-off,gpu")) {
        printf("not ok - the image too large for the GPU %s: %s\n", lang, err_msg());
        ++failed;
        goto done;
    }
    scene_settle(&win->app.s);
    if (!s->gpu.eng.engine || !eng_device(s->gpu.eng.engine, &d) ||
        s->img.luma.w * (long long)s->img.luma.h <= 512 * 384) {
        printf("ok - the image too large for the GPU %s: every image convis opens fits this one\n", lang);
        ++passed;
        goto done;
    }
    fmt_count(d.max_buffer > 0 && 4LL * s->img.luma.w * s->img.luma.h > d.max_buffer ? d.max_buffer
                                                                                     : d.memory_free + d.memory_engine,
              limit, sizeof limit);
    rnd_text_record(true);
    view_draw(win->view, &win->app, 1280, 720);
    rnd_text_record(false);
    rnd_finish();
    n = rnd_text_boxes(&b, &dropped);
    for (int i = 0; i < n; ++i)
        said += strcmp(b[i].text, _("did not fit in one piece")) == 0;
    app_do(&win->app, app_act_id(ACT_PRESENTER));
    rnd_text_record(true);
    view_draw(win->view, &win->app, 1024, 768);
    rnd_text_record(false);
    rnd_finish();
    ncut = view_cut_texts(win->view, cut, 64);
    n = rnd_text_boxes(&b, &dropped);
    for (int i = 0; i < n; ++i) { /* a run cut with an ellipsis has its whole text under the pointer */
        size_t len = strlen(b[i].text);
        bool tip = false;
        if (len < 3 || strcmp(b[i].text + len - 3, "\xE2\x80\xA6") != 0 ||
            strcmp(b[i].text, _("measuring\xE2\x80\xA6")) == 0)
            continue;
        for (int k = 0; k < ncut && !tip; ++k)
            tip = b[i].x >= (float)cut[k].x - 2 && b[i].y >= (float)cut[k].y - 2 &&
                  b[i].x < (float)(cut[k].x + cut[k].w) && b[i].y < (float)(cut[k].y + cut[k].h);
        untipped += !tip;
    }
    for (int k = 0; k < ncut; ++k)
        banner_tip += strstr(cut[k].text, s->banner) != NULL;
    if (scene_gpu_unfit(s) && strstr(s->banner, limit) && strchr(limit, ',') && said == 1 && untipped == 0) {
        printf("ok - the image too large for the GPU %s: refused, the banner says %s, the row it did not fit; "
               "in presenter mode at 1024x768 %s\n",
               lang, limit, banner_tip ? "the banner cut, its whole text under the pointer" : "the banner whole");
        ++passed;
    } else {
        printf("not ok - the image too large for the GPU %s: refused %d, banner \"%s\" (the limit %s), the row "
               "%d, %d runs cut with no tooltip\n",
               lang, scene_gpu_unfit(s), s->banner, limit, said, untipped);
        ++failed;
    }
done:
    app_free(&win->app);
    win->app_ready = false;
    win->clock_virtual = false;
}

/* The grids' frames go round the cells that hold the image: a 16x16 image
 * zoomed out leaves part of the grids' places empty, the frames not round
 * it. */
static void check_small_image_frames(app_window *win)
{
    float in[4], out[4], cell;
    int x, y, n, fit, shown_w, shown_h;
    char path[4096];
    snprintf(path, sizeof path, "%s/assets/tiny.png", app_data_dir());
    if (!lc_app_start(win, "en", NULL, NULL) || !scene_open_image(&win->app.s, path) ||
        !app_run_script(&win->app, "zoom-out,zoom-out")) {
        printf("not ok - small image's frames: %s\n", err_msg());
        ++failed;
        return;
    }
    scene_settle(&win->app.s);
    view_draw(win->view, &win->app, 1280, 720);
    rnd_finish();
    view_grid_cells(win->view, &x, &y, &n, &fit);
    view_grid_frames(win->view, &win->app, in, out, &cell);
    shown_w = n < 16 - x ? n : 16 - x, shown_h = n < 16 - y ? n : 16 - y;
    if (n > 16 && fabsf(in[2] - (float)shown_w * cell) < 0.5f && fabsf(in[3] - (float)shown_h * cell) < 0.5f &&
        fabsf(out[2] - in[2]) < 0.5f && fabsf(out[3] - in[3]) < 0.5f) {
        printf("ok - a 16x16 image in grids of %d cells: its frames go round its %dx%d cells\n", n, shown_w, shown_h);
        ++passed;
    } else {
        printf("not ok - 16x16 image, grids of %d cells of %.1f px: frames %.1fx%.1f and %.1fx%.1f\n", n, cell, in[2],
               in[3], out[2], out[3]);
        ++failed;
    }
    app_free(&win->app);
    win->app_ready = false;
}

/* A chart bar ends between its whisker's ends, on either scale: its phases
 * (each its runs' median) share the bar, the median run's total sets its
 * length. Here the phases' medians add up to less than the fastest run. */
static void check_bar_in_whisker(void)
{
    eng_timing t;
    int bad = 0;
    memset(&t, 0, sizeof t);
    t.reps = 9;
    t.has[ENG_UPLOAD] = t.has[ENG_COMPUTE] = true;
    t.ms[ENG_UPLOAD] = 0.5, t.ms[ENG_COMPUTE] = 1.0;
    t.total_median = 2.0, t.total_min = 1.8, t.total_max = 2.5;
    for (int log_scale = 0; log_scale < 2; ++log_scale) {
        float seg[ENG_PHASE_COUNT], fastest, slowest, bar = 0;
        view_bar_geometry(&t, log_scale ? 0.01 : 0.0, 5.0, log_scale, 400, seg, &fastest, &slowest);
        for (int p = 0; p < ENG_PHASE_COUNT; ++p)
            bar += seg[p];
        if (!(bar >= fastest && bar <= slowest && seg[ENG_COMPUTE] > seg[ENG_UPLOAD])) {
            printf("not ok - bar %s: ends at %.1f, its whisker %.1f to %.1f\n", log_scale ? "log" : "linear", bar,
                   fastest, slowest);
            ++bad;
        }
    }
    if (bad)
        ++failed;
    else {
        printf("ok - a chart bar ends between its fastest and slowest run, on either scale\n");
        ++passed;
    }
}

int main(int argc, char **argv)
{
    static const char *const langs[] = {"en", "zh"};
    static const int sizes[][2] = {{1280, 720}, {1920, 1080}};
    app_window win;
    char shaders[4096];
    bool dumping = argc == 5 && strcmp(argv[1], "--dump") == 0;
    if (argc != 2 && !dumping) {
        fprintf(stderr, "usage: test_layout LESSONS_DIR | --dump DIR LANG LESSON_FILE\n");
        return 2;
    }
    memset(&win, 0, sizeof win);
    i18n_init();
    win.win = plat_open("convis test_layout", 3840, 2160, PLAT_WINDOW_OFFSCREEN);
    snprintf(shaders, sizeof shaders, "%s/shaders", app_data_dir());
    if (!win.win || !rnd_init(shaders) || !(win.view = view_create())) {
        printf("not ok - no window to draw in: %s\n", err_msg());
        return 1;
    }
    if (dumping) {
        int rc = dump(&win, argv[2], argv[3], argv[4]);
        view_destroy(win.view);
        rnd_shutdown();
        plat_close(win.win);
        return rc;
    }
    for (size_t l = 0; l < 2; ++l)
        for (size_t i = 0; i < sizeof shots / sizeof shots[0]; ++i) {
            if (!make_state(&win, &shots[i], langs[l], argv[1])) {
                printf("not ok - %s %s: %s\n", shots[i].name, langs[l], err_msg());
                ++failed;
            } else {
                for (int scale = 0; scale < 2; ++scale) {
                    text_scale(&win.app, scale ? 200 : 100);
                    for (size_t k = 0; k < 2; ++k)
                        draw_and_check(&win, shots[i].name, sizes[k][0], sizes[k][1]);
                    if ((i == 0 || shots[i].notices) && scale == 0)
                        draw_and_check(&win, shots[i].name, 1024, 768);
                    if (i == 1 && scale == 1)
                        draw_and_check(&win, shots[i].name, 3840, 2160);
                }
                /* presenter mode, through its action: at the projector's size and at 1080p */
                text_scale(&win.app, 100);
                app_do(&win.app, app_act_id(ACT_PRESENTER));
                draw_and_check(&win, shots[i].name, 1024, 768);
                draw_and_check(&win, shots[i].name, 1920, 1080);
                app_do(&win.app, app_act_id(ACT_PRESENTER));
            }
            app_free(&win.app);
            win.app_ready = false;
            win.clock_virtual = false;
        }
    check_long_values(&win);
    check_bar_in_whisker();
    check_small_image_frames(&win);
    check_chain_labels(&win, "en");
    check_chain_labels(&win, "zh");
    check_unfit(&win, "en");
    check_unfit(&win, "zh");
    view_destroy(win.view);
    rnd_shutdown();
    plat_close(win.win);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed == 313 ? 0 : 1; /* every check above ran: a state that made none is a failure too */
}
