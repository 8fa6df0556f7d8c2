/* linebreak.c - where lines break (linebreak.h). */
#include "linebreak.h"

#include <string.h>

uint32_t lb_utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t cp;
    int extra;
    if (p[0] < 0x80) {
        *s += 1;
        return p[0];
    }
    if ((p[0] & 0xE0) == 0xC0)
        cp = p[0] & 0x1F, extra = 1;
    else if ((p[0] & 0xF0) == 0xE0)
        cp = p[0] & 0x0F, extra = 2;
    else if ((p[0] & 0xF8) == 0xF0)
        cp = p[0] & 0x07, extra = 3;
    else {
        *s += 1;
        return 0xFFFD;
    }
    for (int i = 1; i <= extra; ++i) {
        if ((p[i] & 0xC0) != 0x80) {
            *s += i;
            return 0xFFFD;
        }
        cp = cp << 6 | (p[i] & 0x3F);
    }
    *s += extra + 1;
    return cp;
}

char *lb_copy(char *buf, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (size == 0)
        return buf;
    if (n > size - 1) { /* cut: back to the start of the character that straddles the end */
        n = size - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            --n;
    }
    memmove(buf, s, n);
    buf[n] = '\0';
    return buf;
}

bool lb_is_cjk(uint32_t cp)
{
    return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x3000 && cp <= 0x303F);
}

/* Marks that never start a line: closing brackets and quotes, stops,
 * commas, and the like (full-width and ASCII). */
static bool no_start(uint32_t cp)
{
    static const uint32_t marks[] = {
        0x3002, 0xFF0C, 0x3001, 0xFF1B, 0xFF1A, 0xFF1F, 0xFF01,       0xFF09,       0x300D, 0x300F,
        0x3011, 0x300B, 0x3009, 0x3015, 0x3017, 0xFF3D, 0xFF5D,       0x201D,       0x2019, 0x2026,
        0x2025, 0x30FB, 0x30FC, 0xFF0E, 0x3005, 0x301C, ',',          '.',          ';',    ':',
        '!',    '?',    ')',    ']',    '}',    '%',    0xD7 /* × */, 0xB7 /* · */,
    };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; ++i)
        if (marks[i] == cp)
            return true;
    return false;
}

/* Marks that never end a line: opening brackets and quotes. */
static bool no_end(uint32_t cp)
{
    static const uint32_t marks[] = {0xFF08, 0x300C, 0x300E, 0x3010, 0x300A, 0x3008, 0x3014, 0x3016,
                                     0xFF3B, 0xFF5B, 0x201C, 0x2018, '(',    '[',    '{'};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; ++i)
        if (marks[i] == cp)
            return true;
    return false;
}

static bool is_digit(uint32_t cp)
{
    return cp >= '0' && cp <= '9';
}

/* Whether the word at s is a unit that stays with the number before it. */
static bool unit_at(const char *s)
{
    static const char *const units[] = {"\xC2\xB5s", "ms", "s", "ns",       "MiB",     "KiB",    "GiB",     "TiB",
                                        "B",         "px", "%", "\xC3\x97", "threads", "pixels", "outputs", NULL};
    for (int i = 0; units[i]; ++i) {
        size_t n = strlen(units[i]);
        if (strncmp(s, units[i], n) == 0) {
            char c = s[n];
            if (c == '\0' || c == ' ' || c == '\n' || c == ',' || c == '.' || c == ')' || c == ';' || c == ':' ||
                (unsigned char)c >= 0x80)
                return true;
        }
    }
    return false;
}

/* Whether a line may break at position p, between the code point before
 * it (`before`) and the one at p. */
static bool may_break(uint32_t before, const char *p)
{
    const char *q = p;
    uint32_t after;
    if (*p == ' ') { /* a space: a break, unless it holds a number to its unit */
        const char *w = p, *u;
        while (*w == ' ')
            ++w;
        u = w;
        /* 4.4 ms, or 2 and a Chinese measure word: a number keeps what follows it */
        return !(is_digit(before) && (unit_at(w) || lb_is_cjk(lb_utf8_next(&u))));
    }
    if (before == ' ')
        return false; /* the space before was the place to break, or not */
    after = lb_utf8_next(&q);
    if (!lb_is_cjk(before) && !lb_is_cjk(after))
        return false; /* inside a Latin word or number */
    if (no_start(after) || no_end(before))
        return false;
    return true;
}

const char *lb_line(const char *text, float max_w, lb_measure measure, void *ctx, const char **next)
{
    const char *p = text, *fit = NULL, *fit_next = NULL;
    uint32_t before = 0;
    while (*p && *p != '\n') {
        const char *q = p;
        uint32_t cp = lb_utf8_next(&q);
        if (p > text && may_break(before, p)) {
            /* the line could end here: remember it while the text up to p fits */
            const char *end = p, *start = p;
            while (end > text && end[-1] == ' ')
                --end;
            while (*start == ' ')
                ++start;
            if (measure(ctx, text, end) <= max_w) {
                fit = end;
                fit_next = start;
            }
        }
        if (measure(ctx, text, q) > max_w && p > text)
            break; /* this character does not fit: back to the last break */
        before = cp;
        p = q;
    }
    if (!*p || *p == '\n') { /* the whole rest fits */
        *next = *p == '\n' ? p + 1 : p;
        return p;
    }
    if (fit && fit > text) {
        *next = fit_next;
        return fit;
    }
    /* no break fits: cut where the text stops fitting (one character at least) */
    *next = p;
    while (**next == ' ')
        ++*next;
    return p;
}
