/* i18n.c - the language of the words shown (i18n.h). */
#define _POSIX_C_SOURCE 200809L
#include "i18n.h"

#include <dirent.h>
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
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

/* ---- catalogues checked before they are bound ------------------------------
 * GNU gettext reads a .mo file from a mapping of it, trusting its tables: a
 * truncated or damaged one sends it past the file's end (a crash). Its
 * layout: a magic number in the file's byte order, a revision, the number
 * of strings N, the offsets of the table of originals and of translations
 * (N entries each: a length and an offset), and a hash table (a size and an
 * offset; each entry 0 or a string's number + 1). */

#define MO_MAGIC 0x950412deu
#define MO_MOST_BYTES (64u << 20) /* far over a catalogue of convis's few thousand words */

static uint32_t mo_word(const unsigned char *p, bool big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Whether the `n` entries of a string table at `at` lie in the file, and
 * each string with its closing NUL. */
static bool mo_strings_fit(const unsigned char *d, size_t size, bool big, uint32_t at, uint32_t n)
{
    if ((uint64_t)at + 8u * (uint64_t)n > size)
        return false;
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t len = mo_word(d + at + 8u * i, big), off = mo_word(d + at + 8u * i + 4, big);
        if (off + len + 1 > size || d[off + len] != '\0')
            return false;
    }
    return true;
}

/* Whether n is a prime: the size of a catalogue's hash table must be one. */
static bool mo_prime(uint32_t n)
{
    if (n < 2)
        return false;
    for (uint32_t k = 2; (uint64_t)k * k <= n; ++k)
        if (n % k == 0)
            return false;
    return true;
}

/* Whether the .mo file's header and tables lie within it (revision 0, or 1
 * without system-dependent strings: what msgfmt writes for convis). */
static bool mo_sound(const unsigned char *d, size_t size)
{
    bool big;
    uint32_t revision, n, hash_size, hash_at;
    uint32_t empty = 0;
    if (size < 28)
        return false;
    if (mo_word(d, false) == MO_MAGIC)
        big = false;
    else if (mo_word(d, true) == MO_MAGIC)
        big = true;
    else
        return false;
    revision = mo_word(d + 4, big);
    if (revision >> 16 > 1)
        return false;
    if ((revision & 0xffffu) >= 1 && (size < 48 || mo_word(d + 36, big) != 0))
        return false; /* system-dependent strings: not read here */
    n = mo_word(d + 8, big);
    if (!mo_strings_fit(d, size, big, mo_word(d + 12, big), n) ||
        !mo_strings_fit(d, size, big, mo_word(d + 16, big), n))
        return false;
    hash_size = mo_word(d + 20, big);
    hash_at = mo_word(d + 24, big);
    if (hash_size <= 2)
        return true; /* gettext does not use a table this small */
    if ((uint64_t)hash_at + 4u * (uint64_t)hash_size > size || !mo_prime(hash_size))
        return false;
    for (uint32_t i = 0; i < hash_size; ++i) {
        uint32_t e = mo_word(d + hash_at + 4u * i, big);
        if (e > n)
            return false;
        empty += e == 0;
    }
    /* gettext probes the table (double hashing over a prime size, which
     * visits every slot) until it finds its string or an empty slot: a
     * table with none would make a lookup of a missing string loop for ever */
    return empty > 0;
}

/* Whether the catalogue at `path` is sound (mo_sound); false for one that
 * cannot be read whole. */
static bool catalogue_sound(const char *path)
{
    struct stat st;
    unsigned char *d;
    bool ok;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
        (unsigned long long)st.st_size > MO_MOST_BYTES || !(d = malloc((size_t)st.st_size + 1))) {
        fclose(f);
        return false;
    }
    ok = fread(d, 1, (size_t)st.st_size, f) == (size_t)st.st_size && mo_sound(d, (size_t)st.st_size);
    free(d);
    fclose(f);
    return ok;
}

/* The first damaged catalogue of convis among dir's languages
 * (dir/LANG/LC_MESSAGES/convis.mo), into `bad`; false when all are sound. */
static bool damaged_catalogue(const char *dir, char *bad, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    if (!d)
        return false;
    while (!found && (e = readdir(d)) != NULL) {
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(bad, size, "%s/%s/LC_MESSAGES/convis.mo", dir, e->d_name);
        found = stat(bad, &st) == 0 && !catalogue_sound(bad);
    }
    closedir(d);
    return found;
}

void i18n_init(void)
{
    char bad[4400];
    const char *dir = i18n_locale_dir();
    bool damaged;
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
    damaged = damaged_catalogue(dir, bad, sizeof bad);
    /* a damaged catalogue is never read: English, every word, from a
     * folder that can hold no catalogue */
    bindtextdomain("convis", damaged ? "/dev/null" : dir);
    bind_textdomain_codeset("convis", "UTF-8");
    textdomain("convis");
    if (damaged)
        fprintf(stderr, _("convis: the catalogue of words '%s' is damaged or truncated; the words are in English\n"),
                bad);
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
