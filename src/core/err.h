/* err.h - the reason a call failed, readable by its caller.
 *
 * Functions in convis return bool (or a handle, NULL on failure) and leave
 * one sentence here that names what went wrong. The reason is per thread.
 * Only main decides to exit. */
#ifndef CONVIS_ERR_H
#define CONVIS_ERR_H

#include <stdbool.h>

/* Sets the current thread's reason, printf-style, its format looked up in
 * the catalogue first (tr.h: the sentence is in the current language; the
 * catalogue's tools collect every err_set format). Always returns false so
 * a caller can write `return err_set(...);`. */
bool err_set(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* What kind of failure the reason is, for a caller that decides on it
 * (never by searching the sentence). err_set leaves ERR_OTHER. */
typedef enum err_kind {
    ERR_OTHER = 0,
    ERR_EXISTS,     /* the file to write is there already (convis does not overwrite) */
} err_kind;

/* err_set, with a kind. */
bool err_set_kind(err_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

err_kind err_last_kind(void);

/* The reason left by the last failed call on this thread ("" when none). */
const char *err_msg(void);

/* Forgets the reason. */
void err_clear(void);

#endif
