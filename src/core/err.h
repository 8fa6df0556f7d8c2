/* err.h - the reason a call failed, readable by its caller.
 *
 * Functions in convis return bool (or a handle, NULL on failure) and leave
 * one sentence here that names what went wrong. The reason is per thread.
 * Only main decides to exit. */
#ifndef CONVIS_ERR_H
#define CONVIS_ERR_H

#include <stdbool.h>

/* Sets the current thread's reason, printf-style. Always returns false so a
 * caller can write `return err_set(...);`. */
bool err_set(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The reason left by the last failed call on this thread ("" when none). */
const char *err_msg(void);

/* Forgets the reason. */
void err_clear(void);

#endif
