/* i18n.h - the words convis shows, in the language chosen, through GNU
 * gettext: `_("Output")` is the text for the current language, from the
 * catalogue po/<lang>.po (po/zh.po; compiled by the build into
 * locale/<lang>/LC_MESSAGES/convis.mo), or the English msgid itself.
 * `N_("...")` marks a string for the catalogue where it is not translated
 * on the spot (a table; the call to _() comes later).
 *
 * The language is convis's own setting (en, zh; --lang, the locale, a
 * lesson's folder), switched at run time with i18n_set_lang; it does not
 * need the system to have a locale of that language installed: the
 * messages' locale falls back to C.UTF-8, and the language is chosen with
 * LANGUAGE, which GNU gettext reads outside the plain "C" locale. */
#ifndef CONVIS_I18N_H
#define CONVIS_I18N_H

#include "core/tr.h"

/* Binds convis's catalogue (call once, before any _()). When a catalogue
 * of the locale folder is damaged (truncated, its tables past its end),
 * none is bound: every word in English, said in one sentence on stderr. */
void i18n_init(void);

/* The language of _() from now on: "en" (the msgids themselves), "zh", or
 * any other with a po/<lang>.po. Cheap when it does not change. */
void i18n_set_lang(const char *lang);

/* The language the environment asks for, as GNU gettext reads it
 * (LANGUAGE, LC_ALL, LC_MESSAGES, LANG): "zh" for zh_CN.UTF-8; "en" when
 * none names one. Whether convis has it is the caller's question. */
const char *i18n_env_lang(void);

/* Where the catalogues are: CONVIS_LOCALE_DIR, an installed share/locale,
 * or the build tree's locale/. */
const char *i18n_locale_dir(void);

#endif
