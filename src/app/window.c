/* window.c - the window: the image and its filtered result side by side,
 * with the filter, the border rule and the measured time of each CPU engine.
 *
 * Keys: Left/Right or PageUp/PageDown change the filter, B the border mode,
 * F flips the kernel (true convolution), D the display of negative values,
 * F11 fullscreen, Esc or Q quits. Dropping an image file on the window opens
 * it; a file that cannot be used gets a banner and the previous image stays. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compute/engine.h"
#include "core/err.h"
#include "core/timing.h"
#include "data.h"
#include "platform/platform.h"
#include "render/render.h"

#define DEFAULT_KERNEL "sobel-x"
#define TIMING_BUDGET_MS 150.0 /* time spent measuring one engine after a change */

static const rnd_color BG = {0.10f, 0.11f, 0.13f, 1};
static const rnd_color TEXT = {0.93f, 0.94f, 0.95f, 1};
static const rnd_color DIM = {0.65f, 0.68f, 0.72f, 1};
static const rnd_color INPUT_BLUE = {0.35f, 0.62f, 1.00f, 1};
static const rnd_color OUTPUT_GREEN = {0.40f, 0.85f, 0.45f, 1};
static const rnd_color BANNER_BG = {0.55f, 0.12f, 0.10f, 1};
static const rnd_color WHITE = {1, 1, 1, 1};

typedef struct label {
    char text[512];
    rnd_texture tex;
} label;

enum { L_TITLE, L_IN, L_OUT, L_SETTINGS, L_SEQ, L_PAR, L_KEYS, L_BANNER, L_COUNT };

typedef struct engine_slot {
    eng_engine *engine;
    eng_timing timing;
    char error[256];
} engine_slot;

typedef struct viewer {
    app_options opt;
    size_t preset;              /* index of the preset shown, when one is */
    char image_name[256];
    img_image img;
    img_plane out;
    img_rgba out_rgba;
    engine_slot seq, par;
    rnd_texture in_tex, out_tex;
    plat_font *font, *font_big;
    int font_px;
    label labels[L_COUNT];
    char banner[512];
} viewer;

/* ---- computing ----------------------------------------------------------- */

static void measure(engine_slot *slot, const eng_job *job)
{
    eng_timing first;
    int reps;
    slot->error[0] = '\0';
    if (!slot->engine)
        return;
    if (!eng_run(slot->engine, job, &first)) {
        snprintf(slot->error, sizeof slot->error, "%s", err_msg());
        return;
    }
    reps = eng_total_ms(&first) > 0 ? (int)(TIMING_BUDGET_MS / eng_total_ms(&first)) : 9;
    reps = reps < 1 ? 1 : reps > 9 ? 9 : reps;
    if (!eng_measure(slot->engine, job, reps, &slot->timing))
        snprintf(slot->error, sizeof slot->error, "%s", err_msg());
}

/* Recomputes the output with both CPU engines and refreshes the textures. */
static void recompute(viewer *v)
{
    eng_job job = {&v->img.luma, &v->out, conv_params_make(&v->opt.kernel, v->opt.border, v->opt.flip)};
    size_t n = (size_t)v->out.w * (size_t)v->out.h;

    measure(&v->seq, &job);
    measure(&v->par, &job); /* the picture shown is cpu-par's result */
    for (size_t i = 0; i < n; ++i) {
        uint8_t g = img_display_byte(v->out.px[i], v->opt.display);
        v->out_rgba.px[4 * i + 0] = v->out_rgba.px[4 * i + 1] = v->out_rgba.px[4 * i + 2] = g;
        v->out_rgba.px[4 * i + 3] = 255;
    }
    if (!rnd_texture_set(&v->out_tex, &v->out_rgba))
        snprintf(v->banner, sizeof v->banner, "%s", err_msg());
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Makes `img` the current image; on failure the previous one stays. */
static bool adopt_image(viewer *v, img_image *img, const char *path)
{
    img_plane out;
    img_rgba rgba = {img->luma.w, img->luma.h, NULL};
    rnd_texture tex = {0};

    if (!img_plane_alloc(&out, img->luma.w, img->luma.h))
        goto fail;
    rgba.px = malloc((size_t)rgba.w * (size_t)rgba.h * 4);
    if (!rgba.px) {
        err_set("out of memory for a %dx%d image", rgba.w, rgba.h);
        goto free_out;
    }
    if (!rnd_texture_set(&tex, &img->color))
        goto free_rgba;
    rnd_texture_free(&v->in_tex);
    v->in_tex = tex;
    img_free(&v->img);
    img_plane_free(&v->out);
    free(v->out_rgba.px);
    v->img = *img;
    v->out = out;
    v->out_rgba = rgba;
    snprintf(v->image_name, sizeof v->image_name, "%s", base_name(path));
    recompute(v);
    return true;

free_rgba:
    free(rgba.px);
free_out:
    img_plane_free(&out);
fail:
    img_free(img);
    return false;
}

static bool open_image(viewer *v, const char *path)
{
    img_image img;
    if (!img_load(path, &v->opt.limits, &img) || !adopt_image(v, &img, path)) {
        snprintf(v->banner, sizeof v->banner, "%s", err_msg());
        fprintf(stderr, "convis: %s\n", err_msg());
        return false;
    }
    v->banner[0] = '\0';
    return true;
}

/* ---- drawing ------------------------------------------------------------- */

/* The texture of a line of text, wrapped at `wrap` pixels when wrap > 0;
 * rendered again only when the text changes. */
static const rnd_texture *text_texture(viewer *v, int which, plat_font *font, const char *text, int wrap)
{
    label *l = &v->labels[which];
    if (strcmp(l->text, text) != 0 || !l->tex.id) {
        img_rgba px;
        if (!(wrap > 0 ? plat_text_render_wrapped(font, text, wrap, &px) : plat_text_render(font, text, &px)))
            return &l->tex;
        rnd_texture_set(&l->tex, &px);
        free(px.px);
        snprintf(l->text, sizeof l->text, "%s", text);
    }
    return &l->tex;
}

static void draw_label(viewer *v, int which, plat_font *font, const char *text, float x, float y,
                       rnd_color c)
{
    const rnd_texture *t = text_texture(v, which, font, text, 0);
    rnd_image(t, x, y, (float)t->w, (float)t->h, c, false);
}

static void timing_text(const engine_slot *s, const char *name, char *buf, size_t size)
{
    if (!s->engine)
        snprintf(buf, size, "%s: unavailable: %s", name, s->error);
    else if (s->error[0])
        snprintf(buf, size, "%s failed: %s", name, s->error);
    else
        snprintf(buf, size, "%s (%s): %.3f ms for the whole image, median of %d runs", name,
                 eng_description(s->engine), eng_total_ms(&s->timing), s->timing.reps);
}

/* The largest rectangle of the image's aspect inside (x, y, w, h), centred. */
static void fit(int iw, int ih, float x, float y, float w, float h, float r[4])
{
    float s = w / iw < h / ih ? w / iw : h / ih;
    r[2] = iw * s;
    r[3] = ih * s;
    r[0] = x + (w - r[2]) / 2;
    r[1] = y + (h - r[3]) / 2;
}

static void draw(viewer *v, int W, int H)
{
    float m = (float)v->font_px, line = (float)plat_font_height(v->font);
    float top = m * 0.6f + plat_font_height(v->font_big) + m * 0.5f + line;
    float bottom = H - (4 * line + m * 0.8f);
    float pw = (W - 3 * m) / 2, ph = bottom - top - m * 0.4f;
    float r[4];
    char text[512], kernel[160];

    rnd_begin(W, H, BG);
    draw_label(v, L_TITLE, v->font_big, "convis: a 3\xC3\x97" "3 convolution, computed on this machine", m,
               m * 0.6f, TEXT);

    snprintf(text, sizeof text, "Input: %s, %d\xC3\x97%d pixels", v->image_name, v->img.luma.w, v->img.luma.h);
    draw_label(v, L_IN, v->font, text, m, top - line, INPUT_BLUE);
    filt_format(&v->opt.kernel, kernel, sizeof kernel);
    snprintf(text, sizeof text, "Output: %s  [%s]", v->opt.kernel.title, kernel);
    draw_label(v, L_OUT, v->font, text, 2 * m + pw, top - line, OUTPUT_GREEN);

    if (ph > 4 && pw > 4) {
        fit(v->img.luma.w, v->img.luma.h, m, top, pw, ph, r);
        rnd_image(&v->in_tex, r[0], r[1], r[2], r[3], WHITE, true);
        rnd_frame(r[0] - 3, r[1] - 3, r[2] + 6, r[3] + 6, 3, INPUT_BLUE);
        fit(v->img.luma.w, v->img.luma.h, 2 * m + pw, top, pw, ph, r);
        rnd_image(&v->out_tex, r[0], r[1], r[2], r[3], WHITE, true);
        rnd_frame(r[0] - 3, r[1] - 3, r[2] + 6, r[3] + 6, 3, OUTPUT_GREEN);
    }

    snprintf(text, sizeof text, "border %s \xC2\xB7 %s \xC2\xB7 display %s",
             conv_border_name(v->opt.border),
             v->opt.flip ? "true convolution (kernel flipped)" : "cross-correlation (kernel not flipped)",
             v->opt.display == IMG_DISPLAY_CLAMP  ? "clamp (negatives black)"
             : v->opt.display == IMG_DISPLAY_ABS ? "abs (|value|)"
                                                 : "signed (zero is grey)");
    draw_label(v, L_SETTINGS, v->font, text, m, bottom, TEXT);
    timing_text(&v->seq, "cpu-seq", text, sizeof text);
    draw_label(v, L_SEQ, v->font, text, m, bottom + line, DIM);
    timing_text(&v->par, "cpu-par", text, sizeof text);
    draw_label(v, L_PAR, v->font, text, m, bottom + 2 * line, DIM);
    draw_label(v, L_KEYS, v->font,
               "\xE2\x86\x90/\xE2\x86\x92 filter   B border   F flip   D display   F11 fullscreen   "
               "Esc quit   drop an image to open it",
               m, H - line - m * 0.3f, DIM);

    if (v->banner[0]) { /* over the title, wrapped to the window's width */
        const rnd_texture *t;
        float bh;
        snprintf(text, sizeof text, "\xE2\x9A\xA0  %s", v->banner);
        t = text_texture(v, L_BANNER, v->font, text, (int)(W - 2 * m));
        bh = t->h + m * 0.6f > top - line - m * 0.2f ? t->h + m * 0.6f : top - line - m * 0.2f;
        rnd_rect(0, 0, (float)W, bh, BANNER_BG);
        rnd_image(t, m, m * 0.3f, (float)t->w, (float)t->h, WHITE, false);
    }
}

/* ---- input --------------------------------------------------------------- */

static void select_preset(viewer *v, int step)
{
    size_t n = filt_preset_count();
    v->preset = (v->preset + n + (size_t)(step + (int)n)) % n;
    v->opt.kernel = *filt_preset(v->preset);
}

/* Returns false when the window should close. */
static bool handle_key(viewer *v, plat_window *win, int key)
{
    switch (key) {
    case PLAT_KEY_ESCAPE:
    case 'q':
        return false;
    case PLAT_KEY_LEFT:
    case PLAT_KEY_PAGE_UP:
        select_preset(v, -1);
        break;
    case PLAT_KEY_RIGHT:
    case PLAT_KEY_PAGE_DOWN:
        select_preset(v, 1);
        break;
    case 'b':
        v->opt.border = (conv_border)((v->opt.border + 1) % CONV_BORDER_COUNT);
        break;
    case 'f':
        v->opt.flip = !v->opt.flip;
        break;
    case 'd':
        v->opt.display = (img_display)((v->opt.display + 1) % IMG_DISPLAY_COUNT);
        break;
    case PLAT_KEY_F11:
        plat_toggle_fullscreen(win);
        return true;
    default:
        return true;
    }
    recompute(v);
    return true;
}

/* ---- main ---------------------------------------------------------------- */

typedef struct window_args {
    const char *image, *screenshot;
    int width, height;
    bool display_given;
} window_args;

static int parse(int argc, char **argv, window_args *a, app_options *opt)
{
    memset(a, 0, sizeof *a);
    a->width = 1280;
    a->height = 720;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        int taken;
        if (strcmp(arg, "--display") == 0)
            a->display_given = true;
        taken = app_parse_shared_option(argc, argv, &i, opt);
        if (taken < 0)
            return APP_EXIT_USAGE;
        if (taken)
            continue;
        if (strcmp(arg, "--screenshot") == 0) {
            if (!(a->screenshot = app_option_value(argc, argv, &i)))
                return APP_EXIT_USAGE;
        } else if (strcmp(arg, "--window") == 0) {
            const char *v = app_option_value(argc, argv, &i);
            char extra;
            if (!v)
                return APP_EXIT_USAGE;
            if (sscanf(v, "%dx%d%c", &a->width, &a->height, &extra) != 2 || a->width < 320 ||
                a->height < 240 || a->width > 16384 || a->height > 16384) {
                app_error("option '--window' takes a size such as 1280x720 (at least 320x240), not '%s'", v);
                return APP_EXIT_USAGE;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            app_error("unknown option or command '%s'; see 'convis --help'", arg);
            return APP_EXIT_USAGE;
        } else if (a->image) {
            app_error("the window opens one image, but '%s' came after '%s'", arg, a->image);
            return APP_EXIT_USAGE;
        } else {
            a->image = arg;
        }
    }
    return APP_EXIT_OK;
}

static void open_engine(engine_slot *slot, const char *name)
{
    slot->engine = eng_open(eng_find(name));
    if (!slot->engine)
        snprintf(slot->error, sizeof slot->error, "%s", err_msg());
}

static int run_loop(viewer *v, plat_window *win, const char *screenshot)
{
    bool running = true, dirty = true;
    int W, H;

    while (running) {
        plat_event ev;
        if (dirty || screenshot) {
            plat_drawable_size(win, &W, &H);
            draw(v, W, H);
            if (screenshot) {
                img_rgba frame;
                const char *gl_err = rnd_gl_error();
                if (gl_err)
                    fprintf(stderr, "convis: %s while drawing\n", gl_err);
                if (!rnd_read_frame(W, H, &frame) || !img_write_rgba_png(screenshot, &frame, true)) {
                    app_error("cannot save the screenshot: %s", err_msg());
                    return APP_EXIT_INPUT;
                }
                free(frame.px);
                printf("saved %s (%dx%d)\n", screenshot, W, H);
                return APP_EXIT_OK;
            }
            plat_swap(win);
            dirty = false;
        }
        if (!plat_next_event(win, 500, &ev))
            continue;
        do {
            switch (ev.type) {
            case PLAT_EVENT_QUIT:
                running = false;
                break;
            case PLAT_EVENT_KEY:
                running = running && handle_key(v, win, ev.key);
                break;
            case PLAT_EVENT_DROP:
                open_image(v, ev.path);
                break;
            default:
                break;
            }
            dirty = true;
        } while (running && plat_next_event(win, 0, &ev));
    }
    return APP_EXIT_OK;
}

int app_window_main(int argc, char **argv)
{
    window_args a;
    viewer v;
    plat_window *win;
    char sample[4096];
    int rc;

    memset(&v, 0, sizeof v);
    app_options_default(&v.opt, DEFAULT_KERNEL);
    rc = parse(argc, argv, &a, &v.opt);
    if (rc != APP_EXIT_OK)
        return rc;
    if (!a.display_given)
        v.opt.display = IMG_DISPLAY_ABS; /* edges are negative on one side */
    for (size_t i = 0; i < filt_preset_count(); ++i)
        if (strcmp(filt_preset(i)->name, v.opt.kernel.name) == 0)
            v.preset = i;

    win = plat_open("convis", a.width, a.height, 0);
    if (!win) {
        app_error("%s", err_msg());
        return APP_EXIT_INPUT;
    }
    rc = APP_EXIT_INPUT;
    snprintf(sample, sizeof sample, "%s/shaders", app_data_dir());
    if (!rnd_init(sample)) {
        app_error("%s", err_msg());
        goto close_window;
    }
    v.font_px = a.height >= 1000 ? 30 : a.height >= 700 ? 22 : 17;
    v.font = plat_font_open("en", v.font_px);
    v.font_big = plat_font_open("en", v.font_px * 3 / 2);
    if (!v.font || !v.font_big) {
        app_error("%s", err_msg());
        rc = APP_EXIT_INPUT;
        goto close_fonts;
    }
    open_engine(&v.seq, "cpu-seq");
    open_engine(&v.par, "cpu-par");

    snprintf(sample, sizeof sample, "%s/assets/sample.png", app_data_dir());
    if (!a.image || !open_image(&v, a.image)) {
        char banner[512];
        snprintf(banner, sizeof banner, "%s", v.banner);
        if (!open_image(&v, sample)) {
            app_error("the sample image is missing too: %s", err_msg());
            rc = APP_EXIT_INPUT;
            goto close_engines;
        }
        if (banner[0])
            snprintf(v.banner, sizeof v.banner, "%s; showing the sample image", banner);
    }
    rc = run_loop(&v, win, a.screenshot);

close_engines:
    eng_close(v.seq.engine);
    eng_close(v.par.engine);
    rnd_texture_free(&v.in_tex);
    rnd_texture_free(&v.out_tex);
    for (int i = 0; i < L_COUNT; ++i)
        rnd_texture_free(&v.labels[i].tex);
    img_free(&v.img);
    img_plane_free(&v.out);
    free(v.out_rgba.px);
close_fonts:
    plat_font_close(v.font);
    plat_font_close(v.font_big);
    rnd_shutdown();
close_window:
    plat_close(win);
    return rc;
}
