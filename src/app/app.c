#include "kernel_lab.h"
#include "app.h"

#include "i18n.h"
#include "lessons.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_init(app *a, const scene_host *host, const app_options *asked, const char *lang)
{
    /* the window keeps the plain geometry; the one asked for is the geometry view's */
    app_options plain = *asked, *opt = &plain;
    plain.stride = plain.dilation = 1;
    plain.padding = CONV_PAD_SAME;
    memset(a, 0, sizeof *a);
    a->said_step = -1;
    a->defaults = *opt;
    a->text_scale = 100;
    a->edit_tap = -1;
    if (!lang) {
        lang = i18n_env_lang();
        if (!app_lang_known(lang))
            lang = "en";
    }
    snprintf(a->lang, sizeof a->lang, "%s", lang);
    i18n_set_lang(a->lang); /* before the scene, whose notes are in it */
    scene_init(&a->s, host, opt);
    if (asked->stride != 1 || asked->dilation != 1 || asked->padding != CONV_PAD_SAME)
        scene_set_geometry(&a->s, asked->stride, asked->dilation, asked->padding);
}

void app_set_lang(app *a, const char *lang)
{
    snprintf(a->lang, sizeof a->lang, "%s", lang);
    i18n_set_lang(a->lang);
}

void app_free(app *a)
{
    lsn_player_stop(&a->player);
    app_lab_free(a);
    img_free(&a->free_play.img);
    scene_free(&a->s);
}

bool app_in_lesson(const app *a)
{
    return a->player.active;
}

const char *app_lang(const app *a)
{
    return a->lang;
}
