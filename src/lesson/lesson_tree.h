/* lesson_tree.h - inside the lesson parser: the tree libyaml's events build
 * (nodes with their positions) and the checks its files share (lesson.c,
 * the lesson and its steps; question.c, a step's question and the teacher's
 * notes). Not for other layers: lesson.h is the parser's interface. */
#ifndef CONVIS_LESSON_TREE_H
#define CONVIS_LESSON_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include <yaml.h>

#include "lesson.h"

typedef enum { N_SCALAR, N_SEQ, N_MAP } node_kind;

typedef struct node {
    node_kind kind;
    int line, column;          /* 1-based, where the node starts */
    size_t index;              /* byte offset of the start in the text given to libyaml */
    yaml_scalar_style_t style; /* scalars */
    char *value;               /* scalars: NUL-terminated copy */
    size_t length;
    struct node **kids; /* sequences: items; mappings: key, value, key, value, ... */
    int count, cap;
} node;

/* Where a scalar's first character sits, and whether its value keeps the
 * file's line breaks (block scalars). A block scalar's value starts on the
 * line after its | or >, indented as its first non-blank line. */
typedef struct base {
    int line, column;
    bool by_lines;
} base;

typedef struct parse {
    const char *name;
    const char *text; /* what libyaml reads (after a UTF-8 byte order mark) */
    size_t size;
} parse;

/* Every failure: "name:line:column: message", the message looked up in the
 * catalogue (po/make_pot.sh collects lsn_fail_at's formats). */
bool lsn_fail_at(const char *name, int line, int column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The start of s (n bytes) for a message: at most 40 bytes, "..." when cut. */
const char *lsn_clip(const char *s, size_t n, char *buf, size_t size);
const char *lsn_node_what(const node *n); /* "a list", "a number", "text" ... */
bool lsn_plain_null(const node *n);
bool lsn_plain_number(const node *n);
base lsn_scalar_base(const node *n, const char *text, size_t size);
const node *lsn_map_get(const node *map, const char *key);
/* Keys: scalars, known, each once; `where` names the mapping, `has` lists its keys. */
bool lsn_check_keys(const parse *ps, const node *map, const char *const *known, const char *where, const char *has);
char *lsn_dup_n(const char *s, size_t n);
bool lsn_blank(const char *s, size_t n);
/* A scalar with something in it; `what` names it, `fix` says what to write. */
bool lsn_text_value(const parse *ps, const node *v, const char *what, const char *fix);
/* A narration: text, its placeholders checked; a copy in *out. */
bool lsn_say_value(const parse *ps, const node *v, const char *what, char **out);

/* question.c: a step's `ask:` into st->ask, a `notes:` into *out. */
bool lsn_ask_value(const parse *ps, const node *v, int step_no, lsn_ask *out);
bool lsn_notes_value(const parse *ps, const node *v, const char *what, char **out);
void lsn_ask_free(lsn_ask *q);

#endif
