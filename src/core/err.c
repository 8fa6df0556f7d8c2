#include "err.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char err_buf[1024];
static _Thread_local err_kind err_kind_now;

bool err_set(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_buf, sizeof err_buf, fmt, ap);
    va_end(ap);
    err_kind_now = ERR_OTHER;
    return false;
}

bool err_set_kind(err_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_buf, sizeof err_buf, fmt, ap);
    va_end(ap);
    err_kind_now = kind;
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
