/* err.h - the reason a call failed, readable by its caller.
 *
 * Functions in convis return bool (or a handle, NULL on failure) and leave
 * one sentence here that names what went wrong. The reason is per thread.
 * Only main decides to exit. */
#ifndef CONVIS_ERR_H
#define CONVIS_ERR_H

#include <stdbool.h>
#include <stddef.h>

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
    ERR_EXISTS, /* the file to write is there already (convis does not overwrite) */
    ERR_ENV,    /* the machine refused: a full disk, a file size limit, an I/O error, no memory */
} err_kind;

/* err_set, with a kind. */
bool err_set_kind(err_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

err_kind err_last_kind(void);

/* The kind of a failure that left `e` in errno: ERR_ENV for the machine's
 * own limits (ENOSPC, EDQUOT, EFBIG, EIO, ENOMEM), ERR_OTHER otherwise. */
err_kind err_kind_of_errno(int e);

/* The reason left by the last failed call on this thread ("" when none). */
const char *err_msg(void);

/* Forgets the reason. */
void err_clear(void);

/* Text from a file, made safe to quote in a message that may reach a
 * terminal: `n` bytes of `s` into buf (`size` bytes), printable UTF-8 as it
 * is, control characters and bytes that are not UTF-8 escaped (ESC as
 * \x1b, BEL as \x07, the C1 controls as \u0080 ... \u009f), so that no
 * escape sequence of a file can retitle or clear the terminal. Cut at a
 * whole character, ending in "...", when it does not fit. Returns buf. */
const char *err_shown(const char *s, size_t n, char *buf, size_t size);

#endif
