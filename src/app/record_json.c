/* record_json.c - JSON's text in records and in bench's figures: a string
 * written with JSON's escapes; and, before libyaml reads a record, its text
 * held to JSON's kind of text and its nesting bounded (record_json.h). */
#define _POSIX_C_SOURCE 200809L
#include "record_json.h"

#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "record.h"

/* A JSON string. */
void rec_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Line and column (1-based, in characters) of byte `at` of the text. */
static void text_position(const unsigned char *s, size_t at, int *line, int *column)
{
    *line = 1, *column = 1;
    for (size_t i = 0; i < at; ++i) {
        if (s[i] == '\n')
            ++*line, *column = 1;
        else if ((s[i] & 0xC0) != 0x80)
            ++*column;
    }
}

/* A refusal of the text at byte `at`: what is there, escaped, and where. */
static bool not_json(const char *path, const unsigned char *s, size_t n, size_t at)
{
    char shown[32];
    size_t len = 1;
    int line, column;
    while (at + len < n && len < 4 && (s[at + len] & 0xC0) == 0x80)
        ++len; /* the whole character */
    text_position(s, at, &line, &column);
    return err_set("'%s' is not a record convis reads: '%s' at line %d, column %d is not JSON; a record is JSON, as "
                   "convis record writes it",
                   path, err_shown((const char *)s + at, len, shown, sizeof shown), line, column);
}

/* What a record's text may hold outside its strings, as JSON writes it:
 * brackets, braces, commas, colons, spaces, numbers, true, false, null. */
static bool json_outside(unsigned char c)
{
    return (c && strchr(" \t\r\n{}[],:+-.", c)) || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

/* Before libyaml reads a record, in one pass: its text is JSON's kind of
 * text (libyaml would read all of YAML: anchors, aliases, tags, comments,
 * other quotes), and its lists and mappings are nested at most
 * REC_MAX_DEPTH deep (libyaml has no bound on nesting, and its time grows
 * with the square of the depth). The strings and the nesting found here
 * are libyaml's: a quote never opens a string inside a bare word, a colon
 * only follows a mapping's key (in a list, "key": value would be a mapping
 * of its own), brackets close what they opened, and outside the brackets
 * of the one root value there is only space. */
bool rec_json_shape(const char *path, const unsigned char *s, size_t n)
{
    char open[REC_MAX_DEPTH]; /* '{' or '[': what each level is */
    int depth = 0, line, column;
    bool in_string = false, in_word = false, entry_start = false, after_key = false, ended = false;
    for (size_t i = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0; i < n; ++i) { /* after a byte order mark */
        unsigned char c = s[i];
        if (in_string) {
            if (c < 0x20 || (c == '\\' && (i + 1 >= n || !strchr("\"\\/bfnrtu", s[i + 1]) || !s[i + 1])))
                return not_json(path, s, n, i); /* JSON's escapes only (YAML's \0, \x, \e ... are not) */
            if (c == '\\')
                ++i; /* the escaped character: a quote there does not end the string */
            else if (c == '"')
                in_string = false, after_key = entry_start, entry_start = false;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        if (depth == 0 && (ended || (c != '{' && c != '[')))
            return not_json(path, s, n, i); /* one value, in brackets or braces, and space around it */
        if (c == '"' && !in_word) {
            in_string = true;
            continue;
        }
        if (c == '"' || !json_outside(c) || (c == ':' && !after_key) ||
            ((c == '}' || c == ']') && open[depth - 1] != (c == '}' ? '{' : '[')))
            return not_json(path, s, n, i);
        in_word = !strchr("{}[],:", c);
        after_key = false;
        entry_start = (c == '{' || c == ',') && (c == '{' || open[depth - 1] == '{'); /* a mapping's key comes next */
        if (c == '{' || c == '[') {
            if (depth == REC_MAX_DEPTH) {
                text_position(s, i, &line, &column);
                return err_set("'%s' is not a record convis reads: its lists and mappings are nested more than %d "
                               "deep at line %d, column %d; a record needs %d levels",
                               path, REC_MAX_DEPTH, line, column, REC_DEPTH);
            }
            open[depth++] = (char)c;
        } else if (c == '}' || c == ']') {
            ended = --depth == 0;
        }
    }
    return true;
}

/* Whether s is a number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)?; *whole when it has neither a fraction nor an exponent. */
bool rec_json_number(const char *s, bool *whole)
{
    *whole = true;
    if (*s == '-')
        ++s;
    if (*s == '0')
        ++s;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            ++s;
    else
        return false;
    if (*s == '.') {
        *whole = false;
        if (!(*++s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            ++s;
    }
    if (*s == 'e' || *s == 'E') {
        *whole = false;
        ++s;
        if (*s == '+' || *s == '-')
            ++s;
        if (!(*s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            ++s;
    }
    return *s == '\0';
}
