#include "app.h"

#include "i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_init(app *a, const scene_host *host, const app_options *opt, const char *lang)
{
    memset(a, 0, sizeof *a);
    a->defaults = *opt;
    a->text_scale = 100;
    a->edit_tap = -1;
    snprintf(a->lang, sizeof a->lang, "en");
    if (lang) {
        snprintf(a->lang, sizeof a->lang, "%s", lang);
    } else {
        /* the language from the locale, as the C library reads it */
        const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
        for (int i = 0; i < 3; ++i) {
            const char *v = getenv(vars[i]);
            if (v && *v) {
                if (strncmp(v, "zh", 2) == 0)
                    snprintf(a->lang, sizeof a->lang, "zh");
                break;
            }
        }
    }
    i18n_set_lang(a->lang); /* before the scene, whose notes are in it */
    scene_init(&a->s, host, opt);
}

void app_set_lang(app *a, const char *lang)
{
    snprintf(a->lang, sizeof a->lang, "%s", lang);
    i18n_set_lang(a->lang);
}

void app_free(app *a)
{
    lsn_player_stop(&a->player);
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
