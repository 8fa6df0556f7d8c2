#include "err.h"

#include <stdarg.h>
#include <stdio.h>

#include "tr.h"

static _Thread_local char err_buf[1024];
static _Thread_local err_kind err_kind_now;

/* Both setters: the sentence, and its kind. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
static bool set(err_kind kind, const char *fmt, va_list ap)
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

const char *err_msg(void)
{
    return err_buf;
}

void err_clear(void)
{
    err_buf[0] = '\0';
    err_kind_now = ERR_OTHER;
}
