/* record_json.h - JSON's text, for reading records (record.c) before and
 * while libyaml parses them. rec_json_string, which writes a JSON string,
 * is declared in record.h. */
#ifndef CONVIS_RECORD_JSON_H
#define CONVIS_RECORD_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* Before libyaml reads the record `path` (its n bytes at s), in one pass:
 * its text is JSON's kind of text (libyaml would read all of YAML), and its
 * lists and mappings are nested at most REC_MAX_DEPTH deep; false with one
 * sentence naming the file, the line and the column otherwise. */
bool rec_json_shape(const char *path, const unsigned char *s, size_t n);

/* Whether s is a number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)?; *whole when it has neither a fraction nor an exponent. */
bool rec_json_number(const char *s, bool *whole);

#endif
