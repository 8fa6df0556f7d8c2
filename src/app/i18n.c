/* i18n.c - the language of the words shown (i18n.h). */
#define _POSIX_C_SOURCE 200809L
#include "i18n.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data.h"

extern int _nl_msg_cat_cntr; /* GNU gettext: bumped, it forgets the translations it looked up */

static char current[16];

static int has_catalogue(const char *dir)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/zh/LC_MESSAGES/convis.mo", dir);
    return stat(path, &st) == 0;
}

const char *i18n_locale_dir(void)
{
    static char dir[4200];
    const char *env = getenv("CONVIS_LOCALE_DIR");
    if (env && has_catalogue(env))
        return env;
    snprintf(dir, sizeof dir, "%s/../locale", app_data_dir()); /* installed: share/convis/../locale */
    if (has_catalogue(dir))
        return dir;
    if (has_catalogue(CONVIS_BUILD_LOCALE_DIR))
        return CONVIS_BUILD_LOCALE_DIR;
    return CONVIS_INSTALL_LOCALE_DIR;
}

void i18n_init(void)
{
    /* the messages' locale only: the rest (character types for SDL's
     * window titles, numbers in files) stays the C library's "C" */
    const char *messages = setlocale(LC_MESSAGES, "");
    if (!messages || strcmp(messages, "C") == 0 || strcmp(messages, "POSIX") == 0) {
        /* gettext translates nothing in plain "C": a UTF-8 locale that the
         * C library has, whichever it is called */
        static const char *const tries[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_GB.UTF-8"};
        for (size_t i = 0; i < sizeof tries / sizeof tries[0] && !setlocale(LC_MESSAGES, tries[i]); ++i)
            ;
    }
    bindtextdomain("convis", i18n_locale_dir());
    bind_textdomain_codeset("convis", "UTF-8");
    textdomain("convis");
    current[0] = '\0';
}

const char *i18n_env_lang(void)
{
    /* as GNU gettext reads them: LANGUAGE ("zh_CN:en") first, then the locale */
    static const char *const vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    static char lang[4];
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
        const char *v = getenv(vars[i]);
        size_t n = 0;
        if (!v || !*v)
            continue;
        while (n < 3 && v[n] >= 'a' && v[n] <= 'z')
            ++n;
        if (n >= 2 && (v[n] == '\0' || strchr("_.@:", v[n]))) {
            snprintf(lang, sizeof lang, "%.*s", (int)n, v);
            return lang;
        }
        if (i > 0)
            break; /* a locale set but unnamed ("C", "POSIX"): English */
    }
    return "en";
}

void i18n_set_lang(const char *lang)
{
    if (!lang || strcmp(lang, current) == 0)
        return;
    snprintf(current, sizeof current, "%s", lang);
    setenv("LANGUAGE", lang, 1); /* po/<lang>.po, compiled: locale/<lang>/LC_MESSAGES/convis.mo */
    ++_nl_msg_cat_cntr;
}
