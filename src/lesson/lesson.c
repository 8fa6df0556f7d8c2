/* lesson.c - the lesson parser: libyaml's event API builds a small tree of
 * nodes (with their positions), then the tree is checked against the lesson
 * format and copied into an lsn_lesson.
 *
 * Safety: the input is capped at 1 MiB and every string at 64 KiB; aliases
 * (*name) are refused, so no node is ever shared or expanded (no "billion
 * laughs"); anchors are ignored; tags are refused; nesting is capped, and the
 * tree is freed by a walk whose depth the cap bounds. */
#define _POSIX_C_SOURCE 200809L
#include "lesson.h"
#include "lesson_tree.h"
#include "core/tr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "core/err.h"

/* clang-format off */
const char *const lsn_placeholders[] = {
    "cpu_seq_ms", "cpu_par_ms", "gpu_ms", "gpu_engine", "gpu_device", "ratio_par_seq", "ratio_gpu_par",
    "image_size", "outputs", "threads", "blocks", "block_size", "cpu_threads", "gpu_result", "gpu_copy_ms", "crossover", "passes", "chain_cpu_ms", "chain_gpu_ms", "chain_length", "image_bytes", "device_memory", "largest_image", "cpu_simd_ms", "ratio_simd_seq", "ratio_par_simd",
    "memory_budget", "tiles", "tile_ms", "warp_size", "record", "gpu_label", "cpu_cores", "cpu_cores_note",
    "par_band_outputs", "tiles_vs_whole", "race_wrong", "chain_cpu_independent_ms", "chain_gpu_independent_ms",
    "chain_cpu_wait_ratio", "chain_gpu_wait_ratio", "gpu_bound", "sweep_bound",
    "cpu_threads_why", "sweep_gpu_vs_seq", "filter", "taps", "tile_reuse", "input_tile_idle", "filter_sweep_growth",
    "filter_sweep_separable", "filter_sweep_roofline", "layer", "layer_copies", "layer_ways", "layer_library",
    "lab_result", "lab_reads", "lab_file", NULL,
};
/* clang-format on */

/* A lesson needs four levels (lesson, steps, step, do); this leaves room for
 * a clear message about a mistake rather than a deep walk. */
#define MAX_DEPTH 32

/* ---- messages ------------------------------------------------------------------------------ */

bool lsn_fail_at(const char *name, int line, int column, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, _(fmt), ap); /* in the current language (po/make_pot.sh collects fail_at) */
    va_end(ap);
    return err_set("%s:%d:%d: %s", name, line, column, msg);
}

/* The start of s (n bytes) for a message: at most 40 bytes, cut at a
 * character boundary, line breaks shown as spaces, "..." when cut, other
 * control characters escaped (err_shown). */
const char *lsn_clip(const char *s, size_t n, char *buf, size_t size)
{
    char flat[48];
    size_t k = 0;
    bool cut = n > 40;
    if (cut) {
        n = 40;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            --n;
    }
    for (; k < n; ++k)
        flat[k] = (s[k] == '\n' || s[k] == '\r' || s[k] == '\t') ? ' ' : s[k];
    if (cut)
        flat[k++] = '.', flat[k++] = '.', flat[k++] = '.';
    return err_shown(flat, k, buf, size);
}

/* ---- the tree ------------------------------------------------------------------------------ */


static void node_free(node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->count; ++i)
        node_free(n->kids[i]);
    free(n->kids);
    free(n->value);
    free(n);
}

static bool node_add(node *parent, node *kid)
{
    if (parent->count == parent->cap) {
        int cap = parent->cap ? parent->cap * 2 : 8;
        node **k = realloc(parent->kids, (size_t)cap * sizeof *k);
        if (!k)
            return false;
        parent->kids = k;
        parent->cap = cap;
    }
    parent->kids[parent->count++] = kid;
    return true;
}

bool lsn_plain_null(const node *n)
{
    return n->kind == N_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE &&
           (n->length == 0 || !strcmp(n->value, "~") || !strcmp(n->value, "null") || !strcmp(n->value, "Null") ||
            !strcmp(n->value, "NULL"));
}

/* A plain scalar YAML reads as a number: 12, -3, 1.5, 2e3, 0x1F, 0o17, .inf, .nan. */
bool lsn_plain_number(const node *n)
{
    const char *s = n->value;
    bool digits = false;
    if (n->kind != N_SCALAR || n->style != YAML_PLAIN_SCALAR_STYLE || !n->length)
        return false;
    if (*s == '-' || *s == '+')
        ++s;
    if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF"))
        return true;
    if (s == n->value && (!strcmp(s, ".nan") || !strcmp(s, ".NaN") || !strcmp(s, ".NAN")))
        return true;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'o') && s[2]) {
        const char *ok = s[1] == 'x' ? "0123456789abcdefABCDEF" : "01234567";
        return strspn(s + 2, ok) == strlen(s + 2);
    }
    while (*s >= '0' && *s <= '9')
        ++s, digits = true;
    if (*s == '.')
        for (++s; *s >= '0' && *s <= '9'; ++s)
            digits = true;
    if (!digits)
        return false;
    if (*s == 'e' || *s == 'E') {
        ++s;
        if (*s == '-' || *s == '+')
            ++s;
        if (!(*s >= '0' && *s <= '9'))
            return false;
        while (*s >= '0' && *s <= '9')
            ++s;
    }
    return *s == '\0';
}

const char *lsn_node_what(const node *n)
{
    if (n->kind == N_SEQ)
        return _("a list");
    if (n->kind == N_MAP)
        return _("a mapping (key: value)");
    if (lsn_plain_null(n))
        return _("nothing");
    if (lsn_plain_number(n))
        return _("a number");
    return _("text");
}

/* True when s (n bytes) is valid UTF-8 without NUL bytes. libyaml already
 * refuses invalid input; this also covers what escapes ("\0") can make. */
static bool utf8_text(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        unsigned c = *p;
        int more;
        uint32_t cp;
        if (c == 0)
            return false;
        if (c < 0x80) {
            ++p;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            more = 1, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
            more = 2, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
            more = 3, cp = c & 0x07;
        else
            return false;
        if (end - p <= more)
            return false;
        for (int i = 1; i <= more; ++i) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[i] & 0x3F);
        }
        if ((more == 2 && cp < 0x800) || (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += more + 1;
    }
    return true;
}

/* ---- positions inside a string ------------------------------------------------------------- */


base lsn_scalar_base(const node *n, const char *text, size_t size)
{
    base b = {n->line, n->column, false};
    if (n->style == YAML_SINGLE_QUOTED_SCALAR_STYLE || n->style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
        b.column += 1;
    } else if (n->style == YAML_LITERAL_SCALAR_STYLE || n->style == YAML_FOLDED_SCALAR_STYLE) {
        size_t i = n->index;
        int indent = 0;
        b.line += 1;
        b.by_lines = true;
        while (i < size && text[i] != '\n')
            ++i;
        while (i < size) { /* i at a '\n': measure the next line */
            size_t j = ++i;
            while (j < size && text[j] == ' ')
                ++j;
            if (j < size && text[j] != '\n' && text[j] != '\r') {
                indent = (int)(j - i);
                break;
            }
            i = j;
            while (i < size && text[i] != '\n')
                ++i;
        }
        b.column = indent + 1;
    }
    return b;
}

/* Moves (line, column) over s[0..n): characters count one column; a line
 * break starts the next line when the text keeps the file's lines. */
static void advance(const char *s, size_t n, const base *b, int *line, int *column)
{
    for (size_t i = 0; i < n; ++i) {
        if (s[i] == '\n' && b->by_lines)
            ++*line, *column = b->column;
        else if (((unsigned char)s[i] & 0xC0) != 0x80)
            ++*column;
    }
}

/* ---- placeholders -------------------------------------------------------------------------- */

static bool placeholder_known(const char *s, size_t n)
{
    for (int i = 0; lsn_placeholders[i]; ++i)
        if (strlen(lsn_placeholders[i]) == n && !memcmp(lsn_placeholders[i], s, n))
            return true;
    return false;
}

bool lsn_check_placeholders(const char *name, const char *text, int line, int column, bool by_lines)
{
    base b = {line, column, by_lines};
    const char *p = text;
    char names[1024], shown[64];
    size_t used = 0;
    if (!text)
        return true;
    names[0] = '\0';
    while (*p) {
        size_t step = 1;
        if (p[0] == '{' && p[1] == '{') {
            step = 2;
        } else if (p[0] == '}' && p[1] == '}') {
            step = 2;
        } else if (p[0] == '}') {
            return lsn_fail_at(name, line, column,
                           "this '}' closes no '{'; write }} for a literal brace, or {name} for a measurement");
        } else if (p[0] == '{') {
            const char *q = p + 1;
            while (*q && *q != '}' && *q != '{' && *q != '\n')
                ++q;
            if (*q != '}')
                return lsn_fail_at(name, line, column,
                               "this '{' is never closed; write {name} for a measurement, such as {gpu_ms}, or "
                               "{{ for a literal brace");
            if (!placeholder_known(p + 1, (size_t)(q - p - 1))) {
                for (int i = 0; lsn_placeholders[i] && used + 1 < sizeof names; ++i) {
                    int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", lsn_placeholders[i]);
                    used = n < 0 ? sizeof names : used + (size_t)n; /* past the end: the list stops, cut */
                }
                return lsn_fail_at(name, line, column, "unknown placeholder {%s}; the placeholders are %s",
                               lsn_clip(p + 1, (size_t)(q - p - 1), shown, sizeof shown), names);
            }
            step = (size_t)(q - p) + 1;
        }
        advance(p, step, &b, &line, &column);
        p += step;
    }
    return true;
}

/* ---- building the tree from libyaml's events ----------------------------------------------- */


/* Line and column (1-based, in characters) of byte `offset` of the text. */
static void offset_position(const parse *ps, size_t offset, int *line, int *column)
{
    *line = 1, *column = 1;
    for (size_t i = 0; i < offset && i < ps->size; ++i) {
        unsigned char c = (unsigned char)ps->text[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= ps->size || ps->text[i + 1] != '\n')))
            ++*line, *column = 1;
        else if ((c & 0xC0) != 0x80 && c != '\r')
            ++*column;
    }
}

static bool contains(const char *s, const char *part)
{
    return s && strstr(s, part);
}

/* libyaml's reader, scanner and parser errors as one sentence at file:line:column. */
static bool yaml_failure(const parse *ps, const yaml_parser_t *p)
{
    int line, column, cline = (int)p->context_mark.line + 1, ccol = (int)p->context_mark.column + 1;
    const char *problem = p->problem ? p->problem : "unreadable YAML";
    const char *context = p->context;
    switch (p->error) {
    case YAML_MEMORY_ERROR: return lsn_fail_at(ps->name, 1, 1, "out of memory while reading the lesson");
    case YAML_READER_ERROR: {
        size_t at = p->problem_offset;
        /* libyaml points at a bad trailing byte: point at its sequence's start */
        if (contains(problem, "trailing") && at > 0 && at <= ps->size) {
            --at;
            while (at > 0 && ((unsigned char)ps->text[at] & 0xC0) == 0x80)
                --at;
        }
        offset_position(ps, at, &line, &column);
        if (contains(problem, "control character"))
            return lsn_fail_at(ps->name, line, column,
                           "a control character (byte 0x%02X) is not allowed in a lesson; remove it",
                           (unsigned)p->problem_value & 0xFF);
        if (contains(problem, "UTF-8") || contains(problem, "Unicode"))
            return lsn_fail_at(ps->name, line, column,
                           "the bytes here are not valid UTF-8 (%s); save the lesson as UTF-8 text", problem);
        return lsn_fail_at(ps->name, line, column, "%s; save the lesson as UTF-8 text", problem);
    }
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR: break;
    default: return lsn_fail_at(ps->name, 1, 1, "unreadable YAML (%s)", problem);
    }
    line = (int)p->problem_mark.line + 1;
    column = (int)p->problem_mark.column + 1;
    if (contains(context, "quoted scalar") && contains(problem, "end of stream"))
        return lsn_fail_at(ps->name, cline, ccol,
                       "the quoted text that starts here is never closed; end it with the same quote");
    if (contains(context, "flow sequence") || (contains(problem, "','") && contains(problem, "']'")))
        return lsn_fail_at(ps->name, context ? cline : line, context ? ccol : column,
                       "the list that starts here with '[' is not closed properly (%s at %d:%d); separate items "
                       "with commas and end the list with ']'",
                       problem, line, column);
    if (contains(context, "flow mapping"))
        return lsn_fail_at(ps->name, cline, ccol,
                       "the mapping that starts here with '{' is not closed properly (%s at %d:%d); end it with "
                       "'}', or quote text that starts with '{'",
                       problem, line, column);
    if (contains(problem, "mapping values are not allowed"))
        return lsn_fail_at(ps->name, line, column,
                       "this ':' cannot start a value here; put text that contains ': ' in quotes or after '|' on "
                       "its own line, and check the indentation");
    if (contains(context, "quoted scalar"))
        return lsn_fail_at(ps->name, line, column,
                       "%s in the quoted text that starts at %d:%d; inside double quotes write \\\\ for a "
                       "backslash, or use single quotes",
                       problem, cline, ccol);
    if (contains(problem, "tab") || (p->problem_mark.index < ps->size && ps->text[p->problem_mark.index] == '\t'))
        return lsn_fail_at(ps->name, line, column, "a tab indents this line; indent with spaces only");
    if (contains(problem, "cannot start any token"))
        return lsn_fail_at(ps->name, line, column,
                       "this character cannot start a value (%s); quote text that starts with @, ` or %% and "
                       "indent with spaces, not tabs",
                       problem);
    if (contains(context, "block mapping") || contains(context, "block collection"))
        return lsn_fail_at(ps->name, line, column,
                       "%s (the mapping or list it belongs to starts at %d:%d); check the indentation: the keys of "
                       "one mapping and the '- ' of one list line up",
                       problem, cline, ccol);
    if (context)
        return lsn_fail_at(ps->name, line, column, "%s %s at %d:%d; check the indentation, quotes and brackets", problem,
                       context, cline, ccol);
    return lsn_fail_at(ps->name, line, column, "%s; check the indentation, quotes and brackets", problem);
}

/* Reads the text into a tree; *root NULL when the file holds no document or
 * an empty one. */
static bool build_tree(const parse *ps, node **root)
{
    yaml_parser_t p;
    yaml_event_t ev;
    node *stack[MAX_DEPTH];
    int depth = 0, documents = 0;
    bool ok = false, done = false;
    char shown[64];

    *root = NULL;
    if (!yaml_parser_initialize(&p))
        return lsn_fail_at(ps->name, 1, 1, "out of memory while reading the lesson");
    yaml_parser_set_input_string(&p, (const unsigned char *)ps->text, ps->size);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);

    while (!done) {
        node *n = NULL;
        int line, column;
        if (!yaml_parser_parse(&p, &ev)) {
            yaml_failure(ps, &p);
            goto delete_parser;
        }
        line = (int)ev.start_mark.line + 1;
        column = (int)ev.start_mark.column + 1;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1) {
                lsn_fail_at(ps->name, line, column,
                        "a second document starts here (after '---' or '...'); a lesson file holds one lesson");
                goto delete_event;
            }
            break;
        case YAML_ALIAS_EVENT:
            lsn_fail_at(ps->name, line, column,
                    "aliases (*%s) are not used in lessons; write the text out where it is needed",
                    lsn_clip((const char *)ev.data.alias.anchor, strlen((const char *)ev.data.alias.anchor), shown,
                         sizeof shown));
            goto delete_event;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            const yaml_char_t *tag = ev.type == YAML_SCALAR_EVENT           ? ev.data.scalar.tag
                                     : ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.tag
                                                                            : ev.data.mapping_start.tag;
            if (tag) {
                lsn_fail_at(ps->name, line, column,
                        "tags (%s) are not used in lessons; remove the tag, and quote text that starts with '!'",
                        lsn_clip((const char *)tag, strlen((const char *)tag), shown, sizeof shown));
                goto delete_event;
            }
            if (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.length > LSN_MAX_STRING_BYTES) {
                lsn_fail_at(ps->name, line, column,
                        "this text is %zu bytes long; a string in a lesson may be at most %d bytes (64 KiB)",
                        ev.data.scalar.length, LSN_MAX_STRING_BYTES);
                goto delete_event;
            }
            if (ev.type == YAML_SCALAR_EVENT && !utf8_text((const char *)ev.data.scalar.value, ev.data.scalar.length)) {
                lsn_fail_at(ps->name, line, column,
                        "this text holds a NUL character or bytes that are not UTF-8 (from an escape such as "
                        "\\0); remove them");
                goto delete_event;
            }
            if (depth >= MAX_DEPTH && ev.type != YAML_SCALAR_EVENT) {
                lsn_fail_at(ps->name, line, column,
                        "lists and mappings are nested more than %d deep here; a lesson needs four levels at "
                        "most (lesson, steps, step, do)",
                        MAX_DEPTH);
                goto delete_event;
            }
            n = calloc(1, sizeof *n);
            if (!n) {
                lsn_fail_at(ps->name, line, column, "out of memory while reading the lesson");
                goto delete_event;
            }
            n->line = line;
            n->column = column;
            n->index = ev.start_mark.index;
            if (ev.type == YAML_SCALAR_EVENT) {
                n->kind = N_SCALAR;
                n->style = ev.data.scalar.style;
                n->length = ev.data.scalar.length;
                n->value = malloc(n->length + 1);
                if (n->value) {
                    memcpy(n->value, ev.data.scalar.value, n->length);
                    n->value[n->length] = '\0';
                }
            } else {
                n->kind = ev.type == YAML_SEQUENCE_START_EVENT ? N_SEQ : N_MAP;
            }
            if ((n->kind == N_SCALAR && !n->value) || (depth > 0 && !node_add(stack[depth - 1], n))) {
                node_free(n);
                lsn_fail_at(ps->name, line, column, "out of memory while reading the lesson");
                goto delete_event;
            }
            if (depth == 0)
                *root = n; /* one document, so one root */
            if (n->kind != N_SCALAR)
                stack[depth++] = n;
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            if (depth > 0)
                --depth;
            break;
        default: break;
        }
        yaml_event_delete(&ev);
    }
    ok = true;
    if (*root && lsn_plain_null(*root)) { /* "---" alone: an empty document */
        node_free(*root);
        *root = NULL;
    }
    goto delete_parser;

delete_event:
    yaml_event_delete(&ev);
delete_parser:
    yaml_parser_delete(&p);
    if (!ok) {
        node_free(*root);
        *root = NULL;
    }
    return ok;
}

/* ---- checking the tree against the format --------------------------------------------------- */

/* The mapping's value for `key`, NULL when absent. */
const node *lsn_map_get(const node *map, const char *key)
{
    for (int i = 0; i + 1 < map->count; i += 2)
        if (map->kids[i]->kind == N_SCALAR && !strcmp(map->kids[i]->value, key))
            return map->kids[i + 1];
    return NULL;
}

/* Levenshtein distance of short words, for "did you mean". */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), row[17] = {0};
    if (la > 16 || lb > 16)
        return 99;
    for (int j = 0; j <= lb; ++j)
        row[j] = j;
    for (int i = 1; i <= la; ++i) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; ++j) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* Keys: scalars, known, each once. `where` names the mapping ("in a step"),
 * `has` lists its keys for the message ("a step has say, do and wait"). */
bool lsn_check_keys(const parse *ps, const node *map, const char *const *known, const char *where, const char *has)
{
    char shown[64], hint[64];
    for (int i = 0; i + 1 < map->count; i += 2) {
        const node *k = map->kids[i];
        int hit = -1;
        if (k->kind != N_SCALAR || lsn_plain_null(k))
            return lsn_fail_at(ps->name, k->line, k->column, "a key here is %s %s; keys are words, and %s", lsn_node_what(k),
                           where, has);
        for (int j = 0; known[j]; ++j)
            if (!strcmp(k->value, known[j]))
                hit = j;
        if (hit < 0) {
            hint[0] = '\0';
            for (int j = 0; known[j]; ++j)
                if (distance(k->value, known[j]) <= (strlen(known[j]) >= 3 ? 2 : 1))
                    snprintf(hint, sizeof hint, _(" (did you mean '%s'?)"), known[j]);
            return lsn_fail_at(ps->name, k->line, k->column, "unknown key '%s' %s%s; %s",
                           lsn_clip(k->value, k->length, shown, sizeof shown), where, hint, has);
        }
        for (int j = 0; j < i; j += 2)
            if (!strcmp(map->kids[j]->value, k->value))
                return lsn_fail_at(ps->name, k->line, k->column, "the key '%s' appears twice %s (first at %d:%d); keep one",
                               lsn_clip(k->value, k->length, shown, sizeof shown), where, map->kids[j]->line,
                               map->kids[j]->column);
    }
    return true;
}

char *lsn_dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* True when s (n bytes) is only spaces, tabs and line breaks. */
bool lsn_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!strchr(" \t\r\n", s[i]))
            return false;
    return true;
}

/* A text value (title, image, say): a scalar with something in it. `what`
 * is "the title", "say in step 3"; `fix` says what to write. */
bool lsn_text_value(const parse *ps, const node *v, const char *what, const char *fix)
{
    if (v->kind != N_SCALAR)
        return lsn_fail_at(ps->name, v->line, v->column, "%s is %s, not text; %s", what, lsn_node_what(v), fix);
    if (lsn_plain_null(v) || lsn_blank(v->value, v->length))
        return lsn_fail_at(ps->name, v->line, v->column, "%s is empty; %s", what, fix);
    return true;
}

/* An image's name: a path inside the lesson's folder (or among convis's
 * own images), so a lesson shared by a stranger opens nothing else: not
 * absolute, no ".." part, no "\\". */
static bool path_value(const parse *ps, const node *v, const char *what, const char *example, const char *fix)
{
    const char *s, *end;
    char shown[400];
    if (!lsn_text_value(ps, v, what, fix))
        return false;
    s = v->value;
    end = s + v->length;
    err_shown(s, v->length, shown, sizeof shown); /* the name as the message quotes it */
    if (s[0] == '/' || s[0] == '~' || memchr(s, '\\', v->length))
        return lsn_fail_at(ps->name, v->line, v->column,
                       "%s '%s' is a path outside the lesson's folder; give a file beside the lesson or one "
                       "of convis's own, such as %s",
                       what, shown, example);
    for (const char *p = s; p < end;) {
        const char *slash = memchr(p, '/', (size_t)(end - p));
        const char *part_end = slash ? slash : end;
        if (part_end - p == 2 && p[0] == '.' && p[1] == '.')
            return lsn_fail_at(ps->name, v->line, v->column,
                           "%s '%s' climbs out of the lesson's folder (..); give a file beside the lesson or "
                           "in a folder under it",
                           what, shown);
        p = part_end + (slash ? 1 : 0);
        if (!slash)
            break;
    }
    return true;
}

static bool image_value(const parse *ps, const node *v, const char *fix)
{
    return path_value(ps, v, "image", "tiny.png", fix);
}

/* Adds the actions of one scalar of a step's do: the text split at commas,
 * each trimmed, each with its position. */
static bool add_actions(const parse *ps, const node *v, int step_no, lsn_step *st)
{
    base b = lsn_scalar_base(v, ps->text, ps->size);
    const char *s = v->value, *end = s + v->length, *p = s;
    char shown[64];
    if (lsn_plain_number(v))
        return lsn_fail_at(ps->name, v->line, v->column,
                       "do in step %d holds a number (%s); actions are names such as step, filter-6 or step*3", step_no,
                       lsn_clip(v->value, v->length, shown, sizeof shown));
    if (lsn_plain_null(v))
        return lsn_fail_at(ps->name, v->line, v->column,
                       "do in step %d holds an empty action; write actions such as do: [restart, step*3]", step_no);
    for (;;) {
        const char *a = p, *z;
        int line = b.line, column = b.column;
        while (p < end && *p != ',')
            ++p;
        z = p;
        while (a < z && strchr(" \t\r\n", *a))
            ++a;
        while (z > a && strchr(" \t\r\n", z[-1]))
            --z;
        advance(s, (size_t)(a - s), &b, &line, &column);
        if (a == z)
            return lsn_fail_at(ps->name, line, column,
                           "step %d has an empty action (two commas together, or a comma at an end); write "
                           "actions such as 'restart, step*3'",
                           step_no);
        for (const char *q = a; q < z; ++q)
            if (strchr(" \t\r\n", *q))
                return lsn_fail_at(ps->name, line, column,
                               "the action '%s' in step %d has a space in it; an action is one word such as "
                               "filter-6 or step*3, and commas separate actions",
                               lsn_clip(a, (size_t)(z - a), shown, sizeof shown), step_no);
        if (st->action_count >= LSN_MAX_ACTIONS)
            return lsn_fail_at(ps->name, line, column,
                           "step %d has more than %d actions; a step may have at most %d, so split it into "
                           "several steps",
                           step_no, LSN_MAX_ACTIONS, LSN_MAX_ACTIONS);
        st->actions[st->action_count].text = lsn_dup_n(a, (size_t)(z - a));
        if (!st->actions[st->action_count].text)
            return lsn_fail_at(ps->name, line, column, "out of memory while reading the lesson");
        st->actions[st->action_count].line = line;
        st->actions[st->action_count].column = column;
        st->action_count++;
        if (p >= end)
            return true;
        ++p; /* the comma */
    }
}

static bool do_value(const parse *ps, const node *v, int step_no, lsn_step *st)
{
    const char *fix = _("write actions such as do: [restart, step*3] or do: restart, step*3");
    if (v->kind == N_MAP)
        return lsn_fail_at(ps->name, v->line, v->column, "do in step %d is a mapping (key: value); %s", step_no, fix);
    st->actions = calloc(LSN_MAX_ACTIONS, sizeof *st->actions);
    if (!st->actions)
        return lsn_fail_at(ps->name, v->line, v->column, "out of memory while reading the lesson");
    if (v->kind == N_SCALAR)
        return add_actions(ps, v, step_no, st);
    if (v->count == 0)
        return lsn_fail_at(ps->name, v->line, v->column, "do in step %d is an empty list; %s, or leave do out", step_no,
                       fix);
    for (int i = 0; i < v->count; ++i) {
        const node *item = v->kids[i];
        if (item->kind != N_SCALAR)
            return lsn_fail_at(ps->name, item->line, item->column,
                           "an action in step %d is %s; each action is a name such as filter-6 or step*3", step_no,
                           lsn_node_what(item));
        if (!add_actions(ps, item, step_no, st))
            return false;
    }
    return true;
}

static bool wait_value(const parse *ps, const node *v, int step_no, lsn_step *st)
{
    char shown[64];
    const char *fix = _("write the one action the learner must do, such as wait: step");
    if (v->kind == N_SCALAR && (lsn_plain_null(v) || lsn_blank(v->value, v->length)))
        return lsn_fail_at(ps->name, v->line, v->column, "wait in step %d is empty; %s, or leave wait out", step_no, fix);
    if (v->kind != N_SCALAR || lsn_plain_number(v))
        return lsn_fail_at(ps->name, v->line, v->column, "wait in step %d is %s; %s", step_no, lsn_node_what(v), fix);
    if (v->value[strcspn(v->value, " \t\r\n,")])
        return lsn_fail_at(ps->name, v->line, v->column,
                       "wait in step %d is '%s'; wait names one action, such as step or gpu, with no spaces or "
                       "commas",
                       step_no, lsn_clip(v->value, v->length, shown, sizeof shown));
    st->wait = lsn_dup_n(v->value, v->length);
    if (!st->wait)
        return lsn_fail_at(ps->name, v->line, v->column, "out of memory while reading the lesson");
    st->wait_line = v->line;
    st->wait_column = v->column;
    return true;
}

/* The keys of the variants in a lesson file. */
static const char *const lsn_variant_keys[LSN_VARIANTS] = {"say-gpu", "say-software", "say-no-gpu"};

/* A narration (say or a variant): text, its placeholders checked; a copy. */
bool lsn_say_value(const parse *ps, const node *v, const char *what, char **out)
{
    const char *say_fix = _("write the narration after the key, or after 'key: |' on the lines below it");
    base b;
    if (!lsn_text_value(ps, v, what, say_fix))
        return false;
    b = lsn_scalar_base(v, ps->text, ps->size);
    if (!lsn_check_placeholders(ps->name, v->value, b.line, b.column, b.by_lines))
        return false;
    *out = lsn_dup_n(v->value, v->length);
    if (!*out)
        return lsn_fail_at(ps->name, v->line, v->column, "out of memory while reading the lesson");
    return true;
}

static bool step_value(const parse *ps, const node *m, int step_no, lsn_step *st)
{
    static const char *const keys[] = {"say", "say-gpu", "say-software", "say-no-gpu", "do", "wait", "image",
                                       "ask", "notes", NULL};
    const char *say_fix = _("write the narration after 'say:', or after 'say: |' on the lines below it");
    char what[48];
    const node *say, *v;
    base b;
    st->line = m->line;
    if (m->kind != N_MAP)
        return lsn_fail_at(ps->name, m->line, m->column,
                       "step %d is %s; a step is a mapping such as '- say: ...' with optional do: and wait:", step_no,
                       lsn_node_what(m));
    if (!lsn_check_keys(ps, m, keys, _("in a step"),
                    _("a step has say (and say-gpu, say-software, say-no-gpu), do, wait, image, ask and notes")))
        return false;
    say = lsn_map_get(m, "say");
    if (!say)
        return lsn_fail_at(ps->name, m->line, m->column, "step %d has no say; every step needs 'say:' with its narration",
                       step_no);
    snprintf(what, sizeof what, _("say in step %d"), step_no);
    if (!lsn_text_value(ps, say, what, say_fix))
        return false;
    b = lsn_scalar_base(say, ps->text, ps->size);
    if (!lsn_check_placeholders(ps->name, say->value, b.line, b.column, b.by_lines))
        return false;
    st->say = lsn_dup_n(say->value, say->length);
    if (!st->say)
        return lsn_fail_at(ps->name, say->line, say->column, "out of memory while reading the lesson");
    st->say_line = say->line;
    st->say_column = say->column;
    for (int k = 0; k < LSN_VARIANTS; ++k)
        if ((v = lsn_map_get(m, lsn_variant_keys[k]))) {
            snprintf(what, sizeof what, _("%s in step %d"), lsn_variant_keys[k], step_no);
            if (!lsn_say_value(ps, v, what, &st->say_on[k]))
                return false;
            st->say_on_line[k] = v->line;
        }
    if ((v = lsn_map_get(m, "do")) && !do_value(ps, v, step_no, st))
        return false;
    if ((v = lsn_map_get(m, "wait")) && !wait_value(ps, v, step_no, st))
        return false;
    if ((v = lsn_map_get(m, "image"))) { /* an image to open when the step begins */
        if (!image_value(ps, v, _("write a file name such as 'image: tiny.png', or leave image out")))
            return false;
        if (!(st->image = lsn_dup_n(v->value, v->length)))
            return lsn_fail_at(ps->name, v->line, v->column, "out of memory while reading the lesson");
        st->image_line = v->line;
        st->image_column = v->column;
    }
    if ((v = lsn_map_get(m, "ask")) && !lsn_ask_value(ps, v, step_no, &st->ask))
        return false;
    if (st->ask.kind && st->wait)
        return lsn_fail_at(ps->name, st->wait_line, st->wait_column,
                           "step %d asks a question and waits for an action; the answer is what it waits for, so "
                           "put the action in a step of its own",
                           step_no);
    snprintf(what, sizeof what, _("notes in step %d"), step_no);
    if ((v = lsn_map_get(m, "notes")) && !lsn_notes_value(ps, v, what, &st->notes))
        return false;
    return true;
}

static bool lesson_value(const parse *ps, const node *root, lsn_lesson *out)
{
    static const char *const keys[] = {"title", "image", "record", "notes", "steps", NULL};
    const char *steps_fix = _("a lesson needs at least one step, written '- say: ...' under 'steps:'");
    const node *title, *image, *record, *notes, *steps;
    if (root->kind != N_MAP)
        return lsn_fail_at(ps->name, root->line, root->column,
                       "the lesson is %s; a lesson is a mapping that starts with 'title:' and has 'steps:'",
                       lsn_node_what(root));
    if (!lsn_check_keys(ps, root, keys, _("in the lesson"), _("a lesson has title, image, record, notes and steps")))
        return false;
    title = lsn_map_get(root, "title");
    if (!title)
        return lsn_fail_at(ps->name, root->line, root->column,
                       "the lesson has no title; start it with a line such as 'title: One at a time'");
    if (!lsn_text_value(ps, title, _("the title"), _("write it after 'title:', such as 'title: One at a time'")))
        return false;
    if (!(out->title = lsn_dup_n(title->value, title->length)))
        return lsn_fail_at(ps->name, title->line, title->column, "out of memory while reading the lesson");
    if ((image = lsn_map_get(root, "image"))) {
        if (!image_value(ps, image, _("write a file name such as 'image: sample.png', or leave image out")))
            return false;
        if (!(out->image = lsn_dup_n(image->value, image->length)))
            return lsn_fail_at(ps->name, image->line, image->column, "out of memory while reading the lesson");
        out->image_line = image->line;
        out->image_column = image->column;
    }
    if ((record = lsn_map_get(root, "record"))) { /* a recorded run, drawn in the size sweep */
        if (!path_value(ps, record, "record", "vm-2-cores-llvmpipe.json",
                        _("write a file name such as 'record: lab.json' (made by convis record), or leave record out")))
            return false;
        if (!(out->record = lsn_dup_n(record->value, record->length)))
            return lsn_fail_at(ps->name, record->line, record->column, "out of memory while reading the lesson");
        out->record_line = record->line;
        out->record_column = record->column;
    }
    if ((notes = lsn_map_get(root, "notes")) && !lsn_notes_value(ps, notes, _("the lesson's notes"), &out->notes))
        return false;
    steps = lsn_map_get(root, "steps");
    if (!steps)
        return lsn_fail_at(ps->name, root->line, root->column, "the lesson has no steps; %s", steps_fix);
    if (steps->kind != N_SEQ && !lsn_plain_null(steps))
        return lsn_fail_at(ps->name, steps->line, steps->column, "steps is %s, not a list; %s", lsn_node_what(steps),
                       steps_fix);
    if (steps->kind != N_SEQ || steps->count == 0)
        return lsn_fail_at(ps->name, steps->line, steps->column, "steps is empty; %s", steps_fix);
    if (steps->count > LSN_MAX_STEPS) {
        const node *s = steps->kids[LSN_MAX_STEPS];
        return lsn_fail_at(ps->name, s->line, s->column,
                       "this is step %d; a lesson may have at most %d steps, so split it into several lessons",
                       LSN_MAX_STEPS + 1, LSN_MAX_STEPS);
    }
    out->steps = calloc((size_t)steps->count, sizeof *out->steps);
    if (!out->steps)
        return lsn_fail_at(ps->name, steps->line, steps->column, "out of memory while reading the lesson");
    for (int i = 0; i < steps->count; ++i) {
        out->step_count = i + 1; /* so lsn_free frees what the step holds so far */
        if (!step_value(ps, steps->kids[i], i + 1, &out->steps[i]))
            return false;
    }
    return true;
}

/* ---- the API -------------------------------------------------------------------------------- */

bool lsn_parse(const char *name, const char *text, size_t size, lsn_lesson *out)
{
    parse ps = {name ? name : "(lesson)", text, size};
    node *root = NULL;
    bool ok;
    if (!out)
        return err_set("%s:1:1: no lesson to fill", ps.name);
    memset(out, 0, sizeof *out);
    if (!text && size)
        return lsn_fail_at(ps.name, 1, 1, "no text to read");
    if (!text)
        ps.text = "";
    if (size > LSN_MAX_FILE_BYTES)
        return lsn_fail_at(ps.name, 1, 1, "the lesson is %zu bytes; a lesson file may be at most %d bytes (1 MiB)", size,
                       LSN_MAX_FILE_BYTES);
    if (size >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) /* a UTF-8 byte order mark: skipped */
        ps.text += 3, ps.size -= 3;
    if (!build_tree(&ps, &root))
        return false;
    if (!root)
        return lsn_fail_at(ps.name, 1, 1, "the lesson is empty; a lesson starts with 'title:' and has 'steps:'");
    ok = lesson_value(&ps, root, out);
    node_free(root);
    if (!ok)
        lsn_free(out); /* leaves err_msg() as it is */
    return ok;
}

bool lsn_load(const char *path, lsn_lesson *out)
{
    struct stat st;
    char *buf;
    size_t n = 0;
    bool ok;
    int fd;
    if (out)
        memset(out, 0, sizeof *out);
    if (!path)
        return err_set("(lesson): no file name given");
    /* Opened without blocking (a FIFO would block here), then refused unless
     * it is a regular file. */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return err_set("%s: cannot read the lesson: %s", path,
                       errno == ELOOP ? _("it is a symbolic link that leads round in a loop") : strerror(errno));
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return err_set("%s: cannot read the lesson: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode))
            return err_set("%s: is a folder; give a lesson file, such as lessons/en/01-one-at-a-time.yaml", path);
        return err_set("%s: cannot read the lesson: it is not a regular file (a pipe, a device or a socket)", path);
    }
    if (st.st_size > LSN_MAX_FILE_BYTES) {
        close(fd);
        return err_set("%s: the file is %lld bytes; a lesson file may be at most %d bytes (1 MiB)", path,
                       (long long)st.st_size, LSN_MAX_FILE_BYTES);
    }
    buf = malloc(LSN_MAX_FILE_BYTES + 1);
    if (!buf) {
        close(fd);
        return err_set("%s: out of memory while reading the lesson", path);
    }
    /* Reads one byte past the cap: the file may have grown. */
    while (n < LSN_MAX_FILE_BYTES + 1) {
        ssize_t k = read(fd, buf + n, LSN_MAX_FILE_BYTES + 1 - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            close(fd);
            free(buf);
            return err_set("%s: cannot read the lesson: %s", path, strerror(e));
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    close(fd);
    if (n > LSN_MAX_FILE_BYTES) {
        free(buf);
        return err_set("%s: the file is over %d bytes; a lesson file may be at most %d bytes (1 MiB)", path,
                       LSN_MAX_FILE_BYTES, LSN_MAX_FILE_BYTES);
    }
    ok = lsn_parse(path, buf, n, out);
    free(buf);
    return ok;
}

void lsn_free(lsn_lesson *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->step_count && l->steps; ++i) {
        lsn_step *st = &l->steps[i];
        for (int k = 0; k < st->action_count; ++k)
            free(st->actions[k].text);
        free(st->actions);
        free(st->say);
        for (int k = 0; k < LSN_VARIANTS; ++k)
            free(st->say_on[k]);
        free(st->wait);
        free(st->image);
        free(st->notes);
        lsn_ask_free(&st->ask);
    }
    free(l->steps);
    free(l->title);
    free(l->image);
    free(l->record);
    free(l->notes);
    memset(l, 0, sizeof *l);
}
