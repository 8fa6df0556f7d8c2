/* tr.h - marks the words convis shows for translation, in every layer.
 *
 * `_("Output")` is the text in the current language, looked up by GNU
 * gettext (libintl, part of the C library) in convis's catalogue; the
 * English msgid itself where there is no translation. `N_("...")` only
 * marks a string for the catalogue, for a table whose entries are looked
 * up later with _(). err_set and app_error look up their formats
 * themselves. The catalogue and the language are chosen by the app layer
 * (src/app/i18n.h); po/make_pot.sh collects every marked string. */
#ifndef CONVIS_TR_H
#define CONVIS_TR_H

#include <libintl.h>

#include <stdio.h>

#define _(text) gettext(text)
#define N_(text) (text)

/* A word that is also a name the user types (a filter's "gaussian", a
 * border rule's "clamp"), shown in the current language: `C_("filter",
 * name)`. The context tells the translator what the word names, and keeps
 * apart words spelt alike ("clamp" the border rule, "clamp" the display).
 * NC_ marks one in a table. (GNU gettext's pgettext, for a word known only
 * at run time.) */
static inline const char *tr_context(const char *context, const char *text)
{
    char key[160];
    const char *found;
    if (snprintf(key, sizeof key, "%s\004%s", context, text) >= (int)sizeof key)
        return text;
    found = gettext(key);
    return found == key ? text : found;
}
#define C_(context, text) tr_context(context, text)
#define NC_(context, text) (text)

#endif
