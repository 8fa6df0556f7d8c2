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

#define _(text) gettext(text)
#define N_(text) (text)

#endif
