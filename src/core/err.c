#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tr.h"

static _Thread_local char err_buf[1024];
static _Thread_local err_kind err_kind_now;

/* Both setters: the sentence, and its kind. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
static bool
set(err_kind kind, const char *fmt, va_list ap)
{
    vsnprintf(err_buf, sizeof err_buf, _(fmt), ap); /* in the current language */
    err_kind_now = kind;
    return false;
}

bool err_set(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set(ERR_OTHER, fmt, ap);
    va_end(ap);
    return false;
}

bool err_set_kind(err_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set(kind, fmt, ap);
    va_end(ap);
    return false;
}

err_kind err_last_kind(void)
{
    return err_kind_now;
}

err_kind err_kind_of_errno(int e)
{
    return e == ENOSPC || e == EDQUOT || e == EFBIG || e == EIO || e == ENOMEM ? ERR_ENV : ERR_OTHER;
}

const char *err_msg(void)
{
    return err_buf;
}

void err_clear(void)
{
    err_buf[0] = '\0';
    err_kind_now = ERR_OTHER;
}

/* The length of the valid UTF-8 character at s (at most n bytes), 0 when
 * the bytes there are not one (overlong, a surrogate, cut short, stray). */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    size_t more;
    uint32_t cp;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        more = 1, cp = s[0] & 0x1Fu;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        more = 2, cp = s[0] & 0x0Fu;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        more = 3, cp = s[0] & 0x07u;
    else
        return 0;
    if (n <= more)
        return 0;
    for (size_t i = 1; i <= more; ++i) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if ((more == 2 && cp < 0x800) || (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return more + 1;
}

/* One character of s as a message shows it, into out (at least 7 bytes):
 * the character, or its escape; sets *used to the bytes of s it took. */
static size_t shown_char(const unsigned char *s, size_t n, char *out, size_t *used)
{
    size_t len = utf8_length(s, n);
    if (len == 0) { /* a byte that is not UTF-8 */
        *used = 1;
        return (size_t)snprintf(out, 7, "\\x%02x", s[0]);
    }
    *used = len;
    if (s[0] < 0x20 || s[0] == 0x7F)
        return (size_t)snprintf(out, 7, "\\x%02x", s[0]);
    if (s[0] == 0xC2 && s[1] < 0xA0) /* U+0080 ... U+009F: the C1 controls (CSI is U+009B) */
        return (size_t)snprintf(out, 7, "\\u%04x", s[1]);
    memcpy(out, s, len);
    return len;
}

const char *err_shown(const char *s, size_t n, char *buf, size_t size)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t at = 0, used = 0, keep = 0; /* keep: the last whole end with room for "..." after it */
    if (size == 0)
        return buf;
    while (used < n) {
        char one[8];
        size_t took, len = shown_char(p + used, n - used, one, &took);
        if (at + len > size - 1) { /* it does not fit: cut where "..." fits */
            if (keep + 3 <= size - 1)
                memcpy(buf + keep, "...", 3), keep += 3;
            buf[keep] = '\0';
            return buf;
        }
        memcpy(buf + at, one, len);
        at += len;
        used += took;
        if (at + 3 <= size - 1)
            keep = at;
    }
    buf[at] = '\0';
    return buf;
}
