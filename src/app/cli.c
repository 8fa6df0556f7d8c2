#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compute/engine.h"
#include "core/err.h"
#include "engine_host.h"

void app_error(const char *fmt, ...)
{
    va_list ap;
    fputs("convis: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}


const char *app_option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        app_error("option '%s' needs a value; see 'convis --help'", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

bool app_parse_count(const char *opt, const char *text, long long max, long long *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > max) {
        app_error("option '%s' takes a whole number from 1 to %lld, not '%s'", opt, max, text);
        return false;
    }
    *out = v;
    return true;
}

int app_parse_shared_option(int argc, char **argv, int *i, app_options *o)
{
    const char *opt = argv[*i], *v;
    long long n;

    if (strcmp(opt, "--flip") == 0) {
        o->flip = true;
        return 1;
    }
    if (strcmp(opt, "-k") && strcmp(opt, "--kernel") && strcmp(opt, "--border") &&
        strcmp(opt, "--display") && strcmp(opt, "--max-side") && strcmp(opt, "--max-pixels"))
        return 0;
    if (!(v = app_option_value(argc, argv, i)))
        return -1;
    if (strcmp(opt, "-k") == 0 || strcmp(opt, "--kernel") == 0) {
        if (!filt_parse(v, &o->kernel)) {
            app_error("%s", err_msg());
            return -1;
        }
    } else if (strcmp(opt, "--border") == 0) {
        if (!conv_border_parse(v, &o->border)) {
            app_error("%s", err_msg());
            return -1;
        }
    } else if (strcmp(opt, "--display") == 0) {
        if (!img_display_parse(v, &o->display)) {
            app_error("%s", err_msg());
            return -1;
        }
    } else if (strcmp(opt, "--max-side") == 0) {
        if (!app_parse_count(opt, v, INT_MAX, &n))
            return -1;
        o->limits.max_side = (int)n;
    } else {
        if (!app_parse_count(opt, v, LLONG_MAX, &n))
            return -1;
        o->limits.max_pixels = n;
    }
    return 1;
}

void app_usage(FILE *f)
{
    fprintf(f,
            "convis %s - see a 3x3 convolution computed one output at a time on the CPU\n"
            "and all at once on the GPU, with timings measured on this machine.\n"
            "\n"
            "Usage:\n"
            "  convis [IMAGE] [OPTIONS]       open the window (on IMAGE, or the sample image)\n"
            "  convis apply IN -k FILTER -o OUT.png|OUT.pfm [OPTIONS]\n"
            "                                 convolve an image file from the command line\n"
            "  convis lesson FILE [OPTIONS]   play a lesson (lessons/en/, lessons/zh/) in the window\n"
            "  convis lesson --check FILE...  check lesson files without opening a window\n"
            "  convis lesson --render-steps DIR FILE\n"
            "                                 save one screenshot per step of a lesson in DIR\n"
            "  convis kernels                 list the preset filters and their values\n"
            "  convis engines                 list the engines and whether they run here\n"
            "  convis --help | --version\n"
            "\n"
            "Options:\n"
            "  -k, --kernel FILTER   a preset or a 3x3 matrix, e.g. sobel-x or \"-1 0 1; -2 0 2; -1 0 1\"\n"
            "                        (a divisor may follow: \"1 2 1; 2 4 2; 1 2 1 / 16\")\n"
            "  --border MODE         zero, clamp (default), mirror or wrap: what taps outside read\n"
            "  --flip                true convolution (kernel rotated 180 degrees) instead of\n"
            "                        cross-correlation\n"
            "  --display MODE        how results become grey levels: clamp (default), abs, signed\n"
            "  --max-side N          refuse images wider or taller than N pixels (default %d)\n"
            "  --max-pixels N        refuse images of more than N pixels (default %lld)\n"
            "\n"
            "Options of apply:\n"
            "  -o, --output FILE     .png (display, 8-bit grey) or .pfm (exact float values)\n"
            "  --engine NAME         %s (default cpu-par)\n"
            "  --reps N              time N runs after a warm-up and report the median (default 5)\n"
            "  --gpu-kernel NAME     cuda: tiled (default; a shared-memory tile, the filter in constant\n"
            "                        memory) or naive (nine reads from global memory per output)\n"
            "  --result PATH         cuda: bulk (default; one copy back) or per-pixel (one copy per\n"
            "                        output pixel, the trap: measured on at most %d pixels or\n"
            "                        %.0f ms, then extrapolated to the image, and labelled so).\n"
            "                        Other engines ignore both and say so.\n"
            "\n"
            "Options of the window:\n"
            "  --screenshot FILE     render one frame, save it as FILE (.png) and exit\n"
            "  --window WxH          window size in pixels (default 1280x720)\n"
            "  --lang en|zh          the language of lessons and their fonts (default: from the locale)\n"
            "\n"
            "Exit status: 0 done, 1 wrong usage, 2 an input that cannot be used,\n"
            "3 the asked engine is unavailable or fails (out of device memory, say).\n",
            CONVIS_VERSION, IMG_DEFAULT_MAX_SIDE, (long long)IMG_DEFAULT_MAX_PIXELS, eng_names(),
            ENG_PER_PIXEL_MAX, ENG_PER_PIXEL_BUDGET_MS);
}

int app_kernels_main(void)
{
    char text[160];
    printf("%-10s  %-28s  %s\n", "NAME", "WHAT", "WEIGHTS (rows; / divisor)");
    for (size_t i = 0; i < filt_preset_count(); ++i) {
        const filt_kernel *k = filt_preset(i);
        filt_format(k, text, sizeof text);
        printf("%-10s  %-28s  %s\n", k->name, k->title, text);
    }
    printf("\nAny 3x3 matrix works too: -k \"-1 0 1; -2 0 2; -1 0 1\" (a divisor may follow: / 16).\n");
    return APP_EXIT_OK;
}

int app_engines_main(void)
{
    printf("%-8s  %-11s  %s\n", "ENGINE", "STATUS", "WHAT RUNS");
    for (size_t i = 0; i < eng_count(); ++i) {
        const eng_class *cls = eng_class_at(i);
        char why[256];
        eng_engine *e;
        if (!app_engine_probe(cls, why, sizeof why)) {
            printf("%-8s  %-11s  %s\n", cls->name, "unavailable", why);
            continue;
        }
        e = app_engine_open(cls);
        if (!e) {
            printf("%-8s  %-11s  %s\n", cls->name, "unavailable", err_msg());
            continue;
        }
        printf("%-8s  %-11s  %s: %s\n", cls->name, "available", eng_description(e), cls->summary);
        eng_close(e);
    }
    if (app_engine_host_offscreen())
        printf("\nNo display: the OpenGL engines ran in an offscreen context (EGL, SDL's offscreen video driver).\n");
    app_engine_host_close();
    return APP_EXIT_OK;
}
