/* lists.c - the two lists: `convis kernels` (the presets and the forms a
 * filter takes) and `convis engines` (each engine and whether it runs here). */
#include <stdio.h>

#include "cli.h"
#include "compute/engine.h"
#include "core/err.h"
#include "engine_host.h"
#include "i18n.h"

/* Writes `text` and spaces after it up to `columns` columns, then two. */
static void put_column(const char *text, int columns)
{
    app_put_column(stdout, text, columns, false);
    fputs("  ", stdout);
}

int app_kernels_main(void)
{
    char text[160];
    put_column(_("NAME"), 10);
    put_column(_("WHAT"), 28);
    printf("%s\n", _("WEIGHTS (rows; / divisor)"));
    for (size_t i = 0; i < filt_preset_count(); ++i) {
        const filt_kernel *k = filt_preset(i);
        filt_format(k, text, sizeof text);
        put_column(k->name, 10);
        put_column(_(k->title), 28);
        printf("%s\n", text);
    }
    printf(_("\nAny matrix works too: -k \"%s\" (a divisor may follow: / 16), of any odd number of rows\n"
             "and columns up to 31. These take an odd side K: box:K (K x K ones), motion:K (a row of K ones),\n"
             "sobel-x:K and sobel-y:K (3 to 15, as OpenCV's Sobel); these a standard deviation S from 0.2 to 5,\n"
             "on 2*ceil(3S)+1 a side: gaussian:S (the normal density), log:S (the Laplacian of Gaussian),\n"
             "unsharp:S (twice the pixel less its blur). ] and [ in the window step a side up and down. The\n"
             "window walks every size on the CPU; apply and bench run every size on every engine.\n"),
           "-1 0 1; -2 0 2; -1 0 1");
    return APP_EXIT_OK;
}

int app_engines_main(void)
{
    put_column(_("ENGINE"), 8);
    put_column(_("STATUS"), 11);
    printf("%s\n", _("WHAT RUNS"));
    for (size_t i = 0; i < eng_count(); ++i) {
        const eng_class *cls = eng_class_at(i);
        char why[256];
        eng_engine *e;
        if (!app_engine_probe(cls, why, sizeof why)) {
            put_column(cls->name, 8);
            put_column(_("unavailable"), 11);
            printf("%s\n", why);
            continue;
        }
        e = app_engine_open(cls);
        if (!e) {
            put_column(cls->name, 8);
            put_column(_("unavailable"), 11);
            printf("%s\n", err_msg());
            continue;
        }
        put_column(cls->name, 8);
        put_column(_("available"), 11);
        /* TRANSLATORS: an engine's description, then what it runs */
        printf(_("%s: %s\n"), eng_description(e), _(cls->summary));
        eng_close(e);
    }
    if (app_engine_host_offscreen())
        fputs(_("\nNo display: the OpenGL engines ran in an offscreen context (EGL, SDL's offscreen video driver).\n"),
              stdout);
    app_engine_host_close();
    return APP_EXIT_OK;
}
