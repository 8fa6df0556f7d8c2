/* linebreak.h - where a line of text may break, in one place: spaces in
 * Latin text; between any two characters in Chinese, Japanese and Korean
 * text, except that a closing mark (。，、；：？！）」』 …) never starts a line
 * and an opening one (（「『 …) never ends one (the kinsoku rules); and a
 * number never parts from its unit ("4.4 µs", "1.5 MiB", "138.4×").
 * Pure: the caller measures the text (lb_measure), so the rules are tested
 * without fonts. */
#ifndef CONVIS_LINEBREAK_H
#define CONVIS_LINEBREAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The next code point of UTF-8 text, advancing *s; U+FFFD for a broken
 * sequence (one byte consumed or the bytes read so far). */
uint32_t lb_utf8_next(const char **s);

/* Copies the text `s` into buf (`size` bytes, NUL-terminated); when it
 * does not fit, it is cut before the first character that does not, never
 * inside one. Returns buf. */
char *lb_copy(char *buf, size_t size, const char *s);

/* Whether a code point is of a script written without spaces (CJK
 * ideographs, kana, hangul, full-width forms and CJK punctuation). */
bool lb_is_cjk(uint32_t cp);

/* The width of the text from `start` to `end` (bytes), in any unit. */
typedef float (*lb_measure)(void *ctx, const char *start, const char *end);

/* One line of `text` (up to a '\n' or its end) that fits `max_w`: returns
 * where the line's text ends, and sets *next to where the next line starts
 * (after the spaces or the '\n' the break used). A line holds at least one
 * character even when that does not fit. At the end of the text *next
 * points at its '\0'. */
const char *lb_line(const char *text, float max_w, lb_measure measure, void *ctx, const char **next);

#endif
